// Differential decompression fuzzer: zest against the reference libzstd.
//
// For every input:
//  1. zest decodes it through each public entry point (one-shot into a
//     destination that ends where a heap block ends, so that ASan sees any
//     write past the capacity; a fresh and a long-lived decompressor; the
//     vector overload), and all of them must agree;
//  2. when zest succeeds, the same call with exactly the output's size must
//     succeed too, and with less must fail with destination_too_small;
//  3. libzstd (ZSTD_decompressDCtx, same capacity) decodes it, and:
//     - both succeed: the outputs must be identical;
//     - only libzstd succeeds: allowed only for the classes listed in
//       tests/known_differences.md, each checked narrowly (see
//       check_libzstd_only);
//     - only zest succeeds: allowed only for class 11 (a compressed block
//       above a small window's block maximum), checked by raising the window;
//  4. frame_content_size and find_frame_compressed_size must agree with
//     ZSTD_getFrameContentSize and ZSTD_findFrameCompressedSize;
//  5. when the input has content checksums, all of the above runs again on
//     a copy without them, so that damaged frames are compared too.
// Any disagreement prints a description and traps. ZEST_FUZZ_VERBOSE=1
// prints both outcomes for every input; counts of the known differences
// met are printed at exit.
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

#include <algorithm>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "zest/zest.hpp"

