// Frames zest writes with a dictionary: libzstd (the oracle) and zest decode
// them with the same dictionary, for every corpus shape at levels -5 to 19,
// raw-content dictionaries, frames without the ID, many blocks; and the
// ratio stays close to libzstd's with the same dictionary.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <random>
#include <thread>

#define ZSTD_STATIC_LINKING_ONLY
#include <zdict.h>
#include <zstd.h>

#include "dict_support.hpp"
#include "zest/zest.hpp"

namespace zest::test {
namespace {

struct shape_set {
    bytes dict;
    zest::dictionary prepared;
    std::vector<bytes> held_out;
};

const shape_set& set_of(const std::string& shape) {
    static std::map<std::string, shape_set> cache;
    auto it = cache.find(shape);
    if (it != cache.end()) return it->second;
    shape_set s;
    s.dict = libzstd_train(messages(shape, 400, 200, 2000, 41), 16 * 1024);
    s.prepared = *zest::dictionary::load(s.dict);
    s.held_out = messages(shape, 24, 1, 6000, 42);
    return cache.emplace(shape, std::move(s)).first->second;
}

bytes zest_compress(zest::compressor& c, const bytes& msg, const zest::dictionary& d) {
    bytes out(zest::compress_bound(msg.size()));
    auto n = c.compress(std::span<std::byte>(out), msg, d);
    EXPECT_TRUE(n.has_value()) << (n ? "" : zest::error_message(n.error()));
    out.resize(n ? *n : 0);
    return out;
}

void expect_both_decode(const bytes& frame, const bytes& dict_bytes, const zest::dictionary& d, const bytes& msg,
                        const std::string& what) {
    bool ok = false;
    const bytes lib = libzstd_decompress(frame, dict_bytes, ok);
    ASSERT_TRUE(ok) << what << ": libzstd rejects the frame";
    ASSERT_TRUE(lib == msg) << what << ": libzstd decodes other bytes";
    bytes out(msg.size());
    auto n = zest::decompress(std::span<std::byte>(out), frame, d);
    ASSERT_TRUE(n.has_value()) << what << ": " << zest::error_message(n.error());
    ASSERT_TRUE(*n == msg.size() && out == msg) << what << ": zest decodes other bytes";
}


// As expect_both_decode, for frames that may not declare their size.
void expect_both_decode_unknown_size(const bytes& frame, const bytes& dict_bytes, const zest::dictionary& d,
                                     const bytes& msg, const std::string& what) {
    bytes out(msg.size() + 64);
    ZSTD_DCtx* dctx = ZSTD_createDCtx();
    const std::size_t n = ZSTD_decompress_usingDict(dctx, out.data(), out.size(), frame.data(), frame.size(),
                                                    dict_bytes.data(), dict_bytes.size());
    ZSTD_freeDCtx(dctx);
    ASSERT_FALSE(ZSTD_isError(n)) << what << ": libzstd: " << ZSTD_getErrorName(n);
    ASSERT_TRUE(n == msg.size() && std::memcmp(out.data(), msg.data(), n) == 0) << what << ": libzstd: other bytes";
    auto z = zest::decompress(std::span<std::byte>(out), frame, d);
    ASSERT_TRUE(z.has_value()) << what << ": " << zest::error_message(z.error());
    ASSERT_TRUE(*z == msg.size() && std::memcmp(out.data(), msg.data(), *z) == 0) << what << ": zest: other bytes";
}

class ZestFrames : public ::testing::TestWithParam<std::tuple<std::string, int>> {};

TEST_P(ZestFrames, DecodeWithTheDictionaryAndCompressLikeLibzstd) {
    const auto& [shape, level] = GetParam();
    const shape_set& s = set_of(shape);
    zest::compressor c;
    (void)c.set_level(level);
    std::size_t zest_total = 0, lib_total = 0, plain_total = 0;
    for (std::size_t i = 0; i < s.held_out.size(); ++i) {
        const bytes& msg = s.held_out[i];
        const bytes frame = zest_compress(c, msg, s.prepared);
        ASSERT_EQ(zest::frame_dictionary_id(frame), s.prepared.id());
        expect_both_decode(frame, s.dict, s.prepared, msg, shape + " message " + std::to_string(i));
        zest_total += frame.size();
        lib_total += libzstd_compress(msg, s.dict, level).size();
        plain_total += zest::compress(msg, level).size();
    }
    // The dictionary pays, and zest's frames are about as small as libzstd's.
    EXPECT_LT(zest_total, plain_total) << "the dictionary does not help";
    // (Measured: 0.82-1.10; the fast levels on JSON are the largest.)
    EXPECT_LE(double(zest_total), 1.12 * double(lib_total))
        << "zest " << zest_total << " bytes, libzstd " << lib_total << " bytes";
    RecordProperty("zest_bytes", std::to_string(zest_total));
    RecordProperty("libzstd_bytes", std::to_string(lib_total));
}

std::vector<int> all_levels() {
    std::vector<int> v;
    for (int l = -5; l <= 19; ++l)
        if (l != 0) v.push_back(l);
    return v;
}

INSTANTIATE_TEST_SUITE_P(Shapes, ZestFrames,
                         ::testing::Combine(::testing::Values("json", "text", "code", "records", "mixed"),
                                            ::testing::ValuesIn(all_levels())),
                         [](const auto& info) {
                             const int l = std::get<1>(info.param);
                             return std::get<0>(info.param) + "_level_" + (l < 0 ? "minus" : "") +
                                    std::to_string(l < 0 ? -l : l);
                         });

TEST(DictionaryCompress, ManyBlocks) {
    const shape_set& s = set_of("json");
    const bytes msg = messages("json", 1, 300'000, 300'000, 43)[0];
    for (const int level : {-2, 1, 3, 6, 12, 16, 19, 22}) {
        zest::compressor c;
        (void)c.set_level(level);
        expect_both_decode(zest_compress(c, msg, s.prepared), s.dict, s.prepared, msg,
                           "300 KB at level " + std::to_string(level));
    }
}

TEST(DictionaryCompress, RawContentDictionary) {
    const bytes content = messages("code", 1, 30'000, 30'000, 44)[0];
    const zest::dictionary d = *zest::dictionary::load(content, zest::dictionary_content::raw);
    for (const bytes& msg : messages("code", 10, 1, 8000, 45)) {
        for (const int level : {-1, 1, 3, 9, 19}) {
            zest::compressor c;
            (void)c.set_level(level);
            const bytes frame = zest_compress(c, msg, d);
            EXPECT_EQ(zest::frame_dictionary_id(frame), 0u);
            bool ok = false;
            ZSTD_DCtx* dctx = ZSTD_createDCtx();
            ZSTD_DCtx_loadDictionary_advanced(dctx, content.data(), content.size(), ZSTD_dlm_byRef,
                                              ZSTD_dct_rawContent);
            bytes out(msg.size() + 1);
            const std::size_t n = ZSTD_decompressDCtx(dctx, out.data(), out.size(), frame.data(), frame.size());
            ZSTD_freeDCtx(dctx);
            ok = !ZSTD_isError(n) && n == msg.size() && std::memcmp(out.data(), msg.data(), n) == 0;
            ASSERT_TRUE(ok) << "libzstd, level " << level << ": " << (ZSTD_isError(n) ? ZSTD_getErrorName(n) : "other bytes");
            auto z = zest::decompress(std::span<std::byte>(out), frame, d);
            ASSERT_TRUE(z.has_value() && *z == msg.size() && std::memcmp(out.data(), msg.data(), *z) == 0);
        }
    }
}

TEST(DictionaryCompress, WithoutTheIdInTheHeader) {
    const shape_set& s = set_of("records");
    zest::compressor c;
    (void)c.set_dictionary(s.prepared);
    (void)c.set_dictionary_id_written(false);
    (void)c.set_checksum(true);
    for (const bytes& msg : s.held_out) {
        bytes out(zest::compress_bound(msg.size()));
        auto n = c.compress(std::span<std::byte>(out), msg);
        ASSERT_TRUE(n.has_value());
        out.resize(*n);
        EXPECT_EQ(zest::frame_dictionary_id(out), 0u);
        expect_both_decode(out, s.dict, s.prepared, msg, "no ID");
    }
}

// One context, frames with and without a dictionary in turn: each starts
// from what it should (nothing carried from the previous frame).
TEST(DictionaryCompress, ContextsAlternateWithAndWithout) {
    const shape_set& s = set_of("text");
    for (const int level : {1, 3, 7, 16, 19}) {
        zest::compressor c;
        (void)c.set_level(level);
        for (std::size_t i = 0; i < s.held_out.size(); ++i) {
            const bytes& msg = s.held_out[i];
            if (i % 2) {
                expect_both_decode(zest_compress(c, msg, s.prepared), s.dict, s.prepared, msg, "with");
            } else {
                bytes out(zest::compress_bound(msg.size()));
                auto n = c.compress(std::span<std::byte>(out), msg);
                ASSERT_TRUE(n.has_value());
                out.resize(*n);
                EXPECT_EQ(zest::frame_dictionary_id(out), 0u);
                const auto back = zest::decompress(std::span<const std::byte>(out));
                ASSERT_TRUE(back == msg) << "without, level " << level;
            }
        }
    }
}


// Trained dictionaries carry the default repeat offsets; this one carries
// others, which zest's frames must start from as the decoder does (a
// repeat code means what the dictionary says).
TEST(DictionaryCompress, RepeatOffsetsOfTheDictionary) {
    const bytes& trained = set_of("text").dict;
    const std::size_t header = ZDICT_getDictHeaderSize(trained.data(), trained.size());
    bytes dict = trained;
    const std::uint32_t reps[3] = {37, 200, 5};
    for (int i = 0; i < 3; ++i)
        for (int b = 0; b < 4; ++b)
            dict[header - 12 + 4 * std::size_t(i) + std::size_t(b)] = std::byte((reps[i] >> (8 * b)) & 0xFF);
    const zest::dictionary d = *zest::dictionary::load(dict);
    for (const std::uint32_t off : {5u, 37u, 200u}) {
        const bytes tail(dict.end() - off, dict.end());
        for (const bytes& rest : messages("text", 4, 10, 600, off)) {
            bytes msg = tail;
            append(msg, to_bytes("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa 1234 1234 1234 12345678 12345678 12345678"));
            append(msg, tail);
            append(msg, rest);
            for (const int level : {-1, 1, 3, 5, 9, 16, 19}) {
                zest::compressor c;
                (void)c.set_level(level);
                expect_both_decode(zest_compress(c, msg, d), dict, d, msg,
                                   "match at " + std::to_string(off) + ", level " + std::to_string(level));
            }
        }
    }
}


// zest's streaming compressor with a dictionary: input in pieces with
// flushes, frames of unknown size, small windows; libzstd decodes them.
bytes stream_compress(zest::compress_stream& cs, const bytes& src, std::uint64_t seed, bool pledge) {
    std::mt19937_64 rng(seed);
    if (pledge) {
        EXPECT_TRUE(cs.set_pledged_size(src.size()).has_value());
    }
    bytes out;
    std::vector<std::byte> buf(1 + rng() % 70000);
    std::size_t at = 0;
    for (;;) {
        const std::size_t n = std::min<std::size_t>(src.size() - at, rng() % 30000 + 1);
        const bool last = at + n == src.size();
        zest::in_buffer in{src.data() + at, n, 0};
        for (;;) {
            zest::out_buffer o{buf.data(), buf.size(), 0};
            const auto d = last ? zest::directive::end : (rng() % 4 == 0 ? zest::directive::flush : zest::directive::proceed);
            auto r = cs.compress(o, in, d);
            if (!r) {
                ADD_FAILURE() << zest::error_message(r.error());
                return {};
            }
            out.insert(out.end(), buf.begin(), buf.begin() + std::ptrdiff_t(o.pos));
            if (in.pos == in.size && (*r == 0 || !last) && (d != zest::directive::flush || *r == 0)) break;
        }
        at += n;
        if (last) break;
    }
    return out;
}

TEST(DictionaryCompress, Streaming) {
    const shape_set& s = set_of("json");
    const bytes big = messages("json", 1, 500'000, 500'000, 46)[0];
    for (const int level : {-3, 1, 3, 5, 9, 16, 19}) {
        for (const unsigned wlog : {0u, 10u, 14u}) {
            zest::compress_stream cs;
            ASSERT_TRUE(cs.set_level(level).has_value());
            if (wlog) {
                ASSERT_TRUE(cs.set_window_log(wlog).has_value());
            }
            ASSERT_TRUE(cs.set_checksum(true).has_value());
            ASSERT_TRUE(cs.set_dictionary(s.prepared).has_value());
            for (int round = 0; round < 2; ++round) {
                const std::string what = "level " + std::to_string(level) + " window " + std::to_string(wlog);
                const bytes frame = stream_compress(cs, big, std::uint64_t(level * 7 + round), round == 1);
                ASSERT_EQ(zest::frame_dictionary_id(frame), s.prepared.id()) << what;
                expect_both_decode_unknown_size(frame, s.dict, s.prepared, big, what);
                for (std::size_t i = 0; i < 6; ++i) {
                    const bytes f = stream_compress(cs, s.held_out[i], i, round == 1);
                    expect_both_decode_unknown_size(f, s.dict, s.prepared, s.held_out[i], what + " message");
                }
            }
        }
    }
    // The dictionary pays in streams as in one-shot frames: small messages
    // come out as small as compressor::compress makes them with it.
    {
        zest::compress_stream with, without;
        ASSERT_TRUE(with.set_dictionary(s.prepared).has_value());
        zest::compressor c;
        std::size_t streamed = 0, plain = 0, one_shot = 0;
        for (std::size_t i = 0; i < s.held_out.size(); ++i) {
            streamed += stream_compress(with, s.held_out[i], 100 + i, true).size();
            plain += stream_compress(without, s.held_out[i], 100 + i, true).size();
            one_shot += zest_compress(c, s.held_out[i], s.prepared).size();
        }
        EXPECT_LT(double(streamed), 0.8 * double(plain));
        EXPECT_LE(double(streamed), 1.02 * double(one_shot)) << streamed << " against " << one_shot;
    }
    // Not mid-frame.
    zest::compress_stream cs;
    ASSERT_TRUE(cs.set_dictionary(s.prepared).has_value());
    std::vector<std::byte> buf(100);
    zest::in_buffer in{big.data(), 1000, 0};
    zest::out_buffer o{buf.data(), buf.size(), 0};
    ASSERT_TRUE(cs.compress(o, in).has_value());
    EXPECT_FALSE(cs.set_dictionary(zest::dictionary()).has_value());
}

}  // namespace
}  // namespace zest::test

