// The binary tree match finder of btlazy2 (the reference's "dual unsorted
// binary tree"). The chain table holds two slots per position, for the
// 2^(chain_log - 1) most recent positions. Positions are first only chained,
// as in a hash chain: slot 0 links to the previous position with the same
// hash of min_match (4..6) bytes and slot 1 holds a mark saying "unsorted".
// When a search meets unsorted positions under its hash, it sorts them into
// the tree (oldest first), then walks the tree from the newest position down,
// inserting its own position as the new root: slot 0 leads to suffixes that
// sort before the position's, slot 1 to those after. Along a path, the
// prefix shared with the closest smaller and larger suffix seen so far is
// shared with everything below them, so comparisons resume there.
//
// A search takes at most 2^search_log steps and keeps a longer candidate
// when four times its extra length beats its offset's extra bits, as the
// reference does. A match's tail is not inserted (the next search starts 8
// bytes before its end), which keeps long repetitions cheap.
//
// Compiled once per instruction set (compress/kernels.inl).
namespace zest::detail::ZEST_CKERNEL_NS {
namespace lazy_strategy {

// The offset value the reference starts a search's comparison from.
constexpr std::uint32_t bt_no_offset = 999999999;

ZEST_INLINE int highbit(std::uint32_t v) noexcept { return int(std::bit_width(v)) - 1; }

template <unsigned MLS>
class bt_search {
public:
    static constexpr std::size_t tail = 0;

    ZEST_INLINE bt_search(match_state& ms, std::size_t begin, std::size_t end) noexcept
        : ms_(ms), b_(ms.base), end_(end), hash_(ms.hash_table), tree_(ms.chain_table), hbits_(ms.params.hash_log),
          mask_((std::size_t(1) << (ms.params.chain_log - 1)) - 1), compares_(1u << ms.params.search_log),
          window_(ms.max_distance()), low_(std::max<std::size_t>(ms.lowest(begin), bt_unsorted_mark)) {}

    // Every position is inserted, skipping or not (the reference skips
    // only in its hash chain and rows).
    ZEST_INLINE void skipping(bool) noexcept {}
    ZEST_INLINE void finish() noexcept {}

    ZEST_INLINE std::size_t find(std::size_t ip, std::uint32_t& offset) noexcept {
        if (ip < ms_.next_to_update) return 0;  // inside the last long match
        if (ms_.next_to_update < ip) chain_upto(ip);
        return search(ip, offset);
    }

private:
    ZEST_INLINE std::uint32_t* node(std::size_t pos) const noexcept { return tree_ + 2 * (pos & mask_); }
    // Candidates for a suffix at `pos` must lie above this position: within
    // the window of `pos` and of the block's first position (a stream keeps
    // no older bytes), and above the unsorted mark's value, whatever the
    // frame's first position.
    ZEST_INLINE std::size_t window_floor(std::size_t pos) const noexcept {
        return pos - low_ > window_ ? pos - window_ : low_;
    }

    // Both children of a node are fetched while the node's own suffix is
    // compared: the walk goes on to one of them.
    ZEST_INLINE void fetch_children(const std::uint32_t* nd, std::size_t len) const noexcept {
        const std::uint32_t c0 = nd[0], c1 = nd[1];
        __builtin_prefetch(node(c0));
        __builtin_prefetch(node(c1));
        __builtin_prefetch(b_ + c0 + len);
        __builtin_prefetch(b_ + c1 + len);
    }

    // Chains the positions from next_to_update to ip (those a match
    // covered), a batch at a time: the batch's hash buckets are fetched
    // together rather than one miss after another.
    ZEST_NOINLINE void chain_upto(std::size_t ip) noexcept {
        constexpr std::size_t batch = 16;
        std::uint32_t hashes[batch];
        for (std::size_t i = ms_.next_to_update; i < ip;) {
            const std::size_t n = std::min(batch, ip - i);
            for (std::size_t k = 0; k < n; ++k) {
                hashes[k] = std::uint32_t(hash_at<MLS>(b_ + i + k, hbits_));
                __builtin_prefetch(hash_ + hashes[k]);
            }
            for (std::size_t k = 0; k < n; ++k, ++i) {
                std::uint32_t* const slot = hash_ + hashes[k];
                std::uint32_t* const nd = node(i);
                nd[0] = *slot;
                nd[1] = bt_unsorted_mark;
                *slot = std::uint32_t(i);
            }
        }
    }

