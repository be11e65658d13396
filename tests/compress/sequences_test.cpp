// zest's lazy-family finders against libzstd's, sequence by sequence: at
// levels 4 to 15 (greedy, lazy and lazy2 on rows or chains, btlazy2) the
// matches zest finds on the compressible corpus shapes are the ones libzstd
// finds (ZSTD_generateSequences): the same positions, lengths and offsets.
// A size test only sees a difference once it grows past its tolerance; this
// one names the first position where the searches part.
//
// The oracle is the system's libzstd up to 1.5.5. From 1.5.6 on, the row
// matcher gives each row's slot 0 to the row's head (one entry fewer per
// row) and finds a little less; zest keeps every slot. Both lines stop
// inserting positions after 2 KiB without a match (1.5.5's "lazy
// skipping"), which none of the shapes used here reaches.
#include <gtest/gtest.h>
#define ZSTD_STATIC_LINKING_ONLY  // ZSTD_generateSequences, ZSTD_getCParams
#include <zstd.h>

#include <algorithm>
#include <string>
#include <vector>

#include "compress/frame_writer.hpp"
#include "compress/match_finder.hpp"
#include "compress/seq_store.hpp"
#include "corpus.hpp"

namespace {

using namespace zest::detail;

struct found_match {
    std::size_t pos, length, offset;
    bool operator==(const found_match&) const = default;
};

std::vector<found_match> libzstd_matches(const std::vector<std::byte>& in, int level, unsigned window_log) {
    ZSTD_CCtx* const c = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level);
    if (window_log) ZSTD_CCtx_setParameter(c, ZSTD_c_windowLog, int(window_log));
    std::vector<ZSTD_Sequence> seqs(in.size() + 1024);
    const std::size_t n = ZSTD_generateSequences(c, seqs.data(), seqs.size(), in.data(), in.size());
    ZSTD_freeCCtx(c);
    EXPECT_FALSE(ZSTD_isError(n)) << ZSTD_getErrorName(n);
    std::vector<found_match> out;
    std::size_t pos = 0;
    for (std::size_t i = 0; i < n && !ZSTD_isError(n); ++i) {
        pos += seqs[i].litLength;
        if (seqs[i].matchLength == 0) continue;  // a block's last literals
        out.push_back({pos, seqs[i].matchLength, seqs[i].offset});
        pos += seqs[i].matchLength;
    }
    return out;
}

// The level's finder over `in` as one frame in 128 KiB blocks, as the frame
// writer runs it, with the offsets the repeat codes stand for.
std::vector<found_match> zest_matches(const std::vector<std::byte>& in, int level, unsigned window_log) {
    frame_options o;
    o.level = level;
    o.parameters.window_log = window_log;
    const compression_params p = frame_params(o, in.size());
    std::vector<std::uint32_t> hash(std::max<std::size_t>(1, hash_table_entries(p)));
    std::vector<std::uint32_t> chain(std::max<std::size_t>(1, chain_table_entries(p)));
    std::vector<std::uint8_t> tags(std::max<std::size_t>(1, tag_table_entries(p)));
    match_state ms;
    ms.hash_table = hash.data();
    ms.chain_table = chain.data();
    ms.tag_table = tags.data();
    ms.params = p;
    ms.low = 1;
    ms.next_to_update = 1;
    ms.base = reinterpret_cast<const std::uint8_t*>(in.data()) - 1;
    constexpr std::size_t block = 128u << 10;
    std::vector<std::uint8_t> lits(block + seq_store::lits_slack);
    std::vector<stored_sequence> seqs(block / 3 + 1);
    repeat_offsets reps;
    std::vector<found_match> out;
    for (std::size_t begin = 0; begin < in.size(); begin += block) {
        const std::size_t end = std::min(in.size(), begin + block);
        seq_store s;
        s.lits = lits.data();
        s.seqs = seqs.data();
        s.clear();
        repeat_offsets r = reps;  // the offsets the block's repeat codes refer to
        find_matches(ms, s, reps, begin + 1, end + 1);
        std::size_t pos = begin;
        for (std::size_t i = 0; i < s.n_seqs; ++i) {
            const stored_sequence& q = s.seqs[i];
            const std::uint32_t lit_len = s.lit_len(i), match_len = s.match_len(i);
            pos += lit_len;
            std::uint32_t off;
            if (q.off_value > 3) {
                off = q.off_value - 3;
                r.rep[2] = r.rep[1], r.rep[1] = r.rep[0], r.rep[0] = off;
            } else {
                const unsigned k = q.off_value - 1 + (lit_len == 0);
                off = k == 3 ? r.rep[0] - 1 : r.rep[k];
                if (k != 0) {
                    if (k != 1) r.rep[2] = r.rep[1];
                    r.rep[1] = r.rep[0], r.rep[0] = off;
                }
            }
            out.push_back({pos, match_len, off});
            pos += match_len;
        }
    }
    return out;
}

