// Command-line options of the zest tool, spelled like the reference zstd's.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "formats/format.hpp"
#include "zest/zest.hpp"
#include "zstd_params.hpp"

namespace zest::cli {

enum class operation { compress, decompress, test, list, bench, train };

struct options {
    operation op = operation::compress;
    bool to_stdout = false;              ///< -c; cleared by a later -o
    std::optional<std::string> output;   ///< -o OUT; cleared by a later -c
    bool force = false;                  ///< -f: overwrite, follow links, read devices, write to a terminal
    bool force_stdin = false;            ///< -f: also read data from a terminal (zstdcat's -f does not)
    bool remove_input = false;           ///< --rm (-k clears it)
    int verbosity = 0;                   ///< count of -v minus count of -q (zstdcat starts at -1)
    unsigned max_window_log = default_max_window_log;
    bool memory_limit_set = false;       ///< by -M# / --memory=#: --zstd=wlog then sets no decoder limit
    int level = default_level;           ///< -# (1..19, up to 22 with --ultra) or --fast=N (as -N)
    bool ultra = false;                  ///< --ultra: levels 20..22 allowed
    bool checksum = true;                ///< --check/-C (default, as zstd) / --no-check: written, and verified by -d/-t
    bool content_size = true;            ///< --[no-]content-size: declare a known input size in the frame
    advanced_parameters zstd_params;     ///< --zstd=wlog=#,...: beyond the level (checked when compressing)
    bool long_distance = false;          ///< --long[=#]: long-distance matching when compressing
    unsigned long_window_log = 0;        ///< --long=#: its window (0: the default, 2^27)
    std::optional<bool> pass_through;    ///< --[no-]pass-through; unset: on with -f and output to stdout, as zstd
    bool exclude_compressed = false;     ///< --exclude-compressed: compression skips already compressed inputs
    std::optional<bool> sparse;          ///< --[no-]sparse; unset: decompressed files sparse, stdout not
    std::optional<std::uint64_t> stream_size;  ///< --stream-size=#: exact size of an input of unknown size
    std::optional<std::uint64_t> size_hint;    ///< --size-hint=#: parameters for that size when unknown
    std::optional<std::string> output_dir_flat;    ///< --output-dir-flat DIR
    std::optional<std::string> output_dir_mirror;  ///< --output-dir-mirror DIR (wins over -flat)
    std::vector<std::string> file_lists;  ///< --filelist FILE: more inputs, one name per line
    bool show_default_cparams = false;   ///< --show-default-cparams
    bool show_version = false;
    bool show_help = false;
    bool recursive = false;              ///< -r: directories name the files under them
    unsigned threads = 1;                ///< -T# / --threads=#: compression workers (0: one per core)
    bool single_thread = false;          ///< --single-thread: everything on the main thread
    bool logical_cores = false;          ///< --auto-threads=logical: -T0 counts hardware threads, not cores
    bool rsyncable = false;              ///< --rsyncable: job boundaries chosen by the content (with workers)
    std::uint64_t job_size = 0;          ///< -B# / --block-size=#: input bytes per worker job (0: the level's)
    std::optional<bool> progress;        ///< --progress / --no-progress; unset: only on a terminal
    std::optional<int> bench_last_level; ///< -e#: last level of a -b range (unset: just -b's level)
    unsigned bench_seconds = 3;          ///< -i#: minimum seconds per level and direction
    bool bench_decode_only = false;      ///< -d with -b (either order): time decompression of compressed files
    std::vector<std::string> warnings;   ///< printed before work starts, unless -q (like zstd's)
    std::vector<std::string> inputs;     ///< "-" stands for standard input
    data_format format = data_format::zstd;  ///< --format=: what compression writes
    bool gzip_program = false;           ///< called as gzip: --best and --no-name are understood
    std::optional<std::string> dictionary;  ///< -D FILE: compress, decompress, test and bench with it
    bool dict_id = true;                 ///< --no-dictID: frames written with a dictionary do not name it
    // --train: the inputs are the samples; -o names the dictionary ("dictionary").
    std::uint64_t max_dict = 112640;     ///< --maxdict=#: the dictionary's largest size (zstd's 110 KiB)
    std::uint32_t train_dict_id = 0;     ///< --dictID=#: 0, derived from the content
    training_parameters train{};         ///< --train-fastcover[=...], --train-cover[=...]
    std::uint64_t train_chunk = 0;       ///< -B#: --train cuts each file into samples of # bytes (0: whole files)
    std::uint64_t train_memory = 0;      ///< -M#, --memory=#: --train loads at most # bytes of samples (0: no limit)
};

struct parse_result {
    options opts;
    std::string error;  ///< empty on success
    int status = 1;     ///< the exit status for `error`: 1 (usage), or 11 for parameters out of bounds, as zstd
};

/// Parses the arguments that follow the program name. `program` (argv[0])
/// presets a mode as zstd's names do (zstdcat, unzstd, zstdmt, ...), and the
/// environment's ZSTD_CLEVEL and ZSTD_NBTHREADS give defaults that the
/// command line overrides.
parse_result parse_arguments(std::span<char* const> args, std::string_view program = "zest");

/// Text printed by -h.
const char* usage_text() noexcept;

}  // namespace zest::cli
