// Frame layer: headers, skippable frames, the block loop and the checksum.
// Blocks themselves are block.hpp's.
#pragma once

#include <cstddef>
#include <cstdint>
#include "common/format.hpp"
#include "decompress/block.hpp"
#include "decompress/kernels.hpp"

namespace zest::detail {

/// Compressed size of the frame at src (any kind), by walking block headers.
errc frame_compressed_size(const std::uint8_t* src, std::size_t size, std::size_t& out) noexcept;

struct dictionary_data;

/// Decodes every frame of src into `out` (skippable frames are skipped),
/// each starting from `dict` when it is not null.
errc decode_frames(decoder_state& st, const std::uint8_t* src, std::size_t size, output_buffer& out,
                   unsigned max_window_log, const dictionary_data* dict = nullptr) noexcept;

}  // namespace zest::detail
