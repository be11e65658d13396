// zest — a Zstandard (RFC 8878) library. This is the only header users need.
//
// All calls that decode report failure through zest::result (no exceptions);
// the convenience overloads that return a std::vector throw std::system_error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "zest/errors.hpp"
#include "zest/settings.hpp"

namespace zest {

/// Library version as "major.minor.patch".
const char* version_string() noexcept;

/// Default cap on a frame's window, as log2 (2^27 = 128 MiB, like the reference).
inline constexpr unsigned default_max_window_log = 27;

// ---------------------------------------------------------------------------
// Frame inspection
// ---------------------------------------------------------------------------

/// The decompressed size declared by the first frame of `src`.
/// - a value: the frame header carries it (a skippable frame reports 0);
/// - std::nullopt: the frame does not declare it (streaming writers);
/// - an error: `src` does not start with a valid frame header
///   (errc::truncated_input when more bytes are needed).
result<std::optional<std::uint64_t>> frame_content_size(std::span<const std::byte> src) noexcept;

/// Total compressed size of the first frame of `src` (Zstandard or skippable),
/// header, blocks and checksum included. Walks block headers only.
result<std::size_t> find_frame_compressed_size(std::span<const std::byte> src) noexcept;

// ---------------------------------------------------------------------------
// Dictionaries
// ---------------------------------------------------------------------------

namespace detail { struct dictionary_data; }

/// How dictionary bytes are read.
enum class dictionary_content : std::uint8_t {
    automatic,  ///< the reference's format when the bytes start with its magic number, else raw content
    raw,        ///< the bytes are history only: no ID, no entropy tables
    full,       ///< the reference's format (magic 0xEC30A437) is required
};

/// Whether a dictionary keeps its own copy of the bytes it was made from.
enum class dictionary_storage : std::uint8_t {
    copy,       ///< copied: the caller's buffer may go away after load()
    reference,  ///< referenced: the caller keeps the bytes alive and unchanged while the dictionary is used
};

/// A dictionary, parsed and prepared once, then shared read-only by any
/// number of contexts and threads. Copying one copies a reference (the
/// prepared tables are shared), so passing it around costs nothing.
///
/// Two kinds exist (the reference's):
/// - formatted (`zstd --train`, ZDICT_trainFromBuffer): magic number,
///   dictionary ID, entropy tables for literals and sequences, three repeat
///   offsets, then content;
/// - raw content: any bytes, used as history in front of each frame (ID 0).
///
/// Compression with a dictionary at the fast strategies (levels up to 4,
/// negative levels included) searches match tables of the content made
/// once per set of table sizes, on the first frame that needs them, and
/// kept with the dictionary (at most 8 sets; memory_usage counts them): a
/// message up to 64 KiB then costs about what it costs without a
/// dictionary. The other strategies, larger frames and streams run the
/// content through their finder for each frame.
///
/// A default-constructed dictionary is empty: using it is using none.
class dictionary {
public:
    dictionary() noexcept = default;

    /// Parses and prepares `bytes`. Fails with errc::dictionary_invalid
    /// when formatted bytes are malformed (or when `content` is `full` and the
    /// magic number is missing), errc::out_of_memory when memory runs out.
    /// Empty `bytes` give an empty dictionary (with `full`, an error); with
    /// `automatic`, fewer than 8 bytes are raw content (as in the reference).
    static result<dictionary> load(std::span<const std::byte> bytes,
                                   dictionary_content content = dictionary_content::automatic,
                                   dictionary_storage storage = dictionary_storage::copy) noexcept;
    static result<dictionary> load(const void* bytes, std::size_t size,
                                   dictionary_content content = dictionary_content::automatic,
                                   dictionary_storage storage = dictionary_storage::copy) noexcept;

    /// True when no dictionary is held.
    bool empty() const noexcept { return !data_; }
    /// The dictionary ID (0 for raw content and empty dictionaries).
    std::uint32_t id() const noexcept;
    /// True for a formatted dictionary (entropy tables and repeat offsets).
    bool has_entropy_tables() const noexcept;
    /// Bytes of history the dictionary puts in front of each frame.
    std::size_t content_size() const noexcept;
    /// Bytes of heap memory the prepared dictionary owns (shared by copies),
    /// the compression tables made so far included.
    std::size_t memory_usage() const noexcept;

