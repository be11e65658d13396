// Decoding tables of the predefined codes, transcribed from RFC 8878
// Appendix A ("Decoding tables for predefined codes"; also Appendix A of
// doc/zstd_compression_format.md in facebook/zstd). Indexed by state.
#pragma once

#include <cstdint>

namespace zest_test {

struct spec_cell {
    std::uint8_t symbol;
    std::uint8_t nb_bits;
    std::uint16_t baseline;
};

// spec_ll_table
inline constexpr spec_cell spec_ll_table[] = {
    {0, 4, 0},  // state 0
    {0, 4, 16},  // state 1
    {1, 5, 32},  // state 2
    {3, 5, 0},  // state 3
    {4, 5, 0},  // state 4
    {6, 5, 0},  // state 5
    {7, 5, 0},  // state 6
    {9, 5, 0},  // state 7
    {10, 5, 0},  // state 8
    {12, 5, 0},  // state 9
    {14, 6, 0},  // state 10
    {16, 5, 0},  // state 11
    {18, 5, 0},  // state 12
    {19, 5, 0},  // state 13
    {21, 5, 0},  // state 14
    {22, 5, 0},  // state 15
    {24, 5, 0},  // state 16
    {25, 5, 32},  // state 17
    {26, 5, 0},  // state 18
    {27, 6, 0},  // state 19
    {29, 6, 0},  // state 20
    {31, 6, 0},  // state 21
    {0, 4, 32},  // state 22
    {1, 4, 0},  // state 23
    {2, 5, 0},  // state 24
    {4, 5, 32},  // state 25
    {5, 5, 0},  // state 26
    {7, 5, 32},  // state 27
    {8, 5, 0},  // state 28
    {10, 5, 32},  // state 29
    {11, 5, 0},  // state 30
    {13, 6, 0},  // state 31
    {16, 5, 32},  // state 32
    {17, 5, 0},  // state 33
    {19, 5, 32},  // state 34
    {20, 5, 0},  // state 35
    {22, 5, 32},  // state 36
    {23, 5, 0},  // state 37
    {25, 4, 0},  // state 38
    {25, 4, 16},  // state 39
    {26, 5, 32},  // state 40
    {28, 6, 0},  // state 41
    {30, 6, 0},  // state 42
    {0, 4, 48},  // state 43
    {1, 4, 16},  // state 44
    {2, 5, 32},  // state 45
    {3, 5, 32},  // state 46
    {5, 5, 32},  // state 47
    {6, 5, 32},  // state 48
    {8, 5, 32},  // state 49
    {9, 5, 32},  // state 50
    {11, 5, 32},  // state 51
    {12, 5, 32},  // state 52
    {15, 6, 0},  // state 53
    {17, 5, 32},  // state 54
    {18, 5, 32},  // state 55
    {20, 5, 32},  // state 56
    {21, 5, 32},  // state 57
    {23, 5, 32},  // state 58
    {24, 5, 32},  // state 59
    {35, 6, 0},  // state 60
    {34, 6, 0},  // state 61
    {33, 6, 0},  // state 62
    {32, 6, 0},  // state 63
};

// spec_ml_table
inline constexpr spec_cell spec_ml_table[] = {
    {0, 6, 0},  // state 0
    {1, 4, 0},  // state 1
    {2, 5, 32},  // state 2
    {3, 5, 0},  // state 3
    {5, 5, 0},  // state 4
    {6, 5, 0},  // state 5
    {8, 5, 0},  // state 6
    {10, 6, 0},  // state 7
    {13, 6, 0},  // state 8
    {16, 6, 0},  // state 9
    {19, 6, 0},  // state 10
    {22, 6, 0},  // state 11
    {25, 6, 0},  // state 12
    {28, 6, 0},  // state 13
    {31, 6, 0},  // state 14
    {33, 6, 0},  // state 15
    {35, 6, 0},  // state 16
    {37, 6, 0},  // state 17
    {39, 6, 0},  // state 18
    {41, 6, 0},  // state 19
    {43, 6, 0},  // state 20
    {45, 6, 0},  // state 21
    {1, 4, 16},  // state 22
    {2, 4, 0},  // state 23
    {3, 5, 32},  // state 24
    {4, 5, 0},  // state 25
    {6, 5, 32},  // state 26
    {7, 5, 0},  // state 27
    {9, 6, 0},  // state 28
    {12, 6, 0},  // state 29
    {15, 6, 0},  // state 30
    {18, 6, 0},  // state 31
    {21, 6, 0},  // state 32
    {24, 6, 0},  // state 33
    {27, 6, 0},  // state 34
    {30, 6, 0},  // state 35
    {32, 6, 0},  // state 36
    {34, 6, 0},  // state 37
    {36, 6, 0},  // state 38
    {38, 6, 0},  // state 39
    {40, 6, 0},  // state 40
    {42, 6, 0},  // state 41
    {44, 6, 0},  // state 42
    {1, 4, 32},  // state 43
    {1, 4, 48},  // state 44
    {2, 4, 16},  // state 45
    {4, 5, 32},  // state 46
    {5, 5, 32},  // state 47
    {7, 5, 32},  // state 48
    {8, 5, 32},  // state 49
    {11, 6, 0},  // state 50
    {14, 6, 0},  // state 51
    {17, 6, 0},  // state 52
    {20, 6, 0},  // state 53
    {23, 6, 0},  // state 54
    {26, 6, 0},  // state 55
    {29, 6, 0},  // state 56
    {52, 6, 0},  // state 57
    {51, 6, 0},  // state 58
    {50, 6, 0},  // state 59
    {49, 6, 0},  // state 60
    {48, 6, 0},  // state 61
    {47, 6, 0},  // state 62
    {46, 6, 0},  // state 63
};

// spec_of_table
inline constexpr spec_cell spec_of_table[] = {
    {0, 5, 0},  // state 0
    {6, 4, 0},  // state 1
    {9, 5, 0},  // state 2
    {15, 5, 0},  // state 3
    {21, 5, 0},  // state 4
    {3, 5, 0},  // state 5
    {7, 4, 0},  // state 6
    {12, 5, 0},  // state 7
    {18, 5, 0},  // state 8
    {23, 5, 0},  // state 9
    {5, 5, 0},  // state 10
    {8, 4, 0},  // state 11
    {14, 5, 0},  // state 12
    {20, 5, 0},  // state 13
    {2, 5, 0},  // state 14
    {7, 4, 16},  // state 15
    {11, 5, 0},  // state 16
    {17, 5, 0},  // state 17
    {22, 5, 0},  // state 18
    {4, 5, 0},  // state 19
    {8, 4, 16},  // state 20
    {13, 5, 0},  // state 21
    {19, 5, 0},  // state 22
    {1, 5, 0},  // state 23
    {6, 4, 16},  // state 24
    {10, 5, 0},  // state 25
    {16, 5, 0},  // state 26
    {28, 5, 0},  // state 27
    {27, 5, 0},  // state 28
    {26, 5, 0},  // state 29
    {25, 5, 0},  // state 30
    {24, 5, 0},  // state 31
};

// The default distributions (RFC 8878 section 3.1.1.3.2.2, "Default Distributions").
inline constexpr std::int16_t spec_ll_default[36] = {4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 2, 2,
                                                     2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1, -1, -1, -1, -1};
inline constexpr std::int16_t spec_ml_default[53] = {1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                                     1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                                     1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1};
inline constexpr std::int16_t spec_of_default[29] = {1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1,
                                                     1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1};

}  // namespace zest_test
