// zest — command-line tool, with the reference zstd's flags.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "bench.hpp"
#include "codec.hpp"
#include "file_io.hpp"
#include "frame_list.hpp"
#include "messages.hpp"
#include "options.hpp"
#include "output_sink.hpp"
#include "progress.hpp"
#include "zest/zest.hpp"

namespace zest::cli {
namespace {

// FILE.zst -> FILE, FILE.tzst -> FILE.tar (and the other formats' names,
// formats/format.cpp); nullopt for any other name.
std::optional<std::string> derive_output_name(const std::string& input) {
    const auto strip = [&](std::string_view suffix, std::string_view replacement) -> std::optional<std::string> {
        if (input.size() <= suffix.size() || !input.ends_with(suffix)) return std::nullopt;
        std::string out = input.substr(0, input.size() - suffix.size());
        if (out.back() == '/') return std::nullopt;  // "dir/.zst" names no file
        out.append(replacement);
        return out;
    };
    if (auto out = strip(".zst", "")) return out;
    if (auto out = strip_other_format_suffix(input)) return out;
    return strip(".tzst", ".tar");
}

bool has_zstd_suffix(const std::string& name) {
    return name.ends_with(".zst") || name.ends_with(".tzst") || has_other_format_suffix(name);
}

// -r: directories name the regular files below them (symbolic links are
// not followed), in name order; other arguments pass through unchanged.
// With -d/-t only compressed names are taken; compression takes every file,
// as zstd does, unless --exclude-compressed.
// As zstd, a symbolic link named on the command line is dropped with a
// warning unless -f (shown unless -q, even with -c: zstd sorts its arguments
// out before stdout lowers its display level); `dropped` counts them.
std::vector<std::string> expand_inputs(const options& o, bool& failed, std::size_t& dropped) {
    std::vector<std::string> out;
    for (const std::string& name : o.inputs) {
        std::error_code ec;
        struct stat lst {};
        if (name != "-" && !o.force && ::lstat(name.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode)) {
            if (o.verbosity >= 0) print_info(1, "zest: " + name + ": is a symbolic link -- ignored (use -f to follow it)");
            ++dropped;
            continue;
        }
        if (!o.recursive || name == "-" || !std::filesystem::is_directory(name, ec)) {
            out.push_back(name);
            continue;
        }
        std::vector<std::string> found;
        std::filesystem::recursive_directory_iterator it(name, std::filesystem::directory_options::skip_permission_denied, ec);
        for (; !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
            if (!it->is_regular_file(ec) || it->is_symlink(ec)) continue;
            std::string path = it->path().string();
            const bool compressed = has_zstd_suffix(path);
            if (o.op == operation::compress ? o.exclude_compressed && compressed : !compressed) continue;
            found.push_back(std::move(path));
        }
        if (ec) {
            print_error(name, ec.message());
            failed = true;
        }
        std::sort(found.begin(), found.end());
        out.insert(out.end(), found.begin(), found.end());
    }
    return out;
}

class file_run {
public:
    file_run(const options& o, codec& c)
        : o_(o), codec_(c), progress_(o.progress, o.verbosity < 0), remove_inputs_(o.remove_input) {}

    int run() {
        std::size_t dropped = 0;
        std::vector<std::string> inputs = expand_inputs(o_, failed_, dropped);
        if (inputs.empty() && dropped > 0) return 1;  // nothing left to do, as zstd
        if (inputs.empty() && !o_.recursive) inputs.emplace_back("-");
        multiple_ = inputs.size() > 1;
        stdin_is_input_ = std::find(inputs.begin(), inputs.end(), "-") != inputs.end();
        if (o_.op != operation::test && o_.output && multiple_ && !confirm_concatenation()) return 1;
        for (const std::string& name : inputs) {
            process(name);
            // With -o every input feeds one output, which a failure has spoiled.
            if (failed_ && o_.output && o_.op != operation::test) break;
        }
        if (shared_file_) {
            try {
                if (!failed_)
                    shared_file_->commit(single_input_stat_ ? &*single_input_stat_ : nullptr, remove_inputs_);
            } catch (const file_error& e) {
                print_error(e.subject(), e.what());
                failed_ = true;
            }
            shared_file_.reset();
            if (!failed_) remove_inputs(removable_after_shared_);
        }
        if (multiple_ && files_done_ > 0) {
            char line[160];
            // zstd's summary lines (-t reports "decompressed" too).
            if (o_.op == operation::compress)
                std::snprintf(line, sizeof line, "%3llu files compressed : %.2f%% (%s => %s)", files_done_,
                              total_in_ ? 100.0 * static_cast<double>(total_out_) / static_cast<double>(total_in_)
                                        : 100.0,
                              human_size(total_in_, 4).c_str(), human_size(total_out_, 4).c_str());
            else
                std::snprintf(line, sizeof line, "%llu files decompressed : %6llu bytes total", files_done_,
                              total_out_);
            print_info(2, line);
        }
        return failed_ ? 1 : 0;
    }

private:
    // Several inputs into one -o file, as zstd asks: the output cannot tell
    // them apart, so without -f the user must agree, and --rm is dropped.
    bool confirm_concatenation() {
        const std::string& target = *o_.output;
        if (!o_.force && display_level <= 1) {
            print_error(target, "concatenating several inputs into one output loses their names; aborting (use -f)");
            return false;
        }
        print_info(2, "zest: WARNING: all input files will be processed and concatenated into a single output file: " +
                          target);
        print_info(2, "The concatenated output CANNOT regenerate original file names nor directory structure.");
        if (remove_inputs_) {
            print_info(2, "Since it's a destructive operation, input files will not be removed.");
            remove_inputs_ = false;
        }
        return o_.force || ask_user("", "Proceed? (y/n): ", "Aborting...", stdin_is_input_);
    }

