#include "corpus.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <stdexcept>

namespace zest::test {
namespace {

// Appends text until `out` holds at least n bytes; callers resize to n at the end.
void put(std::string& out, std::string_view s) { out.append(s); }

bytes finish(std::string& s, std::size_t n) {
    s.resize(n, ' ');
    bytes b(n);
    if (n != 0) std::memcpy(b.data(), s.data(), n);
    return b;
}

template <class T>
void put_le(bytes& out, T v) {
    for (std::size_t i = 0; i < sizeof(T); ++i)
        out.push_back(static_cast<std::byte>(static_cast<std::uint64_t>(v) >> (8 * i)));
}

// Skewed pick: low indices much more likely (roughly Zipf-like).
template <std::size_t N>
std::string_view pick_skewed(rng& r, const std::array<std::string_view, N>& words) {
    const std::uint32_t a = r.below(static_cast<std::uint32_t>(N));
    return words[r.below(a + 1)];
}

template <std::size_t N>
std::string_view pick(rng& r, const std::array<std::string_view, N>& words) {
    return words[r.below(static_cast<std::uint32_t>(N))];
}

constexpr std::array<std::string_view, 120> english_words = {
    "the", "of", "and", "to", "a", "in", "that", "is", "was", "he", "for", "it", "with", "as",
    "his", "on", "be", "at", "by", "had", "not", "are", "but", "from", "or", "have", "an",
    "they", "which", "one", "you", "were", "her", "all", "she", "there", "would", "their",
    "we", "him", "been", "has", "when", "who", "will", "more", "no", "if", "out", "so",
    "said", "what", "up", "its", "about", "into", "than", "them", "can", "only", "other",
    "new", "some", "could", "time", "these", "two", "may", "then", "do", "first", "any",
    "my", "now", "such", "like", "our", "over", "man", "me", "even", "most", "made", "after",
    "also", "did", "many", "before", "must", "through", "back", "years", "where", "much",
    "your", "way", "well", "down", "should", "because", "each", "just", "those", "people",
    "house", "river", "window", "morning", "letter", "question", "government", "evening",
    "remembered", "certainly", "compression", "quietly", "northern", "understand",
    "afterwards", "machine"};

constexpr std::array<std::string_view, 12> names = {
    "Elizabeth", "Darcy", "London", "Thursday", "Margaret", "Oxford", "Holmes", "Watson",
    "September", "Pemberton", "Baker", "Victoria"};

void sentence(rng& r, std::string& s) {
    const std::uint32_t words = r.range(4, 22);
    for (std::uint32_t i = 0; i < words; ++i) {
        std::string w(r.chance(3) ? pick(r, names) : pick_skewed(r, english_words));
        if (i == 0) w[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(w[0])));
        if (i != 0) s.push_back(' ');
        if (r.chance(2)) {
            s.append(std::to_string(r.below(2000)));
            s.push_back(' ');
        }
        s.append(w);
        if (i + 1 < words && r.chance(8)) s.push_back(r.chance(80) ? ',' : ';');
    }
    const std::uint32_t end = r.below(10);
    s.push_back(end < 7 ? '.' : end < 9 ? '?' : '!');
}

constexpr std::array<std::string_view, 24> c_idents = {
    "buf", "len", "count", "ctx", "state", "offset", "value", "table", "node", "next",
    "result", "src", "dst", "size", "index", "flags", "header", "block", "window", "pos",
    "limit", "total", "entry", "cursor"};
constexpr std::array<std::string_view, 8> c_types = {
    "int", "size_t", "uint32_t", "const char *", "struct node *", "uint8_t *", "long", "unsigned"};
constexpr std::array<std::string_view, 10> c_calls = {
    "memcpy", "memset", "assert", "read_bits", "update_table", "free", "malloc",
    "printf", "emit_block", "hash_lookup"};

// Appends the parts in order. The parts of a braced list are evaluated left
// to right, unlike the operands of a chain of `+`, whose order the compiler
// picks: with random picks among them, g++ and clang wrote different data.
void add(std::string& s, std::initializer_list<std::string> parts) {
    for (const auto& p : parts) s += p;
}

void c_statement(rng& r, std::string& s, int depth) {
    const std::string indent(static_cast<std::size_t>(4 * depth), ' ');
    const auto id = [&] { return std::string(pick(r, c_idents)); };
    switch (r.below(depth < 3 ? 8 : 5)) {
        case 0:
            add(s, {indent, id(), " = ", id(), " + ", std::to_string(r.below(64)), ";\n"});
            break;
        case 1:
            add(s, {indent, id(), "->", id(), " = ", id(), "[", id(), "];\n"});
            break;
        case 2:
            add(s, {indent, std::string(pick(r, c_calls)), "(", id(), ", ", id(), ", ", std::to_string(r.below(4096)),
                    ");\n"});
            break;
        case 3:
            add(s, {indent, "/* ", id(), " must not exceed ", id(), " here */\n"});
            break;
        case 4:
            add(s, {indent, "return ", id(), ";\n"});
            break;
        case 5:
        case 6: {
            add(s, {indent, "if (", id(), " ", r.chance(50) ? "<" : "!=", " ", id(), ") {\n"});
            const std::uint32_t n = r.range(1, 4);
            for (std::uint32_t i = 0; i < n; ++i) c_statement(r, s, depth + 1);
            add(s, {indent, "}\n"});
            break;
        }
        default: {
            const std::string i = std::string(1, static_cast<char>('i' + r.below(3)));
            add(s, {indent, "for (", i, " = 0; ", i, " < ", id(), "; ", i, "++) {\n"});
            const std::uint32_t n = r.range(1, 4);
            for (std::uint32_t k = 0; k < n; ++k) c_statement(r, s, depth + 1);
            add(s, {indent, "}\n"});
            break;
        }
    }
}

constexpr std::array<std::string_view, 6> levels = {"info", "info", "info", "debug", "warn", "error"};
constexpr std::array<std::string_view, 7> services = {"auth", "billing", "gateway", "search",
                                                      "storage", "scheduler", "mailer"};
constexpr std::array<std::string_view, 8> messages = {
    "request completed", "cache miss", "retrying upstream call", "user logged in",
    "token refreshed", "slow query detected", "connection reset by peer", "job finished"};
constexpr std::array<std::string_view, 6> paths = {"/api/v1/users", "/api/v1/orders",
                                                   "/api/v2/search", "/healthz", "/login",
                                                   "/api/v1/items/batch"};

}  // namespace

