// What a match finder produces for one block: the literal bytes in order,
// and the sequences (literal length, match length, offset value) between them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

#include "common/bits.hpp"

namespace zest::detail {

/// One sequence as the format codes it, in 8 bytes (as the reference's
/// seqDef). off_value is the format's Offset_Value: 1..3 name a repeat
/// offset (1 = the last one, or the second one when the literal length is
/// 0), offset + 3 a new offset. The lengths keep their low 16 bits; a block
/// (at most 128 KiB) holds at most one sequence whose literal length or
/// match length - 3 reaches 2^16, and its seq_store says which (long_seq).
struct stored_sequence {
    std::uint32_t off_value;
    std::uint16_t lit_len;  ///< literal length, low 16 bits
    std::uint16_t ml_base;  ///< match length - 3, low 16 bits
};

/// The repeat offsets as the decoder will track them: start with {1, 4, 8}.
struct repeat_offsets {
    std::uint32_t rep[3] = {1, 4, 8};
};

/// Updates the repeat offsets `r` as the decoder does after a sequence with
/// `off_value` whose literal length is 0 (`ll0`) or not.
inline void update_repeats(std::uint32_t* r, std::uint32_t off_value, bool ll0) noexcept {
    if (off_value > 3) {
        r[2] = r[1], r[1] = r[0], r[0] = off_value - 3;
        return;
    }
    const std::uint32_t k = off_value - 1 + std::uint32_t(ll0);
    if (k == 0) return;
    const std::uint32_t offset = k == 3 ? r[0] - 1 : r[k];
    if (k >= 2) r[2] = r[1];
    r[1] = r[0];
    r[0] = offset;
}

/// A block's worth of sequences and literals, in buffers owned by the
/// compressor (sized for the frame's largest block: its bytes of literals
/// and a sequence per 4 bytes, per 3 when the minimum match is 3).
struct seq_store {
    std::uint8_t* lits = nullptr;
    std::size_t n_lits = 0;
    stored_sequence* seqs = nullptr;
    std::size_t n_seqs = 0;
    /// The sequence whose literal length (long_is_match false) or match
    /// length - 3 (true) is 2^16 more than it holds; no_long: none.
    static constexpr std::size_t no_long = SIZE_MAX;
    std::size_t long_seq = no_long;
    bool long_is_match = false;
    /// Scratch for the sequences encoder: 3 bytes of codes per sequence
    /// (literal length, offset, match length) and codes_slack more.
    std::uint8_t* codes = nullptr;
    static constexpr std::size_t codes_slack = 1;
    /// End of the memory literals are taken from, when known: below it,
    /// short literal runs are copied 16 bytes at a time (`lits` then needs
    /// lits_slack bytes past its capacity).
    const std::uint8_t* src_end = nullptr;
    static constexpr std::size_t lits_slack = 16;

    void clear() noexcept { n_lits = 0, n_seqs = 0, long_seq = no_long; }

    /// Sequence i's lengths in full.
    std::uint32_t lit_len(std::size_t i) const noexcept {
        return seqs[i].lit_len + (i == long_seq && !long_is_match ? 0x10000u : 0u);
    }
    std::uint32_t match_len(std::size_t i) const noexcept {
        return seqs[i].ml_base + 3u + (i == long_seq && long_is_match ? 0x10000u : 0u);
    }
    /// Writes sequence i (lit_len + match_len within a block); false when a
    /// second long one would be needed, which no block of 128 KiB can hold.
    bool put(std::size_t i, std::uint32_t lit_len, std::uint32_t match_len, std::uint32_t off_value) noexcept {
        const std::uint32_t base = match_len - 3;
        if ((lit_len | base) > 0xFFFF) {
            if (long_seq != no_long && long_seq != i) return false;
            long_seq = i;
            long_is_match = base > 0xFFFF;
        }
        seqs[i] = {off_value, std::uint16_t(lit_len), std::uint16_t(base)};
        return true;
    }
};

/// Where a match finder puts what it finds in one block: a seq_store's
/// write positions, held as values while the block is scanned (the literal
/// copies store bytes, which the compiler must otherwise assume may
/// overwrite the counts kept in memory) and written back by finish(), and
/// the repeat offsets, kept as the decoder will see them. The three ways to add a sequence are the three ways
/// the fast strategies code one, as the reference's finders do: a new
/// offset (never looked up among the repeat offsets), the last offset after
/// some literals, and the second offset right after a match.
class seq_sink {
public:
    ZEST_INLINE seq_sink(seq_store& store, repeat_offsets& reps) noexcept
        : store_(store), reps_(reps), lit_(store.lits + store.n_lits), seq_(store.seqs + store.n_seqs),
          // Below this, 16 bytes can be read from a literal run's start.
          lit_limit_(store.src_end ? reinterpret_cast<std::uintptr_t>(store.src_end) - 16 : 0) {}

    ZEST_INLINE std::uint32_t last_offset() const noexcept { return reps_.rep[0]; }
    ZEST_INLINE std::uint32_t second_offset() const noexcept { return reps_.rep[1]; }

    /// `lit_len` literals from `lit`, then a match at a new `offset`.
    ZEST_INLINE void add_new(const std::uint8_t* lit, std::uint32_t lit_len, std::uint32_t offset, std::uint32_t match_len) noexcept {
        copy_literals(lit, lit_len);
        put(lit_len, match_len, offset + 3);
        std::uint32_t* const r = reps_.rep;
        r[2] = r[1], r[1] = r[0], r[0] = offset;
    }
    /// `lit_len` (> 0) literals from `lit`, then a match at the last offset.
    ZEST_INLINE void add_last(const std::uint8_t* lit, std::uint32_t lit_len, std::uint32_t match_len) noexcept {
        copy_literals(lit, lit_len);
        put(lit_len, match_len, 1);
    }
    /// No literals, then a match at the second offset, which becomes the last.
    ZEST_INLINE void add_second(std::uint32_t match_len) noexcept {
        put(0, match_len, 1);
        std::swap(reps_.rep[0], reps_.rep[1]);
    }
    /// The block's trailing literals (no sequence follows them).
    ZEST_INLINE void add_last_literals(const std::uint8_t* lit, std::size_t n) noexcept {
        if (n == 0) return;  // lit may be null then
        std::memcpy(lit_, lit, n);
        lit_ += n;
    }
    ZEST_INLINE void finish() noexcept {
        store_.n_lits = std::size_t(lit_ - store_.lits);
        store_.n_seqs = std::size_t(seq_ - store_.seqs);
    }

private:
    ZEST_INLINE void put(std::uint32_t lit_len, std::uint32_t match_len, std::uint32_t off_value) noexcept {
        const std::uint32_t base = match_len - 3;
        if ((lit_len | base) > 0xFFFF) [[unlikely]] {
            store_.long_seq = std::size_t(seq_ - store_.seqs);
            store_.long_is_match = base > 0xFFFF;
        }
        *seq_++ = {off_value, std::uint16_t(lit_len), std::uint16_t(base)};
    }
    ZEST_INLINE void copy_literals(const std::uint8_t* lit, std::uint32_t n) noexcept {
        if (n <= 16 && reinterpret_cast<std::uintptr_t>(lit) <= lit_limit_)
            std::memcpy(lit_, lit, 16);  // a fixed size: no library call
        else
            std::memcpy(lit_, lit, n);
        lit_ += n;
    }

    seq_store& store_;
    repeat_offsets& reps_;
    std::uint8_t* lit_;
    stored_sequence* seq_;
    std::uintptr_t lit_limit_;
};

}  // namespace zest::detail
