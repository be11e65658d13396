// The `fast` and `dfast` strategies with a dictionary attached: the
// dictionary's content stays where it is, with match tables of its own that
// were filled once when the dictionary was prepared for these parameters
// (dictionary_data::tables_for, fill_dictionary_tables) and are only read
// here. At each position
// the frame's own tables and then the dictionary's are probed, with one hash
// each (the own tables are sized for the frame, at most as large as the
// dictionary's: their index is the top bits of the dictionary's), so a
// message pays for its own bytes and not for hashing the content again.
//
// The dictionary's content comes just before the frame's first position in
// the offsets' reckoning: its index j (1 <= j < dict_end) is dict_end - j
// bytes before ms.low. A match into it may run past its end into the
// frame's first bytes, as the decoder sees them contiguous.
//
// Compiled once per instruction set (compress/kernels.inl).
namespace zest::detail::ZEST_CKERNEL_NS {
namespace attached_strategy {

constexpr std::size_t tail_reserve = 8;  // the long hash reads 8 bytes at the last searched position
constexpr unsigned search_strength = 8;  // the step grows by one per 256 bytes without a match

// A place a match may come from: its first byte and the end of the memory
// it lies in (the dictionary's end, or the frame's).
struct source {
    const std::uint8_t* at = nullptr;
    const std::uint8_t* seg_end = nullptr;
};

template <unsigned MLS, bool Double>
void attached_block(match_state& ms, seq_store& out, repeat_offsets& reps, std::size_t begin,
                    std::size_t end) noexcept {
    const std::uint8_t* const b = ms.base;
    const std::size_t low = ms.low;
    // Own tables: dfast's long table is hash_table (8 bytes) and its short
    // one chain_table (MLS bytes); fast has only hash_table (MLS bytes).
    std::uint32_t* const own_long = ms.hash_table;
    std::uint32_t* const own_short = Double ? ms.chain_table : ms.hash_table;
    const std::uint32_t* const dict_long = ms.dict_hash;
    const std::uint32_t* const dict_short = Double ? ms.dict_chain : ms.dict_hash;
    // Hashes are taken at the dictionary's sizes; the own tables' slots
    // are their top bits (own tables are no larger than the dictionary's).
    const unsigned lbits = ms.dict_hash_log;
    const unsigned sbits = Double ? ms.dict_chain_log : ms.dict_hash_log;
    const unsigned own_lbits = ms.params.hash_log;
    const unsigned own_sbits = Double ? ms.params.chain_log : ms.params.hash_log;
    const unsigned lshift = lbits - own_lbits, sshift = sbits - own_sbits;
    const std::uint8_t* const db = ms.dict_base;
    const std::size_t dend = ms.dict_end;
    const std::uint8_t* const dict_stop = db + dend;
    const std::size_t step_base = Double ? 1 : std::size_t(ms.params.target_length) + (ms.params.target_length == 0);
    ms.next_to_update = std::uint32_t(end);

    std::size_t anchor = begin;
    seq_sink sink(out, reps);
    if (end - begin < tail_reserve + 4) {
        sink.add_last_literals(b + begin, end - begin);
        sink.finish();
        return;
    }
    const std::size_t ilimit = end - tail_reserve;
    const std::uint8_t* const iend = b + end;

    // dfast's long hash reads 8 bytes; fast's one table is keyed on MLS.
    auto hash_long = [&](std::size_t at) {
        if constexpr (Double) return hash_at<8>(b + at, lbits);
        else return hash_at<MLS>(b + at, lbits);
    };
    auto hash_short = [&](std::size_t at) { return hash_at<MLS>(b + at, sbits); };
    // The own tables' entries, for positions only inserted.
    auto own_hash_long = [&](std::size_t at) {
        if constexpr (Double) return hash_at<8>(b + at, own_lbits);
        else return hash_at<MLS>(b + at, own_lbits);
    };
    auto own_hash_short = [&](std::size_t at) { return hash_at<MLS>(b + at, own_sbits); };
    // Where `rep` bytes before `at` is, when 4 bytes can be compared there
    // without straddling the dictionary's end (the frame is attached to the
    // dictionary only when the window holds both, see compressor.cpp).
    auto repeat_source = [&](std::size_t at, std::uint32_t rep) -> source {
        if (rep == 0) return {};
        const std::size_t in_frame = at - low;
        if (rep <= in_frame) return {b + at - rep, iend};
        const std::size_t back = rep - in_frame;  // bytes before the frame's start
        if (back < 4 || back >= dend) return {};
        return {db + dend - back, dict_stop};
    };
    // The length of the match of position `at` with `s`, `known` bytes of
    // which already compared equal; a dictionary match goes on at the
    // frame's start when it reaches the dictionary's end.
    auto length = [&](std::size_t at, source s, std::size_t known) -> std::size_t {
        const std::uint8_t* const a = b + at;
        const std::size_t room = std::size_t(s.seg_end - s.at);
        const std::uint8_t* const stop = room < std::size_t(iend - a) ? a + room : iend;
        std::size_t len = known + common_length(a + known, s.at + known, stop);
        if (s.seg_end == dict_stop && s.at + len == dict_stop) len += common_length(a + len, b + low, iend);
        return len;
    };
    auto own_ok = [&](std::size_t idx, std::size_t at) { return idx >= low && idx < at; };

    std::size_t ip = begin;
    std::uint32_t rep1 = sink.last_offset(), rep2 = sink.second_offset();

    while (ip < ilimit) {
        std::size_t len = 0, offset = 0;
        source s{};
        const std::uint8_t* back_limit = nullptr;  // how far back the match may grow
        bool is_rep = false;

        const std::size_t hl = hash_long(ip);
        const std::size_t hs = Double ? hash_short(ip) : hl;
        const std::size_t own_hl = hl >> lshift, own_hs = hs >> sshift;
        const std::size_t own_l = own_long[own_hl];
        const std::size_t own_s = Double ? own_short[own_hs] : 0;
        const std::size_t dict_l = dict_long[hl];
        const std::size_t dict_s = Double ? dict_short[hs] : 0;
        own_long[own_hl] = std::uint32_t(ip);
        if constexpr (Double) own_short[own_hs] = std::uint32_t(ip);

        constexpr std::size_t probe = Double ? 8 : 4;  // bytes a table candidate must match
        auto same = [&](const std::uint8_t* p, std::size_t at, std::size_t n) {
            return n == 8 ? load64(p) == load64(b + at) : load32(p) == load32(b + at);
        };
        const source r1 = repeat_source(ip + 1, rep1);
        if (r1.at && load32(r1.at) == load32(b + ip + 1)) {
            // The last offset, one byte ahead.
            ++ip;
            s = r1;
            len = length(ip, s, 4);
            is_rep = true;
        } else if (own_ok(own_l, ip) && same(b + own_l, ip, probe)) {
            s = {b + own_l, iend};
            back_limit = b + low;
            len = length(ip, s, probe);
            offset = ip - own_l;
        } else if (dict_l != 0 && same(db + dict_l, ip, probe)) {
            s = {db + dict_l, dict_stop};
            back_limit = db + 1;
            len = length(ip, s, probe);
            offset = ip - low + dend - dict_l;
        } else if (Double && ((own_ok(own_s, ip) && load32(b + own_s) == load32(b + ip)) ||
                              (dict_s != 0 && load32(db + dict_s) == load32(b + ip)))) {
            // A short match; a long one one byte later is taken instead.
            const bool own = own_ok(own_s, ip) && load32(b + own_s) == load32(b + ip);
            const std::size_t h1 = hash_long(ip + 1);
            const std::size_t own_l1 = own_long[h1 >> lshift], dict_l1 = dict_long[h1];
            if (own_ok(own_l1, ip + 1) && load64(b + own_l1) == load64(b + ip + 1)) {
                ++ip;
                s = {b + own_l1, iend};
                back_limit = b + low;
                len = length(ip, s, 8);
                offset = ip - own_l1;
            } else if (dict_l1 != 0 && load64(db + dict_l1) == load64(b + ip + 1)) {
                ++ip;
                s = {db + dict_l1, dict_stop};
                back_limit = db + 1;
                len = length(ip, s, 8);
                offset = ip - low + dend - dict_l1;
            } else if (own) {
                s = {b + own_s, iend};
                back_limit = b + low;
                len = length(ip, s, 4);
                offset = ip - own_s;
            } else {
                s = {db + dict_s, dict_stop};
                back_limit = db + 1;
                len = length(ip, s, 4);
                offset = ip - low + dend - dict_s;
            }
        } else {
            ip += ((ip - anchor) >> search_strength) + step_base;
            continue;
        }

        const std::size_t search_start = ip;
        if (is_rep) {
            sink.add_last(b + anchor, std::uint32_t(ip - anchor), std::uint32_t(len));
        } else {
            const std::uint8_t* m = s.at;
            while (ip > anchor && m > back_limit && b[ip - 1] == m[-1]) --ip, --m, ++len;
            rep2 = rep1;
            rep1 = std::uint32_t(offset);
            sink.add_new(b + anchor, std::uint32_t(ip - anchor), std::uint32_t(offset), std::uint32_t(len));
        }
        ip += len;
        anchor = ip;

        if (ip <= ilimit) {
            // Entries from inside the match: after its search start, at its end.
            const std::size_t inside = search_start + 2;
            own_long[own_hash_long(inside)] = std::uint32_t(inside);
            if constexpr (Double) own_short[own_hash_short(inside)] = std::uint32_t(inside);
            own_long[own_hash_long(ip - 2)] = std::uint32_t(ip - 2);
            if constexpr (Double) own_short[own_hash_short(ip - 1)] = std::uint32_t(ip - 1);
            // The second repeat offset right after the match.
            while (ip <= ilimit) {
                const source r2 = repeat_source(ip, rep2);
                if (!r2.at || load32(r2.at) != load32(b + ip)) break;
                const std::size_t rlen = length(ip, r2, 4);
                std::swap(rep1, rep2);
                own_long[own_hash_long(ip)] = std::uint32_t(ip);
                if constexpr (Double) own_short[own_hash_short(ip)] = std::uint32_t(ip);
                sink.add_second(std::uint32_t(rlen));
                ip += rlen;
                anchor = ip;
            }
        }
    }
    sink.add_last_literals(b + anchor, end - anchor);
    sink.finish();
}

}  // namespace attached_strategy

/// fast or dfast, as ms.params names, with ms's dictionary attached.
void attached_finder(match_state& ms, seq_store& out, repeat_offsets& reps, std::size_t begin,
                     std::size_t end) noexcept {
    using namespace attached_strategy;
    const bool dbl = ms.params.strategy == strategy::dfast;
    switch (ms.params.min_match) {
        case 5: dbl ? attached_block<5, true>(ms, out, reps, begin, end) : attached_block<5, false>(ms, out, reps, begin, end); break;
        case 6: dbl ? attached_block<6, true>(ms, out, reps, begin, end) : attached_block<6, false>(ms, out, reps, begin, end); break;
        case 7: dbl ? attached_block<7, true>(ms, out, reps, begin, end) : attached_block<7, false>(ms, out, reps, begin, end); break;
        case 8: dbl ? attached_block<8, true>(ms, out, reps, begin, end) : attached_block<8, false>(ms, out, reps, begin, end); break;
        default: dbl ? attached_block<4, true>(ms, out, reps, begin, end) : attached_block<4, false>(ms, out, reps, begin, end); break;
    }
}

}  // namespace zest::detail::ZEST_CKERNEL_NS
