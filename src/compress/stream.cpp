// Streaming compression: input gathered in a buffer of the window plus one
// block, which holds the window's worth of history and the bytes not
// compressed yet; whole blocks are compressed as they fill, partial ones on
// flush and end. The match finders want one contiguous run of positions, so
// the buffer is seen through a view of twice its size: input is appended
// until the view is full, then the bytes still needed (the window's history
// and what is pending) move down by the buffer's size and positions carry
// on. Anonymous memory (large_buffer): no file, no view mapped twice,
// nothing a process limit on file sizes (RLIMIT_FSIZE) or a fork() can
// disturb.
// Frame bytes go through a one-block output buffer to the caller's.
#include <algorithm>
#include <cstring>
#include <memory>
#include <new>

#include "common/large_buffer.hpp"
#include "compress/frame_writer.hpp"
#include "compress/parallel.hpp"
#include "dictionary/dictionary_data.hpp"
#include "zest/zest.hpp"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace zest {

std::uint32_t detail::stream_position_limit = detail::index_limit;

using detail::ok;

namespace {

// The stream's input buffer: `size()` bytes of history and pending input,
// seen through data()[0, 2 * size()). When input reaches the view's end,
// fold() moves the bytes that must stay down by size(), where the same
// positions find them.
class history_buffer {
public:
    history_buffer() noexcept = default;
    history_buffer(const history_buffer&) = delete;
    history_buffer& operator=(const history_buffer&) = delete;

    /// Replaces the buffer with one of at least `min_size` bytes.
    bool allocate(std::size_t min_size) noexcept {
        size_ = 0;
        const std::size_t size = std::max<std::size_t>(min_size, 1);
        if (!data_.allocate(2 * size)) return false;
        size_ = size;
        return true;
    }
    std::uint8_t* data() const noexcept { return data_.data(); }
    std::size_t size() const noexcept { return size_; }
    /// Bytes held.
    std::size_t footprint() const noexcept { return 2 * size_; }

    /// Before the view moves back by size(): bytes [from, to) (from >= size(),
    /// to - from <= size()) must then be found at [from - size(), to - size()).
    void fold(std::size_t from, std::size_t to) noexcept {
        if (to > from) std::memcpy(data_.data() + from - size_, data_.data() + from, to - from);
    }

private:
    detail::large_buffer data_;
    std::size_t size_ = 0;
};

}  // namespace

struct compress_stream::impl {
    std::unique_ptr<detail::encoder_state> st;
    history_buffer buf;         // history + pending input, seen through [data, data + 2 * size)
    std::size_t buf_first = 0;  // position of buf.data()[0]
    std::size_t filled = 0;     // end of the input, from buf.data()
    std::size_t done = 0;       // end of what is compressed, from buf.data()
    std::size_t frame_first = 0;  // position of the frame's first byte
    std::unique_ptr<std::uint8_t[]> obuf;  // frame bytes not handed out yet: [opos, oend)
    std::size_t obuf_cap = 0, opos = 0, oend = 0;

    bool in_frame = false;
    bool last_written = false;  // the last block is in obuf (the checksum may follow)
    errc failed{};
    detail::frame_options o{};
    detail::compression_params p{};
    detail::block_writer w;
    std::uint64_t pledged = detail::content_size_unknown;
    std::uint64_t total_in = 0;
    std::size_t window = 0;
    XXH64_state_t xxh;
    std::unique_ptr<detail::parallel_stream> mt;  // frames written by workers
    bool parallel = false;                        // the frame in progress is
    bool last_submitted = false;                  // its last job is with the workers

    errc fail(errc e) noexcept {
        failed = e;
        return e;
    }

    void drain(out_buffer& out) noexcept {
        const std::size_t n = std::min(oend - opos, out.size - out.pos);
        if (n) std::memcpy(static_cast<std::uint8_t*>(out.dst) + out.pos, obuf.get() + opos, n);
        out.pos += n;
        opos += n;
        if (opos == oend) opos = oend = 0;
    }