bytes to_bytes(std::string_view s) {
    bytes b(s.size());
    if (!s.empty()) std::memcpy(b.data(), s.data(), s.size());
    return b;
}

void append(bytes& out, std::span<const std::byte> more) { out.insert(out.end(), more.begin(), more.end()); }

bytes english_text(std::size_t n, std::uint64_t seed) {
    rng r(seed);
    std::string s;
    s.reserve(n + 256);
    while (s.size() < n) {
        const std::uint32_t sentences = r.range(2, 8);
        for (std::uint32_t i = 0; i < sentences && s.size() < n; ++i) {
            if (i != 0) s.push_back(' ');
            sentence(r, s);
        }
        put(s, "\n\n");
    }
    return finish(s, n);
}

bytes c_source(std::size_t n, std::uint64_t seed) {
    rng r(seed);
    std::string s;
    s.reserve(n + 1024);
    put(s, "#include <stddef.h>\n#include <stdint.h>\n#include <string.h>\n\n");
    unsigned fn = 0;
    while (s.size() < n) {
        add(s, {"/*\n * ", std::string(pick(r, c_idents)), ": updates the ", std::string(pick(r, c_idents)),
                " table.\n */\n"});
        add(s, {"static ", std::string(pick(r, c_types)), " ", std::string(pick(r, c_idents)), "_",
                std::to_string(fn++), "(", std::string(pick(r, c_types)), " ", std::string(pick(r, c_idents)),
                ", size_t ", std::string(pick(r, c_idents)), ")\n{\n"});
        s += "    int i, j, k;\n";
        const std::uint32_t n_stmt = r.range(2, 9);
        for (std::uint32_t i = 0; i < n_stmt; ++i) c_statement(r, s, 1);
        s += "    return 0;\n}\n\n";
    }
    return finish(s, n);
}