    /// The prepared form (for the library's own use).
    const detail::dictionary_data* data() const noexcept { return data_.get(); }

private:
    std::shared_ptr<const detail::dictionary_data> data_;
};

/// How train_dictionary() chooses a dictionary's content. The defaults are
/// the reference's (ZDICT_trainFromBuffer): fastCover with d = 8, k searched
/// over 50..2000 in 4 steps, 75% of the samples to train and the rest to
/// score each candidate by compressing them with it.
struct training_parameters {
    bool cover = false;           ///< exact d-mer counting (COVER) instead of hashed (fastCover)
    unsigned k = 0;               ///< segment size, 16..2048 (0: searched over 50..2000)
    unsigned d = 0;               ///< d-mer size, 6 or 8 (0: 8 for fastCover, both tried for COVER)
    unsigned f = 20;              ///< fastCover: log2 of its frequency table, 10..26
    unsigned steps = 0;           ///< k values tried when searching (0: 4 for fastCover, 40 for COVER)
    unsigned split_percent = 75;  ///< samples used to train (the rest score); 100: all do both
    unsigned accel = 1;           ///< fastCover: 1..10, higher samples fewer positions (faster, worse)
    int level = 3;                ///< compression level the entropy tables are fitted at (0: default)
    std::uint32_t dict_id = 0;    ///< 0: derived from the content (in 32768..2^31-1)
};

/// Trains a dictionary of at most `capacity` bytes on `samples` (the
/// samples concatenated, `sizes` giving each one's length), in the
/// reference's format. `chosen`, when given, receives the parameters used
/// (k and d as searched). errc::invalid_argument for parameters out of
/// range, a capacity under 256 bytes or no sample; errc::dictionary_invalid
/// when the samples are too few or too small to train on (under 8 bytes in
/// all, or fewer than 5 samples as the reference requires).
result<std::vector<std::byte>> train_dictionary(std::span<const std::byte> samples,
                                                std::span<const std::size_t> sizes, std::size_t capacity,
                                                const training_parameters& p = {},
                                                training_parameters* chosen = nullptr) noexcept;

/// Turns `content` into a formatted dictionary of at most `capacity` bytes:
/// entropy tables fitted to how the samples compress with it at `level`,
/// the default repeat offsets, the ID (0: derived from the content), then
/// the content (its start cut when all does not fit).
result<std::vector<std::byte>> finalize_dictionary(std::span<const std::byte> content,
                                                   std::span<const std::byte> samples,
                                                   std::span<const std::size_t> sizes, std::size_t capacity,
                                                   int level = 3, std::uint32_t dict_id = 0) noexcept;

/// The dictionary ID a formatted dictionary declares; 0 for anything else.
std::uint32_t dictionary_id(std::span<const std::byte> bytes) noexcept;

/// The dictionary ID the first frame of `src` names (0 when it names none
/// or `src` does not start with a valid Zstandard frame header).
std::uint32_t frame_dictionary_id(std::span<const std::byte> src) noexcept;

// ---------------------------------------------------------------------------
// One-shot decompression
// ---------------------------------------------------------------------------

/// Decompresses every frame in `src` (any number of Zstandard and skippable
/// frames, concatenated) into `dst`. Returns the number of bytes written.
/// On error the contents of `dst` are unspecified. Uses the default window
/// limit; use a `decompressor` to change it or to reuse buffers.
result<std::size_t> decompress(std::span<std::byte> dst, std::span<const std::byte> src) noexcept;

/// Pointer-and-size form of the call above.
result<std::size_t> decompress(void* dst, std::size_t dst_capacity, const void* src,
                               std::size_t src_size) noexcept;

/// Decompresses all of `src` into a new vector. Frames without a declared
/// size are decoded into a growing buffer. Throws std::system_error on a
/// decoding error and std::bad_alloc when memory runs out.
std::vector<std::byte> decompress(std::span<const std::byte> src);

/// Decompresses with a dictionary: every frame of `src` starts from its
/// content (as history) and, for a formatted dictionary, its entropy tables
/// and repeat offsets. A frame naming another dictionary ID fails with
/// errc::dictionary_wrong; frames naming none use `dict`. An empty `dict`
/// is no dictionary.
result<std::size_t> decompress(std::span<std::byte> dst, std::span<const std::byte> src,
                               const dictionary& dict) noexcept;

namespace detail { struct decoder_state; struct encoder_state; struct parallel_state; }

/// A reusable decompression context. Constructing one allocates nothing and
/// never probes the CPU; buffers (Huffman and FSE tables, scratch space) are
/// allocated on first use and kept for later calls. Not thread-safe: use one
/// per thread. Move-only.
class decompressor {
public:
    decompressor() noexcept;
    ~decompressor();
    decompressor(decompressor&&) noexcept;
    decompressor& operator=(decompressor&&) noexcept;
    decompressor(const decompressor&) = delete;
    decompressor& operator=(const decompressor&) = delete;

