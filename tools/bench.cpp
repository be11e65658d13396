#include "bench.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
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

}  // namespace

int run_bench(const std::vector<std::string>& files, const bench_settings& s) {
    std::vector<std::byte> sample;
    std::string label;
    if (files.empty()) {
        sample = synthetic_sample(10'000'000);
        label = "Synthetic 50%";
    } else {
        for (const std::string& name : files) {
            try {
                const input_file in = open_input(name, false);
                const std::vector<std::byte> data = read_all(in);
                sample.insert(sample.end(), data.begin(), data.end());
            } catch (const file_error& e) {
                print_error(e.subject(), e.what());
                return 1;
            }
        }
        label = files.size() == 1 ? files.front() : std::to_string(files.size()) + " files";
        const std::size_t slash = label.rfind('/');
        if (files.size() == 1 && slash != std::string::npos) label = label.substr(slash + 1);
    }
    if (display_level >= 3)
        std::fprintf(stderr, "bench %s : input %zu bytes, %u seconds per level\n", version_string(), sample.size(),
                     s.min_seconds);
    else if (display_level == 1)  // zstd -q's header for its one-line results
        std::printf("bench %s : input %zu bytes, %u seconds, 0 KB blocks\n", version_string(), sample.size(),
                    s.min_seconds);

    compressor enc;
    enc.set_checksum(s.checksum);
    if (!enc.set_parameters(s.params)) {
        print_error("--zstd", "parameter out of bounds");
        return 1;
    }
    enc.set_dictionary(s.dict);
    decompressor dec;
    dec.set_dictionary(s.dict);
    std::vector<std::byte> packed(compress_bound(sample.size()));
    std::vector<std::byte> restored(sample.size() + 1);
    int status = 0;
    for (int level = s.first_level; level <= s.last_level; ++level) {
        enc.set_level(level);
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
        const double ratio = csize ? static_cast<double>(sample.size()) / static_cast<double>(csize) : 0.0;
        const double cspeed = static_cast<double>(sample.size()) / 1e6 / ctime;
        const double dspeed = static_cast<double>(sample.size()) / 1e6 / dtime;
        // zstd's result lines (-qq: none); fewer decimals for larger figures.
        if (display_level >= 2)
            std::printf("%2d#%-17.17s :%10zu ->%10zu (x%5.*f), %6.*f MB/s, %6.1f MB/s\n", level, label.c_str(),
                        sample.size(), csize, ratio < 10 ? 3 : 2, ratio, cspeed < 10 ? 2 : 1, cspeed, dspeed);
        else if (display_level == 1)
            std::printf("-%-3d%11zu (%5.3f) %6.2f MB/s %6.1f MB/s  %s\n", level, csize, ratio, cspeed, dspeed,
                        label.c_str());
        std::fflush(stdout);
    }
    return status;
}

}  // namespace zest::cli
