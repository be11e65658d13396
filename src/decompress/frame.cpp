#include "decompress/frame.hpp"

#include <algorithm>
#include <cstring>
#include <new>

#include "decompress/literals.hpp"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace zest::detail {

namespace {

// Total size of a skippable frame whose header is `h`.
errc skippable_frame_size(const frame_header& h, std::size_t size, std::size_t& out) noexcept {
    if (h.content_size > size - skippable_header_size) return errc::truncated_input;
    out = skippable_header_size + std::size_t(h.content_size);
    return ok;
}

}  // namespace

errc frame_compressed_size(const std::uint8_t* src, std::size_t size, std::size_t& out) noexcept {
    frame_header h;
    ZEST_TRY(parse_frame_header(src, size, h));
    if (h.skippable) return skippable_frame_size(h, size, out);
    std::size_t pos = h.header_size;
    for (;;) {
        block_header b;
        ZEST_TRY(read_block_header(src, size, pos, b));
        if (b.input_size() > size - pos) return errc::truncated_input;
        pos += b.input_size();
        if (b.last) break;
    }
    if (h.checksum) {
        if (size - pos < checksum_size) return errc::truncated_input;
        pos += checksum_size;
    }
    out = pos;
    return ok;
}

errc output_buffer::reserve(std::size_t extra) noexcept {
    if (!growable || cap - pos >= extra) return ok;
    std::size_t want = std::max(cap * 2, pos + extra);
    try {
        growable->resize(want);
    } catch (...) {
        return errc::out_of_memory;
    }
    data = reinterpret_cast<std::uint8_t*>(growable->data());
    cap = growable->size();
    return ok;
}

errc decode_compressed_block(decoder_state& st, const kernel_set& k, const std::uint8_t* src, std::size_t size,
                             const std::uint8_t* readable_end, std::size_t block_max, output_buffer& out,
                             std::size_t frame_start, const history_segment& ext) noexcept {
    literals_view lits;
    std::size_t used = 0;
    ZEST_TRY(decode_literals(st, k, src, size, readable_end, block_max, lits, used));
    unsigned nb_seq = 0;
    std::size_t seq_used = 0;
    ZEST_TRY(read_sequences_header(st, src + used, size - used, nb_seq, seq_used));
    used += seq_used;

    std::uint8_t* const op = out.data + out.pos;
    const std::size_t room = out.cap - out.pos;
    std::uint8_t* const buffer_end = out.data + out.cap;
    std::uint8_t* const block_end = room > block_max ? op + block_max : buffer_end;
    if (nb_seq == 0) {
        if (lits.size > std::size_t(block_end - op))
            return block_end == buffer_end ? errc::destination_too_small : errc::block_invalid;
        if (lits.size) std::memcpy(op, lits.ptr, lits.size);  // op may be null for an empty output
        out.pos += lits.size;
        return ok;
    }
    sequences_job job{&st,      src + used, size - used, nb_seq,   lits,       out.data + frame_start,
                      op,       block_end,  buffer_end,  ext.end, ext.size, ext.window};
    std::uint8_t* end = nullptr;
    ZEST_TRY(k.sequences(job, end));
    out.pos = std::size_t(end - out.data);
    return ok;
}

namespace {

errc decode_frame(decoder_state& st, const kernel_set& k, const std::uint8_t* src, std::size_t size,
                  output_buffer& out, unsigned max_window_log, std::size_t& consumed) noexcept {
    frame_header h;
    ZEST_TRY(parse_frame_header(src, size, h));
    if (h.skippable) return skippable_frame_size(h, size, consumed);
    if (h.window_size > (std::uint64_t(1) << max_window_log)) return errc::window_too_large;
    if (h.dict_id != 0) return errc::dictionary_required;
    const std::size_t block_max = std::size_t(std::min<std::uint64_t>(h.window_size, block_size_max));
    if (h.content_size != content_size_unknown) {
        // A block that produces output takes at least 4 bytes of input (an
        // RLE block) and yields at most block_max bytes: a declared size
        // beyond that is a lie, and reserving it would let a 20-byte input
        // zero-fill gigabytes (fuzz/regressions, tests/fuzz).
        const std::uint64_t producible = std::uint64_t((size - h.header_size) / 4) * block_max;
        if (out.growable && h.content_size <= (std::uint64_t(1) << max_window_log) * 64 &&
            h.content_size <= producible) {
            // Known size: one allocation (guarded: a header alone must not
            // make us allocate arbitrarily much).
            ZEST_TRY(out.reserve(std::size_t(h.content_size) + wild_slack));
        } else if (!out.growable && h.content_size > out.cap - out.pos) {
            return errc::destination_too_small;
        }
    }

    st.reset_frame();
    const std::size_t frame_start = out.pos;
    XXH64_state_t xxh;
    if (h.checksum) XXH64_reset(&xxh, 0);
    const std::uint8_t* const src_end = src + size;
    std::size_t pos = h.header_size;
    for (;;) {
        block_header b;
        ZEST_TRY(read_block_header(src, size, pos, b));
        const std::size_t bsize = b.size;
        const std::size_t block_out_start = out.pos;
        ZEST_TRY(out.reserve(block_max + wild_slack));
        switch (b.type) {
            case 0:  // raw
                if (bsize > block_max) return errc::block_invalid;
                if (bsize > size - pos) return errc::truncated_input;
                if (bsize > out.cap - out.pos) return errc::destination_too_small;
                if (bsize) std::memcpy(out.data + out.pos, src + pos, bsize);  // data may be null
                out.pos += bsize;
                pos += bsize;
                break;
            case 1:  // RLE
                if (bsize > block_max) return errc::block_invalid;
                if (size - pos < 1) return errc::truncated_input;
                if (bsize > out.cap - out.pos) return errc::destination_too_small;
                if (bsize) std::memset(out.data + out.pos, src[pos], bsize);
                out.pos += bsize;
                pos += 1;
                break;
            case 2:  // compressed
                // The compressed size is bounded by 128 KiB, the decoded size by
                // Block_Maximum_Size: a tiny single-segment frame may carry a
                // compressed block larger than its content (decompressor_errata.md:
                // a block with no literals and no sequences is valid).
                if (bsize > block_size_max) return errc::block_invalid;
                if (bsize > size - pos) return errc::truncated_input;
                ZEST_TRY(decode_compressed_block(st, k, src + pos, bsize, src_end, block_max, out, frame_start, {}));
                pos += bsize;
                break;
            default:
                return errc::block_invalid;
        }
        if (h.checksum) XXH64_update(&xxh, out.data + block_out_start, out.pos - block_out_start);
        if (b.last) break;
    }
    if (h.content_size != content_size_unknown && out.pos - frame_start != h.content_size)
        return errc::content_size_mismatch;
    if (h.checksum) {
        if (size - pos < checksum_size) return errc::truncated_input;
        const std::uint32_t expected = load_le32(src + pos);
        if (std::uint32_t(XXH64_digest(&xxh)) != expected) return errc::checksum_mismatch;
        pos += checksum_size;
    }
    consumed = pos;
    return ok;
}

}  // namespace

errc decode_frames(decoder_state& st, const std::uint8_t* src, std::size_t size, output_buffer& out,
                   unsigned max_window_log) noexcept {
    const kernel_set& k = active_kernels();
    while (size != 0) {
        std::size_t used = 0;
        ZEST_TRY(decode_frame(st, k, src, size, out, max_window_log, used));
        src += used;
        size -= used;
    }
    return ok;
}

}  // namespace zest::detail
