#include "options.hpp"

#include <bit>
#include <climits>
#include <cstdlib>

#include "messages.hpp"
#include "numbers.hpp"
#include "program_name.hpp"

namespace zest::cli {

namespace {

// The decoder limits windows by their log2; a byte limit rounds down so that
// no accepted window exceeds it (the format's windows start at 1 KiB).
unsigned window_log_for(std::uint64_t bytes) {
    const unsigned log = static_cast<unsigned>(std::bit_width(bytes)) - 1;
    if (log < 10) return 10;
    return log > max_window_log_limit ? max_window_log_limit : log;
}

std::optional<unsigned> parse_window_log(std::string_view s) {
    const digits d = read_digits(s, 99);
    if (d.length == 0 || d.length != s.size() || d.value < 10 || d.value > max_window_log_limit) return std::nullopt;
    return static_cast<unsigned>(d.value);
}

// A number of zstd's 32-bit options (levels, counts) held in an int: values
// past INT_MAX, which zstd wraps around to negative levels, stay large.
int as_level(std::uint64_t n) { return n > static_cast<std::uint64_t>(INT_MAX) ? INT_MAX : static_cast<int>(n); }

// Where a long option's value comes from: after '=' in the same argument,
// or (for the options zstd lets do so) the next argument.
struct long_option {
    std::string_view name;
    std::optional<std::string_view> value;
};

// --train-fastcover=k=#,d=#,f=#,steps=#,split=#,accel=#,shrink[=#] and
// --train-cover=k=#,d=#,steps=#,split=#,shrink[=#] (split in percent, as
// zstd takes it). shrink is accepted with no effect: zstd's optimizing
// trainers reset it (shrinkDict = 0 in cover.c and fastcover.c) and the
// others never select a size, so its dictionaries are the same with it.
std::string parse_training(std::string_view v, training_parameters& t, bool cover) {
    while (!v.empty()) {
        const std::size_t comma = v.find(',');
        const std::string_view item = v.substr(0, comma);
        v = comma == std::string_view::npos ? std::string_view() : v.substr(comma + 1);
        if (item == "shrink") continue;
        const std::size_t eq = item.find('=');
        if (eq == std::string_view::npos) return "--train-" + std::string(cover ? "cover" : "fastcover") + ": '" + std::string(item) + "': expected NAME=VALUE";
        const std::string_view key = item.substr(0, eq);
        const number n = parse_number(item.substr(eq + 1), u32_max);
        if (!n.error.empty()) return "--train: " + std::string(item) + ": " + n.error;
        const auto value = static_cast<unsigned>(n.value);
        if (key == "k") t.k = value;
        else if (key == "d") t.d = value;
        else if (key == "steps") t.steps = value;
        else if (key == "split") t.split_percent = value;
        else if (key == "f" && !cover) t.f = value;
        else if (key == "accel" && !cover) t.accel = value;
        else if (key == "shrink") continue;  // the regression allowed, in percent: see above
        else return "--train: unknown parameter '" + std::string(key) + "'";
    }
    return {};
}

class parser {
public:
    parser(std::span<char* const> args, options& o) : args_(args), o_(o) {}

    // Returns an error message, or an empty string.
    std::string run() {
        bool options_ended = false;
        for (i_ = 0; i_ < args_.size(); ++i_) {
            const std::string_view arg = args_[i_];
            if (options_ended || arg.size() < 2 || arg[0] != '-') {
                o_.inputs.emplace_back(arg);  // includes "-", standard input
                continue;
            }
            if (arg == "--") {
                options_ended = true;
                continue;
            }
            std::string error = arg.starts_with("--") ? long_flag(arg) : short_flags(arg);
            if (!error.empty()) return error;
        }
        return {};
    }

private:
    // The value of an option that needs one: "--name=V", or "--name V" when
    // V is not another option (zstd's rule).
    std::optional<std::string_view> required_value(const long_option& opt, std::string& error) {
        if (opt.value) return opt.value;
        if (i_ + 1 >= args_.size()) {
            error = std::string(opt.name) + ": needs a value (" + std::string(opt.name) + "=VALUE)";
            return std::nullopt;
        }
        const std::string_view next = args_[i_ + 1];
        if (next.starts_with("-")) {
            error = std::string(opt.name) + ": needs a value, not another option ('" + std::string(next) + "')";
            return std::nullopt;
        }
        ++i_;
        return next;
    }

