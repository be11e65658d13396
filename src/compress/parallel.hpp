// Compression of one frame by workers: the input is cut into jobs, each
// compressed on a worker thread with the end of the data before it (the
// overlap) as history, and the jobs' blocks are written in order into one
// ordinary frame. A job's blocks depend only on its bytes, its history and
// the frame's parameters, never on which worker ran it or how many there
// are, so the frame is the same for every number of workers.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "compress/frame_writer.hpp"

namespace zest::detail {

/// One job: `size` bytes at `data`, right after `prefix_size` bytes of
/// history in the same buffer; its blocks go to `out`.
struct compress_job {
    const std::uint8_t* data = nullptr;
    std::size_t size = 0;
    std::size_t prefix_size = 0;
    bool first = false;  // the frame's first job: no history, the frame's repeat offsets
    bool last = false;   // its last block ends the frame
    compression_params params{};
    // The frame's dictionary (the first job starts with it, as the
    // reference's; the others with their overlap only), or null.
    const dictionary_data* dict = nullptr;
    // With long-distance matching: the job's long matches, found in order
    // on the thread that feeds the workers (ldm_sequencer; `start` counts
    // from data), in a buffer the slot keeps.
    std::unique_ptr<ldm_match[]> ldm;
    std::size_t n_ldm = 0, ldm_capacity = 0;
    // Written by the worker, read after wait():
    std::unique_ptr<std::uint8_t[]> out;
    std::size_t out_capacity = 0;
    std::size_t out_size = 0;
    errc error{};

    /// Makes `out` hold the blocks of any job of `size` bytes (and `ldm`
    /// its long matches when `p` enables them); false when memory runs out.
    bool reserve_output(std::size_t size, const compression_params& p) noexcept;

private:
    friend class worker_pool;
    compress_job* next_ = nullptr;
    bool done_ = true;
};

/// Bytes of output a job of `n` input bytes may need: every block raw, or
/// cut into the most parts the optimal strategies make, each with a header.
std::size_t job_output_bound(std::size_t n) noexcept;

/// Worker threads, each with its own encoder state, running jobs in the
/// order they are submitted. Started on first need; stopped and joined by
/// the destructor or by a start() with another count.
class worker_pool {
public:
    worker_pool() noexcept = default;
    worker_pool(const worker_pool&) = delete;
    worker_pool& operator=(const worker_pool&) = delete;
    ~worker_pool() { stop(); }

    /// Makes `n` workers run (n >= 1); errc::out_of_memory when the system
    /// refuses a thread (those started are stopped).
    errc start(unsigned n) noexcept;
    unsigned size() const noexcept { return unsigned(threads_.size()); }

    /// Queues `j` (not queued already); a worker compresses it.
    void submit(compress_job& j) noexcept;
    /// Until `j`, submitted, is done.
    void wait(compress_job& j) noexcept;
    /// Whether `j` is done (not queued, not running).
    bool finished(const compress_job& j) const noexcept;

    /// Bytes of the workers' encoder states.
    std::size_t memory_usage() const noexcept;

    /// Test hook: when set, each worker's first job fails as if memory had
    /// run out after the worker was started.
    static bool (*fail_job)(const compress_job&) noexcept;

private:
    void stop() noexcept;
    void work(encoder_state* st) noexcept;

