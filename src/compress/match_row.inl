// The row-based match finder for the lazy family (the reference's row
// matcher): the hash table is cut into rows of 16, 32 or 64 entries
// (search_log 4, 5, 6 and up), one row per hash of min_match (4..6) bytes.
// Beside each entry a tag byte holds 8 more bits of the hash. A row's tag
// bytes take twice its entries: byte 0 is the row's head, the slot written
// last (slots are written downwards, all of them entries, as libzstd up to
// 1.5.5 does; 1.5.6 gave slot 0 to the head and finds a little less), and
// the tags start at byte 16. A search compares the position's tag with
// all of the row's tags at once (SIMD), and tries the entries whose tags
// agree from the newest, at most 2^min(search_log, row_log) of them.
// Hashes are computed 8 positions ahead (a small cache) and their rows
// prefetched meanwhile.
//
// Compiled once per instruction set (compress/kernels.inl).
namespace zest::detail::ZEST_CKERNEL_NS {
namespace lazy_strategy {

constexpr unsigned row_tag_bits = 8;
constexpr std::size_t row_tags_offset = 16;         // a row's tags follow its head byte, 16-aligned
constexpr std::size_t row_tail = 8;                 // positions kept clear of the block end (as the reference)
constexpr std::size_t prefetch_distance = 16;       // rows are fetched this many positions ahead
constexpr std::size_t row_skip_threshold = 384;     // inserting more positions than this at once...
constexpr std::size_t row_skip_head = 96;           // ...inserts this many at the start...
constexpr std::size_t row_skip_tail = 32;           // ...and this many before the search position

/// Bit i set when tags[i] == tag, for the Entries (16, 32 or 64) tags of a row.
template <unsigned Entries>
ZEST_INLINE std::uint64_t row_tag_mask(const std::uint8_t* tags, std::uint8_t tag) noexcept {
#if defined(__AVX2__)
    if constexpr (Entries >= 32) {
        const __m256i t = _mm256_set1_epi8(char(tag));
        std::uint64_t m = 0;
        for (unsigned i = 0; i < Entries; i += 32) {
            const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(tags + i));
            m |= std::uint64_t(std::uint32_t(_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, t)))) << i;
        }
        return m;
    }
#endif
#if defined(__SSE2__)
    const __m128i t = _mm_set1_epi8(char(tag));
    std::uint64_t m = 0;
    for (unsigned i = 0; i < Entries; i += 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(tags + i));
        m |= std::uint64_t(std::uint32_t(_mm_movemask_epi8(_mm_cmpeq_epi8(v, t)))) << i;
    }
    return m;
#else
    std::uint64_t m = 0;
    for (unsigned i = 0; i < Entries; ++i) m |= std::uint64_t(tags[i] == tag) << i;
    return m;
#endif
}

template <unsigned MLS, unsigned RowLog>
class row_search {
public:
    static constexpr std::size_t tail = row_tail;
    static constexpr unsigned entries = 1u << RowLog;
    static constexpr unsigned row_mask = entries - 1;

    ZEST_INLINE row_search(match_state& ms, std::size_t /*begin*/, std::size_t end) noexcept
        : ms_(ms), b_(ms.base), end_(end), table_(ms.hash_table), tags_(ms.tag_table),
          hbits_(ms.params.hash_log - RowLog + row_tag_bits),
          attempts_(1u << std::min(ms.params.search_log, RowLog)), window_(ms.max_distance()) {}

    ZEST_INLINE void skipping(bool on) noexcept { skipping_ = on; }
    /// Hands the next position to insert back to the match state.
    ZEST_INLINE void finish() noexcept { ms_.next_to_update = std::uint32_t(next_); }