    // Numeric values of long options: "NAME=VALUE: reason" on error.
    std::optional<std::uint64_t> number_value(const long_option& opt, std::uint64_t max, std::string& error) {
        const auto v = required_value(opt, error);
        if (!v) return std::nullopt;
        const number n = parse_number(*v, max);
        if (!n.error.empty()) {
            error = std::string(opt.name) + "=" + std::string(*v) + ": " + n.error;
            return std::nullopt;
        }
        return n.value;
    }

    std::string long_flag(std::string_view arg) {
        const std::size_t eq = arg.find('=');
        const long_option opt{arg.substr(0, eq),
                              eq == std::string_view::npos ? std::nullopt : std::optional(arg.substr(eq + 1))};
        const std::string_view name = opt.name;
        std::string error;
        const auto flag = [&](auto&& apply) -> std::string {
            if (opt.value) return std::string(name) + ": takes no value";
            apply();
            return {};
        };
        if (name == "--decompress" || name == "--uncompress") return flag([&] { o_.op = operation::decompress; });
        if (name == "--compress") return flag([&] { o_.op = operation::compress; });
        if (name == "--test") return flag([&] { o_.op = operation::test; });
        if (name == "--list") return flag([&] { o_.op = operation::list; });
        if (name == "--stdout") return flag([&] { o_.to_stdout = true; o_.output.reset(); });
        if (name == "--force") return flag([&] { o_.force = o_.force_stdin = true; });
        if (name == "--keep") return flag([&] { o_.remove_input = false; });
        if (name == "--rm") return flag([&] { o_.remove_input = true; });
        if (name == "--quiet") return flag([&] { --o_.verbosity; });
        if (name == "--verbose") return flag([&] { ++o_.verbosity; });
        if (name == "--version") return flag([&] { o_.show_version = true; });
        if (name == "--help") return flag([&] { o_.show_help = true; });
        if (name == "--no-progress") return flag([&] { o_.progress = false; });
        if (name == "--progress") return flag([&] { o_.progress = true; });
        if (name == "--recursive") return flag([&] { o_.recursive = true; });
        if (name == "--check") return flag([&] { o_.checksum = true; });
        if (name == "--no-check") return flag([&] { o_.checksum = false; });
        if (name == "--content-size") return flag([&] { o_.content_size = true; });
        if (name == "--no-content-size") return flag([&] { o_.content_size = false; });
        if (name == "--pass-through") return flag([&] { o_.pass_through = true; });
        if (name == "--no-pass-through") return flag([&] { o_.pass_through = false; });
        if (name == "--exclude-compressed") return flag([&] { o_.exclude_compressed = true; });
        if (name == "--rsyncable") return flag([&] { o_.rsyncable = true; });
        if (auto handled = parse_format_option(name, opt.value, o_)) return *handled;
        if (name == "--sparse") return flag([&] { o_.sparse = true; });
        if (name == "--no-sparse") return flag([&] { o_.sparse = false; });
        if (name == "--ultra") return flag([&] { o_.ultra = true; });
        if (name == "--show-default-cparams") return flag([&] { o_.show_default_cparams = true; });
        if (name == "--single-thread") return flag([&] { o_.single_thread = true; o_.threads = 1; });
        if (name == "--no-dictID") return flag([&] { o_.dict_id = false; });
        if (name == "--train") return flag([&] { o_.op = operation::train; });
        if (name == "--train-fastcover" || name == "--train-cover") {
            o_.op = operation::train;
            o_.train = {};
            o_.train.cover = name == "--train-cover";
            if (o_.train.cover) o_.train.split_percent = 100;  // zstd's default for COVER (fastCover's: 75)
            return opt.value ? parse_training(*opt.value, o_.train, o_.train.cover) : std::string();
        }
        if (name == "--maxdict") {
            const auto n = number_value(opt, u32_max, error);
            if (n) o_.max_dict = *n;
            return error;
        }
        if (name == "--dictID") {
            const auto n = number_value(opt, u32_max, error);
            if (n) o_.train_dict_id = static_cast<std::uint32_t>(*n);
            return error;
        }
        // Accepted without effect: zest's literals are always entropy coded
        // when that is smaller (zstd's default), its finders are not
        // row-based, and its I/O is synchronous.
        if (name == "--compress-literals" || name == "--no-compress-literals" || name == "--row-match-finder" ||
            name == "--no-row-match-finder" || name == "--asyncio" || name == "--no-asyncio")
            return flag([] {});
        if (name == "--threads") {
            const auto n = number_value(opt, u32_max, error);
            if (n) o_.threads = static_cast<unsigned>(*n), o_.single_thread = false;
            return error;
        }
        if (name == "--auto-threads") {
            // Which cores -T0 counts (physical unless told, as zstd).
            const auto v = required_value(opt, error);
            if (v && *v != "physical" && *v != "logical")
                error = "--auto-threads=" + std::string(*v) + ": expected physical or logical";
            else if (v)
                o_.logical_cores = *v == "logical";
            return error;
        }
        if (name == "--block-size") {
            // The job size of compression with workers.
            if (const auto n = number_value(opt, UINT64_MAX, error)) o_.job_size = *n;
            return error;
        }
        if (name == "--memory" || name == "--memlimit" || name == "--memlimit-decompress") {
            const auto n = number_value(opt, UINT64_MAX, error);
            if (n && *n == 0) error = std::string(name) + "=0: the limit must be at least 1 KiB";
            if (n && *n) o_.max_window_log = window_log_for(*n), o_.memory_limit_set = true, o_.train_memory = *n;
            return error;
        }
        if (name == "--zstd") {
            if (!opt.value) return "--zstd: needs parameters, like --zstd=wlog=23,strat=5";
            return parse_zstd_parameters(*opt.value, o_.zstd_params);
        }
        if (name == "--stream-size" || name == "--size-hint") {
            // 0, as in zstd, means none.
            const auto n = number_value(opt, UINT64_MAX, error);
            if (n) (name == "--stream-size" ? o_.stream_size : o_.size_hint) = *n ? std::optional(*n) : std::nullopt;
            return error;
        }
        if (name == "--output-dir-flat" || name == "--output-dir-mirror" || name == "--filelist") {
            const auto v = required_value(opt, error);
            if (!v) return error;
            if (v->empty()) return std::string(name) + ": the name is empty (did you mean '.'?)";
            if (name == "--filelist")
                o_.file_lists.emplace_back(*v);
            else
                (name == "--output-dir-flat" ? o_.output_dir_flat : o_.output_dir_mirror) = std::string(*v);
            return {};
        }
        if (name == "--fast") {
            // --fast alone is --fast=1; larger accelerations than the
            // reference's lowest level are held at it, as zstd does.
            if (!opt.value) {
                o_.level = -1;
                return {};
            }
            const number n = parse_number(*opt.value, u32_max);
            if (!n.error.empty()) return "--fast=" + std::string(*opt.value) + ": " + n.error;
            if (n.value == 0) return "--fast=0: the acceleration must be at least 1";
            o_.level = -static_cast<int>(std::min<std::uint64_t>(n.value, -min_level));
            return {};
        }
        if (name == "--long") {
            // Compressing: long-distance matching with a window of 2^#;
            // decompressing: windows up to 2^# accepted.
            o_.long_distance = true;
            if (!opt.value) {
                o_.max_window_log = default_max_window_log;
                o_.long_window_log = 0;
                return {};
            }
            const auto log = parse_window_log(*opt.value);
            if (!log) return "--long=" + std::string(*opt.value) + ": expected a window log between 10 and 31";
            o_.max_window_log = *log;
            o_.long_window_log = *log;
            return {};
        }
        return "unknown option '" + std::string(arg) + "'";
    }

