// Streaming decompression: a frame at a time, through a window buffer.
//
// Blocks are decoded into one buffer of window + one block (+ slack), in a
// segment that starts at the buffer's beginning and grows; when the next
// block might not fit, the segment restarts at the beginning and the
// previous one becomes the history that matches reach into past the new
// segment's start (history_segment). Decoded bytes are handed out before the
// next block overwrites anything. A block is decoded straight from the
// caller's input when it is all there, else gathered first; a raw block is
// copied as its bytes arrive, each piece handed out before the next is read.
//
// Input is consumed as libzstd consumes it, call for call: nothing of the
// next block is read while decoded bytes wait to be handed out, and a
// frame's last byte is held back (the input position stays before it) until
// every decoded byte has left, so that a caller that stops once its input is
// consumed never leaves output behind, and the call that returns 0 is the one
// that takes that byte.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <utility>

#include "common/format.hpp"
#include "decompress/block.hpp"
#include "decompress/kernels.hpp"
#include "dictionary/dictionary_data.hpp"
#include "zest/zest.hpp"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace zest {

using detail::ok;

struct decompress_stream::impl {
    enum class stage {
        frame_header,  // gathering the frame (or skippable frame) header
        block_header,  // gathering a block header
        block_body,    // gathering or copying a block's content
        flush,         // handing out a decoded block
        checksum,      // gathering the content checksum
        skip,          // passing over a skippable frame's payload
    };

    std::unique_ptr<detail::decoder_state> st;
    std::unique_ptr<std::uint8_t[]> ring;  // window buffer
    std::size_t ring_cap = 0;
    std::unique_ptr<std::uint8_t[]> gather;  // headers, checksums, blocks split across calls
    std::size_t gather_cap = 0;              // its size, wild_slack included
    std::size_t gathered = 0;

    stage stg = stage::frame_header;
    errc failed{};  // sticky error (0 = none)
    detail::frame_header h;
    detail::block_header b{};
    std::size_t block_max = 0;
    std::size_t need = 0;           // bytes the current stage still wants
    std::uint64_t skip_left = 0;
    std::size_t wpos = 0;           // end of decoded data in the ring
    std::size_t flushed = 0;        // decoded bytes already handed out
    std::size_t block_start = 0;    // where the block being decoded starts
    std::size_t ext_end = 0, ext_size = 0;  // previous segment of the ring
    std::uint64_t produced = 0;     // frame bytes decoded so far
    const detail::dictionary_data* dict = nullptr;  // this frame's (the stream holds it)
    bool hashing = false;           // this frame's checksum is computed and compared
    bool holding_last = false;      // the frame's last input byte was given back to the caller
    XXH64_state_t xxh;

    // Room for headers and checksums; grown to a block when one must be
    // gathered (up to the largest the frames seen so far have needed).
    static constexpr std::size_t gather_min = 64 + detail::wild_slack;

    bool reserve_gather(std::size_t n) noexcept {
        const std::size_t want = n + detail::wild_slack;
        if (gather_cap >= want) return true;
        std::unique_ptr<std::uint8_t[]> bigger(new (std::nothrow) std::uint8_t[want]);
        if (!bigger) return false;
        if (gathered) std::memcpy(bigger.get(), gather.get(), gathered);
        gather = std::move(bigger);
        gather_cap = want;
        return true;
    }

    void start_over() noexcept {
        stg = stage::frame_header;
        gathered = 0;
        need = 0;
        holding_last = false;
        wpos = flushed = block_start = ext_end = ext_size = 0;
    }

    errc fail(errc e) noexcept {
        failed = e;
        return e;
    }

    // Copies up to `want - gathered` bytes of input into the gather buffer;
    // true when it holds `want` bytes.
    bool gather_up_to(std::size_t want, in_buffer& in) noexcept {
        const std::size_t n = std::min(want - gathered, in.size - in.pos);
        std::memcpy(gather.get() + gathered, static_cast<const std::uint8_t*>(in.src) + in.pos, n);
        gathered += n;
        in.pos += n;
        return gathered == want;
    }

    // Bytes of header the gathered prefix says the frame header has (0 when
    // more bytes are needed to know).
    std::size_t header_size_needed() const noexcept { return detail::frame_header_size(gather.get(), gathered); }

