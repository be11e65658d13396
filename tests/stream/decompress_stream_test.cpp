// Streaming decompression: frames written by libzstd (one-shot and
// streaming, small windows that make the window buffer wrap, checksums,
// skippable and concatenated frames), fed in every size pattern, must come
// out as the one-shot decoder's bytes; errors are reported and sticky.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#define ZSTD_STATIC_LINKING_ONLY  // ZSTD_getFrameHeader
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "check.hpp"
#include "corpus.hpp"
#include "stream_driver.hpp"
#include "zest/zest.hpp"

namespace {

using zest::test::bytes;
using namespace zest::test::streaming;

bytes zstd_oneshot(std::span<const std::byte> src, int level, int window_log = 0, bool checksum = false,
                   bool content_size = true) {
    ZSTD_CCtx* c = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level);
    if (window_log) ZSTD_CCtx_setParameter(c, ZSTD_c_windowLog, window_log);
    ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, checksum ? 1 : 0);
    ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, content_size ? 1 : 0);
    bytes out(ZSTD_compressBound(src.size()));
    const std::size_t n = ZSTD_compress2(c, out.data(), out.size(), src.data(), src.size());
    ZSTD_freeCCtx(c);
    EXPECT_FALSE(ZSTD_isError(n)) << ZSTD_getErrorName(n);
    out.resize(n);
    return out;
}

bytes skippable(std::size_t n, std::uint8_t fill) {
    bytes f(8 + n, std::byte{fill});
    const std::uint32_t magic = 0x184D2A53u, size = std::uint32_t(n);
    std::memcpy(f.data(), &magic, 4);
    std::memcpy(f.data() + 4, &size, 4);
    return f;
}

void expect_stream_decodes(std::span<const std::byte> frames, std::span<const std::byte> original,
                           std::size_t n_frames, bool small_inputs_only_patterns = false) {
    for (const auto& p : patterns()) {
        if (small_inputs_only_patterns && original.size() > (1u << 20) && std::string(p.name).find("one-byte") == 0)
            continue;
        zest::decompress_stream ds;
        const stream_run r = stream_decode(ds, frames, p.in, p.out);
        ASSERT_EQ(r.error, zest::errc{}) << p.name << ": " << zest::error_message(r.error);
        EXPECT_TRUE(zest::test::same_bytes(r.out, original)) << p.name;
        EXPECT_EQ(r.frames_done, n_frames) << p.name;
        EXPECT_EQ(r.last_hint, 0u) << p.name;
        EXPECT_TRUE(ds.at_frame_boundary()) << p.name;
    }
}

TEST(DecompressStream, OneShotFramesOfEveryShape) {
    for (int level : {-3, 1, 3, 9}) {
        for (const bytes& src : {zest::test::english_text(300000, 1), zest::test::random_bytes(200000, 2),
                                 zest::test::zeros(300000), zest::test::int32_runs(150000, 3), bytes{}}) {
            const bytes f = zstd_oneshot(src, level, 0, level == 3);
            SCOPED_TRACE("level " + std::to_string(level) + " size " + std::to_string(src.size()));
            expect_stream_decodes(f, src, 1);
        }
    }
}

TEST(DecompressStream, SmallWindowsMakeTheBufferWrap) {
    // Windows of 1 KiB to 128 KiB over inputs many times larger: matches
    // reach from one segment of the window buffer into the previous one.
    const bytes src = zest::test::mixed(3u << 20, 11);
    for (int wlog : {10, 12, 17}) {
        for (int level : {1, 3, 19}) {
            const bytes f = zstd_oneshot(src, level, wlog, true, wlog != 17);
            SCOPED_TRACE("window log " + std::to_string(wlog) + " level " + std::to_string(level));
            expect_stream_decodes(f, src, 1, true);
        }
    }
}

TEST(DecompressStream, StreamedFramesWithoutContentSize) {
    const bytes src = zest::test::mixed(2u << 20, 12);
    const bytes f = zstd_streamed(src, 3, 16);
    ASSERT_EQ(ZSTD_getFrameContentSize(f.data(), f.size()), ZSTD_CONTENTSIZE_UNKNOWN);
    expect_stream_decodes(f, src, 1, true);
}

