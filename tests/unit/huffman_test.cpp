// Huffman tree descriptions, decoding tables and the 1- and 4-stream
// decoders of every kernel set (RFC 8878 "Huffman Coding").
#include <gtest/gtest.h>
#include <zstd.h>

#include <array>
#include <memory>
#include <set>

#include "common/huffman.hpp"
#include "decompress/literals.hpp"
#include "test_util.hpp"
#include "zest/zest.hpp"

namespace {

using zest::errc;
using zest::detail::build_huffman_table;
using zest::detail::huffman_table;
using zest::detail::huffman_weights;
using zest::detail::read_huffman_weights;
using zest_test::bytes;

struct code {
    std::uint32_t value;
    unsigned length;  // 0: the literal has no code
};

// Stream of Huffman codes, first literal read first.
bytes encode_stream(const bytes& lits, const std::vector<code>& codes) {
    zest_test::backward_stream bs;
    for (std::uint8_t c : lits) {
        if (codes.at(c).length == 0) throw std::logic_error("literal without a code");
        bs.add(codes[c].value, codes[c].length);
    }
    return bs.finish();
}

// Four streams with their jump table, segments as RFC 8878 "Jump Table" says.
bytes encode_4_streams(const bytes& lits, const std::vector<code>& codes, std::array<bytes, 4>* parts = nullptr) {
    const std::size_t n = lits.size(), seg = (n + 3) / 4;
    std::array<bytes, 4> s;
    for (std::size_t i = 0; i < 4; ++i) {
        const std::size_t b = std::min(n, i * seg), e = i == 3 ? n : std::min(n, (i + 1) * seg);
        s[i] = encode_stream(bytes(lits.begin() + std::ptrdiff_t(b), lits.begin() + std::ptrdiff_t(e)), codes);
    }
    bytes out;
    for (std::size_t i = 0; i < 3; ++i) zest_test::put_le(out, s[i].size(), 2);
    for (const auto& x : s) out.insert(out.end(), x.begin(), x.end());
    if (parts) *parts = s;
    return out;
}

// The RFC's example tree: weights 4, 3, 2, 0, 1 (literal 5 implied, weight 1),
// codes 1, 01, 001, -, 0000, 0001 for literals 0..5.
const bytes rfc_tree = {0x84, 0x43, 0x20, 0x10};
const std::vector<code> rfc_codes = {{1, 1}, {1, 2}, {1, 3}, {0, 0}, {0, 4}, {1, 4}};

// Literals over {0, 1, 2, 4, 5}, skewed like the weights.
bytes rfc_literals(std::size_t n, std::uint32_t seed) {
    static constexpr std::uint8_t pick[16] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 4, 5};
    bytes b = zest_test::pseudo_random_bytes(n, seed, 16);
    for (auto& c : b) c = pick[c];
    return b;
}

// Max_Number_of_Bits 11: literal i (0..9) has weight 11 - i and code
// 0...01 on i + 1 bits; literals 10 and 11 (implied) have weight 1 and the
// 11-bit codes 0 and 1.
const bytes deep_tree = {0x8A, 0xBA, 0x98, 0x76, 0x54, 0x32, 0x10};
std::vector<code> deep_codes() {
    std::vector<code> c;
    for (unsigned i = 0; i < 10; ++i) c.push_back({1, i + 1});
    c.push_back({0, 11});
    c.push_back({1, 11});
    return c;
}

// Max_Number_of_Bits 12, which the format's text forbids and libzstd
// (HUF_TABLELOG_MAX) and zest accept: literal i (0..10) has weight 12 - i
// and code 0...01 on i + 1 bits; literals 11 and 12 (implied) the 12-bit
// codes 0 and 1.
const bytes twelve_tree = {0x8B, 0xCB, 0xA9, 0x87, 0x65, 0x43, 0x21};
std::vector<code> twelve_codes() {
    std::vector<code> c;
    for (unsigned i = 0; i < 11; ++i) c.push_back({1, i + 1});
    c.push_back({0, 12});
    c.push_back({1, 12});
    return c;
}

huffman_table table_from(const bytes& tree) {
    huffman_weights w;
    std::size_t used = 0;
    EXPECT_EQ(read_huffman_weights(tree.data(), tree.size(), w, used), errc{});
    huffman_table t;
    EXPECT_EQ(build_huffman_table(w, t), errc{});
    return t;
}

errc build_from_weights(const std::vector<std::uint8_t>& ws, huffman_table& t) {
    huffman_weights w;
    for (std::size_t i = 0; i < ws.size(); ++i) w.weight[i] = ws[i];
    w.count = unsigned(ws.size());
    return build_huffman_table(w, t);
}

std::uint16_t entry(unsigned symbol, unsigned length) { return std::uint16_t(symbol << 8 | length); }

// ---------------------------------------------------------------------------
// Tree descriptions
// ---------------------------------------------------------------------------

TEST(HuffmanWeights, DirectRepresentationRfcExample) {
    huffman_weights w;
    std::size_t used = 0;
    ASSERT_EQ(read_huffman_weights(rfc_tree.data(), rfc_tree.size(), w, used), errc{});
    EXPECT_EQ(used, 4u);  // header + ceil(5 / 2)
    ASSERT_EQ(w.count, 5u);
    const std::uint8_t want[] = {4, 3, 2, 0, 1};
    for (unsigned i = 0; i < 5; ++i) EXPECT_EQ(w.weight[i], want[i]) << i;
}

TEST(HuffmanWeights, DirectRepresentationSizes) {
    // 1 weight: one byte, high nibble.
    bytes b = {0x80, 0x70, 0xEE};
    huffman_weights w;
    std::size_t used = 0;
    ASSERT_EQ(read_huffman_weights(b.data(), b.size(), w, used), errc{});
    EXPECT_EQ(used, 2u);
    ASSERT_EQ(w.count, 1u);
    EXPECT_EQ(w.weight[0], 7u);
    // 128 weights (header 255): 64 bytes, high nibble first.
    b.assign(1, 0xFF);
    for (unsigned i = 0; i < 64; ++i) b.push_back(std::uint8_t(((i % 16) << 4) | ((i + 5) % 16)));
    ASSERT_EQ(read_huffman_weights(b.data(), b.size(), w, used), errc{});
    EXPECT_EQ(used, 65u);
    ASSERT_EQ(w.count, 128u);
    for (unsigned i = 0; i < 64; ++i) {
        EXPECT_EQ(w.weight[2 * i], i % 16);
        EXPECT_EQ(w.weight[2 * i + 1], (i + 5) % 16);
    }
}

