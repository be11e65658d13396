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

/// XML markup: a product catalogue export with nested categories, products,
/// specifications and reviews; attributes, indentation, dates, prices, prose
/// descriptions and occasional CDATA sections and character entities.
bytes make_markup(std::size_t size, std::uint64_t seed = 5);

/// An int64 column of runs: foreign keys and status codes from a small,
/// skewed pool, each repeated for a skewed run of 1 to about 200 rows, as in
/// a table clustered by another column. Little-endian, exactly `size` bytes
/// (the last value cut short if needed), like every column below.
bytes make_int64_runs(std::size_t size, std::uint64_t seed = 11);

/// An int64 column of event timestamps in microseconds since the Unix epoch,
/// increasing by small irregular deltas with bursts and occasional pauses.
bytes make_int64_deltas(std::size_t size, std::uint64_t seed = 12);

/// An int32 column of item ids drawn from a Zipf distribution (exponent 1.1)
/// over 100,000 items whose ids are unrelated to their popularity.
bytes make_int32_zipf(std::size_t size, std::uint64_t seed = 13);

/// A sparse int16 column: about 93% zeros, otherwise small values (a few
/// negative), the non-zero ones loosely clustered.
bytes make_int16_sparse(std::size_t size, std::uint64_t seed = 14);

/// A low-cardinality int8 column: eight enum codes with skewed frequencies,
/// appearing in short runs of equal values.
bytes make_int8_lowcard(std::size_t size, std::uint64_t seed = 15);

/// Appends `s` to `out`.
inline void append(bytes& out, const std::string& s) {
    const auto* p = reinterpret_cast<const std::byte*>(s.data());
    out.insert(out.end(), p, p + s.size());
}

}  // namespace zest_bench
