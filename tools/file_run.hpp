// The inputs of a run, and compression, decompression or testing of each of
// them into its output (a file named after it, -o, stdout, or nothing).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "codec.hpp"
#include "options.hpp"

namespace zest::cli {

struct input_list {
    std::vector<std::string> names;  ///< "-" is standard input
    bool failed = false;             ///< something went wrong (reported): exit status 1
    bool abort = false;              ///< nothing must be done (a --filelist could not be read)
    std::size_t dropped = 0;         ///< symbolic links left out (without -f)
};

/// The command line's inputs (symbolic links dropped with a warning unless
/// -f, as zstd), then those of the --filelist files; with -r, directories
/// are replaced by the files under them: every file when compressing
/// (unless --exclude-compressed), the compressed ones otherwise.
input_list collect_inputs(const options& o);

/// Whether the output is standard output: -c, or standard input alone
/// without -o (zstd's rule, which also lowers the display level).
bool writes_to_stdout(const options& o, const std::vector<std::string>& inputs);

/// Processes `inputs` (not empty) with `c`; returns the exit status.
int process_files(const options& o, codec& c, const std::vector<std::string>& inputs);

}  // namespace zest::cli
