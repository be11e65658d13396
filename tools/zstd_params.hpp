// --zstd=KEY=VALUE,...: the reference CLI's advanced compression
// parameters, read as zstd 1.5.4 reads them.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "zest/zest.hpp"

namespace zest::cli {

/// What --zstd= options set, as given (0: not set, the level decides), by
/// zest::setting: the rows of zest::settings_table with a short name are
/// zstd's --zstd= keys.
struct advanced_parameters {
    std::array<unsigned, setting_count> given{};

    unsigned operator[](setting s) const noexcept { return given[std::size_t(s)]; }

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
