// The literal-length and match-length code of a value, as the encoder and
// the optimal parser's prices need them.
#pragma once

#include <cstdint>

#include "common/bits.hpp"
#include "common/seq_codes.hpp"

namespace zest::detail {

// Codes of small values by lookup (literal lengths below 64, match lengths
// minus 3 below 128); above that a code is the value's highest bit plus a
// constant.
struct length_code_tables {
    std::uint8_t ll[64];
    std::uint8_t ml[128];
};
constexpr length_code_tables make_length_code_tables() noexcept {
    length_code_tables t{};
    for (unsigned v = 0; v < 64; ++v) {
        unsigned c = v < 16 ? v : 16;
        if (v >= 16)
            while (c < 35 && ll_base_hi[c + 1 - 16] <= v) ++c;
        t.ll[v] = std::uint8_t(c);
    }
    for (unsigned v = 0; v < 128; ++v) {
        unsigned c = v < 32 ? v : 32;
        if (v >= 32)
            while (c < 52 && ml_base_hi[c + 1 - 32] - 3 <= v) ++c;
        t.ml[v] = std::uint8_t(c);
    }
    return t;
}
inline constexpr length_code_tables length_codes = make_length_code_tables();

/// The literal-length code of `ll`.
ZEST_INLINE unsigned ll_code(std::uint32_t ll) noexcept { return ll < 64 ? length_codes.ll[ll] : highbit32(ll) + 19; }
/// The match-length code of a match of `ml` bytes (at least 3).
ZEST_INLINE unsigned ml_code(std::uint32_t ml) noexcept {
    const std::uint32_t v = ml - 3;
    return v < 128 ? length_codes.ml[v] : highbit32(v) + 36;
}

}  // namespace zest::detail
