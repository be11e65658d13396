// The reference side: thin RAII over the system libzstd.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <zstd.h>

namespace zest_bench {

struct zstd_cctx_deleter {
    void operator()(ZSTD_CCtx* c) const noexcept { ZSTD_freeCCtx(c); }
};
struct zstd_dctx_deleter {
    void operator()(ZSTD_DCtx* d) const noexcept { ZSTD_freeDCtx(d); }
};
using zstd_cctx = std::unique_ptr<ZSTD_CCtx, zstd_cctx_deleter>;
using zstd_dctx = std::unique_ptr<ZSTD_DCtx, zstd_dctx_deleter>;

/// One frame of `src` at `level`, as ZSTD_compress writes it (content size
/// declared, no checksum). Throws std::runtime_error when libzstd fails.
inline std::vector<std::byte> zstd_compress(ZSTD_CCtx* cctx, std::span<const std::byte> src, int level) {
    std::vector<std::byte> out(ZSTD_compressBound(src.size()));
    const std::size_t n = ZSTD_compressCCtx(cctx, out.data(), out.size(), src.data(), src.size(), level);
    if (ZSTD_isError(n)) throw std::runtime_error(std::string("ZSTD_compress: ") + ZSTD_getErrorName(n));
    out.resize(n);
    return out;
}

}  // namespace zest_bench
