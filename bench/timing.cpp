#include "timing.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>

namespace zest_bench {
namespace {

// Both clocks, read together.
struct stamp {
    double cpu;
    double wall;
};

stamp now() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    return {static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9, wall};
}

double elapsed(const stamp& t0, const stamp& t1, clock_kind c) {
    return c == clock_kind::cpu ? t1.cpu - t0.cpu : t1.wall - t0.wall;
}

// Calls `s` `n` times; false as soon as one call fails.
bool run_batch(side& s, std::uint64_t n) {
    for (std::uint64_t i = 0; i < n; ++i)
        if (!s.call()) return false;
    return true;
}

}  // namespace

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

measurement measure(std::vector<side>& sides, std::size_t bytes_per_call, const timing_config& cfg) {
    measurement out;
    out.clock = cfg.clock;
    out.sides.resize(sides.size());
    for (std::size_t i = 0; i < sides.size(); ++i) {
        out.sides[i].name = sides[i].name;
        out.sides[i].failure = sides[i].failure;
        out.sides[i].unavailable = sides[i].unavailable;
    }
    if (cfg.skip) {
        out.skipped = true;
        for (std::size_t i = 0; i < sides.size(); ++i)
            if (out.sides[i].ok() && !sides[i].call()) out.sides[i].failure = "the call failed";
        return out;
    }
    const stamp case_start = now();

    // Warm-up doubles as calibration: run for one round's length, then size a
    // batch to ~1/8 of a round so the clocks are read a handful of times per round.
    for (std::size_t i = 0; i < sides.size(); ++i) {
        auto& sum = out.sides[i];
        if (!sum.ok()) continue;
        const stamp t0 = now();
        std::uint64_t reps = 0, step = 1;
        double spent = 0;
        while (true) {
            if (!run_batch(sides[i], step)) {
                sum.failure = "failed during warm-up";
                break;
            }
            reps += step;
            spent = elapsed(t0, now(), cfg.clock);
            if (spent >= cfg.min_round_seconds) break;
            step = std::min<std::uint64_t>(step * 2, 1u << 20);
        }
        if (!sum.ok()) continue;
        const double per_call = std::max(spent, 1e-9) / static_cast<double>(reps);
        sum.batch = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(cfg.min_round_seconds / 8 / per_call));
    }

    const unsigned min_rounds = std::min(cfg.min_rounds, cfg.rounds);
    for (unsigned r = 0; r < cfg.rounds; ++r) {
        if (r >= min_rounds && cfg.max_case_seconds > 0 && now().wall - case_start.wall >= cfg.max_case_seconds)
            break;
        for (std::size_t i = 0; i < sides.size(); ++i) {
            auto& sum = out.sides[i];
            if (!sum.ok()) continue;
            std::uint64_t reps = 0;
            const stamp t0 = now();
            stamp t1 = t0;
            do {
                if (!run_batch(sides[i], sum.batch)) {
                    sum.failure = "failed during timing";
                    break;
                }
                reps += sum.batch;
                t1 = now();
            } while (elapsed(t0, t1, cfg.clock) < cfg.min_round_seconds);
            if (sum.ok()) out.rounds.push_back({i, reps, t1.cpu - t0.cpu, t1.wall - t0.wall});
        }
    }

    for (std::size_t i = 0; i < sides.size(); ++i) {
        auto& sum = out.sides[i];
        if (!sum.ok()) continue;
        std::vector<double> mbps, ns;
        for (const auto& s : out.rounds)
            if (s.side == i) {
                const double t = s.seconds(cfg.clock), reps = static_cast<double>(s.reps);
                mbps.push_back(reps * static_cast<double>(bytes_per_call) / t / 1e6);
                ns.push_back(t * 1e9 / reps);
            }
        sum.rounds = static_cast<unsigned>(ns.size());
        sum.median_mbps = median(std::move(mbps));
        sum.median_ns = median(std::move(ns));
    }
    return out;
}

}  // namespace zest_bench
