// How the other formats reach the command line: --format=NAME, and the
// program names zstd answers to (a link named gzip behaves like gzip).
#include <array>

#include "../options.hpp"
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

}  // namespace zest::cli