    // Inserts the chained position `pos` into the tree that follows it (its
    // slot 0 leads there), in at most `compares` steps; nodes at or below
    // `floor` end the walk once compared.
    ZEST_INLINE void sort_in(std::uint32_t pos, unsigned compares, std::size_t floor) noexcept {
        const std::uint8_t* const cur = b_ + pos;
        const std::uint8_t* const cur_end = b_ + end_;
        std::uint32_t* smaller = node(pos);
        std::uint32_t* larger = smaller + 1;
        std::uint32_t spare;
        std::size_t m = *smaller;
        const std::size_t lowest = window_floor(pos);
        std::size_t common_smaller = 0, common_larger = 0;
        for (; compares > 0 && m > lowest; --compares) {
            std::uint32_t* const next = node(m);
            const std::uint8_t* const match = b_ + m;
            std::size_t len = std::min(common_smaller, common_larger);
            fetch_children(next, len);
            len += common_length(cur + len, match + len, cur_end);
            // Equal up to the block's end: its order is unknown, leave it out.
            if (cur + len == cur_end) break;
            if (match[len] < cur[len]) {
                *smaller = std::uint32_t(m);
                common_smaller = len;
                if (m <= floor) {
                    smaller = &spare;
                    break;
                }
                smaller = next + 1;
                m = next[1];
            } else {
                *larger = std::uint32_t(m);
                common_larger = len;
                if (m <= floor) {
                    larger = &spare;
                    break;
                }
                larger = next;
                m = next[0];
            }
        }
        *smaller = *larger = 0;
    }

    ZEST_INLINE std::size_t search(std::size_t ip, std::uint32_t& offset) noexcept {
        const std::uint8_t* const cur = b_ + ip;
        const std::uint8_t* const cur_end = b_ + end_;
        const std::size_t h = hash_at<MLS>(cur, hbits_);
        // The next positions are most often searched next: the hash
        // buckets of ip + 1 and ip + 2 are fetched ahead, and the newest
        // node of ip + 1's (its bucket fetched by the last search). Hashes
        // read 8 bytes; ip may be 8 bytes before the block's end.
        if (ip + 10 <= end_) {
            const std::size_t h1 = hash_at<MLS>(cur + 1, hbits_);
            __builtin_prefetch(hash_ + h1);
            __builtin_prefetch(hash_ + hash_at<MLS>(cur + 2, hbits_));
            const std::uint32_t ahead = hash_[h1];
            __builtin_prefetch(node(ahead));
            __builtin_prefetch(b_ + ahead);
        }
        const std::size_t lowest = window_floor(ip);
        // Nodes at or below tree_floor may have been reused by newer positions.
        const std::size_t tree_floor = mask_ >= ip ? 0 : ip - mask_;
        const std::size_t sort_floor = std::max(tree_floor, lowest);

        // The unsorted positions under this hash, newest first, relinked
        // backwards through slot 1; one over the budget is cut off.
        unsigned candidates = compares_;
        std::uint32_t stacked = 0;
        std::size_t m = hash_[h];
        while (m > sort_floor && candidates > 1) {
            std::uint32_t* const n = node(m);
            if (n[1] != bt_unsorted_mark) break;
            n[1] = stacked;
            stacked = std::uint32_t(m);
            m = n[0];
            --candidates;
        }
        if (m > sort_floor) {
            std::uint32_t* const n = node(m);
            if (n[1] == bt_unsorted_mark) n[0] = n[1] = 0;
        }
        // Sorted in from the oldest, each with one more step than the last.
        while (stacked != 0) {
            const std::uint32_t newer = node(stacked)[1];
            sort_in(stacked, candidates, sort_floor);
            stacked = newer;
            ++candidates;
        }

        // The search, inserting ip as the root.
        std::size_t common_smaller = 0, common_larger = 0;
        std::uint32_t* smaller = node(ip);
        std::uint32_t* larger = smaller + 1;
        std::uint32_t spare;
        std::size_t match_end = ip + 8 + 1;
        std::size_t best = 0;
        std::uint32_t best_code = bt_no_offset;  // offset + 3, as the format codes it
        m = hash_[h];
        hash_[h] = std::uint32_t(ip);
        for (unsigned n = compares_; n > 0 && m > lowest; --n) {
            std::uint32_t* const next = node(m);
            const std::uint8_t* const match = b_ + m;
            std::size_t len = std::min(common_smaller, common_larger);
            fetch_children(next, len);
            len += common_length(cur + len, match + len, cur_end);
            if (len > best) {
                if (len > match_end - m) match_end = m + len;
                const auto dist = std::uint32_t(ip - m);
                if (4 * int(len - best) > highbit(dist + 1) - highbit(best_code)) {
                    best = len;
                    best_code = dist + 3;
                }
                if (cur + len == cur_end) break;  // order unknown; nothing longer anyway
            }
            if (match[len] < cur[len]) {
                *smaller = std::uint32_t(m);
                common_smaller = len;
                if (m <= tree_floor) {
                    smaller = &spare;
                    break;
                }
                smaller = next + 1;
                m = next[1];
            } else {
                *larger = std::uint32_t(m);
                common_larger = len;
                if (m <= tree_floor) {
                    larger = &spare;
                    break;
                }
                larger = next;
                m = next[0];
            }
        }
        *smaller = *larger = 0;
        ms_.next_to_update = std::uint32_t(match_end - 8);
        if (best != 0) offset = best_code - 3;
        return best;
    }

    match_state& ms_;
    const std::uint8_t* const b_;
    const std::size_t end_;
    std::uint32_t* const hash_;
    std::uint32_t* const tree_;
    const unsigned hbits_;
    const std::size_t mask_;
    const unsigned compares_;
    const std::size_t window_;
    const std::size_t low_;
};

}  // namespace lazy_strategy
}  // namespace zest::detail::ZEST_CKERNEL_NS
