// Small valid inputs that the invalid-input tests damage: a few hundred to a
// few thousand bytes each, so that every offset and every bit can be tried.
#pragma once

#include <string>
#include <vector>

#include "corpus.hpp"

namespace zest::test {

struct sample {
    std::string name;
    bytes frames;                         ///< one or more frames, catenated
    bytes content;                        ///< what they decode to
    bool all_checksummed = false;         ///< every Zstandard frame carries a checksum
    std::vector<std::size_t> frame_ends;  ///< offsets where a frame ends
    std::vector<std::size_t> content_at;  ///< decoded size after each frame
};

/// text_checksum, huffman, sequences, rle, raw, stream, multi.
const std::vector<sample>& samples();
const sample& sample_named(const std::string& name);
std::vector<std::string> sample_names();

}  // namespace zest::test
