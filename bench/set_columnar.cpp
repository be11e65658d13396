// The "columnar" set: decompression of fixed-width integer columns, the
// blocks a columnar database reads back. Matches in such data repeat every
// 1, 2, 4 or 8 bytes, which stresses short-offset match copies.
#include <string>

#include "cases.hpp"
#include "workloads.hpp"

namespace zest_bench {
namespace {

struct column {
    const char* name;
    bytes (*make)(std::size_t size, std::uint64_t seed);
    std::uint64_t seed;
};
const column columns[] = {
    {"int64-runs", make_int64_runs, 11},   {"int64-deltas", make_int64_deltas, 12},
    {"int32-zipf", make_int32_zipf, 13},   {"int16-sparse", make_int16_sparse, 14},
    {"int8-lowcard", make_int8_lowcard, 15},
};
// The levels a database's column writer typically uses.
constexpr int levels[] = {1, 3};

std::string case_name(const char* column, int level) { return std::string(column) + "-l" + std::to_string(level); }

class columnar_set final : public workload_set {
public:
    std::string name() const override { return "columnar"; }
    std::string description() const override {
        return "decompression of int64/int32/int16/int8 columns (twice --size each) written by libzstd at levels 1 and 3";
    }

    std::vector<std::string> case_names(const options&, const std::vector<named_input>&) const override {
        std::vector<std::string> names;
        for (const auto& c : columns)
            for (const int level : levels) names.push_back(case_name(c.name, level));
        return names;
    }

    void run(const bench_env& env) override {
        const auto& opts = env.opts;
        env.out.begin_table("columnar: decompression of integer columns written by libzstd " +
                                std::string(ZSTD_versionString()) + " (reused contexts), median of " +
                                std::to_string(opts.rounds) + (opts.rounds == 1 ? " round" : " rounds"),
                            case_names(opts, env.files));
        const zstd_cctx cctx(ZSTD_createCCtx());
        if (!cctx) throw std::runtime_error("libzstd: cannot create a context");
        for (const auto& c : columns) {
            const bytes data = c.make(2 * opts.size, c.seed);
            for (const int level : levels) {
                const bytes frame = zstd_compress(cctx.get(), data, level);
                run_decompress_case(env, name(), case_name(c.name, level), level, data, frame);
            }
        }
    }
};

}  // namespace

std::unique_ptr<workload_set> make_columnar_set() { return std::make_unique<columnar_set>(); }

}  // namespace zest_bench
