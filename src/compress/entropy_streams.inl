// The entropy coders' bitstream loops: one Huffman stream of literals, and
// the sequences' interleaved FSE stream. Compiled once per instruction set
// (compress/kernels.inl): the bit writer's variable shifts are its cost.
namespace zest::detail::ZEST_CKERNEL_NS {

// PerFlush codes between flushes: 5 of at most 11 bits (55 + 7 carried <=
// 64), or 4 when a dictionary's table holds 12-bit codes.
template <unsigned PerFlush>
ZEST_INLINE std::size_t huffman_stream_n(std::uint8_t* dst, std::size_t capacity, const std::uint8_t* src,
                                         std::size_t n, const huffman_ctable& t) noexcept {
    // The decoder reads the last bits written first: encode from the end.
    bit_writer bw(dst, capacity);
    std::size_t i = n;
    while (i >= PerFlush) {
        for (unsigned k = 1; k <= PerFlush; ++k) bw.add(t.code[src[i - k]], t.bits[src[i - k]]);
        bw.flush();
        i -= PerFlush;
    }
    while (i > 0) {
        --i;
        bw.add(t.code[src[i]], t.bits[src[i]]);
    }
    bw.flush();
    return bw.close();
}

std::size_t huffman_stream(std::uint8_t* dst, std::size_t capacity, const std::uint8_t* src, std::size_t n,
                           const huffman_ctable& t) noexcept {
    if (ZEST_UNLIKELY(t.max_bits > huf_max_bits)) return huffman_stream_n<4>(dst, capacity, src, n, t);
    return huffman_stream_n<5>(dst, capacity, src, n, t);
}

namespace sequence_coding {

// The low k bits of v (k < 32): one bzhi where the set has BMI2, else a
// table lookup (a variable shift would tie up the CL register).
ZEST_INLINE std::uint64_t low_bits(std::uint64_t v, unsigned k) noexcept {
#if defined(__BMI2__)
    return _bzhi_u64(v, k);
#else
    return v & low_bits_mask.m[k];
#endif
}

// fse_state::encode, with the mask above, for writing several fields at
// once: the bits leaving the state go above the nb already in `bits` (which
// grows by them).
ZEST_INLINE void step(fse_state& s, unsigned symbol, std::uint64_t& bits, unsigned& nb) noexcept {
    const auto& t = s.ct->symbol[symbol];
    // 32-bit sum, as in encode: a one-symbol table's delta_nb_bits wraps to give 0 bits.
    const unsigned k = (std::uint32_t(s.value) + t.delta_nb_bits) >> 16;
    bits |= low_bits(s.value, k) << nb;
    nb += k;
    s.value = s.ct->state_table[std::int32_t(s.value >> k) + t.delta_find_state];
}

// Extra bits by masking: every code's base value (less 3 for match
// lengths) is a multiple of 2^bits, so value - base is value's low bits.
constexpr bool bases_aligned() noexcept {
    for (unsigned c = 0; c < 36; ++c)
        if (value_codes.ll_base[c] % (1u << value_codes.ll_bits[c]) != 0) return false;
    for (unsigned c = 0; c < 53; ++c)
        if ((value_codes.ml_base[c] - 3) % (1u << value_codes.ml_bits[c]) != 0) return false;
    return true;
}
static_assert(bases_aligned());

// The most bytes one sequence adds: 26 bits of states, at most 63 extra
// bits and 7 carried over make less than 96.
constexpr std::size_t sequence_bytes_max = 12;

// The stream proper, with each symbol type's table either present or absent
// (RLE: no state, no bits); one instantiation per combination keeps the
// tests out of the loop.
template <bool LL, bool OF, bool ML>
std::size_t stream(std::uint8_t* dst, std::size_t capacity, const seq_store& store, const fse_ctable* ll_ct,
                   const fse_ctable* of_ct, const fse_ctable* ml_ct) noexcept {
    // Local copies: the bit writer's byte stores could otherwise alias the
    // store's fields and force a reload per sequence.
    const std::size_t n = store.n_seqs;
    const stored_sequence* const seqs = store.seqs;
    const std::uint8_t* const seq_codes = store.codes;
    bit_writer bw(dst, capacity);
    fse_state ll_state, of_state, ml_state;
    // Extra bits, read offset first: literal length lowest.
    const auto extra = [&bw](const stored_sequence& s, unsigned l, unsigned o, unsigned m, auto unchecked) {
        const auto flush = [&bw] {
            if constexpr (decltype(unchecked)::value) bw.flush_unchecked();
            else bw.flush();
        };
        const unsigned lb = value_codes.ll_bits[l], mb = value_codes.ml_bits[m];
        const std::uint64_t lv = low_bits(s.lit_len, lb), mv = low_bits(s.ml_base, mb);
        const std::uint64_t ov = low_bits(s.off_value, o);
        if (ZEST_LIKELY(lb + mb + o <= 30)) {
            bw.add(lv | mv << lb | ov << (lb + mb), lb + mb + o);
        } else {
            flush();
            bw.add(lv | mv << lb, lb + mb);
            flush();
            bw.add(ov, o);
        }
        flush();
    };
    {
        const stored_sequence& s = seqs[n - 1];
        const std::uint32_t c = load32(seq_codes + 3 * (n - 1));
        const unsigned l = c & 0xFF, o = (c >> 8) & 0xFF, m = (c >> 16) & 0xFF;
        if constexpr (LL) ll_state.init(*ll_ct, l);
        if constexpr (OF) of_state.init(*of_ct, o);
        if constexpr (ML) ml_state.init(*ml_ct, m);
        extra(s, l, o, m, std::false_type{});
    }
    const auto one = [&](std::size_t i, auto unchecked) {
        const stored_sequence& s = seqs[i];
        const std::uint32_t c = load32(seq_codes + 3 * i);
        const unsigned l = c & 0xFF, o = (c >> 8) & 0xFF, m = (c >> 16) & 0xFF;
        // The three state transitions (at most 26 bits) as one field, in
        // the order the decoder reads them after the extra bits: offset,
        // match length, literal length.
        unsigned nb = 0;
        std::uint64_t v = 0;
        if constexpr (OF) step(of_state, o, v, nb);
        if constexpr (ML) step(ml_state, m, v, nb);
        if constexpr (LL) step(ll_state, l, v, nb);
        bw.add(v, nb);
        extra(s, l, o, m, unchecked);
    };
    // Sequences [0, i) are left. Runs that surely fit in the buffer are
    // written without testing the position at each flush.
    std::size_t i = n - 1;
    while (i > 0) {
        const std::size_t sure = std::min(i, bw.room() / sequence_bytes_max);
        if (sure == 0) {
            one(--i, std::false_type{});
            continue;
        }
        for (const std::size_t stop = i - sure; i > stop;) one(--i, std::true_type{});
    }
    bw.flush();
    if constexpr (ML) ml_state.flush(bw);
    if constexpr (OF) of_state.flush(bw);
    bw.flush();
    if constexpr (LL) ll_state.flush(bw);
    return bw.close();
}

}  // namespace sequence_coding

std::size_t sequence_stream(std::uint8_t* dst, std::size_t capacity, const seq_store& store, const fse_ctable* ll,
                            const fse_ctable* of, const fse_ctable* ml) noexcept {
    using namespace sequence_coding;
    // Offsets are almost never RLE-coded; literal and match lengths are
    // when a block is one repeated pattern.
    if (of) {
        if (ll && ml) return stream<true, true, true>(dst, capacity, store, ll, of, ml);
        if (ll) return stream<true, true, false>(dst, capacity, store, ll, of, ml);
        if (ml) return stream<false, true, true>(dst, capacity, store, ll, of, ml);
        return stream<false, true, false>(dst, capacity, store, ll, of, ml);
    }
    if (ll && ml) return stream<true, false, true>(dst, capacity, store, ll, of, ml);
    if (ll) return stream<true, false, false>(dst, capacity, store, ll, of, ml);
    if (ml) return stream<false, false, true>(dst, capacity, store, ll, of, ml);
    return stream<false, false, false>(dst, capacity, store, ll, of, ml);
}

}  // namespace zest::detail::ZEST_CKERNEL_NS
