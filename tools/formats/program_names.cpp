// How the other formats reach the command line: --format=NAME, and the
// program names zstd answers to (a link named gzip behaves like gzip).
#include <array>

#include "../options.hpp"
#include "format.hpp"

namespace zest::cli {

namespace {

// zstd's test: the name, alone or followed by an extension (gzip.exe).
bool program_is(std::string_view base, std::string_view name) {
    return base.starts_with(name) && (base.size() == name.size() || base[name.size()] == '.');
}

}  // namespace

std::optional<std::string> parse_format_option(std::string_view name, std::optional<std::string_view> value,
                                               options& o) {
    if (name == "--format") {
        static constexpr std::array all{data_format::zstd, data_format::gzip, data_format::xz, data_format::lzma,
                                        data_format::lz4};
        for (data_format f : all) {
            if (value && *value == format_name(f)) {
                // Accepted whatever the build: compressing to a format that
                // was left out fails per file, with a message that says so.
                o.format = f;
                return std::string();
            }
        }
        return std::string("--format needs one of zstd, gzip, xz, lzma, lz4, like --format=gzip");
    }
    // gzip's own spellings, understood (as by zstd) only under gzip's name.
    if (o.gzip_program && (name == "--best" || name == "--no-name")) {
        if (value) return "option '" + std::string(name) + "' takes no value";
        if (name == "--best") o.level = 9;
        return std::string();  // --no-name: zest stores no name anyway
    }
    return std::nullopt;
}

void apply_format_program_name(std::string_view program, options& o) {
    const std::size_t slash = program.rfind('/');
    const std::string_view base = slash == std::string_view::npos ? program : program.substr(slash + 1);
    // As zstd: the compressors and their un- forms remove their inputs like
    // the originals (lz4 keeps them, as lz4 does); gzip's level is 6.
    if (program_is(base, "gzip")) {
        o.format = data_format::gzip;
        o.remove_input = true;
        o.level = 6;
        o.gzip_program = true;
    } else if (program_is(base, "gunzip")) {
        o.op = operation::decompress;
        o.remove_input = true;
    } else if (program_is(base, "gzcat")) {  // zcat is in program_name.cpp's table
        // zcat -f: to standard output, and what is not compressed passes
        // through; zstd also starts one display level lower (-V: the number).
        o.op = operation::decompress;
        o.force = true;
        o.to_stdout = true;
        o.pass_through = true;
        o.verbosity = -1;
    } else if (program_is(base, "xz") || program_is(base, "lzma")) {
        o.format = base[0] == 'x' ? data_format::xz : data_format::lzma;
        o.remove_input = true;
    } else if (program_is(base, "unxz") || program_is(base, "unlzma")) {
        o.op = operation::decompress;
        o.format = base[2] == 'x' ? data_format::xz : data_format::lzma;
        o.remove_input = true;
    } else if (program_is(base, "lz4")) {
        o.format = data_format::lz4;
    } else if (program_is(base, "unlz4")) {
        o.op = operation::decompress;
        o.format = data_format::lz4;
    }
}

}  // namespace zest::cli
