// Deterministic test inputs: data shapes that exercise different parts of a
// Zstandard decoder (Huffman literals, many short matches, long matches, raw
// and RLE blocks). Everything is generated from a seed, never read from disk.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace zest::test {

using bytes = std::vector<std::byte>;

/// splitmix64: small, fast and identical on every platform (unlike the
/// standard distributions, whose output is implementation-defined).
class rng {
public:
    explicit rng(std::uint64_t seed) noexcept : s_(seed) {}
    std::uint64_t next() noexcept {
        std::uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    /// Uniform in [0, n); n must be > 0.
    std::uint32_t below(std::uint32_t n) noexcept {
        return static_cast<std::uint32_t>(((next() >> 32) * n) >> 32);
    }
    /// Uniform in [lo, hi].
    std::uint32_t range(std::uint32_t lo, std::uint32_t hi) noexcept { return lo + below(hi - lo + 1); }
    bool chance(unsigned percent) noexcept { return below(100) < percent; }

private:
    std::uint64_t s_;
};

bytes english_text(std::size_t n, std::uint64_t seed);
bytes c_source(std::size_t n, std::uint64_t seed);
bytes json_logs(std::size_t n, std::uint64_t seed);
/// Little-endian 32-byte records: id, type, flags, value, timestamp, name.
bytes binary_records(std::size_t n, std::uint64_t seed);
bytes random_bytes(std::size_t n, std::uint64_t seed);
bytes zeros(std::size_t n);
/// A random walk of int16 values with small steps.
bytes int16_deltas(std::size_t n, std::uint64_t seed);
/// int32 values in runs of equal values.
bytes int32_runs(std::size_t n, std::uint64_t seed);
/// Monotonic int64 nanosecond timestamps with jittered steps.
bytes int64_timestamps(std::size_t n, std::uint64_t seed);
/// Chunks of every other shape interleaved (text, random, zeros, records...).
bytes mixed(std::size_t n, std::uint64_t seed);
/// Large input: long sections of each shape plus a repeat of an early
/// section tens of MiB later (so --long finds matches far back).
bytes big_mixed(std::size_t n, std::uint64_t seed);

/// A named input of the corpus. Names are valid GoogleTest parameter names.
struct shape {
    std::string name;
    std::size_t size;
    bytes (*make)(std::size_t n, std::uint64_t seed);
    std::uint64_t seed;
    bool every_setting = true;  ///< false: block-boundary sizes, run at fewer settings
    bytes generate() const { return make(size, seed); }
};

/// Medium inputs (every compression level) and edge sizes.
const std::vector<shape>& corpus_shapes();
/// The names of corpus_shapes(), in order: all of them, or those whose
/// every_setting is as given.
std::vector<std::string> corpus_shape_names();
std::vector<std::string> corpus_shape_names(bool every_setting);
/// Finds a shape of corpus_shapes() by name (throws if absent).
const shape& corpus_shape(std::string_view name);

/// Bytes from a string literal or std::string.
bytes to_bytes(std::string_view s);

/// Concatenation helper.
void append(bytes& out, std::span<const std::byte> more);

}  // namespace zest::test
