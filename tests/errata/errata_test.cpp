// Valid frames listed in the reference's doc/decompressor_errata.md, each of
// which some decoder version rejected, and frames libzstd accepts beyond the
// letter of the format (tests/known_differences.md). zest must decode them
// byte for byte like libzstd (the oracle).
#include <gtest/gtest.h>
#include <zstd.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "zest/zest.hpp"

namespace {

std::vector<std::byte> bytes(std::initializer_list<unsigned> v) {
    std::vector<std::byte> out;
    for (unsigned b : v) out.push_back(std::byte(b));
    return out;
}

std::vector<std::byte> libzstd_decode(const std::vector<std::byte>& frame, std::size_t capacity) {
    std::vector<std::byte> out(capacity);
    const std::size_t n = ZSTD_decompress(out.data(), out.size(), frame.data(), frame.size());
    EXPECT_FALSE(ZSTD_isError(n)) << ZSTD_getErrorName(n);
    out.resize(ZSTD_isError(n) ? 0 : n);
    return out;
}

void expect_same_as_libzstd(const std::vector<std::byte>& frame, std::size_t expected_size) {
    const std::vector<std::byte> want = libzstd_decode(frame, expected_size + 64);
    ASSERT_EQ(want.size(), expected_size);
    std::vector<std::byte> got(expected_size);
    auto r = zest::decompress(std::span<std::byte>(got), std::span<const std::byte>(frame));
    ASSERT_TRUE(r) << r.message();
    EXPECT_EQ(*r, expected_size);
    EXPECT_EQ(got, want);
    EXPECT_EQ(zest::decompress(std::span<const std::byte>(frame)), want);
}

TEST(Errata, CompressedBlockWithNoLiteralsAndNoSequences) {
    // Single-segment frame of content size 0 holding a 2-byte compressed
    // block. libzstd 1.5.4 still rejects it (tests/known_differences.md,
    // class 11); the same frame with an empty raw block is its oracle.
    const auto frame = bytes({0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x00, 0x15, 0x00, 0x00, 0x00, 0x00});
    const auto as_raw = bytes({0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x00, 0x01, 0x00, 0x00});
    expect_same_as_libzstd(as_raw, 0);
    std::byte sink[1];
    auto r = zest::decompress(std::span<std::byte>(sink, 0), std::span<const std::byte>(frame));
    ASSERT_TRUE(r) << r.message();
    EXPECT_EQ(*r, 0u);
    // Anything after the empty block's two bytes is not part of it.
    auto longer = frame;
    longer[6] = std::byte(0x1d);  // Block_Size 3
    longer.push_back(std::byte(0));
    EXPECT_FALSE(zest::decompress(std::span<std::byte>(sink, 0), std::span<const std::byte>(longer)));
}

TEST(Errata, FirstBlockIsFullSizeRle) {
    // An RLE block of 131072 bytes, then an RLE block of 1 byte.
    const auto frame = bytes({0x28, 0xb5, 0x2f, 0xfd, 0xa0, 0x01, 0x00, 0x02, 0x00, 0x02, 0x00, 0x10,
                              0x00, 0x0b, 0x00, 0x00, 0x00});
    expect_same_as_libzstd(frame, 131073);
}

TEST(Errata, TinyFseTableCloseToBlockEnd) {
    const auto frame = bytes({0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x27, 0xc5, 0x00, 0x00, 0x80, 0xf3, 0xf1,
                              0xf0, 0xec, 0xeb, 0xc6, 0xc5, 0xc7, 0xf0, 0x9d, 0x43, 0x00, 0x00, 0x00,
                              0xe0, 0xe0, 0x06, 0x58, 0x01, 0x00, 0x60, 0x3e, 0x52});
    expect_same_as_libzstd(frame, 0x27);
}

// A literals table 12 bits deep: the format's text says at most 11, libzstd
// has accepted 12 since 1.4.5 (HUF_TABLELOG_MAX) and decodes this frame to
// eight 0x0c bytes (1.5.4 and 1.5.6). One-shot and streamed.
TEST(Permissive, TwelveBitLiteralsTable) {
    const auto frame = bytes({0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x00, 0x6d, 0x00, 0x00, 0x82, 0x40,
                              0x02, 0x8b, 0x11, 0xba, 0x98, 0x76, 0x54, 0x32, 0xff, 0x01, 0x00});
    expect_same_as_libzstd(frame, 8);
    EXPECT_EQ(zest::decompress(std::span<const std::byte>(frame)), std::vector<std::byte>(8, std::byte{0x0c}));
    zest::decompress_stream ds;
    std::byte out[16];
    zest::in_buffer in{frame.data(), frame.size(), 0};
    zest::out_buffer o{out, sizeof out, 0};
    auto r = ds.decompress(o, in);
    ASSERT_TRUE(r) << r.message();
    EXPECT_EQ(*r, 0u);
    EXPECT_EQ(o.pos, 8u);
    EXPECT_EQ(std::vector<std::byte>(out, out + o.pos), std::vector<std::byte>(8, std::byte{0x0c}));
}

}  // namespace