TEST(DecompressStream, ConcatenatedAndSkippableFrames) {
    const bytes a = zest::test::json_logs(100000, 4), b = zest::test::c_source(70000, 5);
    bytes frames = skippable(0, 0);
    for (const bytes& part : {zstd_oneshot(a, 1), skippable(1000, 0xAB), zstd_oneshot(b, 5, 0, true), zstd_oneshot({}, 3),
                              skippable(5, 1)})
        frames.insert(frames.end(), part.begin(), part.end());
    bytes both = a;
    both.insert(both.end(), b.begin(), b.end());
    expect_stream_decodes(frames, both, 6);
}

TEST(DecompressStream, ZestFramesToo) {
    const bytes src = zest::test::mixed(1u << 20, 13);
    zest::compressor c;
    (void)c.set_checksum(true);
    for (int level : {-5, 1, 3}) {
        (void)c.set_level(level);
        const bytes f = c.compress(src);
        expect_stream_decodes(f, src, 1);
    }
}

// The loop zstd's users write: a chunk of input, calls until the chunk is
// consumed, stop at the end of the input; a last return other than 0 means a
// truncated stream. Every byte must come out, so the frame's last input byte
// may only be taken by the call that hands out the frame's last output byte.
TEST(DecompressStream, ClientLoopGetsEveryByte) {
    const bytes src = zest::test::mixed(1u << 20, 21);
    for (bool checksum : {false, true}) {
        const bytes f = zstd_oneshot(src, 1, 0, checksum);
        for (std::size_t in_size : {std::size_t(1), std::size_t(4096), zest::decompress_stream::recommended_in_size,
                                    f.size()}) {
            for (std::size_t out_size : {std::size_t(1), std::size_t(1000), std::size_t(4096)}) {
                if (in_size == 1 && out_size == 1) continue;  // the C tests run that pattern
                zest::decompress_stream ds;
                bytes out;
                std::vector<std::byte> buf(out_size);
                std::size_t last = 0;
                progress_watchdog watchdog("decompress_stream");
                for (std::size_t at = 0; at < f.size(); at += in_size) {
                    zest::in_buffer in{f.data() + at, std::min(in_size, f.size() - at), 0};
                    while (in.pos < in.size) {
                        zest::out_buffer o{buf.data(), buf.size(), 0};
                        const std::size_t before = in.pos;
                        const auto r = ds.decompress(o, in);
                        ASSERT_TRUE(r) << zest::error_message(r.error());
                        out.insert(out.end(), buf.begin(), buf.begin() + std::ptrdiff_t(o.pos));
                        last = *r;
                        ASSERT_TRUE(watchdog.after_call(in.size - before, buf.size(), in.pos - before, o.pos));
                    }
                }
                SCOPED_TRACE("checksum " + std::to_string(checksum) + ", in " + std::to_string(in_size) + ", out " +
                             std::to_string(out_size));
                EXPECT_EQ(last, 0u);
                EXPECT_EQ(out.size(), src.size());
                EXPECT_TRUE(zest::test::same_bytes(out, src));
                EXPECT_TRUE(ds.at_frame_boundary());
            }
        }
    }
}

TEST(DecompressStream, LastByteWaitsForTheOutput) {
    // One RLE-free block with no checksum, all of it offered at once, with
    // room for less than it decodes to.
    const bytes src = zest::test::english_text(5000, 22);
    const bytes f = zstd_oneshot(src, 3);
    zest::decompress_stream ds;
    std::vector<std::byte> buf(src.size());
    zest::in_buffer in{f.data(), f.size(), 0};
    zest::out_buffer o{buf.data(), 1000, 0};
    auto r = ds.decompress(o, in);
    ASSERT_TRUE(r);
    EXPECT_EQ(in.pos, f.size() - 1);  // the last byte is given back
    EXPECT_EQ(o.pos, 1000u);
    EXPECT_NE(*r, 0u);
    // Output room but no input: the byte is still owed, so the frame cannot end.
    zest::in_buffer none{f.data(), 0, 0};
    o.size = src.size();
    r = ds.decompress(o, none);
    ASSERT_TRUE(r);
    EXPECT_EQ(o.pos, src.size());
    EXPECT_EQ(*r, 1u);
    EXPECT_FALSE(ds.at_frame_boundary());
    // The byte comes back: the call takes it and ends the frame.
    r = ds.decompress(o, in);
    ASSERT_TRUE(r);
    EXPECT_EQ(*r, 0u);
    EXPECT_EQ(in.pos, f.size());
    EXPECT_TRUE(ds.at_frame_boundary());
    EXPECT_TRUE(zest::test::same_bytes(buf, src));
}

