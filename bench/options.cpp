#include "options.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string_view>

#include <zstd.h>

namespace zest_bench {
namespace {

template <class Int>
bool parse_int(std::string_view s, Int& out) {
    const auto* end = s.data() + s.size();
    const auto [p, ec] = std::from_chars(s.data(), end, out);
    return ec == std::errc{} && p == end;
}

// Accepts 65536, 64K, 64KiB, 4M, 4MiB, 1G (binary multiples).
bool parse_size(std::string_view s, std::size_t& out) {
    std::size_t digits = 0;
    while (digits < s.size() && s[digits] >= '0' && s[digits] <= '9') ++digits;
    std::uint64_t n = 0;
    if (digits == 0 || !parse_int(s.substr(0, digits), n)) return false;
    std::string_view unit = s.substr(digits);
    unsigned shift = 0;
    if (unit.empty() || unit == "B") shift = 0;
    else if (unit == "K" || unit == "k" || unit == "KiB") shift = 10;
    else if (unit == "M" || unit == "MiB") shift = 20;
    else if (unit == "G" || unit == "GiB") shift = 30;
    else return false;
    if (n > (std::numeric_limits<std::uint64_t>::max() >> shift)) return false;
    out = static_cast<std::size_t>(n << shift);
    return true;
}

bool parse_levels(std::string_view s, std::vector<int>& out) {
    out.clear();
    while (true) {
        const auto comma = s.find(',');
        int level = 0;
        if (!parse_int(s.substr(0, comma), level)) return false;
        if (level < ZSTD_minCLevel() || level > ZSTD_maxCLevel() || level == 0) return false;
        out.push_back(level);
        if (comma == std::string_view::npos) return true;
        s.remove_prefix(comma + 1);
    }
}

}  // namespace

std::string usage(const std::vector<std::string>& set_names) {
    std::string sets, quick;
    for (const auto& n : set_names) sets += (sets.empty() ? "" : ", ") + n;
    for (const auto& n : default_run.sets) quick += (quick.empty() ? "" : ", ") + n;
    const auto mib = [](std::size_t n) { return std::to_string(n >> 20) + "M"; };
    const auto num = [](double v) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%g", v);
        return std::string(buf);
    };
    return "usage: zest-bench [options] [SET...] [FILE...]\n"
           "\n"
           "Measures zest against the system libzstd, side by side in one process (another\n"
           "libzstd.so.1 through LD_LIBRARY_PATH; the header and --json name the version loaded).\n"
           "Prints a summary of zest's speed-ups first, then a table per set; progress goes to\n"
           "stderr while it runs.\n"
           "Workload sets: " + sets + ".\n"
           "The default run (about two minutes) measures " + quick + ",\n"
           "with -r " + std::to_string(default_run.rounds) + " -s " + mib(default_run.size) +
           " --max-case-seconds " + num(default_run.max_case_seconds) + ". --full measures every set, with -r " +
           std::to_string(full_run.rounds) + " -s " + mib(full_run.size) + "\n"
           "--max-case-seconds " + num(full_run.max_case_seconds) +
           " (about five minutes). Options given override either run's settings.\n"
           "Files replace the built-in generated data (write ./NAME for a file named like a set).\n"
           "\n"
           "      --full           every set, at the sizes and rounds of the published figures\n"
           "  -r, --rounds N       timed rounds per side, alternating zest and libzstd\n"
           "  -s, --size BYTES     size of each generated corpus input (columnar columns are\n"
           "                       twice this); K, M, G suffixes\n"
           "  -l, --levels L,L,..  corpus and stream levels, for both compression and the frames\n"
           "                       decoded (default 1,3,19)\n"
           "      --min-round-ms T each round repeats the call for at least T ms (default 20)\n"
           "      --max-case-seconds T\n"
           "                       a case still running after T s of real time stops after\n"
           "                       its third round (calls of seconds each); 0: never\n"
           "      --clock cpu|wall time rounds by this thread's CPU time (default: time spent\n"
           "                       descheduled on a busy machine does not count) or by real time\n"
           "  -p, --pin CPU        pin the process to one CPU\n"
           "      --json FILE      write every round's raw timings to FILE\n"
           "      --only REGEX     run only the cases whose \"set/case\" name REGEX finds, in every\n"
           "                       set unless sets are named (others run once, untimed, when\n"
           "                       later cases need their frames)\n"
           "      --list           print the cases that would run, and exit\n"
           "  -q, --quiet          no progress on stderr\n"
           "  -h, --help           this text\n"
           "\n"
           "Every row states its unit: MB/s (10^6 bytes per second of uncompressed data) or\n"
           "ns per call. Each side's figure is the median of its rounds; zest/libzstd is\n"
           "zest's speed-up (above 1: zest is faster). n/a marks work a side cannot do yet.\n"
           "Exit status: 0 success, 1 bad arguments or unreadable input, 2 zest failed or\n"
           "mismatched on some case.\n";
}

