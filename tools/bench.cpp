#include "bench.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <optional>
#include <random>
#include <span>

#include "file_io.hpp"
#include "messages.hpp"
#include "zest/zest.hpp"

namespace zest::cli {

namespace {

using clock_type = std::chrono::steady_clock;

// About half compressible: runs copied from earlier in the sample, mixed with
// random letters (a stand-in for zstd's "Synthetic 50%" sample).
std::vector<std::byte> synthetic_sample(std::size_t size) {
    std::vector<std::byte> out(size);
    std::mt19937_64 rng(42);
    std::size_t pos = 0;
    while (pos < size) {
        const std::size_t len = std::min<std::size_t>(size - pos, 8 + rng() % 56);
        if (pos > 1024 && (rng() & 1)) {
            const std::size_t from = pos - 1 - rng() % std::min<std::size_t>(pos - 1, 32768);
            for (std::size_t i = 0; i < len; ++i) out[pos + i] = out[from + i];
        } else {
            for (std::size_t i = 0; i < len; ++i) out[pos + i] = static_cast<std::byte>('a' + rng() % 26);
        }
        pos += len;
    }
    return out;
}

// Runs `fn` repeatedly for at least `seconds` (once when 0); returns the
// fastest run in seconds.
template <class Fn>
double fastest(unsigned seconds, Fn&& fn) {
    const auto budget = std::chrono::seconds(seconds);
    const auto begin = clock_type::now();
    double best = 1e300;
    do {
        const auto t0 = clock_type::now();
        fn();
        best = std::min(best, std::chrono::duration<double>(clock_type::now() - t0).count());
    } while (clock_type::now() - begin < budget);
    return std::max(best, 1e-9);
}

// The name results are shown under: the file's (without its directory),
// or how many files.
std::string label_of(const std::vector<std::string>& files) {
    if (files.size() != 1) return std::to_string(files.size()) + " files";
    const std::size_t slash = files.front().rfind('/');
    return slash == std::string::npos ? files.front() : files.front().substr(slash + 1);
}

// zstd's result lines (-qq: none); fewer decimals for larger figures.
void print_result(int level, const std::string& label, std::size_t plain, std::size_t packed, double cspeed,
                  double dspeed) {
    const double ratio = packed ? static_cast<double>(plain) / static_cast<double>(packed) : 0.0;
    if (display_level >= 2)
        std::printf("%2d#%-17.17s :%10zu ->%10zu (x%5.*f), %6.*f MB/s, %6.1f MB/s\n", level, label.c_str(), plain,
                    packed, ratio < 10 ? 3 : 2, ratio, cspeed < 10 ? 2 : 1, cspeed, dspeed);
    else if (display_level == 1)
        std::printf("-%-3d%11zu (%5.3f) %6.2f MB/s %6.1f MB/s  %s\n", level, packed, ratio, cspeed, dspeed,
                    label.c_str());
    std::fflush(stdout);
}

// zstd -q's header for its one-line results, or -v's line.
void print_header(std::size_t input, unsigned seconds) {
    if (display_level >= 3)
        std::fprintf(stderr, "bench %s : input %zu bytes, %u seconds per level\n", version_string(), input, seconds);
    else if (display_level == 1)
        std::printf("bench %s : input %zu bytes, %u seconds, 0 KB blocks\n", version_string(), input, seconds);
}

// Reads every file into `data`, one after the other; false (reported) when one cannot be read.
bool load_files(const std::vector<std::string>& files, std::vector<std::vector<std::byte>>& data) {
    for (const std::string& name : files) {
        try {
            const input_file in = open_input(name, false);
            data.push_back(read_all(in));
        } catch (const file_error& e) {
            print_error(e.subject(), e.what());
            return false;
        }
    }
    return true;
}

int compress_bench(const std::vector<std::string>& files, const bench_settings& s) {
    std::vector<std::byte> sample;
    std::string label;
    if (files.empty()) {
        sample = synthetic_sample(10'000'000);
        label = "Synthetic 50%";
    } else {
        std::vector<std::vector<std::byte>> data;
        if (!load_files(files, data)) return 1;
        for (const auto& d : data) sample.insert(sample.end(), d.begin(), d.end());
        label = label_of(files);
    }
    print_header(sample.size(), s.min_seconds);

    compressor enc;
    (void)enc.set_checksum(s.checksum);
    if (!enc.set_parameters(s.params)) {
        print_error("--zstd", "parameter out of bounds");
        return 1;
    }
    (void)enc.set_dictionary(s.dict);
    decompressor dec;
    dec.set_dictionary(s.dict);
    std::vector<std::byte> packed(compress_bound(sample.size()));
    std::vector<std::byte> restored(sample.size() + 1);
    int status = 0;
    for (int level = s.first_level; level <= s.last_level; ++level) {
        (void)enc.set_level(level);
        std::size_t csize = 0;
        bool ok = true;
        const double ctime = fastest(s.min_seconds, [&] {
            const auto r = enc.compress(std::span<std::byte>(packed), std::span<const std::byte>(sample));
            if (r) csize = *r; else ok = false;
        });
        std::size_t dsize = 0;
        const double dtime = ok ? fastest(s.min_seconds, [&] {
            const auto r = dec.decompress(std::span<std::byte>(restored),
                                          std::span<const std::byte>(packed.data(), csize));
            if (r) dsize = *r; else ok = false;
        }) : 1.0;
        if (!ok || dsize != sample.size() || std::memcmp(restored.data(), sample.data(), dsize) != 0) {
            print_error(label, "benchmark round trip failed at level " + std::to_string(level));
            status = 1;
            continue;
        }
        print_result(level, label, sample.size(), csize, static_cast<double>(sample.size()) / 1e6 / ctime,
                     static_cast<double>(sample.size()) / 1e6 / dtime);
    }
    return status;
}

// zstd -b -d: the files hold frames already; only their decompression is
// timed, each file decoded whole into its place. As zstd, every frame must
// declare its size (the output is allocated up front), and nothing but
// Zstandard and skippable frames is accepted. Nothing is written.
int decode_bench(const std::vector<std::string>& files, const bench_settings& s) {
    if (files.empty()) {
        print_error("-b -d", "needs compressed files (the synthetic sample is not compressed)");
        return 1;
    }
    std::vector<std::vector<std::byte>> data;
    if (!load_files(files, data)) return 1;
    std::vector<std::size_t> plain(files.size());
    std::size_t packed_total = 0, plain_total = 0;
    for (std::size_t i = 0; i < files.size(); ++i) {
        std::span<const std::byte> rest(data[i]);
        std::uint64_t total = 0;
        while (!rest.empty()) {
            const auto size = frame_content_size(rest);
            const auto length = find_frame_compressed_size(rest);
            if (!size || !length) {
                print_error(files[i], "not Zstandard frames (data may be invalid): cannot benchmark its decompression");
                return 1;
            }
            if (!*size) {
                print_error(files[i],
                            "a frame does not declare its decompressed size: cannot benchmark its decompression");
                return 1;
            }
            total += **size;
            rest = rest.subspan(*length);
        }
        if (total > SIZE_MAX - plain_total) {
            print_error(files[i], "decompressed size too large for this system");
            return 1;
        }
        plain[i] = static_cast<std::size_t>(total);
        plain_total += plain[i];
        packed_total += data[i].size();
    }
    if (packed_total == 0) {
        print_error(label_of(files), "no data to benchmark");
        return 1;
    }
    const std::string label = label_of(files);
    print_header(packed_total, s.min_seconds);
    decompressor dec;
    dec.set_dictionary(s.dict);
    (void)dec.set_max_window_log(s.max_window_log);
    std::vector<std::byte> out(std::max<std::size_t>(plain_total, 1));
    // Each file decoded whole into its place; the first error, if any.
    const auto decode_all = [&]() -> std::optional<std::pair<std::size_t, errc>> {
        std::size_t at = 0;
        for (std::size_t i = 0; i < files.size(); ++i) {
            const auto r = dec.decompress(std::span<std::byte>(out.data() + at, plain[i]),
                                          std::span<const std::byte>(data[i]));
            if (!r) return std::pair(i, r.error());
            if (*r != plain[i]) return std::pair(i, errc::content_size_mismatch);
            at += plain[i];
        }
        return std::nullopt;
    };
    if (const auto failure = decode_all()) {  // checked once, before timing
        print_error(files[failure->first], std::string("decompression failed: ") + error_message(failure->second));
        return 1;
    }
    const double dtime = fastest(s.min_seconds, [&] { (void)decode_all(); });
    // zstd's line for a decode-only run: level 0, no compression speed.
    print_result(0, label, plain_total, packed_total, 0.0, static_cast<double>(plain_total) / 1e6 / dtime);
    return 0;
}

}  // namespace

int run_bench(const std::vector<std::string>& files, const bench_settings& s) {
    return s.decode_only ? decode_bench(files, s) : compress_bench(files, s);
}

}  // namespace zest::cli