    ZEST_INLINE std::size_t find(std::size_t ip, std::uint32_t& offset) noexcept {
        std::uint32_t h;
        if (!skipping_) {
            insert_upto(ip);
            h = next_hash(ip);
        } else {
            h = hash(ip);
            next_ = ip;
        }
        const std::size_t row = std::size_t(h >> row_tag_bits) << RowLog;
        const auto tag = std::uint8_t(h);
        std::uint32_t* const slots = table_ + row;
        std::uint8_t* const tag_row = tags_ + 2 * row;
        const unsigned head = tag_row[0] & row_mask;
        // Bits from the newest slot (the head) to the oldest.
        std::uint64_t mask = rotate(row_tag_mask<entries>(tag_row + row_tags_offset, tag), head);

        const std::size_t lowest = ip - low_ > window_ ? ip - window_ : low_;
        std::uint32_t found[entries];
        unsigned n = 0;
        for (unsigned left = attempts_; mask != 0 && left > 0; mask &= mask - 1) {
            const unsigned slot = (head + unsigned(std::countr_zero(mask))) & row_mask;
            const std::uint32_t m = slots[slot];
            if (m < lowest) break;  // this one and every older one are out of reach
            __builtin_prefetch(b_ + m);
            found[n++] = m;
            --left;
        }
        // The position itself goes in now, sparing the next search a step.
        const unsigned slot = next_slot(tag_row);
        tag_row[row_tags_offset + slot] = tag;
        slots[slot] = std::uint32_t(next_++);

        const std::uint8_t* const cur = b_ + ip;
        const std::uint8_t* const cur_end = b_ + end_;
        std::size_t best = 3;
        for (unsigned i = 0; i < n; ++i) {
            const std::uint8_t* const match = b_ + found[i];
            if (load32(match + best - 3) == load32(cur + best - 3)) {
                const std::size_t l = common_length(cur, match, cur_end);
                if (l > best) {
                    best = l;
                    offset = std::uint32_t(ip - found[i]);
                    if (ip + l == end_) break;
                }
            }
        }
        return best;
    }

private:
    static ZEST_INLINE std::uint64_t rotate(std::uint64_t m, unsigned by) noexcept {
        if constexpr (entries == 64) {
            return std::rotr(m, int(by));
        } else {
            constexpr std::uint64_t all = (std::uint64_t(1) << entries) - 1;
            return ((m >> by) | (m << ((entries - by) & row_mask))) & all;
        }
    }
    static ZEST_INLINE unsigned next_slot(std::uint8_t* tag_row) noexcept {
        const unsigned next = (tag_row[0] - 1u) & row_mask;
        tag_row[0] = std::uint8_t(next);
        return next;
    }
    ZEST_INLINE std::uint32_t hash(std::size_t at) const noexcept {
        return std::uint32_t(hash_at<MLS>(b_ + at, hbits_));
    }
    ZEST_INLINE void prefetch_row(std::uint32_t h) const noexcept {
        const std::size_t row = std::size_t(h >> row_tag_bits) << RowLog;
        __builtin_prefetch(tags_ + 2 * row);
        if constexpr (entries == 64) __builtin_prefetch(tags_ + 2 * row + 64);
        // The row's entries: one cache line per 16 (tables are line-aligned).
        for (unsigned i = 0; i < entries; i += 16) __builtin_prefetch(table_ + row + i);
    }
    // The hash of `at`, from a cache of the hashes of the 8 positions from
    // cache_from_ on: positions are asked for in order, so each one's hash
    // is computed once, 8 positions ahead, and its row fetched meanwhile.
    ZEST_INLINE std::uint32_t next_hash(std::size_t at) noexcept {
        if (at != cache_from_) [[unlikely]] {
            // A jump (a match, a skip): hash the positions from `at`.
            for (std::size_t i = at; i < at + prefetch_distance && i <= hash_end_; ++i) {
                const std::uint32_t h = hash(i);
                prefetch_row(h);
                cache_[i & (prefetch_distance - 1)] = h;
            }
            cache_from_ = at;
        }
        std::uint32_t& slot = cache_[at & (prefetch_distance - 1)];
        const std::uint32_t h = slot;
        // Near the block's end there is nothing left to hash ahead (and no
        // position there is asked for).
        if (at + prefetch_distance <= hash_end_) {
            slot = hash(at + prefetch_distance);
            prefetch_row(slot);
        }
        ++cache_from_;
        return h;
    }
    ZEST_INLINE void insert(std::size_t from, std::size_t to) noexcept {
        for (std::size_t i = from; i < to; ++i) {
            const std::uint32_t h = next_hash(i);
            const std::size_t row = std::size_t(h >> row_tag_bits) << RowLog;
            std::uint8_t* const tag_row = tags_ + 2 * row;
            const unsigned slot = next_slot(tag_row);
            tag_row[row_tags_offset + slot] = std::uint8_t(h);
            table_[row + slot] = std::uint32_t(i);
        }
    }
    // Inserts the positions before `target`; after a long match, only some
    // at each end of it.
    ZEST_INLINE void insert_upto(std::size_t target) noexcept {
        std::size_t idx = next_;
        if (target - idx > row_skip_threshold) [[unlikely]] {
            insert(idx, idx + row_skip_head);
            idx = target - row_skip_tail;
        }
        insert(idx, target);
        next_ = target;
    }

    match_state& ms_;
    const std::uint8_t* const b_;
    const std::size_t end_;
    std::uint32_t* const table_;
    std::uint8_t* const tags_;
    const unsigned hbits_;
    const unsigned attempts_;
    const std::size_t window_;
    bool skipping_ = false;
    // Kept here rather than read from ms_: the tables' stores could alias
    // it, which would force a reload after each.
    const std::size_t low_ = ms_.low;
    std::size_t next_ = ms_.next_to_update;
    const std::size_t hash_end_ = end_ - 8;  // the last position whose 8 bytes can be read
    std::size_t cache_from_ = SIZE_MAX;      // first position whose hash cache_ holds
    std::uint32_t cache_[prefetch_distance] = {};
};

}  // namespace lazy_strategy
}  // namespace zest::detail::ZEST_CKERNEL_NS
