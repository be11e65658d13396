// The "corpus" set: whole-buffer compression and decompression at several
// levels, over a built-in mixed sample of five shapes (or the user's files).
#include <string>

#include "cases.hpp"
#include "workloads.hpp"

namespace zest_bench {
namespace {

std::string case_name(const std::string& input, int level) { return input + "-l" + std::to_string(level); }
std::string compress_name(const std::string& input, int level) { return "c-" + case_name(input, level); }

std::string rounds_text(const options& opts) {
    return "median of " + std::to_string(opts.rounds) + (opts.rounds == 1 ? " round" : " rounds");
}

class corpus_set final : public workload_set {
public:
    std::string name() const override { return "corpus"; }
    std::string description() const override {
        return "whole-buffer compression (c-*) and decompression of text, code, json, markup and binary records";
    }

    std::vector<std::string> case_names(const options& opts, const std::vector<named_input>& files) const override {
        std::vector<std::string> names;
        for (const auto& input : corpus_input_names(files))
            for (const int level : opts.levels) names.push_back(compress_name(input, level));
        for (const auto& input : corpus_input_names(files))
            for (const int level : opts.levels) names.push_back(case_name(input, level));
        return names;
    }

    void run(const bench_env& env) override {
        const auto& opts = env.opts;
        std::vector<named_input> generated;
        const auto& inputs = corpus_inputs(env, generated);
        const auto names = case_names(opts, env.files);

        // Compression first: its frames are the ones both sides then decode.
        env.out.begin_table("corpus: compression with reused contexts (ZSTD_compressCCtx), " + rounds_text(opts),
                            names);
        std::vector<std::vector<bytes>> frames;
        for (const auto& input : inputs) {
            frames.emplace_back();
            for (const int level : opts.levels)
                frames.back().push_back(
                    run_compress_case(env, name(), compress_name(input.name, level), level, input.data));
        }

        env.out.begin_table("corpus: decompression of frames written by libzstd " + std::string(ZSTD_versionString()) +
                                " with reused contexts, " + rounds_text(opts),
                            names);
        for (std::size_t i = 0; i < inputs.size(); ++i)
            for (std::size_t l = 0; l < opts.levels.size(); ++l)
                run_decompress_case(env, name(), case_name(inputs[i].name, opts.levels[l]), opts.levels[l],
                                    inputs[i].data, frames[i][l]);
    }
};

}  // namespace

std::unique_ptr<workload_set> make_corpus_set() { return std::make_unique<corpus_set>(); }

}  // namespace zest_bench