TEST(HuffmanWeights, TruncatedDescriptionsRejected) {
    huffman_weights w;
    std::size_t used = 0;
    EXPECT_NE(read_huffman_weights(rfc_tree.data(), 0, w, used), errc{});
    for (std::size_t n = 1; n < rfc_tree.size(); ++n)
        EXPECT_EQ(read_huffman_weights(rfc_tree.data(), n, w, used), errc::huffman_invalid) << n;
    // FSE-compressed: header byte says 5 bytes follow.
    const bytes fse = {0x05, 0x10, 0x88, 0x1F, 0xC1, 0x08};
    for (std::size_t n = 1; n < fse.size(); ++n)
        EXPECT_EQ(read_huffman_weights(fse.data(), n, w, used), errc::huffman_invalid) << n;
    const bytes zero_header = {0x00, 0x10, 0x88};
    EXPECT_EQ(read_huffman_weights(zero_header.data(), zero_header.size(), w, used), errc::huffman_invalid);
}

// FSE-compressed weights built by hand. Weight alphabet {0: 0, 1: 16, 2: 16}
// at accuracy log 5, described as bytes 0x10 0x88 0x1F:
//   log nibble 0; sym 0 zero = value 1 in 5 bits; repeat flag 0;
//   sym 1 value 17 in 5 bits; sym 2 value 17 (0..17 possible, 14 short) as
//   17 + 14 = 31 in 5 bits.
// Its decoding table (spread step 23): weight 1 in states
//   0 1 2 5 6 10 11 14 15 19 20 23 24 25 28 29, weight 2 in the others,
// every cell reading 1 bit, baselines 0, 2, 4, ... in state order.
constexpr unsigned two_symbol_weight1_states[16] = {0, 1, 2, 5, 6, 10, 11, 14, 15, 19, 20, 23, 24, 25, 28, 29};
constexpr unsigned two_symbol_weight2_states[16] = {3, 4, 7, 8, 9, 12, 13, 16, 17, 18, 21, 22, 26, 27, 30, 31};
const bytes two_symbol_description = {0x10, 0x88, 0x1F};

std::vector<zest_test::table_cell> two_symbol_table() {
    std::vector<zest_test::table_cell> t(32);
    for (unsigned i = 0; i < 16; ++i) {
        t[two_symbol_weight1_states[i]] = {1, 1, 2 * i};
        t[two_symbol_weight2_states[i]] = {2, 1, 2 * i};
    }
    return t;
}

// Two interleaved states over one stream: state 1 decodes even weights,
// state 2 odd ones; the update after the next-to-last weight runs past the
// stream, which ends the list with the other state's symbol.
bytes fse_weights_description(const std::vector<unsigned>& weights) {
    const auto table = two_symbol_table();
    std::vector<unsigned> even, odd;
    for (std::size_t i = 0; i < weights.size(); ++i) (i % 2 ? odd : even).push_back(weights[i]);
    const auto a = zest_test::fse_state_path(table.data(), 5, even);
    const auto b = zest_test::fse_state_path(table.data(), 5, odd);
    zest_test::backward_stream bs;
    bs.add(a[0], 5).add(b[0], 5);
    for (std::size_t k = 0; k + 2 < weights.size(); ++k) {
        const auto& chain = k % 2 ? b : a;
        const std::size_t j = k / 2;
        bs.add(chain[j + 1] - table[chain[j]].baseline, table[chain[j]].nb_bits);
    }
    const bytes stream = bs.finish();
    bytes out = {std::uint8_t(two_symbol_description.size() + stream.size())};
    out.insert(out.end(), two_symbol_description.begin(), two_symbol_description.end());
    out.insert(out.end(), stream.begin(), stream.end());
    return out;
}

// Weights 2, 1, 1 by hand: state 1 = 3 (weight 2, baseline 0), state 2 = 0
// (weight 1); the single update moves state 1 to 0 + 1 = state 1 (weight 1);
// the next update (state 2) runs past the stream. Read order: 00011, 00000, 1,
// written backwards with the end mark: bytes 0xC1 0x08. With update bit 0
// (state 1 -> state 0, also weight 1) the bytes are 0xC0 0x08.
TEST(HuffmanWeights, FseCompressedByHand) {
    const bytes d = {0x05, 0x10, 0x88, 0x1F, 0xC1, 0x08};
    const bytes d0 = {0x05, 0x10, 0x88, 0x1F, 0xC0, 0x08};
    EXPECT_EQ(fse_weights_description({2, 1, 1}), d0);  // the generator picks the lowest states
    huffman_weights w;
    std::size_t used = 0;
    ASSERT_EQ(read_huffman_weights(d0.data(), d0.size(), w, used), errc{});
    ASSERT_EQ(w.count, 3u);
    EXPECT_EQ(w.weight[0], 2u);
    EXPECT_EQ(w.weight[1], 1u);
    EXPECT_EQ(w.weight[2], 1u);
    ASSERT_EQ(read_huffman_weights(d.data(), d.size(), w, used), errc{});
    EXPECT_EQ(used, 6u);
    ASSERT_EQ(w.count, 3u);
    EXPECT_EQ(w.weight[0], 2u);
    EXPECT_EQ(w.weight[1], 1u);
    EXPECT_EQ(w.weight[2], 1u);
    // 2 + 1 + 1 = 4: Max_Number_of_Bits 3, implied weight 3 (4 more).
    // Codes: literal 1 = 000, literal 2 = 001, literal 0 = 01, literal 3 = 1.
    huffman_table t;
    ASSERT_EQ(build_huffman_table(w, t), errc{});
    EXPECT_EQ(t.max_bits, 3u);
    EXPECT_EQ(t.entries[0], entry(1, 3));
    EXPECT_EQ(t.entries[1], entry(2, 3));
    EXPECT_EQ(t.entries[2], entry(0, 2));
    EXPECT_EQ(t.entries[3], entry(0, 2));
    for (unsigned i = 4; i < 8; ++i) EXPECT_EQ(t.entries[i], entry(3, 1)) << i;
}

