// Huffman literal tables: reading the tree description (direct or
// FSE-compressed weights) and building the single-lookup decoding table.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/status.hpp"

namespace zest::detail {

inline constexpr unsigned huf_max_bits = 11;

/// Decoding table: indexed by the next `max_bits` bits of the stream, each
/// entry holds the symbol (low byte) and its code length (high byte).
struct huffman_table {
    unsigned max_bits = 0;  // 0 while no table has been read
    std::uint16_t entries[1u << huf_max_bits];
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

}  // namespace zest::detail
