#include "common/fse.hpp"

#include <cstring>

namespace zest::detail {

namespace {
// Forward little-endian bit reader over a bounded buffer; bits past the end
// read as zero and are caught by the position check at the end.
struct forward_bits {
    const std::uint8_t* src;
    std::size_t size;
    std::size_t bitpos = 0;

    std::uint32_t peek(unsigned n) const noexcept {
        const std::size_t byte = bitpos >> 3;
        std::uint64_t v;
        if (ZEST_LIKELY(byte + 8 <= size)) {
            v = load_le64(src + byte);  // one load away from the end
        } else {
            v = 0;
            for (std::size_t i = 0; i < 4 && byte + i < size; ++i) v |= std::uint64_t(src[byte + i]) << (8 * i);
        }
        return std::uint32_t((v >> (bitpos & 7)) & ((1u << n) - 1));
    }
    void skip(unsigned n) noexcept { bitpos += n; }
};
}  // namespace

errc read_fse_distribution(const std::uint8_t* src, std::size_t size, unsigned max_accuracy_log,
                           unsigned max_symbol_allowed, fse_distribution& out, std::size_t& used) noexcept {
    if (size == 0) return errc::fse_invalid;
    forward_bits in{src, size};
    const unsigned log = in.peek(4) + 5;
    in.skip(4);
    if (log > max_accuracy_log) return errc::fse_invalid;
    out.accuracy_log = log;

    int remaining = (1 << log) + 1;  // probability points left, plus one
    unsigned symbol = 0;
    while (remaining > 1) {
        if (symbol > max_symbol_allowed) return errc::fse_invalid;
        // Values 0..remaining are possible: `bits` wide, where the lowest
        // `low_count` values take one bit less.
        const unsigned bits = highbit32(std::uint32_t(remaining)) + 1;
        const std::uint32_t max_value = std::uint32_t(remaining);
        const std::uint32_t low_count = (1u << bits) - 1 - max_value;
        const std::uint32_t half_mask = (1u << (bits - 1)) - 1;
        std::uint32_t v = in.peek(bits);
        if ((v & half_mask) < low_count) {
            v &= half_mask;
            in.skip(bits - 1);
        } else {
            if (v > half_mask) v -= low_count;
            in.skip(bits);
        }
        const int proba = int(v) - 1;
        out.count[symbol++] = std::int16_t(proba);
        remaining -= proba < 0 ? -proba : proba;
        if (proba == 0) {
            // A zero is followed by 2-bit repeat counts of further zeros.
            for (;;) {
                const unsigned rep = in.peek(2);
                in.skip(2);
                if (symbol + rep > max_symbol_allowed + 1) return errc::fse_invalid;
                for (unsigned i = 0; i < rep; ++i) out.count[symbol++] = 0;
                if (rep != 3) break;
                if (in.bitpos > size * 8) return errc::fse_invalid;
            }
        }
        if (in.bitpos > size * 8) return errc::fse_invalid;
    }
    if (remaining != 1) return errc::fse_invalid;
    if (in.bitpos > size * 8) return errc::fse_invalid;
    out.max_symbol = symbol - 1;
    used = (in.bitpos + 7) >> 3;
    return ok;
}

errc spread_fse_symbols(const fse_distribution& d, std::uint8_t* symbols, std::uint16_t* next) noexcept {
    const unsigned log = d.accuracy_log;
    const std::uint32_t size = 1u << log;
    const std::uint32_t mask = size - 1;
    const std::uint32_t step = fse_spread_step(size);
    std::uint32_t high = size - 1;

    // "Less than 1" symbols take single cells from the top of the table.
    std::uint32_t total = 0;
    for (unsigned s = 0; s <= d.max_symbol; ++s) {
        if (d.count[s] == -1) {
            symbols[high--] = std::uint8_t(s);
            next[s] = 1;
        } else {
            next[s] = std::uint16_t(d.count[s] < 0 ? 0 : d.count[s]);
            total += next[s];
        }
    }
    if (total != high + 1) return errc::fse_invalid;  // counts do not tile the table

    if (high == size - 1) {
        // No "less than 1" symbol, so every step lands inside the table:
        // lay the symbols out in order (8 bytes at a time), then place them
        // two per iteration, which halves the chain of dependent positions.
        std::uint8_t in_order[(1u << fse_max_accuracy_log) + 8];
        std::uint32_t at = 0;
        for (unsigned s = 0; s <= d.max_symbol; ++s) {
            const std::uint64_t eight = 0x0101010101010101ull * s;
            for (std::uint32_t i = 0; i < next[s]; i += 8) std::memcpy(in_order + at + i, &eight, 8);
            at += next[s];
        }
        std::uint32_t pos = 0;
        for (std::uint32_t i = 0; i < size; i += 2) {  // size >= 32
            symbols[pos] = in_order[i];
            symbols[(pos + step) & mask] = in_order[i + 1];
            pos = (pos + 2 * step) & mask;
        }
        return ok;
    }
    std::uint32_t pos = 0;
    for (unsigned s = 0; s <= d.max_symbol; ++s) {
        for (int i = 0; i < d.count[s]; ++i) {
            symbols[pos] = std::uint8_t(s);
            do {
                pos = (pos + step) & mask;
            } while (pos > high);
        }
    }
    return pos == 0 ? ok : errc::fse_invalid;
}

errc build_fse_cells(const fse_distribution& d, fse_cell* cells) noexcept {
    std::uint8_t symbols[1u << fse_max_accuracy_log];
    std::uint16_t next[fse_max_symbols];
    ZEST_TRY(spread_fse_symbols(d, symbols, next));
    const unsigned log = d.accuracy_log;
    for (std::uint32_t u = 0; u < (1u << log); ++u) {
        const unsigned s = symbols[u];
        unsigned nb;
        std::uint16_t baseline;
        fse_transition(next[s]++, log, nb, baseline);
        cells[u] = {baseline, std::uint8_t(s), std::uint8_t(nb)};
    }
    return ok;
}

}  // namespace zest::detail
