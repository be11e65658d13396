// `zest -b#`: in-memory compression and decompression speed per level, on
// the given files or on a synthetic sample, printed like zstd -b; with -d
// (zstd -b -d), the decompression speed of files compressed already.
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
    bool decode_only = false;         ///< -d: the files are compressed; time their decompression only
    unsigned max_window_log = default_max_window_log;  ///< the decoder's limit (-M, --long=#)
};

/// Returns the exit status (1 when a file cannot be read, a round trip
/// fails, or with decode_only, a file is not Zstandard frames of declared sizes).
int run_bench(const std::vector<std::string>& files, const bench_settings& s);

}  // namespace zest::cli
