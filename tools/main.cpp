// zest — command-line tool, with the reference zstd's flags.
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "bench.hpp"
#include "codec.hpp"
#include "cores.hpp"
#include "file_run.hpp"
#include "frame_list.hpp"
#include "messages.hpp"
#include "options.hpp"
#include "output_sink.hpp"
#include "zest/zest.hpp"

namespace zest::cli {
namespace {

const char* const strategy_names[] = {"", "ZSTD_fast", "ZSTD_dfast", "ZSTD_greedy", "ZSTD_lazy", "ZSTD_lazy2",
                                      "ZSTD_btlazy2", "ZSTD_btopt", "ZSTD_btultra", "ZSTD_btultra2"};

// --show-default-cparams: the level's parameters for each input's size, in
// zstd's words (its level table is zest's; what zest runs, -vv shows).
void show_default_parameters(const std::vector<std::string>& inputs, int level) {
    for (const std::string& name : inputs) {
        struct stat st {};
        std::optional<std::uint64_t> size;
        if (name != "-" && ::stat(name.c_str(), &st) == 0 && S_ISREG(st.st_mode))
            size = static_cast<std::uint64_t>(st.st_size);
        const compression_parameters p = level_parameters(level, size);
        const std::string label = name == "-" ? "(stdin)" : name;
        if (size)
            std::fprintf(stderr, "%s (%llu bytes)\n", label.c_str(), static_cast<unsigned long long>(*size));
        else
            std::fprintf(stderr, "%s (src size unknown)\n", label.c_str());
        std::fprintf(stderr,
                     " - windowLog     : %u\n - chainLog      : %u\n - hashLog       : %u\n"
                     " - searchLog     : %u\n - minMatch      : %u\n - targetLength  : %u\n"
                     " - strategy      : %s (%u)\n",
                     p.window_log, p.chain_log, p.hash_log, p.search_log, p.min_match, p.target_length,
                     strategy_names[static_cast<unsigned>(p.strategy)], static_cast<unsigned>(p.strategy));
    }
}

// --train: the inputs are the samples, one per file (or, with -B#, cut
// into samples of # bytes, the last one of a file shorter, as zstd cuts
// them); empty files give none, as in zstd. -M#/--memory=# stops loading
// samples before they pass # bytes in all. The dictionary goes to -o
// (default "dictionary"), written only once training has succeeded.
//
// zstd's exit statuses: 14 when there are fewer than 5 samples in all
// (counted before the memory limit, no file at all included), 1 when
// training fails, among others because fewer than 5 samples are left to
// train on after the split (--train's default: 75% of them).
int train(const options& o, const std::vector<std::string>& names) {
    std::vector<std::byte> samples;
    std::vector<std::size_t> sizes;
    std::uint64_t total_samples = 0;
    const auto samples_in = [&](std::uint64_t bytes) -> std::uint64_t {
        return bytes == 0 ? 0 : o.train_chunk ? (bytes + o.train_chunk - 1) / o.train_chunk : 1;
    };
    std::uint64_t total_bytes = 0;
    bool limited = false;
    for (const std::string& name : names) {
        try {
            const input_file in = open_input(name, o.force);
            if (limited) {  // not loaded, but counted as zstd counts them
                if (S_ISREG(in.st.st_mode)) {
                    total_samples += samples_in(static_cast<std::uint64_t>(in.st.st_size));
                    total_bytes += static_cast<std::uint64_t>(in.st.st_size);
                } else {
                    ++total_samples;
                }
                continue;
            }
            const std::vector<std::byte> data = read_all(in);
            total_samples += samples_in(data.size());
            total_bytes += data.size();
            const std::size_t chunk = o.train_chunk ? std::size_t(o.train_chunk) : std::max<std::size_t>(data.size(), 1);
            for (std::size_t at = 0; at < data.size() && !limited; at += chunk) {
                const std::size_t n = std::min(chunk, data.size() - at);
                if (o.train_memory && samples.size() + n > o.train_memory) {
                    limited = true;
                    break;
                }
                samples.insert(samples.end(), data.begin() + std::ptrdiff_t(at), data.begin() + std::ptrdiff_t(at + n));
                sizes.push_back(n);
            }
        } catch (const file_error& e) {
            print_error(e.subject(), e.what());
            return 1;
        }
    }
    if (total_samples < 5) {
        print_error("--train", std::to_string(total_samples) + (total_samples == 1 ? " sample" : " samples") +
                                   ": too few to train on (at least 5: one file per sample, or files cut into "
                                   "samples with -B#)");
        return 14;
    }
    // zstd's two lines, which scripts (its own playTests.sh) look for.
    constexpr std::uint64_t mib = 1 << 20;
    if (o.train_memory)
        print_info(2, "!  Warning : setting manual memory limit for dictionary training data at " +
                          std::to_string(o.train_memory / mib) + " MB");
    if (limited)
        print_info(1, "Training samples set too large (" + std::to_string(total_bytes / mib) + " MB); training on " +
                          std::to_string(o.train_memory / mib) + " MB only...");
    print_info(3, "Training on " + std::to_string(sizes.size()) + " samples of " + std::to_string(samples.size()) +
                      " bytes in all");
    training_parameters p = o.train;
    p.level = o.level;
    p.dict_id = o.train_dict_id;
    training_parameters used;
    auto dict = train_dictionary(samples, sizes, std::size_t(o.max_dict), p, &used);
    if (!dict) {
        std::string why = error_message(dict.error());
        // The library's rule (the reference's): a search over k or d trains
        // on split% of the samples, and at least 5 must be left.
        const bool search = p.k == 0 || p.d == 0;
        const auto n_train = search && p.split_percent < 100
                                 ? static_cast<std::size_t>(static_cast<double>(sizes.size()) *
                                                            (static_cast<double>(p.split_percent) / 100.0))
                                 : sizes.size();
        if (dict.error() == errc::dictionary_invalid && n_train < 5)
            why = std::to_string(n_train) + " samples to train on (split=" + std::to_string(p.split_percent) + "% of " +
                  std::to_string(sizes.size()) + "), at least 5 are needed";
        else if (dict.error() == errc::dictionary_invalid)
            why = "too small samples (" + std::to_string(samples.size()) +
                  " bytes in all; about 100 times --maxdict works best)";
        else if (dict.error() == errc::invalid_argument)
            why = "training parameters out of range (--maxdict at least 256; k 16..2048, d 6 or 8, f 10..26, "
                  "split 1..100, accel 1..10)";
        print_error("dictionary training failed", why);
        return 1;
    }
    const std::string out = o.output.value_or("dictionary");
    std::FILE* f = std::fopen(out.c_str(), "wb");
    if (!f) {
        print_error(out, std::strerror(errno));
        return 1;
    }
    const bool written = std::fwrite(dict->data(), 1, dict->size(), f) == dict->size();
    const int saved = errno;
    if (std::fclose(f) != 0 || !written) {
        print_error(out, std::strerror(written ? errno : saved));
        std::remove(out.c_str());
        return 1;
    }
    print_info(2, "Save dictionary of size " + std::to_string(dict->size()) + " into file " + out + " (k=" +
                      std::to_string(used.k) + ", d=" + std::to_string(used.d) + ")");
    return 0;
}

int run(const options& o) {
    if (o.show_help) {
        std::fputs(usage_text(), stdout);
        return 0;
    }
    if (o.show_version) {
        // zstd's forms: a banner, or just the number with -q.
        if (display_level < 2)
            std::printf("%s\n", version_string());
        else
            std::printf("*** zest CLI (%d-bit) v%s, a Zstandard implementation ***\n",
                        static_cast<int>(sizeof(void*) * 8), version_string());
        if (display_level >= 3) std::printf("*** supports: %s\n", built_in_format_list().c_str());  // as zstd -vV
        return 0;
    }
    print_info(3, std::string("*** zest CLI (") + std::to_string(sizeof(void*) * 8) + "-bit) v" + version_string() +
                      ", a Zstandard implementation ***");  // zstd -v starts with its banner
    // zstd's warnings on the command line (level capped), which -q silences.
    for (const std::string& w : o.warnings) print_info(2, w);

    // As zstd: benchmarks measure Zstandard only, and say so rather than
    // measure something else than asked.
    if (o.op == operation::bench && o.format != data_format::zstd) {
        print_error(std::string("--format=") + std::string(format_name(o.format)),
                    "benchmark mode is only compatible with zstd format");
        return 1;
    }

    // -D: the dictionary, read and checked before any output is created.
    // It must be a regular file (a pipe, /proc/self/fd/0 or a directory is
    // refused), with zstd's statuses, which scripts can tell apart: 31 when
    // it cannot be found (stat fails), 32 when it is not a regular file, 33
    // when it cannot be opened or read, 11 when it is not a usable
    // dictionary; -b, as zstd's benchmark, exits 1.
    dictionary dict;
    std::optional<std::pair<dev_t, ino_t>> dict_file;
    if (o.dictionary && o.op != operation::list) {
        const bool bench = o.op == operation::bench;
        const std::string& name = *o.dictionary;
        struct stat st {};
        if (name != "-" && ::stat(name.c_str(), &st) != 0) {
            print_error(name, std::strerror(errno));
            return bench ? 1 : 31;
        }
        const auto not_regular = [&] {
            print_error(name, "a dictionary must be a regular file (not a directory, a pipe or a device)");
            return bench ? 1 : 32;
        };
        if (name != "-" && !S_ISREG(st.st_mode)) return not_regular();
        try {
            const input_file in = open_input(name, false);
            if (!S_ISREG(in.st.st_mode)) return not_regular();  // standard input, or replaced since
            if (!in.is_stdin) dict_file.emplace(in.st.st_dev, in.st.st_ino);
            const std::vector<std::byte> bytes = read_all(in);
            auto d = dictionary::load(bytes);
            if (!d) {  // zstd fails to set up its context with it: status 11
                print_error(*o.dictionary, std::string("not a usable dictionary: ") + error_message(d.error()));
                return bench ? 1 : 11;
            }
            dict = std::move(*d);
        } catch (const file_error& e) {
            print_error(e.subject(), e.what());
            return bench ? 1 : 33;
        }
    }
    input_list inputs = collect_inputs(o);
    if (inputs.abort) return 1;
    if (inputs.names.empty() && inputs.dropped > 0) return 1;  // nothing left to do, as zstd
    const int collect_status = inputs.failed ? 1 : 0;
    if (o.op == operation::list) return std::max(list_files(inputs.names), collect_status);
    if (o.op == operation::train) return std::max(train(o, inputs.names), collect_status);  // none: status 14
    if (o.op == operation::bench) {
        bench_settings b;
        b.first_level = o.level;
        b.last_level = std::max(o.level, o.bench_last_level.value_or(o.level));
        b.min_seconds = o.bench_seconds;
        b.checksum = o.checksum;
        b.params = o.zstd_params.match(o.long_distance, o.long_window_log);
        b.dict = dict;
        b.decode_only = o.bench_decode_only;
        b.max_window_log = o.max_window_log;
        return std::max(run_bench(inputs.names, b), collect_status);
    }
    if (inputs.names.empty()) {
        if (o.recursive) return collect_status;  // only empty directories
        inputs.names.emplace_back("-");
    }
    // zstd's rule: writing to stdout lowers the default level, so that
    // messages don't mix with data shown on a terminal.
    const bool stdout_output = writes_to_stdout(o, inputs.names);
    if (stdout_output && display_level == 2) display_level = 1;
    if (o.show_default_cparams && o.op == operation::compress) show_default_parameters(inputs.names, o.level);

    codec_settings cs;
    cs.level = o.level;
    if (o.op == operation::compress)  // checked by the parser then
        cs.params = o.zstd_params.match(o.long_distance, o.long_window_log);
    cs.checksum = o.checksum;
    cs.content_size = o.content_size;
    // -T0: a worker per core (physical, unless --auto-threads=logical);
    // --single-thread: all on the main thread.
    cs.workers = o.single_thread ? 0 : o.threads;
    if (!o.single_thread && o.threads == 0) {
        cs.workers = o.logical_cores ? logical_cores() : physical_cores();
        if (o.op == operation::compress)
            print_info(3, "Note: " + std::to_string(cs.workers) + (o.logical_cores ? " logical" : " physical") +
                              " core(s) detected");
    }
    cs.job_size = o.job_size;
    cs.rsyncable = o.rsyncable;
    cs.overlap_log = o.zstd_params[setting::overlap_log];
    // zstd's rule: with -f, data that is not compressed passes through to
    // standard output as it is (like zcat -f).
    cs.pass_through = o.op == operation::decompress && o.pass_through.value_or(o.force && stdout_output);
    cs.max_window_log = o.max_window_log;
    cs.stream_size = o.stream_size;
    cs.size_hint = o.size_hint;
    cs.format = o.format;
    cs.dict = dict;
    cs.dict_id = o.dict_id;
    cs.dict_file = dict_file;
    codec c(cs);
    install_signal_handlers();
    return std::max(process_files(o, c, inputs.names), collect_status);
}

}  // namespace
}  // namespace zest::cli

int main(int argc, char** argv) {
    using namespace zest::cli;
    // Output reaching the file-size limit (ulimit -f) is an error like a
    // full disk: write() fails with EFBIG and the output is removed, instead
    // of SIGXFSZ killing the process and leaving it half written (zstd 1.5.4).
    std::signal(SIGXFSZ, SIG_IGN);
    const parse_result parsed =
        parse_arguments(std::span<char* const>(argv + 1, static_cast<std::size_t>(argc > 0 ? argc - 1 : 0)),
                        argc > 0 ? argv[0] : "zest");
    if (!parsed.error.empty()) {
        print_error(parsed.error);
        if (parsed.status == 1) std::fputs("Try 'zest --help' for more information.\n", stderr);
        return parsed.status;
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
