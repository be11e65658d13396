// How the other formats reach the command line: --format=NAME, and the
// program names zstd answers to (a link named gzip behaves like gzip).
#include <array>

#include "../options.hpp"
#include "../program_name.hpp"
#include "format.hpp"

namespace zest::cli {

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
    const auto program_is = [program](std::string_view name) { return program_named(program, name); };
    // As zstd: the compressors and their un- forms remove their inputs like
    // the originals (lz4 keeps them, as lz4 does); gzip's level is 6.
    if (program_is("gzip")) {
        o.format = data_format::gzip;
        o.remove_input = true;
        o.level = 6;
        o.gzip_program = true;
    } else if (program_is("gunzip")) {
        o.op = operation::decompress;
        o.remove_input = true;
    } else if (program_is("xz") || program_is("lzma")) {
        o.format = program_is("xz") ? data_format::xz : data_format::lzma;
        o.remove_input = true;
    } else if (program_is("unxz") || program_is("unlzma")) {
        o.op = operation::decompress;
        o.format = program_is("unxz") ? data_format::xz : data_format::lzma;
        o.remove_input = true;
    } else if (program_is("lz4")) {
        o.format = data_format::lz4;
    } else if (program_is("unlz4")) {
        o.op = operation::decompress;
        o.format = data_format::lz4;
    }
}

}  // namespace zest::cli