namespace {

using u8 = std::uint8_t;
using zest::errc;

constexpr std::size_t max_capacity = std::size_t(4) << 20;
constexpr std::size_t unknown_size_capacity = std::size_t(1) << 20;
constexpr std::size_t block_size_max = 128 * 1024;
constexpr std::uint32_t zstd_magic = 0xFD2FB528u;
constexpr unsigned max_huffman_bits = 12;  // libzstd's HUF_TABLELOG_MAX

[[noreturn]] void fail(const char* fmt, ...) {
    std::va_list ap;
    va_start(ap, fmt);
    std::fputs("\n*** zest differential fuzzer: ", stderr);
    std::vfprintf(stderr, fmt, ap);
    std::fputc('\n', stderr);
    va_end(ap);
    __builtin_trap();
}

std::uint32_t le16(const u8* p) { return std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8; }
std::uint32_t le24(const u8* p) { return le16(p) | std::uint32_t(p[2]) << 16; }
std::uint32_t le32(const u8* p) { return le24(p) | std::uint32_t(p[3]) << 24; }
std::uint64_t le64(const u8* p) { return le32(p) | std::uint64_t(le32(p + 4)) << 32; }

bool is_skippable_magic(std::uint32_t m) { return (m & 0xFFFFFFF0u) == 0x184D2A50u; }
// Pre-v0.8 formats: v0.1 and v0.2 to v0.7 (zest supports none of them).
bool is_legacy_magic(std::uint32_t m) { return m == 0x1EB52FFDu || (m >= 0xFD2FB522u && m <= 0xFD2FB527u); }

// How often each known difference was met (printed at exit).
struct counters {
    unsigned long long runs = 0, both_ok = 0, both_fail = 0, window_limit = 0, reserved_modes = 0, small_window = 0,
                       big_raw_rle = 0, legacy = 0, header_window = 0, truncated_states = 0, inexact_huffman = 0,
                       inexact_sequences = 0, oversized_block = 0, compressed_above_window = 0, zero_offset = 0,
                       zero_count_trailing = 0;
    ~counters() {
        std::fprintf(stderr,
                     "zest fuzzer: %llu inputs, both decode %llu, both reject %llu; known differences: "
                     "window limit %llu, sequences reserved bits %llu, small-window block maximum %llu, "
                     "raw/RLE block above 128 KiB %llu, legacy frame %llu, header window exponent %llu, truncated "
                     "Huffman states %llu, inexact Huffman streams %llu, inexact sequences stream %llu, compressed block above 128 KiB %llu, "
                     "compressed block above a small window %llu, zero offset %llu, bytes after a zero sequence count %llu\n",
                     runs, both_ok, both_fail, window_limit, reserved_modes, small_window, big_raw_rle, legacy,
                     header_window, truncated_states, inexact_huffman, inexact_sequences, oversized_block,
                     compressed_above_window, zero_offset, zero_count_trailing);
    }
};
counters stats;

// --- decoding through each API --------------------------------------------------------

struct outcome {
    bool ok = false;
    errc error{};
    std::size_t zstd_error = 0;  // libzstd's return code when !ok
    std::vector<u8> out;
};

std::string describe(const outcome& o) {
    if (o.ok) return "success, " + std::to_string(o.out.size()) + " bytes";
    if (o.zstd_error) return std::string("libzstd error: ") + ZSTD_getErrorName(o.zstd_error);
    return std::string("zest error: ") + zest::error_message(o.error) + " (" +
           std::to_string(static_cast<int>(o.error)) + ")";
}

bool same(const outcome& a, const outcome& b) { return a.ok == b.ok && (a.ok ? a.out == b.out : a.error == b.error); }

// Destinations end where a heap block of max_capacity bytes ends, so that
// ASan reports any write past the capacity; the blocks are kept across
// inputs (allocating megabytes per call costs more than the decoding).
u8* destination(int slot, std::size_t cap) {
    static u8* blocks[2] = {};
    if (!blocks[slot]) blocks[slot] = new u8[max_capacity];
    return blocks[slot] + (max_capacity - cap);
}

outcome run_zest(std::span<const u8> src, std::size_t cap, zest::decompressor* d) {
    u8* const dst = destination(0, cap);
    const zest::result<std::size_t> r =
        d ? d->decompress(dst, cap, src.data(), src.size()) : zest::decompress(dst, cap, src.data(), src.size());
    outcome o;
    if (!r) {
        o.error = r.error();
        if (r.error() == errc{}) fail("an error result without an error code");
        return o;
    }
    if (*r > cap) fail("zest returned %zu bytes for a capacity of %zu", *r, cap);
    o.ok = true;
    o.out.assign(dst, dst + *r);
    return o;
}

outcome run_libzstd(std::span<const u8> src, std::size_t cap) {
    static ZSTD_DCtx* const dctx = ZSTD_createDCtx();
    u8* const dst = destination(1, cap);
    const std::size_t r = ZSTD_decompressDCtx(dctx, dst, cap, src.data(), src.size());
    outcome o;
    if (ZSTD_isError(r)) {
        o.zstd_error = r;
        return o;
    }
    o.ok = true;
    o.out.assign(dst, dst + r);
    return o;
}

// The vector overload; an exception carries the error code.
outcome run_zest_vector(std::span<const u8> src) {
    outcome o;
    try {
        const std::vector<std::byte> v = zest::decompress(std::as_bytes(src));
        o.ok = true;
        o.out.resize(v.size());
        if (!v.empty()) std::memcpy(o.out.data(), v.data(), v.size());
    } catch (const std::system_error& e) {
        if (e.code().category() != zest::error_category()) fail("vector overload: foreign error %s", e.what());
        o.error = static_cast<errc>(e.code().value());
    }
    return o;
}

// Capacity for the main decode: the declared content sizes when every frame
// declares one (capped), otherwise a fixed budget.
std::size_t choose_capacity(std::span<const u8> src) {
    std::uint64_t total = 0;
    std::span<const u8> rest = src;
    while (!rest.empty()) {
        const auto size = zest::find_frame_compressed_size(std::as_bytes(rest));
        const auto content = zest::frame_content_size(std::as_bytes(rest));
        if (!size || !content || !content->has_value()) return unknown_size_capacity;
        total += **content;
        if (total > max_capacity) return max_capacity;
        rest = rest.subspan(*size);
    }
    return std::size_t(total);
}

// --- frame inspection against libzstd -------------------------------------------------------

// Window exponent of a non-single-segment frame header above 21 (window
// above 2^31): ZSTD_getFrameHeader rejects it, zest's inspection calls do
// not look at the window (decoding does).
bool header_window_above_2g(std::span<const u8> src) {
    if (src.size() < 6 || le32(src.data()) != zstd_magic) return false;
    return (src[4] & 0x20) == 0 && (src[5] >> 3) > 21;
}

void check_inspection(std::span<const u8> src) {
    const auto fcs = zest::frame_content_size(std::as_bytes(src));
    const unsigned long long ref_fcs = ZSTD_getFrameContentSize(src.data(), src.size());
    const bool legacy = src.size() >= 4 && is_legacy_magic(le32(src.data()));
    if (!fcs) {
        if (ref_fcs != ZSTD_CONTENTSIZE_ERROR && !legacy)
            fail("frame_content_size fails (%s), libzstd reports %llu", zest::error_message(fcs.error()), ref_fcs);
    } else if (ref_fcs == ZSTD_CONTENTSIZE_ERROR) {
        if (!header_window_above_2g(src)) fail("frame_content_size succeeds, libzstd reports an error");
        ++stats.header_window;
    } else if (!fcs->has_value()) {
        if (ref_fcs != ZSTD_CONTENTSIZE_UNKNOWN) fail("frame_content_size: unknown, libzstd: %llu", ref_fcs);
    } else if (**fcs != ref_fcs) {
        fail("frame_content_size: %llu, libzstd: %llu", static_cast<unsigned long long>(**fcs), ref_fcs);
    }

    const auto size = zest::find_frame_compressed_size(std::as_bytes(src));
    const std::size_t ref_size = ZSTD_findFrameCompressedSize(src.data(), src.size());
    if (!size) {
        if (!ZSTD_isError(ref_size) && !legacy)
            fail("find_frame_compressed_size fails (%s), libzstd: %zu", zest::error_message(size.error()), ref_size);
    } else if (ZSTD_isError(ref_size)) {
        if (!header_window_above_2g(src))
            fail("find_frame_compressed_size: %zu, libzstd: %s", *size, ZSTD_getErrorName(ref_size));
    } else if (*size != ref_size) {
        fail("find_frame_compressed_size: %zu, libzstd: %zu", *size, ref_size);
    }
}

// --- known differences ------------------------------------------------------------------------

// Rewrites `src` so that the known differences vanish without changing what
// libzstd decodes it to:
//  - small windows: libzstd 1.5.4 bounds blocks by 128 KiB whatever the
//    window, zest by Block_Maximum_Size = min(Window_Size, 128 KiB); windows
//    below 128 KiB are raised to 128 KiB (single-segment frames become
//    frames with a window descriptor and an 8-byte content size);
//  - raw and RLE blocks above 128 KiB, which libzstd 1.5.4 accepts, are split
//    into blocks of 128 KiB;
//  - the reserved bits of the sequences' modes byte, which libzstd 1.5.4
//    ignores, are cleared;
//  - a legacy frame, which this libzstd may decode, ends the input.
// Anything it cannot parse is copied as it is.
struct normalized {
    std::vector<u8> bytes;
    bool small_window = false, big_raw_rle = false, reserved_modes = false, legacy = false, large_window = false;
    bool truncated_states = false;   // detected only: no rewrite undoes it
    bool inexact_huffman = false;    // detected only
    bool inexact_sequences = false;  // detected only
    bool oversized_block = false;    // detected only
    bool zero_offset = false;        // detected only
    bool zero_count_trailing = false;  // detected only
    // A compressed block whose Block_Size is above Block_Maximum_Size =
    // min(Window_Size, 128 KiB): zest accepts it when its decoded size fits
    // (class 11), libzstd does not; the window raised to 128 KiB (part of
    // small_window's rewrite) is what libzstd then needs.
    bool compressed_above_window = false;
    bool changed() const { return small_window || big_raw_rle || reserved_modes || legacy; }
};

// --- an independent model of the entropy streams -------------------------------------------
// Written from the format's description, sharing nothing with zest: used to
// tell the known differences in entropy coding apart from real disagreements.

// Backward bit stream with zeros below its first bit.
struct backward_bits {
    const u8* src = nullptr;
    long long pos = 0;  // bits left above the first one (negative: read past it)
    bool init(const u8* s, std::size_t n) {
        if (n == 0 || s[n - 1] == 0) return false;
        unsigned top = 7;
        while (!(s[n - 1] >> top)) --top;
        src = s;
        pos = 8 * static_cast<long long>(n - 1) + top;
        return true;
    }
    std::uint32_t peek(unsigned nb) const {
        std::uint32_t v = 0;
        for (unsigned i = 0; i < nb; ++i) {
            const long long b = pos - 1 - i;
            v = v << 1 | (b >= 0 ? (src[b / 8] >> (b % 8)) & 1 : 0);
        }
        return v;
    }
    std::uint32_t read(unsigned nb) {
        const std::uint32_t v = peek(nb);
        pos -= nb;
        return v;
    }
};

struct fse_counts {
    int count[256] = {};
    unsigned symbols = 0;  // one past the last symbol described
    unsigned log = 0;
};

// Reads an FSE table description; returns the bytes it takes, 0 when malformed.
std::size_t read_fse_counts(const u8* src, std::size_t size, unsigned max_log, unsigned max_symbol, fse_counts& d) {
    std::size_t bitpos = 0;
    auto bits = [&](unsigned n) {
        std::uint32_t v = 0;
        for (unsigned i = 0; i < n; ++i) {
            const std::size_t b = bitpos + i;
            if (b / 8 < size) v |= std::uint32_t((src[b / 8] >> (b % 8)) & 1) << i;
        }
        return v;
    };
    d = fse_counts{};
    d.log = bits(4) + 5;
    bitpos = 4;
    if (d.log > max_log) return 0;
    int remaining = (1 << d.log) + 1;
    while (remaining > 1) {
        if (d.symbols > max_symbol) return 0;
        unsigned nb = 0;
        while ((1 << nb) <= remaining) ++nb;  // values 0..remaining
        const std::uint32_t threshold = 1u << (nb - 1), max = 2 * threshold - 1 - std::uint32_t(remaining);
        std::uint32_t v = bits(nb);
        if ((v & (threshold - 1)) < max) {
            v &= threshold - 1;
            bitpos += nb - 1;
        } else {
            if (v >= threshold) v -= max;
            bitpos += nb;
        }
        const int c = int(v) - 1;
        d.count[d.symbols++] = c;
        remaining -= c < 0 ? -c : c;
        if (c == 0) {
            for (;;) {
                const std::uint32_t repeat = bits(2);
                bitpos += 2;
                if (d.symbols + repeat > max_symbol + 1) return 0;
                for (std::uint32_t r = 0; r < repeat; ++r) d.count[d.symbols++] = 0;
                if (repeat != 3) break;
            }
        }
    }
    if (remaining != 1 || bitpos > 8 * size) return 0;
    return (bitpos + 7) / 8;
}

// A decoding table: symbol, bits to read and baseline of each state.
struct fse_table {
    unsigned log = 0;
    u8 symbol[512];
    u8 nb[512];
    std::uint16_t base[512];
};

bool build_fse(const fse_counts& d, fse_table& t) {
    const unsigned cells = 1u << d.log;
    unsigned high = cells - 1, next[256];
    for (unsigned s = 0; s < d.symbols; ++s) {
        if (d.count[s] == -1) {
            t.symbol[high--] = u8(s);
            next[s] = 1;
        } else {
            next[s] = unsigned(d.count[s]);
        }
    }
    unsigned pos = 0;
    const unsigned step = (cells >> 1) + (cells >> 3) + 3;
    for (unsigned s = 0; s < d.symbols; ++s)
        for (int i = 0; i < d.count[s]; ++i) {
            t.symbol[pos] = u8(s);
            do pos = (pos + step) & (cells - 1);
            while (pos > high);
        }
    if (pos != 0) return false;
    for (unsigned u = 0; u < cells; ++u) {
        const unsigned x = next[t.symbol[u]]++;
        unsigned hb = 0;
        while ((2u << hb) <= x) ++hb;
        t.nb[u] = u8(d.log - hb);
        t.base[u] = std::uint16_t((x << t.nb[u]) - cells);
    }
    t.log = d.log;
    return true;
}

// Size of a literals section (header included); 0 when malformed.
std::size_t literals_section_size(const u8* blk, std::size_t size) {
    if (size < 1) return 0;
    const unsigned type = blk[0] & 3, format = (blk[0] >> 2) & 3;
    if (type < 2) {
        const std::size_t header = format == 1 ? 2 : format == 3 ? 3 : 1;
        if (size < header) return 0;
        const std::size_t regen = format == 1 ? le16(blk) >> 4 : format == 3 ? le24(blk) >> 4 : blk[0] >> 3;
        return header + (type == 0 ? regen : 1);
    }
    const std::size_t header = format < 2 ? 3 : format == 2 ? 4 : 5;
    if (size < header) return 0;
    const std::uint64_t v = format < 2 ? le24(blk) : format == 2 ? le32(blk) : le32(blk) | std::uint64_t(blk[4]) << 32;
    return header + (format < 2 ? (v >> 14) & 0x3FF : format == 2 ? (v >> 18) & 0x3FFF : (v >> 22) & 0x3FFFF);
}

// True when the block's literals carry an FSE-compressed Huffman tree whose
// weight bitstream holds fewer bits than its two initial states need.
bool truncated_huffman_states(const u8* blk, std::size_t size) {
    if (size < 1 || (blk[0] & 3) != 2) return false;
    const unsigned format = (blk[0] >> 2) & 3;
    const std::size_t header = format < 2 ? 3 : format == 2 ? 4 : 5;
    if (size < header + 1) return false;
    const std::uint64_t v = format < 2 ? le24(blk) : format == 2 ? le32(blk) : le32(blk) | std::uint64_t(blk[4]) << 32;
    const std::size_t csize = format < 2 ? (v >> 14) & 0x3FF : format == 2 ? (v >> 18) & 0x3FFF : (v >> 22) & 0x3FFFF;
    const u8* tree = blk + header;
    const std::size_t weights = tree[0];
    if (weights >= 128 || weights == 0 || csize > size - header || weights + 1 > csize) return false;
    fse_counts d;
    const std::size_t table = read_fse_counts(tree + 1, weights, 6, 255, d);
    if (table == 0 || table >= weights) return false;
    backward_bits br;
    if (!br.init(tree + 1 + table, weights - table)) return false;
    return br.pos < 2 * static_cast<long long>(d.log);
}

// An independent model of Huffman literals, for one question only: does a
// 4-stream section hold a stream whose symbols do not end exactly at the
// stream's first bit? libzstd's fast 4-stream decoders only check the
// number of symbols produced; zest (like libzstd's other decoders) also
// checks that each stream is consumed exactly.
class huffman_model {
public:
    void reset() { max_bits_ = 0; }

