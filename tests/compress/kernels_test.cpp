// The compressor's kernel sets (compress/kernels.hpp) must be
// interchangeable: every set this CPU can run writes the very same frames as
// the generic one, at every strategy and the settings that change the
// entropy coding (RLE and repeat tables, 1 and 4 Huffman streams).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "compress/kernels.hpp"
#include "compress/sequences_encode.hpp"
#include "corpus.hpp"
#include "cpu/cpu.hpp"
#include "cpu/pick_kernels.hpp"
#include "roundtrip_check.hpp"

namespace {

using zest::detail::compress_kernel_set;

// The sets this CPU runs, generic first (the one the others must agree with).
std::vector<const compress_kernel_set*> runnable_sets() {
    auto sets = zest::detail::runnable_kernels(zest::detail::compress_kernel_sets);
    std::reverse(sets.begin(), sets.end());
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
        for (int level : {-5, 1, 2, 3, 4, 5, 7, 9, 12, 15}) {
            SCOPED_TRACE(shape.name + " level " + std::to_string(level));
            const auto reference = frame_with(sets[0], input, level);
            for (std::size_t i = 1; i < sets.size(); ++i) {
                const auto other = frame_with(sets[i], input, level);
                EXPECT_TRUE(other == reference) << sets[i]->name << " differs from " << sets[0]->name;
            }
        }
    }
}

// The sequences' bitstream writes runs that surely fit without testing the
// position, and tests it near the end: at every capacity, each set either
// writes the whole section or reports that it does not fit, and never
// writes past the capacity.
TEST(CompressKernels, SequencesAtEveryCapacity) {
    std::mt19937 rng(11);
    // 0: short lengths and offsets; 1: lengths and offsets with up to 15 and
    // 27 extra bits; 2 and 3: the same with one literal length (2) or match
    // length (3) past 2^16, the most a block holds.
    for (const int kind : {0, 1, 2, 3}) {
        const bool wide = kind != 0;
        std::vector<zest::detail::stored_sequence> seqs(300);
        zest::detail::seq_store store;
        store.seqs = seqs.data();
        store.n_seqs = seqs.size();
        store.clear();
        store.n_seqs = seqs.size();
        for (std::size_t i = 0; i < seqs.size(); ++i) {
            const std::uint32_t r = rng();
            std::uint32_t lit_len = wide && r % 3 == 0 ? rng() % 65536 : rng() % 40;
            std::uint32_t match_len = 3 + (wide && r % 5 == 0 ? rng() % 65536 : rng() % 60);
            if (i == 150 && kind == 2) lit_len = 65536 + rng() % 4000;
            if (i == 150 && kind == 3) match_len = 65539 + rng() % 4000;
            const std::uint32_t off_value = r % 4 == 0 ? 1 + rng() % 3 : 4 + (wide ? rng() % (1u << 27) : rng() % 5000);
            ASSERT_TRUE(store.put(i, lit_len, match_len, off_value));
            ASSERT_EQ(store.lit_len(i), lit_len);
            ASSERT_EQ(store.match_len(i), match_len);
        }
        std::vector<std::uint8_t> codes(3 * seqs.size() + zest::detail::seq_store::codes_slack);
        store.codes = codes.data();
        for (const auto* set : runnable_sets()) {
            SCOPED_TRACE(std::string(set->name) + " kind " + std::to_string(kind));
            const override_guard g(set);
            const zest::detail::seq_entropy prev{};
            zest::detail::seq_entropy next;
            std::vector<std::uint8_t> full(8192);
            const std::size_t size =
                zest::detail::encode_sequences(full.data(), full.size(), store, prev, next, zest::detail::strategy::fast);
            ASSERT_GT(size, 0u);
            constexpr std::size_t guard = 32;
            for (std::size_t capacity = 0; capacity <= size + 16; ++capacity) {
                std::vector<std::uint8_t> dst(capacity + guard, 0xA5);
                const std::size_t r = zest::detail::encode_sequences(dst.data(), capacity, store, prev, next,
                                                                     zest::detail::strategy::fast);
                ASSERT_TRUE(std::all_of(dst.begin() + std::ptrdiff_t(capacity), dst.end(),
                                        [](std::uint8_t b) { return b == 0xA5; }))
                    << "capacity " << capacity << ": bytes written past it";
                if (capacity < size) {
                    ASSERT_EQ(r, 0u) << "capacity " << capacity;
                } else {
                    ASSERT_EQ(r, size) << "capacity " << capacity;
                    ASSERT_TRUE(std::equal(full.begin(), full.begin() + std::ptrdiff_t(size), dst.begin()));
                }
            }
        }
    }
}

TEST(CompressKernels, SelectionFollowsTheCpu) {
    // Without the hook, the chosen set is the best the selected ISA allows.
    ASSERT_EQ(zest::detail::compress_kernels_override, nullptr);
    const zest::detail::compress_kernel_set& k = zest::detail::active_compress_kernels();
    EXPECT_LE(k.required_isa, zest::detail::selected_isa());
    // No better set the selected ISA allows is left out (the list is best first).
    for (const compress_kernel_set* s : zest::detail::compress_kernel_sets) {
        if (s == &k) break;
        EXPECT_GT(s->required_isa, zest::detail::selected_isa()) << s->name << " was passed over";
    }
}

}  // namespace