    // An existing output, without -f: zstd asks, unless it cannot (-q, or
    // standard input is being read as data).
    void approve_overwrite(const std::string& path) {
        progress_.clear();
        if (display_level <= 1) throw file_error(path, "already exists; not overwritten");
        if (!ask_user("zest: " + path + " already exists; ", "overwrite (y/n) ? ", "Not overwritten", stdin_is_input_))
            throw file_error(path, "");  // the exchange said it all
    }

    std::unique_ptr<output_sink> create_output(const std::string& path) {
        return output_sink::create(path, o_.force, [this](const std::string& p) { approve_overwrite(p); });
    }

    void process(const std::string& name) {
        try {
            process_or_throw(name);
        } catch (const file_error& e) {
            progress_.clear();
            if (*e.what()) print_error(e.subject(), e.what());  // an empty reason was reported already
            failed_ = true;
        } catch (const std::bad_alloc&) {
            progress_.clear();
            print_error(name == "-" ? "(stdin)" : name, error_message(errc::out_of_memory));
            failed_ = true;
        }
    }

    void process_or_throw(const std::string& name) {
        const bool compressing = o_.op == operation::compress;
        if (name == "-" && !o_.force && ::isatty(STDIN_FILENO))
            throw file_error("(stdin)", compressing
                                            ? "is a terminal; refusing to read data to compress from it (use -f to force)"
                                            : "is a terminal; refusing to read compressed data from it (use -f to force)");
        if (compressing && o_.exclude_compressed && name != "-" && has_zstd_suffix(name)) {
            print_info(3, "zest: " + name + ": already compressed -- ignored");
            return;
        }
        input_file in = open_input(name, o_.force);
        if (compressing) codec_.check_format(in.display);

        std::unique_ptr<output_sink> per_file;
        output_sink* out = nullptr;
        if (o_.op == operation::test) {
            // decode only
        } else if (o_.to_stdout || (in.is_stdin && !o_.output)) {
            // As zstd: only output that goes to the terminal unasked (no -c) is refused.
            if (compressing && !o_.force && !o_.to_stdout && ::isatty(STDOUT_FILENO))
                throw file_error("(stdout)", "is a terminal; refusing to write compressed data to it (use -f to force)");
            if (!stdout_) stdout_ = output_sink::open_stdout();
            out = stdout_.get();
        } else if (o_.output) {
            if (!shared_file_) {
                shared_file_ = create_output(*o_.output);
                if (!multiple_ && !in.is_stdin) single_input_stat_ = in.st;
            }
            out = shared_file_.get();
        } else if (compressing) {
            // FILE.zst becomes FILE.zst.zst, as with zstd (--exclude-compressed skips it).
            per_file = create_output(in.name + std::string(format_suffix(o_.format)));
            out = per_file.get();
        } else {
            const auto target = derive_output_name(in.name);
            if (!target)
                throw file_error(in.display, "unknown suffix (" + std::string(known_suffix_list()) + " expected) -- ignored");
            per_file = create_output(*target);
            out = per_file.get();
        }
        if (out && out->same_file_as(in.st))
            throw file_error(out->name(), "is the input file; refusing to overwrite it");

        const transfer_totals t = compressing ? codec_.compress(in, *out, progress_) : codec_.decompress(in, out, progress_);
        if (per_file) per_file->commit(in.is_stdin ? nullptr : &in.st, remove_inputs_);

        ++files_done_;
        total_in_ += t.read;
        total_out_ += t.written;
        char line[PATH_MAX + 128];
        if (compressing)
            std::snprintf(line, sizeof line, " :%6.2f%%   (%s => %s, %s)",
                          t.read ? 100.0 * static_cast<double>(t.written) / static_cast<double>(t.read) : 100.0,
                          human_size(t.read).c_str(), human_size(t.written).c_str(), out->name().c_str());
        else
            std::snprintf(line, sizeof line, ": %llu bytes", static_cast<unsigned long long>(t.written));
        std::string display = in.display;
        if (display.size() < 20) display.resize(20, ' ');
        print_info(multiple_ ? 3 : 2, display + line);

        // Like zstd, --rm only removes an input whose content now lives in a
        // file: not after -c, -t, or -o /dev/null.
        if (remove_inputs_ && !in.is_stdin && out && out->is_regular_file()) {
            if (per_file)
                remove_inputs({in.name});
            else
                removable_after_shared_.push_back(in.name);
        }
    }