    // A cluster of short flags, like -dcf; -o and -M take the rest of the
    // cluster or, when it is empty, the next argument.
    std::string short_flags(std::string_view arg) {
        for (std::size_t j = 1; j < arg.size(); ++j) {
            const char c = arg[j];
            // The rest of the cluster, or the next argument unless it is
            // another option (zstd's rule; "-" is standard output for -o).
            const auto take_value = [&]() -> std::optional<std::string_view> {
                std::string_view v = arg.substr(j + 1);
                j = arg.size();
                if (!v.empty()) return v;
                if (i_ + 1 >= args_.size()) return std::nullopt;
                const std::string_view next = args_[i_ + 1];
                if (next.size() > 1 && next[0] == '-') return std::nullopt;
                ++i_;
                return next;
            };
            // The number that follows a letter (or makes up a level): all its
            // digits, as one number of at most 32 bits like zstd's.
            const auto take_digits = [&](std::size_t from) -> std::optional<digits> {
                const digits d = read_digits(arg.substr(from), u32_max);
                j = from + d.length - 1;
                if (d.overflow) return std::nullopt;
                return d;
            };
            const std::string overflow = std::string(arg) + ": numeric value overflows 32-bit unsigned int";
            if (c >= '0' && c <= '9') {
                const auto d = take_digits(j);
                if (!d) return overflow;
                // -0, like zstd, is the default level; larger levels than
                // allowed are capped after parsing, with zstd's warning.
                o_.level = d->value == 0 ? default_level : as_level(d->value);
                continue;
            }
            switch (c) {
                case 'd':
                    // As zstd: -d before or after -b makes the benchmark
                    // decode-only (of compressed files); it never writes.
                    o_.bench_decode_only = true;
                    if (o_.op != operation::bench) o_.op = operation::decompress;
                    break;
                case 't': o_.op = operation::test; break;
                case 'z': o_.op = operation::compress; break;
                case 'l': o_.op = operation::list; break;
                case 'c': o_.to_stdout = true; o_.output.reset(); break;
                case 'f': o_.force = o_.force_stdin = true; break;
                case 'k': o_.remove_input = false; break;
                case 'r': o_.recursive = true; break;
                case 'C': o_.checksum = true; break;
                case 'n': break;  // gzip's "no name": zest never stores names
                case 'q': --o_.verbosity; break;
                case 'v': ++o_.verbosity; break;
                case 'V': o_.show_version = true; break;
                case 'h': case 'H': o_.show_help = true; break;
                case 'b':
                    o_.op = operation::bench;  // the level, if any, follows as digits
                    break;
                case 'T': case 'e': case 'i': {
                    // As in zstd, -T without a number is -T0 (all cores).
                    const auto d = take_digits(j + 1);
                    if (!d) return overflow;
                    if (d->length == 0 && c != 'T')
                        return std::string(arg) + ": -" + c + " needs a number, like -" + c + "3";
                    if (c == 'T')
                        o_.threads = static_cast<unsigned>(d->value), o_.single_thread = false;
                    else if (c == 'e')
                        o_.bench_last_level = as_level(d->value);
                    else
                        o_.bench_seconds = static_cast<unsigned>(d->value);
                    break;
                }
                case 'B': {
                    // The job size of compression with workers, with an
                    // optional K or M. With --train, the size of the samples
                    // each file is cut into.
                    const auto d = take_digits(j + 1);
                    if (!d) return overflow;
                    std::uint64_t size = d->value;
                    if (j + 1 < arg.size() && (arg[j + 1] == 'K' || arg[j + 1] == 'M')) {
                        size <<= arg[j + 1] == 'K' ? 10 : 20;
                        ++j;
                        if (j + 1 < arg.size() && arg[j + 1] == 'i') ++j;
                        if (j + 1 < arg.size() && arg[j + 1] == 'B') ++j;
                    }
                    o_.train_chunk = size;
                    o_.job_size = size;
                    break;
                }
                case 'o': {
                    const auto v = take_value();
                    if (!v) return "-o: needs a file name (not another option)";
                    if (*v == "-") {
                        o_.to_stdout = true;
                        o_.output.reset();
                    } else {
                        o_.to_stdout = false;
                        o_.output = std::string(*v);
                    }
                    break;
                }
                case 'D': {
                    const auto v = take_value();
                    if (!v) return "-D: needs a dictionary file name (not another option)";
                    o_.dictionary = std::string(*v);
                    break;
                }
                case 'M': {
                    const auto v = take_value();
                    if (!v) return "-M: needs a size, like -M256MB (not another option)";
                    const number n = parse_number(*v, UINT64_MAX);
                    if (!n.error.empty()) return "-M" + std::string(*v) + ": " + n.error;
                    if (n.value == 0) return "-M0: the limit must be at least 1 KiB";
                    o_.max_window_log = window_log_for(n.value);
                    o_.memory_limit_set = true;
                    o_.train_memory = n.value;
                    break;
                }
                default:
                    return std::string("unknown option '-") + c + "'";
            }
        }
        return {};
    }

