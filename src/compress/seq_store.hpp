// What a match finder produces for one block: the literal bytes in order,
// and the sequences (literal length, match length, offset value) between them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace zest::detail {

/// One sequence as the format codes it. off_value is the format's
/// Offset_Value: 1..3 name a repeat offset (shifted by one when lit_len is
/// 0: see encode_offset), offset + 3 a new offset.
struct stored_sequence {
    std::uint32_t lit_len;
    std::uint32_t match_len;  ///< >= 3
    std::uint32_t off_value;
};

/// The repeat offsets as the decoder will track them: start with {1, 4, 8}.
struct repeat_offsets {
    std::uint32_t rep[3] = {1, 4, 8};
};

/// The Offset_Value that makes the decoder use `offset` after `lit_len`
/// literals, updating `r` exactly as the decoder will. Repeat codes are
/// used whenever `offset` equals one of the repeat offsets they can name.
inline std::uint32_t encode_offset(repeat_offsets& r, std::uint32_t offset, std::uint32_t lit_len) noexcept {
    std::uint32_t* rep = r.rep;
    if (lit_len != 0) {
        if (offset == rep[0]) return 1;
        if (offset == rep[1]) {
            rep[1] = rep[0];
            rep[0] = offset;
            return 2;
        }
        if (offset == rep[2]) {
            rep[2] = rep[1];
            rep[1] = rep[0];
            rep[0] = offset;
            return 3;
        }
    } else {
        // With no literals the codes shift: 1 = rep[1], 2 = rep[2], 3 = rep[0] - 1.
        if (offset == rep[1]) {
            rep[1] = rep[0];
            rep[0] = offset;
            return 1;
        }
        if (offset == rep[2]) {
            rep[2] = rep[1];
            rep[1] = rep[0];
            rep[0] = offset;
            return 2;
        }
        if (offset == rep[0] - 1) {
            rep[2] = rep[1];
            rep[1] = rep[0];
            rep[0] = offset;
            return 3;
        }
    }
    rep[2] = rep[1];
    rep[1] = rep[0];
    rep[0] = offset;
    return offset + 3;
}

/// A block's worth of sequences and literals, in buffers owned by the
/// compressor (sized for the largest block: 128 KiB of literals and at most
/// 128 KiB / 3 sequences).
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
    /// Appends `lit_len` literals from `lit` and a sequence using them.
    void add(const std::uint8_t* lit, std::uint32_t lit_len, std::uint32_t off_value, std::uint32_t match_len) noexcept {
        if (lit_len <= 16 && src_end && src_end - lit >= 16)
            std::memcpy(lits + n_lits, lit, 16);  // a fixed size: no library call
        else
            std::memcpy(lits + n_lits, lit, lit_len);
        n_lits += lit_len;
        seqs[n_seqs++] = {lit_len, match_len, off_value};
    }
    /// Appends the block's trailing literals (no sequence follows them).
    void add_last_literals(const std::uint8_t* lit, std::size_t n) noexcept {
        if (n == 0) return;  // lit may be null then
        std::memcpy(lits + n_lits, lit, n);
        n_lits += n;
    }
};

}  // namespace zest::detail
