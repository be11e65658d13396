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

/// The format's step between the cells of the spread: odd for tables of
/// 32 cells and more, so it reaches every cell once.
inline constexpr std::uint32_t fse_spread_step(std::uint32_t size) noexcept { return (size >> 1) + (size >> 3) + 3; }

/// Spreads the symbols over the 1 << accuracy_log states as the format
/// prescribes (symbols[state] = symbol) and sets next[s] to the first "x"
/// of each symbol present (its count; 1 for a "less than 1" symbol), for
/// fse_transition. Fails when the counts do not fill the table exactly.
errc spread_fse_symbols(const fse_distribution& d, std::uint8_t* symbols, std::uint16_t* next) noexcept;

/// The k-th state of a symbol with count c (in state order) has x = c + k;
/// it reads nb bits and goes to baseline + those bits, which covers
/// [x << nb, (x + 1) << nb) shifted down by the table size.
inline void fse_transition(std::uint32_t x, unsigned log, unsigned& nb, std::uint16_t& baseline) noexcept {
    nb = log - highbit32(x);
    baseline = std::uint16_t((x << nb) - (1u << log));
}

/// Builds the 1 << accuracy_log cells of a decoding table (cells must have
/// room for them). Fails when the distribution does not fill the table.
errc build_fse_cells(const fse_distribution& d, fse_cell* cells) noexcept;

}  // namespace zest::detail
