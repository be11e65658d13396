// The other formats zstd's CLI reads and writes (gzip, xz, lzma, lz4), as the
// zest tool handles them: names and suffixes, recognition by magic number,
// and the encoders and decoders, each built on the field's library when it
// was found at build time (zlib, liblzma, liblz4). The library (src/) never
// sees these formats; only the tool links them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace zest::cli {

struct options;

enum class data_format { zstd, gzip, xz, lzma, lz4 };

/// "zstd", "gzip", "xz", "lzma", "lz4": as --format spells them.
std::string_view format_name(data_format f) noexcept;
/// The suffix compression appends: ".zst", ".gz", ".xz", ".lzma", ".lz4".
std::string_view format_suffix(data_format f) noexcept;
/// Whether this build can encode and decode `f` (zstd always).
bool format_built_in(data_format f) noexcept;
/// The formats built in, as `zest -vV` lists them ("zstd, gzip, ...").
std::string built_in_format_list();

/// The format whose magic number opens p[0, n), as zstd tells them apart:
/// zstd frames and skippable frames are `zstd`; nullopt when nothing known
/// starts there (and for fewer than 4 bytes, as zstd).
std::optional<data_format> sniff_format(const unsigned char* p, std::size_t n) noexcept;

/// --format=NAME, and gzip's --best and --no-name when the program is
/// called gzip. Returns nullopt when `name` is none of these, an empty
/// string when it was applied, or an error message.
std::optional<std::string> parse_format_option(std::string_view name, std::optional<std::string_view> value,
                                               options& o);

/// zstd's presets for the names it answers to besides its own: gzip,
/// gunzip, xz, unxz, lzma, unlzma, lz4, unlz4, with any extension (gzip.exe);
/// gzcat, which chooses no format, is with zcat in program_name.cpp.
/// `program` is argv[0]; options not named by it are left alone. Applied
/// before the arguments, which override it.
void apply_format_program_name(std::string_view program, options& o);

/// The tool's buffers as the encoders and decoders of the other formats use
/// them: pending input is consumed in place, refilled on demand, and what
/// is produced is handed over as soon as it exists (streaming, so memory
/// stays bounded whatever the size of the data).
class format_io {
public:
    virtual ~format_io() = default;
    /// Input not yet consumed (empty when all was used).
    virtual std::span<const std::byte> pending() = 0;
    /// Marks the first n bytes of pending() as used.
    virtual void consume(std::size_t n) = 0;
    /// Reads more input; false at its end. Call only once pending() is
    /// empty (the buffer is then free for a full read).
    virtual bool refill() = 0;
    /// A buffer for produced bytes, which emit() then takes.
    virtual std::span<std::byte> scratch() = 0;
    /// Writes produced bytes to the output (or only counts them, for -t).
    virtual void emit(std::span<const std::byte> data) = 0;
};

struct encode_settings {
    int level = 3;                       ///< zest's level, mapped per format as zstd maps it
    bool checksum = true;                ///< lz4's content checksum (gzip and xz always have theirs)
    bool content_size = true;            ///< lz4 declares a known size
    std::optional<std::uint64_t> size;   ///< the input's size, when it is a regular file
};

/// Fails (file_error for `subject`) unless compressing to `f` with
/// `settings` can work, before any output is created.
void check_encode(data_format f, const encode_settings& settings, const std::string& subject);

/// Compresses all of the input to one gzip member, xz or lzma stream, or
/// lz4 frame. Throws file_error for `subject`.
void encode_other(data_format f, const encode_settings& settings, format_io& io, const std::string& subject);

/// Decodes one gzip member, xz or lzma stream, or lz4 frame that starts at
/// the pending input, leaving what follows it unconsumed. xz and lzma
/// decoders may use at most `memory_limit` bytes. Throws file_error for
/// `subject`.
void decode_other(data_format f, format_io& io, std::uint64_t memory_limit, const std::string& subject);

}  // namespace zest::cli
