#include "program_name.hpp"

#include "file_names.hpp"
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

// One row per name that only chooses a mode; the names that also choose a
// format (gzip, xz, lz4, ...) are formats/program_names.cpp's.
constexpr preset presets[] = {
    {"zestcat", cat_mode},     {"zstdcat", cat_mode}, {"zcat", cat_mode}, {"gzcat", cat_mode},
    {"unzest", decompress_mode}, {"unzstd", decompress_mode},
    {"zestmt", all_threads},   {"zstdmt", all_threads},
};

}  // namespace

bool program_named(std::string_view program, std::string_view name) {
    const std::string_view base = base_name(program);
    return base.starts_with(name) && (base.size() == name.size() || base[name.size()] == '.');
}

void apply_program_preset(std::string_view program, options& o) {
    for (const preset& p : presets) {
        if (program_named(program, p.name)) {
            p.apply(o);
            return;
        }
    }
}

}  // namespace zest::cli
