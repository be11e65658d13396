// Dictionary training: which bytes of the samples make the content
// (fastCover, or COVER with exact d-mer counts), and the entropy tables and
// header around it (finalize).
//
// Both selections score segments of k bytes by the d-mers (substrings of d
// bytes) they hold: a segment's score is the sum of the frequencies of the
// distinct d-mers in it. The training bytes are cut into epochs; each round
// takes the best segment of the next epoch, puts it in front of what the
// dictionary holds (the first picked end up last, nearest the data), and
// forgets the frequencies of its d-mers so that later picks bring new ones.
// fastCover counts hashed d-mers over all positions; COVER counts, for
// each distinct d-mer, the samples that hold it. Candidates (k, d) are
// scored by compressing the held-out samples with the finalized
// dictionary; the smallest total wins.
#include <algorithm>
#include <cstring>
#include <new>
#include <unordered_map>
#include <vector>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "common/bits.hpp"
#include "common/seq_codes.hpp"
#include "compress/frame_writer.hpp"
#include "compress/huffman_encode.hpp"
#include "compress/length_codes.hpp"
#include "dictionary/dictionary_data.hpp"
#include "zest/zest.hpp"

namespace zest {
namespace detail {
namespace {

constexpr std::size_t dict_min_capacity = 256;  // the reference's smallest dictionary
constexpr std::size_t content_min = 8;          // repeat offsets up to 8 must fit in it
constexpr unsigned min_samples = 5;             // training samples, after the split: as the reference
constexpr unsigned k_min = 50, k_max = 2000;    // the search range of k

// A d-mer's hash, from the 8 bytes at p (d = 6 uses the first 6).
ZEST_INLINE std::uint32_t dmer_hash(const std::uint8_t* p, unsigned d, unsigned f) noexcept {
    std::uint64_t v = load_le64(p);
    if (d < 8) v &= (std::uint64_t(1) << (8 * d)) - 1;
    return std::uint32_t((v * 0x9FB21C651E98DF25ull) >> (64 - f));
}

struct sample_view {
    const std::uint8_t* data;
    std::span<const std::size_t> sizes;
    std::vector<std::size_t> offsets;  // sizes.size() + 1 entries
    std::size_t n_train = 0;
    std::size_t test_first = 0;        // the samples that score: [test_first, size)

