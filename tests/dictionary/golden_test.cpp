// The reference's golden dictionary `http-dict-missing-symbols` (from its
// tests/golden-dictionaries, with the input tests/golden-compression/http it
// is used on there; see golden/README.md): its literals table is 12 bits
// deep, which the format's text forbids and libzstd accepts, and codes only
// some byte values. zest loads it as libzstd does, decodes the
// frames libzstd writes with it (one stored, others made here), and writes
// frames with it that libzstd reads, reusing its 12-bit table where the
// literals allow.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

#include "common/format.hpp"
#include "dict_support.hpp"
#include "dictionary/dictionary_data.hpp"
#include "stream_driver.hpp"
#include "zest/zest.hpp"

namespace zest::test {
namespace {

bytes golden(const std::string& name) {
    std::ifstream f(std::string(ZEST_GOLDEN_DIR) + "/" + name, std::ios::binary);
    EXPECT_TRUE(f.good()) << name;
    const std::string s((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    return to_bytes(s);
}

const bytes& dict_bytes() {
    static const bytes d = golden("http-dict-missing-symbols");
    return d;
}
const bytes& http() {
    static const bytes h = golden("http");
    return h;
}

const zest::dictionary& dict() {
    static const zest::dictionary d = [] {
        auto r = zest::dictionary::load(dict_bytes());
        EXPECT_TRUE(r.has_value()) << zest::error_message(r.error());
        return r ? *r : zest::dictionary();
    }();
    return d;
}

// Messages of `n` bytes from the symbols the dictionary's literals table
// codes, shaped like its content, so that a frame can reuse that table.
bytes covered_message(std::size_t n, std::uint64_t seed) {
    const detail::dictionary_data& d = *dict().data();
    std::vector<std::byte> alphabet;
    for (std::size_t i = 0; i < d.content_size; ++i) {
        const std::uint8_t c = d.content[i];
        if (d.lit_ctable.bits[c] != 0) alphabet.push_back(std::byte(c));
    }
    std::mt19937_64 rng(seed);
    bytes out;
    while (out.size() < n) {
        // Pieces of the content, and runs of its coded symbols in between.
        const std::size_t at = rng() % d.content_size, len = 4 + rng() % 40;
        for (std::size_t i = at; i < d.content_size && i < at + len && out.size() < n; ++i)
            if (d.lit_ctable.bits[d.content[i]] != 0) out.push_back(std::byte(d.content[i]));
        for (std::size_t i = 0, k = rng() % 24; i < k && out.size() < n; ++i)
            out.push_back(alphabet[rng() % alphabet.size()]);
    }
    return out;
}

void expect_zest_reads(const bytes& frame, const bytes& want, const std::string& what) {
    bytes out(want.size() + 16);
    const auto n = zest::decompress(std::span<std::byte>(out), frame, dict());
    ASSERT_TRUE(n.has_value()) << what << ": " << zest::error_message(n.error());
    out.resize(*n);
    EXPECT_TRUE(out == want) << what;
    zest::decompress_stream ds;
    ASSERT_TRUE(ds.set_dictionary(dict()).has_value());
    const auto r = streaming::stream_decode(
        ds, frame, [](std::size_t c) { return 1 + c % 23; }, [](std::size_t c) { return 1 + c % 37; });
    ASSERT_EQ(r.error, zest::errc{}) << what << ", streamed: " << zest::error_message(r.error);
    EXPECT_TRUE(r.out == want) << what << ", streamed";
}

TEST(GoldenDictionary, LoadsAsLibzstdLoadsIt) {
    ASSERT_EQ(dict_bytes().size(), 1000u);
    ASSERT_FALSE(dict().empty());
    EXPECT_TRUE(dict().has_entropy_tables());
    EXPECT_EQ(dict().id(), ZSTD_getDictID_fromDict(dict_bytes().data(), dict_bytes().size()));
    ZSTD_DDict* dd = ZSTD_createDDict(dict_bytes().data(), dict_bytes().size());
    EXPECT_NE(dd, nullptr);
    ZSTD_freeDDict(dd);
    // What makes it golden: a literals table 12 bits deep, for both halves.
    const detail::dictionary_data& d = *dict().data();
    EXPECT_EQ(d.lit_table.max_bits, 12u);
    EXPECT_EQ(d.lit_ctable.max_bits, 12u);
    EXPECT_FALSE(d.lit_table_pairs.pairs_ready);  // pair tables are for up to 11 bits
    // ...which leaves some byte values out (242 of 256 coded): a block
    // holding one of them needs a table of its own.
    unsigned coded = 0;
    for (unsigned c = 0; c < 256; ++c) coded += d.lit_ctable.bits[c] != 0;
    EXPECT_LT(coded, 256u);
    RecordProperty("coded_symbols", std::to_string(coded));
}

TEST(GoldenDictionary, FrameOfTheReference) {
    // Written by `zstd -3 -D http-dict-missing-symbols http` (1.5.4).
    const bytes frame = golden("http.zstd-1.5.4.zst");
    ASSERT_EQ(zest::frame_dictionary_id(frame), dict().id());
    expect_zest_reads(frame, http(), "the stored frame");
}

TEST(GoldenDictionary, FramesLibzstdWrites) {
    for (const int level : {-5, -1, 1, 3, 6, 12, 19}) {
        for (const bytes& msg : {http(), covered_message(3000, 1), covered_message(200'000, 2)}) {
            const std::string what = std::to_string(msg.size()) + " bytes at level " + std::to_string(level);
            expect_zest_reads(libzstd_compress(msg, dict_bytes(), level), msg, what);
        }
    }
}

// The first block's literals section type (3: treeless, the previous table,
// here the dictionary's).
unsigned first_literals_type(const bytes& frame) {
    const auto* p = reinterpret_cast<const std::uint8_t*>(frame.data());
    const std::size_t h = detail::frame_header_size(p, frame.size());
    if (h == 0 || h + 4 > frame.size()) return 99;
    if (((p[h] >> 1) & 3) != 2) return 98;  // not a compressed block
    return p[h + 3] & 3;
}

TEST(GoldenDictionary, FramesZestWritesLibzstdReads) {
    bool reused = false;
    for (const int level : {-3, 1, 3, 5, 9, 16, 19}) {
        for (const bytes& msg : {http(), covered_message(300, 3), covered_message(3000, 4),
                                 covered_message(200'000, 5)}) {
            const std::string what = std::to_string(msg.size()) + " bytes at level " + std::to_string(level);
            zest::compressor c;
            (void)c.set_level(level);
            bytes frame(zest::compress_bound(msg.size()));
            const auto n = c.compress(std::span<std::byte>(frame), msg, dict());
            ASSERT_TRUE(n.has_value()) << what << ": " << zest::error_message(n.error());
            frame.resize(*n);
            reused |= first_literals_type(frame) == 3;
            bool ok = false;
            const bytes back = libzstd_decompress(frame, dict_bytes(), ok);
            ASSERT_TRUE(ok) << what << ": libzstd rejects zest's frame";
            EXPECT_TRUE(back == msg) << what << ": libzstd decodes other bytes";
            expect_zest_reads(frame, msg, what);
            // The streaming compressor too.
            zest::compress_stream cs;
            ASSERT_TRUE(cs.set_level(level).has_value());
            ASSERT_TRUE(cs.set_dictionary(dict()).has_value());
            bytes sframe(zest::compress_bound(msg.size()) + 64);
            zest::in_buffer in{msg.data(), msg.size(), 0};
            zest::out_buffer o{sframe.data(), sframe.size(), 0};
            const auto left = cs.compress(o, in, zest::directive::end);
            ASSERT_TRUE(left.has_value() && *left == 0) << what << ", streamed";
            sframe.resize(o.pos);
            const bytes sback = libzstd_decompress(sframe, dict_bytes(), ok);
            ASSERT_TRUE(ok) << what << ", streamed: libzstd rejects zest's frame";
            EXPECT_TRUE(sback == msg) << what << ", streamed";
        }
    }
    // Somewhere the dictionary's 12-bit table served a block as it was.
    EXPECT_TRUE(reused);
}

}  // namespace
}  // namespace zest::test
