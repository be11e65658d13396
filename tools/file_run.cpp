#include "file_run.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <system_error>

#include "file_io.hpp"
#include "file_names.hpp"
#include "frame_list.hpp"
#include "messages.hpp"
#include "output_sink.hpp"
#include "progress.hpp"

namespace zest::cli {

namespace {

// --filelist: one name per line (as `ls` prints them); empty lines name
// nothing. A list that cannot be read, or names no file, stops the run.
bool read_file_list(const std::string& list, std::vector<std::string>& names) {
    try {
        const input_file in = open_input(list, false);
        const std::vector<std::byte> text = read_all(in);
        const std::size_t before = names.size();
        std::string line;
        for (std::size_t i = 0; i <= text.size(); ++i) {
            if (i == text.size() || text[i] == std::byte{'\n'}) {
                if (!line.empty()) names.push_back(std::move(line));
                line.clear();
            } else {
                line.push_back(static_cast<char>(text[i]));
            }
        }
        if (names.size() == before) throw file_error(list, "names no file (a list has one file name per line)");
        return true;
    } catch (const file_error& e) {
        print_error(e.subject(), e.what());
        return false;
    }
}

// -r: the regular files below a directory (symbolic links are not
// followed), in name order. Compression takes every file (unless
// --exclude-compressed), as do -b and --train; the other operations the
// compressed ones.
void add_tree(const options& o, const std::string& dir, input_list& list) {
    std::vector<std::string> found;
    std::error_code ec;
    std::filesystem::recursive_directory_iterator it(dir, std::filesystem::directory_options::skip_permission_denied, ec);
    for (; !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
        if (!it->is_regular_file(ec) || it->is_symlink(ec)) continue;
        std::string path = it->path().string();
        const bool compressing = o.op == operation::compress || o.op == operation::bench || o.op == operation::train;
        if (compressing ? o.exclude_compressed && has_compressed_suffix(path) : !has_decompressible_suffix(path))
            continue;
        found.push_back(std::move(path));
    }
    if (ec) {
        print_error(dir, ec.message());
        list.failed = true;
    }
    std::sort(found.begin(), found.end());
    list.names.insert(list.names.end(), found.begin(), found.end());
}

}  // namespace

input_list collect_inputs(const options& o) {
    input_list list;
    std::vector<std::string> names;
    // As zstd, a symbolic link named on the command line is dropped with a
    // warning unless -f (shown unless -q, even with -c: zstd sorts its
    // arguments out before stdout lowers its display level), but not one to
    // a pipe: /dev/fd/N, as bash's <(command) names it; names from a
    // --filelist are taken as they are.
    for (const std::string& name : o.inputs) {
        struct stat lst {}, st {};
        if (name != "-" && !o.force && ::lstat(name.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode) &&
            !(::stat(name.c_str(), &st) == 0 && S_ISFIFO(st.st_mode))) {
            if (o.verbosity >= 0) print_info(1, "zest: " + name + ": is a symbolic link -- ignored (use -f to follow it)");
            ++list.dropped;
            continue;
        }
        names.push_back(name);
    }
    for (const std::string& file : o.file_lists) {
        if (!read_file_list(file, names)) {
            list.abort = true;
            return list;
        }
    }
    for (const std::string& name : names) {
        std::error_code ec;
        if (o.recursive && name != "-" && std::filesystem::is_directory(name, ec))
            add_tree(o, name, list);
        else
            list.names.push_back(name);
    }
    return list;
}

bool writes_to_stdout(const options& o, const std::vector<std::string>& inputs) {
    if (o.op == operation::test) return false;
    return o.to_stdout || (!o.output && (inputs.empty() || inputs == std::vector<std::string>{"-"}));
}

namespace {

class file_run {
public:
    file_run(const options& o, codec& c, bool summary)
        : o_(o), codec_(c), progress_(o.progress), summary_(summary), remove_inputs_(o.remove_input) {}

