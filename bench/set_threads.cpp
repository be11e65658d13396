// The "threads" set: whole-buffer compression with workers, zest's
// compressor with set_workers(n) against libzstd's ZSTD_compress2 with
// ZSTD_c_nbWorkers = n, for n = 1, 2 and the number of cores, on the corpus
// shapes cut and joined into one input (16 x --size at levels 1, 3 and 9,
// 4 x --size at level 19, whose jobs are larger). Timed by the wall clock
// whatever --clock says (the work is on other threads), and not pinned to a
// CPU. Each case also prints both sides' peak memory: the growth of a
// forked child's resident set while it compresses once.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>

#include "cases.hpp"
#include "timing.hpp"
#include "workloads.hpp"

namespace zest_bench {
namespace {

constexpr int levels[] = {1, 3, 9, 19};

std::vector<unsigned> worker_counts() {
    std::vector<unsigned> w{1, 2};
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    if (cores > 2) w.push_back(cores);
    return w;
}

std::string case_name(int level, unsigned workers) {
    return "mix-l" + std::to_string(level) + "-T" + std::to_string(workers);
}

// The shapes, a slice of each in turn (each slice from its own seed: no
// slice repeats another), until `size` bytes.
bytes joined_shapes(std::size_t size) {
    bytes out;
    out.reserve(size);
    const std::size_t slice = std::max<std::size_t>(size / 16, 1);
    const auto& shapes = corpus_shapes();
    for (std::size_t k = 0; out.size() < size; ++k) {
        const corpus_shape& s = shapes[k % shapes.size()];
        const bytes p = s.make(std::min(slice, size - out.size()), s.seed + 1000 * (k + 1));
        out.insert(out.end(), p.begin(), p.end());
    }
    return out;
}

// A line of /proc/self/status ("VmRSS", "VmHWM") in bytes; 0 when absent.
std::size_t status_bytes(const std::string& key) {
    std::ifstream f("/proc/self/status");
    std::string line;
    while (std::getline(f, line))
        if (line.compare(0, key.size() + 1, key + ":") == 0) return std::stoull(line.substr(key.size() + 1)) * 1024;
    return 0;
}

// The peak growth of a child's resident set while `work` runs once; 0 when
// it cannot be measured. The child resets its high-water mark first
// (clear_refs 5), which a fork otherwise inherits from this process.
std::size_t peak_growth(const std::function<bool()>& work) {
    int fds[2];
    if (pipe(fds) != 0) return 0;
    const pid_t pid = fork();
    if (pid < 0) return 0;
    if (pid == 0) {
        close(fds[0]);
        std::size_t grew = 0;
        if (std::ofstream("/proc/self/clear_refs") << "5" << std::flush) {
            const std::size_t before = status_bytes("VmRSS");
            const bool ok = work();
            const std::size_t peak = status_bytes("VmHWM");
            grew = ok && peak > before ? peak - before : 0;
        }
        if (write(fds[1], &grew, sizeof grew) != sizeof grew) _exit(1);
        _exit(0);
    }
    close(fds[1]);
    std::size_t grew = 0;
    if (read(fds[0], &grew, sizeof grew) != sizeof grew) grew = 0;
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    return grew;
}

class threads_set final : public workload_set {
public:
    std::string name() const override { return "threads"; }
    std::string description() const override {
        return "compression with 1, 2 and all cores' workers against libzstd's nbWorkers (wall clock)";
    }
    std::vector<std::string> case_names(const options&, const std::vector<named_input>&) const override {
        std::vector<std::string> out;
        for (int level : levels)
            for (unsigned w : worker_counts()) out.push_back(case_name(level, w));
        return out;
    }

    void run(const bench_env& env) override {
        bytes big, medium;
        for (int level : levels) {
            for (unsigned w : worker_counts()) {
                const std::string name = case_name(level, w);
                if (!selected(env.opts, "threads", name)) continue;
                bytes& input = level >= 19 ? medium : big;
                if (input.empty()) input = joined_shapes((level >= 19 ? 4 : 16) * env.opts.size);
                run_case(env, name, level, w, input);
            }
        }
    }

private:
    static void run_case(const bench_env& env, const std::string& name, int level, unsigned workers,
                         const bytes& original) {
        zest::compressor zc;
        (void)zc.set_level(level);
        (void)zc.set_workers(workers);
        const zstd_cctx cctx(ZSTD_createCCtx());
        if (!cctx || ZSTD_isError(ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_compressionLevel, level)) ||
            ZSTD_isError(ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_nbWorkers, int(workers))))
            throw std::runtime_error("libzstd: no context with " + std::to_string(workers) + " workers");
        bytes zest_out(zest::compress_bound(original.size())), ref_out(ZSTD_compressBound(original.size()));
        std::size_t zest_size = 0, ref_size = 0;
        std::string failure = check_zest_encode(zc, zest_out, zest_size, original);
        if (!failure.empty()) meter().message("zest-bench: threads/" + name + ": zest: " + failure);

        const auto zest_call = [&] {
            const auto r = zc.compress(zest_out, original);
            return r.has_value() && *r == zest_size;
        };
        const auto ref_call = [&] {
            ref_size = ZSTD_compress2(cctx.get(), ref_out.data(), ref_out.size(), original.data(), original.size());
            return !ZSTD_isError(ref_size);
        };
        std::vector<side> sides;
        sides.push_back({"zest", zest_call, failure});
        sides.push_back({"libzstd", ref_call});
        timing_config t = timing(env.opts, "threads", name);
        t.clock = clock_kind::wall;
        case_result result;
        result.m = measure(sides, original.size(), t);
        if (!result.m.sides[1].ok()) throw std::runtime_error("threads/" + name + ": libzstd failed");
        result.info = {"threads", name, "compress", level, original.size(), ref_size,
                       failure.empty() ? zest_size : 0, unit::mbps};
        env.out.add(std::move(result));

        // Fresh contexts in the children: what one frame costs from nothing.
        const std::size_t zest_peak = peak_growth([&] {
            zest::compressor c;
            (void)c.set_level(level);
            (void)c.set_workers(workers);
            return c.compress(zest_out, original).has_value();
        });
        const std::size_t ref_peak = peak_growth([&] {
            ZSTD_CCtx* c = ZSTD_createCCtx();
            ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level);
            ZSTD_CCtx_setParameter(c, ZSTD_c_nbWorkers, int(workers));
            const bool ok = !ZSTD_isError(ZSTD_compress2(c, ref_out.data(), ref_out.size(), original.data(),
                                                         original.size()));
            ZSTD_freeCCtx(c);
            return ok;
        });
        char line[200];
        std::snprintf(line, sizeof line, "threads/%s: peak memory zest %.1f MiB, libzstd %.1f MiB (%.2fx)",
                      name.c_str(), double(zest_peak) / 1048576, double(ref_peak) / 1048576,
                      ref_peak ? double(zest_peak) / double(ref_peak) : 0.0);
        meter().message(line);
    }
};

}  // namespace

std::unique_ptr<workload_set> make_threads_set() { return std::make_unique<threads_set>(); }

}  // namespace zest_bench
