// Hot loops of the decoder, written once and compiled per ISA.
// Included by kernels_<isa>.cpp, which define ZEST_KERNEL_NS (a namespace
// unique to the ISA) and ZEST_KERNEL_SET (the exported kernel_set's name)
// and compile with that ISA's target flags.
#include <cstring>

#include "decompress/state.hpp"

#if defined(__SSSE3__)
#include <immintrin.h>
#endif

namespace zest::detail {
namespace ZEST_KERNEL_NS {
namespace {

using u8 = std::uint8_t;

ZEST_INLINE void copy16(u8* d, const u8* s) noexcept { std::memcpy(d, s, 16); }

// Copies n bytes in 16-byte steps: may write up to 15 bytes past d + n and
// read as far past s + n. Callers guarantee the slack and that s is at least
// 16 bytes behind d when the two overlap.
ZEST_INLINE void wild_copy(u8* d, const u8* s, std::size_t n) noexcept {
    u8* const e = d + n;
    do {
        copy16(d, s);
        d += 16;
        s += 16;
    } while (d < e);
}

#if defined(__SSSE3__)
// Period-d pattern registers: shuffle masks that spread the d bytes ending
// at the current position into a whole vector, and that advance the pattern
// by one vector width.
struct pattern_masks {
    alignas(16) u8 spread[16][16];  // spread[d][j] = 16 - d + j % d
    alignas(16) u8 step16[16][16];  // step16[d][j] = (16 + j) % d
#if defined(__AVX2__)
    alignas(16) u8 step32[16][16];  // step32[d][j] = (32 + j) % d
#endif
};

constexpr pattern_masks make_masks() noexcept {
    pattern_masks m{};
    for (unsigned d = 1; d < 16; ++d)
        for (unsigned j = 0; j < 16; ++j) {
            m.spread[d][j] = u8(16 - d + j % d);
            m.step16[d][j] = u8((16 + j) % d);
#if defined(__AVX2__)
            m.step32[d][j] = u8((32 + j) % d);
#endif
        }
    return m;
}
constexpr pattern_masks masks = make_masks();

// Match with offset < 16: hold one period in a register and store it
// vector by vector, advancing it with one shuffle (no load in the loop).
// Seeds from the 16 already-written bytes before d. Writes up to 31 bytes
// past d + n.
ZEST_NOINLINE void short_offset_copy(u8* d, std::size_t offset, std::size_t n) noexcept {
    const __m128i last16 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(d - 16));
    __m128i v = _mm_shuffle_epi8(last16, _mm_load_si128(reinterpret_cast<const __m128i*>(masks.spread[offset])));
    u8* const e = d + n;
#if defined(__AVX2__)
    // Two lanes: the pattern at phase 0 and at phase 16. Advancing either by
    // 32 bytes is the same in-lane shuffle, so one vpshufb per 32 bytes.
    const __m128i adv16 = _mm_load_si128(reinterpret_cast<const __m128i*>(masks.step16[offset]));
    __m256i w = _mm256_set_m128i(_mm_shuffle_epi8(v, adv16), v);
    if ((32 % offset) == 0) {
        do {
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(d), w);
            d += 32;
        } while (d < e);
    } else {
        const __m256i adv32 = _mm256_broadcastsi128_si256(
            _mm_load_si128(reinterpret_cast<const __m128i*>(masks.step32[offset])));
        do {
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(d), w);
            w = _mm256_shuffle_epi8(w, adv32);
            d += 32;
        } while (d < e);
    }
#else
    const __m128i adv = _mm_load_si128(reinterpret_cast<const __m128i*>(masks.step16[offset]));
    do {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(d), v);
        v = _mm_shuffle_epi8(v, adv);
        d += 16;
    } while (d < e);
#endif
}
#endif

// Match with offset < 16, portable: replicate the first 8 bytes one by one,
// then copy 8 bytes at a time from a whole number of periods back (>= 8).
// Writes up to 7 bytes past d + n.
ZEST_INLINE void short_offset_copy_portable(u8* d, std::size_t offset, std::size_t n) noexcept {
    u8* const e = d + n;
    const u8* s = d - offset;
    if (offset < 8) {
        for (int k = 0; k < 8; ++k) d[k] = s[k];
        const std::size_t period = offset * ((8 + offset - 1) / offset);
        d += 8;
        s = d - period;
    }
    while (d < e) {
        std::memcpy(d, s, 8);
        d += 8;
        s += 8;
    }
}

