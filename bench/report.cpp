#include "report.hpp"

#include <algorithm>
#include <cinttypes>

namespace zest_bench {
namespace {

const side_summary* find_side(const measurement& m, const std::string& name) {
    for (const auto& s : m.sides)
        if (s.name == name) return &s;
    return nullptr;
}

std::string json_string(const std::string& s) {
    std::string out = "\"";
    for (const unsigned char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
        } else {
            out += static_cast<char>(c);
        }
    }
    return out + "\"";
}

}  // namespace

std::string human_size(std::size_t n) {
    char buf[32];
    const auto d = static_cast<double>(n);
    if (n < 1024) std::snprintf(buf, sizeof buf, "%zu B", n);
    else if (n < (std::size_t{1} << 20)) std::snprintf(buf, sizeof buf, "%.1f KiB", d / 1024);
    else if (n < (std::size_t{1} << 30)) std::snprintf(buf, sizeof buf, "%.2f MiB", d / (1 << 20));
    else std::snprintf(buf, sizeof buf, "%.2f GiB", d / (1 << 30));
    return buf;
}

namespace {

std::string format(const char* fmt, double v) {
    char buf[48];
    std::snprintf(buf, sizeof buf, fmt, v);
    return buf;
}

// A side's speed in the row's unit, or n/a.
std::string speed(const side_summary* s, unit u) {
    if (!s || !s->ok()) return "n/a";
    if (u == unit::mbps) return format("%.1f", s->median_mbps);
    return format(s->median_ns < 100 ? "%.1f" : "%.0f", s->median_ns);
}

std::string ratio_of(std::size_t input, std::size_t output) {
    if (input == 0 || output == 0) return "n/a";
    return format("%.2fx", static_cast<double>(input) / static_cast<double>(output));
}

}  // namespace

void report::begin_table(const std::string& title, const std::vector<std::string>& case_names) {
    name_width_ = 4;
    for (const auto& n : case_names) name_width_ = std::max(name_width_, static_cast<int>(n.size()));
    std::fprintf(out_, "\n%s\n", title.c_str());
    std::fprintf(out_, "%-*s  %10s  %7s  %10s  %10s  %12s  %9s  %9s\n", name_width_, "case", "size", "unit", "libzstd",
                 "zest", "zest/libzstd", "ratio lib", "ratio zest");
    std::fflush(out_);
}

void report::add(case_result r) {
    if (r.m.skipped) return;
    const auto* ref = find_side(r.m, "libzstd");
    const auto* mine = find_side(r.m, "zest");
    const unit u = r.info.speed_unit;
    // Speed-up of zest over libzstd, above 1 when zest is faster, in either unit.
    std::string speedup = "n/a";
    if (ref && mine && ref->ok() && mine->ok()) {
        const double x = u == unit::mbps ? (ref->median_mbps > 0 ? mine->median_mbps / ref->median_mbps : 0)
                                         : (mine->median_ns > 0 ? ref->median_ns / mine->median_ns : 0);
        if (x > 0) speedup = format("%.3f", x);
    }
    // Ratios: compression rows show each side's own (training rows: the
    // held-out messages' with each side's dictionary); decompression rows
    // show the frame both sides decode (zest's column says "same").
    std::string ratio_lib = "-", ratio_zest = "-";
    if (r.info.operation == "compress" || r.info.operation == "train") {
        ratio_lib = ratio_of(r.info.input_bytes, r.info.compressed_bytes);
        ratio_zest = ratio_of(r.info.input_bytes, r.info.zest_compressed_bytes);
    } else if (r.info.operation == "decompress") {
        ratio_lib = ratio_of(r.info.input_bytes, r.info.compressed_bytes);
        ratio_zest = "same";
    }
    std::string name = r.info.name;
    unsigned fewest = 0;
    for (const auto& s : r.m.sides)
        if (s.ok()) fewest = fewest == 0 ? s.rounds : std::min(fewest, s.rounds);
    std::fprintf(out_, "%-*s  %10s  %7s  %10s  %10s  %12s  %9s  %9s", name_width_, name.c_str(),
                 r.info.input_bytes ? human_size(r.info.input_bytes).c_str() : "-",
                 u == unit::mbps ? "MB/s" : "ns/call", speed(ref, u).c_str(), speed(mine, u).c_str(), speedup.c_str(),
                 ratio_lib.c_str(), ratio_zest.c_str());
    if (fewest && fewest < rounds_) std::fprintf(out_, "  (%u rounds: slow calls)", fewest);
    std::fprintf(out_, "\n");
    std::fflush(out_);
    results_.push_back(std::move(r));
}

