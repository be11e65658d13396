// Decoder state kept across blocks and frames, and the kernel interface.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/bits.hpp"
#include "common/format.hpp"
#include "common/huffman.hpp"
#include "common/status.hpp"

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

/// Everything the block decoder carries between blocks of a frame.
struct decoder_state {
    huffman_table huf;      // literal table (valid when huf.max_bits != 0)
    seq_table ll, of, ml;   // sequence tables (for Repeat_Mode)
    std::uint32_t rep[3];   // repeat offsets
    huffman_weights weights_scratch;
    alignas(64) std::uint8_t literals[block_size_max + wild_slack];

    void reset_frame() noexcept {
        huf.max_bits = 0;
        ll.ready = of.ready = ml.ready = false;
        rep[0] = 1;
        rep[1] = 4;
        rep[2] = 8;
    }
};

/// Decoded literals of one block: where they are and how many.
struct literals_view {
    const std::uint8_t* ptr;
    std::size_t size;
};

/// Inputs of the sequence kernel for one block.
struct sequences_job {
    decoder_state* st;
    const std::uint8_t* stream;     // the sequences bitstream
    std::size_t stream_size;
    unsigned nb_seq;
    literals_view lits;
    std::uint8_t* frame_begin;      // first byte of this frame's output (window base)
    std::uint8_t* op;               // where the block's output starts
    std::uint8_t* block_end;        // op + the most this block may produce
    std::uint8_t* buffer_end;       // end of writable memory (wild copies stay below)
    // Streaming only: history before frame_begin, in another segment of the
    // window buffer ending at ext_end (ext_size bytes, 0 = none). Matches
    // reach into it up to `window` bytes back from where they start.
    const std::uint8_t* ext_end = nullptr;
    std::size_t ext_size = 0;
    std::size_t window = 0;
};

/// Hot loops, compiled once per ISA from kernels.inl.
struct kernel_set {
    const char* name;
    /// Decodes `n` literals from one Huffman stream.
    errc (*huf_1x)(std::uint8_t* dst, std::size_t n, const std::uint8_t* src, std::size_t size,
                   const huffman_table& t) noexcept;
    /// Decodes `n` literals from four Huffman streams (jump table included in src).
    errc (*huf_4x)(std::uint8_t* dst, std::size_t n, const std::uint8_t* src, std::size_t size,
                   const huffman_table& t) noexcept;
    /// Decodes and executes a block's sequences, then appends the remaining
    /// literals. Returns the block's output end through `out_end`.
    errc (*sequences)(const sequences_job& job, std::uint8_t*& out_end) noexcept;
};

extern const kernel_set kernels_generic;
#if ZEST_HAVE_X86_KERNELS
extern const kernel_set kernels_bmi2;
extern const kernel_set kernels_avx2;
#endif

/// The kernel set chosen once per process for this CPU.
const kernel_set& active_kernels() noexcept;

}  // namespace zest::detail
