// Block layer: a block's content to output bytes. Raw and RLE blocks are
// copied; a compressed block's literals and sequences sections are read
// (literals.cpp, sequences.cpp) and its sequences executed by the kernels.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/format.hpp"
#include "decompress/kernels.hpp"

namespace zest::detail {

/// Where decoded bytes go: a fixed buffer, or a vector grown on demand.
struct output_buffer {
    std::uint8_t* data = nullptr;
    std::size_t pos = 0;
    std::size_t cap = 0;
    std::vector<std::byte>* growable = nullptr;

    /// Makes room for `extra` more bytes when the buffer can grow.
    errc reserve(std::size_t extra) noexcept;
};

/// History before the frame's first byte, in another segment: a streaming
/// decoder's window buffer (see sequences_job) or a dictionary's content;
/// empty otherwise.
struct history_segment {
    const std::uint8_t* end = nullptr;
    std::size_t size = 0;
    std::size_t window = 0;
    // A dictionary further back (sequences_job::far_*).
    const std::uint8_t* far_end = nullptr;
    std::size_t far_size = 0;
    std::size_t far_gap = 0;
};

/// Decodes the compressed block src[0, size) to out.data + out.pos, with
/// the frame's output starting at out.data + frame_start (and, when
/// streaming, earlier history in `ext`). `readable_end` bounds memory that
/// may be read past the block.
errc decode_compressed_block(decoder_state& st, const kernel_set& k, const std::uint8_t* src, std::size_t size,
                             const std::uint8_t* readable_end, std::size_t block_max, output_buffer& out,
                             std::size_t frame_start, const history_segment& ext) noexcept;

/// Decodes the block `b`, whose content starts at src (`avail` bytes of
/// input from there), to out.data + out.pos, making room first when `out`
/// can grow. Raw and RLE blocks are copied; compressed ones decoded as by
/// decode_compressed_block (`ext`: a dictionary's content, or nothing).
/// The caller then skips b.input_size() bytes of input.
errc decode_block(decoder_state& st, const kernel_set& k, const block_header& b, const std::uint8_t* src,
                  std::size_t avail, const std::uint8_t* readable_end, std::size_t block_max, output_buffer& out,
                  std::size_t frame_start, const history_segment& ext) noexcept;

}  // namespace zest::detail
