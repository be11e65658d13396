// Long-distance matching (the reference's --long): repeats further back
// than the match finders' tables reach, found through a table of sampled
// positions over the whole window.
//
// A rolling hash of the last min_match bytes (a "gear" hash: shift, add a
// random value per byte) picks positions where its top bits are all zero,
// one in 2^hash_rate_log on average and the same positions wherever the same
// bytes recur. Each sample's min_match bytes are hashed (XXH64) to a bucket
// of 2^bucket_log entries and a checksum; a later sample with the same
// checksum in its bucket is compared byte by byte, extended forwards and
// backwards, and kept when it is min_match bytes or longer. The samples go
// into their bucket in turn, the oldest overwritten.
#pragma once

#include <cstddef>
#include <cstdint>

namespace zest::detail {

/// A sampled position and the checksum of the bytes there.
struct ldm_entry {
    std::uint32_t pos, checksum;
};

/// A long match in a block: `start` bytes after the block's first byte,
/// `len` bytes copied from `offset` bytes back.
struct ldm_match {
    std::uint32_t start, len, offset;
};

/// The table's shape and the sampling (resolved, see params.hpp).
struct ldm_settings {
    unsigned hash_log, bucket_log, min_match, hash_rate_log;
};

/// The table: 2^hash_log entries in buckets of 2^bucket_log, and for each
/// bucket the slot its next sample takes.
struct ldm_tables {
    ldm_entry* entries;
    std::uint8_t* next_slot;
};

/// The most matches find_long_matches writes for a block of n bytes.
inline std::size_t ldm_max_matches(std::size_t n, unsigned min_match) noexcept { return n / min_match + 1; }

/// Samples base[begin, end) into the table and writes the long matches it
/// finds there to `out` (in order, not overlapping), returning their number.
/// Matches lie in [begin, end); their sources start at or above `low` (the
/// frame's first position) and are samples at or above `lowest` (the
/// window's edge).
std::size_t find_long_matches(const ldm_settings& s, const ldm_tables& t, const std::uint8_t* base, std::size_t low,
                              std::size_t lowest, std::size_t begin, std::size_t end, ldm_match* out) noexcept;

}  // namespace zest::detail