    void place_base() noexcept {
        w.set_base(reinterpret_cast<const std::uint8_t*>(reinterpret_cast<std::uintptr_t>(buf.data()) - buf_first));
    }

    // `size` is the frame's (content_size_unknown when not known); its parameters
    // are chosen for `params_size`, which a size hint may fill in.
    errc begin_frame(std::uint64_t size, std::uint64_t params_size, const detail::dictionary_data* dict) noexcept {
        if (!st) {
            st.reset(new (std::nothrow) detail::encoder_state);
            if (!st) return errc::out_of_memory;
        }
        // A dictionary's content goes first in the buffer, as the frame's
        // history, and the parameters are sized for it and the input.
        const std::size_t history = dict ? dict->content_size : 0;
        const bool known = params_size != detail::content_size_unknown;
        p = detail::frame_params(o, known && dict ? params_size + history : params_size);
        window = std::size_t(1) << p.window_log;
        const std::size_t block = std::min(detail::block_size_max, window);
        // With workers, frames longer than one job go to them (the first
        // job starts with the dictionary).
        parallel = detail::in_jobs(p, o, size);
        if (parallel) {
            if (!mt) mt.reset(new (std::nothrow) detail::parallel_stream);
            if (!mt) return errc::out_of_memory;
            ZEST_TRY(mt->begin(p, o, dict, size));
        } else {
            // The window's history (a dictionary's content, which may be
            // longer, goes in whole) and a block pending; at most the whole
            // frame with the dictionary in front. Less would leave no room for
            // input once the history is there: nothing folds while all of it
            // is in reach.
            std::size_t want = std::max(window, history) + block;
            if (size != detail::content_size_unknown && size < want - history) want = history + std::size_t(size);
            if ((!buf.data() || buf.size() < want) && !buf.allocate(want)) return errc::out_of_memory;
        }
        // A block and its header, or the parts the optimal strategies cut it
        // into, each with its own header.
        const std::size_t owant = detail::frame_header_size_max + block + detail::checksum_size +
                                  detail::block_header_size * (detail::block_cuts::max_cuts + 1);
        if (obuf_cap < owant) {
            obuf.reset();
            obuf_cap = 0;
            obuf.reset(new (std::nothrow) std::uint8_t[owant]);
            if (!obuf) return errc::out_of_memory;
            obuf_cap = owant;
        }
        if (!parallel) {
            ZEST_TRY(w.begin(*st, p, size == detail::content_size_unknown ? size : size + history));
            buf_first = frame_first = w.first_index();
            filled = done = 0;
            place_base();
            if (dict) {
                std::memcpy(buf.data(), dict->content, history);
                filled = done = history;
                w.load_dictionary(*dict, buf_first, buf.data() + history);
            }
        }
        opos = 0;
        oend = detail::write_frame_header(obuf.get(), obuf_cap, size, p.window_log, o);
        if (o.checksum) XXH64_reset(&xxh, 0);
        total_in = 0;
        last_written = false;
        last_submitted = false;
        in_frame = true;
        return ok;
    }

    // More input offered than was pledged.
    errc check_not_beyond_pledge(const in_buffer& in) const noexcept {
        if (pledged != detail::content_size_unknown && in.size - in.pos > pledged - total_in)
            return errc::content_size_mismatch;
        return ok;
    }
    // The frame ends: its input must be what was pledged.
    errc check_pledge_met() const noexcept {
        if (pledged != detail::content_size_unknown && total_in != pledged) return errc::content_size_mismatch;
        return ok;
    }
    // `n` bytes of `in` taken into the frame (copied by the caller).
    void took(in_buffer& in, const std::uint8_t* src, std::size_t n) noexcept {
        if (o.checksum) XXH64_update(&xxh, src, n);
        in.pos += n;
        total_in += n;
    }

