#include "compress/sequences_encode.hpp"

#include <algorithm>
#include <cstring>

#include "common/bits.hpp"
#include "common/seq_codes.hpp"
#include "compress/kernels.hpp"
#include "compress/length_codes.hpp"

namespace zest::detail {
namespace {

enum mode : unsigned { predefined = 0, rle = 1, compressed = 2, repeat = 3 };

struct symbol_type {
    const std::int16_t* default_norm;
    unsigned default_max;
    unsigned default_log;
    unsigned max_log;
};
constexpr symbol_type ll_type{ll_default, 35, ll_default_log, 9};
constexpr symbol_type of_type{of_default, 28, of_default_log, 8};
constexpr symbol_type ml_type{ml_default, 52, ml_default_log, 9};

// Encoding tables of the default distributions, built once.
struct default_ctables {
    fse_ctable ll, of, ml;
};
const default_ctables& defaults() noexcept {
    static const default_ctables t = [] {
        default_ctables d;
        fse_build_ctable(d.ll, ll_default, 35, ll_default_log);
        fse_build_ctable(d.of, of_default, 28, of_default_log);
        fse_build_ctable(d.ml, ml_default, 52, ml_default_log);
        return d;
    }();
    return t;
}

bool covers(const std::int16_t* norm, unsigned norm_max, const std::uint32_t* counts, unsigned max_symbol) noexcept {
    if (max_symbol > norm_max) return false;
    // Without a branch per symbol, which the counts would decide.
    unsigned missing = 0;
    for (unsigned s = 0; s <= max_symbol; ++s) missing |= unsigned(counts[s] != 0) & unsigned(norm[s] == 0);
    return missing == 0;
}

// The chosen table for one symbol type: its mode and the encoding table
// (none for RLE).
struct choice {
    unsigned mode = predefined;
    const fse_ctable* ct = nullptr;
};

// A table of our own: normalised counts and their description (into
// desc[0, capacity)). Returns the description's size, 0 when it cannot be made.
std::size_t describe_new_table(const symbol_type& type, const std::uint32_t* counts, unsigned max_symbol,
                               std::size_t n_seq, std::int16_t (&norm)[53], unsigned& log, std::uint8_t* desc,
                               std::size_t capacity) noexcept {
    log = fse_table_log(type.max_log, n_seq, max_symbol);
    for (auto& v : norm) v = 0;
    if (fse_normalize(norm, log, counts, n_seq, max_symbol, n_seq >= 2048) != ok) return 0;
    return fse_write_description(desc, capacity, norm, max_symbol, log);
}

// The decoder will hold the described table: `next` records it and builds
// its encoding table.
void adopt_new_table(const std::int16_t (&norm)[53], unsigned max_symbol, unsigned log, seq_table_state& next,
                     choice& c) noexcept {
    c.mode = compressed;
    next.repeat_ok = true;
    next.from_dictionary = false;
    next.max_symbol = max_symbol;
    next.table_log = log;
    std::memcpy(next.norm, norm, sizeof norm);
    fse_build_ctable(next.own, next.norm, max_symbol, log);
    next.ct = &next.own;
    c.ct = &next.own;
}

// Picks the cheapest mode by estimated size and writes its description at
// dst (returns the bytes written; SIZE_MAX when it does not fit).
std::size_t choose_table(const symbol_type& type, const std::uint32_t* counts, unsigned max_symbol,
                         std::uint32_t most, std::size_t n_seq, const seq_table_state& prev,
                         const fse_ctable& default_ct, seq_table_state& next, choice& c, std::uint8_t* dst,
                         std::size_t capacity, strategy strat) noexcept {
    const bool default_ok = covers(type.default_norm, type.default_max, counts, max_symbol);

    if (most == n_seq) {  // a single symbol
        if (n_seq <= 2 && default_ok) {
            c.mode = predefined;
        } else {
            if (capacity < 1) return SIZE_MAX;
            dst[0] = std::uint8_t(max_symbol);
            c.mode = rle;
            next.repeat_ok = false;
            next.from_dictionary = false;
            return 1;
        }
    } else if (strat < strategy::lazy && default_ok && prev.from_dictionary && prev.repeat_ok && n_seq < 1000 &&
               covers(prev.norm, prev.max_symbol, counts, max_symbol)) {
        c.mode = repeat;
        next.assign(prev);
        c.ct = next.ct;
        return 0;
    } else if (strat < strategy::lazy && default_ok &&
               (n_seq < ((std::size_t(1) << type.default_log) * (10 - unsigned(strat))) >> 3 ||
                most < (n_seq >> (type.default_log - 1)))) {
        // The fast strategies skip the cost estimates, like the reference:
        // few sequences, or a flat distribution, go with the default table.
        c.mode = predefined;
    } else if (strat < strategy::lazy) {
        std::int16_t norm[53];
        unsigned log = 0;
        const std::size_t size = describe_new_table(type, counts, max_symbol, n_seq, norm, log, dst, capacity);
        if (size == 0) return SIZE_MAX;
        adopt_new_table(norm, max_symbol, log, next, c);
        return size;
    } else {
        // Estimated bits of each candidate; a new table also pays for its description.
        constexpr std::size_t never = SIZE_MAX / 4;
        const std::size_t default_cost =
            default_ok ? fse_estimated_bits(type.default_norm, type.default_log, counts, max_symbol) : never;
        const std::size_t repeat_cost =
            prev.repeat_ok && covers(prev.norm, prev.max_symbol, counts, max_symbol)
                ? fse_estimated_bits(prev.norm, prev.table_log, counts, max_symbol)
                : never;
        std::int16_t norm[53];
        unsigned log = 0;
        std::uint8_t description[128];
        const std::size_t description_size =
            describe_new_table(type, counts, max_symbol, n_seq, norm, log, description, sizeof description);
        const std::size_t fse_cost =
            description_size ? description_size * 8 + fse_estimated_bits(norm, log, counts, max_symbol) : never;
        if (repeat_cost <= default_cost && repeat_cost <= fse_cost && repeat_cost != never) {
            c.mode = repeat;
            next.assign(prev);
            c.ct = next.ct;
            return 0;
        }
        if (fse_cost < default_cost) {
            if (description_size > capacity) return SIZE_MAX;
            std::memcpy(dst, description, description_size);
            adopt_new_table(norm, max_symbol, log, next, c);
            return description_size;
        }
        if (default_cost == never) return SIZE_MAX;  // cannot happen: a normalisation always exists
        c.mode = predefined;
    }
    // Predefined: the decoder then holds the default table, which a later
    // block may repeat.
    next.repeat_ok = true;
    next.from_dictionary = false;
    next.max_symbol = type.default_max;
    next.table_log = type.default_log;
    std::memset(next.norm, 0, sizeof next.norm);
    std::memcpy(next.norm, type.default_norm, sizeof(std::int16_t) * (type.default_max + 1));
    next.ct = &default_ct;
    c.ct = &default_ct;
    return 0;
}

}  // namespace

void seq_table_state::assign(const seq_table_state& o) noexcept {
    if (this == &o) return;
    repeat_ok = o.repeat_ok;
    from_dictionary = o.from_dictionary;
    max_symbol = o.max_symbol;
    table_log = o.table_log;
    std::memcpy(norm, o.norm, sizeof norm);
    if (o.ct == &o.own) {
        own = o.own;
        ct = &own;
    } else {
        ct = o.ct;
    }
}

// From this many sequences a block counts its codes in two interleaved sets.
constexpr std::size_t split_count_min = 64;

std::size_t encode_sequences(std::uint8_t* dst, std::size_t capacity, const seq_store& store,
                             const seq_entropy& prev, seq_entropy& next, strategy strat) noexcept {
    const std::size_t n = store.n_seqs;
    std::uint8_t* p = dst;
    std::uint8_t* const end = dst + capacity;
    // Number_of_Sequences: 1, 2 or 3 bytes.
    if (capacity < 4) return 0;
    if (n < 128) {
        *p++ = std::uint8_t(n);
    } else if (n < 0x7F00) {
        *p++ = std::uint8_t((n >> 8) + 0x80);
        *p++ = std::uint8_t(n);
    } else {
        *p++ = 0xFF;
        *p++ = std::uint8_t(n - 0x7F00);
        *p++ = std::uint8_t((n - 0x7F00) >> 8);
    }
    if (n == 0) {
        // No tables are sent: the decoder keeps its own.
        next.ll.assign(prev.ll);
        next.of.assign(prev.of);
        next.ml.assign(prev.ml);
        return std::size_t(p - dst);
    }

    // Codes (kept for the bitstream) and their counts: 3 bytes per sequence
    // (literal length, offset, match length codes), read back with one
    // 4-byte load in the bitstream loop.
    std::uint8_t* const seq_codes = store.codes;
    std::uint32_t ll_counts[36] = {}, of_counts[32] = {}, ml_counts[53] = {};
    std::uint32_t ll_most = 0, of_most = 0, ml_most = 0;
    const auto codes_of = [&](std::size_t i, unsigned& l, unsigned& o, unsigned& m) {
        const stored_sequence& s = store.seqs[i];
        l = ll_code(s.lit_len), o = highbit32(s.off_value), m = ml_code(s.ml_base + 3u);
        seq_codes[3 * i] = std::uint8_t(l), seq_codes[3 * i + 1] = std::uint8_t(o), seq_codes[3 * i + 2] = std::uint8_t(m);
    };
    if (n < split_count_min) {
        // The highest counts are kept as they grow (reading the fresh
        // counts back in vectors would wait for each store to land).
        for (std::size_t i = 0; i < n; ++i) {
            unsigned l, o, m;
            codes_of(i, l, o, m);
            const std::uint32_t kl = ++ll_counts[l], ko = ++of_counts[o], km = ++ml_counts[m];
            ll_most = kl > ll_most ? kl : ll_most;
            of_most = ko > of_most ? ko : of_most;
            ml_most = km > ml_most ? km : ml_most;
        }
    } else {
        // Two sets of counts, for the even and the odd sequences: a run of
        // equal codes (common: most literal lengths are short, many matches
        // repeat an offset) waits for each increment's store to land only
        // every other sequence. Summed once at the end, which then waits
        // for the last stores once.
        std::uint32_t ll2[36] = {}, of2[32] = {}, ml2[53] = {};
        std::size_t i = 0;
        for (; i + 2 <= n; i += 2) {
            unsigned l, o, m, l2, o2, m2;
            codes_of(i, l, o, m);
            codes_of(i + 1, l2, o2, m2);
            ++ll_counts[l], ++of_counts[o], ++ml_counts[m];
            ++ll2[l2], ++of2[o2], ++ml2[m2];
        }
        if (i < n) {
            unsigned l, o, m;
            codes_of(i, l, o, m);
            ++ll_counts[l], ++of_counts[o], ++ml_counts[m];
        }
        const auto merge = [](std::uint32_t* to, const std::uint32_t* from, std::size_t k, std::uint32_t& most) {
            for (std::size_t j = 0; j < k; ++j) {
                to[j] += from[j];
                most = to[j] > most ? to[j] : most;
            }
        };
        merge(ll_counts, ll2, 36, ll_most);
        merge(of_counts, of2, 32, of_most);
        merge(ml_counts, ml2, 53, ml_most);
    }
    if (store.long_seq != seq_store::no_long) {
        // The one length that did not fit in 16 bits: its code from the
        // whole length. Its extra bits are its low 16 bits (the codes that
        // large start at 2^16), which the sequence holds.
        const std::size_t i = store.long_seq;
        if (store.long_is_match) {
            const unsigned m = ml_code(store.match_len(i));
            --ml_counts[seq_codes[3 * i + 2]], ++ml_counts[m];
            seq_codes[3 * i + 2] = std::uint8_t(m);
            ml_most = *std::max_element(ml_counts, ml_counts + 53);
        } else {
            const unsigned l = ll_code(store.lit_len(i));
            --ll_counts[seq_codes[3 * i]], ++ll_counts[l];
            seq_codes[3 * i] = std::uint8_t(l);
            ll_most = *std::max_element(ll_counts, ll_counts + 36);
        }
    }
    unsigned ll_max = 35, of_max = 31, ml_max = 52;
    while (ll_counts[ll_max] == 0) --ll_max;
    while (of_counts[of_max] == 0) --of_max;
    while (ml_counts[ml_max] == 0) --ml_max;
    std::uint8_t* const modes = p++;
    const default_ctables& d = defaults();
    choice ll, of, ml;
    std::size_t w = choose_table(ll_type, ll_counts, ll_max, ll_most, n, prev.ll, d.ll, next.ll, ll, p, std::size_t(end - p), strat);
    if (w == SIZE_MAX) return 0;
    p += w;
    w = choose_table(of_type, of_counts, of_max, of_most, n, prev.of, d.of, next.of, of, p, std::size_t(end - p), strat);
    if (w == SIZE_MAX) return 0;
    p += w;
    w = choose_table(ml_type, ml_counts, ml_max, ml_most, n, prev.ml, d.ml, next.ml, ml, p, std::size_t(end - p), strat);
    if (w == SIZE_MAX) return 0;
    p += w;
    *modes = std::uint8_t(ll.mode << 6 | of.mode << 4 | ml.mode << 2);

    // The bitstream, last sequence first: the decoder reads it backwards.
    const auto table = [](const choice& c) { return c.mode == rle ? nullptr : c.ct; };
    const std::size_t stream = active_compress_kernels().sequence_stream(p, std::size_t(end - p), store, table(ll),
                                                                         table(of), table(ml));
    if (stream == 0) return 0;
    return std::size_t(p - dst) + stream;
}

}  // namespace zest::detail
