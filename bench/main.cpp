// zest-bench: zest against the system libzstd, side by side in one process.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>

#include <sched.h>

#include <zest/zest.hpp>
#include <zstd.h>

#include "options.hpp"
#include "workloads.hpp"

using namespace zest_bench;

namespace {

int fail(const std::string& message) {
    std::fprintf(stderr, "zest-bench: %s\n", message.c_str());
    return 1;
}

}  // namespace

int main(int argc, char** argv) try {
    auto sets = make_workload_sets();
    std::vector<std::string> set_names;
    for (const auto& s : sets) set_names.push_back(s->name());

    options opts;
    if (const auto error = parse_options(argc, argv, set_names, opts)) {
        std::fprintf(stderr, "zest-bench: %s\n\n%s", error->c_str(), usage(set_names).c_str());
        return 1;
    }
    if (opts.help) {
        std::fputs(usage(set_names).c_str(), stdout);
        return 0;
    }

    // Files stand in for the corpus set's data; alone they select that set.
    if (!opts.files.empty() && opts.sets.empty()) opts.sets.push_back("corpus");
    std::vector<workload_set*> selected;
    for (const auto& s : sets) {
        bool wanted = opts.sets.empty();
        for (const auto& n : opts.sets) wanted = wanted || n == s->name();
        if (wanted) selected.push_back(s.get());
    }

    std::vector<named_input> files;
    if (const auto error = load_files(opts.files, files); !error.empty()) return fail(error);

    if (opts.list) {
        for (const auto* s : selected) {
            std::printf("%s: %s\n", s->name().c_str(), s->description().c_str());
            for (const auto& c : s->case_names(opts, files))
                if (zest_bench::selected(opts, s->name(), c)) std::printf("  %s\n", c.c_str());
        }
        return 0;
    }

    if (opts.pin_cpu) {
        cpu_set_t mask;
        CPU_ZERO(&mask);
        if (*opts.pin_cpu >= CPU_SETSIZE) return fail("--pin: no CPU " + std::to_string(*opts.pin_cpu));
        CPU_SET(*opts.pin_cpu, &mask);
        if (sched_setaffinity(0, sizeof mask, &mask) != 0)
            return fail("--pin " + std::to_string(*opts.pin_cpu) + ": " + std::strerror(errno));
    }

    // Opened before measuring so that a bad path fails in a second, not after minutes.
    std::FILE* json = nullptr;
    if (!opts.json_path.empty()) {
        json = std::fopen(opts.json_path.c_str(), "w");
        if (!json) return fail(opts.json_path + ": " + std::strerror(errno));
    }

    const char* zest_cpu = std::getenv("ZEST_CPU");
    std::printf("zest-bench: zest %s vs libzstd %s; %u round%s of >= %g ms (%s time) per side%s%s%s\n",
                zest::version_string(), ZSTD_versionString(), opts.rounds, opts.rounds == 1 ? "" : "s",
                opts.min_round_seconds * 1000,
                opts.clock == clock_kind::cpu ? "CPU" : "real",
                opts.pin_cpu ? (", pinned to CPU " + std::to_string(*opts.pin_cpu)).c_str() : "",
                zest_cpu ? "; ZEST_CPU=" : "", zest_cpu ? zest_cpu : "");

    report out(stdout, opts.rounds);
    for (auto* s : selected) s->run({opts, files, out});

    if (json) {
        run_meta meta{zest::version_string(), ZSTD_versionString(), zest_cpu ? zest_cpu : "", opts.rounds,
                      opts.min_round_seconds, opts.max_case_seconds, opts.clock, opts.pin_cpu.value_or(-1)};
        const bool ok = out.write_json(json, meta);
        if (std::fclose(json) != 0 || !ok) return fail(opts.json_path + ": write failed");
    }
    if (const double busy = out.busy_factor(); busy > 1.10)
        std::printf("\nnote: rounds took %.0f%% more real time than CPU time: the machine was busy,\n"
                    "      so expect noise%s.\n",
                    (busy - 1) * 100, opts.clock == clock_kind::cpu ? " (figures count CPU time only)" : "");
    if (out.any_failure("zest")) {
        std::fprintf(stderr, "zest-bench: zest failed on some cases (n/a above)\n");
        return 2;
    }
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "zest-bench: %s\n", e.what());
    return 1;
}
