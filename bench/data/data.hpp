// Built-in data sets: deterministic stand-ins for the kinds of data people
// compress, realistic enough that compression ratios land where real data's do.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace zest_bench {

using bytes = std::vector<std::byte>;

/// English-like prose: a Zipf-distributed vocabulary (common English words,
/// then a long tail of pseudo-words), sentences, paragraphs, wrapped lines.
bytes make_text(std::size_t size, std::uint64_t seed = 1);

/// C-like source code: license headers, includes, structs and functions with
/// nested control flow and a project-wide identifier vocabulary.
bytes make_source_code(std::size_t size, std::uint64_t seed = 2);

/// A binary table: fixed-size little-endian records (ids, timestamps, foreign
/// keys with skewed frequencies, enums, prices, a high-entropy session id).
bytes make_records(std::size_t size, std::uint64_t seed = 3);

/// Structured JSON log lines (one object per line) from a fleet of services.
bytes make_json_logs(std::size_t size, std::uint64_t seed = 4);

/// Appends `s` to `out`.
inline void append(bytes& out, const std::string& s) {
    const auto* p = reinterpret_cast<const std::byte*>(s.data());
    out.insert(out.end(), p, p + s.size());
}

}  // namespace zest_bench
