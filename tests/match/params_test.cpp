// Level parameters: spot checks of the reference's level table (lib/compress/
// clevels.h, worked by hand through its size adjustment), sanity properties,
// and a cross-check with libzstd's own ZSTD_getCParams.
#define ZSTD_STATIC_LINKING_ONLY
#include <gtest/gtest.h>
#include <zstd.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <optional>

#include "compress/match_finder.hpp"
#include "compress/params.hpp"
#include "zest/zest.hpp"

namespace {

using zest::detail::compression_params;
using zest::detail::params_for_level;
using zest::detail::strategy;

constexpr std::uint64_t unknown = UINT64_MAX;

struct expect_row {
    unsigned w, c, h, s, l, tl;
    strategy st;
};

void expect_params(int level, std::uint64_t size, expect_row e) {
    const compression_params p = params_for_level(level, size);
    SCOPED_TRACE(testing::Message() << "level " << level << " size " << size);
    EXPECT_EQ(p.window_log, e.w);
    EXPECT_EQ(p.chain_log, e.c);
    EXPECT_EQ(p.hash_log, e.h);
    EXPECT_EQ(p.search_log, e.s);
    EXPECT_EQ(p.min_match, e.l);
    EXPECT_EQ(p.target_length, e.tl);
    EXPECT_EQ(p.strategy, e.st);
}

TEST(Params, DefaultClassRows) {
    using enum zest::strategy;
    expect_params(1, unknown, {19, 13, 14, 1, 7, 0, fast});
    expect_params(2, unknown, {20, 15, 16, 1, 6, 0, fast});
    expect_params(3, unknown, {21, 16, 17, 1, 5, 0, dfast});
    expect_params(4, unknown, {21, 18, 18, 1, 5, 0, dfast});
    expect_params(5, unknown, {21, 18, 19, 3, 5, 2, greedy});
    expect_params(6, unknown, {21, 18, 19, 3, 5, 4, lazy});
    expect_params(8, unknown, {21, 19, 20, 4, 5, 16, lazy2});
    expect_params(9, unknown, {22, 20, 21, 4, 5, 16, lazy2});
    expect_params(12, unknown, {22, 22, 23, 6, 5, 32, lazy2});
    expect_params(13, unknown, {22, 22, 22, 4, 5, 32, btlazy2});
    expect_params(19, unknown, {23, 24, 22, 7, 3, 256, btultra2});
    expect_params(22, unknown, {27, 27, 25, 9, 3, 999, btultra2});
    // Large known sizes keep the table's logs (the window already fits).
    expect_params(1, 10u << 20, {19, 13, 14, 1, 7, 0, fast});
    expect_params(3, 1u << 21, {21, 16, 17, 1, 5, 0, dfast});
}

TEST(Params, LevelZeroIsDefaultAndLevelsAreClamped) {
    using enum zest::strategy;
    expect_params(0, unknown, {21, 16, 17, 1, 5, 0, dfast});
    expect_params(23, unknown, {27, 27, 25, 9, 3, 999, btultra2});
    expect_params(1000, unknown, {27, 27, 25, 9, 3, 999, btultra2});
}

TEST(Params, NegativeLevelsUseTheBaseRowWithAcceleration) {
    using enum zest::strategy;
    expect_params(-1, unknown, {19, 12, 13, 1, 6, 1, fast});
    expect_params(-5, unknown, {19, 12, 13, 1, 6, 5, fast});
    expect_params(-5, 100000, {17, 12, 12, 1, 5, 5, fast});
    expect_params(-7, 5000, {13, 12, 13, 1, 5, 7, fast});  // 16 KiB row, window 13 (5000 < 8192)
    EXPECT_EQ(params_for_level(INT_MIN, unknown).target_length, 131072u);
    EXPECT_EQ(params_for_level(-131072, unknown).target_length, 131072u);
    EXPECT_EQ(params_for_level(-131073, unknown).target_length, 131072u);
}

TEST(Params, SizeClasses) {
    using enum zest::strategy;
    // <= 256 KiB: level 2 is dfast there.
    expect_params(2, 200000, {18, 14, 14, 1, 5, 0, dfast});
    expect_params(3, 256u << 10, {18, 16, 16, 1, 4, 0, dfast});
    expect_params(3, (256u << 10) + 1, {19, 16, 17, 1, 5, 0, dfast});  // default row, window 2^19 holds it
    // <= 128 KiB.
    expect_params(3, 100000, {17, 15, 16, 2, 5, 0, dfast});
    expect_params(4, 128u << 10, {17, 17, 17, 2, 4, 0, dfast});
    // <= 16 KiB.
    expect_params(1, 10000, {14, 14, 15, 1, 5, 0, fast});
    expect_params(3, 16u << 10, {14, 14, 15, 2, 4, 0, dfast});
    expect_params(4, 16u << 10, {14, 14, 14, 4, 4, 2, greedy});
}

TEST(Params, SmallInputsShrinkWindowAndTables) {
    using enum zest::strategy;
    // 1000 bytes: window 2^10; hash at most window+1; chain follows the
    // window (one less for binary trees, which use two entries per position).
    expect_params(19, 1000, {10, 11, 11, 8, 3, 256, btultra2});
    expect_params(3, 1000, {10, 10, 11, 2, 4, 0, dfast});
    // 100 bytes: tables sized for 2^7, the window stays at the format's minimum 2^10.
    expect_params(1, 100, {10, 7, 8, 1, 5, 0, fast});
    // Empty and tiny inputs: tables for 64 bytes.
    expect_params(5, 0, {10, 6, 7, 3, 4, 4, lazy});
    expect_params(1, 1, {10, 6, 7, 1, 5, 0, fast});
    expect_params(1, 64, {10, 6, 7, 1, 5, 0, fast});
    expect_params(1, 65, {10, 7, 8, 1, 5, 0, fast});
    // 5000 bytes: window 2^13.
    expect_params(3, 5000, {13, 13, 14, 2, 4, 0, dfast});
}

TEST(Params, MonotonicSanity) {
    for (int level = 2; level <= zest::max_level; ++level) {
        const auto a = params_for_level(level - 1, unknown), b = params_for_level(level, unknown);
        EXPECT_LE(a.window_log, b.window_log) << level;
        EXPECT_LE(unsigned(a.strategy), unsigned(b.strategy)) << level;
    }
    for (int level = -10; level <= zest::max_level; ++level) {
        unsigned prev_w = 0;
        for (std::uint64_t size : {0ull, 1ull, 100ull, 1000ull, 5000ull, 16384ull, 16385ull, 100000ull, 131072ull,
                                   131073ull, 262144ull, 262145ull, 1ull << 20, 1ull << 24, 1ull << 31}) {
            const auto p = params_for_level(level, size);
            SCOPED_TRACE(testing::Message() << "level " << level << " size " << size);
            EXPECT_GE(p.window_log, 10u);
            EXPECT_GE(p.window_log, prev_w);  // never smaller for a larger input
            prev_w = p.window_log;
            EXPECT_LE(p.hash_log, p.window_log + 1);
            if (size > 0) {
                EXPECT_GE(std::uint64_t(1) << p.window_log, std::min<std::uint64_t>(size, 1u << 17));
            }
            EXPECT_GE(p.min_match, 3u);
            EXPECT_LE(p.min_match, 7u);
            if (level < 0) {
                EXPECT_EQ(p.strategy, strategy::fast);
                EXPECT_EQ(p.target_length, unsigned(-level));
            }
            // Table sizes as the finders use them.
            EXPECT_EQ(zest::detail::hash_table_entries(p), std::size_t(1) << p.hash_log);
            const bool row = zest::detail::uses_row_matcher(p);
            EXPECT_EQ(row, p.strategy >= strategy::greedy && p.strategy <= strategy::lazy2 && p.window_log > 14);
            EXPECT_EQ(zest::detail::chain_table_entries(p),
                      p.strategy == strategy::fast || row ? 0 : std::size_t(1) << p.chain_log);
            // The row matcher: a head byte and a tag byte per entry.
            EXPECT_EQ(zest::detail::tag_table_entries(p), row ? std::size_t(2) << p.hash_log : 0);
        }
    }
}

// libzstd's ZSTD_getCParams applies the same table and adjustment (a size
// of 0 means "unknown" there).
TEST(Params, AgreesWithLibzstd) {
    for (int level = -20; level <= 25; ++level) {
        for (std::uint64_t size : {0ull, 1ull, 63ull, 64ull, 65ull, 1000ull, 1024ull, 1025ull, 5000ull, 16384ull,
                                   16385ull, 65536ull, 131072ull, 131073ull, 200000ull, 262144ull, 262145ull,
                                   1ull << 20, 3000000ull, 1ull << 27, 1ull << 30}) {
            const ZSTD_compressionParameters r = ZSTD_getCParams(level, size, 0);
            const auto p = params_for_level(level, size == 0 ? unknown : size);
            SCOPED_TRACE(testing::Message() << "level " << level << " size " << size);
            EXPECT_EQ(p.window_log, r.windowLog);
            EXPECT_EQ(p.chain_log, r.chainLog);
            EXPECT_EQ(p.hash_log, r.hashLog);
            EXPECT_EQ(p.search_log, r.searchLog);
            EXPECT_EQ(p.min_match, r.minMatch);
            EXPECT_EQ(p.target_length, r.targetLength);
            EXPECT_EQ(unsigned(p.strategy), unsigned(r.strategy));
        }
    }
}

// The public view: level_parameters is the reference's table (what
// `zstd --show-default-cparams` prints); used_parameters is what zest's
// compressors run: the same, with the row matcher's hash at least a row's bits.
TEST(Params, PublicLevelAndUsedParameters) {
    for (int level = -20; level <= 25; ++level) {
        for (std::uint64_t size : {0ull, 1000ull, 16385ull, 100000ull, 200000ull, 3000000ull}) {
            const std::optional<std::uint64_t> known = size ? std::optional(size) : std::nullopt;
            const ZSTD_compressionParameters r = ZSTD_getCParams(level, size, 0);
            const zest::compression_parameters p = zest::level_parameters(level, known);
            SCOPED_TRACE(testing::Message() << "level " << level << " size " << size);
            EXPECT_EQ(p.window_log, r.windowLog);
            EXPECT_EQ(p.chain_log, r.chainLog);
            EXPECT_EQ(p.hash_log, r.hashLog);
            EXPECT_EQ(p.search_log, r.searchLog);
            EXPECT_EQ(p.min_match, r.minMatch);
            EXPECT_EQ(p.target_length, r.targetLength);
            EXPECT_EQ(unsigned(p.strategy), unsigned(r.strategy));
            const zest::compression_parameters u = zest::used_parameters(level, known);
            EXPECT_EQ(u.window_log, p.window_log);
            EXPECT_EQ(u.strategy, p.strategy);
            EXPECT_EQ(u.chain_log, p.chain_log);
            EXPECT_EQ(u.search_log, p.search_log);
            EXPECT_EQ(u.min_match, p.min_match);
            // The row matcher (greedy to lazy2 with windows above 2^14) hashes
            // at least a row's bits.
            const bool rows = u.strategy >= zest::strategy::greedy && u.strategy <= zest::strategy::lazy2 &&
                              u.window_log > 14;
            EXPECT_EQ(u.hash_log, rows ? std::max(p.hash_log, std::clamp(p.search_log, 4u, 6u)) : p.hash_log);
        }
    }
}

}  // namespace
