#include "program_name.hpp"

#include "options.hpp"

namespace zest::cli {

namespace {

void decompress_mode(options& o) { o.op = operation::decompress; }

// zcat's behaviour: decode to stdout, overwrite and follow links without
// asking (-f, but data is still not read from a terminal), copy what is not
// compressed as it is, and print errors only.
void cat_mode(options& o) {
    o.op = operation::decompress;
    o.to_stdout = true;
    o.force = true;
    o.pass_through = true;
    o.verbosity = -1;
}

void all_threads(options& o) { o.threads = 0; }

struct preset {
    std::string_view name;
    void (*apply)(options&);
};

// One row per name; gzip's, xz's and lz4's names join when their formats do.
constexpr preset presets[] = {
    {"zestcat", cat_mode},     {"zstdcat", cat_mode}, {"zcat", cat_mode},
    {"unzest", decompress_mode}, {"unzstd", decompress_mode},
    {"zestmt", all_threads},   {"zstdmt", all_threads},
};

}  // namespace

void apply_program_preset(std::string_view program, options& o) {
    const std::size_t slash = program.rfind('/');
    if (slash != std::string_view::npos) program.remove_prefix(slash + 1);
    for (const preset& p : presets) {
        if (program.starts_with(p.name) && (program.size() == p.name.size() || program[p.name.size()] == '.')) {
            p.apply(o);
            return;
        }
    }
}

}  // namespace zest::cli
