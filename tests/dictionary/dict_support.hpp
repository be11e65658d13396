// Helpers of the dictionary tests: message-sized samples of the corpus
// shapes, and libzstd (the oracle) training dictionaries and writing frames
// with them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "corpus.hpp"

namespace zest::test {

/// `count` messages of one corpus shape ("json", "text", "code", "records",
/// "mixed"), sizes from min_size to max_size, each from its own seed.
std::vector<bytes> messages(const std::string& shape, std::size_t count, std::size_t min_size,
                            std::size_t max_size, std::uint64_t seed);

/// libzstd's ZDICT_trainFromBuffer on the messages (dictionary of at most
/// `capacity` bytes); fails the test when training fails.
bytes libzstd_train(const std::vector<bytes>& samples, std::size_t capacity);

/// Frame of `msg` written by libzstd with `dict` (ZSTD_CCtx_loadDictionary,
/// content kind detected as the reference does) at `level`.
/// `dict_id_flag` false leaves the ID out of the frame header.
bytes libzstd_compress(std::span<const std::byte> msg, std::span<const std::byte> dict, int level,
                       bool dict_id_flag = true, bool raw_content = false);

/// libzstd decoding `frame` with `dict`; nullopt-like empty vector plus
/// `ok` false on failure.
bytes libzstd_decompress(std::span<const std::byte> frame, std::span<const std::byte> dict, bool& ok);

}  // namespace zest::test
