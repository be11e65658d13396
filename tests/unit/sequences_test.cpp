// Sequences: repeat offsets (RFC 8878 "Repeat offsets"), sequence execution
// and the sequence modes, on compressed blocks built by hand. The blocks use
// raw literals and Predefined_Mode (encoded with the RFC's Appendix A tables)
// or RLE_Mode / Repeat_Mode; expected output comes from a reference model
// written from the RFC text, and for the simple cases from hand-written bytes.
#include <gtest/gtest.h>
#include <zstd.h>

#include <algorithm>
#include <memory>
#include <string>

#include "decompress/literals.hpp"
#include "spec_tables.hpp"
#include "test_util.hpp"
#include "zest/zest.hpp"

namespace {

using zest::errc;
using zest_test::block_type;
using zest_test::bytes;
using zest_test::sequence;

const zest_test::predefined_set<zest_test::spec_cell> spec{zest_test::spec_ll_table, zest_test::spec_of_table,
                                                           zest_test::spec_ml_table};

bytes str(const std::string& s) { return bytes(s.begin(), s.end()); }

bytes compressed_content(const bytes& lits, const std::vector<sequence>& seqs) {
    bytes c = zest_test::raw_literals_section(lits);
    const bytes s = zest_test::predefined_sequences_section(seqs, spec);
    c.insert(c.end(), s.begin(), s.end());
    return c;
}

bytes rle_content(const bytes& lits, const std::vector<sequence>& seqs) {
    bytes c = zest_test::raw_literals_section(lits);
    const bytes s = zest_test::rle_sequences_section(seqs);
    c.insert(c.end(), s.begin(), s.end());
    return c;
}

// One frame, one compressed block.
bytes single_block_frame(const bytes& lits, const std::vector<sequence>& seqs) {
    bytes f = zest_test::frame_start(7);
    zest_test::put_block(f, block_type::compressed, compressed_content(lits, seqs), true);
    return f;
}

bytes decode(const bytes& frame) {
    const auto v = zest::decompress(zest_test::as_span(frame));
    const auto* p = reinterpret_cast<const std::uint8_t*>(v.data());
    return bytes(p, p + v.size());
}

errc decode_error(const bytes& frame) {
    bytes out(1 << 20);
    const auto r = zest::decompress(out.data(), out.size(), frame.data(), frame.size());
    return r ? errc{} : r.error();
}

bytes model_output(const bytes& lits, const std::vector<sequence>& seqs) {
    zest_test::reference_model m;
    EXPECT_TRUE(m.execute(lits, seqs));
    return m.out;
}

// ---------------------------------------------------------------------------
// The reference model and the writer, checked against the RFC's own table
// ---------------------------------------------------------------------------

TEST(RepeatOffsets, ModelFollowsRfcTable) {
    // RFC 8878 "Repeat offsets": offset_value, literals_length, then the three
    // repeated offsets after the sequence.
    const struct {
        std::uint32_t ov, ll, r1, r2, r3;
    } rows[] = {
        {1114, 11, 1111, 1, 4},      {1, 22, 1111, 1, 4},         {2225, 22, 2222, 1111, 1},
        {1114, 111, 1111, 2222, 1111}, {3336, 33, 3333, 1111, 2222}, {2, 22, 1111, 3333, 2222},
        {3, 33, 2222, 1111, 3333},   {3, 0, 2221, 2222, 1111},    {1, 0, 2222, 2221, 1111},
    };
    zest_test::reference_model m;
    EXPECT_EQ(m.rep[0], 1u);
    EXPECT_EQ(m.rep[1], 4u);
    EXPECT_EQ(m.rep[2], 8u);
    for (const auto& r : rows) {
        m.resolve(r.ov, r.ll);
        EXPECT_EQ(m.rep[0], r.r1) << r.ov << "/" << r.ll;
        EXPECT_EQ(m.rep[1], r.r2) << r.ov << "/" << r.ll;
        EXPECT_EQ(m.rep[2], r.r3) << r.ov << "/" << r.ll;
    }
}

TEST(SequenceWriter, CodesFollowRfcTables) {
    EXPECT_EQ(zest_test::literals_length_code(15).code, 15u);
    EXPECT_EQ(zest_test::literals_length_code(17).code, 16u);
    EXPECT_EQ(zest_test::literals_length_code(22).code, 19u);
    EXPECT_EQ(zest_test::literals_length_code(111).code, 25u);
    EXPECT_EQ(zest_test::literals_length_code(111).extra, 47u);
    EXPECT_EQ(zest_test::match_length_code(34).code, 31u);
    EXPECT_EQ(zest_test::match_length_code(36).code, 32u);
    EXPECT_EQ(zest_test::match_length_code(36).extra, 1u);
    EXPECT_EQ(zest_test::offset_code(1).code, 0u);
    EXPECT_EQ(zest_test::offset_code(3).code, 1u);
    EXPECT_EQ(zest_test::offset_code(3).extra, 1u);
    EXPECT_EQ(zest_test::offset_code(3336).code, 11u);
    EXPECT_EQ(zest_test::offset_code(3336).extra, 3336u - 2048u);
    // libzstd reads what the writer writes (so the writer is a fair source of inputs).
    const bytes f = single_block_frame(str("abcdefgh"), {{8, 2, 4}});
    bytes out(64);
    const std::size_t r = ZSTD_decompress(out.data(), out.size(), f.data(), f.size());
    ASSERT_FALSE(ZSTD_isError(r)) << ZSTD_getErrorName(r);
    out.resize(r);
    EXPECT_EQ(out, str("abcdefghefgh"));
}

// ---------------------------------------------------------------------------
// Each rule, with the expected bytes written out by hand. Repeated offsets
// start at 1, 4, 8.
// ---------------------------------------------------------------------------

TEST(RepeatOffsets, Value1WithLiteralsIsOffset1) {
    // 8 literals, then 4 bytes from 1 back: "hhhh".
    EXPECT_EQ(decode(single_block_frame(str("abcdefgh"), {{8, 1, 4}})), str("abcdefghhhhh"));
}

TEST(RepeatOffsets, Value2WithLiteralsIsOffset2) {
    EXPECT_EQ(decode(single_block_frame(str("abcdefgh"), {{8, 2, 4}})), str("abcdefghefgh"));  // 4 back
}

TEST(RepeatOffsets, Value3WithLiteralsIsOffset3) {
    EXPECT_EQ(decode(single_block_frame(str("abcdefgh"), {{8, 3, 5}})), str("abcdefghabcde"));  // 8 back
}

// For literals_length = 0 a first sequence (offset 3, "fgh") leaves the
// repeated offsets at 3, 1, 4.
TEST(RepeatOffsets, Value1WithoutLiteralsIsOffset2) {
    // 1 back: "hhhh"; offsets become 1, 3, 4, so a following value 2 (with a
    // literal) means 3 back.
    EXPECT_EQ(decode(single_block_frame(str("abcdefghX"), {{8, 6, 3}, {0, 1, 4}, {1, 2, 3}})),
              str("abcdefgh" "fgh" "hhhh" "X" "hhX"));
}

TEST(RepeatOffsets, Value2WithoutLiteralsIsOffset3) {
    // 4 back from "abcdefghfgh": "hfgh"; offsets become 4, 3, 1, so a
    // following value 3 with a literal means 1 back.
    EXPECT_EQ(decode(single_block_frame(str("abcdefghX"), {{8, 6, 3}, {0, 2, 4}, {1, 3, 3}})),
              str("abcdefgh" "fgh" "hfgh" "X" "XXX"));
}

TEST(RepeatOffsets, Value3WithoutLiteralsIsOffset1MinusOne) {
    // 3 - 1 = 2 back: "ghgh"; offsets become 2, 3, 1; then value 2 with a
    // literal = 3 back.
    EXPECT_EQ(decode(single_block_frame(str("abcdefghX"), {{8, 6, 3}, {0, 3, 4}, {1, 2, 3}})),
              str("abcdefgh" "fgh" "ghgh" "X" "ghX"));
    // And value 2 without literals then means Repeated_Offset3 = 1.
    EXPECT_EQ(decode(single_block_frame(str("abcdefgh"), {{8, 6, 3}, {0, 3, 4}, {0, 2, 3}})),
              str("abcdefgh" "fgh" "ghgh" "hhh"));
}

TEST(RepeatOffsets, Value1WithLiteralsKeepsOrder) {
    // New offset 5 (value 8): "567"; value 1 twice keeps 5: after "A" the
    // bytes 5 back are "956", after "B" they are "A95"; then value 2 (with a
    // literal) is Repeated_Offset2 = 1: "CCC".
    const bytes lits = str("0123456789ABC");
    const std::vector<sequence> seqs = {{10, 8, 3}, {1, 1, 3}, {1, 1, 3}, {1, 2, 3}};
    const bytes want = str("0123456789" "567" "A" "956" "B" "A95" "C" "CCC");
    EXPECT_EQ(model_output(lits, seqs), want);
    EXPECT_EQ(decode(single_block_frame(lits, seqs)), want);
}

// The RFC's example series, on real data: a raw block of filler first, so
// that offsets up to 3333 reach into it (raw blocks leave the offsets alone).
TEST(RepeatOffsets, RfcTableSeriesDecodes) {
    const std::vector<sequence> seqs = {{11, 1114, 5},  {22, 1, 6},  {22, 2225, 7}, {111, 1114, 8}, {33, 3336, 9},
                                        {22, 2, 10},    {33, 3, 11}, {0, 3, 12},    {0, 1, 13}};
    std::uint32_t total = 0;
    for (const auto& s : seqs) total += s.literals_length;
    const bytes filler = zest_test::pseudo_random_bytes(4000, 1);
    const bytes lits = zest_test::pseudo_random_bytes(total + 7, 2);
    bytes f = zest_test::frame_start(12);
    zest_test::put_block(f, block_type::raw, filler, false);
    zest_test::put_block(f, block_type::compressed, compressed_content(lits, seqs), true);

    zest_test::reference_model m;
    m.append_raw(filler);
    ASSERT_TRUE(m.execute(lits, seqs));
    EXPECT_EQ(m.rep[0], 2222u);
    EXPECT_EQ(m.rep[1], 2221u);
    EXPECT_EQ(m.rep[2], 1111u);
    const bytes out = decode(f);
    ASSERT_EQ(out.size(), m.out.size());
    EXPECT_EQ(out, m.out);
    // Spot checks by hand: the first match copies 5 bytes from 1111 back.
    const std::size_t p = 4000 + 11;
    for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(out[p + i], out[p + i - 1111]) << i;
    // The last match (13 bytes, offset 2222) ends the data, before the 7 trailing literals.
    const std::size_t q = out.size() - 7 - 13;
    for (std::size_t i = 0; i < 13; ++i) EXPECT_EQ(out[q + i], out[q + i - 2222]) << i;
    EXPECT_TRUE(std::equal(lits.end() - 7, lits.end(), out.end() - 7));
}

// Repeated offsets carry from one compressed block to the next, are not
// touched by raw and RLE blocks, and restart at 1, 4, 8 in a new frame.
TEST(RepeatOffsets, CarriedAcrossBlocksResetPerFrame) {
    bytes f = zest_test::frame_start(7);
    // Block 1: offset 5 (value 8); offsets 5, 1, 4.
    zest_test::put_block(f, block_type::compressed, compressed_content(str("abcdefgh"), {{8, 8, 3}}), false);
    zest_test::put_block(f, block_type::raw, str("RAW"), false);
    zest_test::put_block(f, block_type::rle, {'r'}, false, 4);
    // Block 4: value 1 with literals = 5 back ("rrr"); value 2 without literals
    // = Repeated_Offset3 = 4 back ("Yrr"); offsets then 4, 5, 1.
    zest_test::put_block(f, block_type::compressed, compressed_content(str("XY"), {{2, 1, 3}, {0, 2, 3}}), true);
    // Frame 2: value 2 with literals is 4 back again (5 if offsets leaked).
    bytes f2 = zest_test::frame_start(7);
    zest_test::put_block(f2, block_type::compressed, compressed_content(str("ijklmnop"), {{8, 2, 4}}), true);
    bytes both = f;
    both.insert(both.end(), f2.begin(), f2.end());
    EXPECT_EQ(decode(both), str("abcdefgh" "def" "RAW" "rrrr" "XY" "rrr" "Yrr" "ijklmnop" "mnop"));
}

TEST(RepeatOffsets, ZeroOffsetFromValue3IsCorruption) {
    // Repeated_Offset1 = 1 and value 3 without literals: offset 1 - 1 = 0,
    // which the format forbids. libzstd up to 1.5.5 read it as 1 (and so did
    // zest); newer versions reject it, and so does zest.
    const bytes f = single_block_frame(str("abcdefgh"), {{8, 1, 3}, {0, 3, 4}});
    EXPECT_EQ(decode_error(f), errc::offset_invalid);
    // The same value with Repeated_Offset1 = 2 is the valid offset 1.
    const bytes g = single_block_frame(str("abcdefgh"), {{8, 2, 3}, {0, 3, 4}});
    EXPECT_EQ(decode(g), str("abcdefgh" "efg" "efge"));
}

// Many random sequences mixing every rule, in several blocks, with raw and
// RLE blocks in between: decoded output equals the model's.
TEST(RepeatOffsets, RandomSeriesAgainstModel) {
    std::uint32_t x = 2024;
    auto rnd = [&x](std::uint32_t m) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        return x % m;
    };
    for (int frame = 0; frame < 30; ++frame) {
        zest_test::reference_model m;
        bytes f = zest_test::frame_start(14);
        const int blocks = 1 + int(rnd(5));
        for (int b = 0; b < blocks; ++b) {
            const bool last = b + 1 == blocks;
            if (b > 0 && rnd(4) == 0) {
                const bytes raw = zest_test::pseudo_random_bytes(rnd(50), rnd(1000));
                zest_test::put_block(f, block_type::raw, raw, false);
                m.append_raw(raw);
            }
            std::vector<sequence> seqs;
            std::uint32_t lit_total = 0;
            std::size_t produced = m.out.size();
            const unsigned n = 1 + rnd(40);
            zest_test::reference_model probe = m;  // to pick only valid offsets
            for (unsigned i = 0; i < n; ++i) {
                sequence s{};
                s.literals_length = rnd(3) == 0 ? 0 : 1 + rnd(20);
                s.match_length = 3 + rnd(40);
                const std::size_t avail = produced + s.literals_length;
                for (int tries = 0; tries < 10; ++tries) {
                    s.offset_value = rnd(2) ? 1 + rnd(3) : 4 + rnd(std::uint32_t(std::min<std::size_t>(avail, 3000)) + 1);
                    zest_test::reference_model t = probe;
                    const std::uint32_t off = t.resolve(s.offset_value, s.literals_length);
                    if (off >= 1 && off <= avail) break;
                    s.offset_value = 0;
                }
                if (s.offset_value == 0) {
                    if (avail == 0) s.literals_length = 1;
                    s.offset_value = 4;  // offset 1
                }
                probe.resolve(s.offset_value, s.literals_length);
                produced += s.literals_length + s.match_length;
                lit_total += s.literals_length;
                seqs.push_back(s);
            }
            const bytes lits = zest_test::pseudo_random_bytes(lit_total + rnd(5), rnd(100000), 4 + rnd(250));
            ASSERT_TRUE(m.execute(lits, seqs));
            zest_test::put_block(f, block_type::compressed, compressed_content(lits, seqs), last);
        }
        ASSERT_EQ(decode(f), m.out) << "frame " << frame;
    }
}

