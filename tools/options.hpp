// Command-line options of the zest tool, spelled like the reference zstd's.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "formats/format.hpp"
#include "zest/zest.hpp"

namespace zest::cli {

enum class operation { compress, decompress, test, list, bench };

struct options {
    operation op = operation::compress;
    bool to_stdout = false;              ///< -c; cleared by a later -o
    std::optional<std::string> output;   ///< -o OUT; cleared by a later -c
    bool force = false;                  ///< -f
    bool remove_input = false;           ///< --rm (-k clears it)
    int verbosity = 0;                   ///< count of -v minus count of -q
    unsigned max_window_log = default_max_window_log;
    int level = default_level;           ///< -# (1..19, up to 22 with --ultra) or --fast=N (as -N)
    bool ultra = false;                  ///< --ultra: levels 20..22 allowed
    bool checksum = true;                ///< --check/-C (default, as zstd) / --no-check: written, and verified by -d/-t
    bool content_size = true;            ///< --[no-]content-size: declare a known input size in the frame
    std::optional<bool> pass_through;    ///< --[no-]pass-through; unset: on with -dcf, as zstd
    bool exclude_compressed = false;     ///< --exclude-compressed: compression skips *.zst/*.tzst inputs
    bool show_version = false;
    bool show_help = false;
    bool recursive = false;              ///< -r: directories name the files under them
    unsigned threads = 1;                ///< -T# / --threads=#: accepted; work is single-threaded for now
    std::optional<bool> progress;        ///< --progress / --no-progress; unset: only on a terminal
    std::optional<int> bench_last_level; ///< -e#: last level of a -b range (unset: just -b's level)
    unsigned bench_seconds = 3;          ///< -i#: minimum seconds per level and direction
    std::vector<std::string> warnings;   ///< printed before work starts (like zstd's level cap notice)
    std::vector<std::string> inputs;     ///< "-" stands for standard input
    data_format format = data_format::zstd;  ///< --format=: what compression writes
    bool gzip_program = false;           ///< called as gzip: --best and --no-name are understood
};

struct parse_result {
    options opts;
    std::string error;  ///< empty on success
};

/// Parses the arguments that follow the program name, over `preset` (the
/// defaults the program's name implies).
parse_result parse_arguments(std::span<char* const> args, options preset = {});

/// Text printed by -h.
const char* usage_text() noexcept;

}  // namespace zest::cli
