// Hot loops of the decoder, written once and compiled per ISA.
// Included by kernels_<isa>.cpp, which define ZEST_KERNEL_NS (a namespace
// unique to the ISA), ZEST_KERNEL_SET (the exported kernel_set's name),
// ZEST_KERNEL_NAME and ZEST_KERNEL_ISA (its isa_level) and compile with that
// ISA's target flags.
#include <algorithm>
#include <cstring>

#include "decompress/kernels.hpp"

#if defined(__SSSE3__)
#include <immintrin.h>
#endif

namespace zest::detail {
namespace ZEST_KERNEL_NS {
namespace {

using u8 = std::uint8_t;

// Matches at offsets 8 to 15 up to this long take the inline 8-byte loop;
// longer ones the pattern copy (one store per vector).
constexpr std::size_t short8_inline_max = 16;

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

// As wild_copy, in the widest steps the target has (32 bytes with AVX2):
// may write and read up to 31 bytes past the end (wild_slack), and needs s
// at least that step behind d when they overlap.
#if defined(__AVX2__)
constexpr std::size_t wide_step = 32;
ZEST_INLINE void wide_copy(u8* d, const u8* s, std::size_t n) noexcept {
    u8* const e = d + n;
    do {
        // Intrinsics, not memcpy: g++ lowers a 32-byte memcpy to two 16-byte moves.
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(d), _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s)));
        d += 32;
        s += 32;
    } while (d < e);
}
#else
constexpr std::size_t wide_step = 16;
ZEST_INLINE void wide_copy(u8* d, const u8* s, std::size_t n) noexcept { wild_copy(d, s, n); }
#endif
static_assert(wide_step <= wild_slack, "wild copies must stay inside the slack");

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

#if defined(__AVX512VBMI__) && defined(__AVX512VL__)
// Matches with offsets of 16 to 63 (AVX-512 VBMI): one period held in a
// register and stored vector by vector, each vector the previous one
// permuted (vpermb moves bytes across the whole vector). A plain copy at
// these offsets loads bytes that the last store wrote in part, which the
// CPU cannot forward: every step waits for the store to reach the cache.
struct vbmi_masks {
    alignas(64) u8 spread[64][64];   // spread[d][j] = j % d: the d bytes before, repeated
    alignas(64) u8 step32[32][32];   // step32[d][j] = (32 + j) % d (d < 32)
    alignas(64) u8 step64[64][64];   // step64[d][j] = (64 + j) % d
};

constexpr vbmi_masks make_vbmi_masks() noexcept {
    vbmi_masks m{};
    for (unsigned d = 1; d < 64; ++d)
        for (unsigned j = 0; j < 64; ++j) {
            m.spread[d][j] = u8(j % d);
            m.step64[d][j] = u8((64 + j) % d);
            if (d < 32 && j < 32) m.step32[d][j] = u8((32 + j) % d);
        }
    return m;
}
constexpr vbmi_masks vbmi = make_vbmi_masks();

// Offsets 16 to 31, 32 bytes a step. Reads up to d + 16 (the match's source
// and bytes after it, permuted away); writes up to 31 bytes past d + n.
ZEST_NOINLINE void period_copy32(u8* d, std::size_t offset, std::size_t n) noexcept {
    const __m256i src = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(d - offset));
    // The maskz forms: g++ 12's plain ones start from an "undefined" vector
    // that -Wuninitialized reports.
    __m256i v = _mm256_maskz_permutexvar_epi8(
        ~__mmask32(0), _mm256_load_si256(reinterpret_cast<const __m256i*>(vbmi.spread[offset])), src);
    const __m256i step = _mm256_load_si256(reinterpret_cast<const __m256i*>(vbmi.step32[offset]));
    u8* const e = d + n;
    do {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(d), v);
        v = _mm256_maskz_permutexvar_epi8(~__mmask32(0), step, v);
        d += 32;
    } while (d < e);
}

