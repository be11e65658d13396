// Streaming fuzzer. Byte 0 picks the mode and its options, byte 1 seeds the
// sizes of the buffers handed to the streams; the layout of the rest is
// fuzz/stream_input.hpp's (the seed generator writes the same layout).
//  - decode (bit 0 of byte 0 clear): the payload, as frames, goes through a
//    decompress_stream in pieces (with the input's dictionary, if any);
//    where the one-shot decoder succeeds the stream must produce the same
//    bytes, and where it fails the stream must fail too or stop short of a
//    frame's end. The one difference allowed: once the stream's window
//    buffer has wrapped, a match reaching further back than the frame's
//    window is refused (the one-shot decoder still has those bytes).
//  - compress (bit 0 set): the payload (repeated up to a length the input
//    gives, so that inputs of several blocks cost a few bytes) goes through
//    a compress_stream, in pieces with flushes or all at once with
//    directive::end, with a level, window, pledged size, size hint and
//    dictionary taken from the input; libzstd and zest must decode the frame
//    back to it.
// Every streaming loop runs under a watchdog (fuzz/stream_watchdog.hpp): a
// call that makes no progress aborts. Any difference aborts.
#include <zstd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <vector>

#include "stream_input.hpp"
#include "stream_watchdog.hpp"
#include "zest/zest.hpp"

namespace {

using zest_fuzz::stream_input;
using zest_fuzz::stream_watchdog;

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

// The input's dictionary as zest loads it (automatic: formatted when it
// starts with the magic number, raw content otherwise). Bytes that zest
// refuses give no dictionary: the run goes on without one.
zest::dictionary load_dictionary(const stream_input& in) {
    if (!in.has_dictionary) return {};
    auto d = zest::dictionary::load(in.dictionary.data(), in.dictionary.size());
    return d ? *d : zest::dictionary{};
}

void decode_mode(const stream_input& si, sizes& sz) {
    const std::uint8_t* data = si.payload.data();
    const std::size_t size = si.payload.size();
    const zest::dictionary dict = load_dictionary(si);
    std::vector<std::byte> one(out_limit);
    zest::decompressor d;
    (void)d.set_max_window_log(23);
    d.set_dictionary(dict);
    const auto r = d.decompress(one.data(), one.size(), data, size);
    if (!r && r.error() == zest::errc::destination_too_small) return;  // too big to compare

    zest::decompress_stream ds;
    (void)ds.set_max_window_log(23);
    if (!ds.set_dictionary(dict)) fail("a new stream refuses a dictionary");
    std::vector<std::byte> got, buf;
    std::size_t at = 0;
    zest::errc err{};
    bool ended_at_frame = true;
    stream_watchdog watchdog("decompress_stream");
    for (;;) {
        const std::size_t ni = std::min(sz.next(4096), size - at);
        buf.resize(sz.next(70000));
        zest::in_buffer in{data + at, ni, 0};
        zest::out_buffer out{buf.data(), buf.size(), 0};
        const auto s = ds.decompress(out, in);
        if (!s) {
            err = s.error();
            break;
        }
        watchdog.after_call(ni, buf.size(), in.pos, out.pos);
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

void compress_mode(const stream_input& si, sizes& sz) {
    const std::vector<std::uint8_t> src = si.expanded();
    const std::uint8_t* data = src.data();
    const std::size_t size = src.size();
    const zest::dictionary dict = load_dictionary(si);

    zest::compress_stream cs;
    if (!cs.set_level(si.level) || !cs.set_checksum(si.checksum) || !cs.set_content_size(si.content_size))
        fail("an option refused between frames");
    if (si.window_log && !cs.set_window_log(si.window_log)) fail("a window log within the bounds refused");
    if (si.pledge && !cs.set_pledged_size(size)) fail("a pledged size refused");
    if (si.size_hint && !cs.set_size_hint(1 + sz.next(std::size_t(1) << 20))) fail("a size hint refused");
    if (!cs.set_dictionary(dict) || !cs.set_dictionary_id_written(si.dictionary_id)) fail("a dictionary refused");

    std::vector<std::byte> frame, buf;
    stream_watchdog watchdog("compress_stream");
    // Calls compress with `in` and directive `d` until `in` is consumed and,
    // unless proceeding, nothing is left to write.
    auto drain = [&](zest::in_buffer& in, zest::directive d) {
        for (;;) {
            buf.resize(sz.next(3000));
            zest::out_buffer out{buf.data(), buf.size(), 0};
            const std::size_t before = in.pos;
            const auto r = cs.compress(out, in, d);
            if (!r) fail(r.message());
            watchdog.after_call(in.size - before, buf.size(), in.pos - before, out.pos);
            frame.insert(frame.end(), buf.begin(), buf.begin() + std::ptrdiff_t(out.pos));
            if (in.pos == in.size && (d == zest::directive::proceed || *r == 0)) return;
        }
    };
    if (si.all_at_once) {
        // One input buffer holding everything, with directive::end from the
        // first call (the reference's ZSTD_compressStream2 with ZSTD_e_end).
        zest::in_buffer in{data, size, 0};
        drain(in, zest::directive::end);
    } else {
        std::size_t at = 0;
        for (;;) {
            const std::size_t ni = std::min(sz.next(20000), size - at);
            const bool last = at + ni == size;
            const std::size_t flush_odds = si.flush_often ? 2 : 8;
            const auto d = last                             ? zest::directive::end
                           : sz.next(flush_odds) == 1 ? zest::directive::flush
                                                            : zest::directive::proceed;
            zest::in_buffer in{data + at, ni, 0};
            drain(in, d);
            at += ni;
            if (last) break;
        }
    }

    // libzstd decodes the frame with the same bytes as dictionary: what
    // ZSTD_decompress_usingDict makes of them is what zest's automatic
    // loading does (raw content unless they start with the magic number).
    std::vector<std::byte> back(size + 1);
    ZSTD_DCtx* dctx = ZSTD_createDCtx();
    const std::size_t k = dict.empty() ? ZSTD_decompressDCtx(dctx, back.data(), back.size(), frame.data(), frame.size())
                                       : ZSTD_decompress_usingDict(dctx, back.data(), back.size(), frame.data(),
                                                                   frame.size(), si.dictionary.data(), si.dictionary.size());
    ZSTD_freeDCtx(dctx);
    if (ZSTD_isError(k)) fail(ZSTD_getErrorName(k));
    if (k != size || (size && std::memcmp(back.data(), data, size) != 0)) fail("libzstd decoded other bytes");
    const auto z = zest::decompress(std::span<std::byte>(back), std::span<const std::byte>(frame), dict);
    if (!z) fail(z.message());
    if (*z != size || (size && std::memcmp(back.data(), data, size) != 0)) fail("zest decoded other bytes");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    stream_input in;
    if (!in.parse({data, size})) return 0;
    sizes sz{in.size_seed * 0x9E3779B97F4A7C15ull + 1};
    if (in.compress)
        compress_mode(in, sz);
    else
        decode_mode(in, sz);
    return 0;
}
