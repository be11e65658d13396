#include "workloads.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace zest_bench {

std::vector<std::unique_ptr<workload_set>> make_workload_sets() {
    std::vector<std::unique_ptr<workload_set>> sets;
    sets.push_back(make_context_set());
    sets.push_back(make_columnar_set());
    sets.push_back(make_corpus_set());
    sets.push_back(make_stream_set());
    sets.push_back(make_capi_set());
    sets.push_back(make_dictionary_set());
    sets.push_back(make_threads_set());
    return sets;
}

const std::vector<corpus_shape>& corpus_shapes() {
    static const std::vector<corpus_shape> shapes = {
        {"text", make_text, 1},     {"code", make_source_code, 2}, {"json", make_json_logs, 4},
        {"markup", make_markup, 5}, {"records", make_records, 3},
    };
    return shapes;
}

const std::vector<named_input>& corpus_inputs(const bench_env& env, std::vector<named_input>& generated) {
    if (!env.files.empty()) return env.files;
    generated.clear();
    for (const auto& s : corpus_shapes()) generated.push_back({s.name, s.make(env.opts.size, s.seed)});
    return generated;
}

std::vector<std::string> corpus_input_names(const std::vector<named_input>& files) {
    std::vector<std::string> names;
    if (files.empty())
        for (const auto& s : corpus_shapes()) names.emplace_back(s.name);
    for (const auto& f : files) names.push_back(f.name);
    return names;
}

std::string size_tag(std::size_t n) { return n < 1024 ? std::to_string(n) + "B" : std::to_string(n / 1024) + "K"; }

std::string load_files(const std::vector<std::string>& paths, std::vector<named_input>& out) {
    out.clear();
    for (const auto& path : paths) {
        std::FILE* f = std::fopen(path.c_str(), "rb");
        if (!f) return path + ": " + std::strerror(errno);
        named_input in;
        in.name = std::filesystem::path(path).filename().string();
        std::byte buf[1 << 16];
        std::size_t n = 0;
        while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) in.data.insert(in.data.end(), buf, buf + n);
        const bool failed = std::ferror(f);
        const int err = errno;
        std::fclose(f);
        if (failed) return path + ": " + std::strerror(err);
        if (in.data.empty()) return path + ": empty file (nothing to measure)";
        if (in.name.empty()) in.name = path;
        out.push_back(std::move(in));
    }
    for (std::size_t i = 0; i < out.size(); ++i)
        for (std::size_t j = 0; j < out.size(); ++j)
            if (i != j && std::filesystem::path(paths[i]).filename() == std::filesystem::path(paths[j]).filename())
                out[i].name = paths[i];
    return {};
}

}  // namespace zest_bench
