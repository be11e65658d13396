#include "compress/literals_encode.hpp"

#include <cstring>

#include "common/bits.hpp"
#include "common/huffman.hpp"

namespace zest::detail {
namespace {

enum literals_type : unsigned { raw = 0, rle = 1, compressed = 2, treeless = 3 };

// Raw and RLE headers: 1, 2 or 3 bytes by size.
std::size_t plain_header_size(std::size_t n) noexcept { return n < 32 ? 1 : n < 4096 ? 2 : 3; }

std::size_t write_plain_header(std::uint8_t* dst, literals_type type, std::size_t n) noexcept {
    if (n < 32) {
        dst[0] = std::uint8_t(type | n << 3);
        return 1;
    }
    if (n < 4096) {
        const std::uint32_t h = type | 1u << 2 | std::uint32_t(n) << 4;
        dst[0] = std::uint8_t(h), dst[1] = std::uint8_t(h >> 8);
        return 2;
    }
    const std::uint32_t h = type | 3u << 2 | std::uint32_t(n) << 4;
    dst[0] = std::uint8_t(h), dst[1] = std::uint8_t(h >> 8), dst[2] = std::uint8_t(h >> 16);
    return 3;
}

std::size_t write_raw(std::uint8_t* dst, std::size_t capacity, const std::uint8_t* lits, std::size_t n) noexcept {
    const std::size_t h = plain_header_size(n);
    if (capacity < h + n) return 0;
    write_plain_header(dst, raw, n);
    if (n) std::memcpy(dst + h, lits, n);
    return h + n;
}

// Compressed and treeless headers: sizes of 10, 14 or 18 bits each.
std::size_t compressed_header_size(std::size_t n, bool single) noexcept {
    if (single || n < 1024) return 3;
    return n < 16384 ? 4 : 5;
}
void write_compressed_header(std::uint8_t* dst, literals_type type, std::size_t n, std::size_t csize,
                             bool single) noexcept {
    const std::size_t h = compressed_header_size(n, single);
    const unsigned bits = h == 3 ? 10 : h == 4 ? 14 : 18;
    const unsigned size_format = single ? 0 : h - 2;  // 1, 2 or 3 for four streams
    std::uint64_t v = type | size_format << 2 | std::uint64_t(n) << 4 | std::uint64_t(csize) << (4 + bits);
    for (std::size_t i = 0; i < h; ++i) dst[i] = std::uint8_t(v >> (8 * i));
}

unsigned highest_present(const std::uint32_t* counts) noexcept;

// From this many literals the histogram is counted in four tables
// (below, one table's clearing and summing cost more than the waits).
constexpr std::size_t count_split_min = 256;

// Byte histogram. Four tables take turns, so that a run of one byte value
// does not make each increment wait for the previous one's store; their
// entries are 16-bit (each table counts at most a quarter of a block's
// literals), which halves what is cleared and summed. Returns the largest
// byte value present (0 when n = 0) and, in `most`, the highest count.
unsigned count_bytes(std::uint32_t* counts, const std::uint8_t* p, std::size_t n, std::uint32_t& most) noexcept {
    static_assert(literals_max / 4 + 3 < 65536, "a table's counts must fit 16 bits");
    if (n < count_split_min) {
        // Few bytes: one table, whose highest count and symbol are kept
        // while counting (reading the fresh counts back in vectors would
        // wait for each store to land).
        std::memset(counts, 0, 256 * sizeof *counts);
        std::uint32_t m = 0;
        unsigned top = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint32_t k = ++counts[p[i]];
            m = k > m ? k : m;
            top = p[i] > top ? p[i] : top;
        }
        most = m;
        return top;
    }
    std::uint16_t c[4][256] = {};
    std::size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        std::uint32_t v;
        std::memcpy(&v, p + i, 4);
        ++c[0][v & 0xFF];
        ++c[1][(v >> 8) & 0xFF];
        ++c[2][(v >> 16) & 0xFF];
        ++c[3][v >> 24];
    }
    for (; i < n; ++i) ++c[0][p[i]];
    // The sums and their maximum, without a test on each count (the loop
    // vectorises); then the largest symbol, from the top, eight at a time.
    std::uint32_t m = 0;
    for (unsigned s = 0; s < 256; ++s) {
        const std::uint32_t k = std::uint32_t(c[0][s]) + c[1][s] + c[2][s] + c[3][s];
        counts[s] = k;
        m = k > m ? k : m;
    }
    most = m;
    return highest_present(counts);
}

// The largest symbol whose count is not 0 (0 when none is).
unsigned highest_present(const std::uint32_t* counts) noexcept {
    unsigned top = 256;
    for (; top > 8; top -= 8) {
        std::uint32_t any = 0;
        for (unsigned k = 1; k <= 8; ++k) any |= counts[top - k];
        if (any) break;
    }
    unsigned max_symbol = top - 1;
    while (max_symbol > 0 && counts[max_symbol] == 0) --max_symbol;
    return max_symbol;
}

}  // namespace

