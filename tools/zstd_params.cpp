#include "zstd_params.hpp"

#include <cstdint>

#include "numbers.hpp"

namespace zest::cli {

namespace {

// zstd's --zstd= keys: the settings with a short name.
constexpr bool is_key(const setting_info& k) noexcept { return k.short_name[0] != '\0'; }

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
    for (const setting_info& k : settings_table) {
        if (!is_key(k)) continue;
        if (!list.empty()) list += ", ";
        list.append(k.name).append("/").append(k.short_name);
    }
    return list;
}

}  // namespace

compression_parameters advanced_parameters::match(bool long_distance, unsigned long_window_log) const noexcept {
    compression_options o;
    for (const setting_info& k : settings_table)
        if (is_key(k) && k.id != setting::overlap_log) (void)set_setting(o, k.id, int(given[std::size_t(k.id)]));
    compression_parameters p = o.parameters;
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
        const setting_info* found = nullptr;
        for (const setting_info& k : settings_table)
            if (is_key(k) && (name == k.name || name == k.short_name)) found = &k;
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
        p.given[std::size_t(found->id)] = static_cast<unsigned>(v.value);
        rest.remove_prefix(v.length);
        if (rest.empty()) return {};
        if (rest[0] != ',')
            return subject + "'" + std::string(rest) + "' after " + std::string(name) + "'s value";
        rest.remove_prefix(1);
    }
}

std::string check_bounds(const advanced_parameters& p) {
    for (const setting_info& k : settings_table) {
        const unsigned v = p[k.id];
        // Clamped settings (overlapLog) take any value, as libzstd clamps them.
        if (!is_key(k) || k.kind != setting_kind::bounded || v == 0 ||
            (v >= unsigned(k.lower) && v <= unsigned(k.upper)))
            continue;
        return "--zstd: " + std::string(k.name) + "=" + std::to_string(v) + " is out of bounds (" +
               std::to_string(k.lower) + ".." + std::to_string(k.upper) + ")";
    }
    return {};
}

}  // namespace zest::cli
