// Literals section of a compressed block.
#pragma once

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

}  // namespace zest::detail
