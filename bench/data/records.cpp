#include <array>
#include <bit>
#include <cstring>
#include <utility>

#include "data/data.hpp"
#include "data/rng.hpp"

namespace zest_bench {
namespace {

// One 48-byte row of an events table, stored little-endian like most
// in-memory and on-disk row formats on today's machines.
struct record {
    std::uint64_t id;            // increasing, small gaps (deleted rows)
    std::uint64_t timestamp_us;  // increasing, irregular gaps
    std::uint32_t user_id;       // skewed: a few users produce most rows
    std::uint16_t event_type;    // small enum, skewed
    std::uint16_t flags;         // a handful of combinations
    std::uint32_t product_id;    // skewed
    std::int32_t quantity;       // mostly 1..5
    double price;                // a property of the product
    char country[4];             // ISO code, zero-padded
    std::uint32_t session_id;    // random, constant over a session's rows
};
static_assert(sizeof(record) == 48);

const char* const countries[] = {"US", "DE", "FR", "GB", "JP", "BR", "IN", "CA", "IT", "ES",
                                 "NL", "SE", "PL", "AU", "MX", "KR", "CH", "BE", "AT", "NO"};
const std::uint16_t flag_sets[] = {0x0000, 0x0001, 0x0001, 0x0003, 0x0010, 0x0011, 0x0100, 0x0001};

template <class T>
void put(std::byte*& p, T v) {
    if constexpr (std::endian::native == std::endian::big) {
        // Byte-swap so the table is the same on every host.
        auto raw = std::bit_cast<std::array<std::byte, sizeof(T)>>(v);
        for (std::size_t i = 0; i < sizeof(T) / 2; ++i) std::swap(raw[i], raw[sizeof(T) - 1 - i]);
        std::memcpy(p, raw.data(), sizeof(T));
    } else {
        std::memcpy(p, &v, sizeof(T));
    }
    p += sizeof(T);
}

}  // namespace

bytes make_records(std::size_t size, std::uint64_t seed) {
    rng r(seed);
    const zipf users(50000, 1.1);
    const zipf products(5000, 0.9);
    const zipf events(24, 1.3);
    const zipf country_rank(std::size(countries), 1.0);
    std::vector<double> price_of(5000);
    for (auto& p : price_of) p = static_cast<double>(r.between(99, 49999)) / 100.0;  // cents, exact

    bytes out(size + sizeof(record));
    std::byte* p = out.data();
    std::byte* const end = out.data() + size;
    record rec{};
    rec.id = 1000000000;
    rec.timestamp_us = 1700000000ull * 1000000ull;
    int session_left = 0;
    while (p < end) {
        rec.id += 1 + (r.chance(0.1) ? r.below(5) : 0);
        rec.timestamp_us += r.below(2000) + (r.chance(0.01) ? r.below(5000000) : 0);
        if (session_left-- <= 0) {
            session_left = static_cast<int>(r.between(1, 20));
            rec.session_id = static_cast<std::uint32_t>(r.next());
            rec.user_id = static_cast<std::uint32_t>(users(r) * 7919 % 1000003);
            std::memset(rec.country, 0, sizeof rec.country);
            std::memcpy(rec.country, countries[country_rank(r)], 2);
        }
        rec.event_type = static_cast<std::uint16_t>(events(r));
        rec.flags = pick(r, flag_sets);
        const std::size_t product = products(r);
        rec.product_id = static_cast<std::uint32_t>(100000 + product);
        rec.quantity = r.chance(0.9) ? static_cast<std::int32_t>(r.between(1, 5))
                                     : static_cast<std::int32_t>(r.between(6, 1000));
        rec.price = price_of[product];

        put(p, rec.id);
        put(p, rec.timestamp_us);
        put(p, rec.user_id);
        put(p, rec.event_type);
        put(p, rec.flags);
        put(p, rec.product_id);
        put(p, rec.quantity);
        put(p, rec.price);
        std::memcpy(p, rec.country, sizeof rec.country);
        p += sizeof rec.country;
        put(p, rec.session_id);
    }
    out.resize(size);
    return out;
}

}  // namespace zest_bench
