// Dictionaries from hostile bytes: zest must load what libzstd loads and
// refuse what it refuses (never crash), decode frames with an accepted
// dictionary as libzstd does (when both decode, the same bytes), and write
// frames with it that libzstd decodes back to the input.
//
// Input: byte 0 selects the level and the content type; bytes 1-2 (little
// endian) the dictionary's length; then the dictionary; the rest is both a
// frame to decode and data to compress.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

#include "zest/zest.hpp"

namespace {

[[noreturn]] void fail(const char* what) {
    std::fprintf(stderr, "dictionary_fuzzer: %s\n", what);
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 3) return 0;
    const unsigned mode = data[0];
    std::size_t dict_size = data[1] | (std::size_t(data[2]) << 8);
    data += 3;
    size -= 3;
    if (dict_size > size) dict_size = size;
    const auto* dict = reinterpret_cast<const std::byte*>(data);
    const auto* rest = reinterpret_cast<const std::byte*>(data + dict_size);
    const std::size_t rest_size = size - dict_size;
    const bool full = mode & 1;
    const int level = int((mode >> 1) % 23) - 3;  // -3 .. 19

    auto z = zest::dictionary::load(dict, dict_size,
                                    full ? zest::dictionary_content::full : zest::dictionary_content::automatic);
    ZSTD_DDict* dd = ZSTD_createDDict_advanced(dict, dict_size, ZSTD_dlm_byCopy,
                                               full ? ZSTD_dct_fullDict : ZSTD_dct_auto, ZSTD_defaultCMem);
    // libzstd takes an empty buffer as no dictionary, as zest does.
    if (z.has_value() != (dd != nullptr)) fail(z ? "zest loads a dictionary libzstd refuses" : "zest refuses a dictionary libzstd loads");
    if (!z) {
        if (z.error() != zest::errc::dictionary_invalid) fail("a refused dictionary is not dictionary_invalid");
        return 0;
    }

    // Decode the rest as frames, with the dictionary.
    std::vector<std::byte> a(1 << 20), b(1 << 20);
    auto za = zest::decompress(std::span<std::byte>(a), std::span<const std::byte>(rest, rest_size), *z);
    ZSTD_DCtx* dctx = ZSTD_createDCtx();
    const std::size_t lb = ZSTD_decompress_usingDDict(dctx, b.data(), b.size(), rest, rest_size, dd);
    if (za && !ZSTD_isError(lb) && (*za != lb || std::memcmp(a.data(), b.data(), lb) != 0))
        fail("zest and libzstd decode other bytes with the dictionary");
    // Where libzstd decodes, zest may refuse a frame for one of the
    // documented differences (tests/known_differences.md, judged by the
    // decompression fuzzer), never for the dictionary itself: which frames
    // it serves is the same rule in both (the frame's ID, 0 or the
    // dictionary's).
    if (!za && !ZSTD_isError(lb) &&
        (za.error() == zest::errc::dictionary_wrong || za.error() == zest::errc::dictionary_required ||
         za.error() == zest::errc::dictionary_invalid)) {
        std::fprintf(stderr, "zest: %s\n", za.message());
        fail("libzstd decodes the frame with the dictionary, zest refuses the dictionary for it");
    }

    // Compress the rest with it: libzstd must decode it back.
    if (rest_size <= (1u << 17)) {
        zest::compressor c;
        (void)c.set_level(level);
        std::vector<std::byte> frame(zest::compress_bound(rest_size));
        auto w = c.compress(std::span<std::byte>(frame), std::span<const std::byte>(rest, rest_size), *z);
        if (!w) fail("zest cannot compress with a dictionary it loaded");
        const std::size_t back = ZSTD_decompress_usingDDict(dctx, b.data(), b.size(), frame.data(), *w, dd);
        if (ZSTD_isError(back)) {
            std::fprintf(stderr, "libzstd: %s\n", ZSTD_getErrorName(back));
            fail("libzstd cannot decode zest's frame with the dictionary");
        }
        if (back != rest_size || std::memcmp(b.data(), rest, rest_size) != 0) fail("round trip gives other bytes");
        auto zb = zest::decompress(std::span<std::byte>(a), std::span<const std::byte>(frame.data(), *w), *z);
        if (!zb || *zb != rest_size || std::memcmp(a.data(), rest, rest_size) != 0) fail("zest's own round trip fails");
    }
    ZSTD_freeDCtx(dctx);
    ZSTD_freeDDict(dd);
    return 0;
}
