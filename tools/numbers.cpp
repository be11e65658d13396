#include "numbers.hpp"

#include <climits>

namespace zest::cli {

digits read_digits(std::string_view s, std::uint64_t max) {
    digits d;
    for (; d.length < s.size() && s[d.length] >= '0' && s[d.length] <= '9'; ++d.length) {
        const unsigned digit = static_cast<unsigned>(s[d.length] - '0');
        if (d.overflow || d.value > (max - digit) / 10) {
            d.overflow = true;  // keep consuming: the whole number is the error
            continue;
        }
        d.value = d.value * 10 + digit;
    }
    return d;
}

namespace {

// The multiple after the digits (K, M or G, then an optional i and B): its
// shift and how many characters it took (none when something else follows).
struct multiple {
    unsigned shift = 0;
    std::size_t length = 0;
};
multiple read_multiple(std::string_view s) {
    multiple m;
    if (s.empty()) return m;
    switch (s[0]) {
        case 'K': case 'k': m.shift = 10; break;
        case 'M': case 'm': m.shift = 20; break;
        case 'G': case 'g': m.shift = 30; break;
        default: return m;
    }
    m.length = 1;
    if (m.length < s.size() && s[m.length] == 'i') ++m.length;
    if (m.length < s.size() && s[m.length] == 'B') ++m.length;
    return m;
}

// Digits and a multiple making up the whole of `s` (else not valid).
struct whole {
    bool valid = false;
    bool overflow = false;
    std::uint64_t value = 0;
};
whole read_whole(std::string_view s, std::uint64_t max) {
    whole w;
    const digits d = read_digits(s, max);
    if (d.length == 0) return w;
    const multiple m = read_multiple(s.substr(d.length));
    if (d.length + m.length != s.size()) return w;
    w.valid = true;
    w.overflow = d.overflow || d.value > (max >> m.shift);
    w.value = w.overflow ? 0 : d.value << m.shift;
    return w;
}

}  // namespace

number parse_number(std::string_view s, std::uint64_t max) {
    number n;
    const whole w = read_whole(s, max);
    if (!w.valid)
        n.error = "not a number (digits, optionally followed by K, M or G)";
    else if (w.overflow)
        n.error = max == u32_max ? "numeric value overflows 32-bit unsigned int" : "numeric value too large";
    else
        n.value = w.value;
    return n;
}

std::optional<int> parse_env_level(std::string_view text, std::string& warning) {
    const std::string setting = "Ignore environment variable setting ZSTD_CLEVEL=" + std::string(text);
    std::string_view s = text;
    bool negative = false;
    if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
        negative = s[0] == '-';
        s.remove_prefix(1);
    }
    const whole w = read_whole(s, u32_max);
    if (w.valid && w.overflow) {
        warning = setting + ": numeric value too large ";  // zstd ends its line with a space
        return std::nullopt;
    }
    if (!w.valid) {
        warning = setting + ": not a valid integer value ";
        return std::nullopt;
    }
    // zstd wraps values past INT_MAX around to negative levels; zest holds
    // them at the int range's ends, which the level checks then cap.
    if (negative) return w.value > static_cast<std::uint64_t>(INT_MAX) ? INT_MIN : -static_cast<int>(w.value);
    return w.value > static_cast<std::uint64_t>(INT_MAX) ? INT_MAX : static_cast<int>(w.value);
}

std::optional<unsigned> parse_env_threads(std::string_view text, std::string& warning) {
    const std::string setting = "Ignore environment variable setting ZSTD_NBTHREADS=" + std::string(text);
    const whole w = read_whole(text, u32_max);
    if (w.valid && w.overflow) {
        warning = setting + ": numeric value too large ";  // zstd ends its line with a space
        return std::nullopt;
    }
    if (!w.valid) {
        warning = setting + ": not a valid unsigned value ";
        return std::nullopt;
    }
    return static_cast<unsigned>(w.value);
}

}  // namespace zest::cli
