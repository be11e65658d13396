#include "cases.hpp"

#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "isolate.hpp"
#include "timing.hpp"

namespace zest_bench {

std::string check_zest_decode(zest::decompressor& d, std::span<std::byte> dst, std::span<const std::byte> frame,
                              std::span<const std::byte> original) {
    const auto r = d.decompress(dst, frame);
    if (!r) return std::string("decode error: ") + r.message();
    if (*r != original.size())
        return "MISMATCH: decoded " + std::to_string(*r) + " bytes, expected " + std::to_string(original.size());
    if (std::memcmp(dst.data(), original.data(), original.size()) != 0) {
        std::size_t at = 0;
        while (dst[at] == original[at]) ++at;
        return "MISMATCH: output differs from the original at byte " + std::to_string(at);
    }
    return {};
}

void check_reference_decode(ZSTD_DCtx* dctx, std::span<std::byte> dst, std::span<const std::byte> frame,
                            std::span<const std::byte> original, const std::string& what) {
    const std::size_t n = ZSTD_decompressDCtx(dctx, dst.data(), dst.size(), frame.data(), frame.size());
    if (ZSTD_isError(n) || n != original.size() || std::memcmp(dst.data(), original.data(), n) != 0)
        throw std::runtime_error(what + ": libzstd does not round-trip its own frame");
}

void run_decompress_case(const bench_env& env, const std::string& set, const std::string& name, int level,
                         std::span<const std::byte> original, std::span<const std::byte> frame) {
    if (!selected(env.opts, set, name)) return;
    meter().begin_case(set, name);
    const zstd_dctx dctx(ZSTD_createDCtx());
    if (!dctx) throw std::runtime_error("libzstd: cannot create a context");
    zest::decompressor zd;
    bytes zest_out(original.size()), ref_out(original.size());

    case_result result;
    result.info = {set, name, "decompress", level, original.size(), frame.size(), 0, unit::mbps};
    check_reference_decode(dctx.get(), ref_out, frame, original, set + "/" + name);

    std::string failure = run_isolated([&] {
        zest::decompressor fresh;
        return check_zest_decode(fresh, zest_out, frame, original);
    });
    if (failure.empty()) failure = check_zest_decode(zd, zest_out, frame, original);
    if (!failure.empty()) meter().message("zest-bench: " + set + "/" + name + ": zest: " + failure);

    std::vector<side> sides;
    sides.push_back({"zest",
                     [&] {
                         const auto r = zd.decompress(zest_out, frame);
                         return r.has_value() && *r == original.size();
                     },
                     failure});
    sides.push_back({"libzstd", [&] {
                         const std::size_t k = ZSTD_decompressDCtx(dctx.get(), ref_out.data(), ref_out.size(),
                                                                   frame.data(), frame.size());
                         return k == original.size();
                     }});
    result.m = measure(sides, original.size(), timing(env.opts, set, name));
    env.out.add(std::move(result));
}

std::string check_zest_encode(zest::compressor& c, std::span<std::byte> dst, std::size_t& size,
                              std::span<const std::byte> original) {
    const auto r = c.compress(dst, original);
    if (!r) return std::string("compression error: ") + r.message();
    size = *r;
    // The reference is the judge of what zest writes.
    std::vector<std::byte> back(original.size() + 1);
    const std::size_t n = ZSTD_decompress(back.data(), back.size(), dst.data(), *r);
    if (ZSTD_isError(n)) return std::string("libzstd cannot decode zest's frame: ") + ZSTD_getErrorName(n);
    if (n != original.size() || (n && std::memcmp(back.data(), original.data(), n) != 0))
        return "MISMATCH: libzstd decodes zest's frame to other bytes";
    return {};
}

bytes run_compress_case(const bench_env& env, const std::string& set, const std::string& name, int level,
                        std::span<const std::byte> original) {
    const zstd_cctx cctx(ZSTD_createCCtx());
    if (!cctx) throw std::runtime_error("libzstd: cannot create a context");
    bytes ref_out(ZSTD_compressBound(original.size()));
    std::size_t ref_size = 0;
    zest::compressor zc;
    (void)zc.set_level(level);
    bytes zest_out(zest::compress_bound(original.size()));
    std::size_t zest_size = 0;

    const bool wanted = selected(env.opts, set, name);
    std::string failure;
    if (wanted) meter().begin_case(set, name);  // the checks below take seconds at level 19
    if (wanted) failure = run_isolated([&] {
        zest::compressor fresh;
        (void)fresh.set_level(level);
        std::size_t ignored = 0;
        return check_zest_encode(fresh, zest_out, ignored, original);
    });
    if (wanted && failure.empty()) failure = check_zest_encode(zc, zest_out, zest_size, original);
    if (!failure.empty()) meter().message("zest-bench: " + set + "/" + name + ": zest: " + failure);

    std::vector<side> sides;
    sides.push_back({"zest",
                     [&] {
                         const auto r = zc.compress(zest_out, original);
                         return r.has_value() && *r == zest_size;
                     },
                     failure, wanted ? "" : "not selected"});
    sides.push_back({"libzstd", [&] {
                         ref_size = ZSTD_compressCCtx(cctx.get(), ref_out.data(), ref_out.size(), original.data(),
                                                      original.size(), level);
                         return !ZSTD_isError(ref_size);
                     }});

    case_result result;
    result.m = measure(sides, original.size(), timing(env.opts, set, name));
    if (!result.m.sides[1].ok())
        throw std::runtime_error(set + "/" + name + ": libzstd failed to compress: " + result.m.sides[1].failure);
    ref_out.resize(ref_size);
    result.info = {set, name, "compress", level, original.size(), ref_out.size(), failure.empty() ? zest_size : 0,
                   unit::mbps};
    env.out.add(std::move(result));
    return ref_out;
}

}  // namespace zest_bench
