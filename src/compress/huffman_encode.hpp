// Huffman literal encoding: length-limited codes, the tree description, and
// the 1- and 4-stream encoders, all readable by zest's decoder and libzstd.
#pragma once

#include <cstddef>
#include <cstdint>

namespace zest::detail {

/// An encoding table: code and length per symbol (length 0 = absent).
struct huffman_ctable {
    std::uint16_t code[256];
    std::uint8_t bits[256];
    unsigned max_bits = 0;    ///< longest code
    unsigned max_symbol = 0;  ///< largest symbol present
};

/// The longest code to allow for `n` literals of values up to max_symbol:
/// 11 bits, the format's limit, or less for few literals, where deeper
/// codes save fewer bits in the streams than their larger weights cost in
/// the table description (the reference's choice: about log2(n) - 1).
unsigned huffman_max_bits(std::size_t n, unsigned max_symbol) noexcept;

/// Builds codes for the symbols with a non-zero count (at least two such
/// symbols), no code longer than max_bits (<= 11). The codes are the
/// canonical ones the format derives from the weights, so that the table
/// description alone lets a decoder rebuild them. Returns the longest code
/// (t.max_bits, relative to which the weights are written), or 0 when no
/// table is possible: fewer than two symbols, max_bits above 11, or more
/// symbols than 2^max_bits. When the optimal code needs longer codes,
/// `optimal` makes them the best codes within max_bits (package-merge,
/// some microseconds for 256 symbols); otherwise a quicker repair lengthens
/// the codes nearest the limit whatever their counts (blocks).
unsigned build_huffman_ctable(const std::uint32_t* counts, unsigned max_symbol, unsigned max_bits,
                              huffman_ctable& out, bool optimal = false) noexcept;

/// The table a tree description's weights give (weight w: a code of
/// max_bits + 1 - w bits; 0: no code), codes as the decoder derives them.
/// `weights` holds the weights of symbols 0..n-1 (the implied last one
/// included). Returns the longest code length, 0 when they describe no code.
/// Codes may be 12 bits long, as a dictionary's table can be (the streams'
/// encoder takes them); nothing zest builds itself passes 11.
unsigned huffman_ctable_from_weights(const std::uint8_t* weights, unsigned n, huffman_ctable& out) noexcept;

/// Writes the tree description (header byte, then the weights FSE-compressed
/// or direct, whichever is smaller). Returns its size, 0 if it does not fit
/// or cannot be written (over 128 weights, all equal: FSE cannot mark the
/// end of such a stream; better stored raw anyway).
std::size_t write_huffman_description(std::uint8_t* dst, std::size_t capacity, const huffman_ctable& t) noexcept;

/// Bits the table needs to encode the counted symbols (streams only).
std::size_t huffman_encoded_bits(const huffman_ctable& t, const std::uint32_t* counts, unsigned max_symbol) noexcept;

/// Whether t can encode every symbol with a non-zero count (for reusing the
/// previous block's table).
bool huffman_covers(const huffman_ctable& t, const std::uint32_t* counts, unsigned max_symbol) noexcept;

/// One stream. Every symbol of src must have a code (huffman_covers).
/// Returns its size, 0 if it does not fit.
std::size_t huffman_encode_1x(std::uint8_t* dst, std::size_t capacity, const std::uint8_t* src, std::size_t n,
                              const huffman_ctable& t) noexcept;
/// Four streams with the 6-byte jump table, split as the format says.
/// Returns the total size, 0 if it does not fit, if a stream exceeds the
/// jump table's 16 bits, or if n cannot be split (n = 0, 1, 2 or 5: the
/// first three segments of (n + 3) / 4 would exceed n).
std::size_t huffman_encode_4x(std::uint8_t* dst, std::size_t capacity, const std::uint8_t* src, std::size_t n,
                              const huffman_ctable& t) noexcept;

}  // namespace zest::detail
