// Sequences section header: counts, modes and the three decoding tables.
#include <cstring>

#include "common/fse.hpp"
#include "common/seq_codes.hpp"
#include "decompress/literals.hpp"

namespace zest::detail {

namespace {

enum class kind { literal_length, offset, match_length };

void code_value(kind k, unsigned code, std::uint32_t& base, std::uint8_t& bits) noexcept {
    switch (k) {
        case kind::literal_length:
            base = value_codes.ll_base[code];
            bits = value_codes.ll_bits[code];
            return;
        case kind::match_length:
            base = value_codes.ml_base[code];
            bits = value_codes.ml_bits[code];
            return;
        case kind::offset:
            base = 1u << code;
            bits = std::uint8_t(code);
            return;
    }
}

// A decoding table straight from a distribution: each state's symbol comes
// with its value's base and extra bits, and its FSE transition.
errc build_seq_cells(kind k, const fse_distribution& d, seq_cell* out) noexcept {
    std::uint8_t symbols[1u << fse_max_accuracy_log];
    std::uint16_t next[fse_max_symbols];
    ZEST_TRY(spread_fse_symbols(d, symbols, next));
    // Every symbol's value once, then one lookup per state.
    std::uint32_t base[ml_max_symbol + 1];
    std::uint8_t bits[ml_max_symbol + 1];
    for (unsigned s = 0; s <= d.max_symbol; ++s) code_value(k, s, base[s], bits[s]);  // max_symbol checked on reading
    const unsigned log = d.accuracy_log;
    for (std::uint32_t u = 0; u < (1u << log); ++u) {
        const unsigned s = symbols[u];
        unsigned nb;
        std::uint16_t next_base;
        fse_transition(next[s]++, log, nb, next_base);
        out[u] = {base[s], bits[s], std::uint8_t(nb), next_base};
    }
    return ok;
}

struct predefined_tables {
    seq_cell ll[64], ml[64], of[32];
};

void build_default(kind k, const std::int16_t* counts, unsigned n, unsigned log, seq_cell* out) noexcept {
    fse_distribution d;
    for (unsigned i = 0; i < n; ++i) d.count[i] = counts[i];
    d.max_symbol = n - 1;
    d.accuracy_log = log;
    (void)build_seq_cells(k, d, out);  // the defaults are valid by construction
}

// Built on first use; a function-local static is initialised exactly once.
const predefined_tables& predefined() noexcept {
    static const predefined_tables t = [] {
        predefined_tables p;
        build_default(kind::literal_length, ll_default, 36, 6, p.ll);
        build_default(kind::match_length, ml_default, 53, 6, p.ml);
        build_default(kind::offset, of_default, 29, 5, p.of);
        return p;
    }();
    return t;
}

errc setup_table(seq_table& t, kind k, unsigned mode, const std::uint8_t* src, std::size_t size,
                 std::size_t& used) noexcept {
    const unsigned max_symbol = k == kind::literal_length ? ll_max_symbol
                                : k == kind::match_length ? ml_max_symbol
                                                          : of_max_symbol;
    const unsigned max_log = k == kind::offset ? of_max_log : ll_max_log;
    used = 0;
    switch (mode) {
        case 0: {  // predefined
            // Copied (at most 512 bytes) so that all three tables sit at fixed
            // offsets in the state: the sequence loop then needs one base register.
            const predefined_tables& p = predefined();
            const seq_cell* src_cells = k == kind::literal_length ? p.ll : k == kind::match_length ? p.ml : p.of;
            t.log = k == kind::offset ? 5 : 6;
            std::memcpy(t.storage, src_cells, sizeof(seq_cell) << t.log);
            t.ready = true;
            return ok;
        }
        case 1: {  // RLE: one symbol, a one-cell table that never moves
            if (size < 1) return errc::sequences_invalid;
            const unsigned sym = src[0];
            if (sym > max_symbol) return errc::sequences_invalid;
            code_value(k, sym, t.storage[0].base, t.storage[0].extra_bits);
            t.storage[0].nb_bits = 0;
            t.storage[0].next_base = 0;
            t.ready = true;
            t.log = 0;
            used = 1;
            return ok;
        }
        case 2: {  // FSE-compressed: a distribution follows
            fse_distribution d;
            ZEST_TRY(read_fse_distribution(src, size, max_log, max_symbol, d, used));
            ZEST_TRY(build_seq_cells(k, d, t.storage));
            t.ready = true;
            t.log = d.accuracy_log;
            return ok;
        }
        default:  // repeat the previous block's table
            if (!t.ready) return errc::sequences_invalid;
            return ok;
    }
}

}  // namespace

errc read_seq_table_description(unsigned which, const std::uint8_t* src, std::size_t size, seq_table& t,
                                fse_distribution& d, std::size_t& used) noexcept {
    const kind k = which == 0 ? kind::literal_length : which == 1 ? kind::offset : kind::match_length;
    const unsigned max_symbol = k == kind::literal_length ? ll_max_symbol
                                : k == kind::match_length ? ml_max_symbol
                                                          : of_max_symbol;
    const unsigned max_log = k == kind::offset ? of_max_log : ll_max_log;
    ZEST_TRY(read_fse_distribution(src, size, max_log, max_symbol, d, used));
    ZEST_TRY(build_seq_cells(k, d, t.storage));
    t.ready = true;
    t.log = d.accuracy_log;
    return ok;
}

errc read_sequences_header(decoder_state& st, const std::uint8_t* src, std::size_t size, unsigned& nb_seq,
                           std::size_t& used) noexcept {
    if (size < 1) return errc::sequences_invalid;
    const unsigned b0 = src[0];
    std::size_t pos;
    if (b0 < 128) {
        nb_seq = b0;
        pos = 1;
    } else if (b0 < 255) {
        if (size < 2) return errc::sequences_invalid;
        nb_seq = ((b0 - 128) << 8) + src[1];
        pos = 2;
    } else {
        if (size < 3) return errc::sequences_invalid;
        nb_seq = src[1] + (unsigned(src[2]) << 8) + 0x7F00;
        pos = 3;
    }
    if (nb_seq == 0) {
        // No sequences: the block ends here and the tables stay as they were.
        if (pos != size) return errc::sequences_invalid;
        used = pos;
        return ok;
    }
    if (pos >= size) return errc::sequences_invalid;
    const unsigned modes = src[pos++];
    if (modes & 3) return errc::reserved_bit_set;
    if (st.seq_tables != &st.seq) {
        // The tables in use are a dictionary's. A block that repeats all
        // three keeps using them; one that describes any moves to the
        // state's own tables, copying first those it repeats.
        if ((modes >> 2) == 0x3F) {
            used = pos;
            return ok;
        }
        const seq_table_set& d = *st.seq_tables;
        const auto adopt = [](seq_table& to, const seq_table& from) {
            to.log = from.log;
            std::memcpy(to.storage, from.storage, sizeof(seq_cell) << from.log);
            to.ready = true;
        };
        if ((modes >> 6) == 3) adopt(st.seq.ll, d.ll);
        if (((modes >> 4) & 3) == 3) adopt(st.seq.of, d.of);
        if (((modes >> 2) & 3) == 3) adopt(st.seq.ml, d.ml);
        st.seq_tables = &st.seq;
    }
    std::size_t n = 0;
    ZEST_TRY(setup_table(st.seq.ll, kind::literal_length, modes >> 6, src + pos, size - pos, n));
    pos += n;
    ZEST_TRY(setup_table(st.seq.of, kind::offset, (modes >> 4) & 3, src + pos, size - pos, n));
    pos += n;
    ZEST_TRY(setup_table(st.seq.ml, kind::match_length, (modes >> 2) & 3, src + pos, size - pos, n));
    pos += n;
    used = pos;
    return ok;
}

}  // namespace zest::detail
