// Frame layer: headers, skippable frames, the block loop and the checksum.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "decompress/state.hpp"

namespace zest::detail {

inline constexpr std::uint32_t zstd_magic = 0xFD2FB528u;
inline constexpr std::uint32_t skippable_magic_base = 0x184D2A50u;  // low 4 bits free
inline constexpr std::uint64_t content_size_unknown = ~std::uint64_t(0);

struct frame_header {
    std::uint64_t content_size = content_size_unknown;
    std::uint64_t window_size = 0;
    std::uint32_t dict_id = 0;
    std::size_t header_size = 0;  // bytes, magic included (8 for skippable frames)
    bool skippable = false;
    bool checksum = false;
    bool single_segment = false;
};

/// Parses the header of the frame at src. errc::truncated_input when more
/// bytes are needed.
errc parse_frame_header(const std::uint8_t* src, std::size_t size, frame_header& h) noexcept;

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

struct block_header {
    bool last;
    unsigned type;     // 0 raw, 1 RLE, 2 compressed (3, reserved, is rejected)
    std::size_t size;  // Block_Size: bytes produced (raw, RLE) or read (compressed)
    std::size_t input_size() const noexcept { return type == 1 ? 1 : size; }
};

/// Reads the 3-byte block header at src[pos] and advances pos past it.
errc read_block_header(const std::uint8_t* src, std::size_t size, std::size_t& pos, block_header& b) noexcept;

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
