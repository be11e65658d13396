// Compression settings: the level, the frame's flags, the parameters beyond
// the level and the workers, as one type (compression_options), and one
// table (settings_table) of their names, bounds and defaults that the
// library, the C API (ZSTD_c_*) and the command line (--zstd=) all read.
// Included by zest.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "zest/errors.hpp"

namespace zest {

/// Largest window the format lets a decoder accept (2^31 = 2 GiB).
inline constexpr unsigned max_window_log_limit = 31;

/// The default compression level, as in the reference.
inline constexpr int default_level = 3;
/// Highest level. Every level runs the reference's strategy for it: `fast`,
/// `dfast`, `greedy`, `lazy`, `lazy2`, `btlazy2`, and from level 16 (less
/// for small inputs) the optimal parser: `btopt`, `btultra`, `btultra2`.
inline constexpr int max_level = 22;
/// Lowest level: negative levels trade ratio for speed (`fast` with an
/// acceleration of -level), as the reference defines them.
inline constexpr int min_level = -131072;

/// Match-finding strategies, numbered as the reference numbers them (its
/// `--zstd=strat=#`).
enum class strategy : std::uint8_t { fast = 1, dfast, greedy, lazy, lazy2, btlazy2, btopt, btultra, btultra2 };

/// Long-distance matching (the reference's --long): on, off, or as the
/// parameters decide (automatic: on for windows of 2^27 bytes and more at
/// btopt and up, as the reference does).
enum class ldm_mode : std::uint8_t { automatic = 0, enabled = 1, disabled = 2 };

/// Long-distance matching's parameters (the reference's ZSTD_c_ldm*): a
/// table of 2^hash_log samples of the input in buckets of 2^bucket_size_log,
/// one position in 2^hash_rate_log sampled, matches of min_match bytes or
/// more. 0 (each field's default) takes the reference's value for the
/// window: hash_log window_log - 7 (at least 6), min_match 64,
/// bucket_size_log 3, hash_rate_log window_log - hash_log. Enabling it
/// without a window log sets the window to 2^27 (as the reference does).
struct ldm_parameters {
    ldm_mode mode = ldm_mode::automatic;
    unsigned hash_log = 0;         ///< 6..30
    unsigned min_match = 0;        ///< 4..4096
    unsigned bucket_size_log = 0;  ///< 1..8
    unsigned hash_rate_log = 0;    ///< 0..25
    bool operator==(const ldm_parameters&) const = default;
};

/// The parameters behind a level: window, chain, hash and search sizes as
/// log2, minimum match length, target length (for `fast`, the acceleration),
/// strategy. As values set beyond a level (compression_options::parameters),
/// 0 (the default of each) takes the level's.
struct compression_parameters {
    unsigned window_log = 0;
    unsigned chain_log = 0;
    unsigned hash_log = 0;
    unsigned search_log = 0;
    unsigned min_match = 0;
    unsigned target_length = 0;
    zest::strategy strategy{};
    ldm_parameters ldm{};  ///< long-distance matching
    bool operator==(const compression_parameters&) const = default;
};

/// Everything that decides the frames a compressor writes, as the
/// reference's sticky parameters: the defaults are libzstd's.
struct compression_options {
    int level = default_level;  ///< 0 is the default level; clamped to [min_level, max_level]
    bool checksum = false;      ///< an XXH64 content checksum ends each frame
    bool content_size = true;   ///< the header declares the content size when it is known
    bool dictionary_id = true;  ///< frames written with a dictionary name its ID
    compression_parameters parameters{};  ///< beyond the level; 0 fields: the level's
    /// Threads that compress jobs of one frame in parallel (0: everything on
    /// the calling thread). The frame is the same for every count from 1 up.
    unsigned workers = 0;
    /// Input bytes per job with workers (0: chosen from the window and the
    /// level); 512 KiB at least.
    unsigned job_size = 0;
    /// How much history seeds each job with workers: 2^(overlap_log - 9) of
    /// the window (9: all of it, 1: 1/256; 0: the level's choice).
    unsigned overlap_log = 0;
    /// Job boundaries chosen by the content (with workers), so that a change
    /// early in the input leaves the rest of the frame the same.
    bool rsyncable = false;
    bool operator==(const compression_options&) const = default;
};

/// One setting: a field of compression_options, named as in settings_table.
enum class setting : std::uint8_t {
    level,
    checksum,
    content_size,
    dictionary_id,
    window_log,
    chain_log,
    hash_log,
    search_log,
    min_match,
    target_length,
    strategy,
    ldm,
    ldm_hash_log,
    ldm_min_match,
    ldm_bucket_size_log,
    ldm_hash_rate_log,
    workers,
    job_size,
    overlap_log,
    rsyncable,
};

/// How a setting takes values outside its bounds.
enum class setting_kind : std::uint8_t {
    flag,     ///< any value: 0 is off, others on
    clamped,  ///< moved into [lower, upper] (0 kept as "default" when lower > 0)
    bounded,  ///< refused (errc::invalid_argument) unless 0 or within [lower, upper]
};

/// A row of settings_table.
struct setting_info {
    zest::setting id;
    const char* name;        ///< the reference's: ZSTD_c_<name>, and zstd's --zstd=<name>=
    const char* short_name;  ///< zstd's short --zstd= key, or "" when the CLI has none
    setting_kind kind;
    int lower, upper;  ///< inclusive bounds of a value that is not 0 (a 64-bit build's)
    int (*get)(const compression_options&) noexcept;
    void (*put)(compression_options&, int) noexcept;  ///< stores a value already within bounds
};

namespace detail {
inline constexpr bool narrow_build = sizeof(void*) == 4;
inline constexpr int min_job_size = 512 << 10;
}

/// Every setting, in the order of the enum: its names, how and within what
/// bounds it is taken (the reference's ZSTD_cParam_getBounds on this
/// build), and where it lives in compression_options. The default of each
/// is its value in a default-constructed compression_options.
inline constexpr setting_info settings_table[] = {
    {setting::level, "compressionLevel", "", setting_kind::clamped, min_level, max_level,
     [](const compression_options& o) noexcept { return o.level; },
     [](compression_options& o, int v) noexcept { o.level = v == 0 ? default_level : v; }},
    {setting::checksum, "checksumFlag", "", setting_kind::flag, 0, 1,
     [](const compression_options& o) noexcept { return int(o.checksum); },
     [](compression_options& o, int v) noexcept { o.checksum = v != 0; }},
    {setting::content_size, "contentSizeFlag", "", setting_kind::flag, 0, 1,
     [](const compression_options& o) noexcept { return int(o.content_size); },
     [](compression_options& o, int v) noexcept { o.content_size = v != 0; }},
    {setting::dictionary_id, "dictIDFlag", "", setting_kind::flag, 0, 1,
     [](const compression_options& o) noexcept { return int(o.dictionary_id); },
     [](compression_options& o, int v) noexcept { o.dictionary_id = v != 0; }},
    {setting::window_log, "windowLog", "wlog", setting_kind::bounded, 10,
     detail::narrow_build ? 30 : int(max_window_log_limit),
     [](const compression_options& o) noexcept { return int(o.parameters.window_log); },
     [](compression_options& o, int v) noexcept { o.parameters.window_log = unsigned(v); }},
    {setting::chain_log, "chainLog", "clog", setting_kind::bounded, 6, detail::narrow_build ? 29 : 30,
     [](const compression_options& o) noexcept { return int(o.parameters.chain_log); },
     [](compression_options& o, int v) noexcept { o.parameters.chain_log = unsigned(v); }},
    {setting::hash_log, "hashLog", "hlog", setting_kind::bounded, 6, 30,
     [](const compression_options& o) noexcept { return int(o.parameters.hash_log); },
     [](compression_options& o, int v) noexcept { o.parameters.hash_log = unsigned(v); }},
    {setting::search_log, "searchLog", "slog", setting_kind::bounded, 1, detail::narrow_build ? 29 : 30,
     [](const compression_options& o) noexcept { return int(o.parameters.search_log); },
     [](compression_options& o, int v) noexcept { o.parameters.search_log = unsigned(v); }},
    {setting::min_match, "minMatch", "mml", setting_kind::bounded, 3, 7,
     [](const compression_options& o) noexcept { return int(o.parameters.min_match); },
     [](compression_options& o, int v) noexcept { o.parameters.min_match = unsigned(v); }},
    {setting::target_length, "targetLength", "tlen", setting_kind::bounded, 0, 128 * 1024,
     [](const compression_options& o) noexcept { return int(o.parameters.target_length); },
     [](compression_options& o, int v) noexcept { o.parameters.target_length = unsigned(v); }},
    {setting::strategy, "strategy", "strat", setting_kind::bounded, int(strategy::fast), int(strategy::btultra2),
     [](const compression_options& o) noexcept { return int(o.parameters.strategy); },
     [](compression_options& o, int v) noexcept { o.parameters.strategy = static_cast<zest::strategy>(v); }},
    {setting::ldm, "enableLongDistanceMatching", "", setting_kind::bounded, 0, int(ldm_mode::disabled),
     [](const compression_options& o) noexcept { return int(o.parameters.ldm.mode); },
     [](compression_options& o, int v) noexcept { o.parameters.ldm.mode = static_cast<ldm_mode>(v); }},
    {setting::ldm_hash_log, "ldmHashLog", "lhlog", setting_kind::bounded, 6, 30,
     [](const compression_options& o) noexcept { return int(o.parameters.ldm.hash_log); },
     [](compression_options& o, int v) noexcept { o.parameters.ldm.hash_log = unsigned(v); }},
    {setting::ldm_min_match, "ldmMinMatch", "lmml", setting_kind::bounded, 4, 4096,
     [](const compression_options& o) noexcept { return int(o.parameters.ldm.min_match); },
     [](compression_options& o, int v) noexcept { o.parameters.ldm.min_match = unsigned(v); }},
    {setting::ldm_bucket_size_log, "ldmBucketSizeLog", "lblog", setting_kind::bounded, 1, 8,
     [](const compression_options& o) noexcept { return int(o.parameters.ldm.bucket_size_log); },
     [](compression_options& o, int v) noexcept { o.parameters.ldm.bucket_size_log = unsigned(v); }},
    {setting::ldm_hash_rate_log, "ldmHashRateLog", "lhrlog", setting_kind::bounded, 0,
     detail::narrow_build ? 24 : 25,
     [](const compression_options& o) noexcept { return int(o.parameters.ldm.hash_rate_log); },
     [](compression_options& o, int v) noexcept { o.parameters.ldm.hash_rate_log = unsigned(v); }},
    {setting::workers, "nbWorkers", "", setting_kind::clamped, 0, detail::narrow_build ? 64 : 256,
     [](const compression_options& o) noexcept { return int(o.workers); },
     [](compression_options& o, int v) noexcept { o.workers = unsigned(v); }},
    {setting::job_size, "jobSize", "", setting_kind::clamped, detail::min_job_size,
     detail::narrow_build ? 512 << 20 : 1 << 30, [](const compression_options& o) noexcept { return int(o.job_size); },
     [](compression_options& o, int v) noexcept { o.job_size = unsigned(v); }},
    {setting::overlap_log, "overlapLog", "ovlog", setting_kind::clamped, 0, 9,
     [](const compression_options& o) noexcept { return int(o.overlap_log); },
     [](compression_options& o, int v) noexcept { o.overlap_log = unsigned(v); }},
    {setting::rsyncable, "rsyncable", "", setting_kind::clamped, 0, 1,
     [](const compression_options& o) noexcept { return int(o.rsyncable); },
     [](compression_options& o, int v) noexcept { o.rsyncable = v != 0; }},
};

inline constexpr std::size_t setting_count = std::size(settings_table);
static_assert([] {
    for (std::size_t i = 0; i < setting_count; ++i)
        if (settings_table[i].id != setting(i)) return false;
    return true;
}(), "settings_table follows the order of zest::setting");

/// The row of `s`.
constexpr const setting_info& setting_of(setting s) noexcept { return settings_table[std::size_t(s)]; }

/// Turns `v` into what `s` stores (a flag 0 or 1, a clamped value moved
/// within bounds); false when `s` refuses it. Parameters always take 0
/// ("the level's").
constexpr bool admit(const setting_info& s, int& v) noexcept {
    switch (s.kind) {
        case setting_kind::flag: v = v != 0; return true;
        case setting_kind::clamped:
            if (v != 0 || s.lower <= 0) v = v < s.lower ? s.lower : v > s.upper ? s.upper : v;
            return true;
        case setting_kind::bounded: return v == 0 || (v >= s.lower && v <= s.upper);
    }
    return false;
}

/// Stores `value` in `o`'s setting `s` as settings_table says; returns the
/// value stored, or errc::invalid_argument (and changes nothing) when `s`
/// refuses it.
inline result<int> set_setting(compression_options& o, setting s, int value) noexcept {
    const setting_info& info = setting_of(s);
    if (!admit(info, value)) return errc::invalid_argument;
    info.put(o, value);
    return info.get(o);
}

/// The value of `s` in `o`.
constexpr int get_setting(const compression_options& o, setting s) noexcept { return setting_of(s).get(o); }

/// `o` with every setting as its row stores it: flags 0 or 1, clamped
/// values within bounds, refused values 0 (for parameters: the level's).
constexpr compression_options admitted(compression_options o) noexcept {
    for (const setting_info& s : settings_table) {
        int v = s.get(o);
        if (!admit(s, v)) v = 0;
        s.put(o, v);
    }
    return o;
}

/// Whether every setting of `o` but the level (any level is taken: it is
/// clamped) is one its row takes unchanged.
constexpr bool valid(const compression_options& o) noexcept {
    compression_options a = admitted(o);
    a.level = o.level;
    return a == o;
}

}  // namespace zest
