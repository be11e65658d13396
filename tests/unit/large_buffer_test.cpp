// The large buffers of a context: any size allocates (zeroed when asked),
// frees and moves; from large_buffer_min on, on Linux outside sanitizer
// builds, they start at a 2 MiB boundary (their own mapping, marked for
// huge pages) and their whole length is usable.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include "common/large_buffer.hpp"

namespace {

using zest::detail::large_buffer;
using zest::detail::large_buffer_min;

bool all_zero(const large_buffer& b) {
    return std::all_of(b.data(), b.data() + b.size(), [](std::uint8_t v) { return v == 0; });
}

TEST(LargeBuffer, EverySizeAllocatesZeroedWhenAskedAndIsWritable) {
    for (const std::size_t n : {std::size_t(1), std::size_t(4096), large_buffer_min - 1, large_buffer_min,
                                large_buffer_min + 12345, std::size_t(9) << 20}) {
        SCOPED_TRACE(n);
        large_buffer b;
        ASSERT_TRUE(b.allocate(n, true));
        ASSERT_NE(b.data(), nullptr);
        EXPECT_EQ(b.size(), n);
        EXPECT_TRUE(all_zero(b));
        std::memset(b.data(), 0xA5, n);  // every byte is there
        EXPECT_EQ(b.data()[n - 1], 0xA5);
        // A second allocation replaces the first, zeroed again.
        ASSERT_TRUE(b.allocate(n, true));
        EXPECT_TRUE(all_zero(b));
    }
}

TEST(LargeBuffer, EmptyReleasedAndMoved) {
    large_buffer b;
    EXPECT_TRUE(b.allocate(0));
    EXPECT_EQ(b.data(), nullptr);
    ASSERT_TRUE(b.allocate(large_buffer_min));
    std::uint8_t* const p = b.data();
    p[0] = 7;
    large_buffer c(std::move(b));
    EXPECT_EQ(b.data(), nullptr);
    EXPECT_EQ(b.size(), 0u);
    EXPECT_EQ(c.data(), p);
    EXPECT_EQ(c.data()[0], 7);
    large_buffer d;
    ASSERT_TRUE(d.allocate(100));
    d = std::move(c);
    EXPECT_EQ(d.data(), p);
    EXPECT_EQ(d.size(), large_buffer_min);
    d.release();
    EXPECT_EQ(d.data(), nullptr);
    EXPECT_EQ(d.size(), 0u);
}

#if defined(__linux__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#if !defined(__has_feature)
#define ZEST_TEST_MAPPED 1
#elif !__has_feature(address_sanitizer) && !__has_feature(thread_sanitizer) && !__has_feature(memory_sanitizer)
#define ZEST_TEST_MAPPED 1
#endif
#endif

#if ZEST_TEST_MAPPED
TEST(LargeBuffer, LargeOnesStartAtAHugePageBoundary) {
    large_buffer b;
    ASSERT_TRUE(b.allocate(large_buffer_min + 1));
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b.data()) % (std::size_t(2) << 20), 0u);
}
#endif

}  // namespace
