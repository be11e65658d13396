// Compression levels: the parameters behind each level, following the
// reference's level semantics, scaled down for small inputs.
#pragma once

#include <cstdint>

#include "zest/zest.hpp"

namespace zest::detail {

enum class strategy : std::uint8_t { fast = 1, dfast, greedy, lazy, lazy2, btlazy2, btopt, btultra, btultra2 };

struct compression_params {
    unsigned window_log;
    unsigned chain_log;
    unsigned hash_log;
    unsigned search_log;
    unsigned min_match;
    unsigned target_length;  ///< for `fast`: the acceleration of negative levels
    strategy strat;
    /// Long-distance matching: mode enabled (every field filled in) or
    /// disabled (the others 0).
    zest::ldm_parameters ldm{};
};

/// Parameters set beyond the level, as the reference's advanced parameters
/// (ZSTD_c_windowLog ... ZSTD_c_strategy): each 0 takes the level's value.
struct parameter_overrides {
    unsigned window_log = 0;
    unsigned chain_log = 0;
    unsigned hash_log = 0;
    unsigned search_log = 0;
    unsigned min_match = 0;
    unsigned target_length = 0;
    strategy strat{};
    zest::ldm_parameters ldm{};  ///< the caller's; 0 fields and mode automatic: the defaults

    bool any() const noexcept {
        return window_log | chain_log | hash_log | search_log | min_match | target_length | unsigned(strat) |
               unsigned(ldm.mode) | ldm.hash_log | ldm.min_match | ldm.bucket_size_log | ldm.hash_rate_log;
    }
};

inline constexpr int min_level = -131072;  ///< the reference's lowest (fast) level
inline constexpr int max_level = 22;
inline constexpr int default_level = 3;

/// Parameters for `level` (0 means the default level; below 0: `fast` with
/// acceleration -level) for an input of `src_size` bytes (unknown:
/// UINT64_MAX), including the smaller tables the reference uses for inputs
/// of at most 256 KiB, 128 KiB and 16 KiB, and the window shrunk to the input.
/// Overrides replace the level's values before the adjustment to the size,
/// as in the reference. Long-distance matching is then resolved for the
/// window: enabled on request (the window then 2^27 unless set), or for
/// windows of 2^27 and more at btopt and up; its parameters are the
/// caller's or the reference's defaults for the window.
compression_params params_for_level(int level, std::uint64_t src_size, const parameter_overrides& o = {}) noexcept;

}  // namespace zest::detail