bytes json_logs(std::size_t n, std::uint64_t seed) {
    rng r(seed);
    std::string s;
    s.reserve(n + 512);
    std::uint64_t ms = 1'700'000'000'000ull;
    char line[512];
    while (s.size() < n) {
        ms += r.below(250);
        const std::uint64_t sec = ms / 1000;
        // One pick per statement: the order of a call's arguments is the
        // compiler's to choose.
        const std::string level(pick(r, levels));
        const std::string service(pick(r, services));
        const std::string message(pick_skewed(r, messages));
        const unsigned user = 10000 + r.below(5000);
        const unsigned latency = r.below(900);
        const unsigned latency_tenths = r.below(10);
        const std::string path(pick(r, paths));
        const unsigned status = r.chance(92) ? 200u : r.chance(50) ? 404u : 503u;
        const int len = std::snprintf(
            line, sizeof line,
            "{\"ts\":\"2023-11-%02u T%02u:%02u:%02u.%03uZ\",\"level\":\"%s\",\"service\":\"%s\","
            "\"msg\":\"%s\",\"user_id\":%u,\"latency_ms\":%u.%u,\"path\":\"%s\",\"status\":%u}\n",
            static_cast<unsigned>(14 + (sec / 86400) % 10), static_cast<unsigned>((sec / 3600) % 24),
            static_cast<unsigned>((sec / 60) % 60), static_cast<unsigned>(sec % 60),
            static_cast<unsigned>(ms % 1000), level.c_str(), service.c_str(), message.c_str(), user, latency,
            latency_tenths, path.c_str(), status);
        s.append(line, static_cast<std::size_t>(len));
    }
    return finish(s, n);
}

bytes binary_records(std::size_t n, std::uint64_t seed) {
    rng r(seed);
    bytes out;
    out.reserve(n + 64);
    std::uint32_t id = 1000;
    std::uint64_t ts = 1'650'000'000'000'000'000ull;
    constexpr std::array<std::string_view, 6> tags = {"sensor-a", "sensor-b", "valve-17",
                                                      "pump", "gateway-3", "meter"};
    while (out.size() < n) {
        id += r.chance(95) ? 1 : r.range(2, 40);
        ts += 1'000'000 + r.below(5000);
        put_le<std::uint32_t>(out, id);
        put_le<std::uint16_t>(out, static_cast<std::uint16_t>(r.below(6)));
        put_le<std::uint16_t>(out, static_cast<std::uint16_t>(r.chance(90) ? 0x0001 : 0x8001));
        double v = 20.0 + static_cast<double>(r.below(1000)) / 16.0;
        std::uint64_t bits;
        std::memcpy(&bits, &v, 8);
        put_le<std::uint64_t>(out, bits);
        put_le<std::uint64_t>(out, ts);
        char name[8] = {};
        const std::string_view t = pick(r, tags);
        std::memcpy(name, t.data(), std::min<std::size_t>(t.size(), sizeof name));
        for (char c : name) out.push_back(static_cast<std::byte>(c));
    }
    out.resize(n);
    return out;
}

bytes random_bytes(std::size_t n, std::uint64_t seed) {
    rng r(seed);
    bytes out(n);
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const std::uint64_t v = r.next();
        std::memcpy(out.data() + i, &v, 8);
    }
    for (; i < n; ++i) out[i] = static_cast<std::byte>(r.next());
    return out;
}

bytes zeros(std::size_t n) { return bytes(n); }
static bytes zeros_seeded(std::size_t n, std::uint64_t) { return zeros(n); }

bytes int16_deltas(std::size_t n, std::uint64_t seed) {
    rng r(seed);
    bytes out;
    out.reserve(n + 2);
    std::int16_t v = 0;
    while (out.size() < n) {
        v = static_cast<std::int16_t>(v + static_cast<int>(r.below(7)) - 3);
        put_le<std::uint16_t>(out, static_cast<std::uint16_t>(v));
    }
    out.resize(n);
    return out;
}

bytes int32_runs(std::size_t n, std::uint64_t seed) {
    rng r(seed);
    bytes out;
    out.reserve(n + 4 * 64);
    while (out.size() < n) {
        const std::uint32_t v = r.chance(70) ? r.below(16) : static_cast<std::uint32_t>(r.next());
        const std::uint32_t run = r.range(1, 64);
        for (std::uint32_t i = 0; i < run; ++i) put_le<std::uint32_t>(out, v);
    }
    out.resize(n);
    return out;
}

bytes int64_timestamps(std::size_t n, std::uint64_t seed) {
    rng r(seed);
    bytes out;
    out.reserve(n + 8);
    std::uint64_t t = 1'700'000'000'000'000'000ull;
    while (out.size() < n) {
        t += r.chance(98) ? 1'000'000 + r.below(64) : r.below(1u << 30);
        put_le<std::uint64_t>(out, t);
    }
    out.resize(n);
    return out;
}

