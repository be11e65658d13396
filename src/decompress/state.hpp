// Decoder state kept across blocks and frames.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/format.hpp"
#include "common/huffman.hpp"

namespace zest::detail {

/// Bytes wild copies may write past the end of what they copy, and read
/// past the end of the literals.
inline constexpr std::size_t wild_slack = 32;

/// One cell of a sequence decoding table: the code's value (baseline and
/// extra bits to read) fused with the FSE transition to the next state.
struct seq_cell {
    std::uint32_t base;
    std::uint8_t extra_bits;
    std::uint8_t nb_bits;
    std::uint16_t next_base;
};

inline constexpr unsigned ll_max_log = 9, ml_max_log = 9, of_max_log = 8;
inline constexpr unsigned ll_max_symbol = 35, ml_max_symbol = 52, of_max_symbol = 31;

/// A sequence decoding table in use (always held in `storage`).
struct seq_table {
    bool ready = false;  // set by a block's table; Repeat_Mode needs it
    unsigned log = 0;
    seq_cell storage[1u << 9];
};

/// The three sequence tables, side by side so that the sequence loop
/// addresses all of them from one base pointer.
struct seq_table_set {
    seq_table ll, of, ml;
};

/// Everything the block decoder carries between blocks of a frame.
///
/// The tables in use are pointers: to the state's own tables, which blocks
/// fill, or to a dictionary's, shared read-only by every context that
/// uses it (so that starting a frame with a dictionary copies nothing).
struct decoder_state {
    huffman_table huf;                       // the last table a block described
    const huffman_table* lit_table;          // in use: &huf, a dictionary's, or null (none yet)
    const huffman_table* lit_table_pairs;    // the same table with its pair table built (dictionaries), or null
    seq_table_set seq;                       // the tables blocks describe
    const seq_table_set* seq_tables;         // in use: &seq or a dictionary's
    std::uint32_t rep[3];                    // repeat offsets
    huffman_weights weights_scratch;
    alignas(64) std::uint8_t literals[block_size_max + wild_slack];

    void reset_frame() noexcept {
        lit_table = nullptr;
        lit_table_pairs = nullptr;
        huf.max_bits = 0;
        seq.ll.ready = seq.of.ready = seq.ml.ready = false;
        seq_tables = &seq;
        rep[0] = 1;
        rep[1] = 4;
        rep[2] = 8;
    }
};

}  // namespace zest::detail
