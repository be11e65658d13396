#include "common/huffman.hpp"

#include <cstring>

#include "common/bits.hpp"
#include "common/fse.hpp"

namespace zest::detail {

namespace {
constexpr unsigned max_fse_weight_log = 6;
constexpr unsigned max_encoded_weights = 255;

// Two interleaved FSE states over one backward stream; decoding stops when
// a state update runs past the stream's start (the format's end rule).
errc decode_fse_weights(const std::uint8_t* src, std::size_t size, huffman_weights& w) noexcept {
    fse_distribution dist;
    std::size_t header = 0;
    ZEST_TRY(read_fse_distribution(src, size, max_fse_weight_log, 255, dist, header));
    fse_cell cells[1u << max_fse_weight_log];
    ZEST_TRY(build_fse_cells(dist, cells));
    if (header >= size) return errc::huffman_invalid;

    backward_bit_reader br;
    if (!br.init(src + header, size - header)) return errc::huffman_invalid;
    const unsigned log = dist.accuracy_log;
    std::uint32_t s1 = std::uint32_t(br.read(log));
    std::uint32_t s2 = std::uint32_t(br.read(log));
    // Initial states need 2 * log bits; reading past the stream's start
    // yields garbage here. The format calls this corruption (libzstd up to
    // 1.5.6 read the missing bits as zeros, tests/known_differences.md).
    if (br.overflowed()) return errc::huffman_invalid;
    br.refill();
    unsigned n = 0;
    // While a whole 8-byte load remains, four weights per refill (at most
    // 4 * 6 bits of the 57 loaded), with none of the end checks below: the
    // bits are there, and the weights stay within what those checks allow.
    while (n + 6 <= max_encoded_weights && br.can_refill_fast()) {
        br.refill_fast();
        for (int k = 0; k < 2; ++k) {
            w.weight[n++] = cells[s1].symbol;
            s1 = cells[s1].baseline + std::uint32_t(br.read(cells[s1].nb_bits));
            w.weight[n++] = cells[s2].symbol;
            s2 = cells[s2].baseline + std::uint32_t(br.read(cells[s2].nb_bits));
        }
    }
    br.refill();
    for (;;) {
        if (n + 2 > max_encoded_weights) return errc::huffman_invalid;
        w.weight[n++] = cells[s1].symbol;
        s1 = cells[s1].baseline + std::uint32_t(br.read(cells[s1].nb_bits));
        br.refill();
        if (br.overflowed()) {
            w.weight[n++] = cells[s2].symbol;
            break;
        }
        if (n + 2 > max_encoded_weights) return errc::huffman_invalid;
        w.weight[n++] = cells[s2].symbol;
        s2 = cells[s2].baseline + std::uint32_t(br.read(cells[s2].nb_bits));
        br.refill();
        if (br.overflowed()) {
            w.weight[n++] = cells[s1].symbol;
            break;
        }
    }
    w.count = n;
    return ok;
}
}  // namespace

errc read_huffman_weights(const std::uint8_t* src, std::size_t size, huffman_weights& w,
                          std::size_t& used) noexcept {
    if (size == 0) return errc::truncated_input;
    const unsigned header = src[0];
    if (header < 128) {
        if (header == 0 || std::size_t(header) + 1 > size) return errc::huffman_invalid;
        ZEST_TRY(decode_fse_weights(src + 1, header, w));
        used = 1 + std::size_t(header);
        return ok;
    }
    const unsigned n = header - 127;
    const std::size_t bytes = (n + 1) / 2;
    if (bytes + 1 > size) return errc::huffman_invalid;
    for (unsigned i = 0; i < n; ++i) {
        const std::uint8_t b = src[1 + i / 2];
        w.weight[i] = (i & 1) ? (b & 15) : (b >> 4);
    }
    w.count = n;
    used = 1 + bytes;
    return ok;
}

errc build_huffman_table(huffman_weights& w, huffman_table& t) noexcept {
    // The weights sum (as 2^(w-1)) to just under a power of two; the implied
    // last symbol fills the gap, which must itself be a power of two.
    std::uint32_t rank_count[huf_max_table_log + 2] = {};
    std::uint32_t total = 0;
    for (unsigned i = 0; i < w.count; ++i) {
        const unsigned wt = w.weight[i];
        if (wt > huf_max_table_log) return errc::huffman_invalid;
        rank_count[wt]++;
        total += (1u << wt) >> 1;
    }
    if (total == 0) return errc::huffman_invalid;
    const unsigned max_bits = highbit32(total) + 1;
    if (max_bits > huf_max_table_log) return errc::huffman_invalid;
    const std::uint32_t rest = (1u << max_bits) - total;
    if (rest & (rest - 1)) return errc::huffman_invalid;
    const unsigned last = highbit32(rest) + 1;
    if (w.count >= 256) return errc::huffman_invalid;
    w.weight[w.count++] = std::uint8_t(last);
    rank_count[last]++;
    // A complete prefix code has an even, non-zero number of longest codes.
    if (rank_count[1] < 2 || (rank_count[1] & 1)) return errc::huffman_invalid;

    // Codes go to the lightest weights first, each symbol covering 2^(w-1)
    // consecutive entries, symbols in order within a weight. The symbols
    // are grouped by weight first, so that each weight's runs, all of one
    // length, are written by a loop made for that length.
    std::uint32_t first[huf_max_table_log + 2];  // index in `sorted` of each weight's first symbol
    first[0] = 0;
    for (unsigned wt = 1; wt <= huf_max_table_log + 1; ++wt) first[wt] = first[wt - 1] + rank_count[wt - 1];
    std::uint8_t sorted[256];
    {
        std::uint32_t next[huf_max_table_log + 2];
        std::memcpy(next, first, sizeof next);
        for (unsigned s = 0; s < w.count; ++s) sorted[next[w.weight[s]]++] = std::uint8_t(s);
    }
    std::uint16_t* p = t.entries;
    for (unsigned wt = 1; wt <= max_bits; ++wt) {
        const std::uint8_t* sym = sorted + first[wt];
        const std::uint32_t count = rank_count[wt];
        const std::uint16_t length = std::uint16_t(max_bits + 1 - wt);
        switch (wt) {
            case 1:
                for (std::uint32_t i = 0; i < count; ++i) p[i] = std::uint16_t(sym[i] << 8 | length);
                p += count;
                break;
            case 2:
                for (std::uint32_t i = 0; i < count; ++i) {
                    const std::uint32_t two = 0x00010001u * std::uint16_t(sym[i] << 8 | length);
                    std::memcpy(p, &two, 4);
                    p += 2;
                }
                break;
            default: {
                // 4 entries and more: whole groups of four, 8 bytes a store.
                const std::uint32_t len = 1u << (wt - 1);
                for (std::uint32_t i = 0; i < count; ++i) {
                    const std::uint64_t four = 0x0001000100010001ull * std::uint16_t(sym[i] << 8 | length);
                    for (std::uint32_t j = 0; j < len; j += 4) std::memcpy(p + j, &four, 8);
                    p += len;
                }
                break;
            }
        }
    }
    t.max_bits = max_bits;
    t.pairs_ready = false;
    return ok;
}

void build_huffman_pairs(huffman_table& t) noexcept {
    // After the first code, the rest of the index is the start of the next
    // code: a second symbol fits when its length fits in what is left. The
    // one-symbol table reads the top max_bits of a huf_max_bits index.
    if (t.max_bits > huf_max_bits) return;  // pairs_ready stays false
    const unsigned drop = huf_max_bits - t.max_bits;
    const std::uint32_t mask = (1u << huf_max_bits) - 1;
    for (std::uint32_t i = 0; i <= mask; ++i) {
        const std::uint16_t e1 = t.entries[i >> drop];
        const unsigned n1 = e1 & 0xFF;
        const std::uint16_t e2 = t.entries[((i << n1) & mask) >> drop];
        const unsigned n2 = e2 & 0xFF;
        if (n1 + n2 <= huf_max_bits)
            t.pairs[i] = (n1 + n2) | (2u << 8) | (std::uint32_t(e1 >> 8) << 16) | (std::uint32_t(e2 >> 8) << 24);
        else
            t.pairs[i] = n1 | (1u << 8) | (std::uint32_t(e1 >> 8) << 16);
    }
    t.pairs_ready = true;
}

}  // namespace zest::detail
