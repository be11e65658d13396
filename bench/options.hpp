// Command-line options of zest-bench.
#pragma once

#include <cstddef>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "timing.hpp"

namespace zest_bench {

struct options {
    unsigned rounds = 9;                      ///< timed rounds per side
    std::size_t size = 4u << 20;              ///< bytes per generated input
    double min_round_seconds = 0.020;         ///< each round repeats the call until this long
    double max_case_seconds = 5;              ///< slow cases stop after 3 rounds past this (0: never)
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
};

/// Whether --only selects case `name` of set `set` (all are without it).
inline bool selected(const options& o, const std::string& set, const std::string& name) {
    return !o.only_re || std::regex_search(set + "/" + name, *o.only_re);
}

/// The timing settings these options ask for, for case `name` of set `set`.
inline timing_config timing(const options& o, const std::string& set, const std::string& name) {
    timing_config t;
    t.rounds = o.rounds;
    t.min_round_seconds = o.min_round_seconds;
    t.clock = o.clock;
    t.max_case_seconds = o.max_case_seconds;
    t.skip = !selected(o, set, name);
    return t;
}

/// Parses argv. Words naming a workload set select it; other positional
/// words are files (write ./corpus for a file that shares a set's name).
/// Returns an error message on failure, or nothing.
std::optional<std::string> parse_options(int argc, char** argv, const std::vector<std::string>& set_names,
                                         options& out);

/// The --help text.
std::string usage(const std::vector<std::string>& set_names);

}  // namespace zest_bench
