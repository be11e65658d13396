// Moves one input through the compressor or decompressor into an output
// sink (or nowhere, for -t), reporting progress. With the library's
// streaming classes, memory stays bounded by the window and a few blocks.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "file_io.hpp"
#include "formats/format.hpp"
#include "output_sink.hpp"
#include "progress.hpp"
#include "zest/zest.hpp"

namespace zest::cli {

struct transfer_totals {
    std::uint64_t read = 0;     ///< bytes taken from the input
    std::uint64_t written = 0;  ///< bytes produced (written, or discarded by -t)
    bool passed_through = false; ///< decompression copied the input's tail as it is (--pass-through)
};

struct codec_settings {
    int level = default_level;
    compression_parameters params{};  ///< beyond the level (--zstd=); 0: the level's
    unsigned workers = 0;             ///< compression threads (-T#; 0: the main thread)
    std::uint64_t job_size = 0;       ///< -B#: input bytes per job with workers (0: the level's)
    unsigned overlap_log = 0;         ///< --zstd=ovlog=#
    bool rsyncable = false;           ///< --rsyncable
    bool checksum = true;      ///< written when compressing, verified when decompressing
    bool content_size = true;  ///< a regular file's size is declared in its frame
    bool pass_through = false; ///< decompression copies data that does not start a frame as it is
    unsigned max_window_log = default_max_window_log;
    std::optional<std::uint64_t> stream_size;  ///< pledged for standard input and inputs of unknown size
    std::optional<std::uint64_t> size_hint;    ///< parameters for that size when the size is unknown
    data_format format = data_format::zstd;    ///< what compress() writes; decompress() reads them all
    zest::dictionary dict;                     ///< -D (empty: none)
    bool dict_id = true;                       ///< frames written with it name its ID
    std::optional<std::pair<dev_t, ino_t>> dict_file;  ///< the -D file (device, inode), never an input
};

class codec {
public:
    explicit codec(const codec_settings& s);
    ~codec();
    codec(const codec&) = delete;
    codec& operator=(const codec&) = delete;

    /// Whether `in` is the -D file itself (by device and inode, not by name).
    bool is_dictionary_file(const input_file& in) const;

    /// Throws file_error unless compress() can write the chosen format
    /// (built in, a level it has): checked before any output is created.
    void check_format(const std::string& subject) const;
    /// Compresses `in` into one frame (gzip member, xz/lzma stream, lz4
    /// frame) written to `out`. Throws file_error.
    transfer_totals compress(const input_file& in, output_sink& out, progress_line& progress);
    /// The parameters compress() uses for `in`: those of the level and the
    /// values set beyond it for its size (a regular file's, or
    /// --stream-size), else for the size hint.
    compression_parameters parameters_for(const input_file& in) const;
    /// Decodes every frame of `in`, and the gzip members, xz/lzma streams
    /// and lz4 frames among them; `out` null discards the result (-t).
    /// With pass_through, from the first place where a frame should start
    /// but does not, the rest of the input is copied as it is (zstd -dcf).
    /// Throws file_error.
    transfer_totals decompress(const input_file& in, output_sink* out, progress_line& progress);

private:
    /// Whether `in`'s size comes from --stream-size (its own is not known).
    bool uses_stream_size(const input_file& in) const;
    /// The size compress() pledges for `in`, if any.
    std::optional<std::uint64_t> pledged_size(const input_file& in) const;
    transfer_totals compress_other(const input_file& in, output_sink& out, progress_line& progress,
                                   std::optional<std::uint64_t> size);

    struct state;
    codec_settings settings_;
    std::unique_ptr<state> state_;
};

}  // namespace zest::cli
