// zest — a Zstandard (RFC 8878) library. This is the only header users need.
//
// All calls that decode report failure through zest::result (no exceptions);
// the convenience overloads that return a std::vector throw std::system_error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "zest/errors.hpp"

namespace zest {

/// Library version as "major.minor.patch".
const char* version_string() noexcept;

/// Default cap on a frame's window, as log2 (2^27 = 128 MiB, like the reference).
inline constexpr unsigned default_max_window_log = 27;
/// Largest window the format lets a decoder accept (2^31 = 2 GiB).
inline constexpr unsigned max_window_log_limit = 31;

// ---------------------------------------------------------------------------
// Frame inspection
// ---------------------------------------------------------------------------

/// The decompressed size declared by the first frame of `src`.
/// - a value: the frame header carries it (a skippable frame reports 0);
/// - std::nullopt: the frame does not declare it (streaming writers);
/// - an error: `src` does not start with a valid frame header
///   (errc::truncated_input when more bytes are needed).
result<std::optional<std::uint64_t>> frame_content_size(std::span<const std::byte> src) noexcept;

/// Total compressed size of the first frame of `src` (Zstandard or skippable),
/// header, blocks and checksum included. Walks block headers only.
result<std::size_t> find_frame_compressed_size(std::span<const std::byte> src) noexcept;

// ---------------------------------------------------------------------------
// One-shot decompression
// ---------------------------------------------------------------------------

/// Decompresses every frame in `src` (any number of Zstandard and skippable
/// frames, concatenated) into `dst`. Returns the number of bytes written.
/// On error the contents of `dst` are unspecified. Uses the default window
/// limit; use a `decompressor` to change it or to reuse buffers.
result<std::size_t> decompress(std::span<std::byte> dst, std::span<const std::byte> src) noexcept;

/// Pointer-and-size form of the call above.
result<std::size_t> decompress(void* dst, std::size_t dst_capacity, const void* src,
                               std::size_t src_size) noexcept;

/// Decompresses all of `src` into a new vector. Frames without a declared
/// size are decoded into a growing buffer. Throws std::system_error on a
/// decoding error and std::bad_alloc when memory runs out.
std::vector<std::byte> decompress(std::span<const std::byte> src);

namespace detail { struct decoder_state; }

/// A reusable decompression context. Constructing one allocates nothing and
/// never probes the CPU; buffers (Huffman and FSE tables, scratch space) are
/// allocated on first use and kept for later calls. Not thread-safe: use one
/// per thread. Move-only.
class decompressor {
public:
    decompressor() noexcept;
    ~decompressor();
    decompressor(decompressor&&) noexcept;
    decompressor& operator=(decompressor&&) noexcept;
    decompressor(const decompressor&) = delete;
    decompressor& operator=(const decompressor&) = delete;

    /// Largest window (as log2) this context accepts, 10…31; default 27.
    /// Frames that need more fail with errc::window_too_large before anything
    /// is allocated. Returns errc::invalid_argument outside 10…31.
    result<unsigned> set_max_window_log(unsigned log) noexcept;
    unsigned max_window_log() const noexcept { return max_window_log_; }

    /// Same as zest::decompress(dst, src), reusing this context's buffers.
    result<std::size_t> decompress(std::span<std::byte> dst, std::span<const std::byte> src) noexcept;
    result<std::size_t> decompress(void* dst, std::size_t dst_capacity, const void* src,
                                   std::size_t src_size) noexcept;
    /// Vector-returning form; throws like zest::decompress(src).
    std::vector<std::byte> decompress(std::span<const std::byte> src);

    /// Drops per-frame state (keeps buffers and the window limit).
    void reset() noexcept;

    /// Bytes of heap memory this context currently owns.
    std::size_t memory_usage() const noexcept;

private:
    detail::decoder_state* state_ = nullptr;
    unsigned max_window_log_ = default_max_window_log;
    result<detail::decoder_state*> state() noexcept;
};

}  // namespace zest