// ---------------------------------------------------------------------------
// Sequence modes
// ---------------------------------------------------------------------------

TEST(SequenceModes, RleModeAllThree) {
    // LL code 16 (16 or 17), OF code 1 (values 2 or 3), ML code 32 (35 or 36):
    // the stream holds only the extra bits.
    const bytes lits = zest_test::pseudo_random_bytes(70, 5);
    const std::vector<sequence> seqs = {{16, 2, 35}, {17, 3, 36}, {16, 3, 35}, {17, 2, 36}};
    bytes f = zest_test::frame_start(7);
    zest_test::put_block(f, block_type::compressed, rle_content(lits, seqs), true);
    EXPECT_EQ(decode(f), model_output(lits, seqs));
    // By hand, the first sequence: 16 literals then 35 bytes from 4 back.
    const bytes out = decode(f);
    ASSERT_GE(out.size(), 51u);
    for (std::size_t i = 16; i < 51; ++i) EXPECT_EQ(out[i], out[12 + (i - 16) % 4]) << i;
}

TEST(SequenceModes, RleModeWithoutLiterals) {
    // Block 1 sets offsets 3, 1, 4 (value 6, ll 8); block 2 is RLE with
    // LL code 0 and OF code 1: value 2 -> Repeated_Offset3, value 3 -> Offset1 - 1.
    bytes f = zest_test::frame_start(7);
    zest_test::put_block(f, block_type::compressed, compressed_content(str("abcdefgh"), {{8, 6, 3}}), false);
    zest_test::put_block(f, block_type::compressed, rle_content({}, {{0, 2, 4}, {0, 3, 4}, {0, 2, 4}}), true);
    zest_test::reference_model m;
    ASSERT_TRUE(m.execute(str("abcdefgh"), {{8, 6, 3}}));
    ASSERT_TRUE(m.execute({}, {{0, 2, 4}, {0, 3, 4}, {0, 2, 4}}));
    // By hand: "abcdefghfgh" + 4 back "hfgh" (offsets 4, 3, 1) + 4 - 1 = 3
    // back "fghf" (offsets 3, 4, 3) + Repeated_Offset3 = 3 back "ghfg".
    EXPECT_EQ(m.out, str("abcdefgh" "fgh" "hfgh" "fghf" "ghfg"));
    EXPECT_EQ(decode(f), m.out);
}