// Offsets 32 to 63, 64 bytes a step and a last half-vector. Reads up to
// d + 32; writes up to 31 bytes past d + n.
ZEST_NOINLINE void period_copy64(u8* d, std::size_t offset, std::size_t n) noexcept {
    const __m512i src = _mm512_loadu_si512(d - offset);
    __m512i v = _mm512_maskz_permutexvar_epi8(~__mmask64(0), _mm512_load_si512(vbmi.spread[offset]), src);
    const __m512i step = _mm512_load_si512(vbmi.step64[offset]);
    u8* const e = d + n;
    while (e - d > 32) {
        _mm512_storeu_si512(d, v);
        v = _mm512_maskz_permutexvar_epi8(~__mmask64(0), step, v);
        d += 64;
    }
    if (d < e) _mm512_mask_storeu_epi8(d, __mmask64(0xFFFFFFFF), v);  // the low 32 bytes
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

// One Huffman stream in the 4-stream fast loop. `bits` holds the 8 bytes at
// `ip`, shifted left by the bits already consumed, with a marker 1 placed
// below the data when they were loaded: its position (the count of trailing
// zeros) is the number of bits consumed since, so no counter is kept.
struct fast_stream {
    std::uint64_t bits;
    const u8* ip;
};

// The bits consumed since the load at ip.
ZEST_INLINE unsigned fast_consumed(std::uint64_t bits) noexcept { return unsigned(__builtin_ctzll(bits)); }

// Moves ip back over the whole bytes consumed and reloads (at most 62 bits
// are consumed between loads: 7 padding bits plus five 11-bit codes).
ZEST_INLINE void fast_refill(std::uint64_t& bits, const u8*& ip) noexcept {
    const unsigned c = fast_consumed(bits);
    ip -= c >> 3;
    bits = (load_le64(ip) | 1) << (c & 7);
}

// A checked reader's state as a fast stream (the reader holds 8 bytes) and back.
ZEST_INLINE fast_stream to_fast(const backward_bit_reader& br) noexcept {
    return {(br.container | 1) << br.consumed, br.ptr};
}
ZEST_INLINE void from_fast(backward_bit_reader& br, const fast_stream& fs) noexcept {
    br.ptr = fs.ip;
    br.container = load_le64(fs.ip);
    br.consumed = fast_consumed(fs.bits);
}

// A stream's last codes, after the bursts, with the checked reader: four per
// refill while 8 bytes remain; then, per careful refill, as many as the
// loaded bits surely hold (each code is at most max_bits long); and once
// the whole stream's start is loaded, the rest without a check each: a
// code read past the stream's end only shows in the count of bits
// consumed, checked after them. The stream must end exactly.
errc finish_stream(const backward_bit_reader& stream, u8* o, u8* const e, const huffman_table& t) noexcept {
    // A local copy: the output's byte stores could alias the caller's
    // reader, which would then be stored and reloaded around each of them.
    backward_bit_reader br = stream;
    const unsigned mb = t.max_bits;
    if (t.pairs_ready) {
        // The same with the two-symbol table (a lookup takes at most
        // huf_max_bits and writes 2 bytes, of which 1 or 2 count) while 2
        // bytes of room remain; the last byte, if any, below.
        while (e - o >= 2) {
            br.refill();
            std::size_t k = std::size_t(e - o) / 2;
            if (br.ptr != br.start) k = std::min<std::size_t>(k, (64 - br.consumed) / huf_max_bits);
            for (std::size_t i = 0; i < k; ++i) {
                const std::uint32_t x = t.pairs[br.peek_nz(huf_max_bits)];
                const std::uint16_t two = std::uint16_t(x >> 16);
                std::memcpy(o, &two, 2);
                o += (x >> 8) & 0xFF;
                br.skip(x & 0xFF);
            }
            if (br.overflowed()) return errc::literals_invalid;
        }
    }
    const std::uint16_t* tab = t.entries;
    while (e - o >= 4 && br.can_refill_fast()) {
        br.refill_fast();
        for (int k = 0; k < 4; ++k) {
            const std::uint16_t x = tab[br.peek_nz(mb)];
            br.skip(x & 0xFF);
            o[k] = u8(x >> 8);
        }
        o += 4;
    }
    while (o < e) {
        br.refill();
        // Not at the stream's start: the refill left at most 7 bits
        // consumed, so at least 57 / max_bits codes are whole in the
        // container. At the start: the codes left (at most 64, one bit
        // each, in a valid stream) are decoded; with consumed past 64 the
        // peeks read shifted garbage, in range of the table, and the
        // stream is rejected below.
        std::size_t k = std::size_t(e - o);
        if (br.ptr != br.start) k = std::min<std::size_t>(k, (64 - br.consumed) / mb);
        for (std::size_t i = 0; i < k; ++i) {
            const std::uint16_t x = tab[br.peek_nz(mb)];
            br.skip(x & 0xFF);
            o[i] = u8(x >> 8);
        }
        o += k;
        if (br.overflowed()) return errc::literals_invalid;
    }
    br.refill();
    return br.finished() ? ok : errc::literals_invalid;
}

// Codes decoded per stream between refills: 5 * 11 bits + 7 left over <= 62.
constexpr unsigned huf_fast_codes = 5;

// The 4-stream loop without bounds checks inside: it runs in bursts of as
// many rounds as every stream has input bytes (a round reads at most 7 per
// stream) and output room for (`per_round` bytes per stream at most), then
// recomputes. Entry is the table lookup of one code: Pairs selects the
// two-symbol table (up to 2 bytes out per lookup, writing 2 always).
template <bool Pairs>
ZEST_INLINE void huf_4x_fast(fast_stream (&fs)[4], u8* (&op)[4], u8* const (&seg_end)[4],
                             const u8* const (&stream_begin)[4], const huffman_table& t) noexcept {
    const unsigned top = 64 - (Pairs ? huf_max_bits : t.max_bits);
    constexpr std::size_t per_round = Pairs ? 2 * huf_fast_codes : huf_fast_codes;
    std::uint64_t b0 = fs[0].bits, b1 = fs[1].bits, b2 = fs[2].bits, b3 = fs[3].bits;
    const u8 *i0 = fs[0].ip, *i1 = fs[1].ip, *i2 = fs[2].ip, *i3 = fs[3].ip;
    u8 *o0 = op[0], *o1 = op[1], *o2 = op[2], *o3 = op[3];
    for (;;) {
        std::size_t rounds = std::size_t(i0 - stream_begin[0]) / 7;
        rounds = std::min(rounds, std::size_t(i1 - stream_begin[1]) / 7);
        rounds = std::min(rounds, std::size_t(i2 - stream_begin[2]) / 7);
        rounds = std::min(rounds, std::size_t(i3 - stream_begin[3]) / 7);
        rounds = std::min(rounds, std::size_t(seg_end[0] - o0) / per_round);
        rounds = std::min(rounds, std::size_t(seg_end[1] - o1) / per_round);
        rounds = std::min(rounds, std::size_t(seg_end[2] - o2) / per_round);
        rounds = std::min(rounds, std::size_t(seg_end[3] - o3) / per_round);
        if (rounds == 0) break;
        do {
            for (unsigned k = 0; k < huf_fast_codes; ++k) {
                if constexpr (Pairs) {
#define ZEST_HUF_STEP(b, o)                                        \
    {                                                              \
        const std::uint32_t e = t.pairs[b >> top];                 \
        const std::uint16_t two = std::uint16_t(e >> 16);          \
        std::memcpy(o, &two, 2);                                   \
        o += (e >> 8) & 0xFF;                                      \
        b <<= e & 63;                                              \
    }
                    ZEST_HUF_STEP(b0, o0) ZEST_HUF_STEP(b1, o1) ZEST_HUF_STEP(b2, o2) ZEST_HUF_STEP(b3, o3)
#undef ZEST_HUF_STEP
                } else {
#define ZEST_HUF_STEP(b, o)                                        \
    {                                                              \
        const std::uint16_t e = t.entries[b >> top];               \
        o[k] = u8(e >> 8);                                         \
        b <<= e & 63;                                              \
    }
                    ZEST_HUF_STEP(b0, o0) ZEST_HUF_STEP(b1, o1) ZEST_HUF_STEP(b2, o2) ZEST_HUF_STEP(b3, o3)
#undef ZEST_HUF_STEP
                }
            }
            if constexpr (!Pairs) {
                o0 += huf_fast_codes;
                o1 += huf_fast_codes;
                o2 += huf_fast_codes;
                o3 += huf_fast_codes;
            }
            fast_refill(b0, i0);
            fast_refill(b1, i1);
            fast_refill(b2, i2);
            fast_refill(b3, i3);
        } while (--rounds != 0);
    }
    fs[0] = {b0, i0};
    fs[1] = {b1, i1};
    fs[2] = {b2, i2};
    fs[3] = {b3, i3};
    op[0] = o0;
    op[1] = o1;
    op[2] = o2;
    op[3] = o3;
}

errc huf_1x(u8* dst, std::size_t n, const u8* src, std::size_t size, const huffman_table& t) noexcept {
    backward_bit_reader br;
    if (!br.init(src, size)) return errc::literals_invalid;
    u8* op = dst;
    u8* const end = dst + n;
    if (size >= 8 && t.max_bits <= huf_max_bits) {
        // Bursts without checks, as in the 4-stream loop; with the
        // two-symbol table when it is built (up to 2 bytes per lookup,
        // writing 2 always). Not for 12-bit tables: five codes would not
        // fit between refills.
        const unsigned top = 64 - (t.pairs_ready ? huf_max_bits : t.max_bits);
        fast_stream fs = to_fast(br);
        const std::size_t per_round = t.pairs_ready ? 2 * huf_fast_codes : huf_fast_codes;
        for (;;) {
            std::size_t rounds = std::min(std::size_t(fs.ip - src) / 7, std::size_t(end - op) / per_round);
            if (rounds == 0) break;
            if (t.pairs_ready) {
                do {
                    for (unsigned k = 0; k < huf_fast_codes; ++k) {
                        const std::uint32_t e = t.pairs[fs.bits >> top];
                        const std::uint16_t two = std::uint16_t(e >> 16);
                        std::memcpy(op, &two, 2);
                        op += (e >> 8) & 0xFF;
                        fs.bits <<= e & 63;
                    }
                    fast_refill(fs.bits, fs.ip);
                } while (--rounds != 0);
            } else {
                do {
                    for (unsigned k = 0; k < huf_fast_codes; ++k) {
                        const std::uint16_t e = t.entries[fs.bits >> top];
                        op[k] = u8(e >> 8);
                        fs.bits <<= e & 63;
                    }
                    op += huf_fast_codes;
                    fast_refill(fs.bits, fs.ip);
                } while (--rounds != 0);
            }
        }
        from_fast(br, fs);
    }
    return finish_stream(br, op, end, t);
}

errc huf_4x(u8* dst, std::size_t n, const u8* src, std::size_t size, const huffman_table& t) noexcept {
    if (size < 10) return errc::literals_invalid;
    const std::size_t s1 = load_le16(src), s2 = load_le16(src + 2), s3 = load_le16(src + 4);
    if (6 + s1 + s2 + s3 >= size) return errc::literals_invalid;
    const std::size_t s4 = size - 6 - s1 - s2 - s3;
    const std::size_t seg = (n + 3) / 4;
    if (3 * seg > n) return errc::literals_invalid;

    const u8* const p = src + 6;
    const u8* const begin[4] = {p, p + s1, p + s1 + s2, p + s1 + s2 + s3};
    const std::size_t sizes[4] = {s1, s2, s3, s4};
    backward_bit_reader b[4];
    for (int s = 0; s < 4; ++s)
        if (!b[s].init(begin[s], sizes[s])) return errc::literals_invalid;

    u8* op[4] = {dst, dst + seg, dst + 2 * seg, dst + 3 * seg};
    u8* const seg_end[4] = {dst + seg, dst + 2 * seg, dst + 3 * seg, dst + n};

    if (s1 >= 8 && s2 >= 8 && s3 >= 8 && s4 >= 8 && t.max_bits <= huf_max_bits) {
        // Every stream holds a whole 8-byte load: the fast loop, then back
        // to the readers for each stream's last codes. (Tables 12 bits
        // deep, which no usual encoder writes, take the readers' loops.)
        fast_stream fs[4];
        for (int s = 0; s < 4; ++s) fs[s] = to_fast(b[s]);
        if (t.pairs_ready)
            huf_4x_fast<true>(fs, op, seg_end, begin, t);
        else
            huf_4x_fast<false>(fs, op, seg_end, begin, t);
        for (int s = 0; s < 4; ++s) from_fast(b[s], fs[s]);
    }

    for (int s = 0; s < 4; ++s) ZEST_TRY(finish_stream(b[s], op[s], seg_end[s], t));
    return ok;
}

// The low n bits of v (n < 64).
ZEST_INLINE std::uint64_t low_bits(std::uint64_t v, unsigned n) noexcept { return v & ((std::uint64_t(1) << n) - 1); }

struct sequence {
    std::size_t ll, ml, offset;
};

// Decoding side of the sequence loop. The FSE states, repeat offsets and
// bit reader are the caller's locals, taken by reference by an
// always-inlined function so that they stay in registers.
// All three tables in use sit in one seq_table_set (the state's or a
// dictionary's), so one base pointer addresses them (fewer live registers).
struct seq_tables {
    const seq_table_set* set;
    ZEST_INLINE const seq_cell& ll(std::uint32_t i) const noexcept { return set->ll.storage[i]; }
    ZEST_INLINE const seq_cell& of(std::uint32_t i) const noexcept { return set->of.storage[i]; }
    ZEST_INLINE const seq_cell& ml(std::uint32_t i) const noexcept { return set->ml.storage[i]; }
};

template <bool UpdateStates>
ZEST_INLINE sequence decode_sequence(backward_bit_reader& br, const seq_tables& t, std::uint32_t& lls,
                                     std::uint32_t& ofs, std::uint32_t& mls, std::size_t (&rep)[3]) noexcept {
    const seq_cell& l = t.ll(lls);
    const seq_cell& m = t.ml(mls);
    const seq_cell& o = t.of(ofs);
    sequence s;
    const unsigned lb = l.extra_bits, mb = m.extra_bits, ob = o.extra_bits;
    const unsigned lmb = lb + mb;
    std::size_t of_value;
    // 57 bits are loaded after a refill: 31 for the three values leaves 26
    // for the three state updates. Within 31 bits (nearly always) the three
    // values come from one read: offset bits on top, then match, then
    // literal length.
    if (ZEST_LIKELY(lmb + ob <= 31)) {
        const std::uint64_t v = br.read(lmb + ob);
        of_value = o.base + std::size_t(v >> lmb);
        s.ml = m.base + std::size_t(low_bits(v >> lb, mb));
        s.ll = l.base + std::size_t(low_bits(v, lb));
    } else {
        of_value = o.base + std::size_t(br.read(ob));
        s.ml = m.base + std::size_t(br.read(mb));
        br.refill();
        s.ll = l.base + std::size_t(br.read(lb));
    }

    // Offset values 1..3 are repeat codes, shifted by one when the literal
    // length is 0 (code 0, the only literal-length code whose base is 0).
    // Branching on the offset code's extra-bit count (0 or 1 for the repeat
    // codes) rather than on the value lets the branch resolve before the
    // bits are read. Branches beat selects here even on data where most
    // offsets repeat in no set order (measured).
    if (ob > 1) {
        s.offset = of_value - 3;
        rep[2] = rep[1];
        rep[1] = rep[0];
        rep[0] = s.offset;
    } else {
        const std::size_t idx = of_value - 1 + (l.base == 0);
        if (idx == 0) {
            s.offset = rep[0];
        } else if (idx == 1) {
            s.offset = rep[1];
            rep[1] = rep[0];
            rep[0] = s.offset;
        } else {
            std::size_t off = idx == 3 ? rep[0] - 1 : rep[2];
            // A zero offset (repeat 1 minus 1 when it is 1) is corrupt: it
            // becomes the largest offset, which execute() rejects as reaching
            // before the data, so that the common path pays no extra test
            // (libzstd up to 1.5.5 read it as 1; later versions reject it).
            off -= off == 0;
            rep[2] = rep[1];
            rep[1] = rep[0];
            rep[0] = off;
            s.offset = off;
        }
    }
    if (UpdateStates) {
        // At most 9 + 9 + 8 bits, read at once: literal-length state bits
        // on top, then match length, then offset.
        const unsigned mnb = m.nb_bits, onb = o.nb_bits;
        const std::uint64_t w = br.read(l.nb_bits + mnb + onb);
        lls = l.next_base + std::uint32_t(w >> (mnb + onb));
        mls = m.next_base + std::uint32_t(low_bits(w >> onb, mnb));
        ofs = o.next_base + std::uint32_t(low_bits(w, onb));
        br.refill();
    }
    return s;
}

// Executing side: literal and match copies into the output. Plain locals
// passed by reference to an always-inlined function, so that they live in
// registers (an out-of-line member call would pin them to memory).
struct exec_limits {
    const u8* lit_end;
    u8* block_end;
    u8* fast_end;  // below it, wild copies stay inside the buffer and the block
    u8* frame_begin;
    errc overflow_error;
    // History in another segment (streaming; ext_size 0 = none).
    const u8* ext_end;
    std::size_t ext_size;
    std::size_t window;
    // A dictionary before that, past output no longer held (far_size 0 = none).
    const u8* far_end;
    std::size_t far_size;
    std::size_t far_gap;
};

// Near the end of the buffer: exact copies, nothing written past the block.
ZEST_NOINLINE void execute_careful(u8* op, const u8* lit, std::size_t ll, std::size_t ml,
                                   std::size_t offset) noexcept {
    std::memcpy(op, lit, ll);
    exact_match_copy(op + ll, offset, ml);
}

// A match that starts in the history segment before frame_begin (streaming
// decoders wrap their window buffer): exact copies, from that segment's end
// and then, if the match runs on, from frame_begin. Or, further back, wholly
// inside a dictionary (far_*), as the one-shot decoder and libzstd read
// such matches: a repeat offset may reach it after more than a window.
// Offsets beyond the window (the one-shot decoder and libzstd read them
// too) while the segment still holds their bytes: the segment lies after
// frame_begin in the same buffer once the stream has wrapped, and is
// written over from there, wild copies included.
ZEST_NOINLINE errc execute_ext(u8* op, const u8* lit, std::size_t ll, std::size_t ml, std::size_t offset,
                               const exec_limits& lim) noexcept {
    u8* const m = op + ll;
    const std::size_t before = offset - std::size_t(m - lim.frame_begin);  // bytes back from ext_end
    const auto still_held = [&](const u8* from) {
        return reinterpret_cast<std::uintptr_t>(from) >= reinterpret_cast<std::uintptr_t>(m) + ml + wild_slack;
    };
    const u8* from;
    if (lim.ext_size != 0 && before <= lim.ext_size &&
        (offset <= lim.window || still_held(lim.ext_end - before))) {
        from = lim.ext_end - before;
    } else if (before > lim.far_gap && before - lim.far_gap <= lim.far_size && ml <= before - lim.far_gap) {
        from = lim.far_end - (before - lim.far_gap);  // ml <= before: the copy below stays in the dictionary
    } else {
        return errc::offset_invalid;
    }
    if (ll + ml > std::size_t(lim.block_end - op)) return lim.overflow_error;
    std::memcpy(op, lit, ll);
    if (ml <= before) {
        std::memmove(m, from, ml);
    } else {
        std::memmove(m, from, before);
        exact_match_copy(m + before, offset, ml - before);
    }
    return ok;
}

ZEST_INLINE errc execute(const sequence& s, u8*& op, const u8*& lit, const exec_limits& lim) noexcept {
    const std::size_t ll = s.ll, ml = s.ml, offset = s.offset;
    if (ZEST_UNLIKELY(ll > std::size_t(lim.lit_end - lit))) return errc::sequences_invalid;
    if (ZEST_UNLIKELY(offset > std::size_t(op - lim.frame_begin) + ll)) {
        // A match in the history segment (a dictionary's content, or a
        // stream's wrapped window). Wide copies, when the source stays in
        // that segment even rounded up to a step (it never overlaps the
        // output) and the output has the slack; exact ones otherwise.
        const std::size_t before = offset - (std::size_t(op - lim.frame_begin) + ll);
        if (before <= lim.ext_size && offset <= lim.window && ml + wide_step <= before &&
            std::ptrdiff_t(ll + ml) <= lim.fast_end - op) {
            wide_copy(op, lit, ll);
            wide_copy(op + ll, lim.ext_end - before, ml);
            op += ll + ml;
            lit += ll;
            return ok;
        }
        const errc e = execute_ext(op, lit, ll, ml, offset, lim);
        if (e != ok) return e;
        op += ll + ml;
        lit += ll;
        return ok;
    }
    const std::size_t total = ll + ml;
    // Signed: op may already be past fast_end near the buffer's end (total
    // is at most a few hundred KiB, so the cast is exact).
    if (ZEST_LIKELY(std::ptrdiff_t(total) <= lim.fast_end - op)) {
        // Literals never overlap the output: copy them in the widest steps.
        wide_copy(op, lit, ll);
        u8* const m = op + ll;
#if defined(__AVX512VBMI__) && defined(__AVX512VL__)
        // (Beyond one vector's worth, where the plain copy would load what
        // it just stored.)
        if (offset < 32 && offset >= 16 && ml > 16) {
            period_copy32(m, offset, ml);
        } else if (offset < 64 && offset >= 32 && ml > 32) {
            period_copy64(m, offset, ml);
        } else
#endif
        if (offset >= wide_step) {
            wide_copy(m, m - offset, ml);
        } else if (offset >= 16) {
            wild_copy(m, m - offset, ml);
        } else if (offset >= 8 && ml <= short8_inline_max) {
            // Each 8-byte step reads bytes already written: plain 8-byte
            // copies, inline (columns of 8-byte integers repeat at offset 8).
            const u8* src = m - offset;
            u8* d = m;
            u8* const e = m + ml;
            do {
                std::memcpy(d, src, 8);
                d += 8;
                src += 8;
            } while (d < e);
        } else {
#if defined(__SSSE3__)
            if (m - lim.frame_begin >= 16)
                short_offset_copy(m, offset, ml);
            else
                short_offset_copy_portable(m, offset, ml);
#else
            short_offset_copy_portable(m, offset, ml);
#endif
        }
    } else {
        if (total > std::size_t(lim.block_end - op)) return lim.overflow_error;
        execute_careful(op, lit, ll, ml, offset);
    }
    op += total;
    lit += ll;
    return ok;
}

// Sequences are decoded this far ahead of their execution, so that the
// match source of each can be prefetched while earlier ones are copied.
// Used once the frame's history is large enough (16 MiB, where the reference
// also switches) that match sources are likely cache misses; below that the
// look-ahead costs more than it saves (measured on the corpus set).
constexpr unsigned lookahead = 8;
#ifndef ZEST_PREFETCH_HISTORY
#define ZEST_PREFETCH_HISTORY (1u << 24)
#endif
constexpr std::size_t prefetch_history = ZEST_PREFETCH_HISTORY;

ZEST_INLINE void prefetch_match(std::uintptr_t ahead, const sequence& s) noexcept {
    // Integer arithmetic: a corrupt sequence may point anywhere, and a
    // prefetch never faults.
    const std::uintptr_t p = ahead + s.ll - s.offset;
    __builtin_prefetch(reinterpret_cast<const void*>(p));
    __builtin_prefetch(reinterpret_cast<const void*>(p + 63));
}

// Executes a sequence; a failure after the bitstream ran past its start is
// reported as the corrupt stream it comes from, not as the garbage sequence
// decoded from missing bits.
#define ZEST_EXECUTE(seq)                                                           \
    do {                                                                            \
        const errc zest_e_ = execute(seq, op, lit, lim);                            \
        if (ZEST_UNLIKELY(zest_e_ != ok)) return br.overflowed() ? errc::sequences_invalid : zest_e_; \
    } while (0)

// The block's sequence loop; Prefetch selects the look-ahead form.
template <bool Prefetch>
ZEST_NOINLINE errc run_sequences(const sequences_job& job, u8*& out_end) noexcept {
    decoder_state& st = *job.st;
    backward_bit_reader br;
    if (!br.init(job.stream, job.stream_size)) return errc::sequences_invalid;
    const seq_tables t{st.seq_tables};
    std::uint32_t lls = std::uint32_t(br.read(t.set->ll.log));
    std::uint32_t ofs = std::uint32_t(br.read(t.set->of.log));
    std::uint32_t mls = std::uint32_t(br.read(t.set->ml.log));
    br.refill();
    std::size_t rep[3] = {st.rep[0], st.rep[1], st.rep[2]};

    u8* op = job.op;
    const u8* lit = job.lits.ptr;
    exec_limits lim;
    lim.lit_end = job.lits.ptr + job.lits.size;
    lim.block_end = job.block_end;
    {
        const std::size_t room = std::size_t(job.buffer_end - job.op);
        u8* const wild_end = room > wild_slack ? job.buffer_end - wild_slack : job.op;
        lim.fast_end = wild_end < job.block_end ? wild_end : job.block_end;
    }
    lim.frame_begin = job.frame_begin;
    lim.ext_end = job.ext_end;
    lim.ext_size = job.ext_size;
    lim.window = job.window;
    lim.far_end = job.far_end;
    lim.far_size = job.far_size;
    lim.far_gap = job.far_gap;
    // Running past the block's limit is corruption unless the limit is the
    // caller's buffer, in which case the buffer is too small.
    lim.overflow_error = job.block_end == job.buffer_end ? errc::destination_too_small : errc::block_invalid;

    const unsigned n = job.nb_seq;  // >= 1
    if (!Prefetch) {
        // Recent history is cache-resident: decode and execute in one step.
        for (unsigned i = n - 1; i != 0; --i)
            ZEST_EXECUTE(decode_sequence<true>(br, t, lls, ofs, mls, rep));
        ZEST_EXECUTE(decode_sequence<false>(br, t, lls, ofs, mls, rep));
    } else {
        // Decode `lookahead` sequences ahead of execution. The last sequence
        // skips the state update; it is peeled off so the loops stay branch-free.
        sequence ring[lookahead];
        std::uintptr_t ahead = reinterpret_cast<std::uintptr_t>(op);
        const unsigned lead = n - 1 < lookahead ? n - 1 : lookahead;
        unsigned i = 0;
        for (; i < lead; ++i) {
            ring[i] = decode_sequence<true>(br, t, lls, ofs, mls, rep);
            prefetch_match(ahead, ring[i]);
            ahead += ring[i].ll + ring[i].ml;
        }
        for (; i < n - 1; ++i) {
            const sequence s = decode_sequence<true>(br, t, lls, ofs, mls, rep);
            prefetch_match(ahead, s);
            ahead += s.ll + s.ml;
            ZEST_EXECUTE(ring[i % lookahead]);
            ring[i % lookahead] = s;
        }
        // Sequences [n - 1 - lead, n - 1) are in the ring; the last is decoded now.
        const sequence last = decode_sequence<false>(br, t, lls, ofs, mls, rep);
        for (unsigned j = n - 1 - lead; j < n - 1; ++j) ZEST_EXECUTE(ring[j % lookahead]);
        ZEST_EXECUTE(last);
    }

    br.refill();
    if (!br.finished()) return errc::sequences_invalid;
    st.rep[0] = std::uint32_t(rep[0]);
    st.rep[1] = std::uint32_t(rep[1]);
    st.rep[2] = std::uint32_t(rep[2]);

    const std::size_t rest = std::size_t(lim.lit_end - lit);
    if (rest > std::size_t(lim.block_end - op)) return lim.overflow_error;
    std::memcpy(op, lit, rest);
    out_end = op + rest;
    return ok;
}

#undef ZEST_EXECUTE

errc sequences(const sequences_job& job, u8*& out_end) noexcept {
    if (job.nb_seq == 0) return errc::sequences_invalid;  // callers handle blocks without sequences
    if (std::size_t(job.op - job.frame_begin) < prefetch_history) return run_sequences<false>(job, out_end);
    return run_sequences<true>(job, out_end);
}

}  // namespace
}  // namespace ZEST_KERNEL_NS

const kernel_set ZEST_KERNEL_SET = {ZEST_KERNEL_NAME, ZEST_KERNEL_ISA, &ZEST_KERNEL_NS::huf_1x,
                                    &ZEST_KERNEL_NS::huf_4x, &ZEST_KERNEL_NS::sequences};

}  // namespace zest::detail