TEST(DecompressStream, RawBlocksAreHandedOutAsTheyArrive) {
    // Incompressible input is stored in raw blocks; their bytes come out as
    // soon as they are read, not once the whole block is in.
    const bytes src = zest::test::random_bytes(100000, 23);
    const bytes f = zstd_oneshot(src, 3);
    zest::decompress_stream ds;
    std::vector<std::byte> buf(src.size());
    zest::in_buffer in{f.data(), 1000, 0};
    zest::out_buffer o{buf.data(), buf.size(), 0};
    ASSERT_TRUE(ds.decompress(o, in));
    EXPECT_EQ(in.pos, 1000u);
    EXPECT_GT(o.pos, 900u);  // all but the frame and block headers
    EXPECT_TRUE(std::equal(buf.begin(), buf.begin() + std::ptrdiff_t(o.pos), src.begin()));
}

TEST(DecompressStream, TruncatedInputLeavesAHint) {
    const bytes src = zest::test::english_text(200000, 6);
    const bytes f = zstd_oneshot(src, 3, 0, true);
    for (std::size_t cut : {std::size_t(1), std::size_t(4), std::size_t(5), std::size_t(9), f.size() / 2, f.size() - 1}) {
        zest::decompress_stream ds;
        const stream_run r = stream_decode(ds, std::span(f).first(cut), fixed(1000), fixed(1000));
        EXPECT_EQ(r.error, zest::errc{}) << cut;
        EXPECT_GT(r.last_hint, 0u) << cut;
        EXPECT_EQ(r.frames_done, 0u) << cut;
        EXPECT_FALSE(ds.at_frame_boundary()) << cut;
        EXPECT_LE(r.out.size(), src.size());
        EXPECT_TRUE(std::equal(r.out.begin(), r.out.end(), src.begin())) << cut;
    }
}

TEST(DecompressStream, ErrorsAreReportedAndSticky) {
    const bytes src = zest::test::english_text(100000, 8);
    bytes f = zstd_oneshot(src, 3, 0, true);
    {
        bytes bad = f;
        bad.back() ^= std::byte{1};  // checksum
        zest::decompress_stream ds;
        EXPECT_EQ(stream_decode(ds, bad, fixed(4096), fixed(4096)).error, zest::errc::checksum_mismatch);
        // Sticky until reset.
        zest::in_buffer in{f.data(), f.size(), 0};
        bytes out(src.size());
        zest::out_buffer o{out.data(), out.size(), 0};
        auto r = ds.decompress(o, in);
        ASSERT_FALSE(r);
        EXPECT_EQ(r.error(), zest::errc::checksum_mismatch);
        EXPECT_EQ(in.pos, 0u);
        ds.reset();
        r = ds.decompress(o, in);
        ASSERT_TRUE(r) << r.message();
        EXPECT_EQ(*r, 0u);
        EXPECT_TRUE(zest::test::same_bytes(std::span(out).first(o.pos), src));
    }
    {
        bytes bad = f;
        bad[0] ^= std::byte{1};
        zest::decompress_stream ds;
        EXPECT_EQ(stream_decode(ds, bad, fixed(1), fixed(1)).error, zest::errc::unknown_frame);
    }
    {
        // Corrupt block contents: an error, never a crash (and under the
        // sanitizers, never an out-of-bounds access).
        std::mt19937_64 rng(9);
        std::size_t errors = 0;
        for (int i = 0; i < 200; ++i) {
            bytes bad = f;
            bad[20 + rng() % (bad.size() - 24)] ^= std::byte(std::uint8_t(1 + rng() % 255));
            zest::decompress_stream ds;
            const stream_run r = stream_decode(ds, bad, seeded(i, 5000), seeded(i + 1, 5000));
            errors += r.error != zest::errc{};
        }
        EXPECT_GT(errors, 150u);  // the checksum catches what decoding does not
    }
}

