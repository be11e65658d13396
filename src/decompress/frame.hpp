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

/// Decodes every frame of src into `out` (skippable frames are skipped).
errc decode_frames(decoder_state& st, const std::uint8_t* src, std::size_t size, output_buffer& out,
                   unsigned max_window_log) noexcept;

}  // namespace zest::detail