TEST(HuffmanWeights, FseCompressedEveryCount) {
    for (unsigned n = 2; n <= 255; ++n) {
        std::vector<unsigned> ws(n);
        for (unsigned i = 0; i < n; ++i) ws[i] = 1 + ((i * 7 + n) / 3) % 2;
        const bytes d = fse_weights_description(ws);
        ASSERT_LT(d[0], 128u);
        huffman_weights w;
        std::size_t used = 0;
        ASSERT_EQ(read_huffman_weights(d.data(), d.size(), w, used), errc{}) << n;
        EXPECT_EQ(used, d.size());
        ASSERT_EQ(w.count, n);
        for (unsigned i = 0; i < n; ++i) ASSERT_EQ(w.weight[i], ws[i]) << "count " << n << " weight " << i;
    }
}

TEST(HuffmanWeights, FseCompressedMoreThan255WeightsRejected) {
    const std::vector<unsigned> ws(256, 1);
    const bytes d = fse_weights_description(ws);
    huffman_weights w;
    std::size_t used = 0;
    EXPECT_EQ(read_huffman_weights(d.data(), d.size(), w, used), errc::huffman_invalid);
}

TEST(HuffmanWeights, FseCompressedMalformedRejected) {
    huffman_weights w;
    std::size_t used = 0;
    // Description only, no stream.
    bytes d = {0x03, 0x10, 0x88, 0x1F};
    EXPECT_NE(read_huffman_weights(d.data(), d.size(), w, used), errc{});
    // Stream whose last byte is 0.
    d = {0x05, 0x10, 0x88, 0x1F, 0xC1, 0x00};
    EXPECT_NE(read_huffman_weights(d.data(), d.size(), w, used), errc{});
    // Accuracy log 7 (nibble 2): above the limit of 6 for weights.
    d = {0x05, 0x12, 0x88, 0x1F, 0xC1, 0x08};
    EXPECT_NE(read_huffman_weights(d.data(), d.size(), w, used), errc{});
}

// A tree taken from a frame libzstd wrote: 200 distinct literal values force
// FSE-compressed weights (direct representation stops at 128 weights). The
// expectations come from the input: absent bytes weigh 0, present ones not.
TEST(HuffmanWeights, FseCompressedFromLibzstd) {
    bytes src(20000);
    std::uint32_t x = 4242;
    for (auto& c : src) {
        x = x * 1664525u + 1013904223u;
        const unsigned a = (x >> 8) % 200, b = (x >> 20) % 200;
        c = std::uint8_t(std::min(a, b));  // skewed towards small values
    }
    std::set<unsigned> present(src.begin(), src.end());
    ASSERT_GT(present.size(), 129u);
    bytes frame(ZSTD_compressBound(src.size()));
    const std::size_t fsize = ZSTD_compress(frame.data(), frame.size(), src.data(), src.size(), 3);
    ASSERT_FALSE(ZSTD_isError(fsize));
    frame.resize(fsize);

    // Walk to the first block's literals section (RFC 8878 layouts).
    ASSERT_EQ(zest::detail::load_le32(frame.data()), 0xFD2FB528u);
    const unsigned fhd = frame[4];
    const bool single = (fhd >> 5) & 1;
    static constexpr unsigned did[4] = {0, 1, 2, 4}, fcs[4] = {0, 2, 4, 8};
    const std::size_t fcs_size = (fhd >> 6) == 0 ? (single ? 1 : 0) : fcs[fhd >> 6];
    std::size_t pos = 5 + (single ? 0 : 1) + did[fhd & 3] + fcs_size;
    const std::uint32_t bh = zest::detail::load_le24(frame.data() + pos);
    ASSERT_EQ((bh >> 1) & 3, 2u) << "expected a compressed block";
    pos += 3;
    const unsigned lh = frame[pos];
    ASSERT_EQ(lh & 3, 2u) << "expected Huffman-compressed literals";
    const unsigned size_format = (lh >> 2) & 3;
    const std::size_t lh_size = size_format <= 1 ? 3 : size_format == 2 ? 4 : 5;
    const std::uint8_t* tree = frame.data() + pos + lh_size;
    ASSERT_LT(tree[0], 128u) << "expected FSE-compressed weights";

    huffman_weights w;
    std::size_t used = 0;
    ASSERT_EQ(read_huffman_weights(tree, frame.size() - (pos + lh_size), w, used), errc{});
    EXPECT_EQ(used, 1u + tree[0]);
    ASSERT_GE(w.count, *present.rbegin());  // up to the last present literal, excluded
    huffman_table t;
    ASSERT_EQ(build_huffman_table(w, t), errc{});
    ASSERT_EQ(w.count, *present.rbegin() + 1);
    std::uint64_t kraft = 0;
    for (unsigned s = 0; s < w.count; ++s) {
        EXPECT_EQ(w.weight[s] != 0, present.count(s) == 1) << "literal " << s;
        if (w.weight[s]) kraft += std::uint64_t(1) << (w.weight[s] - 1);
    }
    EXPECT_EQ(kraft, std::uint64_t(1) << t.max_bits);

    const auto out = zest::decompress(zest_test::as_span(frame));
    ASSERT_EQ(out.size(), src.size());
    EXPECT_TRUE(std::equal(src.begin(), src.end(), reinterpret_cast<const std::uint8_t*>(out.data())));
}

