// The `dfast` (double fast) strategy: two hash tables, one of hash_log
// entries keyed on 8 bytes (long matches) and one of chain_log entries keyed
// on min_match bytes (short matches). At each position the last offset is
// tried one byte ahead, then a long match, then a short one; a short match
// is replaced by a longer long match starting one byte later. The step
// between positions grows the longer no match is found.
//
// Compiled once per instruction set (compress/kernels.inl).
namespace zest::detail::ZEST_CKERNEL_NS {
namespace dfast_strategy {

constexpr std::size_t tail_reserve = 8;   // the long hash reads 8 bytes at the last searched position
constexpr std::size_t step_growth = 256;  // positions searched before the step grows

// Bytes no candidate is taken from: a table entry outside the window (or not
// before the position) is compared against these instead, so that the
// common case, an entry in range, costs no branch that the data decides.
alignas(8) constexpr std::uint8_t no_candidate[8] = {0x9e, 0x37, 0x79, 0xb9, 0x7f, 0x4a, 0x7c, 0x15};

// b + idx when lowest <= idx < at, else no_candidate (a conditional move).
ZEST_INLINE const std::uint8_t* candidate(const std::uint8_t* b, std::size_t idx, std::size_t lowest,
                                          std::size_t at) noexcept {
    const std::uintptr_t in_range = reinterpret_cast<std::uintptr_t>(b) + idx;
    std::uintptr_t c = reinterpret_cast<std::uintptr_t>(no_candidate);
    // (A block longer than the window starts below `lowest`: nothing is in range there.)
    const std::size_t rel = idx - lowest, span = at > lowest ? at - lowest : 0;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    __asm__("cmp %[span], %[rel]\n\tcmovb %[in], %[c]" : [c] "+r"(c) : [rel] "r"(rel), [span] "r"(span), [in] "r"(in_range) : "cc");
#else
    if (rel < span) c = in_range;
#endif
    return reinterpret_cast<const std::uint8_t*>(c);
}

template <unsigned MLS>
void dfast_block(match_state& ms, seq_store& out, repeat_offsets& reps, std::size_t begin, std::size_t end) noexcept {
    const std::uint8_t* const b = ms.base;
    std::uint32_t* const longs = ms.hash_table;
    std::uint32_t* const shorts = ms.chain_table;
    const unsigned lbits = ms.params.hash_log;
    const unsigned sbits = ms.params.chain_log;
    const std::size_t lowest = ms.lowest(end);
    ms.next_to_update = std::uint32_t(end);

    std::size_t anchor = begin;
    seq_sink sink(out, reps);
    if (end - begin < tail_reserve + 4) {
        sink.add_last_literals(b + begin, end - begin);
        sink.finish();
        return;
    }
    const std::size_t ilimit = end - tail_reserve;
    const std::uint8_t* const iend_ptr = b + end;

    auto hash_long = [&](std::size_t at) { return hash_at<8>(b + at, lbits); };
    auto hash_short = [&](std::size_t at) { return hash_at<MLS>(b + at, sbits); };
    auto long_ok = [&](std::size_t idx, std::size_t at) {
        const std::uint8_t* const c = candidate(b, idx, lowest, at);
        return load64(c) == load64(b + at) && c != no_candidate;
    };
    auto short_ok = [&](std::size_t idx, std::size_t at) {
        const std::uint8_t* const c = candidate(b, idx, lowest, at);
        return load32(c) == load32(b + at) && c != no_candidate;
    };

    std::size_t ip = begin;
    ip += (ip == lowest);
    std::uint32_t rep1 = ms.usable_repeat(sink.last_offset(), ip);
    std::uint32_t rep2 = ms.usable_repeat(sink.second_offset(), ip);

    for (;;) {
        // Search from ip (== anchor) for the next match.
        std::size_t step = 1;
        std::size_t next_step = ip + step_growth;
        std::size_t ip1 = ip + 1;
        if (ip1 > ilimit) break;

        std::size_t hl0 = hash_long(ip);
        std::size_t idxl0 = longs[hl0];
        std::size_t hl1 = 0, idxl1 = 0;
        std::size_t cur = ip;
        std::size_t len = 0, offset = 0, match_pos = 0;
        enum { none, rep_match, new_match } kind = none;

        do {
            const std::size_t hs0 = hash_short(ip);
            const std::size_t idxs0 = shorts[hs0];
            cur = ip;
            longs[hl0] = shorts[hs0] = std::uint32_t(cur);

            // Last offset, one byte ahead.
            if (rep1 != 0 && load32(b + ip + 1 - rep1) == load32(b + ip + 1)) {
                len = common_length(b + ip + 5, b + ip + 5 - rep1, iend_ptr) + 4;
                ++ip;
                offset = rep1;
                kind = rep_match;
                break;
            }
            hl1 = hash_long(ip1);
            if (long_ok(idxl0, ip)) {
                match_pos = idxl0;
                len = common_length(b + ip + 8, b + match_pos + 8, iend_ptr) + 8;
                kind = new_match;
                break;
            }
            idxl1 = longs[hl1];
            if (short_ok(idxs0, ip)) {
                // A long match one byte later is taken instead.
                if (long_ok(idxl1, ip1)) {
                    ip = ip1;
                    match_pos = idxl1;
                    len = common_length(b + ip + 8, b + match_pos + 8, iend_ptr) + 8;
                } else {
                    match_pos = idxs0;
                    len = common_length(b + ip + 4, b + match_pos + 4, iend_ptr) + 4;
                }
                kind = new_match;
                break;
            }
            if (ip1 >= next_step) {
                // Steps grow over data that does not match: fetch ahead.
                __builtin_prefetch(b + ip1 + 64);
                __builtin_prefetch(b + ip1 + 128);
                ++step;
                next_step += step_growth;
            }
            ip = ip1;
            ip1 += step;
            hl0 = hl1;
            idxl0 = idxl1;
        } while (ip1 <= ilimit);
        if (kind == none) break;

        if (kind == new_match) {
            offset = ip - match_pos;
            while (ip > anchor && match_pos > lowest && b[ip - 1] == b[match_pos - 1]) --ip, --match_pos, ++len;
            rep2 = rep1;
            rep1 = std::uint32_t(offset);
            // ip1 is before the match end while the step is small.
            if (step < 4) longs[hl1] = std::uint32_t(ip1);
        }
        if (kind == new_match)
            sink.add_new(b + anchor, std::uint32_t(ip - anchor), std::uint32_t(offset), std::uint32_t(len));
        else
            sink.add_last(b + anchor, std::uint32_t(ip - anchor), std::uint32_t(len));
        ip += len;
        anchor = ip;

        if (ip <= ilimit) {
            // Entries from inside the match: after its search start, at its end.
            const std::size_t inside = cur + 2;
            longs[hash_long(inside)] = std::uint32_t(inside);
            longs[hash_long(ip - 2)] = std::uint32_t(ip - 2);
            shorts[hash_short(inside)] = std::uint32_t(inside);
            shorts[hash_short(ip - 1)] = std::uint32_t(ip - 1);
            // The second repeat offset right after the match.
            while (rep2 != 0 && ip <= ilimit && load32(b + ip) == load32(b + ip - rep2)) {
                const std::size_t rlen = common_length(b + ip + 4, b + ip + 4 - rep2, iend_ptr) + 4;
                std::swap(rep1, rep2);
                shorts[hash_short(ip)] = std::uint32_t(ip);
                longs[hash_long(ip)] = std::uint32_t(ip);
                sink.add_second(std::uint32_t(rlen));
                ip += rlen;
                anchor = ip;
            }
        }
    }
    sink.add_last_literals(b + anchor, end - anchor);
    sink.finish();
}

}  // namespace dfast_strategy

void dfast_finder(match_state& ms, seq_store& out, repeat_offsets& reps, std::size_t begin, std::size_t end) noexcept {
    using namespace dfast_strategy;
    if (ms.dict_hash) return attached_finder(ms, out, reps, begin, end);
    switch (ms.params.min_match) {
        case 5: dfast_block<5>(ms, out, reps, begin, end); break;
        case 6: dfast_block<6>(ms, out, reps, begin, end); break;
        case 7: dfast_block<7>(ms, out, reps, begin, end); break;
        case 8: dfast_block<8>(ms, out, reps, begin, end); break;
        default: dfast_block<4>(ms, out, reps, begin, end); break;  // 3 and 4 (and anything out of range)
    }
}

}  // namespace zest::detail::ZEST_CKERNEL_NS
