// Frame headers (RFC 8878 "Frame_Header"), skippable frames, frame sizes and
// the public inspection wrappers.
#include <gtest/gtest.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "decompress/frame.hpp"
#include "test_util.hpp"
#include "zest/zest.hpp"

namespace {

using zest::errc;
using zest::detail::content_size_unknown;
using zest::detail::frame_header;
using zest::detail::parse_frame_header;
using zest_test::block_type;
using zest_test::bytes;

constexpr std::uint32_t magic = 0xFD2FB528u;
const std::uint8_t did_field[4] = {0x11, 0x22, 0x33, 0x44};
const std::uint8_t fcs_field[8] = {0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6, 0x07, 0x18};
// Window_Descriptor 0x5B: exponent 11, mantissa 3 -> 2^21 + 3 * 2^18.
constexpr std::uint8_t window_descriptor = 0x5B;
constexpr std::uint64_t window_for_5b = 2097152 + 3 * 262144;

errc parse(const bytes& b, frame_header& h) { return parse_frame_header(b.data(), b.size(), h); }

TEST(FrameHeader, EveryDescriptorCombination) {
    // Field sizes per RFC 8878: DID 0/1/2/4; FCS 0-or-1/2/4/8.
    static constexpr unsigned did_sizes[4] = {0, 1, 2, 4};
    static constexpr std::uint32_t did_values[4] = {0, 0x11, 0x2211, 0x44332211};
    int combos = 0;
    for (unsigned fcs_flag = 0; fcs_flag < 4; ++fcs_flag)
        for (unsigned single = 0; single < 2; ++single)
            for (unsigned unused = 0; unused < 2; ++unused)
                for (unsigned checksum = 0; checksum < 2; ++checksum)
                    for (unsigned did = 0; did < 4; ++did) {
                        const std::uint8_t fhd =
                            std::uint8_t(fcs_flag << 6 | single << 5 | unused << 4 | checksum << 2 | did);
                        bytes b;
                        zest_test::put_le(b, magic, 4);
                        b.push_back(fhd);
                        if (!single) b.push_back(window_descriptor);
                        b.insert(b.end(), did_field, did_field + did_sizes[did]);
                        unsigned fcs_size = 0;
                        std::uint64_t content = content_size_unknown;
                        switch (fcs_flag) {
                            case 0:
                                if (single) {
                                    fcs_size = 1;
                                    content = 0xA1;
                                }
                                break;
                            case 1: fcs_size = 2; content = 0xB2A1 + 256; break;
                            case 2: fcs_size = 4; content = 0xD4C3B2A1; break;
                            default: fcs_size = 8; content = 0x1807F6E5D4C3B2A1ull; break;
                        }
                        b.insert(b.end(), fcs_field, fcs_field + fcs_size);
                        const std::size_t header_size = 4 + 1 + (single ? 0 : 1) + did_sizes[did] + fcs_size;
                        ASSERT_EQ(b.size(), header_size);
                        b.push_back(0xEE);  // whatever follows is not the header's

                        SCOPED_TRACE(testing::Message() << "descriptor 0x" << std::hex << unsigned(fhd));
                        frame_header h;
                        ASSERT_EQ(parse(b, h), errc{});
                        EXPECT_FALSE(h.skippable);
                        EXPECT_EQ(h.header_size, header_size);
                        EXPECT_EQ(h.single_segment, single == 1);
                        EXPECT_EQ(h.checksum, checksum == 1);
                        EXPECT_EQ(h.dict_id, did_values[did]);
                        EXPECT_EQ(h.content_size, content);
                        EXPECT_EQ(h.window_size, single ? content : window_for_5b);

                        for (std::size_t n = 0; n < header_size; ++n)
                            EXPECT_EQ(parse_frame_header(b.data(), n, h), errc::truncated_input) << "size " << n;

                        b[4] = std::uint8_t(fhd | 0x08);  // Reserved_bit
                        EXPECT_EQ(parse(b, h), errc::reserved_bit_set);
                        ++combos;
                    }
    EXPECT_EQ(combos, 128);
}

TEST(FrameHeader, TwoByteContentSizeAddsOffset) {
    // FCS_Field_Size 2 covers 256..65791.
    bytes b;
    zest_test::put_le(b, magic, 4);
    b.insert(b.end(), {0x60, 0x00, 0x00});  // flag 1, single segment, value 0
    frame_header h;
    ASSERT_EQ(parse(b, h), errc{});
    EXPECT_EQ(h.content_size, 256u);
    b[5] = b[6] = 0xFF;
    ASSERT_EQ(parse(b, h), errc{});
    EXPECT_EQ(h.content_size, 65791u);
    EXPECT_EQ(h.window_size, 65791u);
}

TEST(FrameHeader, WindowDescriptor) {
    const struct {
        std::uint8_t wd;
        std::uint64_t size;
    } known[] = {
        {0x00, 1024},                 // 1 KiB, the minimum
        {0x01, 1024 + 128},           // mantissa adds eighths
        {0x07, 1024 + 7 * 128},
        {0x08, 2048},
        {0x09, 2048 + 256},
        {0x50, 1u << 20},             // exponent 10: 1 MiB
        {0x58, 2u << 20},
        {0x5F, (2u << 20) + 7 * (2u << 17)},
        {0x88, std::uint64_t(1) << 27},             // exponent 17
        {0x90, std::uint64_t(1) << 28},
        {0xF8, std::uint64_t(1) << 41},
        {0xFF, (std::uint64_t(1) << 41) + 7 * (std::uint64_t(1) << 38)},  // 3.75 TiB, the maximum
    };
    for (const auto& k : known) {
        bytes b;
        zest_test::put_le(b, magic, 4);
        b.insert(b.end(), {0x00, k.wd});
        frame_header h;
        ASSERT_EQ(parse(b, h), errc{});
        EXPECT_EQ(h.window_size, k.size) << int(k.wd);
        EXPECT_EQ(h.content_size, content_size_unknown);
        EXPECT_EQ(h.header_size, 6u);
    }
    for (unsigned wd = 0; wd < 256; ++wd) {
        bytes b;
        zest_test::put_le(b, magic, 4);
        b.insert(b.end(), {0x00, std::uint8_t(wd)});
        frame_header h;
        ASSERT_EQ(parse(b, h), errc{});
        const std::uint64_t base = std::uint64_t(1) << (10 + (wd >> 3));
        EXPECT_EQ(h.window_size, base + base / 8 * (wd & 7)) << wd;
    }
}

TEST(FrameHeader, SkippableFramesAllMagics) {
    for (std::uint32_t m = 0x184D2A50u; m <= 0x184D2A5Fu; ++m) {
        bytes b;
        zest_test::put_le(b, m, 4);
        zest_test::put_le(b, 5, 4);
        b.insert(b.end(), {1, 2, 3, 4, 5});
        frame_header h;
        ASSERT_EQ(parse(b, h), errc{}) << std::hex << m;
        EXPECT_TRUE(h.skippable);
        EXPECT_EQ(h.header_size, 8u);
        EXPECT_EQ(h.content_size, 5u);
        for (std::size_t n = 0; n < 8; ++n)
            EXPECT_EQ(parse_frame_header(b.data(), n, h), errc::truncated_input) << std::hex << m << " " << n;

        std::size_t size = 0;
        ASSERT_EQ(zest::detail::frame_compressed_size(b.data(), b.size(), size), errc{});
        EXPECT_EQ(size, 13u);
        EXPECT_EQ(zest::detail::frame_compressed_size(b.data(), b.size() - 1, size), errc::truncated_input);

        const auto fcs = zest::frame_content_size(zest_test::as_span(b));
        ASSERT_TRUE(fcs.has_value());
        ASSERT_TRUE(fcs->has_value());
        EXPECT_EQ(**fcs, 0u);  // skippable frames decode to nothing
        const auto cs = zest::find_frame_compressed_size(zest_test::as_span(b));
        ASSERT_TRUE(cs.has_value());
        EXPECT_EQ(*cs, 13u);
    }
}

TEST(FrameHeader, SkippableFrameSizeIsLittleEndian32) {
    bytes b;
    zest_test::put_le(b, 0x184D2A53u, 4);
    b.insert(b.end(), {0x04, 0x03, 0x02, 0x01});
    frame_header h;
    ASSERT_EQ(parse(b, h), errc{});
    EXPECT_EQ(h.content_size, 0x01020304u);
    std::size_t size = 0;
    EXPECT_EQ(zest::detail::frame_compressed_size(b.data(), b.size(), size), errc::truncated_input);
}

TEST(FrameHeader, UnknownMagicRejected) {
    for (std::uint32_t m : {0xFD2FB527u, 0xFD2FB529u, 0x28B52FFDu, 0x184D2A4Fu, 0x184D2A60u, 0x00000000u, 0xFFFFFFFFu}) {
        bytes b;
        zest_test::put_le(b, m, 4);
        b.insert(b.end(), 10, 0);
        frame_header h;
        EXPECT_EQ(parse(b, h), errc::unknown_frame) << std::hex << m;
        std::size_t size = 0;
        EXPECT_EQ(zest::detail::frame_compressed_size(b.data(), b.size(), size), errc::unknown_frame);
        EXPECT_EQ(zest::frame_content_size(zest_test::as_span(b)).error(), errc::unknown_frame);
        EXPECT_EQ(zest::find_frame_compressed_size(zest_test::as_span(b)).error(), errc::unknown_frame);
    }
    // Fewer than 4 bytes cannot tell.
    const bytes b = {0x28, 0xB5, 0x2F};
    frame_header h;
    for (std::size_t n = 0; n <= 3; ++n) EXPECT_EQ(parse_frame_header(b.data(), n, h), errc::truncated_input);
}

// ---------------------------------------------------------------------------
// frame_compressed_size on hand-made frames
// ---------------------------------------------------------------------------

std::size_t compressed_size(const bytes& b, errc* e = nullptr) {
    std::size_t n = 0;
    const errc r = zest::detail::frame_compressed_size(b.data(), b.size(), n);
    if (e) *e = r;
    else EXPECT_EQ(r, errc{});
    return n;
}

TEST(FrameCompressedSize, RawRleAndChecksum) {
    bytes raw = zest_test::frame_start(7);  // 6 header bytes
    zest_test::put_block(raw, block_type::raw, {1, 2, 3, 4, 5}, true);
    EXPECT_EQ(compressed_size(raw), 6u + 3 + 5);

    bytes rle = zest_test::frame_start(7);
    zest_test::put_block(rle, block_type::rle, {'x'}, true, 1000);
    EXPECT_EQ(compressed_size(rle), 6u + 3 + 1);

    bytes sum = zest_test::frame_start(7, true);
    zest_test::put_block(sum, block_type::raw, {1, 2, 3}, true);
    zest_test::put_le(sum, 0xDEADBEEF, 4);
    EXPECT_EQ(compressed_size(sum), 6u + 3 + 3 + 4);

    bytes multi = zest_test::frame_start(7, true);
    zest_test::put_block(multi, block_type::raw, {1, 2, 3, 4, 5}, false);
    zest_test::put_block(multi, block_type::rle, {'y'}, false, 100);
    zest_test::put_block(multi, block_type::compressed, {0x00, 0x00}, false);  // sizes only: not decoded
    zest_test::put_block(multi, block_type::raw, {}, true);
    zest_test::put_le(multi, 0, 4);
    const std::size_t want = 6 + (3 + 5) + (3 + 1) + (3 + 2) + 3 + 4;
    EXPECT_EQ(compressed_size(multi), want);
    // Data after the frame is not counted.
    bytes more = multi;
    more.insert(more.end(), {9, 9, 9, 9, 9, 9, 9});
    EXPECT_EQ(compressed_size(more), want);
    const auto pub = zest::find_frame_compressed_size(zest_test::as_span(more));
    ASSERT_TRUE(pub.has_value());
    EXPECT_EQ(*pub, want);

    // Single segment, 8-byte content size, 4-byte dictionary id: 18-byte header.
    bytes big;
    zest_test::put_le(big, magic, 4);
    big.push_back(0xE3);
    big.insert(big.end(), 12, 0x01);
    zest_test::put_block(big, block_type::rle, {'z'}, true, 7);
    EXPECT_EQ(compressed_size(big), 4u + 1 + 12 + 3 + 1);
}

TEST(FrameCompressedSize, TruncatedAnywhere) {
    bytes f = zest_test::frame_start(7, true);
    zest_test::put_block(f, block_type::raw, {1, 2, 3, 4, 5}, false);
    zest_test::put_block(f, block_type::rle, {'y'}, true, 100);
    zest_test::put_le(f, 0x01020304, 4);
    errc e{};
    ASSERT_EQ(compressed_size(f), f.size());
    for (std::size_t n = 0; n < f.size(); ++n) {
        const bytes cut(f.begin(), f.begin() + std::ptrdiff_t(n));
        compressed_size(cut, &e);
        EXPECT_EQ(e, errc::truncated_input) << n;
        EXPECT_EQ(zest::find_frame_compressed_size(zest_test::as_span(cut)).error(), errc::truncated_input) << n;
    }
}

TEST(FrameCompressedSize, ReservedBlockTypeRejected) {
    bytes f = zest_test::frame_start(7);
    zest_test::put_block(f, block_type::reserved, {1, 2}, true);
    errc e{};
    compressed_size(f, &e);
    EXPECT_EQ(e, errc::block_invalid);
}

// ---------------------------------------------------------------------------
// frame_content_size
// ---------------------------------------------------------------------------

TEST(FrameContentSize, PublicWrapper) {
    bytes b;
    zest_test::put_le(b, magic, 4);
    b.insert(b.end(), {0x20, 42});  // single segment, 1-byte size
    auto r = zest::frame_content_size(zest_test::as_span(b));
    ASSERT_TRUE(r.has_value());
    ASSERT_TRUE(r->has_value());
    EXPECT_EQ(**r, 42u);

    b = zest_test::frame_start(7);  // no size
    r = zest::frame_content_size(zest_test::as_span(b));
    ASSERT_TRUE(r.has_value());
    EXPECT_FALSE(r->has_value());

    b.clear();
    zest_test::put_le(b, magic, 4);
    b.push_back(0xC0);  // 8-byte size, with a window descriptor
    b.push_back(0x00);
    zest_test::put_le(b, 0x123456789ABCull, 8);
    r = zest::frame_content_size(zest_test::as_span(b));
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->value(), 0x123456789ABCull);
    r = zest::frame_content_size(zest_test::as_span(b).first(b.size() - 1));
    EXPECT_EQ(r.error(), errc::truncated_input);
    b[4] |= 0x08;
    EXPECT_EQ(zest::frame_content_size(zest_test::as_span(b)).error(), errc::reserved_bit_set);
    EXPECT_EQ(zest::frame_content_size({}).error(), errc::truncated_input);
}