bytes mixed(std::size_t n, std::uint64_t seed) {
    rng r(seed);
    bytes out;
    out.reserve(n + 16384);
    while (out.size() < n) {
        const std::size_t chunk = r.range(1, 16384);
        const std::uint64_t s = r.next();
        switch (r.below(8)) {
            case 0: append(out, english_text(chunk, s)); break;
            case 1: append(out, random_bytes(chunk, s)); break;
            case 2: append(out, zeros(chunk)); break;
            case 3: append(out, json_logs(chunk, s)); break;
            case 4: append(out, binary_records(chunk, s)); break;
            case 5: append(out, int64_timestamps(chunk, s)); break;
            case 6: append(out, c_source(chunk, s)); break;
            default: {
                // A copy of something earlier: matches at every distance.
                if (!out.empty()) {
                    const std::size_t from = r.below(static_cast<std::uint32_t>(out.size()));
                    const std::size_t len = std::min(chunk, out.size() - from);
                    bytes copy(out.begin() + static_cast<std::ptrdiff_t>(from),
                               out.begin() + static_cast<std::ptrdiff_t>(from + len));
                    append(out, copy);
                }
                break;
            }
        }
    }
    out.resize(n);
    return out;
}

bytes big_mixed(std::size_t n, std::uint64_t seed) {
    rng r(seed);
    bytes out;
    out.reserve(n);
    constexpr std::size_t mib = 1u << 20;
    // Proportions of n; the repeated section sits ~25 MiB behind its copy for n = 40 MiB.
    const std::size_t section = std::max<std::size_t>(n / 40, 1);
    append(out, english_text(6 * section, r.next()));
    const std::size_t repeat_from = out.size();
    append(out, json_logs(6 * section, r.next()));
    const std::size_t repeat_len = 4 * section;
    append(out, int64_timestamps(4 * section, r.next()));
    append(out, binary_records(4 * section, r.next()));
    append(out, random_bytes(2 * section, r.next()));
    append(out, zeros(2 * section));
    append(out, c_source(3 * section, r.next()));
    append(out, mixed(5 * section, r.next()));
    // Long-distance repeat, slightly edited so it is not one huge match.
    bytes copy(out.begin() + static_cast<std::ptrdiff_t>(repeat_from),
               out.begin() + static_cast<std::ptrdiff_t>(repeat_from + repeat_len));
    for (std::size_t i = 0; i < copy.size(); i += 1 + r.below(64 * 1024)) copy[i] = static_cast<std::byte>(r.next());
    append(out, copy);
    append(out, int16_deltas(2 * section, r.next()));
    while (out.size() < n) append(out, int32_runs(std::min(n - out.size(), mib), r.next()));
    out.resize(n);
    return out;
}

const std::vector<shape>& corpus_shapes() {
    static const std::vector<shape> shapes = [] {
        constexpr std::size_t kib = 1024;
        std::vector<shape> v = {
            {"text", 768 * kib, english_text, 1},
            {"source", 512 * kib, c_source, 2},
            {"json", 768 * kib, json_logs, 3},
            {"records", 512 * kib, binary_records, 4},
            {"random", 256 * kib, random_bytes, 5},
            {"zeros", 1024 * kib, zeros_seeded, 0},
            {"int16", 512 * kib, int16_deltas, 6},
            {"int32", 512 * kib, int32_runs, 7},
            {"int64", 512 * kib, int64_timestamps, 8},
            {"mixed", 768 * kib, mixed, 9},
            {"small_text", 1000, english_text, 10},
            {"small_json", 5000, json_logs, 11},
            {"empty", 0, zeros_seeded, 0},
            {"one_byte", 1, english_text, 12},
            {"one_zero", 1, zeros_seeded, 0},
            {"tiny_random", 17, random_bytes, 13},
        };
        // Sizes at and around the 128 KiB block boundaries.
        for (std::size_t size : {131071u, 131072u, 131073u, 262143u, 262144u, 262145u})
            v.push_back({"mixed_" + std::to_string(size), size, mixed, 100 + size, false});
        v.push_back({"random_131073", 131073, random_bytes, 14, false});
        v.push_back({"zeros_262145", 262145, zeros_seeded, 0, false});
        return v;
    }();
    return shapes;
}

std::vector<std::string> corpus_shape_names() {
    std::vector<std::string> v;
    for (const shape& s : corpus_shapes()) v.push_back(s.name);
    return v;
}

std::vector<std::string> corpus_shape_names(bool every_setting) {
    std::vector<std::string> v;
    for (const shape& s : corpus_shapes())
        if (s.every_setting == every_setting) v.push_back(s.name);
    return v;
}

const shape& corpus_shape(std::string_view name) {
    for (const shape& s : corpus_shapes())
        if (s.name == name) return s;
    throw std::invalid_argument("no corpus shape named " + std::string(name));
}

}  // namespace zest::test
