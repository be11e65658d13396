// Side-by-side timing: one operation per side, rounds alternating between the
// sides so that drifts in clock speed or machine load hit both alike.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace zest_bench {

/// Which clock a round's throughput is computed from.
enum class clock_kind {
    cpu,   ///< this thread's CPU time: time spent descheduled (a busy machine) does not count
    wall,  ///< elapsed real time
};

struct timing_config {
    unsigned rounds = 9;
    double min_round_seconds = 0.020;  ///< measured on the chosen clock
    clock_kind clock = clock_kind::cpu;
};

/// One contender. `call` performs the operation once and says whether it
/// succeeded; a side whose `failure` is already set is not timed (n/a).
struct side {
    std::string name;
    std::function<bool()> call;
    std::string failure;
};

/// One timed round: `reps` calls of one side took `cpu_seconds` of this
/// thread's CPU time and `wall_seconds` of real time.
struct round_sample {
    std::size_t side;
    std::uint64_t reps;
    double cpu_seconds;
    double wall_seconds;
    double seconds(clock_kind c) const { return c == clock_kind::cpu ? cpu_seconds : wall_seconds; }
};

struct side_summary {
    std::string name;
    std::string failure;        ///< empty when the side ran to the end
    std::uint64_t batch = 0;    ///< calls between clock reads
    double median_mbps = 0;     ///< of uncompressed bytes; valid when failure is empty
    bool ok() const { return failure.empty(); }
};

struct measurement {
    std::vector<side_summary> sides;
    std::vector<round_sample> rounds;  ///< in the order they ran
    clock_kind clock = clock_kind::cpu;
};

/// Warms each side up, sizes its batches, then runs cfg.rounds rounds per
/// side in A B A B order; each round repeats the call until it has lasted
/// cfg.min_round_seconds on cfg.clock. Throughput counts `bytes_per_call`
/// per call and is computed from cfg.clock.
measurement measure(std::vector<side>& sides, std::size_t bytes_per_call, const timing_config& cfg);

/// Median of `v` (mean of the middle two for an even count); 0 when empty.
double median(std::vector<double> v);

}  // namespace zest_bench
