#include "options.hpp"

#include <bit>
#include <cstdint>
#include <string_view>
#include <utility>

namespace zest::cli {

namespace {

// A byte count like zstd's --memory: digits, then optionally K, M or G, an
// optional 'i' and an optional 'B' (all binary multiples, as in zstd).
std::optional<std::uint64_t> parse_size(std::string_view s) {
    std::uint64_t value = 0;
    std::size_t i = 0;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
        if (value > (UINT64_MAX - 9) / 10) return std::nullopt;
        value = value * 10 + static_cast<unsigned>(s[i] - '0');
    }
    if (i == 0) return std::nullopt;
    unsigned shift = 0;
    if (i < s.size()) {
        switch (s[i]) {
            case 'K': case 'k': shift = 10; break;
            case 'M': case 'm': shift = 20; break;
            case 'G': case 'g': shift = 30; break;
            default: return std::nullopt;
        }
        ++i;
        if (i < s.size() && s[i] == 'i') ++i;
        if (i < s.size() && s[i] == 'B') ++i;
    }
    if (i != s.size() || value > (UINT64_MAX >> shift)) return std::nullopt;
    return value << shift;
}

// Plain decimal digits (at most 9 of them).
std::optional<unsigned> parse_count(std::string_view s) {
    if (s.empty() || s.size() > 9) return std::nullopt;
    unsigned value = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return std::nullopt;
        value = value * 10 + static_cast<unsigned>(c - '0');
    }
    return value;
}

// The decoder limits windows by their log2; a byte limit rounds down so that
// no accepted window exceeds it (the format's windows start at 1 KiB).
unsigned window_log_for(std::uint64_t bytes) {
    const unsigned log = static_cast<unsigned>(std::bit_width(bytes)) - 1;
    if (log < 10) return 10;
    return log > max_window_log_limit ? max_window_log_limit : log;
}

std::optional<unsigned> parse_window_log(std::string_view s) {
    unsigned value = 0;
    if (s.empty() || s.size() > 2) return std::nullopt;
    for (char c : s) {
        if (c < '0' || c > '9') return std::nullopt;
        value = value * 10 + static_cast<unsigned>(c - '0');
    }
    if (value < 10 || value > max_window_log_limit) return std::nullopt;
    return value;
}

// Returns an error message, or an empty string when `name` was handled.
std::string parse_long_option(std::string_view arg, options& o) {
    const std::size_t eq = arg.find('=');
    const std::string_view name = arg.substr(0, eq);
    const std::optional<std::string_view> value =
        eq == std::string_view::npos ? std::nullopt : std::optional(arg.substr(eq + 1));
    const auto flag = [&](auto&& apply) -> std::string {
        if (value) return "option '" + std::string(name) + "' takes no value";
        apply();
        return {};
    };
    if (name == "--decompress" || name == "--uncompress") return flag([&] { o.op = operation::decompress; });
    if (name == "--compress") return flag([&] { o.op = operation::compress; });
    if (name == "--test") return flag([&] { o.op = operation::test; });
    if (name == "--stdout") return flag([&] { o.to_stdout = true; o.output.reset(); });
    if (name == "--force") return flag([&] { o.force = true; });
    if (name == "--keep") return flag([&] { o.remove_input = false; });
    if (name == "--rm") return flag([&] { o.remove_input = true; });
    if (name == "--quiet") return flag([&] { --o.verbosity; });
    if (name == "--verbose") return flag([&] { ++o.verbosity; });
    if (name == "--version") return flag([&] { o.show_version = true; });
    if (name == "--help") return flag([&] { o.show_help = true; });
    if (name == "--no-progress") return flag([&] { o.progress = false; });
    if (name == "--progress") return flag([&] { o.progress = true; });
    if (name == "--list") return flag([&] { o.op = operation::list; });
    if (name == "--recursive") return flag([&] { o.recursive = true; });
    if (name == "--threads") {
        const auto n = value ? parse_count(*value) : std::nullopt;
        if (!n) return "--threads needs a number, like --threads=4";
        o.threads = *n;
        return {};
    }
    if (name == "--check") return flag([&] { o.checksum = true; });
    if (name == "--no-check") return flag([&] { o.checksum = false; });
    if (name == "--content-size") return flag([&] { o.content_size = true; });
    if (name == "--no-content-size") return flag([&] { o.content_size = false; });
    if (name == "--pass-through") return flag([&] { o.pass_through = true; });
    if (name == "--no-pass-through") return flag([&] { o.pass_through = false; });
    if (name == "--exclude-compressed") return flag([&] { o.exclude_compressed = true; });
    if (auto handled = parse_format_option(name, value, o)) return *handled;
    // Accepted for compatibility, without effect: zest works on one thread
    // and writes outputs plainly (zstd's sparse writing saves disk, not data).
    if (name == "--single-thread" || name == "--sparse" || name == "--no-sparse") return flag([] {});
    if (name == "--block-size") {
        if (!value || !parse_size(*value)) return "--block-size needs a size, like --block-size=1M";
        return {};  // zstd's job size for multithreaded compression: no effect on one thread
    }
    if (name == "--ultra") return flag([&] { o.ultra = true; });
    if (name == "--fast") {
        // --fast alone is --fast=1; the reference caps the acceleration.
        int n = 1;
        if (value) {
            n = 0;
            if (value->empty() || value->size() > 6) return "--fast needs a number, like --fast=3";
            for (char ch : *value) {
                if (ch < '0' || ch > '9') return "--fast needs a number, like --fast=3";
                n = n * 10 + (ch - '0');
            }
            if (n < 1 || n > -min_level) return "--fast needs a number between 1 and " + std::to_string(-min_level);
        }
        o.level = -n;
        return {};
    }
    if (name == "--memory") {
        const auto bytes = value ? parse_size(*value) : std::nullopt;
        if (!bytes || *bytes == 0) return "--memory needs a size, like --memory=256MB";
        o.max_window_log = window_log_for(*bytes);
        return {};
    }
    if (name == "--long") {
        if (!value) {
            o.max_window_log = default_max_window_log;
            return {};
        }
        const auto log = parse_window_log(*value);
        if (!log) return "--long needs a window log between 10 and 31";
        o.max_window_log = *log;
        return {};
    }
    return "unknown option '" + std::string(arg) + "'";
}

}  // namespace