    errc begin_frame(unsigned max_window_log, bool verify, const detail::dictionary_data* d) noexcept {
        ZEST_TRY(detail::parse_frame_header(gather.get(), gathered, h));
        gathered = 0;
        if (h.skippable) {
            skip_left = h.content_size;
            stg = stage::skip;
            return ok;
        }
        if (h.window_size > (std::uint64_t(1) << max_window_log)) return errc::window_too_large;
        if (h.dict_id != 0) {
            if (!d) return errc::dictionary_required;
            if (d->id != h.dict_id) return errc::dictionary_wrong;
        }
        const auto window = std::size_t(h.window_size);
        block_max = std::min<std::size_t>(window, detail::block_size_max);
        // The previous segment must end at least window + slack bytes in,
        // so that wild copies near a new segment's end never reach history
        // still in reach: a segment restarts when fewer than block_max +
        // slack bytes are left, hence window + block_max + 2 * slack. A frame
        // that declares a smaller size than its window needs no more than
        // its size (it never restarts: producing more is an error).
        std::size_t history = window;
        if (h.content_size != detail::content_size_unknown && h.content_size < window)
            history = std::size_t(h.content_size);
        const std::size_t want = history + block_max + 2 * detail::wild_slack;
        if (ring_cap < want) {
            ring.reset();
            ring_cap = 0;
            ring.reset(new (std::nothrow) std::uint8_t[want]);
            if (!ring) return errc::out_of_memory;
            ring_cap = want;
        }
        dict = d;
        if (d)
            detail::start_frame_with(*st, *d);
        else
            st->reset_frame();
        hashing = h.checksum && verify;
        if (hashing) XXH64_reset(&xxh, 0);
        produced = 0;
        wpos = flushed = ext_end = ext_size = 0;
        stg = stage::block_header;
        return ok;
    }

    errc begin_block() noexcept {
        std::size_t pos = 0;
        ZEST_TRY(detail::read_block_header(gather.get(), detail::block_header_size, pos, b));
        gathered = 0;
        if (b.type != 2 && b.size > block_max) return errc::block_invalid;
        if (b.type == 2 && b.size > detail::block_size_max) return errc::block_invalid;
        // Room for a whole block (and wild copies) after wpos, else restart
        // the segment at the ring's beginning.
        if (ring_cap - wpos < block_max + detail::wild_slack) {
            ext_end = wpos;
            ext_size = wpos;
            wpos = flushed = 0;
        }
        block_start = wpos;
        need = b.input_size();
        stg = stage::block_body;
        return ok;
    }

    errc decode_body(const std::uint8_t* src, const std::uint8_t* readable_end) noexcept {
        detail::output_buffer out;
        out.data = ring.get();
        out.pos = wpos;
        out.cap = ring_cap;
        // History before the segment: the previous segment once the ring
        // has restarted, before that the dictionary's content, where
        // matches may reach anywhere, beyond the window too. After a
        // restart, matches wholly inside the dictionary still read it (the
        // one-shot decoder and libzstd do: the format's text ends its reach
        // after a window's worth of output, but a repeat offset can carry
        // into it); only a match running from it into output no longer held
        // is refused.
        detail::history_segment ext{ring.get() + ext_end, ext_size, std::size_t(h.window_size)};
        if (ext_size == 0 && dict) {
            ext = {dict->content + dict->content_size, dict->content_size, SIZE_MAX};
        } else if (dict) {
            ext.far_end = dict->content + dict->content_size;
            ext.far_size = dict->content_size;
            ext.far_gap = std::size_t(produced) - wpos;  // the frame's bytes before this segment
        }
        ZEST_TRY(detail::decode_compressed_block(*st, detail::active_kernels(), src, b.size, readable_end, block_max,
                                                 out, 0, ext));
        wpos = out.pos;
        return ok;
    }

    // Accounts for the bytes decoded since block_start (a block, or a piece
    // of a raw block) and hands them out next.
    errc end_block() noexcept {
        const std::size_t n = wpos - block_start;
        produced += n;
        if (h.content_size != detail::content_size_unknown && produced > h.content_size)
            return errc::content_size_mismatch;
        if (hashing) XXH64_update(&xxh, ring.get() + block_start, n);
        block_start = wpos;
        stg = stage::flush;
        return ok;
    }