// Exact match copy for the end of the buffer (no writes past d + n).
ZEST_INLINE void exact_match_copy(u8* d, std::size_t offset, std::size_t n) noexcept {
    const u8* s = d - offset;
    if (offset >= n) {
        std::memcpy(d, s, n);
        return;
    }
    for (std::size_t i = 0; i < n; ++i) d[i] = s[i];
}

errc huf_1x(u8* dst, std::size_t n, const u8* src, std::size_t size, const huffman_table& t) noexcept {
    backward_bit_reader br;
    if (!br.init(src, size)) return errc::literals_invalid;
    const unsigned mb = t.max_bits;
    const std::uint16_t* tab = t.entries;
    u8* op = dst;
    u8* const end = dst + n;
    // 57+ bits after a fast refill: four 11-bit codes per refill.
    while (end - op >= 4 && br.can_refill_fast()) {
        br.refill_fast();
        for (int k = 0; k < 4; ++k) {
            const std::uint16_t e = tab[br.peek_nz(mb)];
            br.skip(e >> 8);
            *op++ = u8(e);
        }
    }
    while (op < end) {
        br.refill();
        const std::uint16_t e = tab[br.peek_nz(mb)];
        br.skip(e >> 8);
        *op++ = u8(e);
        if (br.overflowed()) return errc::literals_invalid;
    }
    br.refill();
    return br.finished() ? ok : errc::literals_invalid;
}

errc huf_4x(u8* dst, std::size_t n, const u8* src, std::size_t size, const huffman_table& t) noexcept {
    if (size < 10) return errc::literals_invalid;
    const std::size_t s1 = load_le16(src), s2 = load_le16(src + 2), s3 = load_le16(src + 4);
    if (6 + s1 + s2 + s3 >= size) return errc::literals_invalid;
    const std::size_t s4 = size - 6 - s1 - s2 - s3;
    const std::size_t seg = (n + 3) / 4;
    if (3 * seg > n) return errc::literals_invalid;

    backward_bit_reader b[4];
    const u8* p = src + 6;
    if (!b[0].init(p, s1) || !b[1].init(p + s1, s2) || !b[2].init(p + s1 + s2, s3) ||
        !b[3].init(p + s1 + s2 + s3, s4))
        return errc::literals_invalid;

    const unsigned mb = t.max_bits;
    const std::uint16_t* tab = t.entries;
    u8* op[4] = {dst, dst + seg, dst + 2 * seg, dst + 3 * seg};
    u8* const seg_end[4] = {dst + seg, dst + 2 * seg, dst + 3 * seg, dst + n};

    // Interleaved: five codes per stream per refill (5 * 11 <= 57 bits).
    // The last segment is the shortest, so its room bounds all four.
    while (seg_end[3] - op[3] >= 5 && b[0].can_refill_fast() && b[1].can_refill_fast() &&
           b[2].can_refill_fast() && b[3].can_refill_fast()) {
        for (int s = 0; s < 4; ++s) b[s].refill_fast();
        for (int k = 0; k < 5; ++k) {
            for (int s = 0; s < 4; ++s) {
                const std::uint16_t e = tab[b[s].peek_nz(mb)];
                b[s].skip(e >> 8);
                *op[s]++ = u8(e);
            }
        }
    }
    for (int s = 0; s < 4; ++s) {
        while (op[s] < seg_end[s]) {
            b[s].refill();
            const std::uint16_t e = tab[b[s].peek_nz(mb)];
            b[s].skip(e >> 8);
            *op[s]++ = u8(e);
            if (b[s].overflowed()) return errc::literals_invalid;
        }
        b[s].refill();
        if (!b[s].finished()) return errc::literals_invalid;
    }
    return ok;
}

