// Match finders, one file per strategy. Each scans one block, with the
// input before it (within the window) as history, and fills a seq_store.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "compress/params.hpp"
#include "compress/seq_store.hpp"

namespace zest::detail {

/// Hash tables and positions, kept across the blocks of one frame and, by a
/// context, across frames. Positions are indices from `base`; the frame's
/// input (contiguous, all in memory) starts at index `low`, so `base` itself
/// may lie before it. Table entries below `low` are left over from earlier
/// frames: they are never followed, which spares clearing the tables.
struct match_state {
    const std::uint8_t* base = nullptr;
    std::uint32_t low = 0;                 ///< index of the frame's first byte
    std::uint32_t* hash_table = nullptr;   ///< 1 << hash_log entries
    std::uint32_t* chain_table = nullptr;  ///< 1 << chain_log entries (dfast: its short-match table; bt: two per position)
    std::uint8_t* tag_table = nullptr;     ///< row matcher: per row, a head byte and a tag byte per entry (2 bytes per hash_table entry)
    std::uint32_t next_to_update = 0;      ///< first position not yet inserted
    compression_params params{};

    ZEST_INLINE std::size_t max_distance() const noexcept { return std::size_t(1) << params.window_log; }
    /// The lowest position a match found in a block ending at `end` may
    /// start at: the frame's first byte, or the window's edge.
    ZEST_INLINE std::size_t lowest(std::size_t end) const noexcept {
        const std::size_t w = max_distance();
        return end - low > w ? end - w : low;
    }
    /// A repeat offset a finder may try from position `at`: itself when it
    /// stays inside the frame and the window, else 0 (not tried).
    ZEST_INLINE std::uint32_t usable_repeat(std::uint32_t rep, std::size_t at) const noexcept {
        const std::size_t reach = std::min(at - low, max_distance());
        return rep > reach ? 0 : rep;
    }
};

/// btlazy2's chain table holds two slots per position; the second is this
/// mark while the position is chained but not yet sorted into the tree.
/// Children are above the frame's first position (at least 1), so never 1.
constexpr std::uint32_t bt_unsorted_mark = 1;

/// Whether greedy, lazy and lazy2 run on the row matcher rather than the
/// hash chain: as the reference chooses, for windows above 16 KiB.
constexpr bool uses_row_matcher(const compression_params& p) noexcept {
    return p.strat >= strategy::greedy && p.strat <= strategy::lazy2 && p.window_log > 14;
}

/// Sizes in entries of the tables the strategy needs (0 = none).
std::size_t hash_table_entries(const compression_params& p) noexcept;
std::size_t chain_table_entries(const compression_params& p) noexcept;
std::size_t tag_table_entries(const compression_params& p) noexcept;

/// Scans base[begin, end) (low <= begin) and appends its sequences and
/// literals (trailing literals included) to `out`, updating `reps`. Matches
/// never reach before `low` or further back than the window, and never past
/// `end`.
void find_matches_fast(match_state& ms, seq_store& out, repeat_offsets& reps, std::size_t begin,
                       std::size_t end) noexcept;
void find_matches_dfast(match_state& ms, seq_store& out, repeat_offsets& reps, std::size_t begin,
                        std::size_t end) noexcept;
/// greedy, lazy and lazy2, on the hash chain or the row matcher.
void find_matches_lazy(match_state& ms, seq_store& out, repeat_offsets& reps, std::size_t begin,
                       std::size_t end) noexcept;
/// btlazy2, on the binary tree.
void find_matches_btlazy2(match_state& ms, seq_store& out, repeat_offsets& reps, std::size_t begin,
                          std::size_t end) noexcept;
/// The strategy's finder (any strategy).
void find_matches(match_state& ms, seq_store& out, repeat_offsets& reps, std::size_t begin,
                  std::size_t end) noexcept;

}  // namespace zest::detail
