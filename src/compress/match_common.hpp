// Helpers shared by the match finders: unaligned loads, the hashes of the
// next N bytes, and the length of a common prefix.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "common/bits.hpp"

namespace zest::detail {

ZEST_INLINE std::uint32_t load32(const std::uint8_t* p) noexcept {
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}
ZEST_INLINE std::uint64_t load64(const std::uint8_t* p) noexcept {
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
}

// Multiplicative hash of the first N bytes at p (N = 4..8) to `bits` bits;
// N >= 5 reads 8 bytes and drops the ones beyond N.
template <unsigned N>
ZEST_INLINE std::size_t hash_at(const std::uint8_t* p, unsigned bits) noexcept {
    if constexpr (N == 4) {
        return std::size_t((load32(p) * 2654435761u) >> (32 - bits));
    } else {
        constexpr std::uint64_t mul = N == 5   ? 889523592379ull
                                      : N == 6 ? 227718039650203ull
                                      : N == 7 ? 58295818150454627ull
                                               : 0xCF1BBCDCB7A56463ull;
        return std::size_t(((load64(p) << (64 - 8 * N)) * mul) >> (64 - bits));
    }
}

// Length of the common prefix of a and b, with a limited to a_end (b is
// before a, so it never reaches a_end first).
ZEST_INLINE std::size_t common_length(const std::uint8_t* a, const std::uint8_t* b, const std::uint8_t* a_end) noexcept {
    const std::uint8_t* const start = a;
    while (a_end - a >= 8) {
        const std::uint64_t diff = load64(a) ^ load64(b);
        if (diff != 0) return std::size_t(a - start) + (std::size_t(std::countr_zero(diff)) >> 3);
        a += 8, b += 8;
    }
    while (a < a_end && *a == *b) ++a, ++b;
    return std::size_t(a - start);
}

}  // namespace zest::detail
