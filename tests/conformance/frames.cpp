#include "frames.hpp"

#include <zstd.h>

#include <algorithm>
#include <memory>
#include <stdexcept>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace zest::test {
namespace {

struct cctx_deleter {
    void operator()(ZSTD_CCtx* c) const noexcept { ZSTD_freeCCtx(c); }
};
struct dctx_deleter {
    void operator()(ZSTD_DCtx* d) const noexcept { ZSTD_freeDCtx(d); }
};

void check(std::size_t code, const char* what) {
    if (ZSTD_isError(code)) throw std::runtime_error(std::string(what) + ": " + ZSTD_getErrorName(code));
}

void put_le(bytes& out, std::uint64_t v, unsigned n) {
    for (unsigned i = 0; i < n; ++i) out.push_back(static_cast<std::byte>(v >> (8 * i)));
}

}  // namespace

void put_le32(bytes& out, std::uint32_t v) { put_le(out, v, 4); }

bytes libzstd_compress(std::span<const std::byte> src, int level, bool checksum) {
    std::unique_ptr<ZSTD_CCtx, cctx_deleter> c(ZSTD_createCCtx());
    check(ZSTD_CCtx_setParameter(c.get(), ZSTD_c_compressionLevel, level), "level");
    check(ZSTD_CCtx_setParameter(c.get(), ZSTD_c_checksumFlag, checksum ? 1 : 0), "checksum");
    bytes out(ZSTD_compressBound(src.size()));
    const std::size_t n = ZSTD_compress2(c.get(), out.data(), out.size(), src.data(), src.size());
    check(n, "ZSTD_compress2");
    out.resize(n);
    return out;
}

bytes libzstd_stream_compress(std::span<const std::byte> src, const stream_options& opt) {
    std::unique_ptr<ZSTD_CCtx, cctx_deleter> c(ZSTD_createCCtx());
    check(ZSTD_CCtx_setParameter(c.get(), ZSTD_c_compressionLevel, opt.level), "level");
    check(ZSTD_CCtx_setParameter(c.get(), ZSTD_c_checksumFlag, 1), "checksum");
    if (opt.window_log != 0)
        check(ZSTD_CCtx_setParameter(c.get(), ZSTD_c_windowLog, opt.window_log), "windowLog");
    rng r(opt.seed);
    bytes out;
    bytes buf(ZSTD_CStreamOutSize());
    std::size_t pos = 0;
    std::uint32_t chunk_no = 0;
    const auto drain = [&](ZSTD_inBuffer& in, ZSTD_EndDirective mode) {
        for (;;) {
            ZSTD_outBuffer o{buf.data(), buf.size(), 0};
            const std::size_t left = ZSTD_compressStream2(c.get(), &o, &in, mode);
            check(left, "ZSTD_compressStream2");
            out.insert(out.end(), buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(o.pos));
            const bool done = mode == ZSTD_e_continue ? in.pos == in.size : left == 0;
            if (done) return;
        }
    };
    while (pos < src.size()) {
        const std::size_t n = std::min<std::size_t>(src.size() - pos, opt.exact_chunks ? opt.max_chunk : r.range(1, opt.max_chunk));
        ZSTD_inBuffer in{src.data() + pos, n, 0};
        ++chunk_no;
        const bool flush = opt.flush_every != 0 && chunk_no % opt.flush_every == 0;
        drain(in, flush ? ZSTD_e_flush : ZSTD_e_continue);
        pos += n;
    }
    ZSTD_inBuffer none{nullptr, 0, 0};
    drain(none, ZSTD_e_end);
    return out;
}

reference_result libzstd_decompress(std::span<const std::byte> src, std::size_t capacity) {
    std::unique_ptr<ZSTD_DCtx, dctx_deleter> d(ZSTD_createDCtx());
    reference_result r;
    r.out.resize(capacity);
    const std::size_t n = ZSTD_decompressDCtx(d.get(), r.out.data(), r.out.size(), src.data(), src.size());
    if (ZSTD_isError(n)) {
        r.error = ZSTD_getErrorName(n);
        r.out.clear();
        return r;
    }
    r.ok = true;
    r.out.resize(n);
    return r;
}

reference_result libzstd_stream_decompress(std::span<const std::byte> src, unsigned window_log_max,
                                           std::size_t capacity) {
    std::unique_ptr<ZSTD_DCtx, dctx_deleter> d(ZSTD_createDCtx());
    reference_result r;
    check(ZSTD_DCtx_setParameter(d.get(), ZSTD_d_windowLogMax, static_cast<int>(window_log_max)),
          "windowLogMax");
    r.out.resize(capacity);
    ZSTD_inBuffer in{src.data(), src.size(), 0};
    ZSTD_outBuffer out{r.out.data(), r.out.size(), 0};
    std::size_t left = 1;
    while (in.pos < in.size || left != 0) {
        const std::size_t before_in = in.pos, before_out = out.pos;
        left = ZSTD_decompressStream(d.get(), &out, &in);
        if (ZSTD_isError(left)) {
            r.error = ZSTD_getErrorName(left);
            r.out.clear();
            return r;
        }
        if (left != 0 && in.pos == before_in && out.pos == before_out) {
            r.error = out.pos == out.size ? "destination too small" : "truncated";
            r.out.clear();
            return r;
        }
    }
    r.ok = true;
    r.out.resize(out.pos);
    return r;
}