    int run(const std::vector<std::string>& inputs) {
        multiple_ = inputs.size() > 1;
        stdin_is_input_ = std::find(inputs.begin(), inputs.end(), "-") != inputs.end();
        if (o_.op != operation::test && o_.output && multiple_ && !confirm_concatenation()) return 1;
        if (o_.output_dir_flat && !o_.output_dir_mirror && !o_.output && !o_.to_stdout) warn_same_names(inputs);
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
        if (stdout_) {
            try {
                stdout_->finish_holes();
            } catch (const file_error& e) {
                print_error(e.subject(), e.what());
                failed_ = true;
            }
        }
        if (multiple_ && files_done_ > 0 && summary_) {
            char line[160];
            // zstd's summary lines (-t reports "decompressed" too).
            if (o_.op == operation::compress)
                std::snprintf(line, sizeof line, "%3llu files compressed : %.2f%% (%s => %s)", files_done_,
                              total_in_ ? 100.0 * static_cast<double>(total_out_) / static_cast<double>(total_in_)
                                        : 100.0,
                              human_size(total_in_, 4).c_str(), human_size(total_out_, 4).c_str());
            else
                std::snprintf(line, sizeof line, "%llu files decompressed : %6llu bytes total ", files_done_,
                              total_out_);
            print_info(1, line);
        }
        return failed_ ? status_ : 0;
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

    // --output-dir-flat puts every output in one directory: inputs of the
    // same name collide there (the first stays, or with -f the last), as
    // zstd warns.
    void warn_same_names(const std::vector<std::string>& inputs) {
        std::map<std::string_view, int> seen;
        for (const std::string& name : inputs)
            if (name != "-" && ++seen[base_name(name)] == 2)
                print_info(2, "zest: WARNING: two inputs have the same name, " + std::string(base_name(name)) +
                                  ": their outputs collide in " + *o_.output_dir_flat);
    }

    // An existing output, without -f: zstd asks, unless it cannot (-q, or
    // standard input is being read as data).
    void approve_overwrite(const std::string& path) {
        progress_.clear();
        if (display_level <= 1) throw file_error(path, "already exists; not overwritten");
        if (!ask_user("zest: " + path + " already exists; ", "overwrite (y/n) ? ", "Not overwritten", stdin_is_input_))
            throw file_error(path, "");  // the exchange said it all
    }

    std::unique_ptr<output_sink> create_output(const std::string& path, const input_file& in) {
        // Replacing the input itself would destroy it: refused before any
        // question about overwriting it.
        struct stat st {};
        if (!in.is_stdin && ::stat(path.c_str(), &st) == 0 && st.st_dev == in.st.st_dev && st.st_ino == in.st.st_ino)
            throw file_error(path, "is the input file; refusing to overwrite it");
        auto sink = output_sink::create(path, o_.force, [this](const std::string& p) { approve_overwrite(p); });
        // As zstd: decompressed files are sparse unless --no-sparse.
        sink->set_sparse(o_.op == operation::decompress && o_.sparse.value_or(true));
        return sink;
    }

    // The name of the output of `in` when it is not -o or stdout: next to
    // the input, or in the --output-dir-* directory.
    std::string output_path(const input_file& in) {
        std::string name;
        if (o_.op == operation::compress) {
            // FILE.zst becomes FILE.zst.zst, as with zstd (.gz, .xz, ... with --format).
            name = in.name + std::string(format_suffix(o_.format));
        } else {
            const auto target = decompressed_name(in.name);
            if (!target)
                throw file_error(in.display, "unknown suffix (" + decompressible_suffixes() + " expected) -- ignored");
            name = *target;
        }
        if (o_.output_dir_mirror) {
            const auto mirrored = mirrored_output_path(*o_.output_dir_mirror, name);
            if (!mirrored)
                throw file_error(in.display, "a path through '..' cannot be mirrored under " + *o_.output_dir_mirror +
                                                 " -- ignored");
            make_mirror_directories(*o_.output_dir_mirror, name);
            return *mirrored;
        }
        if (o_.output_dir_flat) {
            make_directories(*o_.output_dir_flat);
            return flat_output_path(*o_.output_dir_flat, name);
        }
        return name;
    }

    void process(const std::string& name) {
        try {
            process_or_throw(name);
        } catch (const file_error& e) {
            progress_.clear();
            if (*e.what()) print_error(e.subject(), e.what());  // an empty reason was reported already
            failed_ = true;
            status_ = std::max(status_, e.status());
        } catch (const std::bad_alloc&) {
            progress_.clear();
            print_error(name == "-" ? "(stdin)" : name, error_message(errc::out_of_memory));
            failed_ = true;
        }
    }

    void process_or_throw(const std::string& name) {
        const bool compressing = o_.op == operation::compress;
        if (name == "-" && !o_.force_stdin && ::isatty(STDIN_FILENO))
            throw file_error("(stdin)", compressing
                                            ? "is a terminal; refusing to read data to compress from it (use -f to force)"
                                            : "is a terminal; refusing to read compressed data from it (use -f to force)");
        if (compressing && o_.exclude_compressed && name != "-" && has_compressed_suffix(name)) {
            print_info(3, "zest: " + name + ": already compressed -- ignored");
            return;
        }
        input_file in = open_input(name, o_.force);
        if (compressing) codec_.check_format(in.display);  // a format left out of the build: before any output
        // Compressed with itself, it could not be decoded without itself (and --rm would remove both): zstd refuses.
        if (compressing && codec_.is_dictionary_file(in))
            throw file_error(in.display, "cannot use it as both an input file and the dictionary (-D)");

        std::unique_ptr<output_sink> per_file;
        output_sink* out = nullptr;
        if (o_.op == operation::test) {
            // decode only
        } else if (o_.to_stdout || (in.is_stdin && !o_.output)) {
            // As zstd: only output that goes to the terminal unasked (no -c) is refused.
            if (compressing && !o_.force && !o_.to_stdout && ::isatty(STDOUT_FILENO))
                throw file_error("(stdout)", "is a terminal; refusing to write compressed data to it (use -f to force)");
            if (!stdout_) {
                stdout_ = output_sink::open_stdout();
                // Standard output is sparse only when asked (--sparse), as in zstd.
                stdout_->set_sparse(o_.op == operation::decompress && o_.sparse.value_or(false));
            }
            out = stdout_.get();
        } else if (o_.output) {
            if (!shared_file_) {
                shared_file_ = create_output(*o_.output, in);
                if (!multiple_ && !in.is_stdin) single_input_stat_ = in.st;
            }
            out = shared_file_.get();
        } else {
            per_file = create_output(output_path(in), in);
            out = per_file.get();
        }
        if (out && out->same_file_as(in.st))
            throw file_error(out->name(), "is the input file; refusing to overwrite it");

        if (compressing && display_level >= 4) {
            // -vv: the parameters this input is compressed with.
            const compression_parameters p = codec_.parameters_for(in);
            char line[160];
            std::snprintf(line, sizeof line, "%s: --zstd=wlog=%u,clog=%u,hlog=%u,slog=%u,mml=%u,tlen=%u,strat=%u",
                          in.display.c_str(), p.window_log, p.chain_log, p.hash_log, p.search_log, p.min_match,
                          p.target_length, static_cast<unsigned>(p.strategy));
            print_info(4, line);
        }
        const transfer_totals t = compressing ? codec_.compress(in, *out, progress_) : codec_.decompress(in, out, progress_);
        if (per_file) per_file->commit(in.is_stdin ? nullptr : &in.st, remove_inputs_);

        ++files_done_;
        total_in_ += t.read;
        total_out_ += t.written;
        char line[PATH_MAX + 128];
        if (compressing)
            // Both lines end in a space, as zstd's do (scripts compare them).
            std::snprintf(line, sizeof line, " :%6.2f%%   (%s => %s, %s) ",
                          t.read ? 100.0 * static_cast<double>(t.written) / static_cast<double>(t.read) : 100.0,
                          human_size(t.read).c_str(), human_size(t.written).c_str(), out->name().c_str());
        else
            std::snprintf(line, sizeof line, ": %llu bytes ", static_cast<unsigned long long>(t.written));
        std::string display = in.display;
        if (display.size() < 20) display.resize(20, ' ');
        // zstd's rule: one file's line is its summary; with several, -v shows
        // each. A file passed through gets none (zstd copies it and returns).
        if (!t.passed_through && (multiple_ || summary_)) print_info(multiple_ ? 3 : 1, display + line);

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
    bool summary_;               // zstd prints results at display level 2, or 1 with --progress
    bool remove_inputs_;         // --rm, unless several inputs share one output
    bool stdin_is_input_ = false;  // then standard input cannot answer questions
    bool multiple_ = false;
    bool failed_ = false;
    int status_ = 1;             // when failed_: 1, or the highest of zstd's other statuses seen
    unsigned long long files_done_ = 0;
    unsigned long long total_in_ = 0;
    unsigned long long total_out_ = 0;
    std::unique_ptr<output_sink> stdout_;
    std::unique_ptr<output_sink> shared_file_;  // the -o output, fed by every input
    std::optional<struct stat> single_input_stat_;
    std::vector<std::string> removable_after_shared_;
};

}  // namespace

int process_files(const options& o, codec& c, const std::vector<std::string>& inputs) {
    const bool summary = display_level >= 2 || o.progress.value_or(false);
    return file_run(o, c, summary).run(inputs);
}

}  // namespace zest::cli
