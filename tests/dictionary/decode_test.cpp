// Frames libzstd writes with a dictionary, decoded by zest: every corpus
// shape at levels -5 to 19, formatted and raw-content dictionaries, frames
// with and without the ID, many blocks, many frames, shared dictionaries,
// and the errors for a wrong or missing dictionary.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <thread>

#include "common/huffman.hpp"
#include "dict_support.hpp"
#include "zest/zest.hpp"

#include <zdict.h>
#include <zstd.h>

namespace zest::test {
namespace {

const std::vector<std::string> shapes = {"json", "text", "code", "records", "mixed"};

// Training samples and held-out messages per shape, and the dictionary
// libzstd trains on the samples (built once per shape).
struct shape_set {
    std::vector<bytes> held_out;
    bytes dict;
};

const shape_set& set_of(const std::string& shape) {
    static std::map<std::string, shape_set> cache;
    auto it = cache.find(shape);
    if (it != cache.end()) return it->second;
    shape_set s;
    s.dict = libzstd_train(messages(shape, 400, 200, 2000, 11), 16 * 1024);
    s.held_out = messages(shape, 24, 1, 6000, 12);
    return cache.emplace(shape, std::move(s)).first->second;
}

zest::dictionary load(std::span<const std::byte> bytes,
                      zest::dictionary_content c = zest::dictionary_content::automatic) {
    auto d = zest::dictionary::load(bytes, c);
    EXPECT_TRUE(d.has_value()) << (d ? "" : zest::error_message(d.error()));
    return d ? *d : zest::dictionary();
}

// Decodes with a context holding the dictionary and with the one-shot call,
// and checks both give `want`.
void expect_decodes(const bytes& frame, const zest::dictionary& dict, const bytes& want, const std::string& what) {
    bytes out(want.size() + 1);
    zest::decompressor d;
    d.set_dictionary(dict);
    auto n = d.decompress(std::span<std::byte>(out), frame);
    ASSERT_TRUE(n.has_value()) << what << ": " << zest::error_message(n.error());
    ASSERT_EQ(*n, want.size()) << what;
    ASSERT_TRUE(std::memcmp(out.data(), want.data(), want.size()) == 0) << what << ": other bytes";
    std::fill(out.begin(), out.end(), std::byte{0});
    auto m = zest::decompress(std::span<std::byte>(out), frame, dict);
    ASSERT_TRUE(m.has_value()) << what << " (one-shot): " << zest::error_message(m.error());
    ASSERT_EQ(*m, want.size()) << what;
    ASSERT_TRUE(std::memcmp(out.data(), want.data(), want.size()) == 0) << what << " (one-shot): other bytes";
}

class LibzstdFrames : public ::testing::TestWithParam<std::tuple<std::string, int>> {};

TEST_P(LibzstdFrames, DecodeWithTheTrainedDictionary) {
    const auto& [shape, level] = GetParam();
    const shape_set& s = set_of(shape);
    ASSERT_FALSE(s.dict.empty());
    const zest::dictionary dict = load(s.dict);
    ASSERT_TRUE(dict.has_entropy_tables());
    // One context across all messages: each frame must start afresh from
    // the dictionary, whatever the previous frame left in the state.
    zest::decompressor reused;
    reused.set_dictionary(dict);
    for (std::size_t i = 0; i < s.held_out.size(); ++i) {
        const bytes& msg = s.held_out[i];
        const bytes frame = libzstd_compress(msg, s.dict, level);
        ASSERT_EQ(zest::frame_dictionary_id(frame), dict.id());
        expect_decodes(frame, dict, msg, shape + " message " + std::to_string(i));
        bytes out(msg.size());
        auto n = reused.decompress(std::span<std::byte>(out), frame);
        ASSERT_TRUE(n.has_value() && *n == msg.size() && out == msg) << "reused context, message " << i;
    }
}

std::vector<int> all_levels() {
    std::vector<int> v;
    for (int l = -5; l <= 19; ++l)
        if (l != 0) v.push_back(l);
    return v;
}

INSTANTIATE_TEST_SUITE_P(Shapes, LibzstdFrames,
                         ::testing::Combine(::testing::ValuesIn(shapes), ::testing::ValuesIn(all_levels())),
                         [](const auto& info) {
                             const int l = std::get<1>(info.param);
                             return std::get<0>(info.param) + "_level_" + (l < 0 ? "minus" : "") +
                                    std::to_string(l < 0 ? -l : l);
                         });

// A message much larger than a block: later blocks repeat some of the
// dictionary's tables and describe others, and long literal sections use
// its Huffman table (with the pair table).
TEST(DictionaryDecode, ManyBlocksAndLargeLiteralSections) {
    for (const std::string& shape : shapes) {
        const shape_set& s = set_of(shape);
        const zest::dictionary dict = load(s.dict);
        for (const std::size_t size : {std::size_t(40'000), std::size_t(300'000)}) {
            const bytes msg = messages(shape, 1, size, size, 99)[0];
            for (const int level : {-3, 1, 3, 9, 19}) {
                const bytes frame = libzstd_compress(msg, s.dict, level);
                expect_decodes(frame, dict, msg, shape + " " + std::to_string(size) + " level " + std::to_string(level));
            }
        }
    }
}

TEST(DictionaryDecode, FrameWithoutItsDictionaryId) {
    const shape_set& s = set_of("json");
    const zest::dictionary dict = load(s.dict);
    for (const bytes& msg : s.held_out) {
        const bytes frame = libzstd_compress(msg, s.dict, 3, /*dict_id_flag=*/false);
        ASSERT_EQ(zest::frame_dictionary_id(frame), 0u);
        expect_decodes(frame, dict, msg, "frame without an ID");
    }
}

TEST(DictionaryDecode, RawContentDictionary) {
    // Raw content: part of a sample, used as history only.
    const bytes content = messages("json", 1, 20'000, 20'000, 5)[0];
    const zest::dictionary dict = load(content, zest::dictionary_content::raw);
    EXPECT_EQ(dict.id(), 0u);
    EXPECT_FALSE(dict.has_entropy_tables());
    EXPECT_EQ(dict.content_size(), content.size());
    for (const bytes& msg : messages("json", 12, 1, 5000, 6)) {
        for (const int level : {-1, 1, 3, 12, 19}) {
            const bytes frame = libzstd_compress(msg, content, level, true, /*raw_content=*/true);
            expect_decodes(frame, dict, msg, "raw content, level " + std::to_string(level));
            // Without the dictionary the frame cannot decode to the message.
            bytes out(msg.size() + 1);
            auto n = zest::decompress(std::span<std::byte>(out), frame);
            if (n.has_value() && msg.size() > 200) {
                EXPECT_FALSE(*n == msg.size() && std::memcmp(out.data(), msg.data(), msg.size()) == 0)
                    << "a frame written with 20 KB of history decoded without it";
            }
        }
    }
}

TEST(DictionaryDecode, ConcatenatedFramesEachStartFromTheDictionary) {
    const shape_set& s = set_of("records");
    const zest::dictionary dict = load(s.dict);
    bytes all, want;
    for (std::size_t i = 0; i < s.held_out.size(); ++i) {
        append(all, libzstd_compress(s.held_out[i], s.dict, int(i % 7) + 1));
        append(want, s.held_out[i]);
    }
    expect_decodes(all, dict, want, "concatenated frames");
    zest::decompressor d;
    d.set_dictionary(dict);
    EXPECT_EQ(d.decompress(all), want);
}

TEST(DictionaryDecode, WrongOrMissingDictionary) {
    const shape_set& a = set_of("json");
    const shape_set& b = set_of("code");
    const zest::dictionary da = load(a.dict), db = load(b.dict);
    ASSERT_NE(da.id(), db.id());
    const bytes frame = libzstd_compress(a.held_out[3], a.dict, 3);
    bytes out(a.held_out[3].size());
    auto r = zest::decompress(std::span<std::byte>(out), frame, db);
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error(), zest::errc::dictionary_wrong);
    r = zest::decompress(std::span<std::byte>(out), frame);
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error(), zest::errc::dictionary_required);
    // A raw-content dictionary has ID 0: not the one the frame names.
    const zest::dictionary raw = load(a.dict, zest::dictionary_content::raw);
    r = zest::decompress(std::span<std::byte>(out), frame, raw);
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error(), zest::errc::dictionary_wrong);
    // An empty dictionary is none.
    r = zest::decompress(std::span<std::byte>(out), frame, zest::dictionary());
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error(), zest::errc::dictionary_required);
    // The vector form throws with the code.
    zest::decompressor d;
    d.set_dictionary(db);
    try {
        (void)d.decompress(std::span<const std::byte>(frame));
        ADD_FAILURE() << "decoded with the wrong dictionary";
    } catch (const std::system_error& e) {
        EXPECT_EQ(e.code(), zest::make_error_code(zest::errc::dictionary_wrong));
    }
}

