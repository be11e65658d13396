// Frame layer: headers, skippable frames, the block loop and the checksum.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/format.hpp"
#include "decompress/kernels.hpp"

namespace zest::detail {

/// Compressed size of the frame at src (any kind), by walking block headers.
errc frame_compressed_size(const std::uint8_t* src, std::size_t size, std::size_t& out) noexcept;

/// Where decoded bytes go: a fixed buffer, or a vector grown on demand.
struct output_buffer {
    std::uint8_t* data = nullptr;
    std::size_t pos = 0;
    std::size_t cap = 0;
    std::vector<std::byte>* growable = nullptr;

    /// Makes room for `extra` more bytes when the buffer can grow.
    errc reserve(std::size_t extra) noexcept;
};

/// History of a frame kept in another segment of a streaming decoder's
/// window buffer (see sequences_job); empty for one-shot decoding.
struct history_segment {
    const std::uint8_t* end = nullptr;
    std::size_t size = 0;
    std::size_t window = 0;
};

/// Decodes the compressed block src[0, size) to out.data + out.pos, with
/// the frame's output starting at out.data + frame_start (and, when
/// streaming, earlier history in `ext`). `readable_end` bounds memory that
/// may be read past the block.
errc decode_compressed_block(decoder_state& st, const kernel_set& k, const std::uint8_t* src, std::size_t size,
                             const std::uint8_t* readable_end, std::size_t block_max, output_buffer& out,
                             std::size_t frame_start, const history_segment& ext) noexcept;

/// Decodes every frame of src into `out` (skippable frames are skipped).
errc decode_frames(decoder_state& st, const std::uint8_t* src, std::size_t size, output_buffer& out,
                   unsigned max_window_log) noexcept;

}  // namespace zest::detail
