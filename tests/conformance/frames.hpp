// Frames from the reference library (libzstd) and frames written by hand,
// byte by byte, for cases no encoder produces (large windows, reserved
// fields, skippable frames, wrong sizes).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "corpus.hpp"

namespace zest::test {

inline constexpr std::uint32_t zstd_magic = 0xFD2FB528u;
inline constexpr std::uint32_t skippable_magic_first = 0x184D2A50u;

void put_le32(bytes& out, std::uint32_t v);

// --- libzstd ---------------------------------------------------------------

/// One-shot compression at `level`; checksum on or off.
bytes libzstd_compress(std::span<const std::byte> src, int level, bool checksum);

/// Options for frames written through ZSTD_compressStream2.
struct stream_options {
    std::string name;
    int level = 3;
    std::uint32_t max_chunk = 4096;   ///< input is fed in chunks of 1..max_chunk bytes
    std::uint32_t flush_every = 0;    ///< ZSTD_e_flush after every Nth chunk (0: never)
    int window_log = 0;               ///< 0: the level's default
    std::uint64_t seed = 1;           ///< chunk sizes
    bool exact_chunks = false;        ///< every chunk is max_chunk bytes (the last may be shorter)
};

/// Streaming compression without a pledged size (so no content size in the
/// header), checksum on.
bytes libzstd_stream_compress(std::span<const std::byte> src, const stream_options& opt);

/// Outcome of a libzstd decode.
struct reference_result {
    bool ok = false;
    bytes out;
    std::string error;  ///< ZSTD_getErrorName when !ok
};

/// ZSTD_decompressDCtx (one-shot, no window limit) into `capacity` bytes.
reference_result libzstd_decompress(std::span<const std::byte> src, std::size_t capacity);

/// ZSTD_decompressStream with ZSTD_d_windowLogMax = window_log_max, all input
/// given at once; fails unless the input ends exactly at a frame end.
reference_result libzstd_stream_decompress(std::span<const std::byte> src, unsigned window_log_max,
                                           std::size_t capacity);

/// Sizes of consecutive frames per ZSTD_findFrameCompressedSize; nullopt if
/// libzstd cannot split `src` into whole frames.
std::optional<std::vector<std::size_t>> libzstd_frame_sizes(std::span<const std::byte> src);

// --- hand-made frames ------------------------------------------------------

/// A skippable frame: magic 0x184D2A50 + nibble, LE32 size, payload.
bytes skippable_frame(unsigned nibble, std::span<const std::byte> payload);

/// Fields of a Zstandard frame header, written exactly as given (no checks),
/// so that invalid headers can be produced too.
struct frame_header_spec {
    bool single_segment = false;
    bool checksum = false;
    bool reserved_bit = false;        ///< bit 3 of the descriptor
    bool unused_bit = false;          ///< bit 4 of the descriptor
    unsigned fcs_field_size = 0;      ///< 0, 1 (single segment only), 2, 4 or 8
    std::uint64_t content_size = 0;   ///< written in fcs_field_size bytes (2 bytes: minus 256)
    unsigned window_exponent = 10;    ///< window descriptor (omitted when single_segment)
    unsigned window_mantissa = 0;
    unsigned dict_id_size = 0;        ///< 0, 1, 2 or 4
    std::uint32_t dict_id = 0;
};

bytes frame_header(const frame_header_spec& spec);

enum class block_type : unsigned { raw = 0, rle = 1, compressed = 2, reserved = 3 };

/// Appends a 3-byte block header.
void put_block_header(bytes& out, bool last, block_type type, std::uint32_t size);
/// Appends a raw block holding `payload`.
void put_raw_block(bytes& out, bool last, std::span<const std::byte> payload);
/// Appends an RLE block of `count` copies of `value`.
void put_rle_block(bytes& out, bool last, std::byte value, std::uint32_t count);
/// Appends the 4-byte content checksum (low 32 bits of XXH64, seed 0).
void put_checksum(bytes& out, std::span<const std::byte> content);

/// A frame holding `content` in one raw block (or an empty raw block), with
/// the window declared as 2^window_log (non-single-segment, no content size).
bytes raw_frame_with_window_log(unsigned window_log, std::span<const std::byte> content,
                                bool checksum = false);

/// Size of the header of the frame starting at src (8 for a skippable
/// frame), or 0 when src does not start with a known magic number.
std::size_t frame_header_size(std::span<const std::byte> src);

/// A block of a frame, as found by walk_blocks.
struct block_info {
    std::size_t offset;  ///< of the 3-byte block header, from the frame start
    bool last;
    block_type type;
    std::uint32_t size;  ///< Block_Size field
};

/// The blocks of the Zstandard frame at the start of `frame` (stops at the
/// last block or when the input ends).
std::vector<block_info> walk_blocks(std::span<const std::byte> frame);

}  // namespace zest::test
