// Writers for the format's bit streams and frames, written from the RFC 8878
// text (the encoder's side), so that unit tests can hand-build inputs whose
// decoded meaning is known without running zest.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "decompress/kernels.hpp"

namespace zest_test {

using bytes = std::vector<std::uint8_t>;

inline std::span<const std::byte> as_span(const bytes& b) { return std::as_bytes(std::span(b)); }

/// Forward little-endian bit writer: the first field lands in the lowest
/// bits of the first byte (the layout of FSE table descriptions, and the
/// order in which encoders write backward-read streams).
class forward_bit_writer {
public:
    void put(std::uint64_t value, unsigned nbits) {
        if (nbits < 64 && (value >> nbits) != 0) throw std::logic_error("field value wider than its bit count");
        for (unsigned i = 0; i < nbits; ++i) {
            if (pos_ % 8 == 0) bytes_.push_back(0);
            if ((value >> i) & 1) bytes_.back() = std::uint8_t(bytes_.back() | (1u << (pos_ % 8)));
            ++pos_;
        }
    }
    std::size_t bit_count() const { return pos_; }
    const bytes& data() const { return bytes_; }

private:
    bytes bytes_;
    std::size_t pos_ = 0;
};

/// A backward-read stream (Huffman, FSE, sequences): fields are added in the
/// order the decoder reads them; finish() writes them in reverse order,
/// then the 1-bit end mark and zero padding, as RFC 8878 describes.
class backward_stream {
public:
    backward_stream& add(std::uint64_t value, unsigned nbits) {
        if (nbits < 64 && (value >> nbits) != 0) throw std::logic_error("field value wider than its bit count");
        fields_.emplace_back(value, nbits);
        bits_ += nbits;
        return *this;
    }
    std::size_t bit_count() const { return bits_; }
    bytes finish() const {
        forward_bit_writer w;
        for (auto it = fields_.rbegin(); it != fields_.rend(); ++it) w.put(it->first, it->second);
        w.put(1, 1);
        return w.data();
    }

private:
    std::vector<std::pair<std::uint64_t, unsigned>> fields_;
    std::size_t bits_ = 0;
};

/// Smallest T with (1 << T) > n (the RFC's log2sup).
inline unsigned log2sup(unsigned n) {
    unsigned t = 0;
    while ((1u << t) <= n) ++t;
    return t;
}

/// FSE table description (RFC 8878 "FSE Table Description"), writer side.
/// counts[s] is the normalised probability of symbol s (-1 = "less than 1");
/// the counts must add up to 1 << log (-1 counting as 1).
inline bytes encode_fse_description(const std::vector<int>& counts, unsigned log) {
    forward_bit_writer w;
    w.put(log - 5, 4);
    int remaining = (1 << log) + 1;  // values 0..remaining are possible
    std::size_t s = 0;
    while (remaining > 1) {
        if (s >= counts.size()) throw std::logic_error("counts do not fill the table");
        const int proba = counts[s++];
        const unsigned value = unsigned(proba + 1);
        const unsigned bits = log2sup(unsigned(remaining));
        const unsigned low = (1u << bits) - 1 - unsigned(remaining);  // values using one bit less
        const unsigned half = 1u << (bits - 1);
        if (value < low) w.put(value, bits - 1);
        else if (value < half) w.put(value, bits);
        else w.put(value + low, bits);
        remaining -= proba < 0 ? -proba : proba;
        if (proba == 0) {
            std::size_t zeros = 0;
            while (s + zeros < counts.size() && counts[s + zeros] == 0) ++zeros;
            s += zeros;
            for (; zeros >= 3; zeros -= 3) w.put(3, 2);
            w.put(zeros, 2);
        }
    }
    if (remaining != 1) throw std::logic_error("counts exceed the table");
    return w.data();
}

/// One decoding-table cell as the RFC describes it.
struct table_cell {
    unsigned symbol;
    unsigned nb_bits;
    unsigned baseline;
};

/// States t[0..n) with symbol(t[i]) == symbols[i], each reachable from the
/// previous one (t[i+1] in [baseline(t[i]), baseline(t[i]) + 2^nb_bits(t[i]))).
/// Built backwards, as an FSE encoder does: a symbol's cells split the state
/// space into ranges, so some cell of it always reaches the next state.
template <class Cell>
std::vector<unsigned> fse_state_path(const Cell* table, unsigned log, const std::vector<unsigned>& symbols) {
    const unsigned size = 1u << log;
    std::vector<unsigned> t(symbols.size());
    for (std::size_t i = symbols.size(); i-- > 0;) {
        bool found = false;
        for (unsigned u = 0; u < size && !found; ++u) {
            if (table[u].symbol != symbols[i]) continue;
            if (i + 1 < symbols.size()) {
                const unsigned lo = table[u].baseline, hi = lo + (1u << table[u].nb_bits);
                if (t[i + 1] < lo || t[i + 1] >= hi) continue;
            }
            t[i] = u;
            found = true;
        }
        if (!found) throw std::logic_error("symbol has no cell reaching the next state");
    }
    return t;
}

// ---------------------------------------------------------------------------
// Sequences (RFC 8878 "Sequences Section"), encoder side.
// ---------------------------------------------------------------------------

/// A sequence as the format stores it: Offset_Value is the raw value
/// (1-3 = repeat codes, otherwise offset + 3).
struct sequence {
    std::uint32_t literals_length;
    std::uint32_t offset_value;
    std::uint32_t match_length;
};

struct code_and_extra {
    unsigned code;
    std::uint32_t extra;
    unsigned extra_bits;
};

inline code_and_extra literals_length_code(std::uint32_t ll) {
    // RFC tables: codes 0-15 are the value; 16..35 baseline + bits.
    static constexpr std::uint32_t base[20] = {16,  18,  20,   22,   24,   28,   32,   40,    48,    64,
                                               128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536};
    static constexpr unsigned nbits[20] = {1, 1, 1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    if (ll < 16) return {ll, 0, 0};
    for (unsigned i = 20; i-- > 0;)
        if (ll >= base[i]) {
            if (ll - base[i] >= (1u << nbits[i])) throw std::logic_error("literals length too large");
            return {16 + i, ll - base[i], nbits[i]};
        }
    throw std::logic_error("unreachable");
}

inline code_and_extra match_length_code(std::uint32_t ml) {
    static constexpr std::uint32_t base[21] = {35,  37,  39,  41,   43,   47,   51,   59,    67,    83,   99,
                                               131, 259, 515, 1027, 2051, 4099, 8195, 16387, 32771, 65539};
    static constexpr unsigned nbits[21] = {1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    if (ml < 3) throw std::logic_error("match length below 3");
    if (ml - 3 < 32) return {ml - 3, 0, 0};
    for (unsigned i = 21; i-- > 0;)
        if (ml >= base[i]) {
            if (ml - base[i] >= (1u << nbits[i])) throw std::logic_error("match length too large");
            return {32 + i, ml - base[i], nbits[i]};
        }
    throw std::logic_error("unreachable");
}

inline code_and_extra offset_code(std::uint32_t offset_value) {
    if (offset_value == 0) throw std::logic_error("Offset_Value 0");
    unsigned code = 0;
    while ((offset_value >> (code + 1)) != 0) ++code;
    return {code, offset_value - (1u << code), code};
}

/// Raw literals section header + the literals.
inline bytes raw_literals_section(const bytes& lits) {
    bytes out;
    const std::size_t n = lits.size();
    if (n < 32) {
        out.push_back(std::uint8_t(n << 3));
    } else if (n < 4096) {
        out.push_back(std::uint8_t(((n & 15) << 4) | (1 << 2)));
        out.push_back(std::uint8_t(n >> 4));
    } else {
        out.push_back(std::uint8_t(((n & 15) << 4) | (3 << 2)));
        out.push_back(std::uint8_t(n >> 4));
        out.push_back(std::uint8_t(n >> 12));
    }
    out.insert(out.end(), lits.begin(), lits.end());
    return out;
}

inline void put_number_of_sequences(bytes& out, std::size_t n) {
    if (n < 128) {
        out.push_back(std::uint8_t(n));
    } else if (n < 0x7F00) {
        out.push_back(std::uint8_t((n >> 8) + 128));
        out.push_back(std::uint8_t(n));
    } else {
        out.push_back(255);
        out.push_back(std::uint8_t(n - 0x7F00));
        out.push_back(std::uint8_t((n - 0x7F00) >> 8));
    }
}

template <class Cell>
struct predefined_set {
    const Cell* ll;
    const Cell* of;
    const Cell* ml;
};

/// Sequences section with Predefined_Mode for all three codes, encoded
/// with the given decoding tables (the RFC's Appendix A tables).
template <class Cell>
bytes predefined_sequences_section(const std::vector<sequence>& seqs, predefined_set<Cell> t) {
    bytes out;
    put_number_of_sequences(out, seqs.size());
    if (seqs.empty()) return out;
    out.push_back(0x00);  // Predefined_Mode x3
    std::vector<code_and_extra> ll, of, ml;
    std::vector<unsigned> llc, ofc, mlc;
    for (const sequence& s : seqs) {
        ll.push_back(literals_length_code(s.literals_length));
        of.push_back(offset_code(s.offset_value));
        ml.push_back(match_length_code(s.match_length));
        llc.push_back(ll.back().code);
        ofc.push_back(of.back().code);
        mlc.push_back(ml.back().code);
    }
    const auto lls = fse_state_path(t.ll, 6, llc);
    const auto ofs = fse_state_path(t.of, 5, ofc);
    const auto mls = fse_state_path(t.ml, 6, mlc);
    backward_stream bs;
    bs.add(lls[0], 6).add(ofs[0], 5).add(mls[0], 6);
    for (std::size_t i = 0; i < seqs.size(); ++i) {
        bs.add(of[i].extra, of[i].extra_bits).add(ml[i].extra, ml[i].extra_bits).add(ll[i].extra, ll[i].extra_bits);
        if (i + 1 < seqs.size()) {
            bs.add(lls[i + 1] - t.ll[lls[i]].baseline, t.ll[lls[i]].nb_bits);
            bs.add(mls[i + 1] - t.ml[mls[i]].baseline, t.ml[mls[i]].nb_bits);
            bs.add(ofs[i + 1] - t.of[ofs[i]].baseline, t.of[ofs[i]].nb_bits);
        }
    }
    const bytes stream = bs.finish();
    out.insert(out.end(), stream.begin(), stream.end());
    return out;
}

/// Sequences section with RLE_Mode for all three codes: every sequence must
/// use the same three codes; the bitstream holds only the extra bits.
inline bytes rle_sequences_section(const std::vector<sequence>& seqs) {
    bytes out;
    put_number_of_sequences(out, seqs.size());
    if (seqs.empty()) return out;
    out.push_back(0x54);  // RLE_Mode x3
    const auto ll0 = literals_length_code(seqs[0].literals_length);
    const auto of0 = offset_code(seqs[0].offset_value);
    const auto ml0 = match_length_code(seqs[0].match_length);
    out.push_back(std::uint8_t(ll0.code));
    out.push_back(std::uint8_t(of0.code));
    out.push_back(std::uint8_t(ml0.code));
    backward_stream bs;
    for (const sequence& s : seqs) {
        const auto ll = literals_length_code(s.literals_length);
        const auto of = offset_code(s.offset_value);
        const auto ml = match_length_code(s.match_length);
        if (ll.code != ll0.code || of.code != of0.code || ml.code != ml0.code)
            throw std::logic_error("RLE_Mode needs one code per kind");
        bs.add(of.extra, of.extra_bits).add(ml.extra, ml.extra_bits).add(ll.extra, ll.extra_bits);
    }
    const bytes stream = bs.finish();
    out.insert(out.end(), stream.begin(), stream.end());
    return out;
}

// ---------------------------------------------------------------------------
// Frames
// ---------------------------------------------------------------------------

enum class block_type : unsigned { raw = 0, rle = 1, compressed = 2, reserved = 3 };

inline void put_le(bytes& out, std::uint64_t v, unsigned n) {
    for (unsigned i = 0; i < n; ++i) out.push_back(std::uint8_t(v >> (8 * i)));
}

inline void put_block(bytes& out, block_type t, const bytes& content, bool last, std::size_t rle_size = 0) {
    const std::size_t size = t == block_type::rle ? rle_size : content.size();
    put_le(out, (std::uint32_t(size) << 3) | (unsigned(t) << 1) | (last ? 1u : 0u), 3);
    out.insert(out.end(), content.begin(), content.end());
}

/// Magic + a header without content size: window 2^(10 + exponent).
inline bytes frame_start(unsigned window_exponent = 7, bool checksum = false) {
    bytes out;
    put_le(out, 0xFD2FB528u, 4);
    out.push_back(checksum ? 0x04 : 0x00);
    out.push_back(std::uint8_t(window_exponent << 3));
    return out;
}

// ---------------------------------------------------------------------------
// Reference model: sequence execution as RFC 8878 "Sequence Execution" and
// "Repeat offsets" describe it, one byte at a time.
// ---------------------------------------------------------------------------

struct reference_model {
    std::uint32_t rep[3] = {1, 4, 8};
    bytes out;

    void new_frame() {
        rep[0] = 1;
        rep[1] = 4;
        rep[2] = 8;
        out.clear();
    }

    /// The offset a sequence uses, updating the repeat offsets.
    std::uint32_t resolve(std::uint32_t offset_value, std::uint32_t literals_length) {
        if (offset_value > 3) {
            const std::uint32_t offset = offset_value - 3;
            rep[2] = rep[1];
            rep[1] = rep[0];
            rep[0] = offset;
            return offset;
        }
        // With literals_length == 0 the codes are shifted by one.
        const unsigned which = literals_length == 0 ? offset_value : offset_value - 1;
        switch (which) {
            case 0:  // Repeated_Offset1: no change
                return rep[0];
            case 1: {  // Repeated_Offset2: swap 1 and 2
                const std::uint32_t o = rep[1];
                rep[1] = rep[0];
                rep[0] = o;
                return o;
            }
            case 2: {  // Repeated_Offset3: rotate 3 to 1
                const std::uint32_t o = rep[2];
                rep[2] = rep[1];
                rep[1] = rep[0];
                rep[0] = o;
                return o;
            }
            default: {  // Repeated_Offset1 - 1: a new offset
                const std::uint32_t o = rep[0] - 1;
                rep[2] = rep[1];
                rep[1] = rep[0];
                rep[0] = o;
                return o;
            }
        }
    }

    /// Executes a block's sequences with its literals; false on invalid input.
    bool execute(const bytes& lits, const std::vector<sequence>& seqs) {
        std::size_t lp = 0;
        for (const sequence& s : seqs) {
            if (s.literals_length > lits.size() - lp) return false;
            out.insert(out.end(), lits.begin() + std::ptrdiff_t(lp), lits.begin() + std::ptrdiff_t(lp + s.literals_length));
            lp += s.literals_length;
            const std::uint32_t offset = resolve(s.offset_value, s.literals_length);
            if (offset == 0 || offset > out.size()) return false;
            for (std::uint32_t i = 0; i < s.match_length; ++i) out.push_back(out[out.size() - offset]);
        }
        out.insert(out.end(), lits.begin() + std::ptrdiff_t(lp), lits.end());
        return true;
    }
    void append_raw(const bytes& b) { out.insert(out.end(), b.begin(), b.end()); }
};

/// Deterministic pseudo-random bytes (xorshift), for filler content.
inline bytes pseudo_random_bytes(std::size_t n, std::uint32_t seed, unsigned alphabet = 256) {
    bytes b(n);
    std::uint32_t x = seed * 2654435761u + 1;
    for (auto& c : b) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        c = std::uint8_t((x >> 8) % alphabet);
    }
    return b;
}

// ---------------------------------------------------------------------------
// Kernel sets: every variant this CPU can run.
// ---------------------------------------------------------------------------

/// The kernel set called `name`, or null when this build or CPU lacks it.
const zest::detail::kernel_set* kernel_by_name(const std::string& name);

}  // namespace zest_test
