// Streaming compression: any buffer sizes, the three directives, pledged
// sizes, inputs many windows long (the input buffer moves), several frames
// per stream; libzstd and zest decode the output.
#include <gtest/gtest.h>
#define ZSTD_STATIC_LINKING_ONLY  // ZSTD_getFrameHeader, ZSTD_c_srcSizeHint
#include <zstd.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "check.hpp"
#include "compress/frame_writer.hpp"
#include "corpus.hpp"
#include "stream_driver.hpp"
#include "zest/zest.hpp"

namespace {

using zest::test::bytes;
using chunker = std::function<std::size_t(std::size_t call)>;

chunker fixed(std::size_t n) {
    return [n](std::size_t) { return n; };
}
chunker seeded(std::uint64_t seed, std::size_t max) {
    auto rng = std::make_shared<std::mt19937_64>(seed);
    return [rng, max](std::size_t) { return std::size_t((*rng)() % max) + 1; };
}

bytes libzstd_decode(std::span<const std::byte> frame) {
    // Streaming, so that frames without a content size decode too.
    ZSTD_DStream* d = ZSTD_createDStream();
    bytes out;
    std::vector<std::byte> buf(ZSTD_DStreamOutSize());
    ZSTD_inBuffer in{frame.data(), frame.size(), 0};
    std::size_t r = 1;
    while (in.pos < in.size || r != 0) {
        ZSTD_outBuffer o{buf.data(), buf.size(), 0};
        r = ZSTD_decompressStream(d, &o, &in);
        if (ZSTD_isError(r)) {
            ADD_FAILURE() << "libzstd: " << ZSTD_getErrorName(r);
            break;
        }
        out.insert(out.end(), buf.begin(), buf.begin() + std::ptrdiff_t(o.pos));
        if (in.pos == in.size && o.pos < o.size && r != 0) {
            ADD_FAILURE() << "libzstd: frame incomplete";
            break;
        }
    }
    ZSTD_freeDStream(d);
    return out;
}

// Compresses `src` as one frame: input and output cut by the chunkers,
// `flush_every` > 0 asks for a flush after that many input bytes (and checks
// that everything given so far decodes from the output so far).
bytes stream_compress(zest::compress_stream& cs, std::span<const std::byte> src, const chunker& in_size,
                      const chunker& out_size, std::size_t flush_every = 0) {
    bytes frame;
    std::vector<std::byte> buf;
    std::size_t at = 0, next_flush = flush_every ? flush_every : SIZE_MAX, call = 0;
    zest::test::streaming::progress_watchdog watchdog("compress_stream");
    const zest::test::streaming::call_deadline deadline("a compress_stream loop", std::chrono::seconds(300));
    auto run = [&](zest::in_buffer& in, zest::directive d) -> bool {
        for (;;) {
            buf.assign(out_size(call), std::byte{0});
            zest::out_buffer out{buf.data(), buf.size(), 0};
            const std::size_t before = in.pos;
            const auto r = cs.compress(out, in, d);
            ++call;
            if (!r) {
                ADD_FAILURE() << "compress: " << r.message();
                return false;
            }
            frame.insert(frame.end(), buf.begin(), buf.begin() + std::ptrdiff_t(out.pos));
            if (!watchdog.after_call(in.size - before, buf.size(), in.pos - before, out.pos)) return false;
            if (d == zest::directive::proceed && in.pos == in.size) return true;
            if (d != zest::directive::proceed && *r == 0 && in.pos == in.size) return true;
        }
    };
    while (at < src.size()) {
        const std::size_t n = std::min({in_size(call), src.size() - at, next_flush - at});
        zest::in_buffer in{src.data() + at, n, 0};
        if (!run(in, zest::directive::proceed)) return frame;
        at += n;
        if (at == next_flush && at < src.size()) {
            zest::in_buffer none{};
            if (!run(none, zest::directive::flush)) return frame;
            // Everything so far is decodable: a streaming decoder given the
            // output so far produces exactly the input so far.
            zest::decompress_stream ds;
            bytes got(at + 1);
            zest::in_buffer fin{frame.data(), frame.size(), 0};
            zest::out_buffer fout{got.data(), got.size(), 0};
            const auto r = ds.decompress(fout, fin);
            EXPECT_TRUE(r) << r.message();
            EXPECT_EQ(fout.pos, at);
            EXPECT_TRUE(std::equal(got.begin(), got.begin() + std::ptrdiff_t(fout.pos), src.begin())) << at;
            next_flush += flush_every;
        }
    }
    zest::in_buffer none{};
    run(none, zest::directive::end);
    return frame;
}

void expect_roundtrip(std::span<const std::byte> frame, std::span<const std::byte> src, const std::string& what) {
    EXPECT_TRUE(zest::test::same_bytes(libzstd_decode(frame), src)) << what << " (libzstd)";
    const auto mine = zest::decompress(frame);
    EXPECT_TRUE(zest::test::same_bytes(mine, src)) << what << " (zest)";
}

TEST(CompressStream, EveryBufferPatternAtSeveralLevels) {
    // Under 1 MiB, so that the one-byte patterns stay quick (as in the
    // decompression test, which keeps them to inputs of that size).
    const bytes src = zest::test::mixed(600000, 21);
    struct pattern {
        const char* name;
        chunker in, out;
    };
    const pattern patterns[] = {
        {"whole", fixed(SIZE_MAX / 2), fixed(8u << 20)},
        {"one-byte-in", fixed(1), fixed(zest::compress_stream::recommended_out_size)},
        {"one-byte-out", fixed(zest::compress_stream::recommended_in_size), fixed(1)},
        {"one-byte-both", fixed(1), fixed(1)},
        {"random", seeded(1, 100000), seeded(2, 5000)},
        {"random-small", seeded(3, 300), seeded(4, 300)},
        {"recommended", fixed(zest::compress_stream::recommended_in_size),
         fixed(zest::compress_stream::recommended_out_size)},
    };
    for (int level : {-5, 1, 3, 7}) {
        for (bool checksum : {false, true}) {
            for (const auto& p : patterns) {
                zest::compress_stream cs;
                ASSERT_TRUE(cs.set_level(level));
                ASSERT_TRUE(cs.set_checksum(checksum));
                const bytes f = stream_compress(cs, src, p.in, p.out);
                const std::string what = std::string(p.name) + " level " + std::to_string(level);
                expect_roundtrip(f, src, what);
                EXPECT_EQ(ZSTD_getFrameContentSize(f.data(), f.size()), ZSTD_CONTENTSIZE_UNKNOWN) << what;
                // Close to the one-shot size (the stream cannot know the size).
                const bytes one = zest::compress(src, level);
                EXPECT_LT(f.size(), one.size() + one.size() / 50 + 64) << what;
            }
        }
    }
}

TEST(CompressStream, LongInputsMoveTheBuffer) {
    // Windows of 1 KiB to 1 MiB over inputs many windows long (the input
    // buffer wraps round at least once for each).
    const bytes src = zest::test::mixed(3u << 20, 22);
    for (unsigned wlog : {10u, 14u, 18u, 20u}) {
        for (int level : {1, 3}) {
            zest::compress_stream cs;
            ASSERT_TRUE(cs.set_level(level));
            ASSERT_TRUE(cs.set_window_log(wlog));
            ASSERT_TRUE(cs.set_checksum(true));
            const bytes f = stream_compress(cs, src, seeded(wlog, 200000), fixed(65536));
            const std::string what = "window log " + std::to_string(wlog) + " level " + std::to_string(level);
            expect_roundtrip(f, src, what);
            zest::compressor c;
            (void)c.set_level(level);
            ASSERT_TRUE(c.set_window_log(wlog));
            const bytes one = c.compress(src);
            EXPECT_LT(f.size(), one.size() + one.size() / 50 + 64) << what;
            // The input buffer is the window plus a block, seen through a
            // view of twice that (plain memory). The rest is the match tables
            // (as the one-shot context's, up to a block more: a stream of
            // unknown size does not shrink them to the input) and a block of
            // output.
            const std::size_t window = std::size_t(1) << wlog;
            const std::size_t block = std::min<std::size_t>(window, 128u << 10);
            const std::size_t input = 2 * (window + block);
            EXPECT_LE(cs.memory_usage(), input + c.memory_usage() + 2 * block + (64u << 10)) << what;
        }
    }
}

TEST(CompressStream, PositionsAreLoweredBeforeTheyOverflow) {
    // Streams longer than the tables' position range (2 GiB) lower every
    // position now and then; a low limit makes that happen every few MiB.
    const std::uint32_t saved = zest::detail::stream_position_limit;
    zest::detail::stream_position_limit = 1u << 21;
    const bytes all = zest::test::mixed(12u << 20, 27);
    for (unsigned wlog : {12u, 17u}) {
        // The optimal strategies (btultra2 moves its positions after its
        // first block), and long-distance matching's table, are lowered too.
        const struct {
            int level;
            bool ldm;
        } cases[] = {{1, false}, {3, false}, {16, false}, {19, false}, {3, true}, {19, true}};
        for (const auto& [level, ldm] : cases) {
            // The optimal strategies on 3 MiB (still several lowerings), with
            // the larger window only: they are slow under the sanitizers.
            if (level >= 16 && wlog != 17) continue;
            const bytes src = level >= 16 ? bytes(all.begin(), all.begin() + (3 << 20)) : all;
            zest::compression_parameters p;
            p.window_log = wlog;
            if (ldm) p.ldm = {zest::ldm_mode::enabled, 0, 16, 0, 4};  // many long matches
            zest::compress_stream cs;
            ASSERT_TRUE(cs.set_level(level));
            ASSERT_TRUE(cs.set_parameters(p));
            const bytes f = stream_compress(cs, src, fixed(1u << 20), fixed(1u << 20));
            const std::string what = "lowered, window log " + std::to_string(wlog) + " level " +
                                     std::to_string(level) + (ldm ? " with ldm" : "");
            expect_roundtrip(f, src, what);
            zest::compressor c;
            (void)c.set_level(level);
            ASSERT_TRUE(c.set_parameters(p));
            const bytes one = c.compress(src);
            EXPECT_LT(f.size(), one.size() + one.size() / 50 + 64) << what;
        }
    }
    zest::detail::stream_position_limit = saved;
}

TEST(CompressStream, FlushMakesEverythingSoFarDecodable) {
    const bytes src = zest::test::english_text(400000, 23);
    for (std::size_t every : {std::size_t(1000), std::size_t(77777), std::size_t(131072)}) {
        zest::compress_stream cs;
        const bytes f = stream_compress(cs, src, seeded(every, 30000), seeded(every + 1, 30000), every);
        expect_roundtrip(f, src, "flush every " + std::to_string(every));
    }
}

TEST(CompressStream, EndWithAllInputMatchesTheOneShotFrame) {
    for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(300), std::size_t(200000), std::size_t(1u << 20)}) {
        const bytes src = zest::test::json_logs(n, 24);
        for (int level : {1, 3}) {
            zest::compress_stream cs;
            ASSERT_TRUE(cs.set_level(level));
            bytes out(zest::compress_bound(n) + 64);
            zest::in_buffer in{src.data(), src.size(), 0};
            zest::out_buffer o{out.data(), out.size(), 0};
            const auto r = cs.compress(o, in, zest::directive::end);
            ASSERT_TRUE(r) << r.message();
            EXPECT_EQ(*r, 0u);
            EXPECT_EQ(in.pos, n);
            out.resize(o.pos);
            // Same frame as the one-shot call: size declared, same blocks.
            EXPECT_TRUE(zest::test::same_bytes(out, zest::compress(src, level))) << n << " level " << level;
            expect_roundtrip(out, src, "end at once");
        }
    }
}