parse_result parse_arguments(std::span<char* const> args, options preset) {
    parse_result r;
    r.opts = std::move(preset);
    options& o = r.opts;
    bool options_ended = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string_view arg = args[i];
        if (options_ended || arg.size() < 2 || arg[0] != '-') {
            o.inputs.emplace_back(arg);  // includes "-", standard input
            continue;
        }
        if (arg == "--") {
            options_ended = true;
            continue;
        }
        if (arg.starts_with("--")) {
            r.error = parse_long_option(arg, o);
            if (!r.error.empty()) return r;
            continue;
        }
        // A cluster of short flags, like -dcf; -o and -M take the rest of the
        // cluster or, when it is empty, the next argument.
        for (std::size_t j = 1; j < arg.size(); ++j) {
            const char c = arg[j];
            const auto take_value = [&]() -> std::optional<std::string_view> {
                std::string_view v = arg.substr(j + 1);
                j = arg.size();
                if (!v.empty()) return v;
                if (i + 1 >= args.size()) return std::nullopt;
                return std::string_view(args[++i]);
            };
            switch (c) {
                case 'd': o.op = operation::decompress; break;
                case 't': o.op = operation::test; break;
                case 'z': o.op = operation::compress; break;
                case 'c': o.to_stdout = true; o.output.reset(); break;
                case 'f': o.force = true; break;
                case 'k': o.remove_input = false; break;
                case 'l': o.op = operation::list; break;
                case 'r': o.recursive = true; break;
                case 'C': o.checksum = true; break;
                case 'n': break;  // gzip's "store no name", accepted as zstd does: zest stores none
                case 'T': case 'b': case 'e': case 'i': case 'B': {
                    // The number follows the letter in the same cluster: -T4, -b1, -e19, -i2.
                    // As in zstd, a missing number reads as 0 for -T (all cores) and -B (automatic).
                    std::size_t k = j + 1;
                    while (k < arg.size() && k - j <= 9 && arg[k] >= '0' && arg[k] <= '9') ++k;
                    const std::optional<unsigned> n =
                        k > j + 1 ? parse_count(arg.substr(j + 1, k - j - 1)) : std::nullopt;
                    if (c == 'b') {
                        o.op = operation::bench;
                        if (n) o.level = static_cast<int>(*n);
                    } else if (c == 'B') {
                        // zstd's job size for multithreaded compression: no effect on one thread.
                        if (k < arg.size() && (arg[k] == 'K' || arg[k] == 'M' || arg[k] == 'k' || arg[k] == 'm')) ++k;
                    } else if (c == 'T' && !n) {
                        o.threads = 0;
                    } else if (!n) {
                        r.error = std::string("option -") + c + " needs a number, like -" + c + "3";
                        return r;
                    } else if (c == 'T') {
                        o.threads = *n;
                    } else if (c == 'e') {
                        o.bench_last_level = static_cast<int>(*n);
                    } else {
                        o.bench_seconds = *n;
                    }
                    j = k - 1;
                    break;
                }
                case 'q': --o.verbosity; break;
                case 'v': ++o.verbosity; break;
                case 'V': o.show_version = true; break;
                case 'h': case 'H': o.show_help = true; break;
                case 'o': {
                    const auto v = take_value();
                    if (!v) {
                        r.error = "option -o needs a file name";
                        return r;
                    }
                    if (*v == "-") {
                        o.to_stdout = true;
                        o.output.reset();
                    } else {
                        o.to_stdout = false;
                        o.output = std::string(*v);
                    }
                    break;
                }
                case 'M': {
                    const auto v = take_value();
                    const auto bytes = v ? parse_size(*v) : std::nullopt;
                    if (!bytes || *bytes == 0) {
                        r.error = "-M needs a size, like -M256MB";
                        return r;
                    }
                    o.max_window_log = window_log_for(*bytes);
                    break;
                }
                default:
                    if (c >= '0' && c <= '9') {
                        int level = 0;
                        while (j < arg.size() && arg[j] >= '0' && arg[j] <= '9' && level < 1000)
                            level = level * 10 + (arg[j++] - '0');
                        --j;
                        // -0, like zstd, is the default level.
                        o.level = level == 0 ? default_level : level;
                        break;
                    }
                    r.error = std::string("unknown option '-") + c + "'";
                    return r;
            }
        }
    }
    // Like zstd, a level beyond the range is lowered with a warning, not refused.
    const int top = o.ultra ? max_level : 19;
    if (o.level > top) {
        o.warnings.push_back("Warning : compression level higher than max, reduced to " + std::to_string(top));
        o.level = top;
    }
    if (o.bench_last_level && *o.bench_last_level > top) o.bench_last_level = top;
    return r;
}

