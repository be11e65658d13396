// The lazy family: `greedy` (depth 0), `lazy` (depth 1) and `lazy2`
// (depth 2), and `btlazy2` (depth 2 over a binary tree). At each position
// the last offset is tried one byte ahead and the match finder (a Search
// policy: hash chain, row table or binary tree) is asked for its longest
// match; greedy takes the first match it sees, the lazy depths then look one
// or two bytes further and move to a later match when its estimated gain
// (four times its length less the bits of its offset) beats the one in
// hand. After each match the second repeat offset is tried at once. The
// step between positions grows with the length of the literal run; past a
// step of lazy_skip_step the finders stop inserting every position until
// the next match (the reference's "lazy skipping").
//
// A Search policy is built per block and provides:
//   static constexpr std::size_t tail;   // bytes kept clear of the block end beyond 8
//   std::size_t find(std::size_t ip, std::uint32_t& offset);  // longest match at ip (< 4: none)
//   void skipping(bool on);              // entering / leaving lazy skipping
//   void finish();                       // end of block (stores next_to_update)
// find() is called with increasing positions, ip + 8 + tail <= block end.
//
// Compiled once per instruction set (compress/kernels.inl).
namespace zest::detail::ZEST_CKERNEL_NS {
namespace lazy_strategy {

constexpr unsigned search_strength = 8;   // log2 of the literal run that adds one to the step
constexpr std::size_t lazy_skip_step = 8;  // steps above this stop the finders inserting every position
constexpr std::size_t long_gap = 384;      // a block starting this far past the last inserted position...
constexpr std::size_t gap_kept = 192;      // ...inserts at most this many of them

ZEST_INLINE int offset_bits(std::uint32_t offset) noexcept {
    // log2 of the format's Offset_Value: 1 for the last offset, offset + 3.
    return int(std::bit_width(offset == 0 ? 1u : offset + 3) - 1);
}

template <class Search, unsigned Depth>
void lazy_block(match_state& ms, seq_store& out, repeat_offsets& reps, std::size_t begin, std::size_t end) noexcept {
    const std::uint8_t* const b = ms.base;
    const std::size_t low = ms.low;
    seq_sink sink(out, reps);
    constexpr std::size_t reserve = 8 + Search::tail;
    if (end - begin <= reserve + 1) {
        sink.add_last_literals(b + begin, end - begin);
        sink.finish();
        return;
    }
    // Nothing a window or more before the block's start is inserted (the
    // reference clamps nextToUpdate to its lowLimit, placed so); after a
    // long match ending the last block, only the positions just before this
    // one are.
    ms.next_to_update = std::uint32_t(std::max(std::size_t(ms.next_to_update), ms.lowest(begin)));
    if (begin > std::size_t(ms.next_to_update) + long_gap)
        ms.next_to_update = std::uint32_t(begin - std::min(gap_kept, begin - ms.next_to_update - long_gap));

    Search search(ms, begin, end);
    const std::size_t ilimit = end - reserve;
    const std::uint8_t* const iend = b + end;
    std::size_t ip = begin, anchor = begin;
    ip += (ip == low);
    // Repeat offsets reaching before the frame or the window are not tried
    // in this block (0); the sink keeps the decoder's values regardless.
    std::uint32_t rep1 = ms.usable_repeat(sink.last_offset(), ip);
    std::uint32_t rep2 = ms.usable_repeat(sink.second_offset(), ip);
    bool skipping = false;

    auto rep_at = [&](std::size_t at) -> std::size_t {
        if (rep1 == 0 || load32(b + at - rep1) != load32(b + at)) return 0;
        return common_length(b + at + 4, b + at + 4 - rep1, iend) + 4;
    };

    while (ip < ilimit) {
        std::size_t len = 0;
        std::uint32_t offset = 0;  // 0: the last offset (rep1)
        std::size_t start = ip + 1;

        len = rep_at(ip + 1);
        if (Depth == 0 && len != 0) goto store;
        {
            std::uint32_t found = 0;
            const std::size_t l = search.find(ip, found);
            if (l > len) len = l, start = ip, offset = found;
        }
        if (len < 4) {
            const std::size_t step = ((ip - anchor) >> search_strength) + 1;
            ip += step;
            skipping = step > lazy_skip_step;
            search.skipping(skipping);
            continue;
        }

        if constexpr (Depth >= 1) {
            while (ip < ilimit) {
                ++ip;
                if (const std::size_t rl = rep_at(ip); rl != 0) {
                    const int gain2 = int(rl * 3), gain1 = int(len * 3) - offset_bits(offset) + 1;
                    if (gain2 > gain1) len = rl, offset = 0, start = ip;
                }
                {
                    std::uint32_t found = 0;
                    const std::size_t l = search.find(ip, found);
                    const int gain2 = int(l * 4) - offset_bits(found), gain1 = int(len * 4) - offset_bits(offset) + 4;
                    if (l >= 4 && gain2 > gain1) {
                        len = l, offset = found, start = ip;
                        continue;
                    }
                }
                if (Depth == 2 && ip < ilimit) {
                    ++ip;
                    if (const std::size_t rl = rep_at(ip); rl != 0) {
                        const int gain2 = int(rl * 4), gain1 = int(len * 4) - offset_bits(offset) + 1;
                        if (gain2 > gain1) len = rl, offset = 0, start = ip;
                    }
                    std::uint32_t found = 0;
                    const std::size_t l = search.find(ip, found);
                    const int gain2 = int(l * 4) - offset_bits(found), gain1 = int(len * 4) - offset_bits(offset) + 7;
                    if (l >= 4 && gain2 > gain1) {
                        len = l, offset = found, start = ip;
                        continue;
                    }
                }
                break;
            }
        }

        if (offset != 0) {
            // Extend backwards over literals, never before the frame.
            while (start > anchor && start - offset > low && b[start - 1] == b[start - offset - 1]) --start, ++len;
            rep2 = rep1;
            rep1 = offset;
        }
    store:
        if (offset != 0)
            sink.add_new(b + anchor, std::uint32_t(start - anchor), offset, std::uint32_t(len));
        else
            sink.add_last(b + anchor, std::uint32_t(start - anchor), std::uint32_t(len));
        anchor = ip = start + len;
        if (skipping) {
            skipping = false;
            search.skipping(false);
        }
        // The second repeat offset right after the match.
        while (ip <= ilimit && rep2 != 0 && load32(b + ip) == load32(b + ip - rep2)) {
            const std::size_t rl = common_length(b + ip + 4, b + ip + 4 - rep2, iend) + 4;
            std::swap(rep1, rep2);
            sink.add_second(std::uint32_t(rl));
            ip += rl;
            anchor = ip;
        }
    }
    search.finish();
    sink.add_last_literals(b + anchor, end - anchor);
    sink.finish();
}

}  // namespace lazy_strategy
}  // namespace zest::detail::ZEST_CKERNEL_NS