TEST(CompressStream, PledgedSizeIsDeclaredAndChecked) {
    const bytes src = zest::test::c_source(300000, 25);
    {
        zest::compress_stream cs;
        ASSERT_TRUE(cs.set_pledged_size(src.size()));
        const bytes f = stream_compress(cs, src, fixed(4096), fixed(4096));
        EXPECT_EQ(ZSTD_getFrameContentSize(f.data(), f.size()), src.size());
        expect_roundtrip(f, src, "pledged");
        // Cleared when the frame ends: the next frame declares no size.
        const bytes g = stream_compress(cs, src, fixed(4096), fixed(4096));
        EXPECT_EQ(ZSTD_getFrameContentSize(g.data(), g.size()), ZSTD_CONTENTSIZE_UNKNOWN);
        expect_roundtrip(g, src, "after pledged");
    }
    for (std::size_t pledged : {src.size() - 1, src.size() + 1}) {
        zest::compress_stream cs;
        ASSERT_TRUE(cs.set_pledged_size(pledged));
        bytes out(zest::compress_bound(src.size()) + 64);
        zest::in_buffer in{src.data(), src.size(), 0};
        zest::out_buffer o{out.data(), out.size(), 0};
        const auto r = cs.compress(o, in, zest::directive::end);
        ASSERT_FALSE(r) << pledged;
        EXPECT_EQ(r.error(), zest::errc::content_size_mismatch);
        // Sticky until reset.
        zest::in_buffer none{};
        EXPECT_FALSE(cs.compress(o, none, zest::directive::end));
        cs.reset();
        o.pos = 0;
        in.pos = 0;
        const auto again = cs.compress(o, in, zest::directive::end);
        ASSERT_TRUE(again) << again.message();
        EXPECT_EQ(*again, 0u);
        expect_roundtrip(std::span(out).first(o.pos), src, "after reset");
    }
}