    // The frame's input is all read (no checksum follows the last block)
    // while decoded bytes still wait to be handed out.
    bool frame_read_output_pending() const noexcept {
        return stg == stage::flush && b.last && need == 0 && !h.checksum && flushed != wpos;
    }

    // One step of the current stage. `progress` is false when it could not
    // move for lack of input or output room; `frame_done` is set when a
    // frame has just ended (and all its output is handed out).
    errc step(out_buffer& out, in_buffer& in, unsigned max_window_log, bool verify,
              const detail::dictionary_data* d, bool& progress, bool& frame_done) noexcept {
        const std::size_t avail = in.size - in.pos;
        const auto* const ip = static_cast<const std::uint8_t*>(in.src) + in.pos;
        progress = false;
        switch (stg) {
            case stage::frame_header: {
                if (avail == 0) return ok;
                const std::size_t known = header_size_needed();
                const std::size_t want = gathered < 4 ? 4 : known ? known : 5;
                progress = true;
                if (!gather_up_to(want, in)) return ok;
                const std::size_t size = header_size_needed();
                if (size == 0 || size > gathered) return ok;  // gather the rest
                return begin_frame(max_window_log, verify, d);
            }
            case stage::block_header:
                if (avail == 0) return ok;
                progress = true;
                if (!gather_up_to(detail::block_header_size, in)) return ok;
                return begin_block();
            case stage::block_body: {
                if (b.type == 1) {  // RLE: one byte
                    if (avail == 0) return ok;
                    progress = true;
                    std::memset(ring.get() + wpos, *ip, b.size);
                    wpos += b.size;
                    in.pos += 1;
                    need = 0;
                    return end_block();
                }
                if (b.type == 0) {  // raw: copied as it comes, each piece handed out at once
                    const std::size_t n = std::min(avail, need);
                    if (n == 0 && need != 0) return ok;
                    progress = true;
                    if (n) std::memcpy(ring.get() + wpos, ip, n);
                    wpos += n;
                    in.pos += n;
                    need -= n;
                    return end_block();
                }
                if (gathered == 0 && avail >= need) {  // whole block in the caller's input
                    progress = true;
                    ZEST_TRY(decode_body(ip, ip + avail));
                    in.pos += need;
                    need = 0;
                    return end_block();
                }
                if (avail == 0) return ok;
                if (!reserve_gather(need)) return errc::out_of_memory;
                progress = true;
                if (!gather_up_to(need, in)) return ok;
                gathered = 0;
                need = 0;
                ZEST_TRY(decode_body(gather.get(), gather.get() + gather_cap));
                return end_block();
            }
            case stage::flush: {
                const std::size_t n = std::min(wpos - flushed, out.size - out.pos);
                if (n) {
                    std::memcpy(static_cast<std::uint8_t*>(out.dst) + out.pos, ring.get() + flushed, n);
                    out.pos += n;
                    flushed += n;
                    progress = true;
                }
                if (flushed != wpos) return ok;
                if (need != 0) {  // the rest of a raw block
                    progress = true;
                    stg = stage::block_body;
                    return ok;
                }
                if (holding_last) {
                    // The byte given back is taken now, by the call that ends the frame.
                    if (avail == 0) return ok;
                    in.pos += 1;
                }
                progress = true;
                if (!b.last) {
                    stg = stage::block_header;
                    return ok;
                }
                if (h.content_size != detail::content_size_unknown && produced != h.content_size)
                    return errc::content_size_mismatch;
                if (h.checksum) {
                    stg = stage::checksum;
                    return ok;
                }
                start_over();
                frame_done = true;
                return ok;
            }
            case stage::checksum:
                if (avail == 0) return ok;
                progress = true;
                if (!gather_up_to(detail::checksum_size, in)) return ok;
                if (hashing && std::uint32_t(XXH64_digest(&xxh)) != detail::load_le32(gather.get()))
                    return errc::checksum_mismatch;
                start_over();
                frame_done = true;
                return ok;
            case stage::skip: {
                const auto n = std::size_t(std::min<std::uint64_t>(skip_left, avail));
                in.pos += n;
                skip_left -= n;
                progress = n != 0;
                if (skip_left != 0) return ok;
                progress = true;
                start_over();
                frame_done = true;
                return ok;
            }
        }
        return ok;
    }