TEST(DictionaryDecode, FramesWithoutDictionaryStillDecodeInAContextHoldingOne) {
    // Frames compressed without a dictionary but with ID 0 decode the same
    // with a dictionary loaded: its history is never referenced.
    const shape_set& s = set_of("text");
    const zest::dictionary dict = load(s.dict);
    zest::decompressor d;
    d.set_dictionary(dict);
    for (const bytes& msg : s.held_out) {
        bytes frame(zest::compress_bound(msg.size()));
        auto n = zest::compressor().compress(std::span<std::byte>(frame), msg);
        ASSERT_TRUE(n.has_value());
        frame.resize(*n);
        bytes out(msg.size());
        auto m = d.decompress(std::span<std::byte>(out), frame);
        ASSERT_TRUE(m.has_value() && *m == msg.size() && out == msg);
    }
}

TEST(DictionaryDecode, OneDictionarySharedByThreads) {
    const shape_set& s = set_of("mixed");
    const zest::dictionary dict = load(s.dict);
    std::vector<bytes> frames;
    for (const bytes& msg : s.held_out) frames.push_back(libzstd_compress(msg, s.dict, 5));
    std::vector<int> failures(4, 0);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&, t] {
            zest::decompressor d;
            d.set_dictionary(dict);  // copies of one handle: the tables are shared
            for (int round = 0; round < 20; ++round) {
                for (std::size_t i = 0; i < frames.size(); ++i) {
                    bytes out(s.held_out[i].size());
                    auto n = d.decompress(std::span<std::byte>(out), frames[i]);
                    if (!n || *n != out.size() || out != s.held_out[i]) ++failures[std::size_t(t)];
                }
            }
        });
    }
    for (auto& th : threads) th.join();
    for (int t = 0; t < 4; ++t) EXPECT_EQ(failures[std::size_t(t)], 0) << "thread " << t;
}


