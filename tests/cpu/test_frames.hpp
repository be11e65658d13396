// Frames for the CPU-dispatch tests: a few built by hand from the format
// (raw and RLE blocks, RFC 8878 section 3.1), the rest written by libzstd.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <zstd.h>

namespace zest_test {

using bytes = std::vector<std::byte>;

inline bytes to_bytes(const std::string& s) {
    bytes out(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) out[i] = static_cast<std::byte>(s[i]);
    return out;
}

// Frame header for a single-segment frame of `content_size` (< 256) bytes:
// magic, descriptor 0x20 (single segment, 1-byte content size, no checksum).
inline bytes frame_header(std::size_t content_size) {
    return {std::byte{0x28}, std::byte{0xB5}, std::byte{0x2F}, std::byte{0xFD}, std::byte{0x20},
            static_cast<std::byte>(content_size)};
}

// Block header: last flag, block type (0 raw, 1 RLE, 2 compressed), size.
inline void append_block_header(bytes& out, bool last, unsigned type, std::size_t size) {
    const std::uint32_t h = (last ? 1u : 0u) | (type << 1) | static_cast<std::uint32_t>(size << 3);
    out.push_back(static_cast<std::byte>(h & 0xff));
    out.push_back(static_cast<std::byte>((h >> 8) & 0xff));
    out.push_back(static_cast<std::byte>((h >> 16) & 0xff));
}

/// One frame holding `content` (< 256 bytes) in a single raw block.
inline bytes raw_block_frame(std::span<const std::byte> content) {
    bytes f = frame_header(content.size());
    append_block_header(f, true, 0, content.size());
    f.insert(f.end(), content.begin(), content.end());
    return f;
}

/// One frame of `count` (< 256) copies of `value`: one RLE block.
inline bytes rle_block_frame(std::byte value, std::size_t count) {
    bytes f = frame_header(count);
    append_block_header(f, true, 1, count);
    f.push_back(value);
    return f;
}

/// The type of the first block of a frame (0 raw, 1 RLE, 2 compressed).
inline unsigned first_block_type(std::span<const std::byte> frame) {
    const auto fhd = static_cast<unsigned>(frame[4]);
    const bool single_segment = (fhd >> 5) & 1;
    static const unsigned did_sizes[] = {0, 1, 2, 4};
    static const unsigned fcs_sizes[] = {0, 2, 4, 8};
    const unsigned fcs_flag = fhd >> 6;
    const unsigned fcs = fcs_flag == 0 ? (single_segment ? 1 : 0) : fcs_sizes[fcs_flag];
    const std::size_t header = 4 + 1 + (single_segment ? 0 : 1) + did_sizes[fhd & 3] + fcs;
    return (static_cast<unsigned>(frame[header]) >> 1) & 3;
}

/// ZSTD_compress2 with the given level and checksum flag.
inline bytes zstd_frame(std::span<const std::byte> src, int level, bool checksum = false) {
    ZSTD_CCtx* c = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level);
    ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, checksum ? 1 : 0);
    bytes out(ZSTD_compressBound(src.size()));
    const std::size_t n = ZSTD_compress2(c, out.data(), out.size(), src.data(), src.size());
    ZSTD_freeCCtx(c);
    out.resize(ZSTD_isError(n) ? 0 : n);
    return out;
}

/// Deterministic word soup: Huffman-coded literals and plenty of matches.
inline bytes words(std::size_t size, std::uint32_t seed) {
    static const char* const w[] = {"the ", "quick ", "zstandard ", "frame ", "decoder ", "of ",
                                    "block ", "sequence ", "literal ", "and ", "window ", "offset "};
    std::string s;
    std::uint32_t x = seed;
    while (s.size() < size) {
        x = x * 1103515245u + 12345u;
        s += w[(x >> 16) % 12];
        if ((x >> 8) % 17 == 0) s += std::to_string(x % 1000) + ". ";
    }
    s.resize(size);
    return to_bytes(s);
}

}  // namespace zest_test
