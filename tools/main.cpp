// zest — command-line tool, with the reference zstd's flags. Inputs are read
// and compressed or decoded in memory (streaming comes later).
#include <unistd.h>

#include <cerrno>
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

#include "file_io.hpp"
#include "messages.hpp"
#include "options.hpp"
#include "output_sink.hpp"
#include "zest/zest.hpp"

namespace zest::cli {
namespace {

// FILE.zst -> FILE, FILE.tzst -> FILE.tar; nullopt for any other name.
std::optional<std::string> derive_output_name(const std::string& input) {
    const auto strip = [&](std::string_view suffix, std::string_view replacement) -> std::optional<std::string> {
        if (input.size() <= suffix.size() || !input.ends_with(suffix)) return std::nullopt;
        std::string out = input.substr(0, input.size() - suffix.size());
        if (out.back() == '/') return std::nullopt;  // "dir/.zst" names no file
        out.append(replacement);
        return out;
    };
    if (auto out = strip(".zst", "")) return out;
    return strip(".tzst", ".tar");
}

std::string describe(const std::system_error& e) {
    if (e.code().category() != zest::error_category()) return e.what();
    const auto code = static_cast<errc>(e.code().value());
    std::string reason = error_message(code);
    if (code == errc::window_too_large) reason += " (use --memory=# or --long=# to raise it)";
    return reason;
}

std::vector<std::byte> decode(decompressor& dec, const input_file& in) {
    const std::vector<std::byte> src = read_all(in);
    // An empty file holds no frame; zstd reports it rather than writing an empty output.
    if (src.empty()) throw file_error(in.display, error_message(errc::truncated_input));
    try {
        return dec.decompress(std::span<const std::byte>(src));
    } catch (const std::system_error& e) {
        dec.reset();  // the next input starts clean whatever state the failure left
        throw file_error(in.display, describe(e));
    }
}

std::vector<std::byte> encode(compressor& enc, const input_file& in, std::size_t& input_size) {
    const std::vector<std::byte> src = read_all(in);
    input_size = src.size();
    std::vector<std::byte> out(compress_bound(src.size()));
    const auto r = enc.compress(std::span<std::byte>(out), std::span<const std::byte>(src));
    if (!r) throw file_error(in.display, r.message());
    out.resize(*r);
    return out;
}

class file_run {
public:
    file_run(const options& o, decompressor& dec, compressor& enc) : o_(o), dec_(dec), enc_(enc) {}