    /// Largest window (as log2) this context accepts, 10…31; default 27.
    /// Frames that need more fail with errc::window_too_large before anything
    /// is allocated. Returns errc::invalid_argument outside 10…31.
    result<unsigned> set_max_window_log(unsigned log) noexcept;
    unsigned max_window_log() const noexcept { return max_window_log_; }

    /// Same as zest::decompress(dst, src), reusing this context's buffers.
    result<std::size_t> decompress(std::span<std::byte> dst, std::span<const std::byte> src) noexcept;
    result<std::size_t> decompress(void* dst, std::size_t dst_capacity, const void* src,
                                   std::size_t src_size) noexcept;
    /// Vector-returning form; throws like zest::decompress(src).
    std::vector<std::byte> decompress(std::span<const std::byte> src);

    /// One call with a dictionary (see zest::decompress with a dictionary),
    /// whatever dictionary the context holds.
    result<std::size_t> decompress(std::span<std::byte> dst, std::span<const std::byte> src,
                                   const zest::dictionary& d) noexcept;

    /// The dictionary every later call uses (an empty one: none). The
    /// context shares it; nothing is copied.
    void set_dictionary(zest::dictionary d) noexcept { dict_ = std::move(d); }
    const zest::dictionary& dict() const noexcept { return dict_; }

    /// Drops per-frame state (keeps buffers, the window limit and the dictionary).
    void reset() noexcept;