// The first difference between the two parses, or "".
std::string first_difference(const std::vector<found_match>& ref, const std::vector<found_match>& ours) {
    const auto [r, o] = std::mismatch(ref.begin(), ref.end(), ours.begin(), ours.end());
    if (r == ref.end() && o == ours.end()) return "";
    const auto show = [](const char* who, const found_match& m) {
        return std::string(who) + " " + std::to_string(m.length) + " bytes at " + std::to_string(m.pos) + " from " +
               std::to_string(m.offset) + " back";
    };
    return std::to_string(ref.size()) + " matches in libzstd's parse, " + std::to_string(ours.size()) +
           " in zest's; first difference: " + (r == ref.end() ? std::string("none left") : show("libzstd", *r)) +
           ", " + (o == ours.end() ? std::string("none left") : show("zest", *o));
}

bool oracle_usable() { return ZSTD_versionNumber() < 10506; }
constexpr const char* oracle_skip = "the system libzstd's row matcher keeps 15 entries per row of 16 (1.5.6 on)";

class SameMatches : public ::testing::TestWithParam<std::string> {};

TEST_P(SameMatches, AsLibzstdAtLevels4To15) {
    if (!oracle_usable()) GTEST_SKIP() << oracle_skip;
    const auto whole = zest::test::corpus_shape(GetParam()).generate();
    for (const std::size_t cut : {std::size_t(4096), std::size_t(65536), whole.size()}) {
        if (cut > whole.size()) continue;
        const std::vector<std::byte> in(whole.begin(), whole.begin() + std::ptrdiff_t(cut));
        for (int level = 4; level <= 15; ++level) {
            if (ZSTD_getCParams(level, in.size(), 0).strategy > ZSTD_btlazy2) continue;
            SCOPED_TRACE("size " + std::to_string(cut) + ", level " + std::to_string(level));
            EXPECT_EQ(first_difference(libzstd_matches(in, level, 0), zest_matches(in, level, 0)), "");
        }
    }
}

// Inputs several windows long: every finder's candidates stop at the
// window's edge as the reference places it (from each block's end).
TEST_P(SameMatches, AsLibzstdThroughA128KiBWindow) {
    if (!oracle_usable()) GTEST_SKIP() << oracle_skip;
    std::vector<std::byte> in;
    while (in.size() < (1u << 20)) {
        const auto part = zest::test::corpus_shape(GetParam()).generate();
        in.insert(in.end(), part.begin(), part.end());
    }
    for (const int level : {4, 5, 6, 7, 9, 12, 13, 15}) {
        SCOPED_TRACE("level " + std::to_string(level));
        EXPECT_EQ(first_difference(libzstd_matches(in, level, 17), zest_matches(in, level, 17)), "");
    }
}

INSTANTIATE_TEST_SUITE_P(Corpus, SameMatches, ::testing::Values("text", "source", "json", "records", "int16", "int64"),
                         [](const auto& info) { return info.param; });

}  // namespace
