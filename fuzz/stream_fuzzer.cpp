// Streaming fuzzer. The first byte picks the mode and the second seeds the
// sizes of the buffers handed to the streams; the rest is the payload.
//  - decode (even first byte): the payload, as frames, goes through a
//    decompress_stream in pieces; where the one-shot decoder succeeds the
//    stream must produce the same bytes, and where it fails the stream must
//    fail too or stop short of a frame's end. The one difference allowed:
//    once the stream's window buffer has wrapped, a match reaching further
//    back than the frame's window is refused (the one-shot decoder still
//    has those bytes).
//  - compress (odd first byte): the payload goes through a compress_stream
//    in pieces, with flushes, at a level taken from the seed; libzstd must
//    decode the frame back to the payload.
// Any difference aborts.
#include <zstd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <vector>

#include "zest/zest.hpp"

namespace {

[[noreturn]] void fail(const char* what) {
    std::fprintf(stderr, "stream_fuzzer: %s\n", what);
    std::abort();
}

// Small deterministic generator for buffer sizes.
struct sizes {
    std::uint64_t x;
    std::size_t next(std::size_t max) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        const std::size_t kind = (x >> 60) & 3;
        const std::size_t n = std::size_t(x >> 33);
        if (kind == 0) return 1;
        if (kind == 1) return 1 + n % 16;
        return 1 + n % max;
    }
};

constexpr std::size_t out_limit = 8u << 20;

void decode_mode(const std::uint8_t* data, std::size_t size, sizes& sz) {
    std::vector<std::byte> one(out_limit);
    zest::decompressor d;
    (void)d.set_max_window_log(23);
    const auto r = d.decompress(one.data(), one.size(), data, size);
    if (!r && r.error() == zest::errc::destination_too_small) return;  // too big to compare

    zest::decompress_stream ds;
    (void)ds.set_max_window_log(23);
    std::vector<std::byte> got, buf;
    std::size_t at = 0;
    zest::errc err{};
    bool ended_at_frame = true;
    for (int guard = 0; guard < 10'000'000; ++guard) {
        const std::size_t ni = std::min(sz.next(4096), size - at);
        buf.resize(sz.next(70000));
        zest::in_buffer in{data + at, ni, 0};
        zest::out_buffer out{buf.data(), buf.size(), 0};
        const auto s = ds.decompress(out, in);
        if (!s) {
            err = s.error();
            break;
        }
        got.insert(got.end(), buf.begin(), buf.begin() + std::ptrdiff_t(out.pos));
        if (got.size() > out_limit) fail("the stream produced more than the one-shot decoder accepted");
        at += in.pos;
        ended_at_frame = *s == 0;
        if (at == size && (*s == 0 || (in.pos == 0 && out.pos == 0))) break;
    }
    if (r) {
        if (err == zest::errc::offset_invalid) return;  // the allowed difference
        if (err != zest::errc{}) fail("the stream failed where the one-shot decoder succeeded");
        if (!ended_at_frame && size != 0) fail("the stream did not end a frame the one-shot decoder decoded");
        if (got.size() != *r || (*r && std::memcmp(got.data(), one.data(), *r) != 0))
            fail("the stream decoded other bytes than the one-shot decoder");
    } else {
        if (err == zest::errc{} && ended_at_frame && at == size && size != 0)
            fail("the stream accepted what the one-shot decoder refused");
        // Whatever it produced must be a prefix of a correct decoding: not
        // checkable without a reference output; memory safety is what the
        // sanitizers check here.
    }
}

void compress_mode(const std::uint8_t* data, std::size_t size, sizes& sz, std::uint8_t seed) {
    zest::compress_stream cs;
    (void)cs.set_level(int(seed % 12) - 4);
    (void)cs.set_checksum(seed & 0x10);
    if (seed & 0x20) (void)cs.set_window_log(10 + (seed >> 6));
    if (seed & 0x80) (void)cs.set_pledged_size(size);
    std::vector<std::byte> frame, buf;
    std::size_t at = 0;
    for (int guard = 0;; ++guard) {
        if (guard > 50'000'000) fail("no end");
        const std::size_t ni = std::min(sz.next(20000), size - at);
        const bool last = at + ni == size;
        const auto d = last ? zest::directive::end : (sz.next(8) == 1 ? zest::directive::flush : zest::directive::proceed);
        zest::in_buffer in{data + at, ni, 0};
        for (;;) {
            buf.resize(sz.next(3000));
            zest::out_buffer out{buf.data(), buf.size(), 0};
            const auto r = cs.compress(out, in, d);
            if (!r) fail(r.message());
            frame.insert(frame.end(), buf.begin(), buf.begin() + std::ptrdiff_t(out.pos));
            if (in.pos == in.size && (d == zest::directive::proceed || *r == 0)) break;
        }
        at += ni;
        if (last) break;
    }
    std::vector<std::byte> back(size + 1);
    const std::size_t k = ZSTD_decompress(back.data(), back.size(), frame.data(), frame.size());
    if (ZSTD_isError(k)) fail(ZSTD_getErrorName(k));
    if (k != size || (size && std::memcmp(back.data(), data, size) != 0)) fail("libzstd decoded other bytes");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    sizes sz{data[1] * 0x9E3779B97F4A7C15ull + 1};
    if (data[0] & 1) compress_mode(data + 2, size - 2, sz, data[0]);
    else decode_mode(data + 2, size - 2, sz);
    return 0;
}