    /// Bytes of heap memory this context currently owns.
    std::size_t memory_usage() const noexcept;

private:
    detail::decoder_state* state_ = nullptr;
    unsigned max_window_log_ = default_max_window_log;
    zest::dictionary dict_;
    result<detail::decoder_state*> state() noexcept;
};

// ---------------------------------------------------------------------------
// Compression
// ---------------------------------------------------------------------------

/// Inputs of this size or more have no bound that fits a size_t (the
/// reference's limit, ZSTD_MAX_INPUT_SIZE).
inline constexpr std::size_t max_input_size =
    sizeof(std::size_t) == 8 ? std::size_t(0xFF00FF00FF00FF00ull) : std::size_t(0xFF00FF00u);

/// Largest compressed size of `n` input bytes: output buffers of this size
/// never make compression fail for lack of room. Same bound as the
/// reference; 0 when n >= max_input_size.
std::size_t compress_bound(std::size_t n) noexcept;

/// What `level` means for an input of `size` bytes (nullopt: unknown), as
/// the reference defines levels: its table, scaled down to the size (what
/// `zstd --show-default-cparams` prints). Levels beyond [min_level,
/// max_level] are clamped; 0 is the default level.
compression_parameters level_parameters(int level, std::optional<std::uint64_t> size) noexcept;

/// The parameters zest's compressors use for a frame of `size` bytes at
/// `level` with the parameters `set` beyond the level (as a compressor's
/// parameters() returns them: 0 fields take the level's; fields outside the
/// setters' bounds are ignored), fitted to the size, with long-distance
/// matching resolved (mode enabled or disabled, its parameters filled in).
compression_parameters used_parameters(int level, std::optional<std::uint64_t> size,
                                       const compression_parameters& set = {}) noexcept;

/// Compresses `src` into one frame in `dst` at `level` (0 means the default;
/// values beyond [min_level, max_level] are clamped). The frame declares its
/// content size and has no checksum. Returns the frame's size, or
/// errc::destination_too_small.
result<std::size_t> compress(std::span<std::byte> dst, std::span<const std::byte> src,
                             int level = default_level) noexcept;

/// Pointer-and-size form of the call above.
result<std::size_t> compress(void* dst, std::size_t dst_capacity, const void* src, std::size_t src_size,
                             int level = default_level) noexcept;

/// Compresses `src` into a new vector. Throws std::bad_alloc when memory runs out.
std::vector<std::byte> compress(std::span<const std::byte> src, int level = default_level);

/// Compresses `src` with a dictionary: its content is history in front of
/// the input and, for a formatted dictionary, its entropy tables and repeat
/// offsets are what the frame starts with. The frame header names the
/// dictionary's ID (none for raw content); decode it with the same
/// dictionary. An empty `dict` is no dictionary.
result<std::size_t> compress(std::span<std::byte> dst, std::span<const std::byte> src, const dictionary& dict,
                             int level = default_level) noexcept;

/// The settings a compressor and a compress_stream keep: a
/// compression_options and the dictionary. Every setter checks the value
/// as settings_table says (a value a setting refuses returns
/// errc::invalid_argument and changes nothing) and returns what it stored;
/// on a compress_stream in the middle of a frame every setter returns
/// errc::invalid_argument (settings apply from a frame's first call).
class compression_settings {
public:
    /// One setting by its row in settings_table (as ZSTD_CCtx_setParameter).
    result<int> set(setting s, int value) noexcept;
    int get(setting s) const noexcept { return get_setting(options_, s); }
    /// All of them at once: errc::invalid_argument, and no change, when one
    /// is refused (see valid()); the level is clamped.
    result<compression_options> set_options(const compression_options& o) noexcept;
    const compression_options& options() const noexcept { return options_; }

    /// The level (0 = default; clamped to [min_level, max_level]).
    result<int> set_level(int level) noexcept { return set(setting::level, level); }
    int level() const noexcept { return options_.level; }
    /// Negative levels by their acceleration, like the reference's --fast=N
    /// (N >= 1; the same as set_level(-N)).
    result<int> set_fast(int acceleration) noexcept;
    /// Appends an XXH64 content checksum to each frame (default off).
    result<bool> set_checksum(bool on) noexcept { return flag(setting::checksum, on); }
    bool checksum() const noexcept { return options_.checksum; }
    /// Declares the content size in the frame header (default on).
    result<bool> set_content_size(bool on) noexcept { return flag(setting::content_size, on); }
    bool content_size() const noexcept { return options_.content_size; }
    /// Sets the window to 2^log bytes (10..31) in place of the level's, or 0
    /// to take the level's (default). As the reference's windowLog: like the
    /// level's, it is then shrunk to an input of known smaller size (and
    /// bounds the match tables). Decoders refuse windows above their limit
    /// (2^27 by default); a window above 27 needs a decoder told so.
    result<unsigned> set_window_log(unsigned log) noexcept { return number(setting::window_log, log); }
    unsigned window_log() const noexcept { return options_.parameters.window_log; }

    /// Parameters beyond the level, as the reference's advanced parameters
    /// (ZSTD_c_strategy, ZSTD_c_chainLog, ...): each replaces the level's
    /// value before the parameters are fitted to the input's size; 0 (or
    /// strategy{}) takes the level's again (default). Bounds: settings_table
    /// (strategy fast..btultra2, chain_log 6..30, hash_log 6..30, search_log
    /// 1..30, min_match 3..7, target_length 0..131072; for `fast` the target
    /// length is the acceleration, as negative levels set it). The frames
    /// always decode with any decoder; only speed, memory and ratio change.
    result<zest::strategy> set_strategy(zest::strategy s) noexcept;
    result<unsigned> set_chain_log(unsigned log) noexcept { return number(setting::chain_log, log); }
    result<unsigned> set_hash_log(unsigned log) noexcept { return number(setting::hash_log, log); }
    result<unsigned> set_search_log(unsigned log) noexcept { return number(setting::search_log, log); }
    result<unsigned> set_min_match(unsigned n) noexcept { return number(setting::min_match, n); }
    result<unsigned> set_target_length(unsigned n) noexcept { return number(setting::target_length, n); }

