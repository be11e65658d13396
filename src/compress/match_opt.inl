// The optimal parser of btopt, btultra and btultra2 (levels 16 to 22), as
// the reference defines them.
//
// Matches: a binary tree over every position (slot 0 of a node leads to
// suffixes that sort before the position's, slot 1 to those after), kept
// sorted as positions are inserted, returns at each position every match
// that is longer than the ones before it: the repeat offsets first, then a
// 3-byte hash for 3-byte matches when the minimum match is 3, then the tree's
// candidates, nearest first. Positions a long match covers are not inserted
// (the next insertion starts 8 bytes before its end).
//
// Parse: from a position with a match, the parser prices every way to reach
// the positions ahead (up to 4096 of them) as "a match, then literals"
// stretches, each node keeping its cheapest way in and the repeat offsets it
// leaves, then walks back from the end of the cheapest path and stores its
// sequences. Prices are in 1/256 bits, from the frequencies of the symbols
// stored so far in the frame (the first block starts from its bytes'
// histogram and fixed guesses for the lengths and offsets); btopt counts a
// symbol's cost in whole bits, btultra and btultra2 in fractions of a bit
// and look one literal further where a match is replaced by literals.
// btultra2 parses the frame's first block twice: the first parse, thrown
// away, only seeds the statistics.
//
// Compiled once per instruction set (compress/kernels.inl).
namespace zest::detail::ZEST_CKERNEL_NS {
namespace opt_strategy {

constexpr int max_price = 1 << 30;
constexpr unsigned bit_cost = 256;              // prices count 1/256 bits
constexpr std::size_t predefined_below = 9;     // blocks of up to 8 bytes: fixed prices
constexpr std::uint32_t lit_freq_step = 2;      // a stored literal counts twice
constexpr unsigned block_max = 128 * 1024;

ZEST_INLINE unsigned highbit(std::uint32_t v) noexcept { return highbit32(v); }

// The cost in 1/256 bits of a symbol seen `stat` times, up to a constant:
// whole bits (Level 0) or with a linear fraction between powers of two.
template <int Level>
ZEST_INLINE std::uint32_t weight(std::uint32_t stat) noexcept {
    const std::uint32_t s = stat + 1;
    const unsigned hb = highbit(s);
    if constexpr (Level == 0) return hb * bit_cost;
    else return hb * bit_cost + ((s << 8) >> hb);
}

// Halves (or more) every count, keeping each seen symbol at 1 or more (and
// every symbol when `floor_one`); returns the new sum.
inline std::uint32_t scale_down(std::uint32_t* t, unsigned n, unsigned shift, bool floor_one) noexcept {
    std::uint32_t sum = 0;
    for (unsigned s = 0; s < n; ++s) {
        const std::uint32_t v = (floor_one ? 1u : std::uint32_t(t[s] > 0)) + (t[s] >> shift);
        t[s] = v;
        sum += v;
    }
    return sum;
}

// Scales a table whose sum has grown past 2^log so that it is about 2^log.
inline std::uint32_t rescale(std::uint32_t* t, unsigned n, unsigned log) noexcept {
    std::uint32_t sum = 0;
    for (unsigned s = 0; s < n; ++s) sum += t[s];
    const std::uint32_t factor = sum >> log;
    if (factor <= 1) return sum;
    return scale_down(t, n, highbit(factor), true);
}

template <int Level>
ZEST_INLINE void set_base_prices(opt_stats& st) noexcept {
    st.lit_sum_price = weight<Level>(st.lit_sum);
    st.lit_len_sum_price = weight<Level>(st.lit_len_sum);
    st.match_len_sum_price = weight<Level>(st.match_len_sum);
    st.off_code_sum_price = weight<Level>(st.off_code_sum);
    for (unsigned c = 0; c < 36; ++c)
        st.lit_len_price[c] = int(value_codes.ll_bits[c] * bit_cost + st.lit_len_sum_price - weight<Level>(st.lit_len[c]));
    for (unsigned c = 0; c < 53; ++c)
        st.match_len_price[c] =
            int(value_codes.ml_bits[c] * bit_cost + st.match_len_sum_price - weight<Level>(st.match_len[c]));
    for (unsigned c = 0; c < 32; ++c) {
        std::uint32_t price = c * bit_cost + st.off_code_sum_price - weight<Level>(st.off_code[c]);
        // btopt favours nearer matches, which decode faster.
        if (Level < 2 && c >= 20) price += (c - 19) * 2 * bit_cost;
        st.off_code_price[c] = int(price);
    }
}

// A block's starting statistics: the previous block's scaled down, or for
// the frame's first, its bytes' histogram and fixed guesses.
template <int Level>
void start_block(opt_stats& st, const std::uint8_t* src, std::size_t n) noexcept {
    st.predefined = false;
    if (st.lit_len_sum == 0) {
        st.predefined = n < predefined_below;
        std::fill(std::begin(st.lit), std::end(st.lit), 0u);
        for (std::size_t i = 0; i < n; ++i) ++st.lit[src[i]];
        st.lit_sum = scale_down(st.lit, 256, 8, false);
        // Short literal runs and small offset codes are likelier.
        static constexpr std::uint8_t ll_guess[36] = {4, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                                      1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
        static constexpr std::uint8_t off_guess[32] = {6, 2, 1, 1, 2, 3, 4, 4, 4, 3, 2, 1, 1, 1, 1, 1,
                                                       1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
        st.lit_len_sum = 0;
        for (unsigned c = 0; c < 36; ++c) st.lit_len_sum += st.lit_len[c] = ll_guess[c];
        for (unsigned c = 0; c < 53; ++c) st.match_len[c] = 1;
        st.match_len_sum = 53;
        st.off_code_sum = 0;
        for (unsigned c = 0; c < 32; ++c) st.off_code_sum += st.off_code[c] = off_guess[c];
    } else {
        st.lit_sum = rescale(st.lit, 256, 12);
        st.lit_len_sum = rescale(st.lit_len, 36, 11);
        st.match_len_sum = rescale(st.match_len, 53, 11);
        st.off_code_sum = rescale(st.off_code, 32, 11);
    }
    set_base_prices<Level>(st);
}

template <int Level>
struct pricer {
    const opt_stats& st;

    ZEST_INLINE int literal(std::uint8_t byte) const noexcept {
        if (st.predefined) return 6 * bit_cost;
        // A literal costs at least a bit.
        const std::uint32_t w = std::min(weight<Level>(st.lit[byte]), st.lit_sum_price - bit_cost);
        return int(st.lit_sum_price - w);
    }
    ZEST_INLINE int lit_len(std::uint32_t ll) const noexcept {
        if (st.predefined) return int(weight<Level>(ll));
        // A whole block of literals has no code: a bit more than one less.
        if (ll == block_max) return int(bit_cost) + lit_len(block_max - 1);
        return st.lit_len_price[ll_code(ll)];
    }
    // What one more literal in a run of `ll` adds to its length's price.
    ZEST_INLINE int lit_len_step(std::uint32_t ll) const noexcept { return lit_len(ll) - lit_len(ll - 1); }

    ZEST_INLINE int match(std::uint32_t off_value, std::uint32_t len) const noexcept {
        const unsigned oc = highbit(off_value);
        const std::uint32_t ml_base = len - 3;
        if (st.predefined) return int(weight<Level>(ml_base) + (16 + oc) * bit_cost);
        // Fewer sequences decode faster: a fifth of a bit more per match.
        return st.off_code_price[oc] + st.match_len_price[ml_code(len)] + int(bit_cost / 5);
    }
};

ZEST_INLINE void count_sequence(opt_stats& st, const std::uint8_t* lits, std::uint32_t ll, std::uint32_t off_value,
                                std::uint32_t len) noexcept {
    for (std::uint32_t i = 0; i < ll; ++i) st.lit[lits[i]] += lit_freq_step;
    st.lit_sum += ll * lit_freq_step;
    ++st.lit_len[ll_code(ll)];
    ++st.lit_len_sum;
    ++st.off_code[highbit(off_value)];
    ++st.off_code_sum;
    ++st.match_len[ml_code(len)];
    ++st.match_len_sum;
}

// The repeat offsets after a match with `off_value` that follows `ll0` (no
// literals) where the offsets were `r`.
ZEST_INLINE void next_reps(std::uint32_t* out, const std::uint32_t* r, std::uint32_t off_value, bool ll0) noexcept {
    out[0] = r[0], out[1] = r[1], out[2] = r[2];
    update_repeats(out, off_value, ll0);
}

// The tree over one block: inserts positions, and lists the matches at one.
template <unsigned MLS>
class bt_all {
    static constexpr unsigned hashed = MLS < 4 ? 4 : MLS;  // 3-byte matches come from hash3

public:
    ZEST_INLINE bt_all(match_state& ms, std::size_t end) noexcept
        : ms_(ms), b_(ms.base), end_(end), hash_(ms.hash_table), tree_(ms.chain_table), hbits_(ms.params.hash_log),
          mask_((std::size_t(1) << (ms.params.chain_log - 1)) - 1), compares_(1u << ms.params.search_log),
          sufficient_(std::min<std::size_t>(ms.params.target_length, opt_span - 1)), next3_(ms.next_to_update) {}

    /// The matches at `ip` longer than `min_len - 1`, each longer than the
    /// last, into `out`; their number. `rep` are the repeat offsets there,
    /// `ll0` whether no literal precedes ip.
    ZEST_INLINE unsigned find(std::size_t ip, const std::uint32_t* rep, bool ll0, unsigned min_len,
                              opt_match* out) noexcept {
        if (ip < ms_.next_to_update) return 0;  // inside a long match's tail
        for (std::size_t i = ms_.next_to_update; i < ip;) i += insert(i, ip);
        ms_.next_to_update = std::uint32_t(ip);
        return collect(ip, rep, ll0, min_len, out);
    }

    /// Sorts every position up to `upto` into the tree without listing
    /// matches (history the parse does not cover).
    ZEST_INLINE void fill(std::size_t upto) noexcept {
        for (std::size_t i = ms_.next_to_update; i < upto;) i += insert(i, upto);
        ms_.next_to_update = std::uint32_t(std::max<std::size_t>(upto, ms_.next_to_update));
    }

private:
    ZEST_INLINE std::uint32_t* node(std::size_t pos) const noexcept { return tree_ + 2 * (pos & mask_); }
    ZEST_INLINE std::size_t tree_floor(std::size_t pos) const noexcept { return mask_ >= pos ? 0 : pos - mask_; }
    // Candidates for `pos` lie at or above this: in the frame and the
    // window, and never at position 0 (an empty entry; a stream that
    // lowered its positions may have its frame start there).
    ZEST_INLINE std::size_t window_floor(std::size_t pos) const noexcept {
        return std::max<std::size_t>(ms_.lowest(pos), 1);
    }

    ZEST_INLINE void fetch_children(const std::uint32_t* nd, std::size_t len) const noexcept {
        const std::uint32_t c0 = nd[0], c1 = nd[1];
        __builtin_prefetch(node(c0));
        __builtin_prefetch(node(c1));
        __builtin_prefetch(b_ + c0 + len);
        __builtin_prefetch(b_ + c1 + len);
    }

    // Sorts `pos` into the tree (as the root of its hash's tree) against
    // candidates in the window of `target`; returns how many positions to
    // move on by (more than one after a long match).
    ZEST_NOINLINE std::size_t insert(std::size_t pos, std::size_t target) noexcept {
        const std::uint8_t* const cur = b_ + pos;
        const std::uint8_t* const cur_end = b_ + end_;
        const std::size_t h = hash_at<hashed>(cur, hbits_);
        std::size_t m = hash_[h];
        hash_[h] = std::uint32_t(pos);
        const std::size_t lowest = window_floor(target), floor = tree_floor(pos);
        std::uint32_t* smaller = node(pos);
        std::uint32_t* larger = smaller + 1;
        std::uint32_t spare;
        std::size_t common_smaller = 0, common_larger = 0, best = 8, match_end = pos + 9;
        for (unsigned n = compares_; n > 0 && m >= lowest; --n) {
            std::uint32_t* const next = node(m);
            const std::uint8_t* const match = b_ + m;
            std::size_t len = std::min(common_smaller, common_larger);
            fetch_children(next, len);
            len += common_length(cur + len, match + len, cur_end);
            if (len > best) {
                best = len;
                if (len > match_end - m) match_end = m + len;
            }
            if (cur + len == cur_end) break;  // order unknown: leave it out
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
        const std::size_t skip = best > 384 ? std::min<std::size_t>(192, best - 384) : 0;
        return std::max(skip, match_end - (pos + 8));
    }

    // The newest position before ip whose 3 bytes hash as ip's, after
    // hashing every position since the last call.
    ZEST_INLINE std::size_t hash3_first(std::size_t ip) noexcept {
        const unsigned bits = ms_.hash3_log;
        const auto h3 = [&](std::size_t pos) { return std::size_t(((load32(b_ + pos) << 8) * 506832829u) >> (32 - bits)); };
        for (; next3_ < ip; ++next3_) ms_.hash3_table[h3(next3_)] = std::uint32_t(next3_);
        return ms_.hash3_table[h3(ip)];
    }

    ZEST_INLINE unsigned collect(std::size_t ip, const std::uint32_t* rep, bool ll0, unsigned min_len,
                                 opt_match* out) noexcept {
        const std::uint8_t* const cur = b_ + ip;
        const std::uint8_t* const cur_end = b_ + end_;
        // The parser most often asks for the next position next: its hash
        // buckets are fetched now, and the newest node of the position
        // after it (whose bucket the last search fetched). Hashes read 8
        // bytes; ip may be 8 bytes before the block's end.
        if (ip + 10 <= end_) {
            __builtin_prefetch(hash_ + hash_at<hashed>(cur + 1, hbits_));
            const std::uint32_t ahead = hash_[hash_at<hashed>(cur + 2, hbits_)];
            __builtin_prefetch(node(ahead));
            __builtin_prefetch(b_ + ahead);
            if constexpr (MLS == 3)
                __builtin_prefetch(ms_.hash3_table + (((load32(cur + 1) << 8) * 506832829u) >> (32 - ms_.hash3_log)));
        }
        const std::size_t lowest = window_floor(ip);
        const std::uint32_t head = min_len == 3 ? load32(cur) << 8 : load32(cur);
        unsigned n = 0;
        std::size_t best = min_len - 1;

        // Repeat offsets: after literals the three, else the second, third
        // and the first minus one (the format's codes 1 to 3 there).
        for (unsigned k = ll0; k < 3 + unsigned(ll0); ++k) {
            const std::uint32_t off = k == 3 ? rep[0] - 1 : rep[k];
            std::size_t len = 0;
            if (off - 1 < ip - ms_.low && ip - off >= lowest) {
                const std::uint8_t* const match = cur - off;
                const std::uint32_t mhead = min_len == 3 ? load32(match) << 8 : load32(match);
                if (mhead == head) len = min_len + common_length(cur + min_len, match + min_len, cur_end);
            }
            if (len > best) {
                best = len;
                out[n++] = {k - unsigned(ll0) + 1, std::uint32_t(len)};
                if (len > sufficient_ || cur + len == cur_end) return n;
            }
        }

        if constexpr (MLS == 3) {
            if (best < 3) {
                const std::size_t m3 = hash3_first(ip);
                if (m3 >= lowest && ip - m3 < (std::size_t(1) << 18)) {
                    const std::size_t len = common_length(cur, b_ + m3, cur_end);
                    if (len >= 3) {
                        best = len;
                        out[0] = {std::uint32_t(ip - m3 + 3), std::uint32_t(len)};
                        n = 1;
                        if (len > sufficient_ || cur + len == cur_end) {
                            ms_.next_to_update = std::uint32_t(ip + 1);  // ip stays out of the tree
                            return 1;
                        }
                    }
                }
            }
        }

        const std::size_t h = hash_at<hashed>(cur, hbits_);
        std::size_t m = hash_[h];
        hash_[h] = std::uint32_t(ip);
        const std::size_t floor = tree_floor(ip);
        std::uint32_t* smaller = node(ip);
        std::uint32_t* larger = smaller + 1;
        std::uint32_t spare;
        std::size_t common_smaller = 0, common_larger = 0, match_end = ip + 9;
        for (unsigned c = compares_; c > 0 && m >= lowest; --c) {
            std::uint32_t* const next = node(m);
            const std::uint8_t* const match = b_ + m;
            std::size_t len = std::min(common_smaller, common_larger);
            fetch_children(next, len);
            len += common_length(cur + len, match + len, cur_end);
            if (len > best) {
                if (len > match_end - m) match_end = m + len;
                best = len;
                out[n++] = {std::uint32_t(ip - m + 3), std::uint32_t(len)};
                // Longer than any stretch, or up to the end (order unknown).
                if (len > opt_span || cur + len == cur_end) break;
            }
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
        ms_.next_to_update = std::uint32_t(match_end - 8);
        return n;
    }

    match_state& ms_;
    const std::uint8_t* const b_;
    const std::size_t end_;
    std::uint32_t* const hash_;
    std::uint32_t* const tree_;
    const unsigned hbits_;
    const std::size_t mask_;
    const unsigned compares_;
    const std::size_t sufficient_;
    std::size_t next3_;
};

// The block's long-distance matches, offered to the parser at the positions
// they cover: from a position inside one, the rest of it, when it is longer
// than every match found there.
class ldm_offer {
public:
    ZEST_INLINE ldm_offer(const match_state& ms, std::size_t begin, unsigned min_len) noexcept
        : m_(ms.ldm), n_(ms.n_ldm), begin_(begin), min_len_(min_len) {}

    ZEST_INLINE void add(std::size_t pos, opt_match* matches, unsigned& n) noexcept {
        if (i_ == n_) return;
        const std::size_t at = pos - begin_;
        while (i_ < n_ && m_[i_].start + m_[i_].len <= at) ++i_;
        if (i_ == n_ || m_[i_].start > at) return;
        const std::size_t len = m_[i_].start + m_[i_].len - at;
        if (len < min_len_) return;
        if (n == 0 || (len > matches[n - 1].len && n < opt_span)) matches[n++] = {m_[i_].offset + 3, std::uint32_t(len)};
    }

private:
    const ldm_match* const m_;
    const std::size_t n_;
    const std::size_t begin_;
    const unsigned min_len_;
    std::size_t i_ = 0;
};

// Appends `ll` literals from `lits` and a match to the block's store.
ZEST_INLINE void store_sequence(seq_store& out, const std::uint8_t* lits, std::uint32_t ll, std::uint32_t off_value,
                                std::uint32_t len) noexcept {
    std::memcpy(out.lits + out.n_lits, lits, ll);
    out.n_lits += ll;
    out.put(out.n_seqs++, ll, len, off_value);
}

template <unsigned MLS, int Level>
void parse_block(match_state& ms, seq_store& out, repeat_offsets& reps, std::size_t begin, std::size_t end) noexcept {
    opt_workspace& ws = *ms.opt;
    opt_stats& st = ws.stats;
    opt_node* const opt = ws.nodes;
    opt_match* const matches = ws.matches;
    const std::uint8_t* const b = ms.base;
    const pricer<Level> price{st};
    bt_all<MLS> tree(ms, end);
    const std::size_t sufficient = std::min<std::size_t>(ms.params.target_length, opt_span - 1);
    const unsigned min_len = ms.params.min_match == 3 ? 3 : 4;
    std::uint32_t* const rep = reps.rep;

    ldm_offer long_matches(ms, begin, min_len);
    start_block<Level>(st, b + begin, end - begin);
    std::size_t ip = begin, anchor = begin;
    // The frame's first byte has nothing before it.
    if (ip == ms.low) ++ip;
    const std::size_t ilimit = end - begin > 8 ? end - 8 : begin;

    while (ip < ilimit) {
        std::size_t cur = 0, last_pos = 0;
        opt_node last{};  // the stretch that ends the path

        {
            const auto litlen = std::uint32_t(ip - anchor);
            unsigned n = tree.find(ip, rep, litlen == 0, min_len, matches);
            long_matches.add(ip, matches, n);
            if (n == 0) {
                ++ip;
                continue;
            }
            // Node 0: where the stretch starts, after the pending literals
            // (whose own price is the same on every path, so left out).
            opt[0].mlen = 0;
            opt[0].litlen = litlen;
            opt[0].price = price.lit_len(litlen);
            std::copy(rep, rep + 3, opt[0].rep);

            const std::uint32_t longest = matches[n - 1].len;
            if (longest > sufficient) {
                // Long enough to take at once.
                last = {0, matches[n - 1].off_value, longest, 0, {}};
                last_pos = longest;
                goto store_path;
            }
            std::size_t pos = 1;
            for (; pos < min_len; ++pos) {
                opt[pos].price = max_price;
                opt[pos].mlen = 0;
                opt[pos].litlen = litlen + std::uint32_t(pos);
            }
            for (unsigned k = 0; k < n; ++k) {
                const std::uint32_t off_value = matches[k].off_value;
                for (; pos <= matches[k].len; ++pos) {
                    opt[pos].mlen = std::uint32_t(pos);
                    opt[pos].off_value = off_value;
                    opt[pos].litlen = 0;
                    opt[pos].price = opt[0].price + price.match(off_value, std::uint32_t(pos)) + price.lit_len(0);
                }
            }
            last_pos = pos - 1;
            opt[pos].price = max_price;
        }

        for (cur = 1; cur <= last_pos; ++cur) {
            const std::size_t at = ip + cur;
            // Reaching `cur` with one more literal after cur - 1's way.
            {
                const std::uint32_t litlen = opt[cur - 1].litlen + 1;
                const int p = opt[cur - 1].price + price.literal(b[at - 1]) + price.lit_len_step(litlen);
                if (p <= opt[cur].price) {
                    const opt_node replaced = opt[cur];
                    opt[cur] = opt[cur - 1];
                    opt[cur].litlen = litlen;
                    opt[cur].price = p;
                    // btultra: the match just replaced, then one literal,
                    // may still be the cheapest way to the next position.
                    if (Level >= 1 && replaced.litlen == 0 && price.lit_len_step(1) < 0 && at < end) {
                        const int with_one = replaced.price + price.literal(b[at]) + price.lit_len_step(1);
                        const int with_more = p + price.literal(b[at]) + price.lit_len_step(litlen + 1);
                        if (with_one < with_more && with_one < opt[cur + 1].price) {
                            const std::size_t prev = cur - replaced.mlen;
                            opt[cur + 1] = replaced;
                            next_reps(opt[cur + 1].rep, opt[prev].rep, replaced.off_value, opt[prev].litlen == 0);
                            opt[cur + 1].litlen = 1;
                            opt[cur + 1].price = with_one;
                            if (last_pos < cur + 1) last_pos = cur + 1;
                        }
                    }
                }
            }
            // A match ends here: the repeat offsets it leaves.
            if (opt[cur].litlen == 0) {
                const std::size_t prev = cur - opt[cur].mlen;
                std::uint32_t r[3];
                next_reps(r, opt[prev].rep, opt[cur].off_value, opt[prev].litlen == 0);
                std::copy(r, r + 3, opt[cur].rep);
            }

            if (at > ilimit) continue;  // no match starts in the block's last 8 bytes
            if (cur == last_pos) break;
            // btopt skips positions that the next one already reaches cheaply.
            if (Level == 0 && opt[cur + 1].price <= opt[cur].price + int(bit_cost / 2)) continue;

            const bool ll0 = opt[cur].litlen == 0;
            const int base_price = opt[cur].price + price.lit_len(0);
            unsigned n = tree.find(at, opt[cur].rep, ll0, min_len, matches);
            long_matches.add(at, matches, n);
            if (n == 0) continue;

            const std::uint32_t longest = matches[n - 1].len;
            if (longest > sufficient || cur + longest >= opt_span || at + longest >= end) {
                last = {0, matches[n - 1].off_value, longest, 0, {}};
                last_pos = cur + longest;
                goto store_path;
            }
            for (unsigned k = 0; k < n; ++k) {
                const std::uint32_t off_value = matches[k].off_value;
                const std::uint32_t shortest = k > 0 ? matches[k - 1].len + 1 : min_len;
                for (std::uint32_t len = matches[k].len; len >= shortest; --len) {
                    const std::size_t pos = cur + len;
                    const int p = base_price + price.match(off_value, len);
                    if (pos > last_pos || p < opt[pos].price) {
                        while (last_pos < pos) {
                            ++last_pos;
                            opt[last_pos].price = max_price;
                            opt[last_pos].litlen = 1;  // not the end of a match
                        }
                        opt[pos].mlen = len;
                        opt[pos].off_value = off_value;
                        opt[pos].litlen = 0;
                        opt[pos].price = p;
                    } else if (Level == 0) {
                        break;  // btopt: shorter ones will not do better either
                    }
                }
            }
            opt[last_pos + 1].price = max_price;
        }
        last = opt[last_pos];
        cur = last_pos - last.mlen;

    store_path:
        if (last.mlen == 0) {
            // Nothing but literals: they join the next stretch's.
            ip += last_pos;
            continue;
        }
        if (last.litlen == 0) {
            next_reps(rep, opt[cur].rep, last.off_value, opt[cur].litlen == 0);
        } else {
            std::copy(last.rep, last.rep + 3, rep);
            cur -= last.litlen;
        }
        // Walk back from the last stretch, writing the path's matches in
        // order into the nodes past `cur` (which the walk no longer needs):
        // each stretch's literals belong to the match that follows them.
        {
            // The last stretch's own literals are left to the next one.
            const std::size_t store_end = cur + 2;
            std::size_t store_start = store_end, stretch = cur;
            opt[store_end] = last;
            for (;;) {
                const opt_node prev = opt[stretch];
                opt[store_start].litlen = prev.litlen;
                if (prev.mlen == 0) break;
                --store_start;
                opt[store_start] = prev;
                stretch -= prev.litlen + prev.mlen;
            }
            for (std::size_t s = store_start; s <= store_end; ++s) {
                const std::uint32_t ll = opt[s].litlen, len = opt[s].mlen, off_value = opt[s].off_value;
                count_sequence(st, b + anchor, ll, off_value, len);
                store_sequence(out, b + anchor, ll, off_value, len);
                anchor += ll + len;
                ip = anchor;
            }
            set_base_prices<Level>(st);
        }
    }
    const std::size_t tail = end - anchor;
    if (tail) std::memcpy(out.lits + out.n_lits, b + anchor, tail);
    out.n_lits += tail;
}

template <int Level>
void with_mls(match_state& ms, seq_store& out, repeat_offsets& reps, std::size_t begin, std::size_t end) noexcept {
    switch (ms.params.min_match) {
        case 3: parse_block<3, Level>(ms, out, reps, begin, end); break;
        case 5: parse_block<5, Level>(ms, out, reps, begin, end); break;
        case 6:
        case 7: parse_block<6, Level>(ms, out, reps, begin, end); break;
        default: parse_block<4, Level>(ms, out, reps, begin, end); break;
    }
}

template <unsigned MLS>
void fill_tree(match_state& ms, std::size_t begin, std::size_t end) noexcept {
    if (end - begin < 16) return;
    if (ms.next_to_update < begin) ms.next_to_update = std::uint32_t(begin);
    bt_all<MLS> tree(ms, end);
    tree.fill(end - 8);  // insert() reads 8 bytes at a position
}

}  // namespace opt_strategy

void opt_fill(match_state& ms, std::size_t begin, std::size_t end) noexcept {
    using namespace opt_strategy;
    switch (ms.params.min_match) {
        case 3: fill_tree<3>(ms, begin, end); break;
        case 5: fill_tree<5>(ms, begin, end); break;
        case 6:
        case 7: fill_tree<6>(ms, begin, end); break;
        default: fill_tree<4>(ms, begin, end); break;
    }
}

void opt_finder(match_state& ms, seq_store& out, repeat_offsets& reps, std::size_t begin, std::size_t end) noexcept {
    using namespace opt_strategy;
    if (ms.params.strategy == strategy::btopt) return with_mls<0>(ms, out, reps, begin, end);
    const std::size_t n = end - begin;
    if (ms.params.strategy == strategy::btultra2 && ms.opt->stats.lit_len_sum == 0 && begin == ms.low &&
        ms.next_to_update == ms.low && n >= predefined_below) {
        // A first parse only for its statistics, then every position moves
        // up by n, so that the tables' entries fall below the frame's start.
        repeat_offsets scratch = reps;
        with_mls<2>(ms, out, scratch, begin, end);
        out.clear();
        ms.base -= n;
        ms.low += std::uint32_t(n);
        ms.next_to_update = ms.low;
        begin += n;
        end += n;
    }
    with_mls<2>(ms, out, reps, begin, end);
}

}  // namespace zest::detail::ZEST_CKERNEL_NS
