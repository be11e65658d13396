// --zstd=KEY=VALUE,...: the reference CLI's advanced compression
// parameters, read as zstd 1.5.4 reads them.
#pragma once

#include <string>
#include <string_view>

#include "zest/zest.hpp"

namespace zest::cli {

/// What --zstd= options set, as given; 0: not set (the level decides).
struct advanced_parameters {
    unsigned window_log = 0;
    unsigned chain_log = 0;
    unsigned hash_log = 0;
    unsigned search_log = 0;
    unsigned min_match = 0;
    unsigned target_length = 0;
    unsigned strategy = 0;
    // Long-distance matching's (used when it is on: --long, or level 22 on
    // large inputs); the overlap is taken and checked as zstd takes it,
    // without effect in zest, which compresses on one thread.
    unsigned ldm_hash_log = 0;
    unsigned ldm_min_match = 0;
    unsigned ldm_bucket_size_log = 0;
    unsigned ldm_hash_rate_log = 0;
    unsigned overlap_log = 0;

    /// The library's form (once check_bounds passed), long-distance
    /// matching enabled (with a window of 2^long_window_log unless wlog is
    /// set, 0: the default) when `long_distance`.
    compression_parameters match(bool long_distance = false, unsigned long_window_log = 0) const noexcept;
};

/// Reads the text after "--zstd=" into `p`: comma-separated KEY=VALUE
/// pairs with zstd's long or short keys (windowLog or wlog, ...), values of
/// decimal digits (none is 0) with an optional K or M, then i, then B.
/// Later values replace earlier ones, across options too. Returns an error
/// message, empty on success.
std::string parse_zstd_parameters(std::string_view text, advanced_parameters& p);

/// The first value set outside the reference's bounds (which zstd refuses
/// when it compresses), as "--zstd: hashLog=31 is out of bounds (6..30)";
/// empty when there is none.
std::string check_bounds(const advanced_parameters& p);

}  // namespace zest::cli
