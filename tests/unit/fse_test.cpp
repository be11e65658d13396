// FSE table descriptions (RFC 8878 "FSE Table Description") and decoding
// tables ("From normalized distribution to decoding tables", Appendix A).
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "common/fse.hpp"
#include "spec_tables.hpp"
#include "test_util.hpp"

namespace {

using zest::errc;
using zest::detail::build_fse_cells;
using zest::detail::fse_cell;
using zest::detail::fse_distribution;
using zest::detail::read_fse_distribution;
using zest_test::bytes;

errc read(const bytes& b, unsigned max_log, unsigned max_symbol, fse_distribution& d, std::size_t& used) {
    return read_fse_distribution(b.data(), b.size(), max_log, max_symbol, d, used);
}

void expect_counts(const fse_distribution& d, const std::vector<int>& want) {
    ASSERT_EQ(d.max_symbol + 1, want.size());
    for (std::size_t s = 0; s < want.size(); ++s) EXPECT_EQ(d.count[s], want[s]) << "symbol " << s;
}

// Accuracy log 5, counts {18, 6, 4, 3, 1}, encoded by hand:
//   log:   low nibble 0                                        bits 0-3   0000
//   sym 0: values 0..33 possible, 6-bit field, 30 short values;
//          value 19 < 30 -> 5 bits                             bits 4-8   10011
//   sym 1: 0..15, 4 bits, none short; value 7                  bits 9-12  0111
//   sym 2: 0..9, 4 bits, 6 short; value 5 < 6 -> 3 bits        bits 13-15 101
//   sym 3: 0..5, 3 bits, 2 short; value 4 >= 4 -> 4 + 2 = 6    bits 16-18 110
//   sym 4: 0..2, 2 bits, 1 short; value 2 >= 2 -> 2 + 1 = 3    bits 19-20 11
// 21 bits -> bytes 0x30 0xAF 0x1E.
TEST(FseDescription, HandEncodedVariableWidthFields) {
    const bytes b = {0x30, 0xAF, 0x1E};
    fse_distribution d;
    std::size_t used = 0;
    ASSERT_EQ(read(b, 9, 255, d, used), errc{});
    EXPECT_EQ(d.accuracy_log, 5u);
    EXPECT_EQ(used, 3u);
    expect_counts(d, {18, 6, 4, 3, 1});
    // Trailing bytes are not part of the description.
    bytes longer = b;
    longer.insert(longer.end(), {0xFF, 0xFF});
    ASSERT_EQ(read(longer, 9, 255, d, used), errc{});
    EXPECT_EQ(used, 3u);
    expect_counts(d, {18, 6, 4, 3, 1});
}

// Accuracy log 5, counts {-1, 0, 0, 0, 0, 0, 30, 1}:
//   sym 0: "less than 1" = value 0, 5 bits                     bits 4-8   00000
//   sym 1: zero = value 1 (0..32, 31 short) -> 5 bits          bits 9-13  00001
//          repeat flag 3 (symbols 2-4), then 1 (symbol 5)      bits 14-17 11 01
//   sym 6: value 31 (0..32, 31 short, 31 < 32) -> 6 bits       bits 18-23 011111
//   sym 7: value 2 (0..2) -> 2 + 1 = 3 in 2 bits                bits 24-25 11
// 26 bits -> bytes 0x00 0xC2 0x7D 0x03.
TEST(FseDescription, HandEncodedZerosRepeatFlagsAndLessThanOne) {
    const bytes b = {0x00, 0xC2, 0x7D, 0x03};
    fse_distribution d;
    std::size_t used = 0;
    ASSERT_EQ(read(b, 9, 255, d, used), errc{});
    EXPECT_EQ(d.accuracy_log, 5u);
    EXPECT_EQ(used, 4u);
    expect_counts(d, {-1, 0, 0, 0, 0, 0, 30, 1});
}

TEST(FseDescription, EncoderMatchesHandEncodings) {
    // The test's encoder (used below for larger cases) against the hand work.
    EXPECT_EQ(zest_test::encode_fse_description({18, 6, 4, 3, 1}, 5), (bytes{0x30, 0xAF, 0x1E}));
    EXPECT_EQ(zest_test::encode_fse_description({-1, 0, 0, 0, 0, 0, 30, 1}, 5), (bytes{0x00, 0xC2, 0x7D, 0x03}));
}

TEST(FseDescription, DefaultDistributionsRoundTrip) {
    const struct {
        const std::int16_t* counts;
        unsigned n, log;
    } cases[] = {{zest_test::spec_ll_default, 36, 6},
                 {zest_test::spec_ml_default, 53, 6},
                 {zest_test::spec_of_default, 29, 5}};
    for (const auto& c : cases) {
        const std::vector<int> want(c.counts, c.counts + c.n);
        const bytes b = zest_test::encode_fse_description(want, c.log);
        fse_distribution d;
        std::size_t used = 0;
        ASSERT_EQ(read(b, 9, 255, d, used), errc{});
        EXPECT_EQ(used, b.size());
        EXPECT_EQ(d.accuracy_log, c.log);
        expect_counts(d, want);
    }
}

// Many distributions, logs 5..9, with long zero runs (repeat flags of 3 and
// chains of them) and "less than 1" symbols.
TEST(FseDescription, GeneratedDistributionsRoundTrip) {
    std::uint32_t x = 12345;
    auto rnd = [&x](std::uint32_t m) {
        x = x * 1103515245u + 12345u;
        return (x >> 8) % m;
    };
    for (int iter = 0; iter < 400; ++iter) {
        const unsigned log = 5 + rnd(5);
        int left = 1 << log;
        std::vector<int> counts;
        while (left > 0) {
            const std::uint32_t kind = rnd(10);
            if (kind < 3) {
                const std::uint32_t zeros = 1 + rnd(kind == 0 ? 20 : 3);
                for (std::uint32_t i = 0; i < zeros; ++i) counts.push_back(0);
            } else if (kind < 5) {
                counts.push_back(-1);
                left -= 1;
            } else {
                const int c = 1 + int(rnd(std::uint32_t(std::min(left, 40))));
                counts.push_back(c);
                left -= c;
            }
        }
        if (counts.size() > 256) continue;
        const bytes b = zest_test::encode_fse_description(counts, log);
        fse_distribution d;
        std::size_t used = 0;
        ASSERT_EQ(read(b, 9, 255, d, used), errc{}) << "iteration " << iter;
        EXPECT_EQ(used, b.size());
        EXPECT_EQ(d.accuracy_log, log);
        expect_counts(d, counts);
    }
}

TEST(FseDescription, AccuracyLogAboveLimitRejected) {
    // Low nibble 5 -> log 10, above the format's 9 for sequences.
    bytes b = zest_test::encode_fse_description({512, 512}, 10);
    fse_distribution d;
    std::size_t used = 0;
    EXPECT_EQ(read(b, 9, 255, d, used), errc::fse_invalid);
    // Log 7 is fine for sequences but not for Huffman weights (limit 6)...
    b = zest_test::encode_fse_description({100, 28}, 7);
    EXPECT_EQ(read(b, 6, 255, d, used), errc::fse_invalid);
    EXPECT_EQ(read(b, 8, 255, d, used), errc{});
    // ...and log 9 is not fine for offsets (limit 8).
    b = zest_test::encode_fse_description({500, 12}, 9);
    EXPECT_EQ(read(b, 8, 255, d, used), errc::fse_invalid);
    EXPECT_EQ(read(b, 9, 255, d, used), errc{});
    // Every nibble above 4 with limit 9 is rejected, whatever follows.
    for (unsigned nibble = 5; nibble < 16; ++nibble) {
        const bytes c = {std::uint8_t(0xF0 | nibble), 0xFF, 0xFF, 0xFF};
        EXPECT_EQ(read(c, 9, 255, d, used), errc::fse_invalid) << nibble;
    }
}

TEST(FseDescription, TooManySymbolsRejected) {
    fse_distribution d;
    std::size_t used = 0;
    // Literal lengths allow symbols 0..35: 37 symbols is one too many.
    std::vector<int> counts(37, 1);
    counts[0] = 64 - 36;
    bytes b = zest_test::encode_fse_description(counts, 6);
    EXPECT_EQ(read(b, 9, 35, d, used), errc::fse_invalid);
    EXPECT_EQ(read(b, 9, 36, d, used), errc{});
    // The same through a zero run: repeat flags reaching past the last symbol.
    counts.assign(40, 0);
    counts[0] = 32;
    counts[39] = 32;
    b = zest_test::encode_fse_description(counts, 6);
    EXPECT_EQ(read(b, 9, 35, d, used), errc::fse_invalid);
    EXPECT_EQ(read(b, 9, 39, d, used), errc{});
    expect_counts(d, counts);
}

TEST(FseDescription, TruncatedRejected) {
    fse_distribution d;
    std::size_t used = 0;
    const bytes full = {0x30, 0xAF, 0x1E};
    for (std::size_t n = 0; n < full.size(); ++n) {
        const bytes cut(full.begin(), full.begin() + std::ptrdiff_t(n));
        EXPECT_EQ(read_fse_distribution(cut.data(), cut.size(), 9, 255, d, used), errc::fse_invalid) << n;
    }
    const bytes zeros = {0x00, 0xC2, 0x7D, 0x03};
    for (std::size_t n = 0; n < zeros.size(); ++n)
        EXPECT_EQ(read_fse_distribution(zeros.data(), n, 9, 255, d, used), errc::fse_invalid) << n;
    // A long description cut anywhere.
    const bytes ml = zest_test::encode_fse_description(
        std::vector<int>(zest_test::spec_ml_default, zest_test::spec_ml_default + 53), 6);
    for (std::size_t n = 0; n < ml.size(); ++n)
        EXPECT_EQ(read_fse_distribution(ml.data(), n, 9, 255, d, used), errc::fse_invalid) << n;
}

// A run of zero repeat flags that never ends must not read forever.
TEST(FseDescription, EndlessZeroRunRejected) {
    // Log 5; symbol 0 = value 1 (zero) in 5 bits, then repeat flags of 3 forever.
    zest_test::forward_bit_writer w;
    w.put(0, 4);
    w.put(1, 5);
    for (int i = 0; i < 60; ++i) w.put(3, 2);
    const bytes& b = w.data();
    fse_distribution d;
    std::size_t used = 0;
    EXPECT_EQ(read(b, 9, 255, d, used), errc::fse_invalid);
}

// Cells as a vector, for comparisons.
std::vector<fse_cell> build(const std::vector<int>& counts, unsigned log, errc* e = nullptr) {
    fse_distribution d;
    for (std::size_t s = 0; s < counts.size(); ++s) d.count[s] = std::int16_t(counts[s]);
    d.max_symbol = unsigned(counts.size() - 1);
    d.accuracy_log = log;
    std::vector<fse_cell> cells(std::size_t(1) << log);
    const errc r = build_fse_cells(d, cells.data());
    if (e) *e = r;
    else EXPECT_EQ(r, errc{});
    return cells;
}

// The RFC's worked example: a symbol of probability 5 at accuracy log 7 in
// states 1, 39, 77, 84, 122. Preceded by 91 cells (91 * 83 = 1 mod 128, the
// spread step being 64 + 16 + 3 = 83), the symbol's cells start at state 1.
TEST(FseCells, RfcWorkedExampleProbabilityFive) {
    const auto cells = build({91, 5, 32}, 7);
    const unsigned states[] = {1, 39, 77, 84, 122};
    const unsigned nb_bits[] = {5, 5, 5, 4, 4};
    const unsigned baselines[] = {32, 64, 96, 0, 16};
    unsigned found = 0;
    for (unsigned u = 0; u < 128; ++u)
        if (cells[u].symbol == 1) ++found;
    EXPECT_EQ(found, 5u);
    for (int i = 0; i < 5; ++i) {
        EXPECT_EQ(cells[states[i]].symbol, 1u) << states[i];
        EXPECT_EQ(cells[states[i]].nb_bits, nb_bits[i]) << states[i];
        EXPECT_EQ(cells[states[i]].baseline, baselines[i]) << states[i];
    }
}

// Counts {-1, 0, 0, 0, 0, 0, 30, 1} at log 5, by hand: the "less than 1"
// symbol 0 takes cell 31; the spread (step 23) gives symbol 6 the first 30
// free positions and symbol 7 the last one, 9. Symbol 6's two lowest states
// (0, 1) need 1 bit (baselines 28, 30), the others 0 bits (baselines 0..27).
TEST(FseCells, HandBuiltTableWithLessThanOne) {
    const auto cells = build({-1, 0, 0, 0, 0, 0, 30, 1}, 5);
    EXPECT_EQ(cells[31].symbol, 0u);
    EXPECT_EQ(cells[31].nb_bits, 5u);
    EXPECT_EQ(cells[31].baseline, 0u);
    EXPECT_EQ(cells[9].symbol, 7u);
    EXPECT_EQ(cells[9].nb_bits, 5u);
    EXPECT_EQ(cells[9].baseline, 0u);
    EXPECT_EQ(cells[0].symbol, 6u);
    EXPECT_EQ(cells[0].nb_bits, 1u);
    EXPECT_EQ(cells[0].baseline, 28u);
    EXPECT_EQ(cells[1].nb_bits, 1u);
    EXPECT_EQ(cells[1].baseline, 30u);
    unsigned next_baseline = 0;
    for (unsigned u = 2; u <= 30; ++u) {
        if (u == 9) continue;
        EXPECT_EQ(cells[u].symbol, 6u) << u;
        EXPECT_EQ(cells[u].nb_bits, 0u) << u;
        EXPECT_EQ(cells[u].baseline, next_baseline++) << u;
    }
    EXPECT_EQ(next_baseline, 28u);
}

// Two symbols of 16 at log 5: spread with step 23 from position 0.
TEST(FseCells, HandBuiltTwoSymbolTable) {
    const auto cells = build({0, 16, 16}, 5);
    const unsigned sym1[] = {0, 1, 2, 5, 6, 10, 11, 14, 15, 19, 20, 23, 24, 25, 28, 29};
    const unsigned sym2[] = {3, 4, 7, 8, 9, 12, 13, 16, 17, 18, 21, 22, 26, 27, 30, 31};
    for (unsigned i = 0; i < 16; ++i) {
        EXPECT_EQ(cells[sym1[i]].symbol, 1u);
        EXPECT_EQ(cells[sym1[i]].nb_bits, 1u);
        EXPECT_EQ(cells[sym1[i]].baseline, 2 * i);
        EXPECT_EQ(cells[sym2[i]].symbol, 2u);
        EXPECT_EQ(cells[sym2[i]].nb_bits, 1u);
        EXPECT_EQ(cells[sym2[i]].baseline, 2 * i);
    }
}

template <std::size_t N>
void expect_matches_appendix(const std::vector<fse_cell>& cells, const zest_test::spec_cell (&spec)[N]) {
    ASSERT_EQ(cells.size(), N);
    for (std::size_t u = 0; u < N; ++u) {
        EXPECT_EQ(cells[u].symbol, spec[u].symbol) << "state " << u;
        EXPECT_EQ(cells[u].nb_bits, spec[u].nb_bits) << "state " << u;
        EXPECT_EQ(cells[u].baseline, spec[u].baseline) << "state " << u;
    }
}

TEST(FseCells, PredefinedLiteralLengthTableMatchesAppendixA) {
    const std::vector<int> counts(zest_test::spec_ll_default, zest_test::spec_ll_default + 36);
    expect_matches_appendix(build(counts, 6), zest_test::spec_ll_table);
}

TEST(FseCells, PredefinedMatchLengthTableMatchesAppendixA) {
    const std::vector<int> counts(zest_test::spec_ml_default, zest_test::spec_ml_default + 53);
    expect_matches_appendix(build(counts, 6), zest_test::spec_ml_table);
}

TEST(FseCells, PredefinedOffsetTableMatchesAppendixA) {
    const std::vector<int> counts(zest_test::spec_of_default, zest_test::spec_of_default + 29);
    expect_matches_appendix(build(counts, 5), zest_test::spec_of_table);
}

// Read from a description, then built: the whole path for the LL defaults.
TEST(FseCells, DescriptionThenTableMatchesAppendixA) {
    const bytes b = zest_test::encode_fse_description(
        std::vector<int>(zest_test::spec_ll_default, zest_test::spec_ll_default + 36), 6);
    fse_distribution d;
    std::size_t used = 0;
    ASSERT_EQ(read(b, 9, 35, d, used), errc{});
    std::vector<fse_cell> cells(64);
    ASSERT_EQ(build_fse_cells(d, cells.data()), errc{});
    expect_matches_appendix(cells, zest_test::spec_ll_table);
}

// Every table's per-symbol ranges [baseline, baseline + 2^nb_bits) tile the
// state space (what makes the table decodable), for generated distributions.
TEST(FseCells, SymbolRangesTileTheStateSpace) {
    std::uint32_t x = 777;
    auto rnd = [&x](std::uint32_t m) {
        x = x * 1103515245u + 12345u;
        return (x >> 8) % m;
    };
    for (int iter = 0; iter < 200; ++iter) {
        const unsigned log = 5 + rnd(5);
        int left = 1 << log;
        std::vector<int> counts;
        while (left > 0 && counts.size() < 200) {
            const std::uint32_t k = rnd(8);
            int c = k == 0 ? 0 : k == 1 ? -1 : 1 + int(rnd(std::uint32_t(std::min(left, 60))));
            if (c == -1 && left < 1) c = 0;
            counts.push_back(c);
            left -= c < 0 ? 1 : c;
        }
        if (left != 0) continue;
        const auto cells = build(counts, log);
        const unsigned size = 1u << log;
        for (std::size_t s = 0; s < counts.size(); ++s) {
            std::vector<int> covered(size, 0);
            unsigned n = 0;
            for (unsigned u = 0; u < size; ++u) {
                if (cells[u].symbol != s) continue;
                ++n;
                for (unsigned v = cells[u].baseline; v < cells[u].baseline + (1u << cells[u].nb_bits); ++v)
                    if (v < size) covered[v]++;
            }
            EXPECT_EQ(n, unsigned(counts[s] < 0 ? 1 : counts[s])) << "iteration " << iter << " symbol " << s;
            if (n == 0) continue;
            for (unsigned v = 0; v < size; ++v) ASSERT_EQ(covered[v], 1) << "iteration " << iter << " symbol " << s;
        }
    }
}

TEST(FseCells, CountsNotFillingTheTableRejected) {
    errc e{};
    build({16, 15}, 5, &e);  // 31 of 32
    EXPECT_EQ(e, errc::fse_invalid);
    build({16, 17}, 5, &e);  // 33 of 32
    EXPECT_EQ(e, errc::fse_invalid);
    build({-1, 30}, 5, &e);  // 31 of 32
    EXPECT_EQ(e, errc::fse_invalid);
}

}  // namespace
