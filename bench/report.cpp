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

void report::begin_table(const std::string& title, const std::vector<std::string>& case_names) {
    name_width_ = 4;
    for (const auto& n : case_names) name_width_ = std::max(name_width_, static_cast<int>(n.size()));
    std::fprintf(out_, "\n%s\n", title.c_str());
    std::fprintf(out_, "%-*s  %10s  %7s  %12s  %12s  %12s\n", name_width_, "case", "size", "c.ratio", "libzstd MB/s",
                 "zest MB/s", "zest/libzstd");
    std::fflush(out_);
}

void report::add(case_result r) {
    const auto* ref = find_side(r.m, "libzstd");
    const auto* mine = find_side(r.m, "zest");
    const auto mbps = [](const side_summary* s) {
        char buf[32];
        if (!s || !s->ok()) return std::string("n/a");
        std::snprintf(buf, sizeof buf, "%.1f", s->median_mbps);
        return std::string(buf);
    };
    std::string ratio = "n/a";
    if (ref && mine && ref->ok() && mine->ok() && ref->median_mbps > 0) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.3f", mine->median_mbps / ref->median_mbps);
        ratio = buf;
    }
    char cratio[32] = "n/a";
    if (r.info.compressed_bytes)
        std::snprintf(cratio, sizeof cratio, "%.2fx",
                      static_cast<double>(r.info.input_bytes) / static_cast<double>(r.info.compressed_bytes));
    std::fprintf(out_, "%-*s  %10s  %7s  %12s  %12s  %12s\n", name_width_, r.info.name.c_str(),
                 human_size(r.info.input_bytes).c_str(), cratio, mbps(ref).c_str(), mbps(mine).c_str(),
                 ratio.c_str());
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
        if (!s || !s->ok()) return true;
    }
    return false;
}

bool report::write_json(std::FILE* f, const run_meta& meta) const {
    std::fprintf(f, "{\n  \"tool\": \"zest-bench\",\n  \"zest_version\": %s,\n  \"libzstd_version\": %s,\n",
                 json_string(meta.zest_version).c_str(), json_string(meta.libzstd_version).c_str());
    std::fprintf(f, "  \"zest_cpu_env\": %s,\n  \"rounds\": %u,\n  \"min_round_seconds\": %.6f,\n",
                 meta.zest_cpu_env.empty() ? "null" : json_string(meta.zest_cpu_env).c_str(), meta.rounds,
                 meta.min_round_seconds);
    std::fprintf(f, "  \"clock\": \"%s\",\n", meta.clock == clock_kind::cpu ? "thread_cpu_time" : "wall");
    if (meta.pinned_cpu >= 0) std::fprintf(f, "  \"pinned_cpu\": %d,\n", meta.pinned_cpu);
    else std::fprintf(f, "  \"pinned_cpu\": null,\n");
    std::fprintf(f, "  \"unit\": \"MB/s = 1e6 uncompressed bytes per second of the chosen clock\",\n  \"cases\": [");
    for (std::size_t c = 0; c < results_.size(); ++c) {
        const auto& r = results_[c];
        std::fprintf(f, "%s\n    {\"set\": %s, \"case\": %s, \"operation\": %s, \"level\": %d,\n", c ? "," : "",
                     json_string(r.info.set).c_str(), json_string(r.info.name).c_str(),
                     json_string(r.info.operation).c_str(), r.info.level);
        std::fprintf(f, "     \"input_bytes\": %zu, \"compressed_bytes\": %zu,\n     \"sides\": [", r.info.input_bytes,
                     r.info.compressed_bytes);
        for (std::size_t i = 0; i < r.m.sides.size(); ++i) {
            const auto& s = r.m.sides[i];
            std::fprintf(f, "%s\n       {\"name\": %s, \"ok\": %s, \"failure\": %s, \"batch\": %" PRIu64
                            ", \"median_mbps\": ",
                         i ? "," : "", json_string(s.name).c_str(), s.ok() ? "true" : "false",
                         s.ok() ? "null" : json_string(s.failure).c_str(), s.batch);
            if (s.ok()) std::fprintf(f, "%.3f}", s.median_mbps);
            else std::fprintf(f, "null}");
        }
        std::fprintf(f, "],\n     \"rounds\": [");
        for (std::size_t i = 0; i < r.m.rounds.size(); ++i) {
            const auto& s = r.m.rounds[i];
            std::fprintf(f,
                         "%s\n       {\"side\": %s, \"reps\": %" PRIu64
                         ", \"cpu_seconds\": %.9f, \"wall_seconds\": %.9f, \"mbps\": %.3f}",
                         i ? "," : "", json_string(r.m.sides[s.side].name).c_str(), s.reps, s.cpu_seconds,
                         s.wall_seconds,
                         static_cast<double>(s.reps) * static_cast<double>(r.info.input_bytes) /
                             s.seconds(r.m.clock) / 1e6);
        }
        std::fprintf(f, "]}");
    }
    std::fprintf(f, "\n  ]\n}\n");
    return std::fflush(f) == 0 && !std::ferror(f);
}

}  // namespace zest_bench
