// The compressor's hot loops, compiled once per instruction set from
// kernels.inl and chosen once per process (the decoder's scheme, see
// decompress/state.hpp). Every set produces the same bytes: they differ in
// the instructions the compiler may use, never in what they decide.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "compress/fse_encode.hpp"
#include "compress/huffman_encode.hpp"
#include "compress/match_finder.hpp"
#include "compress/seq_store.hpp"
#include "cpu/cpu.hpp"

namespace zest::detail {

struct compress_kernel_set {
    const char* name;
    isa_level required_isa;  // what the CPU must have (and ZEST_CPU allow) to run it
    /// The match finders (see match_finder.hpp).
    void (*fast)(match_state&, seq_store&, repeat_offsets&, std::size_t begin, std::size_t end) noexcept;
    void (*dfast)(match_state&, seq_store&, repeat_offsets&, std::size_t begin, std::size_t end) noexcept;
    void (*lazy)(match_state&, seq_store&, repeat_offsets&, std::size_t begin, std::size_t end) noexcept;
    void (*btlazy2)(match_state&, seq_store&, repeat_offsets&, std::size_t begin, std::size_t end) noexcept;
    void (*opt)(match_state&, seq_store&, repeat_offsets&, std::size_t begin, std::size_t end) noexcept;
    /// The optimal strategies' tree filled with [begin, end), no parse.
    void (*opt_fill)(match_state&, std::size_t begin, std::size_t end) noexcept;
    /// One Huffman stream (see huffman_encode_1x).
    std::size_t (*huffman_stream)(std::uint8_t* dst, std::size_t capacity, const std::uint8_t* src, std::size_t n,
                                  const huffman_ctable& t) noexcept;
    /// The sequences' bitstream for store.seqs, whose codes are in
    /// store.codes (literal length, offset and match length codes, 3 bytes
    /// per sequence); a null table is an RLE-coded symbol type. Returns the
    /// stream's size, 0 when it does not fit.
    std::size_t (*sequence_stream)(std::uint8_t* dst, std::size_t capacity, const seq_store& store,
                                   const fse_ctable* ll, const fse_ctable* of, const fse_ctable* ml) noexcept;
};

extern const compress_kernel_set compress_kernels_generic;
#if ZEST_HAVE_X86_KERNELS
extern const compress_kernel_set compress_kernels_bmi2;
extern const compress_kernel_set compress_kernels_avx2;
#endif

/// Every set of this build, best first (pick_kernels chooses among them).
extern const std::span<const compress_kernel_set* const> compress_kernel_sets;

/// The set chosen once per process for this CPU (ZEST_CPU lowers it, as for
/// the decoder), or the test hook below when it is set.
const compress_kernel_set& active_compress_kernels() noexcept;

/// Test hook: when not null, the set every compression uses (not thread-safe
/// to change while compressing).
extern const compress_kernel_set* compress_kernels_override;

}  // namespace zest::detail
