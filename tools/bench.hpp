// `zest -b#`: in-memory compression and decompression speed per level, on
// the given files or on a synthetic sample, printed like zstd -b.
#pragma once

#include <string>
#include <vector>

#include "zest/zest.hpp"

namespace zest::cli {

struct bench_settings {
    int first_level = 3;
    int last_level = 3;        ///< >= first_level
    unsigned min_seconds = 3;  ///< per level and direction; 0 runs each once
    bool checksum = true;
    compression_parameters params{};  ///< beyond the level (--zstd=)
    zest::dictionary dict;            ///< -D (empty: none)
};

/// Returns the exit status (1 when a file cannot be read or a round trip fails).
int run_bench(const std::vector<std::string>& files, const bench_settings& s);

}  // namespace zest::cli
