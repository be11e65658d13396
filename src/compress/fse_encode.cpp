#include "compress/fse_encode.hpp"

#include <cmath>
#include <cstring>

#include "common/fse.hpp"

namespace zest::detail {

namespace {

unsigned highbit64(std::uint64_t v) noexcept { return 63u - unsigned(__builtin_clzll(v)); }

// Cost in bits of one occurrence of a symbol holding p of the table's cells.
double symbol_cost(unsigned p, unsigned table_log) noexcept { return double(table_log) - std::log2(double(p)); }

}  // namespace

unsigned fse_table_log(unsigned max_log, std::size_t total, unsigned max_symbol, unsigned source_margin) noexcept {
    unsigned log = max_log;
    if (total > 1) {
        // A table much larger than the number of symbols it codes buys
        // precision that its description then costs more than it saves.
        const unsigned h = highbit64(total - 1);
        const unsigned source_bound = h > source_margin ? h - source_margin : 0;
        if (source_bound < log) log = source_bound;
    }
    // ...but it must still hold every symbol that can occur.
    const unsigned for_source = total > 0 ? highbit64(total) + 1 : 1;
    const unsigned for_symbols = highbit64(max_symbol | 1u) + 2;
    const unsigned need = for_source < for_symbols ? for_source : for_symbols;
    if (log < need) log = need;
    if (log > max_log) log = max_log;
    if (log < fse_min_table_log) log = fse_min_table_log;
    return log;
}

errc fse_normalize(std::int16_t* norm, unsigned table_log, const std::uint32_t* counts, std::size_t total,
                   unsigned max_symbol, bool low_probability) noexcept {
    if (table_log < fse_min_table_log || table_log > fse_max_accuracy_log || max_symbol >= fse_max_symbols ||
        total == 0)
        return errc::invalid_argument;
    const std::uint32_t size = 1u << table_log;

    // Quick path: shares rounded to nearest (at least one cell each), and
    // the rounding error absorbed by the most frequent symbol when that
    // changes it little. Most tables end here; the rest get the exact search.
    // The loops select rather than branch: which counts are zero, rare or
    // the largest is data.
    {
        int left = int(size);
        unsigned largest = 0;
        std::uint32_t largest_count = 0;
        std::uint64_t seen = 0;
        const std::uint64_t rare = low_probability ? total >> table_log : 0;  // below one cell's worth
        const std::uint64_t step = (std::uint64_t(1) << 62) / total;
        for (unsigned s = 0; s <= max_symbol; ++s) {
            const std::uint32_t c = counts[s];
            seen += c;
            // c * 2^table_log / total to nearest, by a reciprocal (c <= total
            // keeps the product below 2^62); 0 only for a count of 0.
            std::uint64_t p = ((std::uint64_t(c) * step >> (61 - table_log)) + 1) >> 1;
            p += std::uint64_t((p == 0) & (c != 0));
            const bool is_rare = (c != 0) & (c <= rare);  // "less than 1": one cell
            norm[s] = is_rare ? std::int16_t(-1) : std::int16_t(p);
            left -= is_rare ? 1 : int(p);
            const bool larger = (c > largest_count) & !is_rare;
            largest_count = larger ? c : largest_count;
            largest = larger ? s : largest;
        }
        if (seen != total) return errc::invalid_argument;
        if (largest_count != 0 && norm[largest] + left >= 1 && 4 * (left < 0 ? -left : left) <= norm[largest]) {
            norm[largest] = std::int16_t(norm[largest] + left);
            return ok;
        }
        // Otherwise move single cells by the first-order cost: a cell is
        // worth about count / cells to a symbol, so add where that is highest
        // and take where it is lowest (integer comparisons, no logarithms;
        // ties go to the lowest symbol). Only symbols that can give or take
        // a cell are looked at.
        const bool add = left > 0;
        const int floor = add ? 1 : 2;  // a symbol keeps at least one cell
        std::uint8_t movable[fse_max_symbols];
        unsigned n_movable = 0;
        for (unsigned s = 0; s <= max_symbol; ++s) {
            movable[n_movable] = std::uint8_t(s);
            n_movable += unsigned(norm[s] >= floor);
        }
        while (left != 0 && n_movable != 0) {
            unsigned pick = movable[0];
            for (unsigned k = 1; k < n_movable; ++k) {
                const unsigned s2 = movable[k];
                // counts[s2] / norm[s2] against counts[pick] / norm[pick]
                const std::uint64_t a = std::uint64_t(counts[s2]) * std::uint64_t(norm[pick]);
                const std::uint64_t b2 = std::uint64_t(counts[pick]) * std::uint64_t(norm[s2]);
                pick = (add ? a > b2 : a < b2) ? s2 : pick;
            }
            norm[pick] = std::int16_t(norm[pick] + (add ? 1 : -1));
            left += add ? -1 : 1;
            if (!add && norm[pick] < floor) {  // it has given all it can
                unsigned k = 0;
                while (movable[k] != pick) ++k;
                for (; k + 1 < n_movable; ++k) movable[k] = movable[k + 1];
                --n_movable;
            }
        }
        if (left == 0) return ok;
    }

    // Minimises the coded size sum(count * -log2(p / size)) over integer
    // p >= 1 summing to size: the cost is convex in each p, so starting from
    // the rounded-down shares and moving one cell at a time to wherever it
    // helps (or hurts) most reaches the optimum.
    std::uint8_t present[fse_max_symbols];
    unsigned n_present = 0;
    std::uint64_t sum = 0;
    int remaining = int(size);
    for (unsigned s = 0; s <= max_symbol; ++s) {
        norm[s] = 0;
        if (counts[s] == 0) continue;
        sum += counts[s];
        const std::uint64_t share = (std::uint64_t(counts[s]) << table_log) / total;
        if (share == 0 && low_probability) {
            // Costs table_log bits like a count of 1, and keeps out of the
            // spread (the format's "less than 1").
            norm[s] = -1;
            --remaining;
            continue;
        }
        const unsigned p = share == 0 ? 1u : unsigned(share);
        norm[s] = std::int16_t(p);
        remaining -= int(p);
        present[n_present++] = std::uint8_t(s);
    }
    if (sum != total) return errc::invalid_argument;

    if (n_present == 0) return remaining == 0 ? ok : errc::invalid_argument;

    // What one more cell saves, and what one cell less costs, per symbol.
    double gain[fse_max_symbols], loss[fse_max_symbols];
    auto update = [&](unsigned s) {
        const double c = double(counts[s]), p = double(norm[s]);
        gain[s] = c * std::log2((p + 1) / p);
        loss[s] = norm[s] < 2 ? HUGE_VAL : c * std::log2(p / (p - 1));
    };
    for (unsigned i = 0; i < n_present; ++i) update(present[i]);
    auto best_gain = [&] {
        unsigned best = present[0];
        for (unsigned i = 1; i < n_present; ++i)
            if (gain[present[i]] > gain[best]) best = present[i];
        return best;
    };
    auto least_loss = [&](unsigned except) {
        unsigned best = fse_max_symbols;
        for (unsigned i = 0; i < n_present; ++i) {
            const unsigned s = present[i];
            if (s != except && (best == fse_max_symbols || loss[s] < loss[best])) best = s;
        }
        return best;
    };
    for (; remaining > 0; --remaining) {
        const unsigned s = best_gain();
        ++norm[s];
        update(s);
    }
    for (; remaining < 0; ++remaining) {
        const unsigned s = least_loss(fse_max_symbols);
        if (loss[s] == HUGE_VAL) return errc::invalid_argument;  // more symbols than cells
        --norm[s];
        update(s);
    }
    // Symbols raised to one cell above can leave the others off their
    // optimum: move single cells while that lowers the cost (each move
    // does, so this ends; with a convex cost no move left means optimal).
    for (unsigned moves = 0; moves < 4 * size; ++moves) {
        const unsigned to = best_gain(), from = least_loss(to);
        if (from == fse_max_symbols || !(gain[to] > loss[from] * (1 + 1e-12))) break;
        ++norm[to];
        --norm[from];
        update(to);
        update(from);
    }
    return ok;
}

std::size_t fse_write_description(std::uint8_t* dst, std::size_t capacity, const std::int16_t* norm,
                                  unsigned max_symbol, unsigned table_log) noexcept {
    if (table_log < fse_min_table_log || table_log > 15 || max_symbol >= fse_max_symbols) return 0;
    std::uint8_t* out = dst;
    std::uint8_t* const end = dst + capacity;
    std::uint32_t acc = 0;  // pending bits, low first
    unsigned count = 0;
    bool overflow = false;
    // Fields are at most 16 bits, so the accumulator never holds more than 23.
    auto put = [&](std::uint32_t value, unsigned n) {
        acc |= value << count;
        count += n;
        while (count >= 8) {
            if (out < end)
                *out++ = std::uint8_t(acc);
            else
                overflow = true;
            acc >>= 8;
            count -= 8;
        }
    };

    put(table_log - fse_min_table_log, 4);
    int remaining = (1 << table_log) + 1;  // as the reader counts: points left, plus one
    unsigned s = 0;
    while (remaining > 1) {
        if (s > max_symbol) return 0;  // the counts do not add up to the table size
        // The value (count + 1) is in [0, remaining]; the reader takes the
        // lowest `low_count` values one bit shorter, and shifts the values
        // above half_mask up by low_count in the full-width range.
        const std::uint32_t value = std::uint32_t(norm[s] + 1);
        const unsigned bits = highbit64(std::uint64_t(remaining)) + 1;
        const std::uint32_t low_count = (1u << bits) - 1 - std::uint32_t(remaining);
        const std::uint32_t half_mask = (1u << (bits - 1)) - 1;
        if (value > std::uint32_t(remaining)) return 0;
        if (value < low_count)
            put(value, bits - 1);
        else if (value <= half_mask)
            put(value, bits);
        else
            put(value + low_count, bits);
        remaining -= norm[s] < 0 ? -norm[s] : norm[s];
        ++s;
        if (norm[s - 1] == 0) {
            // A zero is followed by 2-bit counts of further zeros, 3 meaning
            // "3, and another count follows".
            unsigned zeros = 0;
            while (s + zeros <= max_symbol && norm[s + zeros] == 0) ++zeros;
            s += zeros;
            while (zeros >= 3) {
                put(3, 2);
                zeros -= 3;
            }
            put(zeros, 2);
        }
    }
    if (remaining != 1) return 0;
    if (count > 0) put(0, 8 - count);
    return overflow ? 0 : std::size_t(out - dst);
}

void fse_build_ctable(fse_ctable& ct, const std::int16_t* norm, unsigned max_symbol, unsigned table_log) noexcept {
    ct.table_log = table_log;
    if (table_log > fse_max_accuracy_log || max_symbol >= fse_max_symbols) return;  // beyond the table's room
    const std::uint32_t size = 1u << table_log;

    // Encoder state V = decoder state + size, in [size, 2 size). Encoding
    // symbol s from V writes the nb low bits of V, where V >> nb falls in
    // [c, 2c) (c = s's cells), and moves to the state whose x (its rank
    // among s's states, plus c) is V >> nb: the decoder's transition read
    // backwards. state_table lists each symbol's states by x, from cumul[s].
    std::uint32_t cumul[fse_max_symbols + 1];
    cumul[0] = 0;
    bool rare = false;  // a "less than 1" symbol
    for (unsigned s = 0; s <= max_symbol; ++s) {
        rare |= norm[s] == -1;
        const std::uint32_t c = norm[s] == -1 ? 1u : std::uint32_t(norm[s] < 0 ? 0 : norm[s]);
        cumul[s + 1] = cumul[s] + c;
    }
    if (cumul[max_symbol + 1] != size) return;  // callers pass normalised counts
    std::uint32_t fill[fse_max_symbols];
    std::memcpy(fill, cumul, sizeof(std::uint32_t) * (max_symbol + 1));
    if (!rare) {
        // The spread the decoder makes (spread_fse_symbols) puts the i-th
        // cell in symbol order at i * step (mod size). The step is odd, so
        // cell u holds the cell numbered u * step^-1: the symbols are read
        // in place, in the order of u, with no table of the spread between.
        std::uint8_t in_order[(1u << fse_max_accuracy_log) + 8];
        for (unsigned s = 0; s <= max_symbol; ++s) {
            const std::uint64_t eight = 0x0101010101010101ull * s;
            for (std::uint32_t i = cumul[s]; i < cumul[s + 1]; i += 8) std::memcpy(in_order + i, &eight, 8);
        }
        const std::uint32_t mask = size - 1, step = fse_spread_step(size);
        std::uint32_t inverse = step;  // Newton's iteration: each doubles the correct low bits (3 to start)
        for (int k = 0; k < 3; ++k) inverse *= 2 - step * inverse;
        for (std::uint32_t u = 0; u < size; ++u)
            ct.state_table[fill[in_order[(u * inverse) & mask]]++] = std::uint16_t(u + size);
    } else {
        // The decoder's own spread, so that the two sides agree by construction.
        fse_distribution d;
        std::memcpy(d.count, norm, sizeof(std::int16_t) * (max_symbol + 1));
        d.max_symbol = max_symbol;
        d.accuracy_log = table_log;
        std::uint8_t symbols[1u << fse_max_accuracy_log];
        std::uint16_t next[fse_max_symbols];
        if (spread_fse_symbols(d, symbols, next) != ok) return;
        for (std::uint32_t u = 0; u < size; ++u) ct.state_table[fill[symbols[u]]++] = std::uint16_t(u + size);
    }

    // Symbols above max_symbol keep whatever they held: nothing encodes them.
    // Absent symbols (no cell) are not encodable; they get the values of a
    // one-cell symbol, which keep an erroneous call in bounds, with no
    // branch on which symbols are absent.
    for (unsigned s = 0; s <= max_symbol; ++s) {
        const std::int32_t c = norm[s] == -1 ? 1 : norm[s];
        const std::uint32_t cells = c > 0 ? std::uint32_t(c) : 1u;
        auto& t = ct.symbol[s];
        // nb is the smallest n with c << n >= size (call it hi), or hi - 1
        // when V < c << hi: nb = (V + (hi << 16) - (c << hi)) >> 16, since
        // V - (c << hi) lies in (-2^16, 2^16). hi = table_log - highbit(c).
        const unsigned hi = table_log - highbit32(cells);
        t.delta_nb_bits = (std::uint32_t(hi) << 16) - (cells << hi);
        t.delta_find_state = c > 0 ? std::int32_t(cumul[s]) - c : 0;
    }
}

std::size_t fse_estimated_bits(const std::int16_t* norm, unsigned table_log, const std::uint32_t* counts,
                               unsigned max_symbol) noexcept {
    double bits = 0;
    for (unsigned s = 0; s <= max_symbol; ++s) {
        if (counts[s] == 0) continue;
        if (norm[s] == 0) return SIZE_MAX;  // the table cannot code this symbol
        const unsigned p = norm[s] < 0 ? 1u : unsigned(norm[s]);
        bits += double(counts[s]) * symbol_cost(p, table_log);
    }
    return std::size_t(std::ceil(bits));
}


}  // namespace zest::detail