    // Examines a compressed block; true when a 4-stream section ends inexactly.
    bool inexact_four_streams(const u8* blk, std::size_t size) {
        if (size < 1 || (blk[0] & 3) < 2) return false;
        const unsigned type = blk[0] & 3, format = (blk[0] >> 2) & 3;
        const std::size_t header = format < 2 ? 3 : format == 2 ? 4 : 5;
        if (size < header) return false;
        const std::uint64_t v = format < 2    ? le24(blk)
                                : format == 2 ? le32(blk)
                                              : le32(blk) | std::uint64_t(blk[4]) << 32;
        const std::size_t regen = format < 2 ? (v >> 4) & 0x3FF : format == 2 ? (v >> 4) & 0x3FFF : (v >> 4) & 0x3FFFF;
        const std::size_t csize = format < 2    ? (v >> 14) & 0x3FF
                                  : format == 2 ? (v >> 18) & 0x3FFF
                                                : (v >> 22) & 0x3FFFF;
        if (csize > size - header) return false;
        const u8* p = blk + header;
        std::size_t n = csize;
        if (type == 2) {
            const std::size_t used = read_tree(p, n);
            if (used == 0) return false;
            p += used;
            n -= used;
        }
        if (max_bits_ == 0 || format == 0) return false;
        if (n < 10) return false;
        const std::size_t s1 = le16(p), s2 = le16(p + 2), s3 = le16(p + 4);
        if (6 + s1 + s2 + s3 > n) return false;
        const std::size_t sizes[4] = {s1, s2, s3, n - 6 - s1 - s2 - s3};
        const std::size_t seg = (regen + 3) / 4;
        if (3 * seg > regen) return false;
        const u8* q = p + 6;
        bool inexact = false;
        for (int k = 0; k < 4; ++k) {
            const int r = stream_ends_exactly(q, sizes[k], k < 3 ? seg : regen - 3 * seg);
            if (r < 0) return false;
            inexact |= r == 0;
            q += sizes[k];
        }
        return inexact;
    }

private:
    unsigned max_bits_ = 0;
    // Code length per table index. Codes up to 12 bits deep, as libzstd
    // (HUF_TABLELOG_MAX, 1.5.4 to 1.5.7) accepts in frames and dictionaries.
    u8 length_[1 << max_huffman_bits] = {};

