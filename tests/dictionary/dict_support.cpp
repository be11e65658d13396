#include "dict_support.hpp"

#include <gtest/gtest.h>

#define ZSTD_STATIC_LINKING_ONLY
#define ZDICT_STATIC_LINKING_ONLY
#include <zdict.h>
#include <zstd.h>

namespace zest::test {

std::vector<bytes> messages(const std::string& shape, std::size_t count, std::size_t min_size,
                            std::size_t max_size, std::uint64_t seed) {
    bytes (*make)(std::size_t, std::uint64_t) = shape == "json"      ? json_logs
                                               : shape == "text"    ? english_text
                                               : shape == "code"    ? c_source
                                               : shape == "records" ? binary_records
                                                                    : mixed;
    rng r(seed);
    std::vector<bytes> out;
    out.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t n = r.range(std::uint32_t(min_size), std::uint32_t(max_size));
        out.push_back(make(n, seed * 7919 + i));
    }
    return out;
}

bytes libzstd_train(const std::vector<bytes>& samples, std::size_t capacity) {
    bytes all;
    std::vector<std::size_t> sizes;
    for (const bytes& s : samples) {
        append(all, s);
        sizes.push_back(s.size());
    }
    bytes dict(capacity);
    const std::size_t n = ZDICT_trainFromBuffer(dict.data(), dict.size(), all.data(), sizes.data(),
                                                unsigned(sizes.size()));
    if (ZDICT_isError(n)) {
        ADD_FAILURE() << "ZDICT_trainFromBuffer: " << ZDICT_getErrorName(n);
        return {};
    }
    dict.resize(n);
    return dict;
}

bytes libzstd_compress(std::span<const std::byte> msg, std::span<const std::byte> dict, int level,
                       bool dict_id_flag, bool raw_content) {
    ZSTD_CCtx* c = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level);
    ZSTD_CCtx_setParameter(c, ZSTD_c_dictIDFlag, dict_id_flag ? 1 : 0);
    ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
    const std::size_t e = ZSTD_CCtx_loadDictionary_advanced(c, dict.data(), dict.size(), ZSTD_dlm_byCopy,
                                                            raw_content ? ZSTD_dct_rawContent : ZSTD_dct_auto);
    EXPECT_FALSE(ZSTD_isError(e)) << ZSTD_getErrorName(e);
    bytes out(ZSTD_compressBound(msg.size()));
    const std::size_t n = ZSTD_compress2(c, out.data(), out.size(), msg.data(), msg.size());
    ZSTD_freeCCtx(c);
    if (ZSTD_isError(n)) {
        ADD_FAILURE() << "ZSTD_compress2 with a dictionary: " << ZSTD_getErrorName(n);
        return {};
    }
    out.resize(n);
    return out;
}

bytes libzstd_decompress(std::span<const std::byte> frame, std::span<const std::byte> dict, bool& ok) {
    const unsigned long long size = ZSTD_getFrameContentSize(frame.data(), frame.size());
    ok = false;
    if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN || size > (1u << 30)) return {};
    bytes out(size);
    ZSTD_DCtx* d = ZSTD_createDCtx();
    const std::size_t n =
        ZSTD_decompress_usingDict(d, out.data(), out.size(), frame.data(), frame.size(), dict.data(), dict.size());
    ZSTD_freeDCtx(d);
    if (ZSTD_isError(n)) return {};
    out.resize(n);
    ok = true;
    return out;
}

}  // namespace zest::test
