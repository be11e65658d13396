#include "decompress/block.hpp"

#include <algorithm>
#include <cstring>

#include "decompress/literals.hpp"

namespace zest::detail {

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
    sequences_job job{&st,       src + used,   size - used, nb_seq,   lits,     out.data + frame_start,
                      op,        block_end,    buffer_end,  ext.end,  ext.size, ext.window,
                      ext.far_end, ext.far_size, ext.far_gap};
    std::uint8_t* end = nullptr;
    ZEST_TRY(k.sequences(job, end));
    out.pos = std::size_t(end - out.data);
    return ok;
}

errc decode_block(decoder_state& st, const kernel_set& k, const block_header& b, const std::uint8_t* src,
                  std::size_t avail, const std::uint8_t* readable_end, std::size_t block_max, output_buffer& out,
                  std::size_t frame_start, const history_segment& ext) noexcept {
    const std::size_t bsize = b.size;
    ZEST_TRY(out.reserve(block_max + wild_slack));
    switch (b.type) {
        case 0:  // raw
            if (bsize > block_max) return errc::block_invalid;
            if (bsize > avail) return errc::truncated_input;
            if (bsize > out.cap - out.pos) return errc::destination_too_small;
            if (bsize) std::memcpy(out.data + out.pos, src, bsize);  // data may be null
            out.pos += bsize;
            return ok;
        case 1:  // RLE
            if (bsize > block_max) return errc::block_invalid;
            if (avail < 1) return errc::truncated_input;
            if (bsize > out.cap - out.pos) return errc::destination_too_small;
            if (bsize) std::memset(out.data + out.pos, src[0], bsize);
            out.pos += bsize;
            return ok;
        case 2:  // compressed
            // The compressed size is bounded by 128 KiB, the decoded size by
            // Block_Maximum_Size: a tiny single-segment frame may carry a
            // compressed block larger than its content (decompressor_errata.md:
            // a block with no literals and no sequences is valid).
            if (bsize > block_size_max) return errc::block_invalid;
            if (bsize > avail) return errc::truncated_input;
            return decode_compressed_block(st, k, src, bsize, readable_end, block_max, out, frame_start, ext);
        default:
            return errc::block_invalid;
    }
}

}  // namespace zest::detail
