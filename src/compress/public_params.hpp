// The parameters callers set beyond the level (compressor, compress_stream):
// the reference's bounds for each, and their conversion to and from the
// frame writer's types.
#pragma once

#include "compress/params.hpp"
#include "zest/zest.hpp"

namespace zest::detail {

static_assert(static_cast<int>(strategy::btultra2) == static_cast<int>(zest::strategy::btultra2) &&
              static_cast<int>(strategy::fast) == static_cast<int>(zest::strategy::fast));

/// Inclusive bounds of one parameter; 0 is always taken too ("the level's").
struct parameter_range {
    unsigned lower, upper;
    constexpr bool allows(unsigned v) const noexcept { return v == 0 || (v >= lower && v <= upper); }
};

// The reference's bounds (ZSTD_cParam_getBounds of a 64-bit build).
inline constexpr parameter_range window_log_range{10, zest::max_window_log_limit};
inline constexpr parameter_range chain_log_range{6, 30};
inline constexpr parameter_range hash_log_range{6, 30};
inline constexpr parameter_range search_log_range{1, 30};
inline constexpr parameter_range min_match_range{3, 7};
inline constexpr parameter_range target_length_range{0, 128 * 1024};
inline constexpr parameter_range strategy_range{unsigned(zest::strategy::fast), unsigned(zest::strategy::btultra2)};
inline constexpr parameter_range ldm_hash_log_range{6, 30};
inline constexpr parameter_range ldm_min_match_range{4, 4096};
inline constexpr parameter_range ldm_bucket_size_log_range{1, 8};
inline constexpr parameter_range ldm_hash_rate_log_range{0, 25};

constexpr bool allowed(const zest::ldm_parameters& l) noexcept {
    return unsigned(l.mode) <= unsigned(zest::ldm_mode::disabled) && ldm_hash_log_range.allows(l.hash_log) &&
           ldm_min_match_range.allows(l.min_match) && ldm_bucket_size_log_range.allows(l.bucket_size_log) &&
           ldm_hash_rate_log_range.allows(l.hash_rate_log);
}

constexpr bool allowed(zest::strategy s) noexcept { return strategy_range.allows(unsigned(s)); }

/// Whether every field is 0 or within its bounds.
constexpr bool allowed(const compression_parameters& p) noexcept {
    return window_log_range.allows(p.window_log) && chain_log_range.allows(p.chain_log) &&
           hash_log_range.allows(p.hash_log) && search_log_range.allows(p.search_log) &&
           min_match_range.allows(p.min_match) && target_length_range.allows(p.target_length) &&
           allowed(p.strategy) && allowed(p.ldm);
}

/// The frame writer's overrides for what a caller set; a field out of its
/// bounds counts as 0 (the setters never store one).
inline parameter_overrides to_overrides(const compression_parameters& p) noexcept {
    const auto pick = [](unsigned v, parameter_range r) { return r.allows(v) ? v : 0u; };
    return {pick(p.window_log, window_log_range),
            pick(p.chain_log, chain_log_range),
            pick(p.hash_log, hash_log_range),
            pick(p.search_log, search_log_range),
            pick(p.min_match, min_match_range),
            pick(p.target_length, target_length_range),
            allowed(p.strategy) ? static_cast<strategy>(p.strategy) : strategy{},
            allowed(p.ldm) ? p.ldm : zest::ldm_parameters{}};
}

inline compression_parameters to_public(const compression_params& p) noexcept {
    return {p.window_log, p.chain_log, p.hash_log, p.search_log, p.min_match, p.target_length,
            static_cast<zest::strategy>(p.strat), p.ldm};
}

/// Stores `v` into `field` when it is 0 or within `r`.
inline result<unsigned> set_checked(unsigned& field, unsigned v, parameter_range r) noexcept {
    if (!r.allows(v)) return errc::invalid_argument;
    field = v;
    return v;
}

}  // namespace zest::detail