// The RFC tree and example stream as a compressed literals block in a
// frame, decoded by libzstd: settles how the example's codes are meant.
TEST(HuffmanWeights, RfcExampleStreamAsLibzstdReadsIt) {
    bytes f = zest_test::frame_start(7);
    // Literals: type 2, 1 stream, Regenerated_Size 4, Compressed_Size 6; no sequences.
    bytes content = {0x42, 0x80, 0x01};
    content.insert(content.end(), rfc_tree.begin(), rfc_tree.end());
    content.insert(content.end(), {0x10, 0x0D, 0x00});
    zest_test::put_block(f, zest_test::block_type::compressed, content, true);
    bytes ref(16);
    const std::size_t r = ZSTD_decompress(ref.data(), ref.size(), f.data(), f.size());
    ASSERT_FALSE(ZSTD_isError(r)) << ZSTD_getErrorName(r);
    ref.resize(r);
    EXPECT_EQ(ref, (bytes{0, 1, 5, 4}));
    const auto out = zest::decompress(zest_test::as_span(f));
    EXPECT_EQ(bytes(reinterpret_cast<const std::uint8_t*>(out.data()),
                    reinterpret_cast<const std::uint8_t*>(out.data()) + out.size()),
              ref);
}

// ---------------------------------------------------------------------------
// Decoding tables
// ---------------------------------------------------------------------------

// RFC example: literal 4 = 0000, 5 = 0001, 2 = 001, 1 = 01, 0 = 1, indexed by
// the next 4 bits of the stream.
TEST(HuffmanTable, RfcExampleEntries) {
    const huffman_table t = table_from(rfc_tree);
    ASSERT_EQ(t.max_bits, 4u);
    EXPECT_EQ(t.entries[0], entry(4, 4));
    EXPECT_EQ(t.entries[1], entry(5, 4));
    EXPECT_EQ(t.entries[2], entry(2, 3));
    EXPECT_EQ(t.entries[3], entry(2, 3));
    for (unsigned i = 4; i < 8; ++i) EXPECT_EQ(t.entries[i], entry(1, 2)) << i;
    for (unsigned i = 8; i < 16; ++i) EXPECT_EQ(t.entries[i], entry(0, 1)) << i;
}

TEST(HuffmanTable, ImpliedLastWeight) {
    huffman_weights w;
    std::size_t used = 0;
    ASSERT_EQ(read_huffman_weights(rfc_tree.data(), rfc_tree.size(), w, used), errc{});
    huffman_table t;
    ASSERT_EQ(build_huffman_table(w, t), errc{});
    ASSERT_EQ(w.count, 6u);     // literal 5 added
    EXPECT_EQ(w.weight[5], 1u);  // 8 + 4 + 2 + 1 = 15 -> 16 - 15 = 1 = 2^(1-1)
}

TEST(HuffmanTable, ElevenBitTree) {
    const huffman_table t = table_from(deep_tree);
    ASSERT_EQ(t.max_bits, 11u);
    EXPECT_EQ(t.entries[0], entry(10, 11));
    EXPECT_EQ(t.entries[1], entry(11, 11));
    for (unsigned e = 2; e < 2048; ++e) {
        const unsigned w = zest::detail::highbit32(e) + 1;  // entries [2^(w-1), 2^w) hold weight w
        ASSERT_EQ(t.entries[e], entry(11 - w, 12 - w)) << e;
    }
}

TEST(HuffmanTable, TwelveBitTree) {
    huffman_table t = table_from(twelve_tree);
    ASSERT_EQ(t.max_bits, 12u);
    EXPECT_EQ(t.entries[0], entry(11, 12));
    EXPECT_EQ(t.entries[1], entry(12, 12));
    for (unsigned e = 2; e < 4096; ++e) {
        const unsigned w = zest::detail::highbit32(e) + 1;
        ASSERT_EQ(t.entries[e], entry(12 - w, 13 - w)) << e;
    }
    // No pair table: its index is 11 bits.
    zest::detail::build_huffman_pairs(t);
    EXPECT_FALSE(t.pairs_ready);
}

TEST(HuffmanTable, TwoSymbolTree) {
    // Weights {1} + implied 1: one bit each, literal 0 = 0, literal 1 = 1.
    huffman_table t;
    ASSERT_EQ(build_from_weights({1}, t), errc{});
    EXPECT_EQ(t.max_bits, 1u);
    EXPECT_EQ(t.entries[0], entry(0, 1));
    EXPECT_EQ(t.entries[1], entry(1, 1));
}

TEST(HuffmanTable, InvalidTreesRejected) {
    huffman_table t;
    // No weight-1 symbol: 2 + 2 = 4 -> implied weight 3, no 1s.
    EXPECT_EQ(build_from_weights({2, 2}, t), errc::huffman_invalid);
    EXPECT_EQ(build_from_weights({3, 2, 2}, t), errc::huffman_invalid);
    // An odd number of weight-1 symbols can only complete with a
    // non-power-of-two remainder: 1 + 2 + 2 = 5 -> 3 short of 8.
    EXPECT_EQ(build_from_weights({1, 2, 2}, t), errc::huffman_invalid);
    EXPECT_EQ(build_from_weights({1, 1, 1, 4}, t), errc::huffman_invalid);  // 11 -> 5 short of 16
    // Sum not completable to a power of two with one weight: 1 + 4 = 5.
    EXPECT_EQ(build_from_weights({1, 3}, t), errc::huffman_invalid);
    EXPECT_EQ(build_from_weights({2, 2, 2}, t), errc::huffman_invalid);  // 6 -> 2 short of 8, but no 1s
    // Max_Number_of_Bits above 12 (libzstd's limit; the format says 11, see
    // TwelveBitTree): 3 * 2048 + 2047 = 8191 completes (implied weight 1) as
    // a 13-bit tree, otherwise well formed.
    EXPECT_EQ(build_from_weights({12, 12, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1}, t), errc::huffman_invalid);
    EXPECT_EQ(build_from_weights({11, 11, 1}, t), errc::huffman_invalid);  // 2049: not completable
    EXPECT_EQ(build_from_weights({12, 12, 1}, t), errc::huffman_invalid);  // 4097: nor this
    // A weight above 12, or 12 without a complement.
    EXPECT_EQ(build_from_weights({13, 1}, t), errc::huffman_invalid);
    EXPECT_EQ(build_from_weights({15, 1}, t), errc::huffman_invalid);
    EXPECT_EQ(build_from_weights({12, 1}, t), errc::huffman_invalid);
    // All weights zero.
    EXPECT_EQ(build_from_weights({0, 0, 0}, t), errc::huffman_invalid);
    // 255 weights plus the implied one is fine (256 literals)...
    std::vector<std::uint8_t> ws(255, 1);  // 255 ones -> 256 with the implied 1: 8 bits each
    ASSERT_EQ(build_from_weights(ws, t), errc{});
    EXPECT_EQ(t.max_bits, 8u);
    for (unsigned e = 0; e < 256; ++e) ASSERT_EQ(t.entries[e], entry(e, 8));
    // ...and the valid neighbours of the rejected trees are accepted.
    EXPECT_EQ(build_from_weights({1, 1, 2}, t), errc{});  // 4 -> implied 3
    EXPECT_EQ(build_from_weights({1, 2}, t), errc{});     // 3 -> implied 1
    EXPECT_EQ(build_from_weights({11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1}, t), errc{});
    EXPECT_EQ(build_from_weights({11, 11, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1}, t), errc{});
    EXPECT_EQ(t.max_bits, 12u);
}