    /// Worker threads for each frame (0, the default: everything on the
    /// calling thread). With n >= 1, inputs longer than one job are cut into
    /// jobs (job_size, or four windows and 1 MiB at least; at btopt and up,
    /// frames of known size from 8 MiB and two windows into two jobs at
    /// least, the first longer by what the others' history costs), each
    /// seeded with the end of the input before it (overlap_log) and
    /// compressed by the workers; the frame is one ordinary frame, the same
    /// for every n >= 1, and its size within a fraction of a percent of one
    /// thread's (one worker pays for the history too: it can be slower than
    /// n = 0). The workers start on the first such frame and stay until the
    /// context is destroyed or n changes. With a dictionary, the first job
    /// starts with it. Memory: per worker its match tables and a job's
    /// output (and, for a stream, a job's input; see compress_stream).
    result<unsigned> set_workers(unsigned n) noexcept { return number(setting::workers, n); }
    unsigned workers() const noexcept { return options_.workers; }
    /// All of them and the window log at once (0 fields: the level's); when
    /// one is out of bounds, returns errc::invalid_argument and changes none.
    result<compression_parameters> set_parameters(const compression_parameters& p) noexcept;
    /// The values set by the calls above: 0 where the level decides. The
    /// parameters a frame gets: used_parameters(level(), size, parameters()).
    const compression_parameters& parameters() const noexcept { return options_.parameters; }

    /// The dictionary every later frame uses (an empty one: none); shared,
    /// not copied. Kept by reset().
    result<bool> set_dictionary(zest::dictionary d) noexcept;
    const zest::dictionary& dict() const noexcept { return dict_; }
    /// Whether frames written with a dictionary name its ID in their header
    /// (default true; ZSTD_c_dictIDFlag).
    result<bool> set_dictionary_id_written(bool on) noexcept { return flag(setting::dictionary_id, on); }
    bool dictionary_id_written() const noexcept { return options_.dictionary_id; }

protected:
    compression_settings() noexcept = default;
    ~compression_settings() = default;
    compression_settings(compression_settings&&) noexcept = default;
    compression_settings& operator=(compression_settings&&) noexcept = default;

    compression_options options_{};
    zest::dictionary dict_;
    bool frame_open_ = false;  // a stream's frame is in progress: nothing may change

private:
    result<bool> flag(setting s, bool on) noexcept;
    result<unsigned> number(setting s, unsigned v) noexcept;
};

/// A reusable compression context. Constructing one allocates nothing and
/// never probes the CPU; match-finder tables and block buffers are allocated
/// on first use, sized to the parameters, and reused; the match tables are
/// not cleared between frames of the same parameters (positions go on
/// counting from the previous frame, and older entries are ignored), so a
/// frame is the same whatever the context compressed before. Not
/// thread-safe: use one per thread. Move-only.
class compressor : public compression_settings {
public:
    compressor() noexcept;
    ~compressor();
    compressor(compressor&&) noexcept;
    compressor& operator=(compressor&&) noexcept;
    compressor(const compressor&) = delete;
    compressor& operator=(const compressor&) = delete;

    result<std::size_t> compress(std::span<std::byte> dst, std::span<const std::byte> src) noexcept;
    result<std::size_t> compress(void* dst, std::size_t dst_capacity, const void* src,
                                 std::size_t src_size) noexcept;
    /// Throws std::bad_alloc when memory runs out.
    std::vector<std::byte> compress(std::span<const std::byte> src);

    /// One frame with a dictionary (see zest::compress with a dictionary),
    /// whatever dictionary the context holds.
    result<std::size_t> compress(std::span<std::byte> dst, std::span<const std::byte> src,
                                 const zest::dictionary& d) noexcept;

