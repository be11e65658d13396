// `zest -l`: what the frames of .zst files declare, in zstd -l's table.
#pragma once

#include <string>
#include <vector>

namespace zest::cli {

/// Lists `files` on stdout (display_level >= 3: a detailed block per file,
/// with one line per frame). Returns the exit status: 1 when a file could
/// not be read or is not a sequence of Zstandard/skippable frames.
int list_files(const std::vector<std::string>& files);

/// Sizes as zstd's messages print them: the number right-aligned in 6
/// columns, then the unit right-aligned in `unit_width` ("   575 KiB",
/// "  72.3 KiB", "  2.00 MiB", "   512 B"; with unit_width 4: "   512   B").
std::string human_size(unsigned long long bytes, int unit_width = 0);

}  // namespace zest::cli