TEST(SequenceModes, RepeatModeReusesPreviousTables) {
    // Block 2 says Repeat_Mode for all three: RLE tables from block 1 stay.
    const std::vector<sequence> b1 = {{16, 2, 35}, {17, 3, 36}};
    const std::vector<sequence> b2 = {{17, 2, 35}, {16, 2, 36}, {16, 3, 36}};
    const bytes l1 = zest_test::pseudo_random_bytes(33, 1), l2 = zest_test::pseudo_random_bytes(49, 2);
    bytes c2 = rle_content(l2, b2);
    // Literals header (2 bytes for 49), nb_seq, modes, then 3 RLE code bytes to drop.
    const std::size_t modes_at = 2 + l2.size() + 1;
    ASSERT_EQ(c2[modes_at], 0x54);
    c2[modes_at] = 0xFC;
    c2.erase(c2.begin() + std::ptrdiff_t(modes_at + 1), c2.begin() + std::ptrdiff_t(modes_at + 4));
    bytes f = zest_test::frame_start(7);
    zest_test::put_block(f, block_type::compressed, rle_content(l1, b1), false);
    zest_test::put_block(f, block_type::compressed, c2, true);
    zest_test::reference_model m;
    ASSERT_TRUE(m.execute(l1, b1));
    ASSERT_TRUE(m.execute(l2, b2));
    EXPECT_EQ(decode(f), m.out);

    // Predefined tables repeated: re-encode block 2 with them, mark Repeat_Mode.
    const std::vector<sequence> p2 = {{3, 1, 4}, {0, 2, 9}, {5, 12, 6}};
    const bytes l3 = str("PQRSTUVWXYZ");
    bytes c3 = compressed_content(l3, p2);
    const std::size_t at = 1 + l3.size() + 1;
    ASSERT_EQ(c3[at], 0x00);
    c3[at] = 0xFC;
    bytes g = zest_test::frame_start(7);
    zest_test::put_block(g, block_type::compressed, compressed_content(str("abcdefgh"), {{8, 6, 3}}), false);
    zest_test::put_block(g, block_type::compressed, c3, true);
    zest_test::reference_model m2;
    ASSERT_TRUE(m2.execute(str("abcdefgh"), {{8, 6, 3}}));
    ASSERT_TRUE(m2.execute(l3, p2));
    EXPECT_EQ(decode(g), m2.out);
}

