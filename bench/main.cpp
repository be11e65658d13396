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
#include "progress.hpp"
#include "workloads.hpp"

using namespace zest_bench;

namespace {

int fail(const std::string& message) {
    std::fprintf(stderr, "zest-bench: %s\n", message.c_str());
    return 1;
}

// The cases of `s` that these options select.
std::vector<std::string> selected_cases(const options& opts, const workload_set& s,
                                        const std::vector<named_input>& files) {
    std::vector<std::string> out;
    for (const auto& c : s.case_names(opts, files))
        if (zest_bench::selected(opts, s.name(), c)) out.push_back(c);
    return out;
}

// Which sets run: those named; else the corpus set for files; else, with
// --only, every set it finds a case in (so that --only stream/ works without
// --full); else the run's profile's.
std::vector<workload_set*> select_sets(const options& opts, const std::vector<std::unique_ptr<workload_set>>& sets,
                                       const std::vector<named_input>& files) {
    std::vector<std::string> wanted = opts.sets;
    if (wanted.empty() && !opts.files.empty()) wanted.push_back("corpus");
    if (wanted.empty() && !opts.only_re) wanted = opts.full ? full_run.sets : default_run.sets;
    std::vector<workload_set*> out;
    for (const auto& s : sets) {
        bool in = wanted.empty();
        for (const auto& n : wanted) in = in || n == s->name();
        // A set with no case selected would only print an empty table.
        if (in && !selected_cases(opts, *s, files).empty()) out.push_back(s.get());
    }
    return out;
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

    std::vector<named_input> files;
    if (const auto error = load_files(opts.files, files); !error.empty()) return fail(error);
    const std::vector<workload_set*> selected = select_sets(opts, sets, files);

    std::size_t n_cases = 0;
    for (const auto* s : selected) n_cases += selected_cases(opts, *s, files).size();
    if (opts.list) {
        for (const auto* s : selected) {
            std::printf("%s: %s\n", s->name().c_str(), s->description().c_str());
            for (const auto& c : selected_cases(opts, *s, files)) std::printf("  %s\n", c.c_str());
        }
        return 0;
    }
    if (selected.empty()) return fail("--only " + opts.only + ": no case matches (--list names them)");

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
    std::string sets_run, sets_left;
    for (const auto* s : selected) sets_run += (sets_run.empty() ? "" : ", ") + s->name();
    for (const auto& s : sets) {
        bool ran = false;
        for (const auto* r : selected) ran = ran || r == s.get();
        if (!ran) sets_left += (sets_left.empty() ? "" : ", ") + s->name();
    }
    std::printf("zest-bench: zest %s vs libzstd %s; %u round%s of >= %g ms (%s time) per side%s%s%s\n",
                zest::version_string(), ZSTD_versionString(), opts.rounds, opts.rounds == 1 ? "" : "s",
                opts.min_round_seconds * 1000,
                opts.clock == clock_kind::cpu ? "CPU" : "real",
                opts.pin_cpu ? (", pinned to CPU " + std::to_string(*opts.pin_cpu)).c_str() : "",
                zest_cpu ? "; ZEST_CPU=" : "", zest_cpu ? zest_cpu : "");
    std::printf("%s run: %s; generated inputs of %s\n", opts.full ? "full" : "default", sets_run.c_str(),
                human_size(opts.size).c_str());
    std::fflush(stdout);

    meter().start(stderr, !opts.quiet, n_cases);
    report out(opts.rounds);
    std::string aborted;
    try {
        for (auto* s : selected) s->run({opts, files, out});
    } catch (const std::exception& e) {
        // The rows measured so far are still worth printing.
        aborted = e.what();
    }
    meter().finish();

    out.print_summary(stdout, ZSTD_versionString());
    if (!sets_left.empty() && opts.sets.empty() && opts.files.empty())
        std::printf("  not run: %s (%s)\n", sets_left.c_str(),
                    opts.only_re ? "--only selects none of their cases" : "--full, or name them");
    if (const double busy = out.busy_factor(); busy > 1.10)
        std::printf("\nnote: rounds took %.0f%% more real time than CPU time: the machine was busy,\n"
                    "      so expect noise%s.\n",
                    (busy - 1) * 100, opts.clock == clock_kind::cpu ? " (figures count CPU time only)" : "");
    out.print_tables(stdout);
    std::fflush(stdout);
    if (!aborted.empty()) return fail(aborted);

    if (json) {
        run_meta meta{zest::version_string(), ZSTD_versionString(), zest_cpu ? zest_cpu : "", opts.rounds,
                      opts.min_round_seconds, opts.max_case_seconds, opts.clock, opts.pin_cpu.value_or(-1),
                      opts.full};
        const bool ok = out.write_json(json, meta);
        if (std::fclose(json) != 0 || !ok) return fail(opts.json_path + ": write failed");
    }
    if (out.any_failure("zest")) {
        std::fprintf(stderr, "zest-bench: zest failed on some cases (n/a in the tables)\n");
        return 2;
    }
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "zest-bench: %s\n", e.what());
    return 1;
}