    void remove_inputs(const std::vector<std::string>& names) {
        for (const std::string& name : names) {
            if (::unlink(name.c_str()) != 0) {
                print_error(name, std::strerror(errno));
                failed_ = true;
            }
        }
    }

    const options& o_;
    codec& codec_;
    progress_line progress_;
    bool remove_inputs_;         // --rm, unless several inputs share one output
    bool stdin_is_input_ = false;  // then standard input cannot answer questions
    bool multiple_ = false;
    bool failed_ = false;
    unsigned long long files_done_ = 0;
    unsigned long long total_in_ = 0;
    unsigned long long total_out_ = 0;
    std::unique_ptr<output_sink> stdout_;
    std::unique_ptr<output_sink> shared_file_;  // the -o output, fed by every input
    std::optional<struct stat> single_input_stat_;
    std::vector<std::string> removable_after_shared_;
};

int run(const options& o) {
    if (o.show_help) {
        std::fputs(usage_text(), stdout);
        return 0;
    }
    if (o.show_version) {
        // zstd's forms: a banner, or just the number with -q.
        if (o.verbosity < 0)
            std::printf("%s\n", version_string());
        else
            std::printf("*** zest CLI (%d-bit) v%s, a Zstandard implementation ***\n",
                        static_cast<int>(sizeof(void*) * 8), version_string());
        if (o.verbosity > 0) std::printf("*** supports: %s\n", built_in_format_list().c_str());  // as zstd -vV
        return 0;
    }
    if (o.verbosity > 0)  // zstd -v starts with its banner
        print_info(1, std::string("*** zest CLI (") + std::to_string(sizeof(void*) * 8) + "-bit) v" +
                          version_string() + ", a Zstandard implementation ***");
    for (const std::string& w : o.warnings) print_info(1, w);
    if (o.op == operation::list) return list_files(o.inputs);
    if (o.op == operation::bench) {
        bench_settings b;
        b.first_level = o.level;
        b.last_level = std::max(o.level, o.bench_last_level.value_or(o.level));
        b.min_seconds = o.bench_seconds;
        b.checksum = o.checksum;
        return run_bench(o.inputs, b);
    }
    // zstd's rule: writing to stdout lowers the default level, so that
    // messages don't mix with data shown on a terminal.
    const bool stdout_output = o.op != operation::test &&
                               (o.to_stdout || (!o.output && (o.inputs.empty() || o.inputs == std::vector<std::string>{"-"})));
    display_level = 2 + o.verbosity;
    if (stdout_output && o.verbosity == 0) display_level = 1;

    codec_settings cs;
    cs.level = o.level;
    cs.checksum = o.checksum;
    cs.content_size = o.content_size;
    // zstd's rule: -dcf passes through what is not compressed (like zcat -f).
    cs.pass_through = o.op == operation::decompress && o.pass_through.value_or(o.to_stdout && o.force);
    cs.max_window_log = o.max_window_log;
    cs.format = o.format;
    codec c(cs);
    install_signal_handlers();
    return file_run(o, c).run();
}

}  // namespace
}  // namespace zest::cli

int main(int argc, char** argv) {
    using namespace zest::cli;
    options preset;
    if (argc > 0) apply_format_program_name(argv[0], preset);  // gzip, unxz, lz4, ... as zstd
    const parse_result parsed =
        parse_arguments(std::span<char* const>(argv + 1, static_cast<std::size_t>(argc > 0 ? argc - 1 : 0)), preset);
    if (!parsed.error.empty()) {
        print_error(parsed.error);
        std::fputs("Try 'zest --help' for more information.\n", stderr);
        return 1;
    }
    display_level = 2 + parsed.opts.verbosity;
    try {
        const int status = run(parsed.opts);
        if (std::fflush(stdout) != 0) {
            print_error("(stdout)", std::strerror(errno));
            return 1;
        }
        return status;
    } catch (const std::exception& e) {
        print_error(e.what());
        return 1;
    }
}