    /// Restores the default options (compression_options{}: level 3, no
    /// checksum, content size declared, every parameter from the level).
    /// Buffers and the dictionary are kept for the next call; every call
    /// starts a new frame anyway, so nothing else carries over.
    void reset() noexcept;

    /// Bytes of buffers currently held (the workers' included).
    std::size_t memory_usage() const noexcept;

private:
    result<std::size_t> compress_with(void* dst, std::size_t dst_capacity, const void* src, std::size_t src_size,
                                      const detail::dictionary_data* d) noexcept;
    std::unique_ptr<detail::encoder_state> state_;
    std::unique_ptr<detail::parallel_state> parallel_;  // with workers
};

// ---------------------------------------------------------------------------
// Streaming
// ---------------------------------------------------------------------------

/// Input of a streaming call: bytes [src + pos, src + size) are pending;
/// the call advances pos past what it consumed.
struct in_buffer {
    const void* src = nullptr;
    std::size_t size = 0;
    std::size_t pos = 0;
};

/// Output of a streaming call: room is [dst + pos, dst + size); the call
/// advances pos past what it wrote.
struct out_buffer {
    void* dst = nullptr;
    std::size_t size = 0;
    std::size_t pos = 0;
};

/// Streaming decompression: feed input and output buffers of any sizes
/// (down to one byte) and get the same bytes as a one-shot call. Accepts
/// concatenated Zstandard and skippable frames. Memory: one window buffer
/// sized for the current frame (window + one block + a few bytes), a block
/// of input when the caller's input does not hold a whole block, and the
/// decoder's tables; allocated on first need and kept for later frames that
/// fit. Not thread-safe; move-only.
class decompress_stream {
public:
    decompress_stream() noexcept;
    ~decompress_stream();
    decompress_stream(decompress_stream&&) noexcept;
    decompress_stream& operator=(decompress_stream&&) noexcept;
    decompress_stream(const decompress_stream&) = delete;
    decompress_stream& operator=(const decompress_stream&) = delete;

    /// Largest window (as log2, 10..31; default 27); frames needing more
    /// fail with errc::window_too_large before their buffer is allocated.
    result<unsigned> set_max_window_log(unsigned log) noexcept;
    unsigned max_window_log() const noexcept { return max_window_log_; }

    /// Whether content checksums are computed and compared (default true).
    /// Off, a frame's checksum is read and ignored, as `zstd -d --no-check`
    /// does; takes effect from the next frame.
    void set_verify_checksum(bool on) noexcept { verify_checksum_ = on; }
    bool verify_checksum() const noexcept { return verify_checksum_; }

    /// The dictionary the frames that start from now on use (an empty one:
    /// none); shared, not copied. Between frames only: mid-frame it returns
    /// errc::invalid_argument and changes nothing. Kept by reset().
    result<bool> set_dictionary(zest::dictionary d) noexcept;
    const zest::dictionary& dict() const noexcept { return dict_; }

    /// Consumes input and produces output until one of them runs out or a
    /// frame ends. Returns 0 when a frame (or skippable frame) has just been
    /// completely decoded and flushed (in.pos is then just past it), else a
    /// hint > 0: how many input bytes the next step would like. After an
    /// error the stream stays failed until reset().
    ///
    /// Input is taken as libzstd's ZSTD_decompressStream takes it: nothing
    /// of the next block while decoded bytes wait for output room, and a
    /// frame's last byte only by the call that also hands out the frame's
    /// last decoded byte (until then in.pos stays just before it, and the
    /// byte must be offered again). So a caller may stop as soon as its input
    /// is consumed and a call returned 0: nothing decoded is left behind.
    result<std::size_t> decompress(out_buffer& out, in_buffer& in) noexcept;

    /// Abandons any frame in progress; the next byte read starts a frame.
    /// Keeps buffers and the window limit.
    void reset() noexcept;

    /// True between frames (nothing buffered, no frame started).
    bool at_frame_boundary() const noexcept;

    /// Bytes of heap memory currently owned.
    std::size_t memory_usage() const noexcept;