    // 1: exact, 0: inexact, -1: cannot tell.
    int stream_ends_exactly(const u8* src, std::size_t size, std::size_t count) const {
        backward_bits br;
        if (size == 0) return -1;
        if (src[size - 1] == 0) return 0;  // no end mark (libzstd's fast path takes it as one)
        if (!br.init(src, size)) return -1;
        for (std::size_t i = 0; i < count; ++i) {
            br.pos -= length_[br.peek(max_bits_)];
            if (br.pos < 0) return 0;
        }
        return br.pos == 0;
    }

    // Reads a tree description, builds the code lengths; 0 when malformed.
    std::size_t read_tree(const u8* p, std::size_t n) {
        max_bits_ = 0;
        if (n == 0) return 0;
        u8 w[256];
        unsigned count = 0;
        std::size_t used;
        if (p[0] >= 128) {
            count = p[0] - 127;
            used = 1 + (count + 1) / 2;
            if (used > n) return 0;
            for (unsigned i = 0; i < count; ++i) w[i] = i % 2 ? p[1 + i / 2] & 15 : p[1 + i / 2] >> 4;
        } else {
            used = 1 + std::size_t(p[0]);
            if (p[0] == 0 || used > n || !fse_weights(p + 1, p[0], w, count)) return 0;
        }
        std::uint32_t total = 0;
        for (unsigned i = 0; i < count; ++i) {
            if (w[i] > max_huffman_bits) return 0;
            total += (1u << w[i]) >> 1;
        }
        if (total == 0 || count >= 256) return 0;
        unsigned max_bits = 0;
        while ((1u << max_bits) <= total) ++max_bits;
        if (max_bits > max_huffman_bits) return 0;
        const std::uint32_t rest = (1u << max_bits) - total;
        if (rest & (rest - 1)) return 0;
        unsigned last = 0;
        while ((1u << last) < rest) ++last;
        w[count++] = u8(last + 1);
        std::size_t pos = 0;
        for (unsigned weight = 1; weight <= max_bits; ++weight)
            for (unsigned s = 0; s < count; ++s)
                if (w[s] == weight)
                    for (std::uint32_t k = 0; k < (1u << (weight - 1)); ++k) length_[pos++] = u8(max_bits + 1 - weight);
        if (pos != (std::size_t(1) << max_bits)) return 0;
        max_bits_ = max_bits;
        return used;
    }