TEST(DecompressStream, ChecksumsCanBeIgnored) {
    // zstd -d --no-check: a wrong checksum passes when verification is off,
    // for every buffer pattern and for frames of several blocks; the
    // setting survives moves and applies to each following frame.
    const bytes src = zest::test::english_text(300000, 12);
    const bytes good = zstd_oneshot(src, 3, 0, true);
    bytes bad = good;
    bad.back() ^= std::byte{0x40};
    bytes two = bad;
    two.insert(two.end(), good.begin(), good.end());
    bytes twice = src;
    twice.insert(twice.end(), src.begin(), src.end());
    for (const auto& p : patterns()) {
        if (std::string(p.name).find("one-byte") == 0) continue;  // covered by the checked run below
        zest::decompress_stream ds;
        EXPECT_TRUE(ds.verify_checksum());
        EXPECT_EQ(stream_decode(ds, bad, p.in, p.out).error, zest::errc::checksum_mismatch) << p.name;
        zest::decompress_stream quiet;
        quiet.set_verify_checksum(false);
        zest::decompress_stream moved(std::move(quiet));
        EXPECT_FALSE(moved.verify_checksum());
        const stream_run r = stream_decode(moved, two, p.in, p.out);
        ASSERT_EQ(r.error, zest::errc{}) << p.name << ": " << zest::error_message(r.error);
        EXPECT_EQ(r.frames_done, 2u) << p.name;
        EXPECT_TRUE(zest::test::same_bytes(r.out, twice)) << p.name;
    }
    // Turned back on, the next frame is checked again.
    zest::decompress_stream ds;
    ds.set_verify_checksum(false);
    EXPECT_EQ(stream_decode(ds, bad, fixed(1), fixed(1)).error, zest::errc{});
    ds.set_verify_checksum(true);
    EXPECT_EQ(stream_decode(ds, bad, fixed(1), fixed(1)).error, zest::errc::checksum_mismatch);
}

TEST(DecompressStream, WindowLimitIsApplied) {
    const bytes src = zest::test::english_text(1u << 20, 10);
    const bytes f = zstd_oneshot(src, 3, 20, false, false);  // declares a 1 MiB window
    zest::decompress_stream ds;
    ASSERT_TRUE(ds.set_max_window_log(19));
    EXPECT_EQ(stream_decode(ds, f, fixed(100), fixed(100)).error, zest::errc::window_too_large);
    EXPECT_LT(ds.memory_usage(), std::size_t(1) << 19);  // refused before the window buffer
    EXPECT_FALSE(ds.set_max_window_log(9));
    EXPECT_FALSE(ds.set_max_window_log(32));
    ds.reset();
    ASSERT_TRUE(ds.set_max_window_log(20));
    const stream_run r = stream_decode(ds, f, fixed(100000), fixed(100000));
    ASSERT_EQ(r.error, zest::errc{});
    EXPECT_TRUE(zest::test::same_bytes(r.out, src));
}

TEST(DecompressStream, MemoryIsBoundedByTheWindow) {
    const bytes src = zest::test::mixed(4u << 20, 14);
    for (int wlog : {10, 16, 20}) {
        const bytes f = zstd_oneshot(src, 3, wlog, false, false);
        zest::decompress_stream ds;
        const stream_run r = stream_decode(ds, f, fixed(65536), fixed(65536));
        ASSERT_EQ(r.error, zest::errc{});
        EXPECT_TRUE(zest::test::same_bytes(r.out, src));
        const std::size_t window = std::size_t(1) << wlog, block = std::min<std::size_t>(window, 128u << 10);
        // The window buffer with a block, one block of gathered input (the
        // frame's block size, not the format's largest), and the decoder's
        // tables and literal buffer (about 140 KiB): no more.
        EXPECT_LE(ds.memory_usage(), window + 2 * block + (160u << 10)) << wlog;
        EXPECT_GE(ds.memory_usage(), window) << wlog;
    }
}