    std::span<char* const> args_;
    options& o_;
    std::size_t i_ = 0;
};

// What zstd takes from the environment: defaults that the command line
// overrides. Bad values are ignored with a warning, printed at once, at the
// default display level: zstd reads its environment before the command
// line, so no -q silences it.
void read_environment(options& o) {
    std::string warning;
    const auto warn = [&] { print_info(2, warning); };
    if (const char* level = std::getenv("ZSTD_CLEVEL")) {
        if (const auto l = parse_env_level(level, warning)) o.level = *l == 0 ? default_level : *l;
        else warn();
    }
    if (const char* threads = std::getenv("ZSTD_NBTHREADS")) {
        if (const auto n = parse_env_threads(threads, warning)) o.threads = *n;
        else warn();
    }
}

}  // namespace

parse_result parse_arguments(std::span<char* const> args, std::string_view program) {
    parse_result r;
    options& o = r.opts;
    read_environment(o);
    apply_program_preset(program, o);
    apply_format_program_name(program, o);  // gzip, unxz, lz4, ...: after the environment, as zstd
    r.error = parser(args, o).run();
    if (!r.error.empty()) return r;
    if (o.show_default_cparams && o.op == operation::decompress) {
        r.error = "--show-default-cparams: compression parameters cannot be shown when decompressing";
        return r;
    }
    if (o.level < min_level) o.level = min_level;
    // --zstd=: its values are checked where zstd sets them, when compressing;
    // when decoding, its window is the decoder's limit unless -M set one.
    // Out of bounds, zstd's context refuses them with status 11 (its
    // benchmark: 1).
    if (o.op == operation::compress || o.op == operation::bench) {
        r.error = check_bounds(o.zstd_params);
        if (!r.error.empty()) {
            r.status = o.op == operation::bench ? 1 : 11;
            return r;
        }
    }
    if ((o.op == operation::decompress || o.op == operation::test) && o.zstd_params[setting::window_log] &&
        !o.memory_limit_set) {
        const unsigned log = o.zstd_params[setting::window_log];
        if (log < 10 || log > max_window_log_limit) {
            r.error = "--zstd: windowLog=" + std::to_string(log) + " is out of bounds for a decoder's limit (10..31)";
            r.status = 11;
            return r;
        }
        o.max_window_log = log;
    }
    if (o.op == operation::bench) {
        // As zstd: benchmarks go up to the highest level, --ultra or not;
        // a decode-only one (-b -d) runs once, as level 0.
        if (o.bench_decode_only) o.level = 0, o.bench_last_level.reset();
        o.level = std::min(o.level, max_level);
        if (o.bench_last_level) o.bench_last_level = std::min(*o.bench_last_level, max_level);
        return r;
    }
    // Like zstd, a level beyond the range is lowered with a warning, not refused.
    const int top = o.ultra ? max_level : 19;
    if (o.level > top) {
        o.warnings.push_back("Warning : compression level higher than max, reduced to " + std::to_string(top));
        o.level = top;
    }
    if (o.op == operation::decompress && !o.single_thread && o.threads > 1)
        o.warnings.push_back("Warning : decompression does not support multi-threading");
    return r;
}

const char* usage_text() noexcept {
    return "Usage: zest [OPTIONS] [FILE...]\n"
           "Compress FILE to FILE.zst, or with -d decompress FILE.zst to FILE (FILE.tzst to FILE.tar).\n"
           "With no FILE, or when FILE is -, read standard input and write standard output.\n"
           "\n"
           "  -#                 compression level, 1 to 19 (default 3; ZSTD_CLEVEL sets another default)\n"
           "      --ultra        allow levels 20 to 22\n"
           "      --fast[=N]     faster, weaker compression: negative level -N (default 1)\n"
           "      --[no-]check   add (default) or omit the content checksum when compressing;\n"
           "                     verify (default) or ignore it when decompressing (-C: --check)\n"
           "      --[no-]content-size  declare (default) or omit a known input size in the frame\n"
           "      --stream-size=#  the exact size of an input of unknown size (a pipe): declared and checked\n"
           "      --size-hint=#  tune the parameters for an input of about # bytes when its size is unknown\n"
           "      --exclude-compressed  do not compress files that are already compressed (.zst, .gz, ...)\n"
           "      --show-default-cparams  print the parameters of the level for each input\n"
           "      --zstd=K=#,... set parameters beyond the level, as zstd: wlog, clog, hlog, slog, mml, tlen,\n"
           "                     strat (1 fast .. 9 btultra2; long names windowLog, ... too); with -d, wlog\n"
           "                     is the largest window accepted (unless -M)\n"
           "      --[no-]pass-through  with -d, copy data that is not zstd as it is (default: with -f to stdout)\n"
           "      --format=F     compress to F: zstd (default), gzip, xz, lzma or lz4 (.gz .xz .lzma .lz4);\n"
           "                     -d and -t recognise them all by their content, whatever the name\n"
           "      --[no-]sparse  decompressed files skip runs of zeros (default: on for files, off for stdout)\n"
           "  -z, --compress     compress (the default)\n"
           "  -d, --decompress   decompress\n"
           "  -t, --test         test integrity: decode and discard the output\n"
           "  -c, --stdout       write to standard output\n"
           "  -o OUT             write to OUT (several inputs are concatenated; needs -f)\n"
           "      --output-dir-flat DIR    write outputs into DIR\n"
           "      --output-dir-mirror DIR  write outputs under DIR, in their inputs' directory structure\n"
           "  -f, --force        overwrite existing files, read from a terminal, follow links\n"
           "  -k, --keep         keep input files (default)\n"
           "      --rm           remove each input once its output is complete\n"
           "  -M#, --memory=#    largest window to accept, in bytes (K, M, G suffixes; default 128M)\n"
           "      --long[=#]     accept windows up to 2^# bytes (default 27)\n"
           "  -D DICT            use the dictionary DICT to compress, decompress, test (-t) and benchmark (-b)\n"
           "      --no-dictID    frames written with -D do not name the dictionary's ID\n"
           "      --train FILEs  train a dictionary on the FILEs (samples; -r for directories), write it to -o\n"
           "                     (default: dictionary); the tables are fitted for the level (-#, default 3)\n"
           "      --maxdict=#    the dictionary's largest size (default 112640)\n"
           "      --dictID=#     its ID (default: from its content)\n"
           "  -B#                with --train: cut each file into samples of # bytes (K, M suffixes)\n"
           "  -M#, --memory=#    with --train: load at most # bytes of samples (the first files)\n"
           "      --train-fastcover[=k=#,d=#,f=#,steps=#,split=#,accel=#,shrink[=#]]  train with fastCover\n"
           "                     (the default); shrink is accepted without effect, as in zstd\n"
           "      --train-cover[=k=#,d=#,steps=#,split=#,shrink[=#]]  train with COVER (exact d-mer counts, slower)\n"
           "  -l, --list         list the frames of .zst files (sizes, ratio, check; -v for each frame)\n"
           "  -r, --recursive    operate on the files under directories (with -d: only compressed names)\n"
           "      --filelist FILE  also operate on the files FILE names, one per line\n"
           "  -T#, --threads=#   compress with # worker threads (0: one per core; default 1; ZSTD_NBTHREADS)\n"
           "      --single-thread, --auto-threads=physical|logical, -B#, --[no-]compress-literals,\n"
           "      --[no-]row-match-finder, --[no-]asyncio  accepted, without effect\n"
           "      --[no-]progress  show (or never show) a progress line; by default only on a terminal\n"
           "  -b#                benchmark level # on the FILEs (or a synthetic sample)\n"
           "  -b -d              benchmark the decompression of compressed FILEs (nothing is written)\n"
           "  -e#                last level of the benchmark range (from -b#)\n"
           "  -i#                minimum seconds per level (default 3)\n"
           "  -q, --quiet        print errors only; -qq prints nothing\n"
           "  -v, --verbose      print a line per file; -vv also the parameters used\n"
           "  -V, --version      print the version and exit\n"
           "  -h, -H, --help     print this help and exit\n"
           "  --                 treat the remaining arguments as file names\n"
           "\n"
           "Invoked as zestcat or zstdcat it is zest -dcf (quiet), as unzest or unzstd zest -d, as zestmt\n"
           "or zstdmt zest -T0.\n";
}

}  // namespace zest::cli
