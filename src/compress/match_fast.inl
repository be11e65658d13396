// The `fast` strategy: one hash table indexed by a hash of the next
// min_match bytes, holding the last position seen with that hash. Positions
// are probed in pairs; the distance between probes grows the longer no match
// is found (and starts larger for negative levels), a repeat of the last
// offset is tried ahead of each pair, and after every match the second
// repeat offset is tried at once.
//
// Compiled once per instruction set (compress/kernels.inl).
namespace zest::detail::ZEST_CKERNEL_NS {
namespace fast_strategy {

constexpr std::size_t tail_reserve = 8;   // bytes past the last searched position every probe may read
constexpr std::size_t step_growth = 128;  // probes between increments of the step

template <unsigned MLS>
void fast_block(match_state& ms, seq_store& out, repeat_offsets& reps, std::size_t begin, std::size_t end) noexcept {
    const std::uint8_t* const b = ms.base;
    std::uint32_t* const table = ms.hash_table;
    const unsigned hlog = ms.params.hash_log;
    // Lowest usable position for the whole block (checked against its end,
    // so every offset stays within the window).
    const std::size_t lowest = ms.lowest(end);
    const std::size_t initial_step = std::size_t(ms.params.target_length) + (ms.params.target_length == 0) + 1;
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

    std::size_t ip0 = begin;
    ip0 += (ip0 == lowest);
    // Repeat offsets that reach before the window are not tried (0 = off).
    std::uint32_t rep1 = ms.usable_repeat(sink.last_offset(), ip0);
    std::uint32_t rep2 = ms.usable_repeat(sink.second_offset(), ip0);
    auto candidate_ok = [&](std::size_t idx, std::size_t at) {
        return idx >= lowest && idx < at && load32(b + idx) == load32(b + at);
    };

    for (;;) {
        // (Re)start a scan at ip0 with ip0 == anchor.
        std::size_t step = initial_step;
        std::size_t next_step = ip0 + step_growth;
        std::size_t ip1 = ip0 + 1;
        std::size_t ip2 = ip0 + step;
        std::size_t ip3 = ip2 + 1;
        if (ip3 >= ilimit) break;

        std::size_t h0 = hash_at<MLS>(b + ip0, hlog);
        std::size_t h1 = hash_at<MLS>(b + ip1, hlog);
        std::size_t idx = table[h0];
        std::size_t cur0 = ip0;
        std::size_t match_pos = 0;  // start of the match in the history
        std::size_t len = 0;        // bytes already known to match
        bool found = false, is_new = false;

        do {
            cur0 = ip0;
            table[h0] = std::uint32_t(cur0);
            // Repeat offset at ip2.
            if (rep1 != 0 && load32(b + ip2) == load32(b + ip2 - rep1)) {
                ip0 = ip2;
                match_pos = ip0 - rep1;
                const std::size_t back = (match_pos > ms.low && b[ip0 - 1] == b[match_pos - 1]) ? 1 : 0;
                ip0 -= back, match_pos -= back;
                len = 4 + back;
                table[h1] = std::uint32_t(ip1);
                found = true;
                break;
            }
            if (candidate_ok(idx, ip0)) {
                table[h1] = std::uint32_t(ip1);
                found = is_new = true;
                break;
            }
            idx = table[h1];
            h0 = h1;
            h1 = hash_at<MLS>(b + ip2, hlog);
            ip0 = ip1, ip1 = ip2, ip2 = ip3;

            cur0 = ip0;
            table[h0] = std::uint32_t(cur0);
            if (candidate_ok(idx, ip0)) {
                if (step <= 4) table[h1] = std::uint32_t(ip1);
                found = is_new = true;
                break;
            }
            idx = table[h1];
            h0 = h1;
            h1 = hash_at<MLS>(b + ip2, hlog);
            ip0 = ip1, ip1 = ip2;
            ip2 = ip0 + step, ip3 = ip1 + step;
            if (ip2 >= next_step) {
                ++step;
                next_step += step_growth;
            }
        } while (ip3 < ilimit);
        if (!found) break;

        if (is_new) {
            match_pos = idx;
            rep2 = rep1;
            rep1 = std::uint32_t(ip0 - match_pos);
            len = 4;
            while (ip0 > anchor && match_pos > lowest && b[ip0 - 1] == b[match_pos - 1]) --ip0, --match_pos, ++len;
        }
        len += common_length(b + ip0 + len, b + match_pos + len, iend_ptr);
        if (is_new) sink.add_new(b + anchor, std::uint32_t(ip0 - anchor), rep1, std::uint32_t(len));
        else sink.add_last(b + anchor, std::uint32_t(ip0 - anchor), std::uint32_t(len));
        ip0 += len;
        anchor = ip0;

        if (ip0 <= ilimit) {
            // Two more entries: just after the search position and just
            // before the match end.
            table[hash_at<MLS>(b + cur0 + 2, hlog)] = std::uint32_t(cur0 + 2);
            table[hash_at<MLS>(b + ip0 - 2, hlog)] = std::uint32_t(ip0 - 2);
            // The second repeat offset right after the match.
            while (rep2 != 0 && ip0 <= ilimit && load32(b + ip0) == load32(b + ip0 - rep2)) {
                const std::size_t rlen = common_length(b + ip0 + 4, b + ip0 + 4 - rep2, iend_ptr) + 4;
                std::swap(rep1, rep2);
                table[hash_at<MLS>(b + ip0, hlog)] = std::uint32_t(ip0);
                sink.add_second(std::uint32_t(rlen));
                ip0 += rlen;
                anchor = ip0;
            }
        }
    }
    sink.add_last_literals(b + anchor, end - anchor);
    sink.finish();
}

}  // namespace fast_strategy

void fast_finder(match_state& ms, seq_store& out, repeat_offsets& reps, std::size_t begin, std::size_t end) noexcept {
    using namespace fast_strategy;
    if (ms.dict_hash) return attached_finder(ms, out, reps, begin, end);
    switch (ms.params.min_match) {
        case 5: fast_block<5>(ms, out, reps, begin, end); break;
        case 6: fast_block<6>(ms, out, reps, begin, end); break;
        case 7: fast_block<7>(ms, out, reps, begin, end); break;
        case 8: fast_block<8>(ms, out, reps, begin, end); break;
        default: fast_block<4>(ms, out, reps, begin, end); break;  // 3 and 4 (and anything out of range)
    }
}

}  // namespace zest::detail::ZEST_CKERNEL_NS
