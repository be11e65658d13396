// Long-distance matching: repeats further back than the match finders'
// tables reach are found (the second copy of a large random block costs
// almost nothing), at every strategy, one-shot and streamed, with windows up
// to 2^31; libzstd and zest decode every frame. The parameters resolve as the
// reference's do, and out-of-bounds ones are refused.
#include <gtest/gtest.h>
#define ZSTD_STATIC_LINKING_ONLY  // ZSTD_d_windowLogMax
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "compress/ldm.hpp"
#include "corpus.hpp"
#include "roundtrip_check.hpp"
#include "zest/zest.hpp"

namespace {

using bytes = std::vector<std::byte>;

bytes random_bytes(std::size_t n, std::uint64_t seed) {
    bytes b(n);
    std::mt19937_64 rng(seed);
    for (std::size_t i = 0; i + 8 <= n; i += 8) {
        const std::uint64_t v = rng();
        std::memcpy(b.data() + i, &v, 8);
    }
    return b;
}

// `a`, then `gap`, then `a` again.
bytes twice_apart(const bytes& a, const bytes& gap) {
    bytes in = a;
    in.insert(in.end(), gap.begin(), gap.end());
    in.insert(in.end(), a.begin(), a.end());
    return in;
}

// Decodes `frame` with libzstd (its window limit raised to 2^31) and with
// zest (likewise), and requires `input` back from both.
void expect_decodes(const bytes& frame, const bytes& input, const std::string& what) {
    ZSTD_DCtx* d = ZSTD_createDCtx();
    ZSTD_DCtx_setParameter(d, ZSTD_d_windowLogMax, 31);
    bytes out(input.size() + 1);
    const std::size_t n = ZSTD_decompressDCtx(d, out.data(), out.size(), frame.data(), frame.size());
    ZSTD_freeDCtx(d);
    ASSERT_FALSE(ZSTD_isError(n)) << what << ": libzstd: " << ZSTD_getErrorName(n);
    ASSERT_EQ(n, input.size()) << what;
    EXPECT_TRUE(std::memcmp(out.data(), input.data(), n) == 0) << what << ": libzstd decoded other bytes";
    zest::decompressor z;
    ASSERT_TRUE(z.set_max_window_log(31));
    const auto r = z.decompress(out, frame);
    ASSERT_TRUE(r.has_value()) << what << ": zest: " << r.message();
    ASSERT_EQ(*r, input.size()) << what;
    EXPECT_TRUE(std::memcmp(out.data(), input.data(), input.size()) == 0) << what << ": zest decoded other bytes";
}

// `in` through a compress_stream in odd pieces (unknown size: the window is
// the one asked for).
bytes stream_compress(const bytes& in, int level, const zest::compression_parameters& p, const std::string& what) {
    zest::compress_stream cs;
    EXPECT_TRUE(cs.set_level(level)) << what;
    EXPECT_TRUE(cs.set_parameters(p)) << what;
    bytes frame(zest::compress_bound(in.size()) + 1024);
    zest::out_buffer out{frame.data(), frame.size(), 0};
    std::size_t pos = 0;
    for (std::size_t piece = 1; pos < in.size(); piece = piece * 3 + 7) {
        const std::size_t n = std::min(piece % 200000 + 1, in.size() - pos);
        zest::in_buffer src{in.data() + pos, n, 0};
        const auto r = cs.compress(out, src, zest::directive::proceed);
        EXPECT_TRUE(r.has_value()) << what << ": " << (r ? "" : r.message());
        if (!r || src.pos == 0) return {};
        pos += src.pos;
    }
    zest::in_buffer none{nullptr, 0, 0};
    const auto r = cs.compress(out, none, zest::directive::end);
    EXPECT_TRUE(r.has_value() && *r == 0) << what;
    frame.resize(out.pos);
    return frame;
}

zest::compression_parameters with_ldm(unsigned window_log, zest::ldm_mode mode = zest::ldm_mode::enabled) {
    zest::compression_parameters p;
    p.window_log = window_log;
    p.ldm.mode = mode;
    return p;
}

const zest::strategy all_strategies[] = {zest::strategy::fast,    zest::strategy::dfast, zest::strategy::greedy,
                                         zest::strategy::lazy,    zest::strategy::lazy2, zest::strategy::btlazy2,
                                         zest::strategy::btopt,   zest::strategy::btultra,
                                         zest::strategy::btultra2};

// 1 MiB of random bytes, 6 MiB of other random bytes, the first MiB again,
// with tables far too small to remember the first copy (4096 entries): only
// long-distance matching finds the repeat, at every strategy.
// The search itself, with dense samples (one in 4 positions: many more
// than a batch of them per repeat) over random bytes with planted copies
// of 100 bytes to 20 KiB (the longer ones reach past their samples' hash
// and restart the scan): every match is in order, in the block, at least
// min_match long, its bytes equal to its source's, its source in the frame
// and the window; and every planted copy is found.
TEST(LongDistance, TheSearchFindsPlantedCopiesAndOnlyTrueMatches) {
    namespace d = zest::detail;
    const d::ldm_settings s{20, 2, 16, 2};  // buckets of 4, a sample in 4 positions
    std::vector<d::ldm_entry> entries(std::size_t(1) << s.hash_log);
    std::vector<std::uint8_t> next(std::size_t(1) << (s.hash_log - s.bucket_log));
    bytes in = random_bytes(1 << 20, 77);
    struct planted {
        std::size_t at, len, distance;
    };
    std::vector<planted> copies;
    std::mt19937_64 rng(78);
    for (std::size_t at = 40000; at + 20000 < in.size(); at += 30000) {
        const std::size_t len = 100 + rng() % 20000, distance = 1000 + rng() % (at - 1000);
        std::memcpy(in.data() + at, in.data() + at - distance, std::min(len, distance));
        for (std::size_t k = distance; k < len; ++k) in[at + k] = in[at + k - distance];
        copies.push_back({at, len, distance});
    }
    const auto* base = reinterpret_cast<const std::uint8_t*>(in.data());
    const std::size_t low = 1, window = 1 << 19;
    std::vector<d::ldm_match> found;
    for (std::size_t begin = low; begin < in.size(); begin += 1 << 17) {
        const std::size_t end = std::min(in.size(), begin + (1 << 17));
        const std::size_t lowest = end > window + low ? end - window : low;
        std::vector<d::ldm_match> out(d::ldm_max_matches(end - begin, s.min_match));
        const std::size_t n = d::find_long_matches(s, {entries.data(), next.data()}, base, low, lowest, begin, end,
                                                   out.data());
        std::size_t last_end = begin;
        for (std::size_t i = 0; i < n; ++i) {
            const d::ldm_match m = out[i];
            const std::size_t start = begin + m.start;
            ASSERT_GE(start, last_end) << i;
            ASSERT_LE(start + m.len, end) << i;
            ASSERT_GE(m.len, s.min_match) << i;
            ASSERT_LE(m.offset, start - low) << i;
            ASSERT_EQ(std::memcmp(base + start, base + start - m.offset, m.len), 0) << i;
            last_end = start + m.len;
            found.push_back({std::uint32_t(start), m.len, m.offset});
        }
    }
    // A copy within the window is found: matches cover most of it (from
    // its source, or from an older copy of the same bytes when its source
    // lies in an earlier copy).
    std::size_t within = 0;
    for (const planted& c : copies) {
        if (c.distance > window / 2 || c.len < 200) continue;
        ++within;
        std::size_t covered = 0;
        for (const d::ldm_match& m : found) {
            const std::size_t from = std::max<std::size_t>(m.start, c.at), to = std::min<std::size_t>(m.start + m.len, c.at + c.len);
            if (to > from) covered += to - from;
        }
        EXPECT_GT(covered, c.len * 3 / 4) << "copy at " << c.at << " of " << c.len << " from " << c.distance << " back";
    }
    EXPECT_GT(within, 5u);
}

TEST(LongDistance, FindsWhatTheTablesForgot) {
    const bytes a = random_bytes(1u << 20, 1), gap = random_bytes(6u << 20, 2);
    const bytes in = twice_apart(a, gap);
    const std::size_t first_copy = a.size() + gap.size();
    for (const zest::strategy s : all_strategies) {
        const std::string what = "strategy " + std::to_string(int(s));
        zest::compression_parameters p = with_ldm(23);
        p.strategy = s;
        p.hash_log = 12;
        p.chain_log = 12;
        p.search_log = 2;
        zest::compressor c;
        (void)c.set_level(s >= zest::strategy::btopt ? 16 : 3);
        ASSERT_TRUE(c.set_parameters(p)) << what;
        const bytes with = c.compress(in);
        EXPECT_LT(with.size(), first_copy + first_copy / 100) << what << ": the second copy was not found";
        expect_decodes(with, in, what);
        // Without it, the repeat costs its size again (the test can fail).
        p.ldm.mode = zest::ldm_mode::disabled;
        ASSERT_TRUE(c.set_parameters(p)) << what;
        const bytes without = c.compress(in);
        EXPECT_GT(without.size(), in.size() - in.size() / 100) << what;
        if (testing::Test::HasFailure()) return;
    }
}

// Long matches on compressible data, many of them (16-byte minimum, a
// sample every 16 positions), at every strategy, one-shot and streamed in
// odd pieces: libzstd and zest decode it.
TEST(LongDistance, RoundTripsAtEveryStrategy) {
    const auto base = zest::test::corpus_shape("mixed").generate();
    bytes in(base.begin(), base.end());
    in.insert(in.end(), base.begin(), base.begin() + std::ptrdiff_t(base.size() / 2));  // a far repeat
    for (const zest::strategy s : all_strategies) {
        for (const unsigned min_match : {16u, 64u}) {
            const std::string what = "strategy " + std::to_string(int(s)) + " min match " + std::to_string(min_match);
            zest::compression_parameters p = with_ldm(20);
            p.strategy = s;
            p.ldm.min_match = min_match;
            p.ldm.hash_rate_log = 4;
            zest::compressor c;
            (void)c.set_level(5);
            ASSERT_TRUE(c.set_parameters(p)) << what;
            const bytes one = c.compress(in);
            expect_decodes(one, in, what + " one-shot");

            const bytes streamed = stream_compress(in, 5, p, what);
            expect_decodes(streamed, in, what + " streamed");
            if (testing::Test::HasFailure()) return;
        }
    }
}

// Windows of 2^27 to 2^31 as the reference's --long=# asks for them (the
// frame header declares the window; decoders need their limit raised). The
// history buffer is reserved for the whole window, but only what the input
// reaches is touched.
TEST(LongDistance, LargeWindows) {
    const bytes a = random_bytes(3u << 20, 3), gap = random_bytes(1u << 20, 4);
    const bytes in = twice_apart(a, gap);
    for (const unsigned wlog : {27u, 29u, 31u}) {
        const std::string what = "window log " + std::to_string(wlog);
        // Streamed without a size, else the window shrinks to the input.
        const bytes f = stream_compress(in, 1, with_ldm(wlog), what);
        EXPECT_LT(f.size(), a.size() + gap.size() + (64u << 10)) << what;
        ZSTD_frameHeader h;
        ASSERT_EQ(ZSTD_getFrameHeader(&h, f.data(), f.size()), 0u) << what;
        EXPECT_EQ(h.windowSize, 1ull << wlog) << what;
        expect_decodes(f, in, what);
    }
}

// The reference's defaults and resolution: enabling it sets a window of
// 2^27; automatic turns it on at btopt and up for windows of 2^27 or more
// (level 22 on a large or unknown input) and leaves it off otherwise.
TEST(LongDistance, ParametersResolveAsTheReference) {
    const auto on = zest::used_parameters(3, std::nullopt, with_ldm(0));
    EXPECT_EQ(on.ldm.mode, zest::ldm_mode::enabled);
    EXPECT_EQ(on.window_log, 27u);
    EXPECT_EQ(on.ldm.hash_log, 20u);
    EXPECT_EQ(on.ldm.min_match, 64u);
    EXPECT_EQ(on.ldm.bucket_size_log, 3u);
    EXPECT_EQ(on.ldm.hash_rate_log, 7u);
    EXPECT_EQ(zest::used_parameters(22, std::nullopt).ldm.mode, zest::ldm_mode::enabled);
    EXPECT_EQ(zest::used_parameters(22, 1u << 20).ldm.mode, zest::ldm_mode::disabled);  // window 2^20
    EXPECT_EQ(zest::used_parameters(19, std::nullopt).ldm.mode, zest::ldm_mode::disabled);
    EXPECT_EQ(zest::used_parameters(22, std::nullopt, with_ldm(0, zest::ldm_mode::disabled)).ldm.mode,
              zest::ldm_mode::disabled);
    zest::compression_parameters p = with_ldm(24);
    p.ldm.hash_log = 10;
    p.ldm.bucket_size_log = 8;
    const auto r = zest::used_parameters(3, std::nullopt, p);
    EXPECT_EQ(r.ldm.bucket_size_log, 8u);
    EXPECT_EQ(r.ldm.hash_rate_log, 14u);  // window_log - hash_log
    // Bounds, as the reference's: refused, nothing changed.
    zest::compressor c;
    for (const auto& bad : {zest::ldm_parameters{zest::ldm_mode::enabled, 5, 0, 0, 0},
                            zest::ldm_parameters{zest::ldm_mode::enabled, 0, 3, 0, 0},
                            zest::ldm_parameters{zest::ldm_mode::enabled, 0, 0, 9, 0},
                            zest::ldm_parameters{zest::ldm_mode::enabled, 0, 0, 0, 26},
                            zest::ldm_parameters{static_cast<zest::ldm_mode>(3), 0, 0, 0, 0}}) {
        zest::compression_parameters q;
        q.ldm = bad;
        EXPECT_FALSE(c.set_parameters(q));
    }
    EXPECT_EQ(c.parameters().ldm.mode, zest::ldm_mode::automatic);
}

// The case at full size: 64 MiB of random bytes, 200 MiB of other
// random bytes, the same 64 MiB again, in a 512 MiB window. Run by the
// Release build only (CI runs it once; 1.3 GB of memory).
TEST(LongDistance, SecondCopyOfSixtyFourMiBCostsAlmostNothing) {
#ifdef ZEST_SANITIZED
    GTEST_SKIP() << "run by the Release build";
#else
    const bytes a = random_bytes(64u << 20, 5), gap = random_bytes(200u << 20, 6);
    const bytes in = twice_apart(a, gap);
    const std::size_t first_copy = a.size() + gap.size();
    zest::compressor c;
    (void)c.set_level(3);
    ASSERT_TRUE(c.set_parameters(with_ldm(29)));
    const bytes f = c.compress(in);
    std::printf("%zu bytes -> %zu (the first copy and the gap: %zu)\n", in.size(), f.size(), first_copy);
    EXPECT_LT(f.size(), first_copy + (1u << 20));
    expect_decodes(f, in, "64 + 200 + 64 MiB");
#endif
}

}  // namespace