std::optional<std::vector<std::size_t>> libzstd_frame_sizes(std::span<const std::byte> src) {
    std::vector<std::size_t> sizes;
    while (!src.empty()) {
        const std::size_t n = ZSTD_findFrameCompressedSize(src.data(), src.size());
        if (ZSTD_isError(n) || n == 0 || n > src.size()) return std::nullopt;
        sizes.push_back(n);
        src = src.subspan(n);
    }
    return sizes;
}

std::size_t frame_header_size(std::span<const std::byte> src) {
    if (src.size() < 5) return 0;
    const std::uint32_t magic = static_cast<std::uint32_t>(src[0]) | static_cast<std::uint32_t>(src[1]) << 8 |
                                static_cast<std::uint32_t>(src[2]) << 16 | static_cast<std::uint32_t>(src[3]) << 24;
    if ((magic & 0xFFFFFFF0u) == skippable_magic_first) return 8;
    if (magic != zstd_magic) return 0;
    const unsigned fhd = static_cast<unsigned>(src[4]);
    const bool single = (fhd & 0x20) != 0;
    constexpr std::size_t did_sizes[4] = {0, 1, 2, 4}, fcs_sizes[4] = {0, 2, 4, 8};
    const std::size_t fcs = (fhd >> 6) == 0 && single ? 1 : fcs_sizes[fhd >> 6];
    return 5 + (single ? 0 : 1) + did_sizes[fhd & 3] + fcs;
}

std::vector<block_info> walk_blocks(std::span<const std::byte> frame) {
    std::vector<block_info> blocks;
    std::size_t pos = frame_header_size(frame);
    if (pos == 0) return blocks;
    while (pos + 3 <= frame.size()) {
        const std::uint32_t v = static_cast<std::uint32_t>(frame[pos]) |
                                static_cast<std::uint32_t>(frame[pos + 1]) << 8 |
                                static_cast<std::uint32_t>(frame[pos + 2]) << 16;
        const block_info b{pos, (v & 1) != 0, static_cast<block_type>((v >> 1) & 3), v >> 3};
        blocks.push_back(b);
        pos += 3 + (b.type == block_type::rle ? 1 : b.size);
        if (b.last) break;
    }
    return blocks;
}

bytes skippable_frame(unsigned nibble, std::span<const std::byte> payload) {
    bytes out;
    put_le32(out, skippable_magic_first + (nibble & 0xFu));
    put_le32(out, static_cast<std::uint32_t>(payload.size()));
    append(out, payload);
    return out;
}

bytes frame_header(const frame_header_spec& s) {
    bytes out;
    put_le32(out, zstd_magic);
    const unsigned fcs_flag = s.fcs_field_size == 8 ? 3 : s.fcs_field_size == 4 ? 2
                              : s.fcs_field_size == 2 ? 1 : 0;
    const unsigned did_flag = s.dict_id_size == 4 ? 3 : s.dict_id_size == 2 ? 2 : s.dict_id_size == 1 ? 1 : 0;
    const unsigned fhd = (fcs_flag << 6) | (s.single_segment ? 1u << 5 : 0) | (s.unused_bit ? 1u << 4 : 0) |
                         (s.reserved_bit ? 1u << 3 : 0) | (s.checksum ? 1u << 2 : 0) | did_flag;
    out.push_back(static_cast<std::byte>(fhd));
    if (!s.single_segment)
        out.push_back(static_cast<std::byte>((s.window_exponent << 3) | (s.window_mantissa & 7)));
    put_le(out, s.dict_id, s.dict_id_size);
    if (s.fcs_field_size == 2)
        put_le(out, s.content_size - 256, 2);
    else
        put_le(out, s.content_size, s.fcs_field_size);
    return out;
}

void put_block_header(bytes& out, bool last, block_type type, std::uint32_t size) {
    const std::uint32_t v = (last ? 1u : 0u) | (static_cast<unsigned>(type) << 1) | (size << 3);
    put_le(out, v, 3);
}

void put_raw_block(bytes& out, bool last, std::span<const std::byte> payload) {
    put_block_header(out, last, block_type::raw, static_cast<std::uint32_t>(payload.size()));
    append(out, payload);
}

void put_rle_block(bytes& out, bool last, std::byte value, std::uint32_t count) {
    put_block_header(out, last, block_type::rle, count);
    out.push_back(value);
}

void put_checksum(bytes& out, std::span<const std::byte> content) {
    put_le32(out, static_cast<std::uint32_t>(XXH64(content.data(), content.size(), 0)));
}

bytes raw_frame_with_window_log(unsigned window_log, std::span<const std::byte> content, bool checksum) {
    frame_header_spec h;
    h.window_exponent = window_log - 10;
    h.checksum = checksum;
    bytes out = frame_header(h);
    put_raw_block(out, true, content);
    if (checksum) put_checksum(out, content);
    return out;
}

}  // namespace zest::test
