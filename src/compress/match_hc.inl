// The hash chain match finder for the lazy family: a table of hash_log
// entries keyed on a hash of min_match (4..6) bytes holds the last position
// with that hash, and a chain of chain_log entries links each position to the
// previous one with the same hash. A search walks at most 2^search_log links
// from the newest, stopping at the window's edge, the frame's start or where
// the chain has been overwritten.
//
// Compiled once per instruction set (compress/kernels.inl).
namespace zest::detail::ZEST_CKERNEL_NS {
namespace lazy_strategy {

template <unsigned MLS>
class hc_search {
public:
    static constexpr std::size_t tail = 0;

    ZEST_INLINE hc_search(match_state& ms, std::size_t /*begin*/, std::size_t end) noexcept
        : ms_(ms), b_(ms.base), end_(end), hash_(ms.hash_table), chain_(ms.chain_table), hbits_(ms.params.hash_log),
          chain_size_(std::size_t(1) << ms.params.chain_log), attempts_(1u << ms.params.search_log),
          window_(ms.max_distance()) {}

    ZEST_INLINE void skipping(bool on) noexcept { skipping_ = on; }
    /// Hands the next position to insert back to the match state.
    ZEST_INLINE void finish() noexcept { ms_.next_to_update = std::uint32_t(next_); }

    ZEST_INLINE std::size_t find(std::size_t ip, std::uint32_t& offset) noexcept {
        const std::size_t cmask = chain_size_ - 1;
        // Insert the positions before ip (only the first while skipping).
        for (std::size_t idx = next_; idx < ip; ++idx) {
            const std::size_t h = hash_at<MLS>(b_ + idx, hbits_);
            chain_[idx & cmask] = hash_[h];
            hash_[h] = std::uint32_t(idx);
            if (skipping_) break;
        }
        next_ = ip;

        const std::size_t lowest = ip - low_ > window_ ? ip - window_ : low_;
        const std::size_t min_chain = ip > chain_size_ ? ip - chain_size_ : 0;
        const std::uint8_t* const cur = b_ + ip;
        const std::uint8_t* const cur_end = b_ + end_;
        std::size_t best = 3;
        std::size_t m = hash_[hash_at<MLS>(cur, hbits_)];
        for (unsigned n = attempts_; m >= lowest && n > 0; --n) {
            const std::uint8_t* const match = b_ + m;
            // Only a match longer than the best can pass this test.
            if (load32(match + best - 3) == load32(cur + best - 3)) {
                const std::size_t l = common_length(cur, match, cur_end);
                if (l > best) {
                    best = l;
                    offset = std::uint32_t(ip - m);
                    if (ip + l == end_) break;  // nothing can be longer
                }
            }
            if (m <= min_chain) break;
            m = chain_[m & cmask];
        }
        return best;
    }

private:
    match_state& ms_;
    const std::uint8_t* const b_;
    const std::size_t end_;
    std::uint32_t* const hash_;
    std::uint32_t* const chain_;
    const unsigned hbits_;
    const std::size_t chain_size_;
    const unsigned attempts_;
    const std::size_t window_;
    bool skipping_ = false;
    // Kept here rather than read from ms_: the tables' stores could alias
    // it, which would force a reload after each.
    const std::size_t low_ = ms_.low;
    std::size_t next_ = ms_.next_to_update;
};

}  // namespace lazy_strategy
}  // namespace zest::detail::ZEST_CKERNEL_NS
