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
    /// A case whose calls are slow (seconds each) stops after this much real
    /// time once every side has min_rounds rounds; 0 = always run `rounds`.
    double max_case_seconds = 0;
    unsigned min_rounds = 3;
    /// Not selected (--only): each side's call runs once, so that outputs the
    /// set uses later (frames) exist, and nothing is timed or reported.
    bool skip = false;
};

/// One contender. `call` performs the operation once and says whether it
/// succeeded. A side is not timed (n/a) when `unavailable` says it cannot do
/// the operation (a feature not built yet: not an error) or when `failure`
/// is already set (it failed a correctness check: an error).
struct side {
    std::string name;
    std::function<bool()> call;
    std::string failure = {};
    std::string unavailable = {};
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
    std::string unavailable;    ///< non-empty: not measured, the side cannot do this yet
    std::uint64_t batch = 0;    ///< calls between clock reads
    unsigned rounds = 0;        ///< timed rounds run
    double median_mbps = 0;     ///< of uncompressed bytes; valid when ok()
    double median_ns = 0;       ///< per call; valid when ok()
    bool ok() const { return failure.empty() && unavailable.empty(); }
};

struct measurement {
    std::vector<side_summary> sides;
    std::vector<round_sample> rounds;  ///< in the order they ran
    clock_kind clock = clock_kind::cpu;
    bool skipped = false;  ///< not selected: report::add drops it
};

/// Warms each side up, sizes its batches, then runs cfg.rounds rounds per
/// side in A B A B order (fewer, but at least cfg.min_rounds, once the case
/// has run cfg.max_case_seconds); each round repeats the call until it has
/// lasted cfg.min_round_seconds on cfg.clock. Throughput counts
/// `bytes_per_call` per call; both figures come from cfg.clock.
measurement measure(std::vector<side>& sides, std::size_t bytes_per_call, const timing_config& cfg);

/// Median of `v` (mean of the middle two for an even count); 0 when empty.
double median(std::vector<double> v);

}  // namespace zest_bench