// ---------------------------------------------------------------------------
// Stream decoding, per kernel set
// ---------------------------------------------------------------------------

class HuffmanKernels : public ::testing::TestWithParam<const char*> {
protected:
    void SetUp() override {
        k_ = zest_test::kernel_by_name(GetParam());
        if (!k_) GTEST_SKIP() << GetParam() << " kernels not available on this CPU/build";
    }
    errc one(const bytes& src, std::size_t n, const huffman_table& t, bytes& out) const {
        out.assign(n, 0xEE);
        const bytes exact(src);  // exactly sized: reads past it would be caught by sanitizers
        return k_->huf_1x(out.data(), n, exact.data(), exact.size(), t);
    }
    errc four(const bytes& src, std::size_t n, const huffman_table& t, bytes& out) const {
        out.assign(n, 0xEE);
        const bytes exact(src);
        return k_->huf_4x(out.data(), n, exact.data(), exact.size(), t);
    }
    const zest::detail::kernel_set* k_ = nullptr;
};

// The RFC's example stream 00010000 00001101 holds the codes 1, 01, 0001,
// 0000: by the RFC's own code table (4 = 0000, 5 = 0001) that is "0154"; the
// example's row labels 5 and 4 the other way round. libzstd agrees with the
// code table (RfcExampleStreamAsLibzstdReadsIt), and "0145" is 0x01 0x0D.
TEST_P(HuffmanKernels, RfcExampleStream) {
    const huffman_table t = table_from(rfc_tree);
    bytes out;
    ASSERT_EQ(one({0x10, 0x0D}, 4, t, out), errc{});
    EXPECT_EQ(out, (bytes{0, 1, 5, 4}));
    ASSERT_EQ(one({0x01, 0x0D}, 4, t, out), errc{});
    EXPECT_EQ(out, (bytes{0, 1, 4, 5}));
    EXPECT_EQ(encode_stream({0, 1, 4, 5}, rfc_codes), (bytes{0x01, 0x0D}));
    EXPECT_EQ(encode_stream({0, 1, 5, 4}, rfc_codes), (bytes{0x10, 0x0D}));
}

TEST_P(HuffmanKernels, OneStreamEveryLength) {
    const huffman_table t = table_from(rfc_tree);
    for (std::size_t n = 0; n <= 300; ++n) {
        const bytes lits = rfc_literals(n, unsigned(n));
        bytes out;
        ASSERT_EQ(one(encode_stream(lits, rfc_codes), n, t, out), errc{}) << n;
        ASSERT_EQ(out, lits) << n;
    }
}

TEST_P(HuffmanKernels, OneStreamElevenBitCodes) {
    const huffman_table t = table_from(deep_tree);
    const auto codes = deep_codes();
    for (std::size_t n : {1, 2, 5, 7, 64, 333, 1000}) {
        bytes lits = zest_test::pseudo_random_bytes(n, unsigned(n) + 7, 12);
        bytes out;
        ASSERT_EQ(one(encode_stream(lits, codes), n, t, out), errc{}) << n;
        ASSERT_EQ(out, lits) << n;
        // Only the longest codes: 11 bits each.
        for (auto& c : lits) c = std::uint8_t(10 + (c & 1));
        ASSERT_EQ(one(encode_stream(lits, codes), n, t, out), errc{}) << n;
        ASSERT_EQ(out, lits) << n;
    }
}

// 12-bit codes: too deep for the burst loops (five codes between refills),
// which must leave such tables to the careful ones, at every size.
TEST_P(HuffmanKernels, OneStreamTwelveBitCodes) {
    const huffman_table t = table_from(twelve_tree);
    const auto codes = twelve_codes();
    for (std::size_t n : {1, 2, 5, 7, 8, 9, 20, 64, 333, 1000, 5000}) {
        bytes lits = zest_test::pseudo_random_bytes(n, unsigned(n) + 9, 13);
        bytes out;
        ASSERT_EQ(one(encode_stream(lits, codes), n, t, out), errc{}) << n;
        ASSERT_EQ(out, lits) << n;
        for (auto& c : lits) c = std::uint8_t(11 + (c & 1));  // 12 bits each
        ASSERT_EQ(one(encode_stream(lits, codes), n, t, out), errc{}) << n;
        ASSERT_EQ(out, lits) << n;
        bytes more = lits;
        more.push_back(11);
        EXPECT_EQ(one(encode_stream(more, codes), n, t, out), errc::literals_invalid) << n;
    }
}

