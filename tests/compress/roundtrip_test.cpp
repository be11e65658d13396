// Every level on the conformance corpus, with and without checksum and content size: libzstd and zest must
// both decode zest's frames to the original.
#include <string>
#include <tuple>

#include "corpus.hpp"
#define ZSTD_STATIC_LINKING_ONLY  // ZSTD_getFrameHeader
#include "roundtrip_check.hpp"

namespace {

using zest::test::compress_setting;
using zest::test::expect_roundtrip;

const int levels[] = {-7, -5, -3, -1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22};

class Roundtrip : public ::testing::TestWithParam<std::tuple<std::string, int>> {};

TEST_P(Roundtrip, LibzstdAndZestDecodeIt) {
    const auto& [name, level] = GetParam();
    const auto& shape = zest::test::corpus_shape(name);
    const auto input = shape.generate();
    zest::compressor c;
    for (const bool checksum : {false, true})
        for (const bool content_size : {true, false}) {
            SCOPED_TRACE("checksum " + std::to_string(checksum) + ", content size " + std::to_string(content_size));
            expect_roundtrip(c, input, {level, checksum, content_size});
        }
}

std::string level_name(int level) { return level < 0 ? "minus" + std::to_string(-level) : std::to_string(level); }

INSTANTIATE_TEST_SUITE_P(Corpus, Roundtrip,
                         ::testing::Combine(::testing::ValuesIn(zest::test::corpus_shape_names()),
                                            ::testing::ValuesIn(levels)),
                         [](const auto& info) {
                             return std::get<0>(info.param) + "_level_" + level_name(std::get<1>(info.param));
                         });

TEST(Compress, OneShotMatchesTheContext) {
    const auto input = zest::test::corpus_shape(zest::test::corpus_shapes().front().name).generate();
    for (const int level : {1, 3}) {
        const auto a = zest::compress(std::span<const std::byte>(input), level);
        zest::compressor c;
        (void)c.set_level(level);
        const auto b = c.compress(std::span<const std::byte>(input));
        EXPECT_EQ(a, b) << "level " << level;
    }
}

TEST(Compress, TooSmallDestinationIsAnError) {
    const auto input = zest::test::corpus_shapes().front().generate();
    std::vector<std::byte> dst(16);
    const auto r = zest::compress(std::span<std::byte>(dst), std::span<const std::byte>(input), 3);
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error(), zest::errc::destination_too_small);
}

TEST(Compress, LevelsAndOptionsAreValidated) {
    zest::compressor c;
    (void)c.set_level(1000);
    EXPECT_EQ(c.level(), zest::max_level);
    (void)c.set_level(0);
    EXPECT_EQ(c.level(), zest::default_level);
    EXPECT_FALSE(c.set_fast(0).has_value());
    ASSERT_TRUE(c.set_fast(5).has_value());
    EXPECT_EQ(c.level(), -5);
    EXPECT_FALSE(c.set_window_log(9).has_value());
    EXPECT_FALSE(c.set_window_log(32).has_value());
    EXPECT_TRUE(c.set_window_log(0).has_value());
    EXPECT_EQ(c.memory_usage(), 0u);  // nothing allocated before first use
}

TEST(Compress, ResetRestoresDefaultsAndKeepsBuffers) {
    const auto input = zest::test::corpus_shape("json").generate();
    zest::compressor c;
    expect_roundtrip(c, input, {-3, true, false});
    ASSERT_TRUE(c.set_window_log(12).has_value());
    const std::size_t held = c.memory_usage();
    EXPECT_GT(held, 0u);
    c.reset();
    EXPECT_EQ(c.level(), zest::default_level);
    EXPECT_FALSE(c.checksum());
    EXPECT_TRUE(c.content_size());
    EXPECT_EQ(c.window_log(), 0u);
    EXPECT_EQ(c.memory_usage(), held);
    // After a reset the frame is the one-shot call's (same defaults).
    const auto a = c.compress(std::span<const std::byte>(input));
    const auto b = zest::compress(std::span<const std::byte>(input));
    EXPECT_EQ(a, b);
}

// A context keeps its match tables between frames without clearing them;
// what an earlier frame left there must never reach into the next one. Each
// frame of a context that has already compressed other (and identical)
// inputs, from other buffers, is the frame a fresh context writes.
TEST(Compress, AContextsFramesDoNotDependOnItsHistory) {
    const auto text = zest::test::corpus_shape("text").generate();
    const auto json = zest::test::corpus_shape("json").generate();
    std::vector<std::vector<std::byte>> inputs;
    for (const std::size_t n : {std::size_t(4096), std::size_t(300), std::size_t(4096), std::size_t(70000)}) {
        inputs.emplace_back(text.begin(), text.begin() + std::ptrdiff_t(std::min(n, text.size())));
        inputs.emplace_back(json.begin(), json.begin() + std::ptrdiff_t(std::min(n, json.size())));
        inputs.push_back(inputs[inputs.size() - 2]);  // the same bytes again, at another address
    }
    for (const int level : {-3, 1, 3, 4, 5, 7, 12, 13, 15}) {
        zest::compressor used;
        for (std::size_t i = 0; i < inputs.size(); ++i) {
            SCOPED_TRACE("level " + std::to_string(level) + ", frame " + std::to_string(i));
            const auto frame = expect_roundtrip(used, inputs[i], {level, false, true});
            zest::compressor fresh;
            (void)fresh.set_level(level);
            EXPECT_EQ(frame, fresh.compress(std::span<const std::byte>(inputs[i])));
            // The one-shot call's thread-local context has a history too.
            EXPECT_EQ(frame, zest::compress(std::span<const std::byte>(inputs[i]), level));
        }
    }
}

TEST(Compress, SmallWindowIsHonoured) {
    const auto input = zest::test::corpus_shape("text").generate();
    zest::compressor c;
    ASSERT_TRUE(c.set_window_log(10).has_value());
    const auto frame = expect_roundtrip(c, input, {3, true, true});
    ZSTD_frameHeader h;
    ASSERT_EQ(ZSTD_getFrameHeader(&h, frame.data(), frame.size()), 0u);
    EXPECT_LE(h.windowSize, 1024u);
}

}  // namespace

namespace {

// The conformance corpus's large input (over 32 MiB: hundreds of blocks, a
// window smaller than the input) at a few levels.
class BigInput : public ::testing::TestWithParam<int> {};

TEST_P(BigInput, LibzstdAndZestDecodeIt) {
#ifdef ZEST_SANITIZED
    // The optimal parser walks tables of tens of MiB here: 40 times slower
    // under the sanitizers (7 minutes at level 16). The Release build runs it.
    if (GetParam() >= 16) GTEST_SKIP() << "run by the Release build";
#endif
    static const auto input = zest::test::big_mixed(40u << 20, 77);
    ASSERT_GE(input.size(), 32u << 20);
    zest::compressor c;
    const auto frame = expect_roundtrip(c, input, {GetParam(), true, true});
    EXPECT_LT(frame.size(), input.size() / 2);  // the input repeats itself: it must compress
}

INSTANTIATE_TEST_SUITE_P(Levels, BigInput, ::testing::Values(-1, 1, 3, 4, 5, 9, 16, 19),
                         [](const auto& info) { return level_name(info.param); });

}  // namespace