TEST(SequenceModes, RepeatModeWithoutPreviousTableRejected) {
    bytes c = compressed_content(str("abcdefgh"), {{8, 2, 4}});
    c[1 + 8 + 1] = 0xFC;
    bytes f = zest_test::frame_start(7);
    zest_test::put_block(f, block_type::compressed, c, true);
    EXPECT_EQ(decode_error(f), errc::sequences_invalid);
    // A block without sequences does not provide tables.
    bytes h = zest_test::frame_start(7);
    zest_test::put_block(h, block_type::compressed, compressed_content(str("xy"), {}), false);
    zest_test::put_block(h, block_type::compressed, c, true);
    EXPECT_EQ(decode_error(h), errc::sequences_invalid);
    // A new frame forgets the previous frame's tables.
    bytes g = zest_test::frame_start(7);
    zest_test::put_block(g, block_type::compressed, compressed_content(str("abcdefgh"), {{8, 2, 4}}), true);
    g.insert(g.end(), f.begin(), f.end());
    EXPECT_EQ(decode_error(g), errc::sequences_invalid);
}

TEST(SequenceModes, ReservedModeBitsRejected) {
    for (std::uint8_t bits : {0x01, 0x02, 0x03}) {
        bytes c = compressed_content(str("abcdefgh"), {{8, 2, 4}});
        c[1 + 8 + 1] = bits;
        bytes f = zest_test::frame_start(7);
        zest_test::put_block(f, block_type::compressed, c, true);
        EXPECT_EQ(decode_error(f), errc::reserved_bit_set) << int(bits);
    }
}