TEST_P(HuffmanKernels, OneStreamErrors) {
    const huffman_table t = table_from(rfc_tree);
    bytes out;
    const bytes lits = rfc_literals(100, 5);
    const bytes good = encode_stream(lits, rfc_codes);
    ASSERT_EQ(one(good, lits.size(), t, out), errc{});
    // Empty stream, or last byte 0.
    EXPECT_EQ(k_->huf_1x(out.data(), 1, good.data(), 0, t), errc::literals_invalid);
    bytes bad = good;
    bad.push_back(0);
    EXPECT_EQ(one(bad, lits.size(), t, out), errc::literals_invalid);
    // Bits left over: one code too many, or an extra leading byte.
    bytes more = lits;
    more.push_back(0);
    EXPECT_EQ(one(encode_stream(more, rfc_codes), lits.size(), t, out), errc::literals_invalid);
    bad = good;
    bad.insert(bad.begin(), 0xFF);
    EXPECT_EQ(one(bad, lits.size(), t, out), errc::literals_invalid);
    // Too few codes: decoding runs past the stream's start.
    const bytes fewer(lits.begin(), lits.end() - 1);
    EXPECT_EQ(one(encode_stream(fewer, rfc_codes), lits.size(), t, out), errc::literals_invalid);
    // The same at every length around the fast loop's limits.
    for (std::size_t n = 1; n <= 40; ++n) {
        const bytes l = rfc_literals(n, unsigned(100 + n));
        bytes plus = l;
        plus.push_back(2);
        EXPECT_EQ(one(encode_stream(plus, rfc_codes), n, t, out), errc::literals_invalid) << n;
        EXPECT_EQ(one(encode_stream(bytes(l.begin(), l.end() - 1), rfc_codes), n, t, out), errc::literals_invalid)
            << n;
    }
}

TEST_P(HuffmanKernels, FourStreamsManyLengths) {
    const huffman_table t = table_from(rfc_tree);
    std::vector<std::size_t> sizes;
    for (std::size_t n = 6; n <= 200; ++n) sizes.push_back(n);
    for (std::size_t n : {255, 256, 257, 1000, 1023, 4096, 20000}) sizes.push_back(n);
    for (std::size_t n : sizes) {
        const bytes lits = rfc_literals(n, unsigned(n * 3));
        bytes out;
        ASSERT_EQ(four(encode_4_streams(lits, rfc_codes), n, t, out), errc{}) << n;
        ASSERT_EQ(out, lits) << n;
    }
}

TEST_P(HuffmanKernels, FourStreamsElevenBitCodes) {
    const huffman_table t = table_from(deep_tree);
    const auto codes = deep_codes();
    for (std::size_t n : {6, 9, 64, 333, 1000, 5001}) {
        const bytes lits = zest_test::pseudo_random_bytes(n, unsigned(n) + 11, 12);
        bytes out;
        ASSERT_EQ(four(encode_4_streams(lits, codes), n, t, out), errc{}) << n;
        ASSERT_EQ(out, lits) << n;
    }
}

TEST_P(HuffmanKernels, FourStreamsTwelveBitCodes) {
    huffman_table t = table_from(twelve_tree);
    zest::detail::build_huffman_pairs(t);  // none: the 4-stream loop must not look for one
    const auto codes = twelve_codes();
    for (std::size_t n : {6, 9, 64, 333, 1000, 5001, 20000}) {
        bytes lits = zest_test::pseudo_random_bytes(n, unsigned(n) + 13, 13);
        bytes out;
        ASSERT_EQ(four(encode_4_streams(lits, codes), n, t, out), errc{}) << n;
        ASSERT_EQ(out, lits) << n;
        for (auto& c : lits) c = std::uint8_t(11 + (c & 1));
        ASSERT_EQ(four(encode_4_streams(lits, codes), n, t, out), errc{}) << n;
        ASSERT_EQ(out, lits) << n;
    }
}

TEST_P(HuffmanKernels, FourStreamsJumpTableErrors) {
    const huffman_table t = table_from(rfc_tree);
    bytes out;
    // Segment 2 ends with literals 4, 4 (code 0000 twice): stream 2's first
    // byte is 0x00, so moving it into stream 1 leaves stream 1 ending in 0.
    bytes lits = rfc_literals(400, 77);
    lits[198] = lits[199] = 4;
    std::array<bytes, 4> parts;
    const bytes good = encode_4_streams(lits, rfc_codes, &parts);
    ASSERT_EQ(parts[1][0], 0x00);
    ASSERT_EQ(four(good, lits.size(), t, out), errc{});
    ASSERT_EQ(out, lits);

    auto with_sizes = [&](std::size_t a, std::size_t b, std::size_t c) {
        bytes x = good;
        x[0] = std::uint8_t(a);
        x[1] = std::uint8_t(a >> 8);
        x[2] = std::uint8_t(b);
        x[3] = std::uint8_t(b >> 8);
        x[4] = std::uint8_t(c);
        x[5] = std::uint8_t(c >> 8);
        return x;
    };
    const std::size_t s1 = parts[0].size(), s2 = parts[1].size(), s3 = parts[2].size(), s4 = parts[3].size();
    EXPECT_EQ(four(with_sizes(s1 + 1, s2 - 1, s3), lits.size(), t, out), errc::literals_invalid);
    // Stream 4 left empty, or the first three running past the end.
    EXPECT_EQ(four(with_sizes(s1, s2, s3 + s4), lits.size(), t, out), errc::literals_invalid);
    EXPECT_EQ(four(with_sizes(s1 + s4, s2, s3 + 1), lits.size(), t, out), errc::literals_invalid);
    EXPECT_EQ(four(with_sizes(0xFFFF, 0xFFFF, 0xFFFF), lits.size(), t, out), errc::literals_invalid);
    // An empty stream 2.
    EXPECT_EQ(four(with_sizes(s1 + s2, 0, s3), lits.size(), t, out), errc::literals_invalid);
    // Too short for a jump table and four streams.
    for (std::size_t n = 0; n < 10; ++n)
        EXPECT_EQ(k_->huf_4x(out.data(), 6, good.data(), n, t), errc::literals_invalid) << n;
    // A regenerated size too small to split (5: the fourth stream would be -1).
    EXPECT_EQ(four(good, 5, t, out), errc::literals_invalid);
}