    // What the next call would like to read.
    std::size_t hint() const noexcept {
        switch (stg) {
            case stage::frame_header: {
                const std::size_t want = std::max<std::size_t>(header_size_needed(), 5);
                return want > gathered ? want - gathered : 1;
            }
            case stage::block_header: return detail::block_header_size - gathered;
            case stage::block_body: return (b.type == 0 ? need : need - gathered) + detail::block_header_size;
            case stage::flush:
                return need ? need + detail::block_header_size
                            : b.last ? (h.checksum ? detail::checksum_size : 1) : detail::block_header_size;
            case stage::checksum: return detail::checksum_size - gathered;
            case stage::skip: return std::size_t(std::min<std::uint64_t>(skip_left, detail::block_size_max));
        }
        return 1;
    }
};

decompress_stream::decompress_stream() noexcept = default;
decompress_stream::~decompress_stream() { delete impl_; }
decompress_stream::decompress_stream(decompress_stream&& o) noexcept
    : impl_(o.impl_), max_window_log_(o.max_window_log_), verify_checksum_(o.verify_checksum_),
      dict_(std::move(o.dict_)) {
    o.impl_ = nullptr;
}
decompress_stream& decompress_stream::operator=(decompress_stream&& o) noexcept {
    if (this != &o) {
        delete impl_;
        impl_ = o.impl_;
        max_window_log_ = o.max_window_log_;
        verify_checksum_ = o.verify_checksum_;
        dict_ = std::move(o.dict_);
        o.impl_ = nullptr;
    }
    return *this;
}

result<unsigned> decompress_stream::set_max_window_log(unsigned log) noexcept {
    if (log < 10 || log > max_window_log_limit) return errc::invalid_argument;
    max_window_log_ = log;
    return log;
}

result<bool> decompress_stream::set_dictionary(zest::dictionary d) noexcept {
    if (!at_frame_boundary()) return errc::invalid_argument;
    const bool any = !d.empty();
    dict_ = std::move(d);
    return any;
}

result<std::size_t> decompress_stream::decompress(out_buffer& out, in_buffer& in) noexcept {
    if (in.pos > in.size || out.pos > out.size || (!in.src && in.size) || (!out.dst && out.size))
        return errc::invalid_argument;
    if (!impl_) {
        impl_ = new (std::nothrow) impl;
        if (!impl_) return errc::out_of_memory;
    }
    impl& s = *impl_;
    if (s.failed != errc{}) return s.failed;
    if (!s.st) {
        s.st.reset(new (std::nothrow) detail::decoder_state);
        if (!s.st || !s.reserve_gather(impl::gather_min - detail::wild_slack)) {
            s.st.reset();
            return errc::out_of_memory;  // not sticky: nothing was consumed
        }
    }
    const std::size_t in_start = in.pos;
    for (;;) {
        bool progress = false, frame_done = false;
        const errc e = s.step(out, in, max_window_log_, verify_checksum_, dict_.data(), progress, frame_done);
        if (e != ok) return s.fail(e);
        if (frame_done) return std::size_t(0);
        if (!progress) break;
    }
    // The frame's last byte was read in this call but its output could not
    // all be handed out: give the byte back until it can.
    if (!s.holding_last && s.frame_read_output_pending() && in.pos > in_start) {
        in.pos -= 1;
        s.holding_last = true;
    }
    return s.hint();
}

void decompress_stream::reset() noexcept {
    if (!impl_) return;
    impl_->failed = errc{};
    impl_->start_over();
}

bool decompress_stream::at_frame_boundary() const noexcept {
    return !impl_ || (impl_->stg == impl::stage::frame_header && impl_->gathered == 0);
}

std::size_t decompress_stream::memory_usage() const noexcept {
    if (!impl_) return 0;
    return sizeof(impl) + (impl_->st ? sizeof(detail::decoder_state) + impl_->gather_cap : 0) + impl_->ring_cap;
}

}  // namespace zest