errc sequences(const sequences_job& job, u8*& out_end) noexcept {
    decoder_state& st = *job.st;
    backward_bit_reader br;
    if (!br.init(job.stream, job.stream_size)) return errc::sequences_invalid;

    const seq_cell* const llt = st.ll.cells;
    const seq_cell* const oft = st.of.cells;
    const seq_cell* const mlt = st.ml.cells;
    std::uint32_t lls = std::uint32_t(br.read(st.ll.log));
    std::uint32_t ofs = std::uint32_t(br.read(st.of.log));
    std::uint32_t mls = std::uint32_t(br.read(st.ml.log));
    br.refill();

    std::size_t rep0 = st.rep[0], rep1 = st.rep[1], rep2 = st.rep[2];
    const u8* lit = job.lits.ptr;
    const u8* const lit_end = lit + job.lits.size;
    u8* op = job.op;
    u8* const block_end = job.block_end;
    u8* const buffer_end = job.buffer_end;
    u8* const frame_begin = job.frame_begin;
    // Running past the block's limit is corruption unless the limit is the
    // caller's buffer, in which case the buffer is too small.
    const errc overflow_error = block_end == buffer_end ? errc::destination_too_small : errc::block_invalid;

    for (unsigned i = job.nb_seq; i != 0; --i) {
        const seq_cell l = llt[lls];
        const seq_cell m = mlt[mls];
        const seq_cell o = oft[ofs];

        const std::size_t of_value = o.base + std::size_t(br.read(o.extra_bits));
        const std::size_t ml = m.base + std::size_t(br.read(m.extra_bits));
        if (o.extra_bits + m.extra_bits + l.extra_bits > 30) br.refill();
        const std::size_t ll = l.base + std::size_t(br.read(l.extra_bits));

        std::size_t offset;
        if (of_value > 3) {
            offset = of_value - 3;
            rep2 = rep1;
            rep1 = rep0;
            rep0 = offset;
        } else {
            const std::size_t idx = of_value - 1 + (ll == 0);
            if (idx == 0) {
                offset = rep0;
            } else {
                offset = idx == 3 ? rep0 - 1 : idx == 1 ? rep1 : rep2;
                offset += offset == 0;  // a zero offset is corrupt; the reference reads it as 1
                if (idx != 1) rep2 = rep1;
                rep1 = rep0;
                rep0 = offset;
            }
        }

        if (i != 1) {
            lls = l.next_base + std::uint32_t(br.read(l.nb_bits));
            mls = m.next_base + std::uint32_t(br.read(m.nb_bits));
            ofs = o.next_base + std::uint32_t(br.read(o.nb_bits));
            br.refill();
        }

        if (ZEST_UNLIKELY(ll > std::size_t(lit_end - lit))) return errc::sequences_invalid;
        const std::size_t total = ll + ml;
        if (ZEST_UNLIKELY(total > std::size_t(block_end - op))) return overflow_error;
        if (ZEST_UNLIKELY(offset > std::size_t(op + ll - frame_begin))) return errc::offset_invalid;

        if (ZEST_LIKELY(std::size_t(buffer_end - op) >= total + wild_slack)) {
            wild_copy(op, lit, ll);
            op += ll;
            lit += ll;
            if (offset >= 16) {
                wild_copy(op, op - offset, ml);
            } else {
#if defined(__SSSE3__)
                if (op - frame_begin >= 16)
                    short_offset_copy(op, offset, ml);
                else
                    short_offset_copy_portable(op, offset, ml);
#else
                short_offset_copy_portable(op, offset, ml);
#endif
            }
            op += ml;
        } else {
            std::memcpy(op, lit, ll);
            op += ll;
            lit += ll;
            exact_match_copy(op, offset, ml);
            op += ml;
        }
    }
    if (job.nb_seq != 0) {
        br.refill();
        if (!br.finished()) return errc::sequences_invalid;
    }
    st.rep[0] = std::uint32_t(rep0);
    st.rep[1] = std::uint32_t(rep1);
    st.rep[2] = std::uint32_t(rep2);

    const std::size_t rest = std::size_t(lit_end - lit);
    if (rest > std::size_t(block_end - op)) return overflow_error;
    std::memcpy(op, lit, rest);
    out_end = op + rest;
    return ok;
}

}  // namespace
}  // namespace ZEST_KERNEL_NS

const kernel_set ZEST_KERNEL_SET = {ZEST_KERNEL_NAME, &ZEST_KERNEL_NS::huf_1x, &ZEST_KERNEL_NS::huf_4x,
                                    &ZEST_KERNEL_NS::sequences};

}  // namespace zest::detail