TEST(SequenceModes, NumberOfSequencesEncodings) {
    // 1-, 2- and 3-byte Number_of_Sequences: 127, 128..0x7EFF, >= 0x7F00.
    for (std::size_t n : {std::size_t(127), std::size_t(128), std::size_t(300), std::size_t(0x7F00 + 5)}) {
        std::vector<sequence> seqs(n, sequence{0, 1, 3});  // ll 0, value 1: Repeated_Offset2 = 4, then swaps
        seqs[0] = {8, 1, 3};
        const bytes lits = str("abcdefgh");
        bytes f = zest_test::frame_start(17);
        zest_test::put_block(f, block_type::compressed, compressed_content(lits, seqs), true);
        const bytes want = model_output(lits, seqs);
        ASSERT_LE(want.size(), 128u * 1024u);
        EXPECT_EQ(decode(f), want) << n;
    }
}

// ---------------------------------------------------------------------------
// Invalid sequences
// ---------------------------------------------------------------------------

TEST(SequencesInvalid, OffsetBeforeFrameStart) {
    // 4 literals, offset 10.
    EXPECT_EQ(decode_error(single_block_frame(str("abcd"), {{4, 13, 3}})), errc::offset_invalid);
    // Repeated_Offset3 = 8 after 7 bytes.
    EXPECT_EQ(decode_error(single_block_frame(str("abcdefg"), {{7, 3, 3}})), errc::offset_invalid);
    // Exactly at the frame start is fine.
    EXPECT_EQ(decode(single_block_frame(str("abcdefgh"), {{8, 3, 3}})), str("abcdefghabc"));
    // The second frame cannot reach into the first one's output.
    bytes two = single_block_frame(str("abcdefgh"), {{8, 2, 4}});
    const bytes second = single_block_frame(str("ab"), {{2, 6, 3}});
    two.insert(two.end(), second.begin(), second.end());
    EXPECT_EQ(decode_error(two), errc::offset_invalid);
}

