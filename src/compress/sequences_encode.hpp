// The sequences section of a compressed block: codes, a table mode per
// symbol type chosen by estimated cost, table descriptions, and the
// interleaved FSE bitstream.
#pragma once

#include <cstddef>
#include <cstdint>

#include "compress/fse_encode.hpp"
#include "compress/params.hpp"
#include "compress/seq_store.hpp"

namespace zest::detail {

/// What the decoder holds for one symbol type after a block, as far as a
/// later block's Repeat_Mode may rely on it.
struct seq_table_state {
    bool repeat_ok = false;  ///< the decoder holds exactly the table below
    /// The table is a dictionary's, kept so far: the fast strategies repeat
    /// it while it covers a block of fewer than 1000 sequences, without
    /// weighing the others (the reference's "valid" repeat mode).
    bool from_dictionary = false;
    unsigned max_symbol = 0;
    unsigned table_log = 0;
    std::int16_t norm[53] = {};
    const fse_ctable* ct = nullptr;  ///< `own`, or a default table
    fse_ctable own;

    seq_table_state() = default;
    // Copies would leave `ct` pointing into the source: use assign().
    seq_table_state(const seq_table_state&) = delete;
    seq_table_state& operator=(const seq_table_state&) = delete;
    /// Becomes what `o` describes (copying its own table only when it has one).
    void assign(const seq_table_state& o) noexcept;
};

struct seq_entropy {
    seq_table_state ll, of, ml;
    /// What a frame starts with: nothing a block may repeat.
    void reset() noexcept {
        ll.repeat_ok = of.repeat_ok = ml.repeat_ok = false;
        ll.from_dictionary = of.from_dictionary = ml.from_dictionary = false;
    }
};

/// Writes the sequences section (header, table descriptions, bitstream) of
/// `store` into dst[0, capacity). `prev` is what the decoder holds from the
/// previous compressed block; `next` receives what it will hold after this
/// one, if the block is emitted compressed. The strategy selects how table
/// modes are chosen (fast ones decide by rules of thumb, as the reference
/// does). Returns the section's size, or 0 when it does not fit.
std::size_t encode_sequences(std::uint8_t* dst, std::size_t capacity, const seq_store& store,
                             const seq_entropy& prev, seq_entropy& next, strategy strat) noexcept;

}  // namespace zest::detail
