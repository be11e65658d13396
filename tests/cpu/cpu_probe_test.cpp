// The CPU is probed at most once per process, contexts never probe, and the
// ZEST_CPU override lowers the kernel level while decoding stays correct.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include <zest/zest.hpp>

#include "cpu/cpu.hpp"
#include "decompress/kernels.hpp"
#include "test_frames.hpp"

namespace {

using namespace zest_test;
using zest::detail::cpu_probe_count;
using zest::detail::isa_level;

bool decodes_to(zest::decompressor& d, const bytes& frame, const bytes& expected) {
    bytes out(expected.size() + 16);
    const auto r = d.decompress(out, frame);
    return r && *r == expected.size() && std::equal(expected.begin(), expected.end(), out.begin());
}

bool one_shot_decodes_to(const bytes& frame, const bytes& expected) {
    bytes out(expected.size() + 16);
    const auto r = zest::decompress(out, frame);
    return r && *r == expected.size() && std::equal(expected.begin(), expected.end(), out.begin());
}

// Must run in a process that has decoded nothing yet (its own CTest entry).
TEST(ProbeLazy, ContextsDoNotProbe) {
    ASSERT_EQ(cpu_probe_count(), 0u) << "the CPU was probed before anything was decoded";
    for (int i = 0; i < 1000; ++i) {
        zest::decompressor d;
        ASSERT_TRUE(d.set_max_window_log(20));
        d.reset();
        zest::decompressor moved(std::move(d));
        EXPECT_EQ(moved.memory_usage(), 0u);
    }
    EXPECT_EQ(cpu_probe_count(), 0u) << "creating, configuring or resetting a context probed the CPU";
}

TEST(ProbeOnce, TenThousandContextsAndCallsProbeAtMostOnce) {
    const bytes small = words(200, 1);
    const bytes raw = raw_block_frame(small);
    const bytes rle = rle_block_frame(std::byte{'z'}, 100);
    const bytes rle_content(100, std::byte{'z'});
    const bytes text = words(3000, 2);
    const bytes compressed = zstd_frame(text, 3);
    ASSERT_FALSE(compressed.empty());
    ASSERT_EQ(first_block_type(compressed), 2u) << "the frame must exercise the entropy decoders";

    for (int i = 0; i < 10000; ++i) {
        zest::decompressor d;  // a fresh context per message, as Kafka or squashfs do
        switch (i % 3) {
            case 0: ASSERT_TRUE(decodes_to(d, raw, small)) << "context " << i; break;
            case 1: ASSERT_TRUE(decodes_to(d, rle, rle_content)) << "context " << i; break;
            default: ASSERT_TRUE(decodes_to(d, compressed, text)) << "context " << i; break;
        }
    }
    for (int i = 0; i < 10000; ++i) {
        const bool ok = i % 2 ? one_shot_decodes_to(compressed, text) : one_shot_decodes_to(raw, small);
        ASSERT_TRUE(ok) << "one-shot call " << i;
    }
    EXPECT_LE(cpu_probe_count(), 1u);
    // Asking for the selection itself must not probe again either.
    (void)zest::detail::selected_isa();
    (void)zest::detail::cpu();
    EXPECT_EQ(cpu_probe_count(), 1u);
}

// The level ZEST_CPU asks for, or the highest when unset or unknown.
isa_level requested_level() {
    const char* env = std::getenv("ZEST_CPU");
    if (env && std::strcmp(env, "generic") == 0) return isa_level::generic;
    if (env && std::strcmp(env, "bmi2") == 0) return isa_level::bmi2;
    if (env && std::strcmp(env, "avx2") == 0) return isa_level::avx2;
    return isa_level::avx512;
}

isa_level best_level() {
    const auto& f = zest::detail::cpu();
    if (f.avx512) return isa_level::avx512;
    if (f.avx2 && f.bmi2) return isa_level::avx2;
    if (f.bmi2) return isa_level::bmi2;
    return isa_level::generic;
}

TEST(Dispatch, OverrideLowersButNeverRaises) {
    const isa_level requested = requested_level();
    const isa_level selected = zest::detail::selected_isa();
    EXPECT_LE(selected, requested) << "selected " << zest::detail::isa_name(selected);
    EXPECT_LE(selected, best_level()) << "a level the CPU lacks was selected";
    EXPECT_EQ(selected, std::min(requested, best_level()))
        << "ZEST_CPU=" << (std::getenv("ZEST_CPU") ? std::getenv("ZEST_CPU") : "(unset)") << " selected "
        << zest::detail::isa_name(selected);
    std::printf("selected kernels: %s (CPU best: %s)\n", zest::detail::isa_name(selected),
                zest::detail::isa_name(best_level()));
}

// The decoder's list is what pick_kernels expects: best first, one set per
// level, generic last, each named after its level.
TEST(Dispatch, DecoderSetsAreListedBestFirst) {
    const auto sets = zest::detail::kernel_sets;
    ASSERT_FALSE(sets.empty());
    EXPECT_EQ(sets.back()->required_isa, isa_level::generic);
    for (std::size_t i = 1; i < sets.size(); ++i) EXPECT_GT(sets[i - 1]->required_isa, sets[i]->required_isa);
    for (const auto* s : sets) EXPECT_STREQ(s->name, zest::detail::isa_name(s->required_isa));
}

// The decoder runs the best set the selection allows (ZEST_CPU=generic: the
// generic one).
TEST(Dispatch, DecoderRunsTheBestSetAllowed) {
    const isa_level selected = zest::detail::selected_isa();
    const auto& active = zest::detail::active_kernels();
    EXPECT_LE(active.required_isa, selected);
    for (const auto* s : zest::detail::kernel_sets)
        if (s->required_isa <= selected) {
            EXPECT_EQ(&active, s) << "runs " << active.name << ", " << s->name << " was allowed";
            break;
        }
    std::printf("decoder kernels: %s\n", active.name);
}

struct named_data {
    const char* name;
    bytes data;
};

std::vector<named_data> dispatch_inputs() {
    std::vector<named_data> v;
    v.push_back({"empty", {}});
    v.push_back({"words-300k", words(300000, 7)});  // several 128 KiB blocks
    bytes periodic;
    for (std::size_t period = 1; period <= 40; ++period)  // offsets below 16 and 32: pattern copies
        for (std::size_t i = 0; i < 1500; ++i) periodic.push_back(static_cast<std::byte>('a' + (i % period) + period % 7));
    v.push_back({"short-periods", periodic});
    bytes column;
    for (std::uint32_t i = 0; i < 30000; ++i) {  // fixed-width integers: offsets 4 and 8
        const std::uint32_t x = 1000000 + i / 3;
        for (int b = 0; b < 4; ++b) column.push_back(static_cast<std::byte>(x >> (8 * b)));
    }
    v.push_back({"int-column", column});
    bytes noise(20000);
    std::uint32_t x = 12345;
    for (auto& b : noise) b = static_cast<std::byte>((x = x * 1664525u + 1013904223u) >> 24);
    v.push_back({"incompressible", noise});
    v.push_back({"zeros", bytes(200000, std::byte{0})});
    return v;
}

TEST(Dispatch, DecodesCorrectlyAtTheSelectedLevel) {
    zest::decompressor reused;
    for (const auto& in : dispatch_inputs()) {
        for (const int level : {1, 3, 9, 19}) {
            for (const bool checksum : {false, true}) {
                const bytes frame = zstd_frame(in.data, level, checksum);
                ASSERT_FALSE(frame.empty());
                EXPECT_TRUE(decodes_to(reused, frame, in.data))
                    << in.name << " level " << level << (checksum ? " with checksum" : "");
                EXPECT_TRUE(one_shot_decodes_to(frame, in.data))
                    << in.name << " level " << level << (checksum ? " with checksum" : "") << " (one-shot)";
            }
        }
    }
    const bytes small = words(255, 3);
    EXPECT_TRUE(decodes_to(reused, raw_block_frame(small), small));
    EXPECT_TRUE(decodes_to(reused, rle_block_frame(std::byte{7}, 255), bytes(255, std::byte{7})));
}

}  // namespace
