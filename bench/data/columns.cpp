#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "data/data.hpp"
#include "data/rng.hpp"

namespace zest_bench {
namespace {

// A column chunk as a columnar store keeps it before its own encodings:
// values of one fixed-width type packed back to back, little-endian. Exactly
// `size` bytes are filled; the last value is cut short if it does not fit.
// Bytes are written one at a time so the output is the same on every host.
template <class T, class Next>
bytes column(std::size_t size, Next next) {
    static_assert(std::is_integral_v<T>);
    bytes out(size);
    std::size_t i = 0;
    while (i < size) {
        const auto v = static_cast<std::uint64_t>(static_cast<std::make_unsigned_t<T>>(static_cast<T>(next())));
        for (std::size_t b = 0; b < sizeof(T) && i < size; ++b, ++i)
            out[i] = static_cast<std::byte>((v >> (8 * b)) & 0xff);
    }
    return out;
}

}  // namespace

bytes make_int64_runs(std::size_t size, std::uint64_t seed) {
    // A column sorted or clustered by something else, e.g. order rows grouped
    // by customer or batch: the same foreign key or status code repeats for a
    // while. Values come from a modest pool with skewed popularity.
    rng r(seed);
    std::int64_t pool[48] = {200, 404, 201, 500, 302, 204, 403, 503};  // status codes
    for (std::size_t i = 8; i < std::size(pool); ++i) pool[i] = r.between(10000, 9999999);  // foreign keys
    const zipf value_rank(std::size(pool), 1.0);
    const zipf run_length(200, 1.1);
    std::int64_t value = -1;  // not in the pool
    std::size_t left = 0;
    return column<std::int64_t>(size, [&] {
        if (left == 0) {
            const std::int64_t previous = value;
            while (value == previous) value = pool[value_rank(r)];  // runs do not merge
            left = 1 + run_length(r);
        }
        --left;
        return value;
    });
}

bytes make_int64_deltas(std::size_t size, std::uint64_t seed) {
    // Event timestamps in microseconds since the Unix epoch, in arrival order:
    // small irregular gaps, bursts of near-simultaneous events, and now and
    // then a pause of up to two seconds.
    rng r(seed);
    std::int64_t t = 1715678493000000;  // 2024-05-14
    return column<std::int64_t>(size, [&] {
        if (r.chance(0.1))
            t += r.between(1, 20);  // burst
        else if (r.chance(0.002))
            t += r.between(50000, 2000000);  // pause
        else
            t += r.between(50, 3000);
        return t;
    });
}

bytes make_int32_zipf(std::size_t size, std::uint64_t seed) {
    // Item ids in a fact table (page views, purchases): a zipfian popularity
    // over 100,000 items, with ids unrelated to popularity (a permutation of
    // ranks) as they would be in a real catalogue.
    rng r(seed);
    constexpr std::int64_t items = 100000;
    const zipf rank(items, 1.1);
    return column<std::int32_t>(size, [&] {
        const auto k = static_cast<std::int64_t>(rank(r));
        return static_cast<std::int32_t>(1000000 + (k * 7919 + 4243) % items);  // 7919 is coprime to items
    });
}

bytes make_int16_sparse(std::size_t size, std::uint64_t seed) {
    // A mostly empty measure such as per-row discounts or error counts: about
    // 93% zeros, otherwise small values, a few of them negative corrections.
    // Non-zero values cluster a little, as incidents do.
    rng r(seed);
    bool busy = false;
    return column<std::int16_t>(size, [&] {
        if (r.chance(busy ? 0.2 : 0.01)) busy = !busy;
        if (!r.chance(busy ? 0.35 : 0.05)) return std::int16_t{0};
        const auto v = static_cast<std::int16_t>(r.chance(0.8) ? r.between(1, 9) : r.between(10, 500));
        return r.chance(0.1) ? static_cast<std::int16_t>(-v) : v;
    });
}

bytes make_int8_lowcard(std::size_t size, std::uint64_t seed) {
    // A small enum column (order state, device class): eight codes with skewed
    // frequencies, in runs since neighbouring rows often share a state.
    rng r(seed);
    const std::int8_t codes[] = {1, 2, 3, 0, 4, 7, -1, 9};
    const zipf code_rank(std::size(codes), 1.2);
    std::int8_t value = 0;
    std::size_t left = 0;
    return column<std::int8_t>(size, [&] {
        if (left == 0) {
            value = codes[code_rank(r)];
            left = r.chance(0.4) ? 1 : 1 + r.below(1 + r.below(24));
        }
        --left;
        return value;
    });
}

}  // namespace zest_bench