TEST(SequencesInvalid, MoreLiteralsThanTheSection) {
    EXPECT_EQ(decode_error(single_block_frame(str("abcd"), {{5, 1, 3}})), errc::sequences_invalid);
    EXPECT_EQ(decode_error(single_block_frame(str("abcd"), {{2, 1, 3}, {3, 1, 3}})), errc::sequences_invalid);
}

TEST(SequencesInvalid, BitstreamNotConsumedOrTruncated) {
    bytes c = compressed_content(str("abcdefgh"), {{8, 2, 4}, {0, 1, 5}});
    const std::size_t stream_at = 1 + 8 + 2;
    // An extra byte in front of the bitstream: bits left over.
    bytes extra = c;
    extra.insert(extra.begin() + std::ptrdiff_t(stream_at), 0x5A);
    bytes f = zest_test::frame_start(7);
    zest_test::put_block(f, block_type::compressed, extra, true);
    EXPECT_EQ(decode_error(f), errc::sequences_invalid);
    // The bitstream's first byte removed: it runs past its start.
    bytes cut = c;
    cut.erase(cut.begin() + std::ptrdiff_t(stream_at));
    f = zest_test::frame_start(7);
    zest_test::put_block(f, block_type::compressed, cut, true);
    EXPECT_NE(decode_error(f), errc{});
    // No bitstream at all, or a last byte of 0.
    bytes none(c.begin(), c.begin() + std::ptrdiff_t(stream_at));
    f = zest_test::frame_start(7);
    zest_test::put_block(f, block_type::compressed, none, true);
    EXPECT_EQ(decode_error(f), errc::sequences_invalid);
    bytes zero = c;
    zero.back() = 0;
    f = zest_test::frame_start(7);
    zest_test::put_block(f, block_type::compressed, zero, true);
    EXPECT_EQ(decode_error(f), errc::sequences_invalid);
}

// ---------------------------------------------------------------------------
// The sequence kernel of every kernel set, called directly
// ---------------------------------------------------------------------------

