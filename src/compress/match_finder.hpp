// Match finders, one file per strategy. Each scans one block, with the
// input before it (within the window) as history, and fills a seq_store.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "compress/ldm.hpp"
#include "compress/params.hpp"
#include "compress/seq_store.hpp"

namespace zest::detail {

/// The optimal parser's statistics of symbol frequencies, from which it
/// prices literals and sequences; carried from block to block in a frame.
struct opt_stats {
    std::uint32_t lit[256], lit_len[36], match_len[53], off_code[32];
    std::uint32_t lit_sum, lit_len_sum, match_len_sum, off_code_sum;  ///< lit_len_sum 0: no block parsed yet
    std::uint32_t lit_sum_price, lit_len_sum_price, match_len_sum_price, off_code_sum_price;
    /// Each code's price with its extra bits, from the counts above (kept
    /// up to date with them: the parser prices thousands of lengths per
    /// update).
    int lit_len_price[36], match_len_price[53], off_code_price[32];
    bool predefined;  ///< prices from fixed guesses, not statistics (tiny first blocks)
};

/// The parser's longest lookahead: a stretch of positions priced at once.
inline constexpr std::size_t opt_span = std::size_t(1) << 12;

/// A match the binary tree offers at a position: its offset value (1..3 a
/// repeat offset, offset + 3 a new one) and its length.
struct opt_match {
    std::uint32_t off_value, len;
};

/// The parser's cheapest way found to reach a position: a match of `mlen`
/// bytes (0: none) followed by `litlen` literals, its price, and the repeat
/// offsets after that match.
struct opt_node {
    int price;
    std::uint32_t off_value, mlen, litlen;
    std::uint32_t rep[3];
};

/// The optimal parser's memory: statistics, and the matches and nodes of the
/// stretch being priced.
struct opt_workspace {
    opt_stats stats;
    opt_match matches[opt_span + 3];
    opt_node nodes[opt_span + 3];
};

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
    std::uint32_t* hash3_table = nullptr;  ///< optimal strategies with 3-byte matches: 1 << hash3_log entries
    unsigned hash3_log = 0;
    opt_workspace* opt = nullptr;          ///< optimal strategies
    /// The long-distance matches of the block being parsed (offsets from
    /// the block's first byte), which the optimal parser weighs among its
    /// own (the other strategies take them as they are, see block_writer).
    const ldm_match* ldm = nullptr;
    std::size_t n_ldm = 0;
    compression_params params{};
    /// A dictionary attached to the frame (fast and dfast only, see
    /// match_attached.inl): its content's index j (1 <= j < dict_end) is
    /// at dict_base + j, dict_end - j bytes before `low`; its tables, made
    /// for the frame's parameters before attached_params shrank its own,
    /// are read, never written. dict_hash
    /// null: none.
    const std::uint8_t* dict_base = nullptr;
    std::uint32_t dict_end = 0;
    const std::uint32_t* dict_hash = nullptr;
    const std::uint32_t* dict_chain = nullptr;
    /// The dictionary's table sizes (logs): the frame's own tables may be
    /// smaller (attached_params), their hashes the top bits of its.
    unsigned dict_hash_log = 0, dict_chain_log = 0;

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
    return p.strategy >= strategy::greedy && p.strategy <= strategy::lazy2 && p.window_log > 14;
}

/// Whether a frame with parameters `p` can search a dictionary's own
/// tables rather than its content going through the finder first.
constexpr bool can_attach_dictionary(const compression_params& p) noexcept {
    return (p.strategy == strategy::fast || p.strategy == strategy::dfast) && p.ldm.mode != zest::ldm_mode::enabled;
}

/// The parameters of a frame of `size` bytes attached to a dictionary whose
/// tables were made for `p`: the frame's own tables sized for the frame
/// alone (as the reference sizes them when it attaches a frame to a
/// prepared dictionary), so that a message's positions land in tens of KiB
/// of table, not in the hundreds the dictionary's content needs. Never
/// smaller than for 4 KiB: a context keeps its tables only while their
/// sizes stay the same, and messages of any size up to 4 KiB then share
/// them (a smaller message touches as many cache lines in larger tables).
constexpr compression_params attached_params(compression_params p, std::uint64_t size) noexcept {
    unsigned log = 12;
    while (log < 31 && (std::uint64_t(1) << log) < size) ++log;
    if (p.hash_log > log + 1) p.hash_log = log + 1;
    if (p.chain_log > log) p.chain_log = log;
    return p;
}

/// Fills a dictionary's tables for frames with parameters `p`
/// (can_attach_dictionary): content index j (1 <= j, j + 8 <= end) at
/// base + j, as the finder would key it; `hash` has hash_table_entries(p)
/// zeroed entries and `chain` chain_table_entries(p).
void fill_dictionary_tables(const compression_params& p, const std::uint8_t* base, std::uint32_t end,
                            std::uint32_t* hash, std::uint32_t* chain) noexcept;

/// Sizes in entries of the tables the strategy needs (0 = none).
std::size_t hash_table_entries(const compression_params& p) noexcept;
/// The 3-byte hash of the optimal strategies with 3-byte matches.
unsigned hash3_log(const compression_params& p) noexcept;
std::size_t hash3_table_entries(const compression_params& p) noexcept;
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
/// btopt, btultra and btultra2: the optimal parser on the binary tree. Its
/// statistics (ms.opt->stats) must be reset (lit_len_sum = 0) at a frame's
/// start. btultra2's first block is parsed twice, the first time only to
/// gather statistics; the tables then forget that pass by moving every
/// position up by the block's size: ms.base moves down and ms.low up by it,
/// and the caller's later positions must follow (see block_writer).
void find_matches_opt(match_state& ms, seq_store& out, repeat_offsets& reps, std::size_t begin,
                      std::size_t end) noexcept;
/// btopt, btultra and btultra2: base[begin, end) sorted into the binary
/// tree as history (a job's overlap), without parsing it; the hash of
/// 3-byte matches is left alone.
void fill_opt_tree(match_state& ms, std::size_t begin, std::size_t end) noexcept;
/// The strategy's finder (any strategy).
void find_matches(match_state& ms, seq_store& out, repeat_offsets& reps, std::size_t begin,
                  std::size_t end) noexcept;

}  // namespace zest::detail
