// FSE (tANS) distributions: reading a table description and building the
// decoding table from normalised counts.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/bits.hpp"
#include "common/status.hpp"

namespace zest::detail {

inline constexpr unsigned fse_max_symbols = 256;
inline constexpr unsigned fse_max_accuracy_log = 9;

/// Normalised distribution as written in the format (-1 = "less than 1").
struct fse_distribution {
    std::int16_t count[fse_max_symbols];
    unsigned max_symbol = 0;    // last symbol present
    unsigned accuracy_log = 0;
};

/// One decoding-table cell: symbol, and how to reach the next state.
struct fse_cell {
    std::uint16_t baseline;
    std::uint8_t symbol;
    std::uint8_t nb_bits;
};

/// Reads an FSE table description from src[0, size). On success stores the
/// bytes used in `used`. Accuracy logs above max_accuracy_log and symbols
/// above max_symbol_allowed are corruption.
errc read_fse_distribution(const std::uint8_t* src, std::size_t size, unsigned max_accuracy_log,
                           unsigned max_symbol_allowed, fse_distribution& out, std::size_t& used) noexcept;

/// Builds the 1 << accuracy_log cells of a decoding table (cells must have
/// room for them). Fails when the distribution does not fill the table.
errc build_fse_cells(const fse_distribution& d, fse_cell* cells) noexcept;

}  // namespace zest::detail
