#include "format.hpp"

#include <array>

#include "../file_io.hpp"
#include "codecs.hpp"
#include "common/format.hpp"

#ifndef ZEST_HAVE_ZLIB
#define ZEST_HAVE_ZLIB 0
#endif
#ifndef ZEST_HAVE_LZMA
#define ZEST_HAVE_LZMA 0
#endif
#ifndef ZEST_HAVE_LZ4
#define ZEST_HAVE_LZ4 0
#endif

namespace zest::cli {

namespace {

constexpr std::uint32_t lz4_frame_magic = 0x184D2204u;

[[noreturn]] void not_built_in(data_format f, const std::string& subject) {
    throw file_error(subject, std::string(format_name(f)) + " support was not built in");
}

}  // namespace

std::string_view format_name(data_format f) noexcept {
    switch (f) {
        case data_format::zstd: return "zstd";
        case data_format::gzip: return "gzip";
        case data_format::xz: return "xz";
        case data_format::lzma: return "lzma";
        case data_format::lz4: return "lz4";
    }
    return "zstd";
}

std::string_view format_suffix(data_format f) noexcept {
    switch (f) {
        case data_format::zstd: return ".zst";
        case data_format::gzip: return ".gz";
        case data_format::xz: return ".xz";
        case data_format::lzma: return ".lzma";
        case data_format::lz4: return ".lz4";
    }
    return ".zst";
}

bool format_built_in(data_format f) noexcept {
    switch (f) {
        case data_format::zstd: return true;
        case data_format::gzip: return ZEST_HAVE_ZLIB;
        case data_format::xz:
        case data_format::lzma: return ZEST_HAVE_LZMA;
        case data_format::lz4: return ZEST_HAVE_LZ4;
    }
    return false;
}

std::string built_in_format_list() {
    std::string list = "zstd";
    for (data_format f : {data_format::gzip, data_format::lz4, data_format::lzma, data_format::xz})
        if (format_built_in(f)) list.append(", ").append(format_name(f));
    return list;
}

std::optional<data_format> sniff_format(const unsigned char* p, std::size_t n) noexcept {
    if (n < 4) return std::nullopt;
    const std::uint32_t magic = detail::load_le32(p);
    if (magic == detail::zstd_magic || detail::is_skippable_magic(magic)) return data_format::zstd;
    if (p[0] == 0x1F && p[1] == 0x8B) return data_format::gzip;
    if (p[0] == 0xFD && p[1] == 0x37) return data_format::xz;
    // .lzma has no magic number: zstd takes the usual properties byte
    // (lc=3, lp=0, pb=2) and the low byte of a dictionary size that is a
    // multiple of 256, as every preset's is.
    if (p[0] == 0x5D && p[1] == 0x00) return data_format::lzma;
    if (magic == lz4_frame_magic) return data_format::lz4;
    return std::nullopt;
}

void check_encode(data_format f, const encode_settings& settings, const std::string& subject) {
    if (!format_built_in(f)) not_built_in(f, subject);
    // zstd hands negative levels to zlib as they are: -1 is zlib's default
    // level, anything lower fails there.
    if (f == data_format::gzip && settings.level < -1)
        throw file_error(subject, "level " + std::to_string(settings.level) +
                                      " does not exist for gzip (levels 1 to 9, --fast=1 is level 6)");
}

void encode_other(data_format f, const encode_settings& settings, format_io& io, const std::string& subject) {
    (void)io;  // unused when no library was built in
    check_encode(f, settings, subject);
    switch (f) {
#if ZEST_HAVE_ZLIB
        case data_format::gzip: return formats::encode_gzip(settings, io, subject);
#endif
#if ZEST_HAVE_LZMA
        case data_format::xz: return formats::encode_lzma(true, settings, io, subject);
        case data_format::lzma: return formats::encode_lzma(false, settings, io, subject);
#endif
#if ZEST_HAVE_LZ4
        case data_format::lz4: return formats::encode_lz4(settings, io, subject);
#endif
        default: not_built_in(f, subject);
    }
}

void decode_other(data_format f, format_io& io, std::uint64_t memory_limit, const std::string& subject) {
    (void)io, (void)memory_limit;  // unused when no library was built in
    switch (f) {
#if ZEST_HAVE_ZLIB
        case data_format::gzip: return formats::decode_gzip(io, subject);
#endif
#if ZEST_HAVE_LZMA
        case data_format::xz: return formats::decode_lzma(true, io, memory_limit, subject);
        case data_format::lzma: return formats::decode_lzma(false, io, memory_limit, subject);
#endif
#if ZEST_HAVE_LZ4
        case data_format::lz4: return formats::decode_lz4(io, subject);
#endif
        default: not_built_in(f, subject);
    }
}

}  // namespace zest::cli
