// Long-distance matching: sampling, lookup and extension (see ldm.hpp).
#include "compress/ldm.hpp"

#include <algorithm>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "compress/match_common.hpp"

namespace zest::detail {
namespace {

// The gear hash's value per byte: fixed pseudo-random 64-bit numbers
// (splitmix64 from a constant seed).
struct gear_values {
    std::uint64_t v[256];
};
constexpr gear_values make_gear() noexcept {
    gear_values g{};
    std::uint64_t x = 0x7A6573746C646D31ull;
    for (auto& e : g.v) {
        x += 0x9E3779B97F4A7C15ull;
        std::uint64_t z = x;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        e = z ^ (z >> 31);
    }
    return g;
}
constexpr gear_values gear = make_gear();

// The mask whose bits must all be zero at a sample: hash_rate_log bits, as
// high as a hash of min_match bytes allows (bit k of a gear hash depends on
// the last k + 1 bytes).
std::uint64_t sample_mask(const ldm_settings& s) noexcept {
    const unsigned usable = std::min(s.min_match, 64u);
    const std::uint64_t ones = (std::uint64_t(1) << s.hash_rate_log) - 1;
    return s.hash_rate_log > 0 && s.hash_rate_log <= usable ? ones << (usable - s.hash_rate_log) : ones;
}

// Asks for the cache line at p ahead of its use.
inline void prefetch(const void* p) noexcept {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(p);
#else
    (void)p;
#endif
}

}  // namespace

std::size_t find_long_matches(const ldm_settings& s, const ldm_tables& t, const std::uint8_t* base, std::size_t low,
                              std::size_t lowest, std::size_t begin, std::size_t end, ldm_match* out) noexcept {
    const std::size_t mm = s.min_match;
    // Samples end 8 bytes before the block's end, as the reference's.
    if (end - begin < mm + 8) return 0;
    const std::size_t limit = end - 8;
    const std::uint64_t mask = sample_mask(s);
    const unsigned bucket_bits = s.hash_log - s.bucket_log;
    const std::uint32_t slots = 1u << s.bucket_log;
    lowest = std::max<std::size_t>(lowest, 1);  // 0 is an empty entry

    const auto roll = [&](std::uint64_t h, std::size_t from, std::size_t to) {
        for (std::size_t i = from; i < to; ++i) h = (h << 1) + gear.v[base[i]];
        return h;
    };
    const auto insert = [&](std::uint32_t bucket, ldm_entry e) {
        std::uint8_t& next = t.next_slot[bucket];
        t.entries[(std::size_t(bucket) << s.bucket_log) + next] = e;
        next = std::uint8_t((next + 1) & (slots - 1));
    };

    // Samples are gathered a batch at a time, and their buckets fetched
    // from memory together before any is looked at: the table is larger
    // than the caches and one miss per sample, waited on in turn, was most
    // of the search's time. They are then taken in order, as they come; a
    // match reaching past a sample's hash ends the batch (the scan starts
    // over after the match, and samples the batch holds beyond are dropped).
    constexpr std::size_t batch = 32;
    std::size_t splits[batch];
    std::uint32_t buckets[batch], checksums[batch];

    std::size_t n = 0, anchor = begin, ip = begin + mm;
    std::uint64_t h = roll(~std::uint64_t(0), begin, ip);
    while (ip < limit) {
        std::size_t count = 0;
        while (ip < limit && count < batch) {
            h = (h << 1) + gear.v[base[ip]];
            ++ip;
            if ((h & mask) == 0) splits[count++] = ip - mm;  // the min_match bytes ending here
        }
        for (std::size_t k = 0; k < count; ++k) {
            const std::uint64_t x = XXH64(base + splits[k], mm, 0);
            buckets[k] = std::uint32_t(x & ((std::uint64_t(1) << bucket_bits) - 1));
            checksums[k] = std::uint32_t(x >> 32);
            prefetch(t.entries + (std::size_t(buckets[k]) << s.bucket_log));
            prefetch(t.next_slot + buckets[k]);
        }
        for (std::size_t k = 0; k < count; ++k) {
            const std::size_t split = splits[k];
            const std::uint32_t bucket = buckets[k];
            const ldm_entry fresh{std::uint32_t(split), checksums[k]};
            if (split < anchor) {  // inside the last match
                insert(bucket, fresh);
                continue;
            }
            const ldm_entry* const slot0 = t.entries + (std::size_t(bucket) << s.bucket_log);
            std::size_t best = 0, best_fwd = 0, best_back = 0, best_pos = 0;
            for (std::uint32_t j = 0; j < slots; ++j) {
                const ldm_entry e = slot0[j];
                if (e.checksum != fresh.checksum || e.pos < lowest || e.pos >= split) continue;
                const std::size_t fwd = common_length(base + split, base + e.pos, base + end);
                if (fwd < mm) continue;
                std::size_t back = 0;
                while (split - back > anchor && e.pos - back > low && base[split - back - 1] == base[e.pos - back - 1])
                    ++back;
                if (fwd + back > best) best = fwd + back, best_fwd = fwd, best_back = back, best_pos = e.pos;
            }
            insert(bucket, fresh);
            if (best == 0) continue;
            out[n++] = {std::uint32_t(split - best_back - begin), std::uint32_t(best), std::uint32_t(split - best_pos)};
            anchor = split + best_fwd;
            if (anchor > split + mm) {
                // A repetition longer than the hash's reach: start over after it.
                if (anchor >= limit) return n;
                ip = anchor;
                h = roll(~std::uint64_t(0), ip - mm, ip);
                break;
            }
        }
    }
    return n;
}

}  // namespace zest::detail