// ---------------------------------------------------------------------------
// Whole frames of raw and RLE blocks through the public decoder
// ---------------------------------------------------------------------------

bytes decode(const bytes& frame) {
    const auto v = zest::decompress(zest_test::as_span(frame));
    const auto* p = reinterpret_cast<const std::uint8_t*>(v.data());
    return bytes(p, p + v.size());
}

errc decode_error(const bytes& frame) {
    bytes out(1 << 16);
    const auto r = zest::decompress(out.data(), out.size(), frame.data(), frame.size());
    return r ? errc{} : r.error();
}

std::uint32_t checksum_of(const bytes& data) { return std::uint32_t(XXH64(data.data(), data.size(), 0)); }

TEST(FrameDecode, RawRleAndChecksum) {
    const bytes want = {'h', 'e', 'l', 'l', 'o', 'z', 'z', 'z', 'z', 'z', 'z', '!'};
    bytes f = zest_test::frame_start(7, true);
    zest_test::put_block(f, block_type::raw, {'h', 'e', 'l', 'l', 'o'}, false);
    zest_test::put_block(f, block_type::rle, {'z'}, false, 6);
    zest_test::put_block(f, block_type::raw, {'!'}, true);
    zest_test::put_le(f, checksum_of(want), 4);
    EXPECT_EQ(decode(f), want);
    // The low 4 bytes of XXH64, little-endian: one bit off is a mismatch.
    bytes bad = f;
    bad.back() ^= 0x80;
    EXPECT_EQ(decode_error(bad), errc::checksum_mismatch);
    bad = f;
    bad.pop_back();
    EXPECT_EQ(decode_error(bad), errc::truncated_input);
}