    errc take_input(in_buffer& in) noexcept {
        ZEST_TRY(check_not_beyond_pledge(in));
        // What must stay: the window's worth of history and the pending bytes.
        const std::size_t history = std::min(buf_first + done - frame_first, window);
        const std::size_t live_from = done - history;
        const std::size_t size = buf.size();
        const std::size_t n = std::min(in.size - in.pos, size - (filled - live_from));
        if (n == 0) return ok;
        if (filled + n > 2 * size) {
            // Past the view's end: what stays (at or above live_from >= size,
            // as it spans at most size bytes) moves one size lower.
            buf.fold(live_from, filled);
            buf_first += size;
            filled -= size;
            done -= size;
            // Positions stay below index_limit: lower them all when the
            // view's next span could pass it.
            if (buf_first + 2 * size >= detail::stream_position_limit) {
                const auto delta = std::uint32_t(buf_first - 1);
                w.lower_positions(delta);
                buf_first -= delta;
                frame_first = frame_first > delta ? frame_first - delta : 0;
            }
            place_base();
        }
        const auto* src = static_cast<const std::uint8_t*>(in.src) + in.pos;
        std::memcpy(buf.data() + filled, src, n);
        filled += n;
        took(in, src, n);
        return ok;
    }

    // Compresses `n` pending bytes as one block into the (empty) obuf.
    errc write_block(std::size_t n, bool last) noexcept {
        const auto r = w.write(buf_first + done, n, last, buf.data() + filled, obuf.get() + oend, obuf_cap - oend);
        if (!r) return r.error();
        oend += *r;
        done += n;
        return ok;
    }

    errc finish_frame() noexcept {
        ZEST_TRY(check_pledge_met());
        ZEST_TRY(write_block(filled - done, true));
        put_checksum();
        w.finish(buf_first + filled);
        last_written = true;
        return ok;
    }

    void put_checksum() noexcept {
        if (o.checksum) {
            detail::store_le32(obuf.get() + oend, std::uint32_t(XXH64_digest(&xxh)));
            oend += 4;
        }
    }

    // The frame with workers: input into their jobs, their blocks out in
    // order. Only flush and end wait for the jobs in flight; proceed waits
    // only when every job buffer is taken and the output has room.
    errc run_parallel(out_buffer& out, in_buffer& in, directive d) noexcept {
        detail::parallel_stream& m = *mt;
        for (;;) {
            drain(out);
            if (oend != 0) return ok;  // the header or the checksum waits
            if (last_written) {
                in_frame = false;
                pledged = detail::content_size_unknown;
                return ok;
            }
            if (last_submitted) {
                ZEST_TRY(m.drain(out, SIZE_MAX));
                if (!m.idle()) return ok;  // the caller's buffer is full
                put_checksum();
                last_written = true;
                continue;
            }
            ZEST_TRY(m.drain(out, 0));
            ZEST_TRY(check_not_beyond_pledge(in));
            if (in.pos < in.size) {
                const auto* src = static_cast<const std::uint8_t*>(in.src) + in.pos;
                took(in, src, m.take(src, in.size - in.pos));
            }
            const bool more = in.pos < in.size;
            if (d == directive::end && !more) {
                ZEST_TRY(check_pledge_met());
                m.submit(true);
                last_submitted = true;
                continue;
            }
            if ((m.job_full() && more) || (d == directive::flush && m.pending() != 0)) {
                if (m.can_submit()) {
                    m.submit(false);
                    continue;
                }
                if (out.pos == out.size) return ok;
                ZEST_TRY(m.drain(out, 1));  // the oldest job frees its buffer
                continue;
            }
            if (d == directive::flush) ZEST_TRY(m.drain(out, SIZE_MAX));
            return ok;
        }
    }

