#include "common/format.hpp"

namespace zest::detail {
namespace {

constexpr unsigned dict_id_bytes[4] = {0, 1, 2, 4};
constexpr unsigned content_size_bytes[4] = {0, 2, 4, 8};

bool single_segment(unsigned fhd) noexcept { return (fhd >> 5) & 1; }

unsigned content_size_field_size(unsigned fhd) noexcept {
    const unsigned flag = fhd >> 6;
    return flag == 0 ? (single_segment(fhd) ? 1 : 0) : content_size_bytes[flag];
}

// Bytes of the header a Frame_Header_Descriptor announces, magic included.
std::size_t header_size_of(unsigned fhd) noexcept {
    return 5 + (single_segment(fhd) ? 0 : 1) + dict_id_bytes[fhd & 3] + content_size_field_size(fhd);
}

}  // namespace

std::size_t frame_header_size(const std::uint8_t* src, std::size_t size) noexcept {
    if (size < 4) return 0;
    const std::uint32_t magic = load_le32(src);
    if (is_skippable_magic(magic)) return skippable_header_size;
    if (magic != zstd_magic) return 4;
    if (size < 5) return 0;
    return header_size_of(src[4]);
}

errc parse_frame_header(const std::uint8_t* src, std::size_t size, frame_header& h) noexcept {
    if (size < 4) return errc::truncated_input;
    const std::uint32_t magic = load_le32(src);
    h = frame_header{};
    if (is_skippable_magic(magic)) {
        if (size < skippable_header_size) return errc::truncated_input;
        h.skippable = true;
        h.header_size = skippable_header_size;
        h.content_size = load_le32(src + 4);  // the payload's size
        return ok;
    }
    if (magic != zstd_magic) return errc::unknown_frame;
    if (size < 5) return errc::truncated_input;
    const unsigned fhd = src[4];
    if (fhd & 0x08) return errc::reserved_bit_set;
    h.single_segment = single_segment(fhd);
    h.checksum = (fhd >> 2) & 1;
    h.header_size = header_size_of(fhd);
    if (size < h.header_size) return errc::truncated_input;

    std::size_t pos = 5;
    if (!h.single_segment) {
        const unsigned wd = src[pos++];
        const unsigned exponent = wd >> 3;
        const std::uint64_t base = std::uint64_t(1) << (10 + exponent);
        h.window_size = base + (base / 8) * (wd & 7);
    }
    switch (fhd & 3) {
        case 1: h.dict_id = src[pos]; break;
        case 2: h.dict_id = load_le16(src + pos); break;
        case 3: h.dict_id = load_le32(src + pos); break;
        default: break;
    }
    pos += dict_id_bytes[fhd & 3];
    switch (content_size_field_size(fhd)) {
        case 1: h.content_size = src[pos]; break;
        case 2: h.content_size = std::uint64_t(load_le16(src + pos)) + 256; break;
        case 4: h.content_size = load_le32(src + pos); break;
        case 8: h.content_size = load_le64(src + pos); break;
        default: break;
    }
    if (h.single_segment) h.window_size = h.content_size;
    return ok;
}

}  // namespace zest::detail
