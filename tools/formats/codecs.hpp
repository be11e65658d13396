// The per-library halves of format.hpp; each is compiled only when its
// library was found (ZEST_HAVE_ZLIB, ZEST_HAVE_LZMA, ZEST_HAVE_LZ4).
#pragma once

#include <cstdint>
#include <string>

#include "format.hpp"

namespace zest::cli::formats {

void encode_gzip(const encode_settings& settings, format_io& io, const std::string& subject);
void decode_gzip(format_io& io, const std::string& subject);

/// `xz` picks the .xz container; otherwise the legacy .lzma ("alone") one.
void encode_lzma(bool xz, const encode_settings& settings, format_io& io, const std::string& subject);
void decode_lzma(bool xz, format_io& io, std::uint64_t memory_limit, const std::string& subject);

void encode_lz4(const encode_settings& settings, format_io& io, const std::string& subject);
void decode_lz4(format_io& io, const std::string& subject);

}  // namespace zest::cli::formats
