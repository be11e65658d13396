// Numbers on the command line and in the environment, read as zstd reads
// them: decimal digits, optionally a binary multiple, overflow refused.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace zest::cli {

inline constexpr std::uint64_t u32_max = 0xFFFFFFFFu;

/// Leading decimal digits of a string.
struct digits {
    std::size_t length = 0;  ///< digits read (0: none)
    std::uint64_t value = 0;
    bool overflow = false;   ///< the number exceeds the limit it was read against
};

/// Reads the digits at the start of `s`; their value must not exceed `max`
/// (otherwise `overflow`, and every digit is still consumed).
digits read_digits(std::string_view s, std::uint64_t max);

/// A whole option value: digits, then optionally K, M or G (either case;
/// zstd takes K and M) followed by an optional `i` and an optional `B`, as
/// in 64K, 1MiB, 2GB. Returns the value, or an error message: the value is
/// not such a number, or it exceeds `max`.
struct number {
    std::uint64_t value = 0;
    std::string error;  ///< empty on success
};
number parse_number(std::string_view s, std::uint64_t max);

/// A level given as the text of ZSTD_CLEVEL: an optional sign, digits and
/// nothing else. Returns the level (values past the int range are held at
/// its ends; the caller caps them), or nullopt with `warning` set to what
/// zstd prints when it ignores the variable.
std::optional<int> parse_env_level(std::string_view text, std::string& warning);

/// A thread count given as the text of ZSTD_NBTHREADS: digits only.
std::optional<unsigned> parse_env_threads(std::string_view text, std::string& warning);

}  // namespace zest::cli