    mutable std::mutex m_;
    std::condition_variable queued_, finished_;
    compress_job* head_ = nullptr;
    compress_job* tail_ = nullptr;
    bool stopping_ = false;
    std::vector<std::thread> threads_;
    std::vector<std::unique_ptr<encoder_state>> states_;
};

/// The input bytes per job for a frame with parameters `p`: the caller's
/// job size (512 KiB at least), else four windows and 1 MiB at least, or
/// with long-distance matching 8 chain-table cycles and 2 MiB at least
/// (the reference's), rounded to whole blocks. Frames of known size may be
/// cut otherwise (plan_jobs).
std::size_t job_size_for(const compression_params& p, const compression_options& o) noexcept;

/// The history each job after the first starts with: 2^(overlap_log - 9) of
/// the window, overlap_log the caller's or the strategy's (the reference's
/// defaults: 6 for fast to lazy, 7 lazy2 and btlazy2, 8 btopt and btultra,
/// 9 btultra2); none at overlap_log 1. With long-distance matching, of a
/// quarter job where that is less than the window, as the reference.
std::size_t overlap_for(const compression_params& p, const compression_options& o) noexcept;

/// Long-distance matching for a frame cut into jobs, as the reference
/// does it: the long matches are found on one thread, job after job in
/// the order of the input, with one table of samples over the whole
/// window, so that they reach back a window from any job (the jobs' own
/// history is only the overlap). The jobs' finders take them as found
/// and never read their sources. Blocks are cut as the workers cut them
/// (block_max from each job's start), so each block's matches lie in it.
class ldm_sequencer {
public:
    /// Starts a frame with parameters `p` (long-distance matching enabled).
    errc begin(const compression_params& p) noexcept;
    /// Appends to j.ldm the long matches in the `n` bytes at `data`, which
    /// are `offset` bytes into j's input (their starts counted from j's
    /// first byte); offset and n are whole blocks but for j's last. The
    /// frame's bytes before them, up to a window, are still right before
    /// data (wherever the caller moved them).
    void scan(const std::uint8_t* data, std::size_t n, compress_job& j, std::size_t offset) noexcept;
    std::size_t block() const noexcept { return block_; }
    std::size_t memory_usage() const noexcept;

private:
    zeroed_table<ldm_entry> entries_;
    zeroed_table<std::uint8_t> next_;
    ldm_settings s_{};
    std::size_t window_ = 0, block_ = 0;
    std::uint32_t low_ = 1;  // position of the frame's first byte (lowered with the rest)
    std::uint32_t pos_ = 1;  // position of the next byte to scan
};

/// Where --rsyncable cuts jobs: after a byte where a gear hash of the bytes
/// before it (each shifts the hash left by one, so it covers the last 64)
/// has its top `bits` bits clear. The hash is the same whatever pieces the
/// input comes in, so the cuts depend on the content alone, and a change
/// early in the input moves only the cuts up to the next one after it.
/// One table lookup, a shift and an add per byte, on the thread that feeds
/// the workers (the reference's rolling hash over 32 bytes multiplies
/// twice per byte).
class rsync_cuts {
public:
    /// Cuts about every 2^bits bytes, never within `min` bytes of the
    /// previous cut.
    void start(unsigned bits, std::size_t min) noexcept;
    /// Hashes `n` bytes at `p`, `since` bytes after the last cut; returns
    /// the bytes up to and including the first that ends a piece (`cut`
    /// set), or n (`cut` clear).
    std::size_t scan(const std::uint8_t* p, std::size_t n, std::size_t since, bool& cut) noexcept;

private:
    std::uint64_t hash_ = 0;
    std::uint64_t mask_ = 0;
    std::size_t min_ = 0;
};

/// The cuts' parameters for jobs of `job` bytes: a cut every job/8 bytes
/// or so, at least 64 KiB apart; a job ends at a cut or at `job` bytes.
unsigned rsync_bits(std::size_t job) noexcept;
inline constexpr std::size_t rsync_min_piece = std::size_t(64) << 10;

/// Compresses `j` with `st` (what a worker runs): its blocks into j.out.
void run_job(encoder_state& st, compress_job& j) noexcept;

/// What a context keeps for compressing with workers: the pool and job
/// slots whose buffers are reused from frame to frame.
struct parallel_state {
    std::vector<compress_job> jobs;
    ldm_sequencer ldm;
    worker_pool pool;  // after the jobs: destroyed first, it finishes what it runs
    std::size_t memory_usage() const noexcept;
};

/// How a frame is cut into jobs: the first job's input bytes, then each
/// later one's (the last takes what remains).
struct job_plan {
    std::size_t first, rest;
};

/// The relative cost of history for the optimal strategies: sorting a
/// byte of a job's overlap into the binary tree costs this many eighths
/// of compressing a byte (0.74 measured at level 19, btultra2: 16 MiB on
/// one thread took 14.2 s of CPU, cut into two jobs 19.4 s, 8 MiB of them
/// history).
inline constexpr unsigned history_cost_eighths = 6;
/// The smallest frame the optimal strategies cut into two jobs or more:
/// 8 MiB, and two windows (below that, the second job's history is the
/// whole first job: at level 19 on 8 MiB, one worker would spend 1.6x the
/// time of one job, for 1.25x on two).
inline constexpr std::size_t opt_split_min = std::size_t(8) << 20;

/// The jobs of a frame of `size` bytes (content_size_unknown: not known):
/// job_size_for each, except for the optimal strategies (btopt and up) on
/// frames of known size from opt_split_min and two windows on, where the
/// job size alone would leave a core idle: at least two jobs (a frame of
/// 16 to 32 MiB at level 19 is one job of four windows), the first longer
/// than the others by what their history costs, so that every job takes
/// about the same time (a first job as long as the others finished first
/// and left one worker alone with the last). Depends on the parameters
/// and the size, never on the number of workers, so one worker pays for
/// the history too (at level 19 on 16 MiB: 1.36x the time of one job).
/// Unchanged with a caller's job size, rsyncable or long-distance
/// matching.
job_plan plan_jobs(const compression_params& p, const compression_options& o, std::uint64_t size) noexcept;

/// Whether a frame of `size` bytes (content_size_unknown: not known) with
/// parameters `p` goes to o.workers workers: there are some, and the frame
/// may be longer than one job (a frame of one job is the same frame on the
/// calling thread).
bool in_jobs(const compression_params& p, const compression_options& o, std::uint64_t size) noexcept;

/// One frame of `size` bytes at `src` (in_jobs) with parameters `p`
/// (frame_params(o, size), with a dictionary of size plus its content)
/// compressed by o.workers workers into dst: the frame header, the jobs'
/// blocks in order, the checksum. Returns the frame's size.
result<std::size_t> compress_parallel(parallel_state& ps, std::uint8_t* dst, std::size_t capacity,
                                      const std::uint8_t* src, std::size_t size, const frame_options& o,
                                      const compression_params& p, const dictionary_data* dict) noexcept;

/// A frame of unknown or large size written by workers from streamed input
/// (compress_stream with workers): input is copied into job buffers, each
/// holding first the history its job starts with (the end of the input
/// before it); a full job is handed to the workers once more input follows
/// (or on flush and end), and the jobs' blocks are handed out in order.
/// Buffers: a job per worker in flight (two with rsyncable) and one filling
/// (no more than the frame's jobs when its size is known), each of overlap
/// + the longest job's input bytes (plan_jobs) and its job_output_bound.
class parallel_stream {
public:
    parallel_stream() noexcept = default;
    parallel_stream(const parallel_stream&) = delete;
    parallel_stream& operator=(const parallel_stream&) = delete;
    ~parallel_stream() { abandon(); }

