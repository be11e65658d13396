// The format's fixed facts (RFC 8878), in one place for the decoder, the
// streaming decoder, the encoder and the CLI's frame listing: magic numbers,
// the frame and block headers, and the limits they set. The format is
// little-endian throughout: its loads are load_le16/24/32/64 (bits.hpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/bits.hpp"
#include "common/status.hpp"

namespace zest::detail {

inline constexpr std::uint32_t zstd_magic = 0xFD2FB528u;
/// Skippable frames open with any of the 16 numbers 0x184D2A50..0x184D2A5F.
inline constexpr std::uint32_t skippable_magic_base = 0x184D2A50u;
constexpr bool is_skippable_magic(std::uint32_t magic) noexcept {
    return (magic & 0xFFFFFFF0u) == skippable_magic_base;
}

/// Bytes of a skippable frame's header: its magic number and payload size.
inline constexpr std::size_t skippable_header_size = 8;
/// The most bytes a frame header takes (magic included).
inline constexpr std::size_t frame_header_size_max = 18;
/// Frame_Content_Size when the header does not declare it.
inline constexpr std::uint64_t content_size_unknown = ~std::uint64_t(0);
inline constexpr std::size_t block_header_size = 3;
/// The frame checksum: the low 32 bits of the content's XXH64.
inline constexpr std::size_t checksum_size = 4;

/// The most bytes a block regenerates (the format's Block_Maximum_Size:
/// 128 KiB, or the window size when that is smaller).
inline constexpr std::size_t block_size_max = 128 * 1024;

struct frame_header {
    std::uint64_t content_size = content_size_unknown;  // a skippable frame's payload size
    std::uint64_t window_size = 0;
    std::uint32_t dict_id = 0;
    std::size_t header_size = 0;  // bytes, magic included (8 for skippable frames)
    bool skippable = false;
    bool checksum = false;
    bool single_segment = false;
};

/// Size of the header of the frame src starts, as far as its first `size`
/// bytes tell: 0 when more are needed to know, 4 when the magic number is
/// not a frame's (parse_frame_header then says which error).
std::size_t frame_header_size(const std::uint8_t* src, std::size_t size) noexcept;

/// Parses the header of the frame at src. errc::truncated_input when more
/// bytes are needed.
errc parse_frame_header(const std::uint8_t* src, std::size_t size, frame_header& h) noexcept;

struct block_header {
    bool last;
    unsigned type;     // 0 raw, 1 RLE, 2 compressed (3, reserved, is rejected)
    std::size_t size;  // Block_Size: bytes produced (raw, RLE) or read (compressed)
    std::size_t input_size() const noexcept { return type == 1 ? 1 : size; }
};

/// Decodes the 3-byte block header at src: errc::block_invalid for the
/// reserved type.
inline errc parse_block_header(const std::uint8_t* src, block_header& b) noexcept {
    const std::uint32_t bh = load_le24(src);
    b.last = bh & 1;
    b.type = (bh >> 1) & 3;
    b.size = bh >> 3;
    return b.type == 3 ? errc::block_invalid : ok;
}

/// Reads the block header at src[pos] and advances pos past it.
inline errc read_block_header(const std::uint8_t* src, std::size_t size, std::size_t& pos, block_header& b) noexcept {
    if (size - pos < block_header_size) return errc::truncated_input;
    const errc e = parse_block_header(src + pos, b);
    pos += block_header_size;
    return e;
}

}  // namespace zest::detail
