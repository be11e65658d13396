// The compressor's kernel sets (compress/kernels.hpp) must be
// interchangeable: every set this CPU can run writes the very same frames as
// the generic one, at every strategy and the settings that change the
// entropy coding (RLE and repeat tables, 1 and 4 Huffman streams).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "compress/kernels.hpp"
#include "corpus.hpp"
#include "cpu/cpu.hpp"
#include "roundtrip_check.hpp"

namespace {

using zest::detail::compress_kernel_set;

std::vector<const compress_kernel_set*> runnable_sets() {
    std::vector<const compress_kernel_set*> sets{&zest::detail::compress_kernels_generic};
#if ZEST_HAVE_X86_KERNELS
    if (zest::detail::cpu().bmi2) sets.push_back(&zest::detail::compress_kernels_bmi2);
#endif
    return sets;
}

// Restores automatic selection however the test ends.
struct override_guard {
    explicit override_guard(const compress_kernel_set* s) { zest::detail::compress_kernels_override = s; }
    ~override_guard() { zest::detail::compress_kernels_override = nullptr; }
};

std::vector<std::byte> frame_with(const compress_kernel_set* set, std::span<const std::byte> input, int level) {
    const override_guard g(set);
    EXPECT_EQ(&zest::detail::active_compress_kernels(), set);
    zest::compressor c;
    return zest::test::expect_roundtrip(c, input, {level, true, true});
}

TEST(CompressKernels, EverySetWritesTheSameFrames) {
    const auto sets = runnable_sets();
    if (sets.size() == 1) GTEST_LOG_(INFO) << "only the generic set runs on this CPU: nothing to compare";
    for (const auto& shape : zest::test::corpus_shapes()) {
        if (!shape.every_setting) continue;
        const auto input = shape.generate();
        for (int level : {-5, 1, 2, 3, 4}) {
            SCOPED_TRACE(shape.name + " level " + std::to_string(level));
            const auto reference = frame_with(sets[0], input, level);
            for (std::size_t i = 1; i < sets.size(); ++i) {
                const auto other = frame_with(sets[i], input, level);
                EXPECT_TRUE(other == reference) << sets[i]->name << " differs from " << sets[0]->name;
            }
        }
    }
}

TEST(CompressKernels, SelectionFollowsTheCpu) {
    // Without the hook, the chosen set is the best the selected ISA allows.
    ASSERT_EQ(zest::detail::compress_kernels_override, nullptr);
    const std::string name = zest::detail::active_compress_kernels().name;
#if ZEST_HAVE_X86_KERNELS
    const bool bmi2 = zest::detail::selected_isa() >= zest::detail::isa_level::bmi2;
    EXPECT_EQ(name, bmi2 ? "bmi2" : "generic");
#else
    EXPECT_EQ(name, "generic");
#endif
}

}  // namespace