    /// Starts a frame with parameters `p` on o.workers workers, its first
    /// job with dictionary `dict` (or none; it must outlive the frame).
    /// `size`: the frame's, or content_size_unknown (see plan_jobs).
    errc begin(const compression_params& p, const compression_options& o, const dictionary_data* dict,
               std::uint64_t size) noexcept;
    /// Copies up to `n` bytes into the job being filled; returns how many.
    std::size_t take(const std::uint8_t* src, std::size_t n) noexcept;
    /// Whether the job being filled is complete: job bytes, or (rsyncable)
    /// ended at a cut.
    bool job_full() const noexcept { return size_ == job_now() || cut_; }
    std::size_t pending() const noexcept { return size_; }
    /// Whether a job can be submitted now without a last one: a buffer is
    /// free for the next.
    bool can_submit() const noexcept { return in_flight_ + 2 <= slots_; }
    /// Hands the job being filled to the workers (`last`: it ends the frame).
    void submit(bool last) noexcept;
    /// Copies the blocks of finished jobs, in order, to `out`, first waiting
    /// for up to `wait` jobs that are still running (while `out` has room).
    /// Returns the first failed job's error.
    errc drain(out_buffer& out, std::size_t wait) noexcept;
    /// No job in flight nor output waiting.
    bool idle() const noexcept { return in_flight_ == 0; }
    /// Bytes of finished jobs not handed out yet, and 1 more while a job runs.
    std::size_t waiting() const noexcept;
    /// Waits for the jobs in flight and drops them (a frame abandoned).
    void abandon() noexcept;
    std::size_t memory_usage() const noexcept;

private:
    struct input {
        large_buffer data;
        std::size_t capacity = 0;
        /// At least n bytes (their content lost when it grows); false when
        /// memory runs out.
        bool reserve(std::size_t n) noexcept;
    };
    /// Finds the long matches of the job being filled's next `n` bytes
    /// (scanned_ on), the end of the window's bytes.
    void scan_long_matches(std::size_t n) noexcept;
    /// The input bytes of the job being filled.
    std::size_t job_now() const noexcept { return started_ ? job_ : first_job_; }
    std::vector<input> in_;  // before ps_, destroyed after its workers stopped
    // With long-distance matching, the input's last window (and more, so
    // that it moves back once per half window of input) for ps_.ldm.
    input window_;
    std::size_t window_used_ = 0, window_keep_ = 0;
    std::size_t scanned_ = 0;  // bytes of the job being filled whose long matches are found
    parallel_state ps_;
    compression_params p_{};
    const dictionary_data* dict_ = nullptr;
    std::size_t job_ = 0, first_job_ = 0, overlap_ = 0, slots_ = 0;
    std::size_t cur_ = 0;                // slot being filled
    std::size_t prefix_ = 0, size_ = 0;  // its history and input
    std::size_t oldest_ = 0, in_flight_ = 0, handed_ = 0;
    std::uint64_t total_ = 0;  // input in the jobs submitted
    bool started_ = false;     // the frame's first job is submitted
    bool rsyncable_ = false;
    bool cut_ = false;  // the job being filled ends at a cut
    rsync_cuts cuts_;
};

/// Jobs in flight per worker. One more buffer is being filled (streams) or
/// waits queued (one-shot), so that a worker that finishes finds its next
/// job ready; more measured no faster on 2 cores (64 MiB at level 3) and
/// cost 8 × window of memory per worker. Streams with --rsyncable take
/// twice as many: their jobs end at content-defined cuts, so their sizes
/// vary, and with one per worker a worker done with a short job idled
/// until the long one before it was handed out (64 MiB at level 3, two
/// workers: 0.80 of the speed without --rsyncable, 1.0 with two).
inline constexpr unsigned jobs_per_worker = 1;

}  // namespace zest::detail