// Regenerated sizes whose fourth segment would be negative, with streams
// that really hold segments of (n + 3) / 4 literals and an empty fourth:
// accepting them would write past the n-byte destination.
TEST_P(HuffmanKernels, FourStreamsNegativeLastSegmentRejected) {
    const huffman_table t = table_from(rfc_tree);
    for (std::size_t n : {1, 2, 5}) {
        const std::size_t seg = (n + 3) / 4;
        const bytes lits = rfc_literals(3 * seg, unsigned(n));  // segments seg, seg, seg, 0
        const bytes src = encode_4_streams(lits, rfc_codes);
        bytes out(3 * seg + 16, 0xEE);
        EXPECT_EQ(k_->huf_4x(out.data(), n, src.data(), src.size(), t), errc::literals_invalid) << n;
        // Decoding 3 * seg literals from the same streams is fine (n = 3, 6).
        ASSERT_EQ(k_->huf_4x(out.data(), 3 * seg, src.data(), src.size(), t), errc{}) << n;
        EXPECT_TRUE(std::equal(lits.begin(), lits.end(), out.begin())) << n;
    }
}

TEST_P(HuffmanKernels, FourStreamsNotFullyConsumed) {
    const huffman_table t = table_from(rfc_tree);
    bytes out;
    // Past 40, the streams hold 8 bytes and more: the burst loop runs, and
    // the missing or extra code is met after it, in each stream's last bits.
    for (std::size_t n : {6, 7, 8, 40, 401, 1000, 4099}) {
        const bytes lits = rfc_literals(n, unsigned(n + 1));
        const std::size_t seg = (n + 3) / 4;
        std::array<bytes, 4> segs;
        for (std::size_t i = 0; i < 4; ++i) {
            const std::size_t b = i * seg, e = i == 3 ? n : (i + 1) * seg;
            segs[i] = bytes(lits.begin() + std::ptrdiff_t(b), lits.begin() + std::ptrdiff_t(e));
        }
        auto assemble = [](const std::array<bytes, 4>& sg) {
            bytes src;
            std::array<bytes, 4> p;
            for (int i = 0; i < 4; ++i) p[i] = encode_stream(sg[i], rfc_codes);
            for (int i = 0; i < 3; ++i) zest_test::put_le(src, p[i].size(), 2);
            for (const auto& x : p) src.insert(src.end(), x.begin(), x.end());
            return src;
        };
        ASSERT_EQ(four(assemble(segs), n, t, out), errc{}) << n;
        ASSERT_EQ(out, lits);
        for (int which = 0; which < 4; ++which) {
            // One code too many in stream `which`: it keeps unread bits.
            auto more = segs;
            more[which].push_back(1);
            EXPECT_EQ(four(assemble(more), n, t, out), errc::literals_invalid) << "size " << n << " stream " << which;
            // One code missing: the stream runs past its start.
            if (segs[which].empty()) continue;
            auto fewer = segs;
            fewer[which].pop_back();
            EXPECT_EQ(four(assemble(fewer), n, t, out), errc::literals_invalid) << "size " << n << " stream " << which;
        }
    }
}

// The two-symbol table (built on demand for large sections) must decode
// exactly like the one-symbol table.
huffman_table with_pairs(huffman_table t) {
    zest::detail::build_huffman_pairs(t);
    EXPECT_TRUE(t.pairs_ready);
    return t;
}

TEST_P(HuffmanKernels, FourStreamsWithPairTable) {
    const huffman_table t = with_pairs(table_from(rfc_tree));
    const huffman_table deep = with_pairs(table_from(deep_tree));
    for (std::size_t n : {6, 40, 41, 42, 43, 100, 255, 1000, 4096, 5003, 20000}) {
        const bytes lits = rfc_literals(n, unsigned(n * 5));
        bytes out;
        ASSERT_EQ(four(encode_4_streams(lits, rfc_codes), n, t, out), errc{}) << n;
        ASSERT_EQ(out, lits) << n;
        const bytes dl = zest::detail::highbit32(std::uint32_t(n)) % 2 ? zest_test::pseudo_random_bytes(n, unsigned(n), 12)
                                                                       : bytes(n, 0);
        ASSERT_EQ(four(encode_4_streams(dl, deep_codes()), n, deep, out), errc{}) << n;
        ASSERT_EQ(out, dl) << n;
    }
}

// Streams decoding at different rates: streams 1-3 are mostly 1-bit codes
// (two per pair lookup) ending in 11-bit ones, stream 4 is 6-bit codes
// throughout (one per lookup). The fast loops must not let any stream run
// past its own segment.
TEST_P(HuffmanKernels, FourStreamsUnequalRatesWithPairTable) {
    const huffman_table plain = table_from(deep_tree);
    const huffman_table paired = with_pairs(plain);
    for (std::size_t tail : {0, 5, 9, 12, 20, 40}) {
        const std::size_t n = 8192, seg = n / 4;
        bytes lits;
        for (int s = 0; s < 3; ++s) {
            for (std::size_t i = 0; i < seg - tail; ++i) lits.push_back(0);   // code 1
            for (std::size_t i = 0; i < tail; ++i) lits.push_back(10);        // code 00000000000
        }
        for (std::size_t i = 0; i < seg; ++i) lits.push_back(5);              // code 000001
        const bytes src = encode_4_streams(lits, deep_codes());
        bytes out;
        ASSERT_EQ(four(src, n, plain, out), errc{}) << tail;
        ASSERT_EQ(out, lits) << tail;
        EXPECT_EQ(four(src, n, paired, out), errc{}) << "tail " << tail;
        EXPECT_EQ(out, lits) << "tail " << tail;
    }
}