namespace {

// The longest code length, from the fewest that can code every symbol up to
// the format's 11, whose table description and streams (estimated) are
// smallest; the search stops once sizes grow. `t` and `scratch` are work
// space.
unsigned smallest_depth(const std::uint32_t* counts, unsigned max_symbol, huffman_ctable& t,
                        std::uint8_t (&scratch)[256]) noexcept {
    unsigned present = 0;
    for (unsigned s = 0; s <= max_symbol; ++s) present += counts[s] != 0;
    const unsigned fewest = highbit32(present) + 1;
    std::size_t best = SIZE_MAX - 1;
    unsigned best_log = huf_max_bits;
    for (unsigned log = fewest; log <= huf_max_bits; ++log) {
        const unsigned used = build_huffman_ctable(counts, max_symbol, log, t);
        if (used == 0) continue;
        if (used < log && log > fewest) break;  // deeper trees come out the same
        const std::size_t d = write_huffman_description(scratch, sizeof scratch, t);
        if (d == 0) continue;
        const std::size_t size = huffman_encoded_bits(t, counts, max_symbol) / 8 + d;
        if (size > best + 1) break;
        if (size < best) best = size, best_log = log;
    }
    return best_log;
}

}  // namespace

std::size_t encode_literals(std::uint8_t* dst, std::size_t capacity, const std::uint8_t* lits, std::size_t n,
                            const literals_entropy& prev, literals_entropy& next, bool huffman,
                            unsigned gain_log, bool optimal_depth, bool prefer_repeat) noexcept {
    // Raw and RLE literals leave the decoder's table as it was (`next` is
    // only written over when a new table is built).
    const auto raw_instead = [&] {
        next.assign(prev);
        return write_raw(dst, capacity, lits, n);
    };
    if (n > literals_max) return 0;
    if (!huffman) return raw_instead();
    // Too few literals to pay for a table (the reference's thresholds): raw.
    if (n < (prev.valid ? 6u : 64u)) return raw_instead();

    std::uint32_t counts[256];
    std::uint32_t most;
    const unsigned max_symbol = count_bytes(counts, lits, n, most);
    if (most == n) {  // one byte repeated
        next.assign(prev);
        const std::size_t h = plain_header_size(n);
        if (capacity < h + 1) return 0;
        write_plain_header(dst, rle, n);
        dst[h] = lits[0];
        return h + 1;
    }

    // A new table (built in `next`, which keeps it only if it is used), or
    // the previous one if it covers these literals and costs less. Few
    // literals keep a table that covers them without a new one being
    // built, when the caller prefers that (the reference's rule of thumb).
    std::uint8_t description[256];
    std::size_t description_size = 0;
    bool reuse = prefer_repeat && prev.valid && huffman_covers(*prev.table, counts, max_symbol);
    if (!reuse) {
        const unsigned max_bits = optimal_depth ? smallest_depth(counts, max_symbol, next.own, description)
                                                : huffman_max_bits(n, max_symbol);
        next.valid = build_huffman_ctable(counts, max_symbol, max_bits, next.own) != 0;
        next.table = &next.own;
        std::size_t new_cost = SIZE_MAX, repeat_cost = SIZE_MAX;
        if (next.valid) {
            description_size = write_huffman_description(description, sizeof description, next.own);
            if (description_size)
                new_cost = description_size + (huffman_encoded_bits(next.own, counts, max_symbol) + 7) / 8;
        }
        if (prev.valid && huffman_covers(*prev.table, counts, max_symbol))
            repeat_cost = (huffman_encoded_bits(*prev.table, counts, max_symbol) + 7) / 8;
        if (new_cost == SIZE_MAX && repeat_cost == SIZE_MAX) return raw_instead();
        reuse = repeat_cost <= new_cost;
    }
    // One stream below 256 literals; below 1 KiB too when a table is
    // repeated (as the reference does with a dictionary's), which spares
    // the jump table and the streams' padding.
    const bool single = n < 256 || (reuse && n < 1024);
    const huffman_ctable& table = reuse ? *prev.table : next.own;
    const std::size_t h = compressed_header_size(n, single);
    const std::size_t tree = reuse ? 0 : description_size;
    if (capacity < h + tree + 8) return raw_instead();
    std::memcpy(dst + h, description, tree);
    std::uint8_t* const streams = dst + h + tree;
    const std::size_t room = capacity - h - tree;
    const std::size_t csize = single ? huffman_encode_1x(streams, room, lits, n, table)
                                     : huffman_encode_4x(streams, room, lits, n, table);
    // The compressed size field holds the tree description and the streams.
    const std::size_t limit = h == 3 ? 1023 : h == 4 ? 16383 : 262143;
    // Kept when the tree and streams save min_gain over the raw bytes (the
    // reference's rule, which leaves the headers out).
    if (csize == 0 || tree + csize > limit || tree + csize + min_gain(n, gain_log) >= n) return raw_instead();
    write_compressed_header(dst, reuse ? treeless : compressed, n, tree + csize, single);
    if (reuse) next.assign(prev);
    return h + tree + csize;
}

}  // namespace zest::detail
