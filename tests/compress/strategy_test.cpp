// Every strategy forced, at the sizes where block and table edges fall (0,
// 1 and 100 bytes, 4 KiB, 64 KiB, around the 128 KiB block, 1 MiB) on the
// corpus shapes, one-shot and streamed with flushes in the middle of
// blocks; and a 40 MiB input through a 4 MiB window. libzstd and zest must
// both decode every frame to the original.
#include <cstring>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "corpus.hpp"
#include "roundtrip_check.hpp"

namespace {

using zest::strategy;
using zest::test::expect_roundtrip;
using bytes = std::vector<std::byte>;

const strategy strategies[] = {strategy::fast,  strategy::dfast,   strategy::greedy,
                               strategy::lazy,  strategy::lazy2,   strategy::btlazy2,
                               strategy::btopt, strategy::btultra, strategy::btultra2};

const std::size_t sizes[] = {0, 1, 100, 4096, 65536, (128u << 10) - 1, 128u << 10, (128u << 10) + 1, 1u << 20};

std::string strategy_name(strategy s) {
    static const char* const names[] = {"?",    "fast",  "dfast", "greedy", "lazy",
                                        "lazy2", "btlazy2", "btopt", "btultra", "btultra2"};
    return names[unsigned(s)];
}

bytes cut(const bytes& whole, std::size_t n) {
    bytes in;
    while (in.size() < n) in.insert(in.end(), whole.begin(), whole.begin() + std::ptrdiff_t(std::min(whole.size(), n - in.size())));
    return in;
}

// Streams `input` through a compress_stream in pieces of `piece` bytes,
// flushing after every `flush_every`-th piece, and returns the frame.
bytes stream_frame(zest::compress_stream& s, const bytes& input, std::size_t piece, std::size_t flush_every) {
    bytes out;
    std::vector<std::byte> buf(1000);
    std::size_t pos = 0, count = 0;
    for (;;) {
        const std::size_t n = std::min(piece, input.size() - pos);
        const bool last = pos + n == input.size();
        ++count;
        const auto d = last ? zest::directive::end
                            : (flush_every && count % flush_every == 0 ? zest::directive::flush : zest::directive::proceed);
        zest::in_buffer in{input.data() + pos, n, 0};
        for (;;) {
            zest::out_buffer o{buf.data(), buf.size(), 0};
            const auto r = s.compress(o, in, d);
            EXPECT_TRUE(r.has_value()) << (r ? "" : r.message());
            if (!r) return out;
            out.insert(out.end(), buf.begin(), buf.begin() + std::ptrdiff_t(o.pos));
            if (in.pos == in.size && *r == 0) break;
        }
        pos += n;
        if (last) break;
    }
    return out;
}

void expect_decodes(const bytes& frame, const bytes& input) {
    std::vector<std::byte> ref(input.size() + 1);
    const std::size_t n = ZSTD_decompress(ref.data(), ref.size(), frame.data(), frame.size());
    ASSERT_FALSE(ZSTD_isError(n)) << "libzstd: " << ZSTD_getErrorName(n);
    ASSERT_EQ(n, input.size());
    EXPECT_TRUE(input.empty() || std::memcmp(ref.data(), input.data(), n) == 0) << "libzstd decoded other bytes";
    std::vector<std::byte> mine(input.size() + 1);
    const auto z = zest::decompress(mine, frame);
    ASSERT_TRUE(z.has_value()) << z.message();
    ASSERT_EQ(*z, input.size());
    EXPECT_TRUE(input.empty() || std::memcmp(mine.data(), input.data(), n) == 0) << "zest decoded other bytes";
}

class ForcedStrategy : public ::testing::TestWithParam<std::tuple<std::string, strategy>> {};

TEST_P(ForcedStrategy, OneShotAndStreamedFramesDecode) {
    const auto& [shape, s] = GetParam();
    const bytes whole = zest::test::corpus_shape(shape).generate();
    for (const int level : {5, 15}) {
        zest::compressor c;
        ASSERT_TRUE(c.set_strategy(s));
        zest::compress_stream st;
        ASSERT_TRUE(st.set_level(level));
        ASSERT_TRUE(st.set_strategy(s));
        for (const std::size_t n : sizes) {
            if (whole.empty() && n > 0) break;
            const bytes in = cut(whole, n);
            SCOPED_TRACE("level " + std::to_string(level) + ", size " + std::to_string(n));
            expect_roundtrip(c, in, {level, n % 2 == 0, true});
            if (n != 65536 && n != (128u << 10) + 1) continue;
            // Pieces that end blocks in odd places, flushed every few.
            expect_decodes(stream_frame(st, in, 7001, 3), in);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Corpus, ForcedStrategy,
                         ::testing::Combine(::testing::Values("text", "json", "records", "int32", "mixed", "zeros",
                                                              "random", "small_text", "empty"),
                                            ::testing::ValuesIn(strategies)),
                         [](const auto& info) {
                             return std::get<0>(info.param) + "_" + strategy_name(std::get<1>(info.param));
                         });

// Search, chain and hash sizes at their edges, and every minimum match: the
// finders' templates for each row size and hashed length.
TEST(ForcedParameters, EdgesOfTheSearchParameters) {
    const bytes text = zest::test::corpus_shape("text").generate();
    const bytes in = cut(text, 300000);
    for (const strategy s : {strategy::greedy, strategy::lazy, strategy::lazy2, strategy::btlazy2}) {
        for (const unsigned wlog : {14u, 18u}) {
            for (const unsigned slog : {1u, 4u, 5u, 6u, 9u}) {
                for (const unsigned mml : {3u, 4u, 5u, 6u, 7u}) {
                    zest::compressor c;
                    ASSERT_TRUE(c.set_strategy(s));
                    ASSERT_TRUE(c.set_window_log(wlog));
                    ASSERT_TRUE(c.set_search_log(slog));
                    ASSERT_TRUE(c.set_min_match(mml));
                    ASSERT_TRUE(c.set_hash_log(slog + 8));
                    ASSERT_TRUE(c.set_chain_log(wlog - 2));
                    SCOPED_TRACE(strategy_name(s) + " wlog " + std::to_string(wlog) + " slog " + std::to_string(slog) +
                                 " mml " + std::to_string(mml));
                    const bytes frame = expect_roundtrip(c, in, {5, false, true});
                    EXPECT_LT(frame.size(), in.size() / 2);
                }
            }
        }
    }
}

// 40 MiB through a 4 MiB window: hundreds of blocks, positions far past the
// window, one-shot and streamed.
class BigWindowed : public ::testing::TestWithParam<strategy> {};

TEST_P(BigWindowed, LibzstdAndZestDecodeIt) {
    static const bytes input = zest::test::big_mixed(40u << 20, 91);
    zest::compressor c;
    ASSERT_TRUE(c.set_strategy(GetParam()));
    ASSERT_TRUE(c.set_window_log(22));
    const bytes frame = expect_roundtrip(c, input, {6, true, true});
    EXPECT_LT(frame.size(), input.size() / 2);
    zest::compress_stream s;
    ASSERT_TRUE(s.set_level(6));
    ASSERT_TRUE(s.set_strategy(GetParam()));
    ASSERT_TRUE(s.set_window_log(22));
    expect_decodes(stream_frame(s, input, 1u << 20, 5), input);
}

INSTANTIATE_TEST_SUITE_P(Strategies, BigWindowed,
                         ::testing::Values(strategy::greedy, strategy::lazy2, strategy::btlazy2),
                         [](const auto& info) { return strategy_name(info.param); });

// A stream keeps only the window's worth of bytes before the block it
// compresses. btlazy2 sorts positions of earlier blocks into its tree late,
// comparing them with candidates a window before *them*: those older than
// the block's window are gone (sanitizer builds caught reads before the
// buffer). Small window, deep trees, many folds of the stream's buffer.
TEST(StreamedWindow, TreeSortingStaysInsideTheKeptHistory) {
    static const bytes input = zest::test::big_mixed(6u << 20, 17);
    for (const unsigned wlog : {10u, 17u, 20u}) {
        SCOPED_TRACE(wlog);
        zest::compress_stream s;
        ASSERT_TRUE(s.set_level(19));
        ASSERT_TRUE(s.set_strategy(strategy::btlazy2));
        ASSERT_TRUE(s.set_window_log(wlog));
        ASSERT_TRUE(s.set_chain_log(std::min(wlog + 1, 24u)));
        ASSERT_TRUE(s.set_search_log(9));
        expect_decodes(stream_frame(s, input, 48u << 10, 3), input);
    }
}

}  // namespace

namespace {

// A literal run or a match of 2^16 bytes or more (at most one per block:
// the sequence store keeps 16 bits of each length and notes the one that
// needs more), at every strategy.
TEST(LongLengths, LiteralRunAndMatchPast64KiB) {
    std::mt19937 rng(5);
    bytes long_literals(70000 + 50000);
    for (std::size_t i = 0; i < 70000; ++i) long_literals[i] = std::byte(rng());
    for (std::size_t i = 70000; i < long_literals.size(); ++i) long_literals[i] = long_literals[i - 70000];
    bytes long_match(20 + 100000 + 3000);
    for (std::size_t i = 0; i < 20; ++i) long_match[i] = std::byte(rng());
    for (std::size_t i = 100020; i < long_match.size(); ++i) long_match[i] = std::byte(rng());
    bytes both(70000 + 90000);  // two blocks: a long literal run, then a long match
    for (std::size_t i = 0; i < 70000; ++i) both[i] = std::byte(rng());
    for (const int level : {-5, 1, 2, 3, 4, 5, 6, 7, 9, 12, 13, 15, 19}) {
        SCOPED_TRACE(level);
        zest::compressor c;
        for (const bytes* in : {&long_literals, &long_match, &both}) {
            const bytes frame = expect_roundtrip(c, *in, {level, true, true});
            EXPECT_LT(frame.size(), in->size() * 2 / 3);
        }
    }
}

}  // namespace
