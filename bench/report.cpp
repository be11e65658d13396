#include "report.hpp"

#include <algorithm>
#include <cinttypes>
#include <cmath>

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

namespace {

// printf into a string, for the tables that are printed at the end.
template <class... Args>
void appendf(std::string& out, const char* fmt, Args... args) {
    char buf[512];
    const int n = std::snprintf(buf, sizeof buf, fmt, args...);
    if (n < 0) return;
    if (static_cast<std::size_t>(n) < sizeof buf) {
        out.append(buf, static_cast<std::size_t>(n));
        return;
    }
    std::string big(static_cast<std::size_t>(n) + 1, '\0');
    std::snprintf(big.data(), big.size(), fmt, args...);
    out.append(big.data(), static_cast<std::size_t>(n));
}

bool ends_with(const std::string& s, const char* tail) { return s.ends_with(tail); }

}  // namespace

double speedup(const case_result& r) {
    const auto* ref = find_side(r.m, "libzstd");
    const auto* mine = find_side(r.m, "zest");
    if (!ref || !mine || !ref->ok() || !mine->ok()) return 0;
    if (r.info.speed_unit == unit::mbps) return ref->median_mbps > 0 ? mine->median_mbps / ref->median_mbps : 0;
    return mine->median_ns > 0 ? ref->median_ns / mine->median_ns : 0;
}

std::string summary_group(const case_info& info) {
    if (info.operation == "context") return "create + free";
    if (info.operation == "train") return "dictionary training";
    // A context per message and a reused one are different stories (the
    // first is mostly set-up cost): a mean over both would tell neither.
    if (ends_with(info.name, "-reused")) return info.operation + ", reused context";
    if (ends_with(info.name, "-oneshot") || ends_with(info.name, "-newctx")) return info.operation + ", new context";
    return info.operation;
}

void report::begin_table(const std::string& title, const std::vector<std::string>& case_names) {
    name_width_ = 4;
    for (const auto& n : case_names) name_width_ = std::max(name_width_, static_cast<int>(n.size()));
    pending_title_ = title;
}

void report::add(case_result r) {
    if (r.m.skipped) return;
    if (!pending_title_.empty()) {
        appendf(tables_, "\n%s\n", pending_title_.c_str());
        appendf(tables_, "%-*s  %10s  %7s  %10s  %10s  %12s  %9s  %9s\n", name_width_, "case", "size", "unit",
                "libzstd", "zest", "zest/libzstd", "ratio lib", "ratio zest");
        pending_title_.clear();
    }
    const auto* ref = find_side(r.m, "libzstd");
    const auto* mine = find_side(r.m, "zest");
    const unit u = r.info.speed_unit;
    const double x = speedup(r);
    const std::string speedup_text = x > 0 ? format("%.3f", x) : "n/a";
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
    unsigned fewest = 0;
    for (const auto& s : r.m.sides)
        if (s.ok()) fewest = fewest == 0 ? s.rounds : std::min(fewest, s.rounds);
    appendf(tables_, "%-*s  %10s  %7s  %10s  %10s  %12s  %9s  %9s", name_width_, r.info.name.c_str(),
            r.info.input_bytes ? human_size(r.info.input_bytes).c_str() : "-", u == unit::mbps ? "MB/s" : "ns/call",
            speed(ref, u).c_str(), speed(mine, u).c_str(), speedup_text.c_str(), ratio_lib.c_str(),
            ratio_zest.c_str());
    if (fewest && fewest < rounds_) appendf(tables_, "  (%u rounds: slow calls)", fewest);
    tables_ += '\n';
    results_.push_back(std::move(r));
}

void report::print_tables(std::FILE* f) const { std::fputs(tables_.c_str(), f); }

void report::print_summary(std::FILE* f, const std::string& versus) const {
    struct group {
        std::string set, kind;
        unsigned n = 0;
        double log_sum = 0;
        double low = 0, high = 0;
        std::string low_name, high_name;
    };
    std::vector<group> groups;
    std::size_t unmeasured = 0;
    for (const auto& r : results_) {
        const double x = speedup(r);
        if (!(x > 0)) {
            ++unmeasured;
            continue;
        }
        const std::string kind = summary_group(r.info);
        auto g = std::find_if(groups.begin(), groups.end(),
                              [&](const group& e) { return e.set == r.info.set && e.kind == kind; });
        if (g == groups.end()) {
            g = groups.insert(groups.end(), group{});
            g->set = r.info.set, g->kind = kind;
        }
        if (g->n == 0 || x < g->low) g->low = x, g->low_name = r.info.name;
        if (g->n == 0 || x > g->high) g->high = x, g->high_name = r.info.name;
        ++g->n;
        g->log_sum += std::log(x);
    }
    std::fprintf(f, "\nSummary: zest's speed-up over libzstd %s (above 1: zest is faster), per set and kind of row:\n"
                    "the geometric mean over the rows, and the lowest and the highest row (every row: the tables below)\n\n",
                 versus.c_str());
    if (groups.empty()) {
        std::fprintf(f, "  (no row has figures on both sides)\n");
        return;
    }
    int set_w = 3, kind_w = 11, low_w = 6;
    for (const auto& g : groups) {
        set_w = std::max(set_w, static_cast<int>(g.set.size()));
        kind_w = std::max(kind_w, static_cast<int>(g.kind.size()));
        low_w = std::max(low_w, static_cast<int>(g.low_name.size()));
    }
    const auto line = [&](const std::string& set, const std::string& kind, const std::string& n,
                          const std::string& mean, const std::string& low, const std::string& high) {
        std::string text;
        appendf(text, "  %-*s  %-*s  %4s  %8s  %-*s  %s", set_w, set.c_str(), kind_w, kind.c_str(), n.c_str(),
                mean.c_str(), low_w + 8, low.c_str(), high.c_str());
        while (text.ends_with(' ')) text.pop_back();
        std::fprintf(f, "%s\n", text.c_str());
    };
    line("set", "kind of row", "n", "geo mean", "lowest", "highest");
    std::string last_set;
    for (const auto& g : groups) {
        const auto num = [](double v) { return format(v < 100 ? "%.2f" : "%.0f", v); };
        // One row has no range to show.
        line(g.set == last_set ? "" : g.set, g.kind, std::to_string(g.n), num(std::exp(g.log_sum / g.n)),
             g.n > 1 ? num(g.low) + " " + g.low_name : "", g.n > 1 ? num(g.high) + " " + g.high_name : "");
        last_set = g.set;
    }
    if (unmeasured)
        std::fprintf(f, "  (%zu row%s without figures on both sides, n/a in the tables)\n", unmeasured,
                     unmeasured == 1 ? "" : "s");
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
    std::fprintf(f, "  \"run\": \"%s\",\n", meta.full ? "full" : "default");
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
