// Diagnostics of the zest tool, filtered by a zstd-style display level.
#pragma once

#include <string_view>

namespace zest::cli {

/// 0 prints nothing, 1 errors only, 2 (default) a summary, 3 (-v) a line per file.
extern int display_level;

/// Prints "zest: subject: reason" to stderr when errors are displayed.
void print_error(std::string_view subject, std::string_view reason);
/// Prints "zest: reason" to stderr when errors are displayed.
void print_error(std::string_view reason);
/// Prints `line` and a newline to stderr when display_level >= level.
void print_info(int level, std::string_view line);

}  // namespace zest::cli
