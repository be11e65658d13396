// Shared round-trip assertion of the compression tests.
#pragma once

#include <gtest/gtest.h>
#include <zstd.h>

#include <cstring>
#include <span>
#include <vector>

#include "zest/zest.hpp"

// Defined in builds with the address sanitizer, whose heaviest cases the
// Release build runs instead.
#if defined(__SANITIZE_ADDRESS__)
#define ZEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ZEST_SANITIZED 1
#endif
#endif

namespace zest::test {

struct compress_setting {
    int level;
    bool checksum;
    bool content_size;
};

/// Compresses `input` with a compressor set to `s`, then requires: the frame
/// fits compress_bound; libzstd and zest both decode it to `input`; the
/// declared content size (or its absence) and the checksum flag are as asked.
/// Returns the frame.
inline std::vector<std::byte> expect_roundtrip(zest::compressor& c, std::span<const std::byte> input,
                                               const compress_setting& s) {
    (void)c.set_level(s.level);
    (void)c.set_checksum(s.checksum);
    (void)c.set_content_size(s.content_size);
    std::vector<std::byte> frame(zest::compress_bound(input.size()));
    const auto r = c.compress(frame, input);
    EXPECT_TRUE(r.has_value()) << (r ? "" : r.message());
    if (!r) return {};
    frame.resize(*r);

    std::vector<std::byte> ref(input.size() + 1);
    const std::size_t n = ZSTD_decompress(ref.data(), ref.size(), frame.data(), frame.size());
    EXPECT_FALSE(ZSTD_isError(n)) << "libzstd: " << ZSTD_getErrorName(n);
    EXPECT_EQ(n, input.size());
    if (!ZSTD_isError(n) && n == input.size()) {
        EXPECT_TRUE(input.empty() || std::memcmp(ref.data(), input.data(), n) == 0) << "libzstd decoded other bytes";
    }

    std::vector<std::byte> mine(input.size() + 1);
    const auto z = zest::decompress(mine, frame);
    EXPECT_TRUE(z.has_value()) << (z ? "" : z.message());
    if (z) {
        EXPECT_EQ(*z, input.size());
        EXPECT_TRUE(input.empty() || std::memcmp(mine.data(), input.data(), input.size()) == 0)
            << "zest decoded other bytes";
    }

    const unsigned long long declared = ZSTD_getFrameContentSize(frame.data(), frame.size());
    if (s.content_size) EXPECT_EQ(declared, input.size());
    else EXPECT_EQ(declared, ZSTD_CONTENTSIZE_UNKNOWN);
    EXPECT_GE(frame.size(), 6u);
    const bool has_checksum = (std::to_integer<unsigned>(frame[4]) >> 2) & 1;
    EXPECT_EQ(has_checksum, s.checksum);
    return frame;
}

}  // namespace zest::test
