// Results: a summary of the speed-ups (per set and kind of row: geometric
// mean, lowest and highest row), then aligned tables with every row, both
// printed once the run is over (the summary comes first, so the tables wait);
// and optionally every round's raw timing as JSON.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

#include "timing.hpp"

namespace zest_bench {

/// How a case's speed is stated.
enum class unit {
    mbps,         ///< MB/s (10^6 bytes per second) of uncompressed data; higher is faster
    ns_per_call,  ///< nanoseconds per call; lower is faster
};

/// What one case measured, besides the timings.
struct case_info {
    std::string set;          ///< workload set, e.g. "corpus"
    std::string name;         ///< unique within the set, e.g. "text-l3"
    std::string operation;    ///< "decompress", "compress" or "context" (create and free only)
    int level = 0;            ///< compression level (of the frames decoded), 0 when not applicable
    std::size_t input_bytes = 0;       ///< uncompressed bytes per call (0 for create/free cases)
    /// Decompression: the frame both sides decode. Compression: libzstd's output.
    std::size_t compressed_bytes = 0;
    /// Compression: zest's output; 0 when zest did not compress (n/a).
    std::size_t zest_compressed_bytes = 0;
    unit speed_unit = unit::mbps;
};

struct case_result {
    case_info info;
    measurement m;
};

/// Facts about the run recorded in the JSON file.
struct run_meta {
    std::string zest_version;
    std::string libzstd_version;
    std::string zest_cpu_env;  ///< value of ZEST_CPU, empty when unset
    unsigned rounds = 0;
    double min_round_seconds = 0;
    double max_case_seconds = 0;
    clock_kind clock = clock_kind::cpu;
    int pinned_cpu = -1;
    bool full = false;  ///< --full, or the default (shorter) run
};

class report {
public:
    /// `rounds` is the number asked for: rows that ran fewer say so.
    explicit report(unsigned rounds) : rounds_(rounds) {}

    /// Starts a table whose first column fits every name in `case_names`
    /// (a table that gets no row is left out).
    void begin_table(const std::string& title, const std::vector<std::string>& case_names);
    /// Formats the case's row and keeps the result for the summary and the JSON file.
    void add(case_result r);

    /// Writes the summary: for each set and kind of row (compression,
    /// decompression with a new or a reused context, ...), how many rows,
    /// the geometric mean of zest's speed-up and its lowest and highest row.
    /// `versus` names the libzstd measured against.
    void print_summary(std::FILE* f, const std::string& versus) const;
    /// Writes every table with its rows, as added.
    void print_tables(std::FILE* f) const;

    /// Real time over CPU time, summed over every round so far: near 1 on a
    /// quiet machine, higher when other processes took the CPU from us.
    double busy_factor() const;

    /// Whether the side named `side` failed in any case (a side that is
    /// unavailable, a feature not built yet, is not a failure).
    bool any_failure(const std::string& side) const;

    /// Writes every case and round as JSON to `f`; false on an I/O error.
    bool write_json(std::FILE* f, const run_meta& meta) const;

private:
    unsigned rounds_;
    int name_width_ = 4;
    std::string pending_title_;  ///< the table begun, until its first row
    std::string tables_;         ///< the tables formatted so far
    std::vector<case_result> results_;
};

/// zest's speed-up over libzstd in a case (above 1: zest is faster, in
/// either unit), or 0 when one side has no figure.
double speedup(const case_result& r);

/// The kind of row a case is, as the summary groups them: "compress",
/// "decompress, reused context", "create + free", ...
std::string summary_group(const case_info& info);

/// "4.00 MiB", "65536 B", "12.5 KiB".
std::string human_size(std::size_t n);

}  // namespace zest_bench
