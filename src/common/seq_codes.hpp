// The sequences section's codes: what each literal-length, match-length and
// offset code stands for, and the format's default distributions. Shared by
// the decoder's tables and the encoder's code mapping.
#pragma once

#include <cstdint>

namespace zest::detail {

// Baselines and extra bits of literal-length codes 16..35 and match-length
// codes 32..52 (smaller codes stand for themselves, plus 3 for matches).
inline constexpr std::uint32_t ll_base_hi[20] = {16, 18, 20, 22, 24, 28, 32, 40, 48, 64,
                                                 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536};
inline constexpr std::uint8_t ll_bits_hi[20] = {1, 1, 1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
inline constexpr std::uint32_t ml_base_hi[21] = {35, 37, 39, 41, 43, 47, 51, 59, 67, 83, 99,
                                                 131, 259, 515, 1027, 2051, 4099, 8195, 16387, 32771, 65539};
inline constexpr std::uint8_t ml_bits_hi[21] = {1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};

/// Each literal-length and match-length code's base value and extra bits.
struct value_tables {
    std::uint32_t ll_base[36];
    std::uint8_t ll_bits[36];
    std::uint32_t ml_base[53];
    std::uint8_t ml_bits[53];
};
inline constexpr value_tables make_value_tables() noexcept {
    value_tables t{};
    for (unsigned c = 0; c < 36; ++c) {
        t.ll_base[c] = c < 16 ? c : ll_base_hi[c - 16];
        t.ll_bits[c] = c < 16 ? 0 : ll_bits_hi[c - 16];
    }
    for (unsigned c = 0; c < 53; ++c) {
        t.ml_base[c] = c < 32 ? c + 3 : ml_base_hi[c - 32];
        t.ml_bits[c] = c < 32 ? 0 : ml_bits_hi[c - 32];
    }
    return t;
}
inline constexpr value_tables value_codes = make_value_tables();

// The format's default distributions and their accuracy logs.
inline constexpr std::int16_t ll_default[36] = {4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 2, 2,
                                                2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1, -1, -1, -1, -1};
inline constexpr std::int16_t ml_default[53] = {1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                                1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                                1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1};
inline constexpr std::int16_t of_default[29] = {1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1,
                                                1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1};
inline constexpr unsigned ll_default_log = 6, ml_default_log = 6, of_default_log = 5;

}  // namespace zest::detail