double report::busy_factor() const {
    double cpu = 0, wall = 0;
    for (const auto& r : results_)
        for (const auto& s : r.m.rounds) cpu += s.cpu_seconds, wall += s.wall_seconds;
    return cpu > 0 ? wall / cpu : 1.0;
}

bool report::any_failure(const std::string& side) const {
    for (const auto& r : results_) {
        const auto* s = find_side(r.m, side);
        if (!s || !s->failure.empty()) return true;
    }
    return false;
}

bool report::write_json(std::FILE* f, const run_meta& meta) const {
    std::fprintf(f, "{\n  \"tool\": \"zest-bench\",\n  \"zest_version\": %s,\n  \"libzstd_version\": %s,\n",
                 json_string(meta.zest_version).c_str(), json_string(meta.libzstd_version).c_str());
    std::fprintf(f, "  \"zest_cpu_env\": %s,\n  \"rounds\": %u,\n  \"min_round_seconds\": %.6f,\n",
                 meta.zest_cpu_env.empty() ? "null" : json_string(meta.zest_cpu_env).c_str(), meta.rounds,
                 meta.min_round_seconds);
    std::fprintf(f, "  \"max_case_seconds\": %.3f,\n", meta.max_case_seconds);
    std::fprintf(f, "  \"clock\": \"%s\",\n", meta.clock == clock_kind::cpu ? "thread_cpu_time" : "wall");
    if (meta.pinned_cpu >= 0) std::fprintf(f, "  \"pinned_cpu\": %d,\n", meta.pinned_cpu);
    else std::fprintf(f, "  \"pinned_cpu\": null,\n");
    std::fprintf(f, "  \"units\": {\"mbps\": \"1e6 uncompressed bytes per second of the chosen clock\", "
                    "\"ns\": \"nanoseconds of the chosen clock per call\"},\n  \"cases\": [");
    for (std::size_t c = 0; c < results_.size(); ++c) {
        const auto& r = results_[c];
        std::fprintf(f, "%s\n    {\"set\": %s, \"case\": %s, \"operation\": %s, \"level\": %d,\n", c ? "," : "",
                     json_string(r.info.set).c_str(), json_string(r.info.name).c_str(),
                     json_string(r.info.operation).c_str(), r.info.level);
        std::fprintf(f, "     \"unit\": \"%s\", \"input_bytes\": %zu, \"compressed_bytes\": %zu, ",
                     r.info.speed_unit == unit::mbps ? "mbps" : "ns", r.info.input_bytes, r.info.compressed_bytes);
        if ((r.info.operation == "compress" || r.info.operation == "train") && r.info.zest_compressed_bytes)
            std::fprintf(f, "\"zest_compressed_bytes\": %zu,\n     \"sides\": [", r.info.zest_compressed_bytes);
        else
            std::fprintf(f, "\"zest_compressed_bytes\": null,\n     \"sides\": [");
        for (std::size_t i = 0; i < r.m.sides.size(); ++i) {
            const auto& s = r.m.sides[i];
            std::fprintf(f,
                         "%s\n       {\"name\": %s, \"ok\": %s, \"failure\": %s, \"unavailable\": %s, "
                         "\"batch\": %" PRIu64 ", \"rounds\": %u, ",
                         i ? "," : "", json_string(s.name).c_str(), s.ok() ? "true" : "false",
                         s.failure.empty() ? "null" : json_string(s.failure).c_str(),
                         s.unavailable.empty() ? "null" : json_string(s.unavailable).c_str(), s.batch, s.rounds);
            if (s.ok()) std::fprintf(f, "\"median_mbps\": %.3f, \"median_ns\": %.3f}", s.median_mbps, s.median_ns);
            else std::fprintf(f, "\"median_mbps\": null, \"median_ns\": null}");
        }
        std::fprintf(f, "],\n     \"rounds\": [");
        for (std::size_t i = 0; i < r.m.rounds.size(); ++i) {
            const auto& s = r.m.rounds[i];
            std::fprintf(f,
                         "%s\n       {\"side\": %s, \"reps\": %" PRIu64
                         ", \"cpu_seconds\": %.9f, \"wall_seconds\": %.9f, \"mbps\": %.3f, \"ns\": %.3f}",
                         i ? "," : "", json_string(r.m.sides[s.side].name).c_str(), s.reps, s.cpu_seconds,
                         s.wall_seconds,
                         static_cast<double>(s.reps) * static_cast<double>(r.info.input_bytes) /
                             s.seconds(r.m.clock) / 1e6,
                         s.seconds(r.m.clock) * 1e9 / static_cast<double>(s.reps));
        }
        std::fprintf(f, "]}");
    }
    std::fprintf(f, "\n  ]\n}\n");
    return std::fflush(f) == 0 && !std::ferror(f);
}

}  // namespace zest_bench
