// Case runners shared by the sets: whole-buffer decompression of a libzstd
// frame, and whole-buffer compression, each checked before it is timed.
#pragma once

#include <span>
#include <string>

#include <zest/zest.hpp>

#include "reference.hpp"
#include "workloads.hpp"

namespace zest_bench {

/// Empty when `d` decodes `frame` back to `original` (dst has room for it);
/// otherwise what went wrong.
std::string check_zest_decode(zest::decompressor& d, std::span<std::byte> dst, std::span<const std::byte> frame,
                              std::span<const std::byte> original);

/// Throws std::runtime_error when libzstd does not decode its own `frame`
/// back to `original`: then the harness itself is broken.
void check_reference_decode(ZSTD_DCtx* dctx, std::span<std::byte> dst, std::span<const std::byte> frame,
                            std::span<const std::byte> original, const std::string& what);

/// Measures decompression of `frame` (written by libzstd at `level`) back to
/// `original`, with reused contexts on both sides, and adds the row. zest is
/// first checked in a child process (a crash is a reported failure) and
/// again in this one; a side that fails is not timed.
void run_decompress_case(const bench_env& env, const std::string& set, const std::string& name, int level,
                         std::span<const std::byte> original, std::span<const std::byte> frame);

/// Empty when `c` compresses `original` into dst (of compress_bound size)
/// as a frame libzstd decodes back to it; stores the frame's size.
std::string check_zest_encode(zest::compressor& c, std::span<std::byte> dst, std::size_t& size,
                              std::span<const std::byte> original);

/// Measures whole-buffer compression of `original` at `level` with reused
/// contexts and adds the row; zest is checked first (a frame libzstd decodes
/// back to the original) in a child process and then here. Returns
/// libzstd's frame.
bytes run_compress_case(const bench_env& env, const std::string& set, const std::string& name, int level,
                        std::span<const std::byte> original);

}  // namespace zest_bench
