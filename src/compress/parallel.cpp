// Workers and jobs for compressing one frame in parallel (parallel.hpp).
#include "compress/parallel.hpp"

#include <algorithm>
#include <cstring>
#include <new>
#include <span>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "common/bits.hpp"
#include "dictionary/dictionary_data.hpp"

namespace zest::detail {

bool (*worker_pool::fail_job)(const compress_job&) noexcept = nullptr;

std::size_t job_output_bound(std::size_t n) noexcept {
    const std::size_t blocks = n / block_size_max + 1;
    return n + blocks * block_header_size * (block_cuts::max_cuts + 1);
}

namespace {

bool uses_ldm(const compression_params& p) noexcept { return p.ldm.mode == zest::ldm_mode::enabled; }

std::size_t block_of(const compression_params& p) noexcept {
    return std::min<std::size_t>(block_size_max, std::size_t(1) << p.window_log);
}

}  // namespace

bool compress_job::reserve_output(std::size_t size, const compression_params& p) noexcept {
    const std::size_t want = job_output_bound(size);
    if (out_capacity < want) {
        out.reset(new (std::nothrow) std::uint8_t[want]);
        out_capacity = out ? want : 0;
        if (!out) return false;
    }
    if (!uses_ldm(p)) return true;
    // Each block's matches are at most ldm_max_matches of it.
    const std::size_t block = block_of(p);
    const std::size_t matches = (size / block + 1) * ldm_max_matches(block, p.ldm.min_match);
    if (ldm_capacity >= matches) return true;
    ldm.reset(new (std::nothrow) ldm_match[matches]);
    ldm_capacity = ldm ? matches : 0;
    return ldm != nullptr;
}

errc ldm_sequencer::begin(const compression_params& p) noexcept {
    const std::size_t entries = std::size_t(1) << p.ldm.hash_log,
                      buckets = std::size_t(1) << (p.ldm.hash_log - p.ldm.bucket_size_log);
    if (entries_.size() != entries || next_.size() != buckets) {
        if (!entries_.assign(entries) || !next_.assign(buckets)) return errc::out_of_memory;
    } else {
        // Entries of an earlier frame would be taken for this one's.
        std::memset(entries_.data(), 0, entries * sizeof(ldm_entry));
        std::memset(next_.data(), 0, buckets);
    }
    s_ = {p.ldm.hash_log, p.ldm.bucket_size_log, p.ldm.min_match, p.ldm.hash_rate_log};
    window_ = std::size_t(1) << p.window_log;
    block_ = block_of(p);
    low_ = pos_ = 1;  // 0 marks an empty entry
    return ok;
}

void ldm_sequencer::scan(const std::uint8_t* data, std::size_t n, compress_job& j, std::size_t offset) noexcept {
    if (std::size_t(pos_) + n >= stream_position_limit) {
        // Positions more than a window back are dropped; the rest move down.
        const std::uint32_t delta = pos_ > window_ + 1 ? std::uint32_t(pos_ - window_ - 1) : 0;
        for (ldm_entry& e : std::span(entries_.data(), entries_.size())) e.pos = e.pos > delta ? e.pos - delta : 0;
        low_ = low_ > delta ? low_ - delta : 1;
        pos_ -= delta;
    }
    const std::uint8_t* const base = data - pos_;
    for (std::size_t done = 0; done < n;) {
        const std::size_t k = std::min(block_, n - done);
        const std::size_t from = pos_ + done, end = from + k;
        const std::size_t lowest = end - low_ > window_ ? end - window_ : low_;
        ldm_match* const out = j.ldm.get() + j.n_ldm;
        const std::size_t found = find_long_matches(s_, {entries_.data(), next_.data()}, base, low_, lowest, from, end, out);
        for (std::size_t i = 0; i < found; ++i) out[i].start += std::uint32_t(offset + done);
        j.n_ldm += found;
        done += k;
    }
    pos_ += std::uint32_t(n);
}

std::size_t ldm_sequencer::memory_usage() const noexcept {
    return entries_.size() * sizeof(ldm_entry) + next_.size();
}

errc worker_pool::start(unsigned n) noexcept {
    if (threads_.size() == n) return ok;
    stop();
    try {
        threads_.reserve(n);
        states_.reserve(n);
        for (unsigned i = 0; i < n; ++i) {
            std::unique_ptr<encoder_state> st(new (std::nothrow) encoder_state);
            if (!st) throw std::bad_alloc();
            encoder_state* const raw = st.get();
            states_.push_back(std::move(st));
            threads_.emplace_back([this, raw] { work(raw); });
        }
    } catch (...) {
        stop();
        return errc::out_of_memory;
    }
    return ok;
}

void worker_pool::stop() noexcept {
    {
        std::lock_guard lock(m_);
        stopping_ = true;
    }
    queued_.notify_all();
    for (std::thread& t : threads_) t.join();
    threads_.clear();
    states_.clear();
    stopping_ = false;
}

void worker_pool::submit(compress_job& j) noexcept {
    {
        std::lock_guard lock(m_);
        j.done_ = false;
        j.next_ = nullptr;
        (tail_ ? tail_->next_ : head_) = &j;
        tail_ = &j;
    }
    queued_.notify_one();
}

void worker_pool::wait(compress_job& j) noexcept {
    std::unique_lock lock(m_);
    finished_.wait(lock, [&] { return j.done_; });
}

bool worker_pool::finished(const compress_job& j) const noexcept {
    std::lock_guard lock(m_);
    return j.done_;
}

void worker_pool::work(encoder_state* st) noexcept {
    std::unique_lock lock(m_);
    for (;;) {
        queued_.wait(lock, [&] { return stopping_ || head_; });
        if (!head_) return;  // stopping, and nothing is left queued
        compress_job* const j = head_;
        head_ = j->next_;
        if (!head_) tail_ = nullptr;
        lock.unlock();
        run_job(*st, *j);
        lock.lock();
        j->done_ = true;
        finished_.notify_all();
    }
}

std::size_t worker_pool::memory_usage() const noexcept {
    std::size_t n = 0;
    for (const auto& st : states_) n += sizeof(encoder_state) + st->memory_usage();
    return n;
}

std::size_t parallel_state::memory_usage() const noexcept {
    std::size_t n = pool.memory_usage() + ldm.memory_usage();
    for (const compress_job& j : jobs) n += j.out_capacity + j.ldm_capacity * sizeof(ldm_match);
    return n;
}

namespace {

// The reference's job size (log2) with long-distance matching, whose
// window is mostly larger than its finder's tables reach: 8 times the
// chain table's cycle, 2 MiB at least.
unsigned ldm_job_log(const compression_params& p) noexcept {
    const unsigned cycle = p.chain_log - (p.strategy >= strategy::btlazy2 ? 1 : 0);
    return std::max(21u, cycle + 3);
}

}  // namespace

std::size_t job_size_for(const compression_params& p, const compression_options& o) noexcept {
    std::size_t job = o.job_size    ? std::max<std::size_t>(o.job_size, std::size_t(min_job_size))
                      : uses_ldm(p) ? std::size_t(1) << ldm_job_log(p)
                                    : std::max<std::size_t>(std::size_t(1) << 20, std::size_t(4) << p.window_log);
    const std::size_t block = block_of(p);
    return (job + block - 1) / block * block;
}

std::size_t overlap_for(const compression_params& p, const compression_options& o) noexcept {
    unsigned log = o.overlap_log;
    if (log == 0) {
        switch (p.strategy) {
            case strategy::btultra2: log = 9; break;
            case strategy::btultra:
            case strategy::btopt: log = 8; break;
            case strategy::btlazy2:
            case strategy::lazy2: log = 7; break;
            default: log = 6; break;
        }
    }
    const unsigned less = 9 - log;  // the overlap is the window >> less
    if (less >= 8) return 0;
    // With long-distance matching, of a quarter job when that is less than
    // the window (the long matches reach farther).
    const unsigned from = uses_ldm(p) ? std::min(p.window_log, ldm_job_log(p) - 2) : p.window_log;
    return std::size_t(1) << (from - less);
}

namespace {

// 256 random 64-bit values (splitmix64 from a fixed seed), one per byte value.
struct gear_table {
    std::uint64_t v[256];
    constexpr gear_table() noexcept : v{} {
        std::uint64_t x = 0x5a17ee5a17ee5a17ull;
        for (auto& e : v) {
            x += 0x9e3779b97f4a7c15ull;
            std::uint64_t z = x;
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
            e = z ^ (z >> 31);
        }
    }
};
constexpr gear_table gear;

}  // namespace

void rsync_cuts::start(unsigned bits, std::size_t min) noexcept {
    hash_ = 0;
    mask_ = bits ? ~std::uint64_t(0) << (64 - bits) : 0;
    min_ = min;
}

std::size_t rsync_cuts::scan(const std::uint8_t* p, std::size_t n, std::size_t since, bool& cut) noexcept {
    std::uint64_t h = hash_;
    cut = false;
    std::size_t i = 0;
    // Within `min` of the last cut nothing ends a piece: only the last 64
    // bytes before the first place that may need hashing.
    if (since < min_) {
        const std::size_t quiet = std::min(n, min_ - since);
        for (i = quiet > 64 ? quiet - 64 : 0; i < quiet; ++i) h = (h << 1) + gear.v[p[i]];
    }
    const auto hits = [&](std::uint64_t v) { return (v & mask_) == 0; };
    // Long stretches in four lanes whose hashes do not wait on each other
    // (one lane's chain of shift, load and add per byte ran at 0.6 GB/s).
    // The hash after a byte depends only on the 64 bytes up to it, so
    // lanes 1 to 3 start from the 64 bytes before them, hashing exactly
    // what one lane would.
    constexpr std::size_t lanes = 4;
    if (n - i >= lanes * 1024) {
        const std::size_t len = (n - i) / lanes;
        std::uint64_t v[lanes] = {h, 0, 0, 0};
        std::size_t at[lanes];
        for (std::size_t k = 0; k < lanes; ++k) {
            at[k] = i + k * len;
            if (k) {
                for (std::size_t b = at[k] - 64; b < at[k]; ++b) v[k] = (v[k] << 1) + gear.v[p[b]];
            }
        }
        std::size_t t = 0;
        bool any = false;
        for (; t < len; ++t) {
            for (std::size_t k = 0; k < lanes; ++k) v[k] = (v[k] << 1) + gear.v[p[at[k] + t]];
            if (int(hits(v[0])) | int(hits(v[1])) | int(hits(v[2])) | int(hits(v[3]))) {
                any = true;
                break;
            }
        }
        if (any) {
            // The first lane that hit at step t; a lane before it may still
            // hit later in its own stretch, which comes first in the input.
            std::size_t first = 0;
            while (!hits(v[first])) ++first;
            for (std::size_t k = 0; k < first; ++k) {
                std::uint64_t w = v[k];
                for (std::size_t u = t + 1; u < len; ++u) {
                    w = (w << 1) + gear.v[p[at[k] + u]];
                    if (hits(w)) {
                        hash_ = w;
                        cut = true;
                        return at[k] + u + 1;
                    }
                }
            }
            hash_ = v[first];
            cut = true;
            return at[first] + t + 1;
        }
        h = v[lanes - 1];
        i = at[lanes - 1] + len;
    }
    for (; i < n; ++i) {
        h = (h << 1) + gear.v[p[i]];
        if (hits(h)) {
            hash_ = h;
            cut = true;
            return i + 1;
        }
    }
    hash_ = h;
    return n;
}

unsigned rsync_bits(std::size_t job) noexcept {
    unsigned log = 0;
    while ((std::size_t(2) << log) <= job) ++log;  // floor(log2(job))
    return log > 3 ? log - 3 : 1;
}

void run_job(encoder_state& st, compress_job& j) noexcept {
    j.out_size = 0;
    j.error = errc{};
    if (worker_pool::fail_job && worker_pool::fail_job(j)) {
        j.error = errc::out_of_memory;
        return;
    }
    // The first job with a dictionary: its content goes right before the
    // job's input, in the worker's buffer, as on one thread.
    const dictionary_data* const dict = j.first ? j.dict : nullptr;
    const std::size_t history = dict ? dict->content_size : j.prefix_size;
    const std::uint8_t* data = j.data;
    if (dict) {
        data = st.behind_dictionary(*dict, j.data, j.size);
        if (!data) {
            j.error = errc::out_of_memory;
            return;
        }
    }
    block_writer w;
    const bool ldm = uses_ldm(j.params);
    if (const errc e = w.begin(st, j.params, history + j.size, !ldm); e != ok) {
        j.error = e;
        return;
    }
    const std::uint32_t low = w.first_index();
    w.set_base(frame_base(data - history, low));
    if (ldm) w.take_long_matches(j.ldm.get(), j.n_ldm, low + history);
    const std::uint8_t* const end = data + j.size;
    if (dict)
        w.load_dictionary(*dict, low, end);
    else if (!j.first)
        w.load_prefix(low, j.prefix_size, end);
    const auto r = w.write_all(low + history, j.size, j.last, end, j.out.get(), j.out_capacity);
    if (!r) {
        j.error = r.error();
        return;
    }
    j.out_size = *r;
}

job_plan plan_jobs(const compression_params& p, const compression_options& o, std::uint64_t size) noexcept {
    const std::size_t job = job_size_for(p, o);
    // Sizes past any real input (a pledge of exabytes, which will fail)
    // are planned as unknown, which keeps the sums below from wrapping.
    if (size == content_size_unknown || size >= (std::uint64_t(1) << 50) || size < opt_split_min ||
        size < (std::uint64_t(2) << p.window_log) || p.strategy < strategy::btopt || o.job_size || o.rsyncable ||
        uses_ldm(p))
        return {job, job};
    // k jobs; the first x bytes, the others y, and each after the first
    // pays for its history, the overlap (every job is a window or more,
    // the overlap a window at most): x = y + r * overlap balances them,
    // with x + (k - 1) * y = size.
    const std::uint64_t n = size, k = std::max<std::uint64_t>(2, (n + job - 1) / job);
    const std::uint64_t overlap = overlap_for(p, o);
    const std::uint64_t x0 = (8 * n + (k - 1) * history_cost_eighths * overlap) / (8 * k);
    const std::uint64_t block = block_of(p);
    const std::uint64_t x = (x0 + block - 1) / block * block;
    const std::uint64_t each = (n - std::min(n, x) + k - 2) / (k - 1);  // rounded up
    const std::uint64_t y = std::max(block, (each + block - 1) / block * block);
    return {std::size_t(x), std::size_t(y)};
}

bool in_jobs(const compression_params& p, const compression_options& o, std::uint64_t size) noexcept {
    return o.workers && (size == content_size_unknown || size > plan_jobs(p, o, size).first);
}

result<std::size_t> compress_parallel(parallel_state& ps, std::uint8_t* dst, std::size_t capacity,
                                      const std::uint8_t* src, std::size_t size, const frame_options& o,
                                      const compression_params& p, const dictionary_data* dict) noexcept {
    const job_plan plan = plan_jobs(p, o, size);
    const std::size_t job = std::max(plan.first, plan.rest), overlap = overlap_for(p, o);
    const std::size_t n_jobs = 1 + (size - std::min(size, plan.first) + plan.rest - 1) / plan.rest;  // at least; rsyncable cuts may add more
    ZEST_TRY(ps.pool.start(o.workers));
    const std::size_t slots = std::min<std::size_t>(n_jobs, std::size_t(o.workers) * jobs_per_worker + 1);
    if (ps.jobs.size() < slots) {
        try {
            ps.jobs.resize(slots);
        } catch (...) {
            return errc::out_of_memory;
        }
    }
    for (std::size_t i = 0; i < slots; ++i)
        if (!ps.jobs[i].reserve_output(job, p)) return errc::out_of_memory;
    if (uses_ldm(p)) ZEST_TRY(ps.ldm.begin(p));
    std::size_t pos = write_frame_header(dst, capacity, size, p.window_log, o);
    if (pos == 0) return errc::destination_too_small;

    std::size_t submitted = 0, from = 0;
    rsync_cuts cuts;
    cuts.start(rsync_bits(job), rsync_min_piece);
    const auto submit_next = [&](compress_job& j) {
        std::size_t n = std::min(submitted == 0 ? plan.first : plan.rest, size - from);
        bool cut = false;
        if (o.rsyncable) n = cuts.scan(src + from, n, 0, cut);
        j.data = src + from;
        j.size = n;
        j.prefix_size = submitted == 0 ? 0 : std::min(overlap, from);
        j.first = submitted == 0;
        j.last = from + n == size;
        j.params = p;
        j.dict = dict;
        j.n_ldm = 0;
        if (uses_ldm(p)) ps.ldm.scan(j.data, n, j, 0);
        ps.pool.submit(j);
        ++submitted;
        from += n;
    };
    while (submitted < slots && from < size) submit_next(ps.jobs[submitted % slots]);
    const std::uint64_t sum = o.checksum ? XXH64(src, size, 0) : 0;  // while the workers run

    // In order; after a failure, only the jobs in flight are waited for.
    errc failed{};
    for (std::size_t k = 0; k < submitted; ++k) {
        compress_job& j = ps.jobs[k % slots];
        ps.pool.wait(j);
        if (failed != errc{}) continue;
        if (j.error != errc{}) {
            failed = j.error;
        } else if (capacity - pos < j.out_size) {
            failed = errc::destination_too_small;
        } else {
            std::memcpy(dst + pos, j.out.get(), j.out_size);
            pos += j.out_size;
            if (from < size) submit_next(j);
        }
    }
    if (failed != errc{}) return failed;
    if (o.checksum) {
        if (capacity - pos < checksum_size) return errc::destination_too_small;
        store_le32(dst + pos, std::uint32_t(sum));
        pos += checksum_size;
    }
    return pos;
}

errc parallel_stream::begin(const compression_params& p, const compression_options& o, const dictionary_data* dict,
                            std::uint64_t size) noexcept {
    abandon();
    p_ = p;
    dict_ = dict;
    const job_plan plan = plan_jobs(p, o, size);
    first_job_ = plan.first;
    job_ = plan.rest;
    overlap_ = overlap_for(p, o);
    slots_ = std::size_t(o.workers) * (o.rsyncable ? 2 * jobs_per_worker : jobs_per_worker) + 1;
    if (size != content_size_unknown) {
        // No more buffers than the frame has jobs.
        const std::uint64_t jobs = 1 + (size - std::min<std::uint64_t>(size, first_job_) + job_ - 1) / job_;
        if (!o.rsyncable) slots_ = std::size_t(std::min<std::uint64_t>(slots_, std::max<std::uint64_t>(jobs, 2)));
    }
    ZEST_TRY(ps_.pool.start(o.workers));
    try {
        if (ps_.jobs.size() < slots_) ps_.jobs.resize(slots_);
        if (in_.size() < slots_) in_.resize(slots_);
    } catch (...) {
        return errc::out_of_memory;
    }
    const std::size_t longest = std::max(first_job_, job_);
    const std::size_t want = overlap_ + longest;
    for (std::size_t i = 0; i < slots_; ++i) {
        if (!ps_.jobs[i].reserve_output(longest, p)) return errc::out_of_memory;
        if (!in_[i].reserve(want)) return errc::out_of_memory;
    }
    cur_ = oldest_ = in_flight_ = handed_ = 0;
    prefix_ = size_ = 0;
    total_ = 0;
    rsyncable_ = o.rsyncable;
    cut_ = false;
    cuts_.start(rsync_bits(job_), rsync_min_piece);
    window_used_ = window_keep_ = scanned_ = 0;
    if (uses_ldm(p)) {
        // The last window and half a window more: moved back once per half
        // window of input (a window more would move it half as often and
        // cost another half window of memory).
        window_keep_ = std::size_t(1) << p.window_log;
        if (!window_.reserve(window_keep_ + std::max(window_keep_ / 2, job_))) return errc::out_of_memory;
        ZEST_TRY(ps_.ldm.begin(p));
    }
    return ok;
}

std::size_t parallel_stream::take(const std::uint8_t* src, std::size_t n) noexcept {
    if (cut_) return 0;
    n = std::min(n, job_now() - size_);
    if (rsyncable_) {
        n = cuts_.scan(src, n, size_, cut_);
    }
    if (n) std::memcpy(in_[cur_].data.data() + prefix_ + size_, src, n);
    size_ += n;
    if (window_keep_ && n) {
        // The long matches need the window before the job: its input joins
        // the last window's bytes, and its whole blocks are searched while
        // the workers run (the last part on submit).
        if (window_used_ + n > window_.capacity) {
            const std::size_t keep = std::min(window_keep_ + (size_ - n), window_used_);
            std::memmove(window_.data.data(), window_.data.data() + window_used_ - keep, keep);
            window_used_ = keep;
        }
        std::memcpy(window_.data.data() + window_used_, src, n);
        window_used_ += n;
        const std::size_t block = ps_.ldm.block();
        while (size_ - scanned_ >= block) scan_long_matches(block);
    }
    return n;
}

void parallel_stream::scan_long_matches(std::size_t n) noexcept {
    compress_job& j = ps_.jobs[cur_];
    if (scanned_ == 0) j.n_ldm = 0;
    // The job's bytes not searched yet end the window's.
    ps_.ldm.scan(window_.data.data() + window_used_ - (size_ - scanned_), n, j, scanned_);
    scanned_ += n;
}

void parallel_stream::submit(bool last) noexcept {
    compress_job& j = ps_.jobs[cur_];
    std::uint8_t* const buf = in_[cur_].data.data();
    j.data = buf + prefix_;
    j.size = size_;
    j.prefix_size = prefix_;
    j.first = !started_;
    j.last = last;
    j.params = p_;
    j.dict = dict_;
    started_ = true;
    if (window_keep_) {
        scan_long_matches(size_ - scanned_);
        scanned_ = 0;
    }
    ps_.pool.submit(j);
    ++in_flight_;
    total_ += size_;
    if (last) return;
    // The next job's history: the end of what this one holds (its own
    // history, then its input), read while the worker reads it too.
    const std::size_t next = (cur_ + 1) % slots_;
    const std::size_t keep = std::size_t(std::min<std::uint64_t>(overlap_, total_));
    std::memcpy(in_[next].data.data(), buf + prefix_ + size_ - keep, keep);
    cur_ = next;
    prefix_ = keep;
    size_ = 0;
    cut_ = false;
}

errc parallel_stream::drain(out_buffer& out, std::size_t wait) noexcept {
    while (in_flight_) {
        compress_job& j = ps_.jobs[oldest_];
        if (!ps_.pool.finished(j)) {
            if (wait == 0 || out.pos == out.size) return ok;
            ps_.pool.wait(j);
            --wait;
        }
        if (j.error != errc{}) return j.error;
        const std::size_t n = std::min(j.out_size - handed_, out.size - out.pos);
        if (n) std::memcpy(static_cast<std::uint8_t*>(out.dst) + out.pos, j.out.get() + handed_, n);
        out.pos += n;
        handed_ += n;
        if (handed_ < j.out_size) return ok;  // out is full
        handed_ = 0;
        oldest_ = (oldest_ + 1) % slots_;
        --in_flight_;
    }
    return ok;
}

std::size_t parallel_stream::waiting() const noexcept {
    std::size_t n = 0;
    for (std::size_t k = 0, i = oldest_; k < in_flight_; ++k, i = (i + 1) % slots_) {
        const compress_job& j = ps_.jobs[i];
        if (!ps_.pool.finished(j)) return n + 1;
        n += j.out_size - (k == 0 ? handed_ : 0);
    }
    return n;
}

void parallel_stream::abandon() noexcept {
    for (; in_flight_; --in_flight_) {
        ps_.pool.wait(ps_.jobs[oldest_]);
        oldest_ = (oldest_ + 1) % slots_;
    }
    handed_ = 0;
    started_ = false;
}

bool parallel_stream::input::reserve(std::size_t n) noexcept {
    if (capacity >= n) return true;
    capacity = data.allocate(n) ? n : 0;
    return capacity != 0;
}

std::size_t parallel_stream::memory_usage() const noexcept {
    std::size_t n = ps_.memory_usage() + window_.capacity;
    for (const input& i : in_) n += i.capacity;
    return n;
}

}  // namespace zest::detail