    /// Buffer sizes that make each call do a whole block's work.
    static constexpr std::size_t recommended_in_size = 128 * 1024 + 3;
    static constexpr std::size_t recommended_out_size = 128 * 1024;

private:
    struct impl;
    impl* impl_ = nullptr;
    unsigned max_window_log_ = default_max_window_log;
    bool verify_checksum_ = true;
    zest::dictionary dict_;
};

/// What a streaming compression call should do with the input given so far.
enum class directive {
    proceed,  ///< compress whole blocks as they fill, buffer the rest
    flush,    ///< also compress what is buffered, so that all input given so far is decodable
    end,      ///< compress everything and finish the frame (checksum included)
};

/// Streaming compression into one frame at a time, with the options of a
/// `compressor`. The frame header is written when the first call of a frame
/// is made; without a pledged size it declares no content size. Memory: an
/// input buffer of twice the window plus one block (a pledged size smaller
/// than that: twice the size; pages are only touched as input fills them),
/// the match tables, one block of output and block scratch; no file;
/// buffers of 4 MiB and more mapped on huge pages where the system offers
/// them; allocated on the frame's first call, sized to its parameters, kept for
/// later frames. With workers (set_workers), frames of unknown size or
/// longer than one job go to them instead: per worker a job in flight and
/// one more being filled (no more than the frame's jobs), each of job +
/// overlap input bytes and up to a job of output (job: four windows, 1 MiB
/// at least, or job_size; see set_workers for frames of known size at the
/// optimal strategies), plus each
/// worker's match tables; calls then wait for the workers only on flush
/// and end, or when every job buffer is taken. Not thread-safe (the
/// workers are the stream's own); move-only.
class compress_stream : public compression_settings {
public:
    compress_stream() noexcept;
    ~compress_stream();
    compress_stream(compress_stream&&) noexcept;
    compress_stream& operator=(compress_stream&&) noexcept;
    compress_stream(const compress_stream&) = delete;
    compress_stream& operator=(const compress_stream&) = delete;

    // The settings are compression_settings' (as on `compressor`); they
    // apply from the next frame (mid-frame, setters return
    // errc::invalid_argument).

    /// Declares the next frame's size: written in its header (with the
    /// content-size option on) and used to size its window; the frame then
    /// fails with errc::content_size_mismatch if its input turns out longer
    /// or shorter. Only between frames. Cleared when a frame ends or on reset.
    result<std::uint64_t> set_pledged_size(std::uint64_t size) noexcept;

    /// Roughly how large frames of unknown size will be: their parameters
    /// (window, tables) are chosen as for an input of that size, as the
    /// reference's srcSizeHint does. A pledged size, or all input given with
    /// directive::end, takes precedence. Output stays correct whatever the
    /// real size. 0 (the default) removes the hint. Only between frames;
    /// kept across frames and by reset(), like the other options.
    result<std::uint64_t> set_size_hint(std::uint64_t size) noexcept;
    std::uint64_t size_hint() const noexcept { return size_hint_; }

    /// Takes input from `in` and writes frame bytes to `out` as `d` asks.
    /// Returns how many bytes are still waiting to be written (call again
    /// with more room while it is not 0); 0 with directive::flush means all
    /// input so far is decodable from the output, with directive::end that
    /// the frame is complete (the next call starts a new one). With
    /// directive::end, pass the same input until 0 is returned. After an
    /// error the stream stays failed until reset().
    result<std::size_t> compress(out_buffer& out, in_buffer& in, directive d = directive::proceed) noexcept;

    /// Abandons the frame in progress (and a pledged size); keeps options
    /// and buffers.
    void reset() noexcept;

    /// Bytes of heap memory currently owned.
    std::size_t memory_usage() const noexcept;

    static constexpr std::size_t recommended_in_size = 128 * 1024;
    /// Room for a frame header, one block and the checksum: with this much
    /// output room, a directive::proceed call given at most
    /// recommended_in_size bytes never leaves output waiting.
    static constexpr std::size_t recommended_out_size = 128 * 1024 + 512 + 18 + 4 + 3;

private:
    struct impl;
    std::unique_ptr<impl> impl_;
    std::uint64_t size_hint_ = 0;
};

}  // namespace zest