    int run() {
        std::vector<std::string> inputs = o_.inputs;
        if (inputs.empty()) inputs.emplace_back("-");
        multiple_ = inputs.size() > 1;
        if (o_.op != operation::test && o_.output && multiple_ && !o_.force) {
            print_error(*o_.output,
                        "several inputs would be concatenated into this one output; use -f to proceed");
            return 1;
        }
        for (const std::string& name : inputs) {
            process(name);
            // With -o every input feeds one output, which a failure has spoiled.
            if (failed_ && o_.output && o_.op != operation::test) break;
        }
        if (shared_file_) {
            try {
                if (!failed_) shared_file_->commit(single_input_stat_ ? &*single_input_stat_ : nullptr);
            } catch (const file_error& e) {
                print_error(e.subject(), e.what());
                failed_ = true;
            }
            shared_file_.reset();
            if (!failed_) remove_inputs(removable_after_shared_);
        }
        if (multiple_ && files_done_ > 0) {
            const char* what = o_.op == operation::test ? "tested"
                               : o_.op == operation::compress ? "compressed"
                                                              : "decompressed";
            print_info(2, std::to_string(files_done_) + " files " + what + " : " +
                              std::to_string(total_bytes_) + " bytes total");
        }
        return failed_ ? 1 : 0;
    }

private:
    void process(const std::string& name) {
        try {
            process_or_throw(name);
        } catch (const file_error& e) {
            print_error(e.subject(), e.what());
            failed_ = true;
        } catch (const std::bad_alloc&) {
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
        input_file in = open_input(name, o_.force);

        std::unique_ptr<output_sink> per_file;
        output_sink* out = nullptr;
        if (o_.op == operation::test) {
            // decode only
        } else if (o_.to_stdout || (in.is_stdin && !o_.output)) {
            if (compressing && !o_.force && ::isatty(STDOUT_FILENO))
                throw file_error("(stdout)", "is a terminal; refusing to write compressed data to it (use -f to force)");
            if (!stdout_) stdout_ = output_sink::open_stdout();
            out = stdout_.get();
        } else if (o_.output) {
            if (!shared_file_) {
                shared_file_ = output_sink::create(*o_.output, o_.force);
                if (!multiple_ && !in.is_stdin) single_input_stat_ = in.st;
            }
            out = shared_file_.get();
        } else if (compressing) {
            if (in.name.ends_with(".zst")) throw file_error(in.display, "already has .zst suffix -- ignored");
            per_file = output_sink::create(in.name + ".zst", o_.force);
            out = per_file.get();
        } else {
            const auto target = derive_output_name(in.name);
            if (!target) throw file_error(in.display, "unknown suffix (.zst or .tzst expected) -- ignored");
            per_file = output_sink::create(*target, o_.force);
            out = per_file.get();
        }
        if (out && out->same_file_as(in.st))
            throw file_error(out->name(), "is the input file; refusing to overwrite it");

        std::size_t input_size = 0;
        const std::vector<std::byte> produced = compressing ? encode(enc_, in, input_size) : decode(dec_, in);
        if (out) out->write(produced);
        if (per_file) per_file->commit(in.is_stdin ? nullptr : &in.st);

        ++files_done_;
        total_bytes_ += compressing ? input_size : produced.size();
        char line[128];
        if (compressing)
            std::snprintf(line, sizeof line, ": %6.2f%%   (%llu B => %llu B)",
                          input_size ? 100.0 * static_cast<double>(produced.size()) / static_cast<double>(input_size)
                                     : 100.0,
                          static_cast<unsigned long long>(input_size),
                          static_cast<unsigned long long>(produced.size()));
        else
            std::snprintf(line, sizeof line, ": %llu bytes", static_cast<unsigned long long>(produced.size()));
        std::string display = in.display;
        if (display.size() < 20) display.resize(20, ' ');
        print_info(multiple_ ? 3 : 2, display + line);

        // Like zstd, --rm only removes an input whose content now lives in a
        // file: not after -c, -t, or -o /dev/null.
        if (o_.remove_input && !in.is_stdin && out && out->is_regular_file()) {
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
    decompressor& dec_;
    compressor& enc_;
    bool multiple_ = false;
    bool failed_ = false;
    unsigned long long files_done_ = 0;
    unsigned long long total_bytes_ = 0;
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
        std::printf("zest %s\n", version_string());
        return 0;
    }
    // zstd's rule: writing to stdout lowers the default level, so that
    // messages don't mix with data shown on a terminal.
    const bool stdout_output = o.op != operation::test &&
                               (o.to_stdout || (!o.output && (o.inputs.empty() || o.inputs == std::vector<std::string>{"-"})));
    display_level = 2 + o.verbosity;
    if (stdout_output && o.verbosity == 0) display_level = 1;

    decompressor dec;
    if (const auto r = dec.set_max_window_log(o.max_window_log); !r) {
        print_error(r.message());
        return 1;
    }
    compressor enc;
    enc.set_level(o.level);
    enc.set_checksum(o.checksum);
    install_signal_handlers();
    return file_run(o, dec, enc).run();
}

}  // namespace
}  // namespace zest::cli

int main(int argc, char** argv) {
    using namespace zest::cli;
    const parse_result parsed = parse_arguments(std::span<char* const>(argv + 1, static_cast<std::size_t>(argc > 0 ? argc - 1 : 0)));
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
