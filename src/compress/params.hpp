// Compression levels: the parameters behind each level, following the
// reference's level semantics, scaled down for small inputs.
#pragma once

#include <cstdint>

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
};

inline constexpr int min_level = -131072;  ///< the reference's lowest (fast) level
inline constexpr int max_level = 22;
inline constexpr int default_level = 3;

/// Parameters for `level` (0 means the default level; below 0: `fast` with
/// acceleration -level) for an input of `src_size` bytes (unknown:
/// UINT64_MAX), including the smaller tables the reference uses for inputs
/// of at most 256 KiB, 128 KiB and 16 KiB, and the window shrunk to the input.
compression_params params_for_level(int level, std::uint64_t src_size) noexcept;

}  // namespace zest::detail