TEST(CompressStream, OptionsChangeOnlyBetweenFrames) {
    const bytes src = zest::test::english_text(100000, 26);
    zest::compress_stream cs;
    bytes out(1 << 20);
    zest::in_buffer in{src.data(), 1000, 0};
    zest::out_buffer o{out.data(), out.size(), 0};
    ASSERT_TRUE(cs.compress(o, in, zest::directive::proceed));
    EXPECT_FALSE(cs.set_level(5));
    EXPECT_FALSE(cs.set_checksum(true));
    EXPECT_FALSE(cs.set_window_log(12));
    EXPECT_FALSE(cs.set_pledged_size(5));
    EXPECT_FALSE(cs.set_window_log(9));
    cs.reset();
    EXPECT_TRUE(cs.set_level(5));
    EXPECT_EQ(cs.level(), 5);
    EXPECT_TRUE(cs.set_fast(3));
    EXPECT_EQ(cs.level(), -3);
    EXPECT_FALSE(cs.set_fast(0));
}

// The window a frame header declares (libzstd reads it).
unsigned long long frame_window(std::span<const std::byte> frame) {
    ZSTD_frameHeader h{};
    EXPECT_EQ(ZSTD_getFrameHeader(&h, frame.data(), frame.size()), 0u);
    return h.windowSize;
}

