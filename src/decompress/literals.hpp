// Literals section of a compressed block.
#pragma once

#include "common/fse.hpp"
#include "decompress/kernels.hpp"

namespace zest::detail {

/// Decodes the literals section at the start of a block's content
/// src[0, size). `readable_end` bounds memory that may be read past the
/// section (raw literals are used in place when wild copies stay inside it).
/// Stores the section's byte count in `used`.
errc decode_literals(decoder_state& st, const kernel_set& k, const std::uint8_t* src, std::size_t size,
                     const std::uint8_t* readable_end, std::size_t block_max, literals_view& out,
                     std::size_t& used) noexcept;

/// Reads the sequences section header and sets up the three tables.
errc read_sequences_header(decoder_state& st, const std::uint8_t* src, std::size_t size, unsigned& nb_seq,
                           std::size_t& used) noexcept;

/// Reads an FSE table description as a sequences section carries it in
/// FSE_Compressed_Mode, for the literal lengths (which = 0), offsets (1) or
/// match lengths (2), into `t`; `d` gets the distribution. Dictionaries
/// describe their tables this way.
errc read_seq_table_description(unsigned which, const std::uint8_t* src, std::size_t size, seq_table& t,
                                fse_distribution& d, std::size_t& used) noexcept;

}  // namespace zest::detail
