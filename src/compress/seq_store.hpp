// What a match finder produces for one block: the literal bytes in order,
// and the sequences (literal length, match length, offset value) between them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

#include "common/bits.hpp"

namespace zest::detail {

/// One sequence as the format codes it. off_value is the format's
/// Offset_Value: 1..3 name a repeat offset (1 = the last one, or the
/// second one when lit_len is 0), offset + 3 a new offset.
struct stored_sequence {
    std::uint32_t lit_len;
    std::uint32_t match_len;  ///< >= 3
    std::uint32_t off_value;
};

/// The repeat offsets as the decoder will track them: start with {1, 4, 8}.
struct repeat_offsets {
    std::uint32_t rep[3] = {1, 4, 8};
};

/// A block's worth of sequences and literals, in buffers owned by the
/// compressor (sized for the frame's largest block: its bytes of literals
/// and a sequence per 4 bytes, per 3 when the minimum match is 3).
struct seq_store {
    std::uint8_t* lits = nullptr;
    std::size_t n_lits = 0;
    stored_sequence* seqs = nullptr;
    std::size_t n_seqs = 0;
    /// Scratch for the sequences encoder: one word of codes per sequence.
    std::uint32_t* codes = nullptr;
    /// End of the memory literals are taken from, when known: below it,
    /// short literal runs are copied 16 bytes at a time (`lits` then needs
    /// lits_slack bytes past its capacity).
    const std::uint8_t* src_end = nullptr;
    static constexpr std::size_t lits_slack = 16;

    void clear() noexcept { n_lits = 0, n_seqs = 0; }
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
        *seq_++ = {lit_len, match_len, offset + 3};
        std::uint32_t* const r = reps_.rep;
        r[2] = r[1], r[1] = r[0], r[0] = offset;
    }
    /// `lit_len` (> 0) literals from `lit`, then a match at the last offset.
    ZEST_INLINE void add_last(const std::uint8_t* lit, std::uint32_t lit_len, std::uint32_t match_len) noexcept {
        copy_literals(lit, lit_len);
        *seq_++ = {lit_len, match_len, 1};
    }
    /// No literals, then a match at the second offset, which becomes the last.
    ZEST_INLINE void add_second(std::uint32_t match_len) noexcept {
        *seq_++ = {0, match_len, 1};
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