    std::size_t bytes(std::size_t first, std::size_t last) const noexcept { return offsets[last] - offsets[first]; }
};

// Statistics of how the samples compress with `content` as history, and
// the formatted dictionary they make.
errc finalize(std::span<const std::uint8_t> content, const sample_view& s, std::size_t first, std::size_t last,
              std::size_t capacity, int level, std::uint32_t dict_id, std::vector<std::byte>& out) noexcept {
    if (capacity < dict_min_capacity) return errc::invalid_argument;
    if (content.size() < content_min) return errc::dictionary_invalid;
    const unsigned of_max = highbit32(std::uint32_t(std::min<std::size_t>(capacity, 1u << 30) + block_size_max));
    std::uint32_t lit[256], of[32], ml[ml_max_symbol + 1], ll[ll_max_symbol + 1];
    // Every symbol gets a count, so that every one is representable.
    std::fill(std::begin(lit), std::end(lit), 1u);
    std::fill(of, of + of_max + 1, 1u);
    std::fill(std::begin(ml), std::end(ml), 1u);
    std::fill(std::begin(ll), std::end(ll), 1u);

    dictionary_data raw;
    raw.bytes = content.data();
    raw.size = content.size();
    ZEST_TRY(parse_dictionary(raw, true, false));
    std::unique_ptr<encoder_state> st(new (std::nothrow) encoder_state);
    if (!st) return errc::out_of_memory;
    std::vector<std::uint8_t> buf;
    try {
        buf.resize(content.size() + block_size_max + 16);
    } catch (...) {
        return errc::out_of_memory;
    }
    std::memcpy(buf.data(), content.data(), content.size());
    frame_options o;
    (void)set_setting(o, setting::level, level);
    std::vector<std::uint8_t> scratch;
    try {
        scratch.resize(block_size_max);
    } catch (...) {
        return errc::out_of_memory;
    }
    // Counts the symbols of the sample's first block (at position `first`,
    // at most n bytes), as the reference does: only if the block would be
    // written compressed, so that samples that do not compress (noise)
    // leave the tables to the ones that do.
    const auto count = [&](block_writer& w, std::size_t first, std::size_t n, const std::uint8_t* end) {
        const std::size_t part = std::min(w.block_max(), n);
        const seq_store& q = w.find_only(first, part, end);
        if (w.compresses(part, scratch.data(), scratch.size())) {
            for (std::size_t j = 0; j < q.n_lits; ++j) lit[q.lits[j]]++;
            for (std::size_t j = 0; j < q.n_seqs; ++j) {
                of[std::min(highbit32(q.seqs[j].off_value), of_max)]++;
                ml[ml_code(q.match_len(j))]++;
                ll[ll_code(q.lit_len(j))]++;
            }
        }
        w.finish(first + n);
    };
    for (std::size_t i = first; i < last; ++i) {
        // The first block of each sample, as the reference counts them.
        const std::size_t n = std::min(s.sizes[i], block_size_max);
        if (n == 0) continue;
        const compression_params p = frame_params(o, n + content.size());
        block_writer w;
        // As frames are compressed: the fast strategies search the
        // content's tables, made once; the others run it through the finder
        // in front of the sample.
        if (const attached_tables* t = raw.tables_for(p, n)) {
            ZEST_TRY(w.begin(*st, attached_params(p, n), n));
            const std::uint32_t low = w.first_index();
            const std::uint8_t* const sample = s.data + s.offsets[i];
            w.set_base(sample - low);
            w.attach_dictionary(raw, *t);
            count(w, low, n, sample + n);
            continue;
        }
        std::memcpy(buf.data() + content.size(), s.data + s.offsets[i], n);
        ZEST_TRY(w.begin(*st, p, n + content.size()));
        const std::uint32_t low = w.first_index();
        w.set_base(buf.data() - low);
        const std::uint8_t* const end = buf.data() + content.size() + n;
        w.load_dictionary(raw, low, end);
        count(w, low + content.size(), n, end);
    }

    std::uint8_t header[8 + 256 + 3 * 128 + 12];
    std::size_t h = 8;
    huffman_ctable ht;
    // The best code within 11 bits for these counts: each of the 256
    // symbols has one, and the many rare ones must not push out the codes
    // of the moderately common (which a repair blind to counts does).
    if (build_huffman_ctable(lit, 255, 11, ht, true) == 0) return errc::dictionary_invalid;
    std::size_t n = write_huffman_description(header + h, sizeof header - h, ht);
    if (n == 0) return errc::dictionary_invalid;
    h += n;
    const auto table = [&](const std::uint32_t* counts, unsigned max_symbol, unsigned log) -> errc {
        std::size_t total = 0;
        for (unsigned i = 0; i <= max_symbol; ++i) total += counts[i];
        std::int16_t norm[256];
        ZEST_TRY(fse_normalize(norm, log, counts, total, max_symbol, true));
        const std::size_t m = fse_write_description(header + h, sizeof header - h, norm, max_symbol, log);
        if (m == 0) return errc::dictionary_invalid;
        h += m;
        return ok;
    };
    ZEST_TRY(table(of, of_max, of_max_log));
    ZEST_TRY(table(ml, ml_max_symbol, ml_max_log));
    ZEST_TRY(table(ll, ll_max_symbol, ll_max_log));
    for (const std::uint32_t r : {1u, 4u, 8u}) {
        store_le32(header + h, r);
        h += 4;
    }
    if (h + content_min > capacity) return errc::invalid_argument;
    // The content's end is what is kept when all does not fit.
    const std::size_t keep = std::min(content.size(), capacity - h);
    const std::uint8_t* const kept = content.data() + content.size() - keep;
    if (dict_id == 0) {
        // In the range anyone may use (32768 .. 2^31 - 1), from the content.
        const std::uint64_t hash = XXH64(kept, keep, 0);
        dict_id = std::uint32_t(hash % ((1u << 31) - 32768)) + 32768;
    }
    store_le32(header, dictionary_magic);
    store_le32(header + 4, dict_id);
    try {
        out.resize(h + keep);
    } catch (...) {
        return errc::out_of_memory;
    }
    std::memcpy(out.data(), header, h);
    std::memcpy(out.data() + h, kept, keep);
    return ok;
}

// The training bytes' segments, best first, as a dictionary's content.
class selector {
public:
    // `ends`: where each training sample ends in data.
    selector(const std::uint8_t* data, std::size_t size, std::span<const std::size_t> ends, const sample_view& s,
             unsigned d, unsigned f, bool exact)
        : data_(data), d_(d), exact_(exact) {
        n_dmers_ = size >= 8 ? size - 8 + 1 : 0;
        ids_.resize(n_dmers_);
        if (!exact) {
            // Every position has an id; only the d-mers inside a sample
            // count (those across two are not in any message).
            freq_.assign(std::size_t(1) << f, 0);
            std::size_t sample = 0;
            for (std::size_t i = 0; i < n_dmers_; ++i) {
                ids_[i] = dmer_hash(data + i, d, f);
                while (sample < ends.size() && ends[sample] < i + 8) ++sample;
                const std::size_t start = sample == 0 ? 0 : ends[sample - 1];
                freq_[ids_[i]] += std::uint32_t(sample < ends.size() && i >= start);
            }
        } else {
            // Exact d-mers: each distinct one an id, its frequency the
            // number of training samples that hold it.
            std::unordered_map<std::uint64_t, std::uint32_t> index;
            index.reserve(n_dmers_ / 4 + 16);
            std::vector<std::size_t> last_sample;
            std::size_t sample = 0;
            for (std::size_t i = 0; i < n_dmers_; ++i) {
                while (sample + 1 < s.n_train && s.offsets[sample + 1] <= i) ++sample;
                std::uint64_t v = load_le64(data + i);
                if (d < 8) v &= (std::uint64_t(1) << (8 * d)) - 1;
                auto [it, fresh] = index.try_emplace(v, std::uint32_t(freq_.size()));
                if (fresh) {
                    freq_.push_back(0);
                    last_sample.push_back(SIZE_MAX);
                }
                ids_[i] = it->second;
                if (last_sample[it->second] != sample) {
                    last_sample[it->second] = sample;
                    freq_[it->second]++;
                }
            }
        }
        in_window_.assign(freq_.size(), 0);
    }