const char* usage_text() noexcept {
    return "Usage: zest [OPTIONS] [FILE...]\n"
           "Compress FILE to FILE.zst, or with -d decompress FILE.zst to FILE (FILE.tzst to FILE.tar).\n"
           "With no FILE, or when FILE is -, read standard input and write standard output.\n"
           "\n"
           "  -#                 compression level, 1 to 19 (default 3)\n"
           "      --ultra        allow levels 20 to 22\n"
           "      --fast[=N]     faster, weaker compression: negative level -N (default 1)\n"
           "      --[no-]check   add (default) or omit the content checksum when compressing;\n"
           "                     verify (default) or ignore it when decompressing (-C: --check)\n"
           "      --[no-]content-size  declare (default) or omit a known input size in the frame\n"
           "      --exclude-compressed  do not compress files that end in .zst, .gz, .xz, ... (-d's suffixes)\n"
           "      --[no-]pass-through  with -d, copy data that is not zstd as it is (default: on with -dcf)\n"
           "      --format=F     compress to F: zstd (default), gzip, xz, lzma or lz4 (.gz .xz .lzma .lz4);\n"
           "                     -d and -t recognise them all by their content, whatever the name\n"
           "  -z, --compress     compress (the default)\n"
           "  -d, --decompress   decompress\n"
           "  -t, --test         test integrity: decode and discard the output\n"
           "  -c, --stdout       write to standard output\n"
           "  -o OUT             write to OUT (several inputs are concatenated; needs -f)\n"
           "  -f, --force        overwrite existing files, read from a terminal\n"
           "  -k, --keep         keep input files (default)\n"
           "      --rm           remove each input once its output is complete\n"
           "  -M#, --memory=#    largest window to accept, in bytes (K, M, G suffixes; default 128M)\n"
           "      --long[=#]     accept windows up to 2^# bytes (default 27)\n"
           "  -l, --list         list the frames of .zst files (sizes, ratio, check; -v for each frame)\n"
           "  -r, --recursive    operate on the files under directories (with -d: only *.zst, *.tzst)\n"
           "  -T#, --threads=#   accepted for compatibility; zest works on one thread for now\n"
           "      --single-thread, -B#, --[no-]sparse  accepted for compatibility, without effect\n"
           "      --[no-]progress  show (or never show) a progress line; by default only on a terminal\n"
           "  -b#                benchmark level # on the FILEs (or a synthetic sample)\n"
           "  -e#                last level of the benchmark range (from -b#)\n"
           "  -i#                minimum seconds per level (default 3)\n"
           "  -q, --quiet        print errors only; -qq prints nothing\n"
           "  -v, --verbose      print a line per file\n"
           "  -V, --version      print the version and exit\n"
           "  -h, -H, --help     print this help and exit\n"
           "  --                 treat the remaining arguments as file names\n";
}

}  // namespace zest::cli