// A literals section long enough for the pair table, decoded with the
// dictionary's Huffman table (Treeless_Literals_Block right at the frame's
// start). libzstd rarely writes one, so the test makes it: a frame's own
// Huffman tree description becomes the dictionary's, and the block refers
// to it instead of carrying it. libzstd checks the made frame first.
TEST(DictionaryDecode, LongTreelessLiteralsWithTheDictionaryTable) {
    // Literals only: 100 KB over a skewed 24-letter alphabet, no repeats to speak of.
    rng r(3);
    bytes msg(100'000);
    for (auto& b : msg) b = std::byte('a' + std::min(r.below(24), r.below(24)));
    bytes frame(ZSTD_compressBound(msg.size()));
    frame.resize(ZSTD_compress(frame.data(), frame.size(), msg.data(), msg.size(), 1));
    const auto* f = reinterpret_cast<const std::uint8_t*>(frame.data());
    const std::size_t fh = 4 + 1 + 1 + 4;  // magic, descriptor, window byte, 4-byte content size
    ASSERT_EQ(f[4] & 0xC3, 0x80) << "expected a 4-byte content size and no dictionary ID";
    const std::size_t hdr = (f[4] & 0x20) ? fh - 1 : fh;
    const std::uint32_t bh = f[hdr] | (f[hdr + 1] << 8) | (std::uint32_t(f[hdr + 2]) << 16);
    ASSERT_EQ(bh & 7, 5u) << "one last compressed block";
    const std::size_t bsize = bh >> 3;
    const std::uint8_t* lit = f + hdr + 3;
    ASSERT_EQ(lit[0] & 3, 2) << "compressed literals";
    ASSERT_EQ((lit[0] >> 2) & 3, 3) << "18-bit sizes";
    std::uint64_t lh = 0;
    for (int i = 0; i < 5; ++i) lh |= std::uint64_t(lit[i]) << (8 * i);
    const std::uint64_t regen = (lh >> 4) & 0x3FFFF, csize = (lh >> 22) & 0x3FFFF;
    detail::huffman_weights w;
    std::size_t tree = 0;
    ASSERT_EQ(detail::read_huffman_weights(lit + 5, csize, w, tree), detail::ok);

    // The dictionary: a trained one with this tree description instead of its own.
    const bytes& trained = set_of("text").dict;
    const auto* t = reinterpret_cast<const std::uint8_t*>(trained.data());
    std::size_t own_tree = 0;
    ASSERT_EQ(detail::read_huffman_weights(t + 8, trained.size() - 8, w, own_tree), detail::ok);
    bytes dict(trained.begin(), trained.begin() + 8);
    dict.insert(dict.end(), frame.begin() + std::ptrdiff_t(hdr + 3 + 5), frame.begin() + std::ptrdiff_t(hdr + 3 + 5 + tree));
    dict.insert(dict.end(), trained.begin() + std::ptrdiff_t(8 + own_tree), trained.end());

    // The frame: same header, the block without the description, treeless.
    bytes made(frame.begin(), frame.begin() + std::ptrdiff_t(hdr));
    const std::uint32_t nbh = std::uint32_t(((bsize - tree) << 3) | 5);
    for (int i = 0; i < 3; ++i) made.push_back(std::byte((nbh >> (8 * i)) & 0xFF));
    const std::uint64_t nlh = 3 | (3 << 2) | (regen << 4) | ((csize - tree) << 22);
    for (int i = 0; i < 5; ++i) made.push_back(std::byte((nlh >> (8 * i)) & 0xFF));
    made.insert(made.end(), frame.begin() + std::ptrdiff_t(hdr + 3 + 5 + tree), frame.end());

    bool lib_ok = false;
    const bytes lib = libzstd_decompress(made, dict, lib_ok);
    ASSERT_TRUE(lib_ok && lib == msg) << "libzstd does not decode the made frame to the message";
    ASSERT_GE(regen, 16384u);
    expect_decodes(made, load(dict), msg, "treeless literals with the dictionary's table");
}


// Trained dictionaries carry the default repeat offsets (1, 4, 8); these
// carry others, and messages that open with a match at them: each frame
// must start with the dictionary's offsets.
TEST(DictionaryDecode, RepeatOffsetsOfTheDictionary) {
    const bytes& trained = set_of("text").dict;
    const std::size_t header = ZDICT_getDictHeaderSize(trained.data(), trained.size());
    for (const std::uint32_t reps : {0u, 1u, 2u}) {
        const std::uint32_t offsets[3][3] = {{37, 200, 5}, {5, 37, 200}, {200, 5, 37}};
        bytes dict = trained;
        for (int i = 0; i < 3; ++i)
            for (int b = 0; b < 4; ++b)
                dict[header - 12 + 4 * std::size_t(i) + std::size_t(b)] =
                    std::byte((offsets[reps][i] >> (8 * b)) & 0xFF);
        const zest::dictionary d = load(dict);
        ASSERT_TRUE(d.has_entropy_tables());
        for (const std::uint32_t off : {5u, 37u, 200u}) {
            // The message opens with the dictionary's last `off` bytes, twice.
            const bytes tail(dict.end() - off, dict.end());
            for (const bytes& rest : messages("text", 3, 10, 400, off)) {
                bytes msg = tail;
                append(msg, tail);
                append(msg, rest);
                for (const int level : {1, 3, 7, 19}) {
                    const bytes frame = libzstd_compress(msg, dict, level);
                    bool lib_ok = false;
                    ASSERT_TRUE(libzstd_decompress(frame, dict, lib_ok) == msg && lib_ok);
                    expect_decodes(frame, d, msg, "offsets set " + std::to_string(reps) + ", match at " +
                                                      std::to_string(off) + ", level " + std::to_string(level));
                }
            }
        }
    }
}

}  // namespace
}  // namespace zest::test
