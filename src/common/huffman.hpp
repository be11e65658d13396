// Huffman literal tables: reading the tree description (direct or
// FSE-compressed weights) and building the single-lookup decoding table.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/status.hpp"

namespace zest::detail {

/// The longest code the format allows (11), which zest writes and its
/// fastest decoding loops and pair tables assume.
inline constexpr unsigned huf_max_bits = 11;
/// The deepest table the decoder reads: 12, as libzstd has since 1.4.5
/// (HUF_TABLELOG_MAX), though the format's text says 11; other encoders
/// write such tables (tests/known_differences.md). Those tables decode
/// through the careful loops, without a pair table.
inline constexpr unsigned huf_max_table_log = 12;

/// Decoding table: indexed by the next `max_bits` bits of the stream, each
/// entry holds the code's length (low byte: a 64-bit shift by the whole
/// entry shifts by it, with no step to take it out on the chain from one
/// lookup to the next) and the symbol (high byte).
struct huffman_table {
    unsigned max_bits = 0;  // 0 while no table has been read
    bool pairs_ready = false;  // `pairs` matches `entries`
    std::uint16_t entries[1u << huf_max_table_log];
    /// Two-symbol table, indexed by the next huf_max_bits bits whatever
    /// max_bits is (so that two codes pair whenever they fit in that many,
    /// not only in max_bits): the bits the symbols use together (bits
    /// 0-7: a 64-bit shift by the whole entry shifts by them, with no step
    /// to take them out on the chain from one lookup to the next), how many
    /// fit (8-15, 1 or 2) and the symbols (16-23 and 24-31).
    std::uint32_t pairs[1u << huf_max_bits];
};

/// Weights of up to 256 symbols, from a tree description.
struct huffman_weights {
    std::uint8_t weight[256];
    unsigned count = 0;  // symbols described, the implied last one included
};

/// Reads a tree description at src[0, size); stores the bytes used.
errc read_huffman_weights(const std::uint8_t* src, std::size_t size, huffman_weights& w,
                          std::size_t& used) noexcept;

/// Completes the weights (implied last symbol) and fills `t`.
errc build_huffman_table(huffman_weights& w, huffman_table& t) noexcept;

/// Fills t.pairs from t.entries (done on demand: it only pays on large
/// sections of short codes). Tables deeper than huf_max_bits get none.
void build_huffman_pairs(huffman_table& t) noexcept;

}  // namespace zest::detail
