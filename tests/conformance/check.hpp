// GoogleTest helpers shared by the conformance and invalid-input suites.
#pragma once

#include <gtest/gtest.h>

#include <ostream>
#include <span>
#include <string>

#include "corpus.hpp"
#include "zest/zest.hpp"

namespace zest {
// Lets GoogleTest print error codes by name in assertion messages.
void PrintTo(errc e, std::ostream* os);
}  // namespace zest

namespace zest::test {

/// Name of an error code ("checksum_mismatch").
const char* errc_name(errc e);

/// Success when got == want; otherwise says where they first differ.
::testing::AssertionResult same_bytes(std::span<const std::byte> got, std::span<const std::byte> want);

/// A decompressor shared by every test of the process, so that reuse across
/// inputs of all kinds (and across errors) is exercised.
decompressor& shared_decompressor();

/// For each frame of `compressed` (split with libzstd), zest's
/// find_frame_compressed_size and frame_content_size must agree with
/// ZSTD_findFrameCompressedSize and ZSTD_getFrameContentSize.
void expect_frame_inspection_matches_libzstd(std::span<const std::byte> compressed);

/// Decodes `compressed` through every public entry point (span into an
/// exactly sized buffer, pointer form with slack and a canary, the vector
/// overload, a fresh and a reused decompressor) and compares with `original`.
void expect_decodes_to(std::span<const std::byte> compressed, std::span<const std::byte> original);

/// Both of the above, plus libzstd itself must decode `compressed` to
/// `original` (guards against a broken corpus).
void expect_conformant(std::span<const std::byte> compressed, std::span<const std::byte> original);

}  // namespace zest::test