// libzstd's streaming frame for `src` of unknown size with a size hint.
bytes libzstd_hinted(std::span<const std::byte> src, int level, std::uint64_t hint) {
    ZSTD_CCtx* c = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level);
    ZSTD_CCtx_setParameter(c, ZSTD_c_srcSizeHint, int(hint));
    bytes out(ZSTD_compressBound(src.size()) + 64);
    ZSTD_outBuffer o{out.data(), out.size(), 0};
    ZSTD_inBuffer in{src.data(), src.size(), 0};
    EXPECT_EQ(ZSTD_compressStream2(c, &o, &in, ZSTD_e_continue), 0u);  // size unknown: not all at once
    EXPECT_EQ(ZSTD_compressStream2(c, &o, &in, ZSTD_e_end), 0u);
    ZSTD_freeCCtx(c);
    out.resize(o.pos);
    return out;
}

TEST(CompressStream, SizeHintChoosesParametersForUnknownSizes) {
    const bytes src = zest::test::english_text(100000, 31);
    for (int level : {1, 3, 7}) {
        zest::compress_stream cs;
        ASSERT_TRUE(cs.set_level(level));
        const bytes plain = stream_compress(cs, src, fixed(4096), fixed(65536));
        // Unknown size, no hint: the level's window for large inputs; with a
        // hint, the window the reference picks for that size.
        EXPECT_EQ(frame_window(plain), frame_window(libzstd_hinted(src, level, 0))) << level;
        for (std::uint64_t hint : {1000u, 5000u, 20000u, 100000u, 200000u, 10000000u}) {
            ASSERT_TRUE(cs.set_size_hint(hint));
            EXPECT_EQ(cs.size_hint(), hint);
            const bytes f = stream_compress(cs, src, fixed(4096), fixed(65536));
            EXPECT_EQ(frame_window(f), frame_window(libzstd_hinted(src, level, hint))) << level << " " << hint;
            EXPECT_EQ(ZSTD_getFrameContentSize(f.data(), f.size()), ZSTD_CONTENTSIZE_UNKNOWN);
            expect_roundtrip(f, src, "hint " + std::to_string(hint));
        }
        ASSERT_TRUE(cs.set_size_hint(1000));
        EXPECT_EQ(frame_window(stream_compress(cs, src, fixed(4096), fixed(65536))), 1024u);
        // Kept by reset(); 0 removes it.
        cs.reset();
        EXPECT_EQ(frame_window(stream_compress(cs, src, fixed(4096), fixed(65536))), 1024u);
        ASSERT_TRUE(cs.set_size_hint(0));
        EXPECT_TRUE(stream_compress(cs, src, fixed(4096), fixed(65536)) == plain) << level;
        // A pledged size wins over the hint: the same frame as without one.
        ASSERT_TRUE(cs.set_pledged_size(src.size()));
        const bytes pledged = stream_compress(cs, src, fixed(4096), fixed(65536));
        ASSERT_TRUE(cs.set_size_hint(1000));
        ASSERT_TRUE(cs.set_pledged_size(src.size()));
        EXPECT_TRUE(stream_compress(cs, src, fixed(4096), fixed(65536)) == pledged) << level;
    }
    // Only between frames.
    zest::compress_stream cs;
    bytes out(1 << 20);
    zest::in_buffer in{src.data(), 1000, 0};
    zest::out_buffer o{out.data(), out.size(), 0};
    ASSERT_TRUE(cs.compress(o, in, zest::directive::proceed));
    EXPECT_FALSE(cs.set_size_hint(5000));
    cs.reset();
    EXPECT_TRUE(cs.set_size_hint(5000));
}