    std::size_t dmers() const noexcept { return n_dmers_; }

    // Fills dict[0, capacity) from its end; returns where the content starts.
    std::size_t build(std::uint8_t* dict, std::size_t capacity, unsigned k) {
        // The taken d-mers' frequencies are zeroed in place and put back at
        // the end (copying the whole table per k cost more than the search).
        std::vector<std::uint32_t>& freq = freq_;
        std::vector<std::pair<std::uint32_t, std::uint32_t>> taken;
        struct restore {
            std::vector<std::uint32_t>& freq;
            std::vector<std::pair<std::uint32_t, std::uint32_t>>& taken;
            ~restore() {
                for (auto it = taken.rbegin(); it != taken.rend(); ++it) freq[it->first] = it->second;
            }
        } put_back{freq, taken};
        const std::size_t in_k = k - d_ + 1;
        // Epochs: as many as the dictionary has segments (fastCover) or a
        // quarter of that (COVER, four passes), at least ten segments long.
        std::size_t epochs = std::max<std::size_t>(1, capacity / k / (exact_ ? 4 : 1));
        std::size_t epoch = n_dmers_ / epochs;
        if (epoch < 10 * std::size_t(k)) {
            epoch = std::min<std::size_t>(10 * std::size_t(k), n_dmers_);
            epochs = std::max<std::size_t>(1, n_dmers_ / std::max<std::size_t>(epoch, 1));
        }
        const std::size_t max_zero_rounds =
            exact_ ? std::max<std::size_t>(10, std::min<std::size_t>(100, epochs >> 3)) : 10;
        std::size_t tail = capacity, zero_rounds = 0;
        for (std::size_t e = 0; tail > 0; e = (e + 1) % epochs) {
            const std::size_t b = e * epoch, end = std::min(b + epoch, n_dmers_);
            std::size_t best_begin = b, best_end = b;
            std::uint64_t best = 0, score = 0;
            std::size_t from = b;
            for (std::size_t i = b; i < end; ++i) {
                const std::uint32_t id = ids_[i];
                if (in_window_[id]++ == 0) score += freq[id];
                if (i + 1 - from > in_k) {
                    const std::uint32_t out = ids_[from++];
                    if (--in_window_[out] == 0) score -= freq[out];
                }
                if (score > best) best = score, best_begin = from, best_end = i + 1;
            }
            for (std::size_t i = from; i < end; ++i) in_window_[ids_[i]] = 0;
            if (best == 0) {
                if (++zero_rounds >= max_zero_rounds) break;
                continue;
            }
            zero_rounds = 0;
            // Without the d-mers at either end that bring nothing (taken
            // already, or never counted): their bytes would only take room
            // from later segments.
            while (best_begin < best_end && freq[ids_[best_begin]] == 0) ++best_begin;
            while (best_end > best_begin && freq[ids_[best_end - 1]] == 0) --best_end;
            for (std::size_t i = best_begin; i < best_end; ++i) {
                const std::uint32_t id = ids_[i];
                if (freq[id] != 0) {
                    taken.emplace_back(id, freq[id]);
                    freq[id] = 0;
                }
            }
            const std::size_t seg = std::min(best_end - best_begin + d_ - 1, tail);
            if (seg < d_) break;
            tail -= seg;
            std::memcpy(dict + tail, data_ + best_begin, seg);
        }
        return tail;
    }

private:
    const std::uint8_t* data_;
    unsigned d_;
    bool exact_;
    std::size_t n_dmers_ = 0;
    std::vector<std::uint32_t> ids_;
    std::vector<std::uint32_t> freq_;
    std::vector<std::uint16_t> in_window_;
};

// Total compressed size of the scoring samples with `dict`.
std::size_t score(const std::vector<std::byte>& dict, const sample_view& s, int level) {
    auto d = zest::dictionary::load(dict);
    if (!d) return SIZE_MAX;
    zest::compressor c;
    (void)c.set_level(level);
    std::vector<std::byte> out;
    std::size_t total = 0;
    for (std::size_t i = s.test_first; i < s.sizes.size(); ++i) {
        const std::span<const std::byte> src(reinterpret_cast<const std::byte*>(s.data + s.offsets[i]), s.sizes[i]);
        out.resize(zest::compress_bound(src.size()));
        auto r = c.compress(std::span<std::byte>(out), src, *d);
        if (!r) return SIZE_MAX;
        total += *r;
    }
    return total;
}

}  // namespace
}  // namespace detail

result<std::vector<std::byte>> finalize_dictionary(std::span<const std::byte> content,
                                                   std::span<const std::byte> samples,
                                                   std::span<const std::size_t> sizes, std::size_t capacity,
                                                   int level, std::uint32_t dict_id) noexcept {
    detail::sample_view s{reinterpret_cast<const std::uint8_t*>(samples.data()), sizes, {}};
    try {
        s.offsets.resize(sizes.size() + 1);
    } catch (...) {
        return errc::out_of_memory;
    }
    for (std::size_t i = 0; i < sizes.size(); ++i) s.offsets[i + 1] = s.offsets[i] + sizes[i];
    if (s.offsets.back() > samples.size()) return errc::invalid_argument;
    std::vector<std::byte> out;
    const errc e = detail::finalize({reinterpret_cast<const std::uint8_t*>(content.data()), content.size()}, s, 0,
                                    sizes.size(), capacity, level, dict_id, out);
    if (e != detail::ok) return e;
    return out;
}

result<std::vector<std::byte>> train_dictionary(std::span<const std::byte> samples,
                                                std::span<const std::size_t> sizes, std::size_t capacity,
                                                const training_parameters& p, training_parameters* chosen) noexcept {
    using detail::ok;
    if (capacity < detail::dict_min_capacity || sizes.empty()) return errc::invalid_argument;
    if (p.split_percent == 0 || p.split_percent > 100 || p.accel < 1 || p.accel > 10 || p.f < 10 || p.f > 26 ||
        (p.d != 0 && p.d != 6 && p.d != 8) || (p.k != 0 && (p.k < 16 || p.k > 2048)) || (p.k != 0 && p.d > p.k))
        return errc::invalid_argument;
    detail::sample_view s{reinterpret_cast<const std::uint8_t*>(samples.data()), sizes, {}};
    try {
        s.offsets.resize(sizes.size() + 1);
        for (std::size_t i = 0; i < sizes.size(); ++i) s.offsets[i + 1] = s.offsets[i] + sizes[i];
        if (s.offsets.back() > samples.size()) return errc::invalid_argument;
        // As the reference: a search over k or d (either left to 0) trains on
        // split% of the samples, rounded down as its double product is, and
        // scores with the rest (or with all at 100); given both, all samples
        // train. At least 5 must train, and one must score.
        const bool search = p.k == 0 || p.d == 0;
        const double split = static_cast<double>(p.split_percent) / 100.0;
        const auto n = static_cast<double>(sizes.size());
        s.n_train = search && p.split_percent < 100 ? static_cast<std::size_t>(n * split) : sizes.size();
        s.test_first = search && p.split_percent < 100 ? s.n_train : 0;
        if (s.n_train < detail::min_samples || s.test_first == sizes.size()) return errc::dictionary_invalid;
        const std::size_t train_bytes = s.bytes(0, s.n_train);
        if (train_bytes < 8 + 16) return errc::dictionary_invalid;
        const int level = p.level == 0 ? zest::default_level : p.level;

        std::vector<unsigned> ds;
        if (p.d) ds.push_back(p.d);
        else if (p.cover) ds = {6, 8};
        else ds.push_back(8);
        std::vector<unsigned> ks;
        if (p.k) {
            ks.push_back(p.k);
        } else {
            const unsigned steps = p.steps ? p.steps : p.cover ? 40 : 4;
            const unsigned step = std::max(1u, (detail::k_max - detail::k_min) / steps);
            for (unsigned k = detail::k_min; k <= detail::k_max; k += step) ks.push_back(k);
        }
        std::vector<std::uint8_t> buf(capacity);
        std::vector<std::byte> best;
        std::size_t best_size = SIZE_MAX;
        training_parameters used = p;
        for (const unsigned d : ds) {
            // fastCover with acceleration samples fewer positions: only the
            // first 1/accel of each sample's bytes go in its table.
            std::vector<std::uint8_t> sampled;
            std::vector<std::size_t> ends(s.offsets.begin() + 1, s.offsets.begin() + 1 + s.n_train);
            const std::uint8_t* train = s.data;
            std::size_t train_size = train_bytes;
            if (!p.cover && p.accel > 1) {
                for (std::size_t i = 0; i < s.n_train; ++i) {
                    const std::size_t keep = std::max<std::size_t>(sizes[i] / p.accel, std::min<std::size_t>(sizes[i], 64));
                    sampled.insert(sampled.end(), s.data + s.offsets[i], s.data + s.offsets[i] + keep);
                    ends[i] = sampled.size();
                }
                train = sampled.data();
                train_size = sampled.size();
            }
            detail::selector sel(train, train_size, ends, s, d, p.f, p.cover);
            if (sel.dmers() == 0) continue;
            for (const unsigned k : ks) {
                if (k < d) continue;
                const std::size_t start = sel.build(buf.data(), capacity, k);
                if (capacity - start < detail::content_min) continue;
                std::vector<std::byte> dict;
                const errc e = detail::finalize({buf.data() + start, capacity - start}, s, 0, s.n_train, capacity,
                                                level, p.dict_id, dict);
                if (e == errc::out_of_memory) return e;
                if (e != ok) continue;
                const std::size_t size = ks.size() * ds.size() == 1 ? 0 : detail::score(dict, s, level);
                if (size < best_size) {
                    best_size = size;
                    best = std::move(dict);
                    used.k = k;
                    used.d = d;
                }
            }
        }
        if (best.empty()) return errc::dictionary_invalid;
        if (chosen) *chosen = used;
        return best;
    } catch (const std::bad_alloc&) {
        return errc::out_of_memory;
    }
}

}  // namespace zest
