#include "decompress/frame.hpp"

#include <algorithm>
#include <cstdint>

#include "dictionary/dictionary_data.hpp"

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

namespace {

errc decode_frame(decoder_state& st, const kernel_set& k, const std::uint8_t* src, std::size_t size,
                  output_buffer& out, unsigned max_window_log, const dictionary_data* dict,
                  std::size_t& consumed) noexcept {
    frame_header h;
    ZEST_TRY(parse_frame_header(src, size, h));
    if (h.skippable) return skippable_frame_size(h, size, consumed);
    if (h.window_size > (std::uint64_t(1) << max_window_log)) return errc::window_too_large;
    if (h.dict_id != 0) {
        if (!dict) return errc::dictionary_required;
        if (dict->id != h.dict_id) return errc::dictionary_wrong;
    }
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

    // A dictionary's content is history in front of the frame; matches may
    // reach anywhere into it (the reference does not bound them by the
    // window in one-shot decoding either).
    history_segment ext;
    if (dict) {
        start_frame_with(st, *dict);
        ext = {dict->content + dict->content_size, dict->content_size, SIZE_MAX};
    } else {
        st.reset_frame();
    }
    const std::size_t frame_start = out.pos;
    XXH64_state_t xxh;
    if (h.checksum) XXH64_reset(&xxh, 0);
    const std::uint8_t* const src_end = src + size;
    std::size_t pos = h.header_size;
    for (;;) {
        block_header b;
        ZEST_TRY(read_block_header(src, size, pos, b));
        const std::size_t block_out_start = out.pos;
        ZEST_TRY(decode_block(st, k, b, src + pos, size - pos, src_end, block_max, out, frame_start, ext));
        pos += b.input_size();
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
                   unsigned max_window_log, const dictionary_data* dict) noexcept {
    const kernel_set& k = active_kernels();
    while (size != 0) {
        std::size_t used = 0;
        ZEST_TRY(decode_frame(st, k, src, size, out, max_window_log, dict, used));
        src += used;
        size -= used;
    }
    return ok;
}

}  // namespace zest::detail