TEST(CompressStream, SeveralFramesOnOneStream) {
    zest::compress_stream cs;
    ASSERT_TRUE(cs.set_checksum(true));
    bytes all, frames;
    for (int i = 0; i < 6; ++i) {
        const bytes src = zest::test::mixed(50000 + 70000 * std::size_t(i), 30 + std::uint64_t(i));
        ASSERT_TRUE(cs.set_level(i - 2 == 0 ? 1 : i - 2));
        const bytes f = stream_compress(cs, src, seeded(i, 50000), seeded(i + 9, 50000));
        expect_roundtrip(f, src, "frame " + std::to_string(i));
        all.insert(all.end(), src.begin(), src.end());
        frames.insert(frames.end(), f.begin(), f.end());
    }
    expect_roundtrip(frames, all, "all frames");
    // An empty frame: `end` with no input.
    bytes out(64);
    zest::in_buffer none{};
    zest::out_buffer o{out.data(), out.size(), 0};
    const auto r = cs.compress(o, none, zest::directive::end);
    ASSERT_TRUE(r);
    EXPECT_EQ(*r, 0u);
    out.resize(o.pos);
    EXPECT_EQ(ZSTD_getFrameContentSize(out.data(), out.size()), 0u);
    expect_roundtrip(out, bytes{}, "empty frame");
}

}  // namespace
