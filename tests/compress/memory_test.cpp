// A compressor's memory per level, against what the reference says its
// context needs for the same parameters (ZSTD_estimateCCtxSize_usingCParams),
// at every level and input size. The table it prints is the one in
// docs/benchmarks.md. A block's sequences take 11 bytes each, as the
// reference's (8 for the sequence, 3 for its codes); the row matcher's tags
// take 2 bytes per entry as up to libzstd 1.5.5 (1.5.6 packs them in 1 and
// gives up a slot per row).
#include <gtest/gtest.h>
#define ZSTD_STATIC_LINKING_ONLY  // ZSTD_estimateCCtxSize_usingCParams
#include <zstd.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "corpus.hpp"
#include "zest/zest.hpp"

namespace {

TEST(Memory, NoMoreThanTheReferencePerLevel) {
    const auto text = zest::test::corpus_shape("text").generate();
    std::printf("%6s %10s %12s %12s %6s\n", "level", "input", "zest", "libzstd", "ratio");
    for (const std::size_t size : {std::size_t(16) << 10, std::size_t(128) << 10, std::size_t(1) << 20,
                                   std::size_t(8) << 20}) {
        std::vector<std::byte> in;
        while (in.size() < size) in.insert(in.end(), text.begin(), text.begin() + std::ptrdiff_t(std::min(text.size(), size - in.size())));
        for (int level = -5; level <= zest::max_level; ++level) {
            if (level == 0) continue;
            zest::compressor c;
            (void)c.set_level(level);
            ASSERT_FALSE(c.compress(std::span<const std::byte>(in)).empty());
            const std::size_t ours = c.memory_usage();
            const std::size_t ref = ZSTD_estimateCCtxSize_usingCParams(ZSTD_getCParams(level, size, 0));
            std::printf("%6d %10zu %12zu %12zu %6.2f\n", level, size, ours, ref, double(ours) / double(ref));
            EXPECT_LE(ours, ref) << "level " << level << ", input " << size;
        }
    }
}

}  // namespace
