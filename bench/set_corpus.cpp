// The "corpus" set: whole-buffer decompression of frames that libzstd wrote
// at several levels, over generated data of four shapes (or the user's files).
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include <zest/zest.hpp>

#include "isolate.hpp"
#include "reference.hpp"
#include "timing.hpp"
#include "workloads.hpp"

namespace zest_bench {
namespace {

struct shape {
    const char* name;
    bytes (*make)(std::size_t size, std::uint64_t seed);
    std::uint64_t seed;
};
const shape shapes[] = {
    {"text", make_text, 1},
    {"code", make_source_code, 2},
    {"records", make_records, 3},
    {"json", make_json_logs, 4},
};

std::string case_name(const std::string& input, int level) { return input + "-l" + std::to_string(level); }

// Empty when zest decoded `frame` back to `original`; otherwise what went wrong.
std::string check_zest(zest::decompressor& d, std::span<std::byte> dst, std::span<const std::byte> frame,
                       std::span<const std::byte> original) {
    const auto r = d.decompress(dst, frame);
    if (!r) return std::string("decode error: ") + r.message();
    if (*r != original.size())
        return "MISMATCH: decoded " + std::to_string(*r) + " bytes, expected " + std::to_string(original.size());
    if (std::memcmp(dst.data(), original.data(), original.size()) != 0) {
        std::size_t at = 0;
        while (dst[at] == original[at]) ++at;
        return "MISMATCH: output differs from the original at byte " + std::to_string(at);
    }
    return {};
}

class corpus_set final : public workload_set {
public:
    std::string name() const override { return "corpus"; }
    std::string description() const override {
        return "decompression of whole frames written by libzstd (text, code, records, json)";
    }

    std::vector<std::string> case_names(const options& opts, const std::vector<named_input>& files) const override {
        std::vector<std::string> names;
        for (const auto& input : input_names(files))
            for (const int level : opts.levels) names.push_back(case_name(input, level));
        return names;
    }

    void run(const bench_env& env) override {
        const auto& opts = env.opts;
        std::vector<named_input> generated;
        if (env.files.empty())
            for (const auto& s : shapes) generated.push_back({s.name, s.make(opts.size, s.seed)});
        const auto& inputs = env.files.empty() ? generated : env.files;

        env.out.begin_table("corpus: decompression of frames written by libzstd " + std::string(ZSTD_versionString()) +
                                " (ZSTD_compress), median of " + std::to_string(opts.rounds) +
                                (opts.rounds == 1 ? " round" : " rounds"),
                            case_names(opts, env.files));

        const zstd_cctx cctx(ZSTD_createCCtx());
        const zstd_dctx dctx(ZSTD_createDCtx());
        if (!cctx || !dctx) throw std::runtime_error("libzstd: cannot create a context");
        zest::decompressor zd;  // one context reused for every call, like dctx

        for (const auto& input : inputs) {
            const std::span<const std::byte> original(input.data);
            bytes zest_out(original.size()), ref_out(original.size());
            for (const int level : opts.levels) {
                const bytes frame = zstd_compress(cctx.get(), original, level);
                case_result result;
                result.info = {name(), case_name(input.name, level), "decompress", level, original.size(), frame.size()};

                // The reference must round-trip, or the harness itself is broken.
                const std::size_t n = ZSTD_decompressDCtx(dctx.get(), ref_out.data(), ref_out.size(), frame.data(),
                                                          frame.size());
                if (ZSTD_isError(n) || n != original.size() ||
                    std::memcmp(ref_out.data(), original.data(), n) != 0)
                    throw std::runtime_error(result.info.name + ": libzstd does not round-trip its own frame");

                // zest is checked first in a child process (a crash there is a
                // reported failure, not the end of the run), then here.
                std::string failure = run_isolated([&] {
                    zest::decompressor fresh;
                    return check_zest(fresh, zest_out, frame, original);
                });
                if (failure.empty()) failure = check_zest(zd, zest_out, frame, original);
                if (!failure.empty())
                    std::fprintf(stderr, "zest-bench: %s/%s: zest: %s\n", name().c_str(), result.info.name.c_str(),
                                 failure.c_str());

                std::vector<side> sides;
                sides.push_back({"zest",
                                 [&] {
                                     const auto r = zd.decompress(zest_out, frame);
                                     return r.has_value() && *r == original.size();
                                 },
                                 failure});
                sides.push_back({"libzstd",
                                 [&] {
                                     const std::size_t k = ZSTD_decompressDCtx(dctx.get(), ref_out.data(),
                                                                               ref_out.size(), frame.data(),
                                                                               frame.size());
                                     return k == original.size();
                                 },
                                 {}});
                result.m = measure(sides, original.size(), timing(opts));
                env.out.add(std::move(result));
            }
        }
    }

private:
    static std::vector<std::string> input_names(const std::vector<named_input>& files) {
        std::vector<std::string> names;
        if (files.empty())
            for (const auto& s : shapes) names.emplace_back(s.name);
        for (const auto& f : files) names.push_back(f.name);
        return names;
    }
};

}  // namespace

std::unique_ptr<workload_set> make_corpus_set() { return std::make_unique<corpus_set>(); }

}  // namespace zest_bench