    // FSE-compressed weights: two interleaved states over one backward stream.
    static bool fse_weights(const u8* src, std::size_t size, u8* w, unsigned& count) {
        fse_counts d;
        const std::size_t table = read_fse_counts(src, size, 6, 255, d);
        static fse_table t;
        if (table == 0 || table >= size || !build_fse(d, t)) return false;
        backward_bits br;
        if (!br.init(src + table, size - table)) return false;
        std::uint32_t s1 = br.read(t.log), s2 = br.read(t.log);
        if (br.pos < 0) return false;  // truncated initial states (a class of its own)
        count = 0;
        for (;;) {
            if (count + 2 > 255) return false;
            w[count++] = t.symbol[s1];
            s1 = t.base[s1] + br.read(t.nb[s1]);
            if (br.pos < 0) {
                w[count++] = t.symbol[s2];
                return true;
            }
            w[count++] = t.symbol[s2];
            s2 = t.base[s2] + br.read(t.nb[s2]);
            if (br.pos < 0) {
                w[count++] = t.symbol[s1];
                return true;
            }
        }
    }
};

// Bit accounting of the sequences section, for one question only: is the
// bitstream consumed exactly when the last sequence has been read (no state
// update after it)? libzstd up to 1.5.5 also updates the states after the
// last sequence and then accepts a stream that ends early or was over-read.
class sequences_model {
public:
    void reset() {
        have_[0] = have_[1] = have_[2] = false;
        rep_[0] = 1, rep_[1] = 4, rep_[2] = 8;
        lost_ = false;
    }
    // Sum of the literal and match lengths of the last block examined.
    std::uint64_t decoded_size = 0;
    // The last block examined has a sequence whose offset works out to 0
    // (repeat offset 1 minus 1 while it is 1), which libzstd up to 1.5.5
    // reads as 1 and later versions reject.
    bool zero_offset = false;
    bool zero_count_trailing = false;  // the last block examined: no sequences, yet bytes after the count

    // 1: exact, 0: not exact, -1: cannot tell (anything unexpected).
    int block_ends_exactly(const u8* blk, std::size_t size) {
        const int r = examine(blk, size);
        if (r != 1) lost_ = true;  // the repeat offsets after this block are not known
        return r;
    }

private:
    int examine(const u8* blk, std::size_t size) {
        decoded_size = 0;
        zero_offset = false;
        zero_count_trailing = false;
        std::size_t pos = literals_section_size(blk, size);
        if (pos == 0 || pos >= size) return -1;
        const unsigned b0 = blk[pos];
        unsigned nb_seq;
        if (b0 < 128) {
            nb_seq = b0;
            pos += 1;
        } else if (b0 < 255) {
            if (pos + 2 > size) return -1;
            nb_seq = ((b0 - 128) << 8) + blk[pos + 1];
            pos += 2;
        } else {
            if (pos + 3 > size) return -1;
            nb_seq = blk[pos + 1] + (unsigned(blk[pos + 2]) << 8) + 0x7F00;
            pos += 3;
        }
        if (nb_seq == 0) {
            // The section ends at the count: bytes after it (a modes byte,
            // tables, a bitstream) are corruption, which libzstd 1.5.4
            // ignores when the count takes 2 or 3 bytes (1.5.7 rejects it).
            zero_count_trailing = pos != size;
            return 1;
        }
        if (pos >= size) return -1;
        const unsigned modes = blk[pos++];
        static constexpr unsigned max_log[3] = {9, 8, 9}, max_symbol[3] = {35, 31, 52};
        const unsigned mode_of[3] = {modes >> 6, (modes >> 4) & 3, (modes >> 2) & 3};  // LL, OF, ML
        for (int k = 0; k < 3; ++k) {
            switch (mode_of[k]) {
                case 0:
                    table_[k] = predefined(k);
                    break;
                case 1: {
                    if (pos >= size || blk[pos] > max_symbol[k]) return -1;
                    table_[k].log = 0;
                    table_[k].symbol[0] = blk[pos++];
                    table_[k].nb[0] = 0;
                    table_[k].base[0] = 0;
                    break;
                }
                case 2: {
                    fse_counts d;
                    const std::size_t used = read_fse_counts(blk + pos, size - pos, max_log[k], max_symbol[k], d);
                    if (used == 0 || !build_fse(d, table_[k])) return -1;
                    pos += used;
                    break;
                }
                default:
                    if (!have_[k]) return -1;
                    break;
            }
            have_[k] = true;
        }
        backward_bits br;
        if (pos >= size || !br.init(blk + pos, size - pos)) return -1;
        const fse_table &ll = table_[0], &of = table_[1], &ml = table_[2];
        std::uint32_t lls = br.read(ll.log), ofs = br.read(of.log), mls = br.read(ml.log);
        for (unsigned i = 0; i < nb_seq; ++i) {
            const unsigned ocode = of.symbol[ofs];
            const std::uint64_t offset_value = (std::uint64_t(1) << ocode) + br.read(ocode);
            decoded_size += ml_base(ml.symbol[mls]) + br.read(ml_extra(ml.symbol[mls]));
            const std::uint64_t lit_length = ll_base(ll.symbol[lls]) + br.read(ll_extra(ll.symbol[lls]));
            decoded_size += lit_length;
            track_offset(offset_value, lit_length);
            if (i + 1 == nb_seq) break;
            lls = ll.base[lls] + br.read(ll.nb[lls]);
            mls = ml.base[mls] + br.read(ml.nb[mls]);
            ofs = of.base[ofs] + br.read(of.nb[ofs]);
            if (br.pos < 0) return 0;
        }
        return br.pos == 0;
    }

    // The format's repeat offsets, updated as libzstd 1.5.4 does (a zero
    // offset taken as 1).
    void track_offset(std::uint64_t value, std::uint64_t lit_length) {
        if (value > 3) {
            rep_[2] = rep_[1], rep_[1] = rep_[0], rep_[0] = value - 3;
            return;
        }
        const std::uint64_t idx = value - 1 + (lit_length == 0);
        if (idx == 0) return;
        if (idx == 1) {
            std::swap(rep_[0], rep_[1]);
            return;
        }
        std::uint64_t off = idx == 3 ? rep_[0] - 1 : rep_[2];
        if (off == 0) {
            if (!lost_) zero_offset = true;
            off = 1;
        }
        rep_[2] = rep_[1], rep_[1] = rep_[0], rep_[0] = off;
    }