namespace zest::test {
namespace {

bytes random_bytes(std::size_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    bytes b(n);
    for (auto& x : b) x = std::byte(rng() & 0xFF);
    return b;
}

bytes concat(std::initializer_list<std::span<const std::byte>> parts) {
    bytes out;
    for (auto p : parts) out.insert(out.end(), p.begin(), p.end());
    return out;
}

// Small messages at the fast strategies search the dictionary's own tables
// (prepared once) rather than its content going through the finder. A
// match found there may run past the dictionary's end into the message's
// first bytes, which the decoder sees right after it; repeat offsets may
// reach into the dictionary too.
TEST(DictionaryCompress, MatchesRunFromTheDictionaryIntoTheMessage) {
    const bytes head = random_bytes(8000, 50), tail = random_bytes(48, 51);
    const bytes content = concat({head, tail});
    const bytes lead = random_bytes(40, 52), fresh = random_bytes(200, 53), more = random_bytes(100, 54);
    // `tail` ends the dictionary and `lead` starts the message: "tail lead"
    // later in the message matches from the dictionary across its end.
    const bytes msg = concat({lead, fresh, tail, lead, more, std::span<const std::byte>(head).subspan(1000, 300),
                              std::span<const std::byte>(head).subspan(1000, 300)});
    const zest::dictionary d = *zest::dictionary::load(content, zest::dictionary_content::raw);
    for (const int level : {-5, -1, 1, 2, 3, 4}) {
        for (const bool fresh_context : {true, false}) {
            static zest::compressor reused;
            zest::compressor once;
            zest::compressor& c = fresh_context ? once : reused;
            (void)c.set_level(level);
            const bytes frame = zest_compress(c, msg, d);
            const std::string what = "level " + std::to_string(level);
            expect_both_decode(frame, content, d, msg, what);
            // Only the 340 random bytes are new: the rest comes from the
            // dictionary (without it the frame would hold over 700 bytes).
            EXPECT_LT(frame.size(), 340u + 60u) << what;
        }
    }
}

// Many parameter sets (levels, table sizes, match lengths) and sizes with
// one dictionary, from several threads at once: each set's tables are made
// once and shared, and frames past the sets kept, or too large to attach,
// or with a window smaller than the dictionary, take the content's way.
TEST(DictionaryCompress, ParameterSetsAndThreadsShareOneDictionary) {
    const shape_set& s = set_of("records");
    const bytes big = messages("records", 1, 100'000, 100'000, 55)[0];
    const zest::dictionary d = *zest::dictionary::load(s.dict);
    const std::size_t before = d.memory_usage();
    std::vector<int> failures(4, 0);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&, t] {
            for (unsigned hash_log = 10; hash_log <= 21; hash_log += 1 + unsigned(t)) {
                for (const unsigned window_log : {0u, 10u}) {
                    for (const int level : {-1, 1, 3}) {
                        zest::compressor c;
                        (void)c.set_level(level);
                        zest::compression_parameters p;
                        p.hash_log = hash_log;
                        p.window_log = window_log;
                        p.min_match = 4 + unsigned(t);
                        if (!c.set_parameters(p)) {
                            ++failures[std::size_t(t)];
                            continue;
                        }
                        for (std::size_t i = 0; i < 4; ++i) {
                            const bytes& msg = i == 3 ? big : s.held_out[i];
                            bytes frame(zest::compress_bound(msg.size()));
                            auto n = c.compress(std::span<std::byte>(frame), msg, d);
                            if (!n) {
                                ++failures[std::size_t(t)];
                                continue;
                            }
                            frame.resize(*n);
                            bool ok = false;
                            if (libzstd_decompress(frame, s.dict, ok) != msg || !ok) ++failures[std::size_t(t)];
                        }
                    }
                }
            }
        });
    }
    for (auto& th : threads) th.join();
    for (int t = 0; t < 4; ++t) EXPECT_EQ(failures[std::size_t(t)], 0) << "thread " << t;
    // The prepared tables count in the dictionary's memory: at most 8 sets,
    // of up to 2^20 entries per table.
    EXPECT_GT(d.memory_usage(), before + (std::size_t(1) << 12));
    EXPECT_LT(d.memory_usage(), before + 8 * (std::size_t(8) << 20));
}

}  // namespace
}  // namespace zest::test
