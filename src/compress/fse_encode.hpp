// FSE encoding for the sequences section (and the Huffman weights):
// normalised counts, their description, encoding tables and states.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/status.hpp"
#include "compress/bit_writer.hpp"

namespace zest::detail {

inline constexpr unsigned fse_min_table_log = 5;

/// The table log to use for `total` symbols among max_symbol + 1, at most
/// max_log. Below that it is held to about log2(total) - source_margin (a
/// larger table would cost more to describe than it saves), and raised to
/// what the symbols need.
unsigned fse_table_log(unsigned max_log, std::size_t total, unsigned max_symbol, unsigned source_margin = 2) noexcept;

/// Scales counts (total = their sum, at least two distinct symbols present)
/// to sum to 1 << table_log; a present symbol gets at least 1, or -1 ("less
/// than 1") when low_probability is allowed and it is rare enough.
errc fse_normalize(std::int16_t* norm, unsigned table_log, const std::uint32_t* counts, std::size_t total,
                   unsigned max_symbol, bool low_probability) noexcept;

/// Writes the table description as the format reads it (read_fse_distribution).
/// Returns its size, 0 if it does not fit.
std::size_t fse_write_description(std::uint8_t* dst, std::size_t capacity, const std::int16_t* norm,
                                  unsigned max_symbol, unsigned table_log) noexcept;

/// Encoding table for a normalised distribution (max table log 9; nothing
/// is built above that).
struct fse_ctable {
    unsigned table_log = 0;
    std::uint16_t state_table[1u << 9];  ///< next state, by cumulative position
    struct symbol_transform {
        std::int32_t delta_find_state;
        std::uint32_t delta_nb_bits;
    } symbol[256];
};
void fse_build_ctable(fse_ctable& ct, const std::int16_t* norm, unsigned max_symbol, unsigned table_log) noexcept;

/// Bits `counts` would cost under `norm` (an estimate from the
/// probabilities, in bits); used to choose between table modes.
std::size_t fse_estimated_bits(const std::int16_t* norm, unsigned table_log, const std::uint32_t* counts,
                               unsigned max_symbol) noexcept;

/// low_bits_mask[k]: the k low bits set (k <= 31), by lookup rather than by
/// a shift, which would tie up the shift-count register in the encoders'
/// loops.
inline constexpr auto low_bits_mask = [] {
    struct table {
        std::uint32_t m[32];
    } t{};
    for (unsigned k = 0; k < 32; ++k) t.m[k] = (std::uint32_t(1) << k) - 1;
    return t;
}();

/// One FSE encoding state. Symbols are encoded in the reverse of the order
/// the decoder reads them.
struct fse_state {
    std::uint64_t value = 0;
    const fse_ctable* ct = nullptr;
    /// Starts with the last symbol the decoder will read (writes no bits).
    /// Inline, like the rest, so that an encoder's states stay in registers.
    ZEST_INLINE void init(const fse_ctable& table, unsigned symbol) noexcept {
        // The symbol's first state (x = c) needs the most bits to leave, which
        // is what the Huffman weight stream's end rule relies on (it must read
        // at least one bit past the start).
        ct = &table;
        const auto& t = table.symbol[symbol];
        // Recover c from delta_nb_bits = (hi << 16) - (c << hi), where
        // 0 < c << hi < 2^16 (hi is 0 only for a one-symbol table, c = size).
        const std::uint32_t hi = ((t.delta_nb_bits >> 16) + 1) & 0xFFFFu;
        const std::uint32_t c = ((hi << 16) - t.delta_nb_bits) >> hi;
        value = table.state_table[t.delta_find_state + std::int32_t(c)];
    }
    ZEST_INLINE void encode(bit_writer& bw, unsigned symbol) noexcept {
        const auto& t = ct->symbol[symbol];
        // 32-bit on purpose: for a one-symbol table delta_nb_bits wraps, and
        // the sum must wrap back to give 0 bits.
        const unsigned nb = (std::uint32_t(value) + t.delta_nb_bits) >> 16;
        bw.add(value & low_bits_mask.m[nb], nb);
        value = ct->state_table[std::int32_t(value >> nb) + t.delta_find_state];
    }
    // The sequence stream's variant of encode, which gathers several fields
    // before writing them, is the kernels' sequence_coding::step
    // (compress/entropy_streams.inl), where each instruction set picks its mask.
    /// Writes the final state (table_log bits): the decoder's initial state.
    ZEST_INLINE void flush(bit_writer& bw) const noexcept { bw.add(value & low_bits_mask.m[ct->table_log], ct->table_log); }
};

}  // namespace zest::detail