    errc run(out_buffer& out, in_buffer& in, directive d) noexcept {
        if (parallel) return run_parallel(out, in, d);
        const std::size_t block = w.block_max();
        for (;;) {
            drain(out);
            if (oend != 0) return ok;  // the caller's buffer is full
            if (last_written) {        // frame complete and handed out
                in_frame = false;
                pledged = detail::content_size_unknown;
                return ok;
            }
            ZEST_TRY(take_input(in));
            const std::size_t pending = filled - done;
            const bool more_input = in.pos < in.size;
            if (pending > block || (pending == block && (more_input || d == directive::flush))) {
                ZEST_TRY(write_block(block, false));
                continue;
            }
            if (more_input) continue;  // the buffer took what it could; room comes from the blocks above
            if (d == directive::end) {
                ZEST_TRY(finish_frame());
                continue;
            }
            if (d == directive::flush && pending != 0) {
                ZEST_TRY(write_block(pending, false));
                continue;
            }
            return ok;
        }
    }
};

compress_stream::compress_stream() noexcept = default;
compress_stream::~compress_stream() = default;
compress_stream::compress_stream(compress_stream&&) noexcept = default;
compress_stream& compress_stream::operator=(compress_stream&&) noexcept = default;

result<std::uint64_t> compress_stream::set_pledged_size(std::uint64_t size) noexcept {
    if (size == detail::content_size_unknown) return errc::invalid_argument;
    if (!impl_) {
        impl_.reset(new (std::nothrow) impl);
        if (!impl_) return errc::out_of_memory;
    }
    if (impl_->in_frame) return errc::invalid_argument;
    impl_->pledged = size;
    return size;
}

result<std::uint64_t> compress_stream::set_size_hint(std::uint64_t size) noexcept {
    if (impl_ && impl_->in_frame) return errc::invalid_argument;
    size_hint_ = size;
    return size;
}

result<std::size_t> compress_stream::compress(out_buffer& out, in_buffer& in, directive d) noexcept {
    if (in.pos > in.size || out.pos > out.size || (!in.src && in.size) || (!out.dst && out.size))
        return errc::invalid_argument;
    if (!impl_) {
        impl_.reset(new (std::nothrow) impl);
        if (!impl_) return errc::out_of_memory;
    }
    impl& s = *impl_;
    if (s.failed != errc{}) return s.failed;
    if (!s.in_frame) {
        if (in.pos == in.size && d == directive::proceed) return std::size_t(0);  // nothing to start a frame with
        static_cast<compression_options&>(s.o) = options_;
        const detail::dictionary_data* const dict = dict_.data();
        s.o.dict_id = dict && options_.dictionary_id ? dict->id : 0;
        // Everything at once with `end`: the frame's size is known.
        std::uint64_t size = s.pledged;
        if (size == detail::content_size_unknown && d == directive::end) size = in.size - in.pos;
        const std::uint64_t params_size = size != detail::content_size_unknown || size_hint_ == 0 ? size : size_hint_;
        if (const errc e = s.begin_frame(size, params_size, dict); e != ok)
            return e == errc::out_of_memory ? e : s.fail(e);
        if (size != detail::content_size_unknown) s.pledged = size;
    }
    const errc e = s.run(out, in, d);
    frame_open_ = s.in_frame;
    if (e != ok) return s.fail(e);
    std::size_t waiting = s.oend - s.opos;
    if (s.parallel && s.in_frame && s.mt) waiting += d == directive::proceed ? 0 : s.mt->waiting();
    if (s.parallel && s.in_frame && d == directive::end && waiting == 0) waiting = 1;  // the checksum, the frame's end
    return waiting;
}

void compress_stream::reset() noexcept {
    if (!impl_) return;
    impl& s = *impl_;
    s.failed = errc{};
    s.in_frame = false;
    s.last_written = false;
    s.pledged = detail::content_size_unknown;
    s.opos = s.oend = 0;
    s.filled = s.done = 0;
    if (s.mt) s.mt->abandon();
    s.parallel = false;
    frame_open_ = false;
}

std::size_t compress_stream::memory_usage() const noexcept {
    if (!impl_) return 0;
    return sizeof(impl) + (impl_->st ? impl_->st->memory_usage() : 0) + impl_->buf.footprint() + impl_->obuf_cap +
           (impl_->mt ? impl_->mt->memory_usage() : 0);
}

}  // namespace zest
