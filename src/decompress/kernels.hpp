// The decoder's kernel interface: the hot loops (Huffman streams, sequence
// execution), compiled once per instruction set from kernels.inl by
// kernels_<isa>.cpp, and the choice among them (kernels.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "common/huffman.hpp"
#include "common/status.hpp"
#include "cpu/cpu.hpp"
#include "decompress/state.hpp"

namespace zest::detail {

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
    // Streaming with a dictionary, once the window buffer has wrapped: the
    // dictionary's content (far_size bytes ending at far_end) sits far_gap
    // bytes before frame_begin, the frame's output between them no longer
    // held. Matches wholly inside it stay in reach, as in one-shot decoding.
    const std::uint8_t* far_end = nullptr;
    std::size_t far_size = 0;
    std::size_t far_gap = 0;
};

/// Hot loops, compiled once per ISA from kernels.inl.
struct kernel_set {
    const char* name;
    isa_level required_isa;  // what the CPU must have (and ZEST_CPU allow) to run it
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
extern const kernel_set kernels_avx512;
#endif

/// Every kernel set of this build, best first (generic last): the list
/// active_kernels() picks from and tests loop over.
extern const std::span<const kernel_set* const> kernel_sets;

/// The kernel set chosen once per process for this CPU (pick_kernels).
const kernel_set& active_kernels() noexcept;

}  // namespace zest::detail