// Decodes blocks like the frame layer does, with a chosen kernel set and an
// output buffer of a chosen capacity (exact capacities force the careful
// copies at the buffer's end).
class kernel_frame {
public:
    kernel_frame(const zest::detail::kernel_set& k, std::size_t capacity)
        : k_(k), st_(std::make_unique<zest::detail::decoder_state>()), buf_(capacity) {
        st_->reset_frame();
    }
    errc raw(const bytes& b) {
        if (b.size() > buf_.size() - pos_) return errc::destination_too_small;
        std::copy(b.begin(), b.end(), buf_.begin() + std::ptrdiff_t(pos_));
        pos_ += b.size();
        return errc{};
    }
    errc compressed(const bytes& content) {
        using namespace zest::detail;
        literals_view lits{};
        std::size_t used = 0;
        const std::uint8_t* src = content.data();
        ZEST_TRY(decode_literals(*st_, k_, src, content.size(), src + content.size(), block_size_max, lits, used));
        unsigned nb = 0;
        std::size_t seq_used = 0;
        ZEST_TRY(read_sequences_header(*st_, src + used, content.size() - used, nb, seq_used));
        used += seq_used;
        std::uint8_t* const op = buf_.data() + pos_;
        std::uint8_t* const buffer_end = buf_.data() + buf_.size();
        std::uint8_t* const block_end = std::size_t(buffer_end - op) > block_size_max ? op + block_size_max : buffer_end;
        if (nb == 0) {
            if (lits.size > std::size_t(block_end - op)) return errc::destination_too_small;
            std::copy(lits.ptr, lits.ptr + lits.size, op);
            pos_ += lits.size;
            return errc{};
        }
        const sequences_job job{st_.get(), src + used, content.size() - used, nb, lits, buf_.data(), op, block_end, buffer_end};
        std::uint8_t* end = nullptr;
        ZEST_TRY(k_.sequences(job, end));
        pos_ = std::size_t(end - buf_.data());
        return errc{};
    }
    bytes output() const { return bytes(buf_.begin(), buf_.begin() + std::ptrdiff_t(pos_)); }
    const std::uint32_t* rep() const { return st_->rep; }

private:
    const zest::detail::kernel_set& k_;
    std::unique_ptr<zest::detail::decoder_state> st_;
    bytes buf_;
    std::size_t pos_ = 0;
};

class SequenceKernels : public ::testing::TestWithParam<const char*> {
protected:
    void SetUp() override {
        k_ = zest_test::kernel_by_name(GetParam());
        if (!k_) GTEST_SKIP() << GetParam() << " kernels not available on this CPU/build";
    }
    const zest::detail::kernel_set* k_ = nullptr;
};

TEST_P(SequenceKernels, RepeatOffsetRulesAndStateAfterBlock) {
    for (std::size_t slack : {std::size_t(0), std::size_t(1000)}) {
        const bytes lits = str("abcdefghX");
        const std::vector<sequence> seqs = {{8, 6, 3}, {0, 3, 4}, {1, 2, 3}};
        const bytes want = str("abcdefgh" "fgh" "ghgh" "X" "ghX");
        kernel_frame kf(*k_, want.size() + slack);
        ASSERT_EQ(kf.compressed(compressed_content(lits, seqs)), errc{});
        EXPECT_EQ(kf.output(), want);
        // Offsets after: 2, 3, 1 -> value 2 with literals -> 3, 2, 1.
        EXPECT_EQ(kf.rep()[0], 3u);
        EXPECT_EQ(kf.rep()[1], 2u);
        EXPECT_EQ(kf.rep()[2], 1u);
    }
}

// Every offset from 1 to 40 with match lengths around the copy widths
// (8, 16, 32), after short and long histories, in roomy and exact buffers.
// Offsets up to 70 cover every pattern copy: below 8, 8 to 15, and the
// avx512 set's 16 to 31 and 32 to 63 (each at lengths within one vector and
// past it).
TEST_P(SequenceKernels, MatchCopiesEveryShortOffset) {
    for (std::size_t history : {std::size_t(40), std::size_t(100)}) {
        const bytes head = zest_test::pseudo_random_bytes(history, unsigned(history));
        for (std::uint32_t offset = 1; offset <= std::min<std::size_t>(history, 70); ++offset) {
            std::vector<sequence> seqs;
            bytes lits = head;
            seqs.push_back({std::uint32_t(history), offset + 3, 3});
            for (std::uint32_t ml : {4u, 7u, 8u, 9u, 15u, 16u, 17u, 31u, 32u, 33u, 64u, 100u}) {
                lits.push_back(std::uint8_t(ml));
                seqs.push_back({1, 1, ml});  // one literal, then Repeated_Offset1 = offset
            }
            zest_test::reference_model m;
            ASSERT_TRUE(m.execute(lits, seqs));
            for (std::size_t slack : {std::size_t(0), std::size_t(3), std::size_t(64)}) {
                kernel_frame kf(*k_, m.out.size() + slack);
                ASSERT_EQ(kf.compressed(compressed_content(lits, seqs)), errc{}) << offset;
                ASSERT_EQ(kf.output(), m.out) << "offset " << offset << " history " << history << " slack " << slack;
            }
        }
    }
}

