#include "zstd_params.hpp"

#include <cstdint>

#include "numbers.hpp"

namespace zest::cli {

namespace {

// zstd's keys, in its order, with the reference's bounds (a 64-bit
// build's); 0 is always taken (not set). overlapLog has none: libzstd
// clamps it.
struct key {
    std::string_view name, short_name;
    unsigned advanced_parameters::*field;
    unsigned lower, upper;
    bool bounded = true;
};

constexpr key keys[] = {
    {"windowLog", "wlog", &advanced_parameters::window_log, 10, 31},
    {"chainLog", "clog", &advanced_parameters::chain_log, 6, 30},
    {"hashLog", "hlog", &advanced_parameters::hash_log, 6, 30},
    {"searchLog", "slog", &advanced_parameters::search_log, 1, 30},
    {"minMatch", "mml", &advanced_parameters::min_match, 3, 7},
    {"targetLength", "tlen", &advanced_parameters::target_length, 0, 128 * 1024},
    {"strategy", "strat", &advanced_parameters::strategy, 1, 9},
    {"overlapLog", "ovlog", &advanced_parameters::overlap_log, 0, 0, false},
    {"ldmHashLog", "lhlog", &advanced_parameters::ldm_hash_log, 6, 30},
    {"ldmMinMatch", "lmml", &advanced_parameters::ldm_min_match, 4, 4096},
    {"ldmBucketSizeLog", "lblog", &advanced_parameters::ldm_bucket_size_log, 1, 8},
    {"ldmHashRateLog", "lhrlog", &advanced_parameters::ldm_hash_rate_log, 0, 25},
};

// zstd's readU32FromChar: digits (none reads as 0), then K or M, an
// optional i and an optional B. Sets `length` to the characters read.
struct u32_value {
    std::uint64_t value = 0;
    std::size_t length = 0;
    bool overflow = false;
};
u32_value read_u32(std::string_view s) {
    const digits d = read_digits(s, u32_max);
    u32_value v{d.value, d.length, d.overflow};
    if (v.length < s.size() && (s[v.length] == 'K' || s[v.length] == 'M')) {
        const unsigned shift = s[v.length] == 'K' ? 10 : 20;
        v.overflow = v.overflow || v.value > (u32_max >> shift);
        v.value <<= shift;
        ++v.length;
        if (v.length < s.size() && s[v.length] == 'i') ++v.length;
        if (v.length < s.size() && s[v.length] == 'B') ++v.length;
    }
    return v;
}

std::string known_keys() {
    std::string list;
    for (const key& k : keys) {
        if (!list.empty()) list += ", ";
        list.append(k.name).append("/").append(k.short_name);
    }
    return list;
}

}  // namespace

compression_parameters advanced_parameters::match(bool long_distance, unsigned long_window_log) const noexcept {
    compression_parameters p{window_log, chain_log,     hash_log, search_log,
                             min_match,  target_length, static_cast<zest::strategy>(strategy),
                             {zest::ldm_mode::automatic, ldm_hash_log, ldm_min_match, ldm_bucket_size_log,
                              ldm_hash_rate_log}};
    if (long_distance) {
        p.ldm.mode = zest::ldm_mode::enabled;
        if (!p.window_log) p.window_log = long_window_log;
    }
    return p;
}

std::string parse_zstd_parameters(std::string_view text, advanced_parameters& p) {
    const std::string subject = "--zstd=" + std::string(text) + ": Incorrect parameters: ";
    std::string_view rest = text;
    while (true) {
        const std::string_view item = rest.substr(0, rest.find(','));
        const std::size_t eq = item.find('=');
        const std::string_view name = item.substr(0, eq);
        const key* found = nullptr;
        for (const key& k : keys)
            if (name == k.name || name == k.short_name) found = &k;
        if (!found) {
            if (item.empty()) return subject + "a parameter is missing";
            return subject + "unknown parameter '" + std::string(name) + "' (zstd's: " + known_keys() + ")";
        }
        if (eq == std::string_view::npos)
            return subject + std::string(name) + " needs a value (" + std::string(name) + "=#)";
        rest.remove_prefix(eq + 1);
        const u32_value v = read_u32(rest);
        if (v.overflow)
            return "--zstd=" + std::string(text) + ": numeric value overflows 32-bit unsigned int";
        p.*found->field = static_cast<unsigned>(v.value);
        rest.remove_prefix(v.length);
        if (rest.empty()) return {};
        if (rest[0] != ',')
            return subject + "'" + std::string(rest) + "' after " + std::string(name) + "'s value";
        rest.remove_prefix(1);
    }
}

std::string check_bounds(const advanced_parameters& p) {
    for (const key& k : keys) {
        const unsigned v = p.*k.field;
        if (!k.bounded || v == 0 || (v >= k.lower && v <= k.upper)) continue;
        return "--zstd: " + std::string(k.name) + "=" + std::to_string(v) + " is out of bounds (" +
               std::to_string(k.lower) + ".." + std::to_string(k.upper) + ")";
    }
    return {};
}

}  // namespace zest::cli