    fse_table table_[3];
    bool have_[3] = {};
    std::uint64_t rep_[3] = {1, 4, 8};
    bool lost_ = false;  // an earlier block of the frame could not be followed

    static std::uint32_t ll_base(unsigned code) {
        static constexpr std::uint32_t base[20] = {16,   18,   20,   22,   24,    28,    32,    40,    48,    64,
                                                   128,  256,  512,  1024, 2048,  4096,  8192,  16384, 32768, 65536};
        return code < 16 ? code : base[code - 16];
    }
    static std::uint32_t ml_base(unsigned code) {
        static constexpr std::uint32_t base[21] = {35,  37,  39,   41,   43,   47,   51,    59,    67,    83,   99,
                                                   131, 259, 515, 1027, 2051, 4099, 8195, 16387, 32771, 65539};
        return code < 32 ? code + 3 : base[code - 32];
    }
    static unsigned ll_extra(unsigned code) {
        static constexpr u8 bits[20] = {1, 1, 1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
        return code < 16 ? 0 : bits[code - 16];
    }
    static unsigned ml_extra(unsigned code) {
        static constexpr u8 bits[21] = {1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
        return code < 32 ? 0 : bits[code - 32];
    }
    // The format's predefined distributions (literal lengths, offsets, match lengths).
    static const fse_table& predefined(int k) {
        static const fse_table* const tables = [] {
            static fse_table t[3];
            static constexpr int ll[36] = {4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1,  1,  2,  2,
                                           2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1, -1, -1, -1, -1};
            static constexpr int of[29] = {1, 1, 1, 1, 1, 1, 2, 2, 2, 1,  1,  1,  1,  1, 1,
                                           1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1};
            static constexpr int ml[53] = {1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1,  1,  1,  1,  1,  1,  1, 1,
                                           1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  1,  1,  1,  1,  1,  1, 1,
                                           1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1};
            const int* counts[3] = {ll, of, ml};
            const unsigned n[3] = {36, 29, 53}, log[3] = {6, 5, 6};
            for (int i = 0; i < 3; ++i) {
                fse_counts d;
                d.symbols = n[i];
                d.log = log[i];
                for (unsigned j = 0; j < n[i]; ++j) d.count[j] = counts[i][j];
                if (!build_fse(d, t[i])) fail("predefined table %d does not build", i);
            }
            return t;
        }();
        return tables[k];
    }
};

// Clears the reserved bits of a compressed block's modes byte, if it has one.
bool clear_modes_reserved_bits(u8* blk, std::size_t size) {
    std::size_t pos = literals_section_size(blk, size);
    if (pos == 0) return false;
    if (pos >= size) return false;
    const unsigned b0 = blk[pos];
    if (b0 == 0) return false;
    pos += b0 < 128 ? 1 : b0 < 255 ? 2 : 3;
    if (pos >= size || (blk[pos] & 3) == 0) return false;
    blk[pos] &= 0xFC;
    return true;
}

normalized normalize(std::span<const u8> src) {
    normalized n;
    std::vector<u8>& out = n.bytes;
    const u8* p = src.data();
    const u8* const end = src.data() + src.size();
    auto copy_rest = [&] {
        out.insert(out.end(), p, end);
        p = end;
    };
    auto put_le = [&](std::uint64_t v, int bytes) {
        for (int i = 0; i < bytes; ++i) out.push_back(u8(v >> (8 * i)));
    };
    huffman_model huf;
    sequences_model seq;
    while (p != end) {
        const std::size_t left = std::size_t(end - p);
        if (left < 4) return copy_rest(), n;
        const std::uint32_t magic = le32(p);
        if (is_skippable_magic(magic)) {
            if (left < 8 || le32(p + 4) > left - 8) return copy_rest(), n;
            out.insert(out.end(), p, p + 8 + le32(p + 4));
            p += 8 + le32(p + 4);
            continue;
        }
        if (is_legacy_magic(magic)) {
            n.legacy = true;
            return n;
        }
        if (magic != zstd_magic || left < 5 || (p[4] & 0x08)) return copy_rest(), n;
        const unsigned fhd = p[4];
        const bool single = fhd & 0x20;
        const unsigned fcs_flag = fhd >> 6, did_flag = fhd & 3;
        static constexpr unsigned did_bytes[4] = {0, 1, 2, 4}, fcs_bytes[4] = {0, 2, 4, 8};
        const std::size_t fcs_size = fcs_flag == 0 ? (single ? 1 : 0) : fcs_bytes[fcs_flag];
        const std::size_t header = 5 + !single + did_bytes[did_flag] + fcs_size;
        if (left < header) return copy_rest(), n;
        const u8* fcs_at = p + 5 + !single + did_bytes[did_flag];
        std::uint64_t fcs = ~std::uint64_t(0);
        if (fcs_size == 1) fcs = fcs_at[0];
        if (fcs_size == 2) fcs = le16(fcs_at) + 256;
        if (fcs_size == 4) fcs = le32(fcs_at);
        if (fcs_size == 8) fcs = le64(fcs_at);
        std::uint64_t window;
        if (single) {
            window = fcs;
        } else {
            const unsigned e = p[5] >> 3;
            window = (std::uint64_t(1) << (10 + e)) + ((std::uint64_t(1) << (10 + e)) >> 3) * (p[5] & 7);
        }
        if (window > (std::uint64_t(1) << zest::default_max_window_log)) n.large_window = true;
        if (window < block_size_max) {
            n.small_window = true;
            // Same flags, no single segment, window 128 KiB, 8-byte size when known.
            out.insert(out.end(), p, p + 4);
            const bool known = single || fcs_flag != 0;
            out.push_back(u8((fhd & 0x17) | (known ? 0xC0 : 0)));
            out.push_back(0x38);
            out.insert(out.end(), p + 5 + !single, fcs_at);
            if (known) put_le(fcs, 8);
        } else if (!single && window > (std::uint64_t(1) << 31) && (p[5] >> 3) <= 21) {
            // libzstd bounds the window's log (31), not its size: a mantissa
            // takes it up to 3.75 GiB, above zest's largest limit (2^31).
            out.insert(out.end(), p, p + header);
            out[out.size() - header + 5] = 21 << 3;
        } else {
            out.insert(out.end(), p, p + header);
        }
        p += header;
        huf.reset();
        seq.reset();
        const bool checksum = fhd & 0x04;
        for (;;) {
            if (end - p < 3) return copy_rest(), n;
            const std::uint32_t bh = le24(p);
            const bool last = bh & 1;
            const unsigned type = (bh >> 1) & 3;
            const std::size_t bsize = bh >> 3;
            const std::size_t body = type == 1 ? 1 : bsize;
            if (type == 3 || std::size_t(end - p - 3) < body) return copy_rest(), n;
            if (type == 2 && bsize > std::min<std::uint64_t>(window, block_size_max)) n.compressed_above_window = true;
            if (type < 2 && bsize > block_size_max) {
                n.big_raw_rle = true;
                for (std::size_t done = 0; done < bsize; done += block_size_max) {
                    const std::size_t k = std::min(bsize - done, block_size_max);
                    const bool final_piece = done + k == bsize;
                    put_le(std::uint32_t(k << 3 | type << 1 | (last && final_piece)), 3);
                    if (type == 0)
                        out.insert(out.end(), p + 3 + done, p + 3 + done + k);
                    else
                        out.push_back(p[3]);
                }
            } else {
                const std::size_t at = out.size();
                out.insert(out.end(), p, p + 3 + body);
                if (type == 2 && clear_modes_reserved_bits(out.data() + at + 3, bsize)) n.reserved_modes = true;
                if (type == 2 && truncated_huffman_states(p + 3, bsize)) n.truncated_states = true;
                if (type == 2 && huf.inexact_four_streams(p + 3, bsize)) n.inexact_huffman = true;
                if (type == 2) {
                    const int exact = seq.block_ends_exactly(p + 3, bsize);
                    if (exact == 0) n.inexact_sequences = true;
                    if (seq.zero_offset) n.zero_offset = true;
                    if (seq.zero_count_trailing) n.zero_count_trailing = true;
                    // Sequences alone beyond 128 KiB: the block's output is too.
                    if (exact >= 0 && seq.decoded_size > block_size_max) n.oversized_block = true;
                }
            }
            p += 3 + body;
            if (last) break;
        }
        if (checksum) {
            if (end - p < 4) return copy_rest(), n;
            out.insert(out.end(), p, p + 4);
            p += 4;
        }
    }
    return n;
}

// libzstd decodes `src` to ref, zest fails with `error`: allowed only when
// a known difference explains it. The rewritable classes are undone first
// (zest must then decode the rewritten input exactly as libzstd decodes
// it); if zest still fails, its error must be the one of a detected class.
void check_libzstd_only(std::span<const u8> src, const outcome& ref, errc error, std::size_t cap) {
    const normalized n = normalize(src);
    errc remaining = error;
    if (n.changed() || n.large_window) {
        // The rewrite must not change what libzstd makes of the input (a
        // legacy frame cut off: what it makes of the frames before it).
        const outcome ref_n = run_libzstd(n.bytes, cap);
        if (!ref_n.ok) fail("normalizer bug: libzstd rejects the rewritten input: %s", describe(ref_n).c_str());
        const bool same_bytes = n.legacy ? ref_n.out.size() <= ref.out.size() &&
                                               std::equal(ref_n.out.begin(), ref_n.out.end(), ref.out.begin())
                                         : ref_n.out == ref.out;
        if (!same_bytes) fail("normalizer bug: libzstd decodes the rewritten input differently");
        zest::decompressor wide;
        (void)wide.set_max_window_log(zest::max_window_log_limit);
        const outcome z = run_zest(n.bytes, cap, &wide);
        if (z.ok && z.out != ref_n.out) fail("zest decodes the rewritten input differently from libzstd");
        if (n.legacy && error != errc::unknown_frame)
            fail("a legacy frame: expected unknown_frame, got %s", zest::error_message(error));
        if (!n.changed() && error != errc::window_too_large)
            fail("expected window_too_large, got %s", zest::error_message(error));
        stats.legacy += n.legacy;
        stats.small_window += n.small_window;
        stats.big_raw_rle += n.big_raw_rle;
        stats.reserved_modes += n.reserved_modes;
        stats.window_limit += n.large_window;
        if (z.ok) return;
        remaining = z.error;
    }
    if (n.truncated_states && remaining == errc::huffman_invalid) {
        ++stats.truncated_states;
        return;
    }
    if (n.inexact_huffman && remaining == errc::literals_invalid) {
        ++stats.inexact_huffman;
        return;
    }
    if (n.inexact_sequences && remaining == errc::sequences_invalid) {
        ++stats.inexact_sequences;
        return;
    }
    if (n.oversized_block && remaining == errc::block_invalid) {
        ++stats.oversized_block;
        return;
    }
    if (n.zero_offset && remaining == errc::offset_invalid) {
        ++stats.zero_offset;
        return;
    }
    if (n.zero_count_trailing && remaining == errc::sequences_invalid) {
        ++stats.zero_count_trailing;
        return;
    }
    fail("libzstd decodes %zu bytes, zest fails: %s%s%s", ref.out.size(), zest::error_message(error),
         remaining != error ? ", and on the rewritten input: " : "",
         remaining != error ? zest::error_message(remaining) : "");
}

// The input without content checksums (flag cleared, 4 bytes dropped), or
// an empty vector when it has none. Mutations nearly always break the
// checksum, and then both decoders reject the input before any output is
// compared; without it, the outputs of the damaged frames are compared too.
std::vector<u8> strip_checksums(std::span<const u8> src) {
    std::vector<u8> out;
    bool stripped = false;
    const u8* p = src.data();
    const u8* const end = src.data() + src.size();
    while (p != end) {
        const std::size_t left = std::size_t(end - p);
        if (left < 8 && (left < 5 || le32(p) != zstd_magic)) break;
        const std::uint32_t magic = le32(p);
        if (is_skippable_magic(magic)) {
            if (le32(p + 4) > left - 8) break;
            out.insert(out.end(), p, p + 8 + le32(p + 4));
            p += 8 + le32(p + 4);
            continue;
        }
        if (magic != zstd_magic) break;
        const unsigned fhd = p[4];
        const bool single = fhd & 0x20;
        static constexpr unsigned did_bytes[4] = {0, 1, 2, 4}, fcs_bytes[4] = {0, 2, 4, 8};
        const std::size_t header =
            5 + !single + did_bytes[fhd & 3] + (fhd >> 6 == 0 ? (single ? 1 : 0) : fcs_bytes[fhd >> 6]);
        if (left < header) break;
        const u8* q = p + header;
        const std::size_t at = out.size();
        out.insert(out.end(), p, q);
        for (;;) {
            if (end - q < 3) return {};
            const std::uint32_t bh = le24(q);
            const std::size_t body = ((bh >> 1) & 3) == 1 ? 1 : bh >> 3;
            if (std::size_t(end - q - 3) < body) return {};
            out.insert(out.end(), q, q + 3 + body);
            q += 3 + body;
            if (bh & 1) break;
        }
        p = q;
        if (fhd & 0x04) {
            if (end - p < 4) return {};
            out[at + 4] = u8(fhd & ~0x04u);
            p += 4;
            stripped = true;
        }
    }
    if (!stripped) return {};
    out.insert(out.end(), p, end);
    return out;
}

// --- one input --------------------------------------------------------------------------

zest::decompressor& long_lived() {
    static zest::decompressor d;  // reused across inputs and errors
    return d;
}

void check(std::span<const u8> src) {
    ++stats.runs;
    check_inspection(src);

    const std::size_t cap = choose_capacity(src);
    const outcome z = run_zest(src, cap, nullptr);
    {
        zest::decompressor fresh;
        const outcome f = run_zest(src, cap, &fresh);
        if (!same(z, f)) fail("one-shot: %s, fresh decompressor: %s", describe(z).c_str(), describe(f).c_str());
        const outcome l = run_zest(src, cap, &long_lived());
        if (!same(z, l)) fail("one-shot: %s, reused decompressor: %s", describe(z).c_str(), describe(l).c_str());
    }
    if (z.ok) {
        // Exactly enough room, then one byte less and about half.
        const std::size_t n = z.out.size();
        const outcome exact = run_zest(src, n, nullptr);
        if (!same(z, exact))
            fail("capacity %zu: %s, capacity %zu: %s", cap, describe(z).c_str(), n, describe(exact).c_str());
        for (const std::size_t small : {n - 1, n / 2}) {
            if (n == 0 || small >= n) continue;
            const outcome o = run_zest(src, small, nullptr);
            if (o.ok || o.error != errc::destination_too_small)
                fail("output of %zu bytes into a capacity of %zu: %s", n, small, describe(o).c_str());
        }
    }
    // The vector overload grows with the output: only where the bounded
    // decode did not run out of room (so a decompression bomb stays bounded).
    if (z.ok || z.error != errc::destination_too_small) {
        const outcome v = run_zest_vector(src);
        if (!same(z, v)) fail("into a buffer: %s, vector overload: %s", describe(z).c_str(), describe(v).c_str());
    }

    const outcome ref = run_libzstd(src, cap);
    static const bool verbose = std::getenv("ZEST_FUZZ_VERBOSE") != nullptr;
    if (verbose)
        std::fprintf(stderr, "%zu bytes in, capacity %zu: zest %s; %s\n", src.size(), cap, describe(z).c_str(),
                     describe(ref).c_str());
    if (z.ok && ref.ok) {
        ++stats.both_ok;
        // Self-check of the classifier: a frame both accept has no anomaly.
        const normalized n = normalize(src);
        if (n.inexact_huffman || n.truncated_states || n.inexact_sequences || n.oversized_block || n.zero_offset ||
            n.zero_count_trailing || n.compressed_above_window)
            fail("classifier bug: anomaly reported in a valid input");
        if (z.out != ref.out) {
            std::size_t i = 0;
            while (i < z.out.size() && i < ref.out.size() && z.out[i] == ref.out[i]) ++i;
            fail("zest and libzstd decode differently: %zu vs %zu bytes, first difference at %zu", z.out.size(),
                 ref.out.size(), i);
        }
    } else if (z.ok) {
        // Known difference 11: a compressed block whose Block_Size is above
        // min(Window_Size, 128 KiB) while its decoded size fits. zest bounds
        // a compressed block's size by 128 KiB only (so that the errata's
        // 2-byte empty block decodes in a frame of content size 0); libzstd
        // bounds it by the window too (srcSize_wrong). Only an input that
        // has such a block passes, and only if libzstd, given the same
        // frames with the window raised to 128 KiB (nothing else changes
        // for an input zest accepts), decodes exactly zest's bytes.
        const normalized n = normalize(src);
        if (!n.compressed_above_window)
            fail("zest decodes %zu bytes, libzstd fails: %s", z.out.size(), ZSTD_getErrorName(ref.zstd_error));
        const outcome again = run_libzstd(n.bytes, cap);
        if (!again.ok)
            fail("a compressed block above a small window; with the window raised libzstd still fails: %s",
                 ZSTD_getErrorName(again.zstd_error));
        if (again.out != z.out) fail("a compressed block above a small window: libzstd decodes other bytes");
        ++stats.compressed_above_window;
    } else if (ref.ok) {
        check_libzstd_only(src, ref, z.error, cap);
    } else {
        ++stats.both_fail;
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    check({data, size});
    const std::vector<u8> unchecked = strip_checksums({data, size});
    if (!unchecked.empty()) check(unchecked);
    return 0;
}
