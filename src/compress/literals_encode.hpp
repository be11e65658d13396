// The literals section of a compressed block: raw, RLE, or Huffman-coded
// with a new table or the previous block's, whichever is smallest.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/format.hpp"
#include "compress/huffman_encode.hpp"

namespace zest::detail {

/// What coding must save over storing `n` bytes raw to be worth its header
/// (the reference's rule, for literals sections and for whole blocks): a
/// 64th, or less at btultra and btultra2 (gain_log, see gain_log_of).
inline std::size_t min_gain(std::size_t n, unsigned gain_log = 6) noexcept { return (n >> gain_log) + 2; }

/// The gain_log of min_gain at strategy `strat` (params.hpp's numbering): 6,
/// and at btultra (8) and btultra2 (9) one less than the strategy.
inline unsigned gain_log_of(unsigned strat) noexcept { return strat >= 8 ? strat - 1 : 6; }

/// The Huffman table the decoder holds (kept across blocks until replaced).
struct literals_entropy {
    bool valid = false;        ///< `table` is set
    const huffman_ctable* table = nullptr;  ///< `own`, or a dictionary's
    huffman_ctable own;

    literals_entropy() = default;
    // Copies would leave `table` pointing into the source: use assign().
    literals_entropy(const literals_entropy&) = delete;
    literals_entropy& operator=(const literals_entropy&) = delete;
    /// Becomes what `o` holds (copying its own table only when it uses it).
    void assign(const literals_entropy& o) noexcept {
        if (this == &o) return;
        valid = o.valid;
        if (o.table == &o.own) {
            own = o.own;
            table = &own;
        } else {
            table = o.table;
        }
    }
};

/// The most literals a block holds: its size limit.
inline constexpr std::size_t literals_max = block_size_max;

/// Writes the literals section for lits[0, n) into dst[0, capacity),
/// n <= literals_max (0 is returned above it).
/// `prev` is the decoder's table before this block; `next` receives the one
/// it will hold after. Without `huffman` the literals are stored raw (or
/// RLE), as the reference does at negative levels. Huffman coding must save
/// min_gain(n, gain_log). With `optimal_depth` (btultra and btultra2, as the
/// reference), the longest code length is the one that makes the table and
/// the streams smallest rather than a rule of thumb. Returns the section's
/// size, 0 when it does not fit. With `prefer_repeat` (the fast strategies'
/// small sections, as the reference), the previous table is kept whenever
/// it covers the literals, without a new one being built to compare.
std::size_t encode_literals(std::uint8_t* dst, std::size_t capacity, const std::uint8_t* lits, std::size_t n,
                            const literals_entropy& prev, literals_entropy& next, bool huffman = true,
                            unsigned gain_log = 6, bool optimal_depth = false, bool prefer_repeat = false) noexcept;

}  // namespace zest::detail