TEST(DecompressStream, SmallFramesWithLargeWindowsTakeLittleMemory) {
    // A 10 KB frame written with an 8 MiB window: the buffer follows the
    // declared size, not the window.
    const bytes src = zest::test::json_logs(10000, 16);
    const bytes single = zstd_oneshot(src, 19);
    // libzstd writes this as a single-segment frame (window = size); give
    // it a header that declares an 8 MiB window and the size (4 bytes).
    const auto fhd = std::to_integer<unsigned>(single[4]);
    ASSERT_EQ(fhd & 0x23u, 0x20u);  // single segment, no dictionary ID
    static constexpr std::size_t fcs_bytes[4] = {1, 2, 4, 8};
    const std::size_t old_header = 5 + fcs_bytes[fhd >> 6];
    bytes f(single.begin(), single.begin() + 4);
    f.push_back(std::byte(2u << 6 | (fhd & 4u)));
    f.push_back(std::byte((23u - 10u) << 3));
    for (int i = 0; i < 4; ++i) f.push_back(std::byte(std::uint8_t(src.size() >> (8 * i))));
    f.insert(f.end(), single.begin() + std::ptrdiff_t(old_header), single.end());
    ASSERT_EQ(ZSTD_getFrameContentSize(f.data(), f.size()), src.size());
    ZSTD_frameHeader zh;
    ASSERT_EQ(ZSTD_getFrameHeader(&zh, f.data(), f.size()), 0u);
    ASSERT_EQ(zh.windowSize, 8u << 20);
    zest::decompress_stream ds;
    const stream_run r = stream_decode(ds, f, fixed(100), fixed(100));
    ASSERT_EQ(r.error, zest::errc{});
    EXPECT_TRUE(zest::test::same_bytes(r.out, src));
    EXPECT_LT(ds.memory_usage(), std::size_t(1) << 20);
}

TEST(DecompressStream, MovedStreamsKeepWorking) {
    const bytes src = zest::test::json_logs(50000, 15);
    const bytes f = zstd_oneshot(src, 3);
    zest::decompress_stream a;
    bytes out(src.size());
    zest::in_buffer in{f.data(), f.size() / 2, 0};
    zest::out_buffer o{out.data(), out.size(), 0};
    ASSERT_TRUE(a.decompress(o, in));
    zest::decompress_stream b(std::move(a));
    in.size = f.size();
    const auto r = b.decompress(o, in);
    ASSERT_TRUE(r);
    EXPECT_EQ(*r, 0u);
    EXPECT_TRUE(zest::test::same_bytes(std::span(out).first(o.pos), src));
}

// The watchdog the streaming loops run under (stream_driver.hpp) fails a
// loop whose calls stop moving bytes, rather than letting it spin.
TEST(StreamWatchdog, FailsAStalledLoop) {
    progress_watchdog moving("test");
    for (int i = 0; i < 1000; ++i) ASSERT_TRUE(moving.after_call(10, 10, i % 2, 1 - i % 2));
    // Calls without input or without room move nothing and are no stall.
    progress_watchdog idle("test");
    for (int i = 0; i < 10; ++i) {
        ASSERT_TRUE(idle.after_call(0, 10, 0, 0));
        ASSERT_TRUE(idle.after_call(10, 0, 0, 0));
        ASSERT_TRUE(idle.after_call(10, 10, 1, 0));
    }
    // One call that moves nothing with both is tolerated, the second in a row fails.
    progress_watchdog stalled("test");
    EXPECT_TRUE(stalled.after_call(10, 10, 0, 0));
    bool ok = true;
    EXPECT_NONFATAL_FAILURE(ok = stalled.after_call(10, 10, 0, 0), "2 calls in a row consumed and produced nothing");
    EXPECT_FALSE(ok);
    // Stalls that alternate with calls moving a byte still exhaust the call budget.
    progress_watchdog spinning("test");
    ok = true;
    EXPECT_NONFATAL_FAILURE(
        for (int i = 0; i < 1000 && ok; ++i) ok = spinning.after_call(0, 10, 0, 0), "calls moved only 0 bytes");
    EXPECT_FALSE(ok);
}

}  // namespace