// Matches right from the frame's start (fewer than 16 bytes written) and
// overlapping ones.
TEST_P(SequenceKernels, MatchesNearFrameStart) {
    for (std::uint32_t first = 1; first <= 20; ++first) {
        for (std::uint32_t offset = 1; offset <= first; ++offset) {
            const bytes lits = zest_test::pseudo_random_bytes(first, first * 31 + offset);
            const std::vector<sequence> seqs = {{first, offset + 3, 3 + (first * offset) % 50}};
            const bytes want = model_output(lits, seqs);
            for (std::size_t slack : {std::size_t(0), std::size_t(100)}) {
                kernel_frame kf(*k_, want.size() + slack);
                ASSERT_EQ(kf.compressed(compressed_content(lits, seqs)), errc{});
                ASSERT_EQ(kf.output(), want) << first << "/" << offset;
            }
        }
    }
}

TEST_P(SequenceKernels, RandomBlocksAgainstModel) {
    std::uint32_t x = 99;
    auto rnd = [&x](std::uint32_t m) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        return x % m;
    };
    for (int iter = 0; iter < 40; ++iter) {
        zest_test::reference_model m;
        std::vector<std::pair<bytes, std::vector<sequence>>> blocks;
        for (int b = 0; b < 3; ++b) {
            zest_test::reference_model probe = m;
            std::size_t produced = m.out.size();
            std::vector<sequence> seqs;
            std::uint32_t lit_total = 0;
            for (unsigned i = 0, n = 1 + rnd(60); i < n; ++i) {
                sequence s{rnd(4) == 0 ? 0 : 1 + rnd(70), 0, 3 + rnd(rnd(8) == 0 ? 1000 : 40)};
                const std::size_t avail = produced + s.literals_length;
                if (avail == 0) s.literals_length = 1;
                const std::uint32_t pick = rnd(3);
                zest_test::reference_model t = probe;
                s.offset_value = 1 + rnd(3);
                const std::uint32_t off = t.resolve(s.offset_value, s.literals_length);
                if (pick == 0 || off == 0 || off > produced + s.literals_length)
                    s.offset_value = 3 + 1 + rnd(std::uint32_t(produced + s.literals_length));
                probe.resolve(s.offset_value, s.literals_length);
                produced += s.literals_length + s.match_length;
                lit_total += s.literals_length;
                seqs.push_back(s);
            }
            const bytes lits = zest_test::pseudo_random_bytes(lit_total + rnd(20), rnd(1u << 30));
            ASSERT_TRUE(m.execute(lits, seqs));
            blocks.emplace_back(lits, seqs);
        }
        for (std::size_t slack : {std::size_t(0), std::size_t(64)}) {
            kernel_frame kf(*k_, m.out.size() + slack);
            for (const auto& [lits, seqs] : blocks) ASSERT_EQ(kf.compressed(compressed_content(lits, seqs)), errc{});
            ASSERT_EQ(kf.output(), m.out) << "iteration " << iter << " slack " << slack;
        }
    }
}

TEST_P(SequenceKernels, OutputLargerThanBufferRejected) {
    const bytes lits = str("abcdefgh");
    const std::vector<sequence> seqs = {{8, 1, 20}};
    kernel_frame kf(*k_, 8 + 19);  // one byte short
    EXPECT_EQ(kf.compressed(compressed_content(lits, seqs)), errc::destination_too_small);
    kernel_frame kg(*k_, 8 + 20);
    EXPECT_EQ(kg.compressed(compressed_content(lits, seqs)), errc{});
    // Trailing literals that do not fit.
    kernel_frame kh(*k_, 8 + 20);
    EXPECT_EQ(kh.compressed(compressed_content(str("abcdefghZ"), seqs)), errc::destination_too_small);
}

INSTANTIATE_TEST_SUITE_P(Kernels, SequenceKernels, ::testing::Values("generic", "bmi2", "avx2", "avx512"),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
