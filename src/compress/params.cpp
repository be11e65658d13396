// Level table and the size adjustment, following the reference's level
// semantics (its table of default parameters and its adjustment for known
// input sizes).
#include "compress/params.hpp"

#include <algorithm>
#include <bit>

#include "common/format.hpp"

namespace zest::detail {
namespace {

// One row: window, chain, hash and search logs, minimum match, target
// length, strategy. Row 0 of each class is the base of the negative levels.
struct row {
    std::uint8_t w, c, h, s, l;
    std::uint16_t tl;
    strategy st;
};

using enum zest::strategy;

// Size classes: [0] any size above 256 KiB (or unknown), [1] at most 256 KiB,
// [2] at most 128 KiB, [3] at most 16 KiB. Rows are levels 0 (negative base) to 22.
constexpr row level_table[4][max_level + 1] = {
    {
        {19, 12, 13, 1, 6, 1, fast},      {19, 13, 14, 1, 7, 0, fast},      {20, 15, 16, 1, 6, 0, fast},
        {21, 16, 17, 1, 5, 0, dfast},     {21, 18, 18, 1, 5, 0, dfast},     {21, 18, 19, 3, 5, 2, greedy},
        {21, 18, 19, 3, 5, 4, lazy},      {21, 19, 20, 4, 5, 8, lazy},      {21, 19, 20, 4, 5, 16, lazy2},
        {22, 20, 21, 4, 5, 16, lazy2},    {22, 21, 22, 5, 5, 16, lazy2},    {22, 21, 22, 6, 5, 16, lazy2},
        {22, 22, 23, 6, 5, 32, lazy2},    {22, 22, 22, 4, 5, 32, btlazy2},  {22, 22, 23, 5, 5, 32, btlazy2},
        {22, 23, 23, 6, 5, 32, btlazy2},  {22, 22, 22, 5, 5, 48, btopt},    {23, 23, 22, 5, 4, 64, btopt},
        {23, 23, 22, 6, 3, 64, btultra},  {23, 24, 22, 7, 3, 256, btultra2}, {25, 25, 23, 7, 3, 256, btultra2},
        {26, 26, 24, 7, 3, 512, btultra2}, {27, 27, 25, 9, 3, 999, btultra2},
    },
    {
        {18, 12, 13, 1, 5, 1, fast},      {18, 13, 14, 1, 6, 0, fast},      {18, 14, 14, 1, 5, 0, dfast},
        {18, 16, 16, 1, 4, 0, dfast},     {18, 16, 17, 3, 5, 2, greedy},    {18, 17, 18, 5, 5, 2, greedy},
        {18, 18, 19, 3, 5, 4, lazy},      {18, 18, 19, 4, 4, 4, lazy},      {18, 18, 19, 4, 4, 8, lazy2},
        {18, 18, 19, 5, 4, 8, lazy2},     {18, 18, 19, 6, 4, 8, lazy2},     {18, 18, 19, 5, 4, 12, btlazy2},
        {18, 19, 19, 7, 4, 12, btlazy2},  {18, 18, 19, 4, 4, 16, btopt},    {18, 18, 19, 4, 3, 32, btopt},
        {18, 18, 19, 6, 3, 128, btopt},   {18, 19, 19, 6, 3, 128, btultra}, {18, 19, 19, 8, 3, 256, btultra},
        {18, 19, 19, 6, 3, 128, btultra2}, {18, 19, 19, 8, 3, 256, btultra2}, {18, 19, 19, 10, 3, 512, btultra2},
        {18, 19, 19, 12, 3, 512, btultra2}, {18, 19, 19, 13, 3, 999, btultra2},
    },
    {
        {17, 12, 12, 1, 5, 1, fast},      {17, 12, 13, 1, 6, 0, fast},      {17, 13, 15, 1, 5, 0, fast},
        {17, 15, 16, 2, 5, 0, dfast},     {17, 17, 17, 2, 4, 0, dfast},     {17, 16, 17, 3, 4, 2, greedy},
        {17, 16, 17, 3, 4, 4, lazy},      {17, 16, 17, 3, 4, 8, lazy2},     {17, 16, 17, 4, 4, 8, lazy2},
        {17, 16, 17, 5, 4, 8, lazy2},     {17, 16, 17, 6, 4, 8, lazy2},     {17, 17, 17, 5, 4, 8, btlazy2},
        {17, 18, 17, 7, 4, 12, btlazy2},  {17, 18, 17, 3, 4, 12, btopt},    {17, 18, 17, 4, 3, 32, btopt},
        {17, 18, 17, 6, 3, 256, btopt},   {17, 18, 17, 6, 3, 128, btultra}, {17, 18, 17, 8, 3, 256, btultra},
        {17, 18, 17, 10, 3, 512, btultra}, {17, 18, 17, 5, 3, 256, btultra2}, {17, 18, 17, 7, 3, 512, btultra2},
        {17, 18, 17, 9, 3, 512, btultra2}, {17, 18, 17, 11, 3, 999, btultra2},
    },
    {
        {14, 12, 13, 1, 5, 1, fast},      {14, 14, 15, 1, 5, 0, fast},      {14, 14, 15, 1, 4, 0, fast},
        {14, 14, 15, 2, 4, 0, dfast},     {14, 14, 14, 4, 4, 2, greedy},    {14, 14, 14, 3, 4, 4, lazy},
        {14, 14, 14, 4, 4, 8, lazy2},     {14, 14, 14, 6, 4, 8, lazy2},     {14, 14, 14, 8, 4, 8, lazy2},
        {14, 15, 14, 5, 4, 8, btlazy2},   {14, 15, 14, 9, 4, 8, btlazy2},   {14, 15, 14, 3, 4, 12, btopt},
        {14, 15, 14, 4, 3, 24, btopt},    {14, 15, 14, 5, 3, 32, btultra},  {14, 15, 15, 6, 3, 64, btultra},
        {14, 15, 15, 7, 3, 256, btultra}, {14, 15, 15, 5, 3, 48, btultra2}, {14, 15, 15, 6, 3, 128, btultra2},
        {14, 15, 15, 7, 3, 256, btultra2}, {14, 15, 15, 8, 3, 256, btultra2}, {14, 15, 15, 8, 3, 512, btultra2},
        {14, 15, 15, 9, 3, 512, btultra2}, {14, 15, 15, 10, 3, 999, btultra2},
    },
};

constexpr unsigned min_window_log = 10;    // the smallest window a frame header can declare
constexpr unsigned min_table_log = 6;      // inputs below 64 bytes still get 64-entry tables
constexpr std::uint64_t max_resize = 1ull << 30;  // larger inputs keep the table's window

constexpr unsigned ldm_default_window_log = 27;  // what enabling long-distance matching asks for

// Long-distance matching's parameters for the frame's window and strategy.
zest::ldm_parameters resolve_ldm(const zest::ldm_parameters& set, const compression_params& p) noexcept {
    const bool on = set.mode == zest::ldm_mode::enabled ||
                    (set.mode == zest::ldm_mode::automatic && p.strategy >= btopt && p.window_log >= ldm_default_window_log);
    if (!on) return {zest::ldm_mode::disabled, 0, 0, 0, 0};
    zest::ldm_parameters r = set;
    r.mode = zest::ldm_mode::enabled;
    if (!r.bucket_size_log) r.bucket_size_log = 3;
    if (!r.min_match) r.min_match = 64;
    // A sample per 2^7 bytes of window by default, one in 2^hash_rate_log positions.
    if (!r.hash_log) r.hash_log = std::max(6u, p.window_log - 7);
    if (!r.hash_rate_log) r.hash_rate_log = p.window_log < r.hash_log ? 0 : p.window_log - r.hash_log;
    r.bucket_size_log = std::min(r.bucket_size_log, r.hash_log);
    return r;
}

}  // namespace

compression_params params_for_level(int level, std::uint64_t src_size, const compression_parameters& o) noexcept {
    const unsigned size_class = unsigned(src_size <= (256u << 10)) + unsigned(src_size <= (128u << 10)) +
                                unsigned(src_size <= (16u << 10));
    int r = level;
    if (level == 0) r = default_level;
    else if (level < 0) r = 0;
    else if (level > max_level) r = max_level;
    const row& t = level_table[size_class][r];
    compression_params p{t.w, t.c, t.h, t.s, t.l, t.tl, t.st, {}};
    if (level < 0) p.target_length = unsigned(-std::max(level, min_level));
    if (o.ldm.mode == zest::ldm_mode::enabled) p.window_log = ldm_default_window_log;
    if (o.window_log) p.window_log = o.window_log;
    if (o.chain_log) p.chain_log = o.chain_log;
    if (o.hash_log) p.hash_log = o.hash_log;
    if (o.search_log) p.search_log = o.search_log;
    if (o.min_match) p.min_match = o.min_match;
    if (o.target_length) p.target_length = o.target_length;
    if (o.strategy != strategy{}) p.strategy = o.strategy;

    if (src_size != content_size_unknown) {
        // The window need not exceed the input: the smallest power of two
        // holding it (at least 64 bytes for the table sizes below).
        if (src_size <= max_resize) {
            const unsigned src_log =
                src_size < (1u << min_table_log) ? min_table_log : unsigned(std::bit_width(src_size - 1));
            p.window_log = std::min(p.window_log, src_log);
        }
    }
    if (src_size != content_size_unknown || o.window_log) {
        // Tables larger than the window hold nothing more (the reference
        // shrinks them for known sizes only; an explicit window bounds them
        // as well). Binary-tree strategies store two entries per position in
        // the chain table.
        p.hash_log = std::min(p.hash_log, p.window_log + 1);
        const unsigned cycle_log = p.chain_log - (p.strategy >= btlazy2 ? 1u : 0u);
        if (cycle_log > p.window_log) p.chain_log -= cycle_log - p.window_log;
    }
    p.window_log = std::max(p.window_log, min_window_log);
    p.ldm = resolve_ldm(o.ldm, p);
    return p;
}

}  // namespace zest::detail