// The literals section around the streams (RFC 8878 "Literals_Section_Header").
TEST_P(HuffmanKernels, LiteralsSection) {
    using zest::detail::decode_literals;
    using zest::detail::literals_view;
    auto st = std::make_unique<zest::detail::decoder_state>();
    st->reset_frame();
    literals_view v{};
    std::size_t used = 0;
    auto run = [&](const bytes& src) {
        return decode_literals(*st, *k_, src.data(), src.size(), src.data() + src.size(), 128 * 1024, v, used);
    };
    auto view = [&] { return bytes(v.ptr, v.ptr + v.size); };

    // Compressed, 1 stream: type 2, size format 0, Regenerated_Size 4,
    // Compressed_Size 6 (tree 4 + stream 2): 2 | 4 << 4 | 6 << 14 = 0x018042.
    bytes src = {0x42, 0x80, 0x01};
    src.insert(src.end(), rfc_tree.begin(), rfc_tree.end());
    src.insert(src.end(), {0x10, 0x0D, 0x99});
    ASSERT_EQ(run(src), errc{});
    EXPECT_EQ(used, 9u);
    EXPECT_EQ(view(), (bytes{0, 1, 5, 4}));
    // Treeless (type 3) reuses that table: 3 | 4 << 4 | 2 << 14.
    ASSERT_EQ(run({0x43, 0x80, 0x00, 0x10, 0x0D}), errc{});
    EXPECT_EQ(used, 5u);
    EXPECT_EQ(view(), (bytes{0, 1, 5, 4}));
    // Compressed, 4 streams: size format 1; sizes 10 bits each.
    const bytes lits = rfc_literals(300, 8);
    const bytes streams = encode_4_streams(lits, rfc_codes);
    const std::size_t csize = rfc_tree.size() + streams.size();
    ASSERT_LT(csize, 1024u);
    const std::uint32_t h = 2u | (1u << 2) | (300u << 4) | (std::uint32_t(csize) << 14);
    src.clear();
    zest_test::put_le(src, h, 3);
    src.insert(src.end(), rfc_tree.begin(), rfc_tree.end());
    src.insert(src.end(), streams.begin(), streams.end());
    ASSERT_EQ(run(src), errc{});
    EXPECT_EQ(used, src.size());
    EXPECT_EQ(view(), lits);
    // Compressed_Size beyond the block.
    src.pop_back();
    EXPECT_EQ(run(src), errc::literals_invalid);
    // Large sections (size format 2: 14-bit sizes; 3: 18-bit sizes), where
    // the decoder may switch to its two-symbol table.
    for (unsigned format : {2u, 3u}) {
        for (std::size_t n : {4096, 8192, 16000}) {
            const bytes big = rfc_literals(n, unsigned(n + format));
            const bytes st4 = encode_4_streams(big, rfc_codes);
            const std::size_t cs = rfc_tree.size() + st4.size();
            src.clear();
            if (format == 2) {
                zest_test::put_le(src, 2u | (2u << 2) | (std::uint32_t(n) << 4) | (std::uint32_t(cs) << 18), 4);
            } else {
                zest_test::put_le(src, 2u | (3u << 2) | (std::uint64_t(n) << 4) | (std::uint64_t(cs) << 22), 5);
            }
            src.insert(src.end(), rfc_tree.begin(), rfc_tree.end());
            src.insert(src.end(), st4.begin(), st4.end());
            ASSERT_EQ(run(src), errc{}) << format << "/" << n;
            EXPECT_EQ(used, src.size());
            EXPECT_EQ(view(), big) << format << "/" << n;
            // Treeless, reusing whatever table (and pair table) the block left.
            src[0] = std::uint8_t(src[0] | 3);
            src.erase(src.begin() + (format == 2 ? 4 : 5),
                      src.begin() + (format == 2 ? 4 : 5) + std::ptrdiff_t(rfc_tree.size()));
            const std::size_t cs2 = st4.size();
            if (format == 2) {
                const std::uint32_t h2 = 3u | (2u << 2) | (std::uint32_t(n) << 4) | (std::uint32_t(cs2) << 18);
                for (int i = 0; i < 4; ++i) src[std::size_t(i)] = std::uint8_t(h2 >> (8 * i));
            } else {
                const std::uint64_t h2 = 3u | (3u << 2) | (std::uint64_t(n) << 4) | (std::uint64_t(cs2) << 22);
                for (int i = 0; i < 5; ++i) src[std::size_t(i)] = std::uint8_t(h2 >> (8 * i));
            }
            ASSERT_EQ(run(src), errc{}) << "treeless " << format << "/" << n;
            EXPECT_EQ(view(), big);
        }
    }
    // Raw, 1-, 2- and 3-byte headers; RLE.
    ASSERT_EQ(run({0x18, 'a', 'b', 'c'}), errc{});  // 3 << 3
    EXPECT_EQ(view(), (bytes{'a', 'b', 'c'}));
    EXPECT_EQ(used, 4u);
    const bytes raw = zest_test::pseudo_random_bytes(5000, 3);
    src = zest_test::raw_literals_section(raw);
    ASSERT_EQ(src.size(), 5003u);
    ASSERT_EQ(run(src), errc{});
    EXPECT_EQ(view(), raw);
    src = zest_test::raw_literals_section(bytes(raw.begin(), raw.begin() + 100));
    ASSERT_EQ(src.size(), 102u);
    ASSERT_EQ(run(src), errc{});
    EXPECT_EQ(view(), bytes(raw.begin(), raw.begin() + 100));
    src.pop_back();
    EXPECT_EQ(run(src), errc::literals_invalid);  // raw literals past the end
    ASSERT_EQ(run({0x29, 'z'}), errc{});              // RLE, 5 << 3 | 1
    EXPECT_EQ(view(), bytes(5, 'z'));
    EXPECT_EQ(used, 2u);
    // Treeless literals with no table yet in this frame.
    st->reset_frame();
    EXPECT_EQ(run({0x43, 0x80, 0x00, 0x10, 0x0D}), errc::literals_invalid);
}

INSTANTIATE_TEST_SUITE_P(Kernels, HuffmanKernels, ::testing::Values("generic", "bmi2", "avx2", "avx512"),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
