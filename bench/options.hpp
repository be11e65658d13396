// Command-line options of zest-bench.
#pragma once

#include <cstddef>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "progress.hpp"
#include "timing.hpp"

namespace zest_bench {

/// What a run measures unless told otherwise. The default run is a tour of
/// about two minutes: the sets that show where zest stands, on smaller
/// inputs and fewer rounds; --full runs every set at the sizes the published
/// figures use (about five minutes on a quiet 2-core machine).
struct run_profile {
    unsigned rounds;
    std::size_t size;
    double max_case_seconds;
    std::vector<std::string> sets;  ///< empty: every set
};
inline const run_profile default_run{5, 1u << 20, 2, {"context", "columnar", "corpus", "dictionary"}};
inline const run_profile full_run{9, 4u << 20, 5, {}};

struct options {
    unsigned rounds = full_run.rounds;        ///< timed rounds per side
    std::size_t size = full_run.size;         ///< bytes per generated input
    double min_round_seconds = 0.020;         ///< each round repeats the call until this long
    double max_case_seconds = full_run.max_case_seconds;  ///< slow cases stop after 3 rounds past this (0: never)
    clock_kind clock = clock_kind::cpu;       ///< clock that throughput is computed from
    std::vector<int> levels{1, 3, 19};        ///< libzstd levels that write the frames
    std::optional<int> pin_cpu;               ///< sched_setaffinity target
    std::string json_path;                    ///< raw timings go here when set
    std::vector<std::string> sets;            ///< workload sets to run; empty = all
    std::vector<std::string> files;           ///< inputs replacing the built-in data
    std::string only;                         ///< --only: the regex as given
    std::optional<std::regex> only_re;        ///< cases run when it matches "set/case"
    bool list = false;                        ///< print the cases and exit
    bool help = false;
    bool full = false;                        ///< --full: every set, full_run's sizes
    bool quiet = false;                       ///< --quiet: no progress on stderr
    // Which of the profile's settings the command line gave (those stay).
    bool rounds_given = false, size_given = false, max_case_given = false;
};

/// Whether --only selects case `name` of set `set` (all are without it).
inline bool selected(const options& o, const std::string& set, const std::string& name) {
    return !o.only_re || std::regex_search(set + "/" + name, *o.only_re);
}

/// The timing settings these options ask for, for case `name` of set `set`
/// (called as the case is measured: the progress line names it).
inline timing_config timing(const options& o, const std::string& set, const std::string& name) {
    timing_config t;
    t.rounds = o.rounds;
    t.min_round_seconds = o.min_round_seconds;
    t.clock = o.clock;
    t.max_case_seconds = o.max_case_seconds;
    t.skip = !selected(o, set, name);
    if (!t.skip) meter().begin_case(set, name);
    return t;
}

/// Parses argv. Words naming a workload set select it; other positional
/// words are files (write ./corpus for a file that shares a set's name).
/// Settings the command line does not give come from the run's profile
/// (default_run, or full_run with --full). Returns an error message on
/// failure, or nothing.
std::optional<std::string> parse_options(int argc, char** argv, const std::vector<std::string>& set_names,
                                         options& out);

/// The --help text.
std::string usage(const std::vector<std::string>& set_names);

}  // namespace zest_bench