std::optional<std::string> parse_options(int argc, char** argv, const std::vector<std::string>& set_names,
                                         options& out) {
    bool only_positional = false;
    for (int i = 1; i < argc; ++i) {
        std::string_view arg = argv[i];
        if (only_positional || arg.empty() || arg[0] != '-' || arg == "-") {
            bool is_set = false;
            for (const auto& n : set_names) is_set = is_set || n == arg;
            (is_set ? out.sets : out.files).emplace_back(arg);
            continue;
        }
        if (arg == "--") {
            only_positional = true;
            continue;
        }
        // Split "--opt=value" and "-lVALUE"; other options take the next word.
        std::string_view name = arg, inline_value;
        bool has_inline = false;
        if (arg.starts_with("--")) {
            if (const auto eq = arg.find('='); eq != std::string_view::npos) {
                name = arg.substr(0, eq), inline_value = arg.substr(eq + 1), has_inline = true;
            }
        } else if (arg.size() > 2) {
            name = arg.substr(0, 2), inline_value = arg.substr(2), has_inline = true;
        }
        const auto flag = [&](std::string_view s, std::string_view l) { return name == s || name == l; };
        if (flag("-h", "--help") || flag("--list", "--list") || flag("--full", "--full") || flag("-q", "--quiet")) {
            if (has_inline) return "option " + std::string(name) + " takes no value";
            (name == "--list" ? out.list : name == "--full" ? out.full : flag("-q", "--quiet") ? out.quiet : out.help) =
                true;
            continue;
        }
        std::string_view value;
        if (has_inline) {
            value = inline_value;
        } else if (i + 1 < argc) {
            value = argv[++i];
        } else {
            return "option " + std::string(name) + " needs a value";
        }
        const std::string bad = "bad value for " + std::string(name) + ": '" + std::string(value) + "'";
        if (flag("-r", "--rounds")) {
            if (!parse_int(value, out.rounds) || out.rounds < 1 || out.rounds > 100000) return bad;
            out.rounds_given = true;
        } else if (flag("-s", "--size")) {
            if (!parse_size(value, out.size) || out.size < 1 || out.size > (std::size_t{1} << 32))
                return bad + " (1 byte to 4 GiB)";
            out.size_given = true;
        } else if (flag("-l", "--levels")) {
            if (!parse_levels(value, out.levels))
                return bad + " (comma-separated levels, " + std::to_string(ZSTD_minCLevel()) + ".." +
                       std::to_string(ZSTD_maxCLevel()) + ", not 0)";
        } else if (flag("--min-round-ms", "--min-round-ms")) {
            double ms = 0;
            const auto* end = value.data() + value.size();
            const auto [p, ec] = std::from_chars(value.data(), end, ms);
            if (ec != std::errc{} || p != end || !(ms > 0) || ms > 60000) return bad;
            out.min_round_seconds = ms / 1000.0;
        } else if (flag("--max-case-seconds", "--max-case-seconds")) {
            double t = -1;
            const auto* end = value.data() + value.size();
            const auto [p, ec] = std::from_chars(value.data(), end, t);
            if (ec != std::errc{} || p != end || !(t >= 0) || t > 86400) return bad;
            out.max_case_seconds = t;
            out.max_case_given = true;
        } else if (flag("--clock", "--clock")) {
            if (value == "cpu") out.clock = clock_kind::cpu;
            else if (value == "wall") out.clock = clock_kind::wall;
            else return bad + " (cpu or wall)";
        } else if (flag("-p", "--pin")) {
            int cpu = -1;
            if (!parse_int(value, cpu) || cpu < 0) return bad;
            out.pin_cpu = cpu;
        } else if (flag("--json", "--json")) {
            if (value.empty()) return bad;
            out.json_path = value;
        } else if (flag("--only", "--only")) {
            if (value.empty()) return bad;
            try {
                out.only_re.emplace(std::string(value), std::regex::extended);
            } catch (const std::regex_error& e) {
                return "--only: bad regular expression: " + std::string(e.what());
            }
            out.only = value;
        } else {
            return "unknown option " + std::string(arg);
        }
    }
    const run_profile& p = out.full ? full_run : default_run;
    if (!out.rounds_given) out.rounds = p.rounds;
    if (!out.size_given) out.size = p.size;
    if (!out.max_case_given) out.max_case_seconds = p.max_case_seconds;
    return std::nullopt;
}

}  // namespace zest_bench