TEST(FrameDecode, SkippableFramesAreSkipped) {
    bytes all;
    zest_test::put_le(all, 0x184D2A5Eu, 4);
    zest_test::put_le(all, 3, 4);
    all.insert(all.end(), {7, 7, 7});
    bytes f = zest_test::frame_start(7);
    zest_test::put_block(f, block_type::raw, {'o', 'k'}, true);
    all.insert(all.end(), f.begin(), f.end());
    zest_test::put_le(all, 0x184D2A50u, 4);
    zest_test::put_le(all, 0, 4);
    EXPECT_EQ(decode(all), (bytes{'o', 'k'}));
}

TEST(FrameDecode, HeaderDrivenErrors) {
    // Declared content size differs from the blocks.
    bytes f;
    zest_test::put_le(f, magic, 4);
    f.insert(f.end(), {0x20, 4});  // single segment, size 4
    zest_test::put_block(f, block_type::raw, {1, 2, 3}, true);
    EXPECT_EQ(decode_error(f), errc::content_size_mismatch);
    // A dictionary id that is not 0.
    f.clear();
    zest_test::put_le(f, magic, 4);
    f.insert(f.end(), {0x01, 0x00, 0x05});
    zest_test::put_block(f, block_type::raw, {1}, true);
    EXPECT_EQ(decode_error(f), errc::dictionary_required);
    f[6] = 0;  // id 0 means "no dictionary"
    EXPECT_EQ(decode(f), (bytes{1}));
    // A window beyond the default limit (2^27): exponent 18 -> 2^28.
    f = zest_test::frame_start(18);
    zest_test::put_block(f, block_type::raw, {1}, true);
    EXPECT_EQ(decode_error(f), errc::window_too_large);
    // A block larger than the window (1 KiB).
    f = zest_test::frame_start(0);
    zest_test::put_block(f, block_type::raw, bytes(1025, 1), true);
    EXPECT_EQ(decode_error(f), errc::block_invalid);
    f = zest_test::frame_start(0);
    zest_test::put_block(f, block_type::raw, bytes(1024, 1), true);
    EXPECT_EQ(decode(f), bytes(1024, 1));
    // Reserved block type.
    f = zest_test::frame_start(7);
    zest_test::put_block(f, block_type::reserved, {1}, true);
    EXPECT_EQ(decode_error(f), errc::block_invalid);
}

}  // namespace
