// Drives a zest::decompress_stream the way callers do: input and output
// handed over in pieces whose sizes follow a pattern (one byte, odd sizes,
// random, whole), until the input is consumed. Shared by the stream and
// dictionary tests, with the watchdog their streaming loops run under.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include <zstd.h>

#include "corpus.hpp"
#include "zest/zest.hpp"

namespace zest::test::streaming {

// Watchdog for a streaming loop, so that a stream that stops making
// progress fails its test instead of hanging the suite. The contract of
// both streams: a call consumes input and produces output until one of them
// runs out (or a frame ends, which takes the frame's last byte), so a call
// that moves nothing although it had input to read and room to write is a
// stall; one is tolerated, the second in a row fails. The calls of a whole
// loop are bounded by what they moved (every call moves a byte, is such a
// stall, or ends a directive). A hang inside one call is left to ctest's
// per-test timeout (tests/stream/tests.cmake).
class progress_watchdog {
public:
    static constexpr unsigned stall_limit = 2;
    static constexpr std::size_t call_slack = 64;

    explicit progress_watchdog(const char* loop) : loop_(loop) {}

    // After each call: the input it was offered (not yet consumed), its
    // output room, and what it consumed and produced. False (with a test
    // failure) when the loop must stop.
    [[nodiscard]] bool after_call(std::size_t offered, std::size_t room, std::size_t consumed, std::size_t produced) {
        ++calls_;
        moved_ += consumed + produced;
        if (consumed || produced) {
            stalled_ = 0;
        } else if (offered && room && ++stalled_ >= stall_limit) {
            ADD_FAILURE() << loop_ << ": " << stalled_ << " calls in a row consumed and produced nothing, with "
                          << offered << " bytes offered and " << room << " of room";
            return false;
        }
        if (calls_ > 2 * moved_ + call_slack) {
            ADD_FAILURE() << loop_ << ": " << calls_ << " calls moved only " << moved_ << " bytes";
            return false;
        }
        return true;
    }

private:
    const char* loop_;
    std::size_t calls_ = 0, moved_ = 0;
    unsigned stalled_ = 0;
};

// The other half of the watchdog: a hang inside one call, which no count of
// calls can see. Aborts the process, naming `what`, unless destroyed within
// `limit` (a per-test failure with its cause, well before ctest's time-out).
class call_deadline {
public:
    call_deadline(std::string what, std::chrono::seconds limit) : what_(std::move(what)) {
        thread_ = std::thread([this, limit] {
            std::unique_lock<std::mutex> lock(m_);
            if (!cv_.wait_for(lock, limit, [this] { return done_; })) {
                std::fprintf(stderr, "watchdog: %s did not return within %lld s\n", what_.c_str(),
                             static_cast<long long>(limit.count()));
                std::abort();
            }
        });
    }
    call_deadline(const call_deadline&) = delete;
    call_deadline& operator=(const call_deadline&) = delete;
    ~call_deadline() {
        {
            const std::lock_guard<std::mutex> lock(m_);
            done_ = true;
        }
        cv_.notify_one();
        thread_.join();
    }

private:
    std::string what_;
    std::mutex m_;
    std::condition_variable cv_;
    bool done_ = false;
    std::thread thread_;
};

// Sizes of successive input and output buffers handed to the stream.
using chunker = std::function<std::size_t(std::size_t call)>;

struct stream_run {
    bytes out;
    std::size_t frames_done = 0;  // calls that returned 0
    std::size_t last_hint = 0;
    zest::errc error{};
};

// Feeds `src` through a decompress_stream, input and output cut by the two
// chunkers, until the input is consumed and no output is pending.
inline stream_run stream_decode(zest::decompress_stream& ds, std::span<const std::byte> src, const chunker& in_size,
                         const chunker& out_size) {
    stream_run r;
    std::size_t in_at = 0;
    std::vector<std::byte> buf;
    progress_watchdog watchdog("decompress_stream");
    const call_deadline deadline("a decompress_stream loop", std::chrono::seconds(300));
    for (std::size_t call = 0;; ++call) {
        const std::size_t ni = std::min(in_size(call), src.size() - in_at);
        zest::in_buffer in{src.data() + in_at, ni, 0};
        buf.assign(std::max<std::size_t>(out_size(call), 1), std::byte{0});
        zest::out_buffer out{buf.data(), buf.size(), 0};
        const auto res = ds.decompress(out, in);
        if (!res) {
            r.error = res.error();
            return r;
        }
        r.out.insert(r.out.end(), buf.begin(), buf.begin() + std::ptrdiff_t(out.pos));
        if (!watchdog.after_call(ni, buf.size(), in.pos, out.pos)) {
            r.error = zest::errc::invalid_argument;  // so that no caller takes the run for a success
            return r;
        }
        in_at += in.pos;
        r.last_hint = *res;
        if (*res == 0) ++r.frames_done;
        // Done when all input is in and either a frame just ended or the
        // call could do nothing more (a truncated frame).
        if (in_at == src.size() && (*res == 0 || (in.pos == 0 && out.pos == 0))) return r;
    }
}

inline chunker fixed(std::size_t n) {
    return [n](std::size_t) { return n; };
}
inline chunker seeded(std::uint64_t seed, std::size_t max) {
    auto rng = std::make_shared<std::mt19937_64>(seed);
    return [rng, max](std::size_t) { return std::size_t((*rng)() % max) + 1; };
}

struct named_chunkers {
    const char* name;
    chunker in, out;
};

inline std::vector<named_chunkers> patterns() {
    return {
        {"whole", fixed(SIZE_MAX / 2), fixed(64u << 20)},
        {"one-byte-in", fixed(1), fixed(64u << 10)},
        {"one-byte-out", fixed(64u << 10), fixed(1)},
        {"one-byte-both", fixed(1), fixed(1)},
        {"7-and-13", fixed(7), fixed(13)},
        {"recommended", fixed(zest::decompress_stream::recommended_in_size),
         fixed(zest::decompress_stream::recommended_out_size)},
        {"random-small", seeded(1, 300), seeded(2, 300)},
        {"random-large", seeded(3, 300000), seeded(4, 300000)},
    };
}

// A frame written by libzstd's streaming API in small pieces (up to
// `max_piece` bytes) with random flushes: no content size, many small
// blocks; with `dict` (loaded as ZSTD_CCtx_loadDictionary does) when not empty.
inline bytes zstd_streamed(std::span<const std::byte> src, int level, int window_log,
                           std::span<const std::byte> dict = {}, std::size_t max_piece = 50000,
                           std::uint64_t seed = 7) {
    ZSTD_CCtx* c = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level);
    if (window_log) ZSTD_CCtx_setParameter(c, ZSTD_c_windowLog, window_log);
    ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
    if (!dict.empty()) ZSTD_CCtx_loadDictionary(c, dict.data(), dict.size());
    bytes out;
    std::vector<std::byte> buf(ZSTD_CStreamOutSize());
    std::size_t at = 0;
    std::mt19937_64 rng(seed);
    for (;;) {
        const std::size_t n = std::min<std::size_t>(src.size() - at, rng() % max_piece + 1);
        const bool last = at + n == src.size();
        ZSTD_inBuffer in{src.data() + at, n, 0};
        std::size_t left;
        do {
            ZSTD_outBuffer o{buf.data(), buf.size(), 0};
            left = ZSTD_compressStream2(c, &o, &in, last ? ZSTD_e_end : (rng() % 4 == 0 ? ZSTD_e_flush : ZSTD_e_continue));
            EXPECT_FALSE(ZSTD_isError(left)) << ZSTD_getErrorName(left);
            if (ZSTD_isError(left)) break;
            out.insert(out.end(), buf.begin(), buf.begin() + std::ptrdiff_t(o.pos));
        } while (in.pos < in.size || (last && left != 0));
        at += n;
        if (last) break;
    }
    ZSTD_freeCCtx(c);
    return out;
}

}  // namespace zest::test::streaming
