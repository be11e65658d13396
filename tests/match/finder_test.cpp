// The match finders (fast, dfast, greedy, lazy and lazy2 on the hash chain
// and on the row matcher, btlazy2), block by block over seeded inputs: the
// sequences they store are replayed by a small model of the decoder's
// sequence execution (RFC 8878 "Sequence Execution" and "Repeat Offsets")
// and must rebuild the input exactly, with every offset inside the window.
// A last test compares their output volume with libzstd's at the same level.
#define ZSTD_STATIC_LINKING_ONLY
#include <gtest/gtest.h>
#include <zstd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "compress/match_finder.hpp"
#include "compress/params.hpp"
#include "compress/seq_store.hpp"

namespace {

using zest::detail::compression_params;
using zest::detail::match_state;
using zest::detail::repeat_offsets;
using zest::detail::seq_store;
using zest::detail::stored_sequence;
using zest::detail::strategy;
using bytes = std::vector<std::uint8_t>;

constexpr std::size_t max_block = 128u << 10;

// ---------------------------------------------------------------- inputs

enum class kind { random, text, repetitive, zeros, int_columns, mixed, low_entropy };

const char* kind_name(kind k) {
    switch (k) {
        case kind::random: return "random";
        case kind::text: return "text";
        case kind::repetitive: return "repetitive";
        case kind::zeros: return "zeros";
        case kind::int_columns: return "int_columns";
        case kind::mixed: return "mixed";
        case kind::low_entropy: return "low_entropy";
    }
    return "?";
}

bytes make_text(std::size_t n, std::mt19937_64& rng) {
    // Words drawn with a skewed (roughly Zipf) distribution, with numbers,
    // punctuation and line breaks.
    std::vector<std::string> words;
    const char* letters = "etaoinshrdlcumwfgypbvkjxqz";
    for (int i = 0; i < 3000; ++i) {
        std::string w;
        const int len = 2 + int(rng() % 9);
        for (int j = 0; j < len; ++j) w += letters[std::min<std::size_t>(25, (rng() % 26) * (rng() % 26) / 25)];
        words.push_back(w);
    }
    bytes out;
    out.reserve(n);
    std::size_t line = 0;
    while (out.size() < n) {
        const double u = std::uniform_real_distribution<double>(0, 1)(rng);
        const std::size_t idx = std::size_t(std::pow(double(words.size()), u)) - 1;
        std::string piece = words[std::min(idx, words.size() - 1)];
        if (rng() % 17 == 0) piece = std::to_string(rng() % 100000);
        if (rng() % 11 == 0) piece += ",";
        line += piece.size() + 1;
        piece += line > 70 ? "\n" : " ";
        if (line > 70) line = 0;
        for (char c : piece) out.push_back(std::uint8_t(c));
    }
    out.resize(n);
    return out;
}

bytes make_input(kind k, std::size_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    bytes out(n);
    switch (k) {
        case kind::random:
            for (auto& b : out) b = std::uint8_t(rng());
            break;
        case kind::text: return make_text(n, rng);
        case kind::repetitive: {
            // Copies of earlier stretches (near and far), lightly mutated.
            std::size_t i = 0;
            while (i < n) {
                if (i < 64 || rng() % 4 == 0) {
                    const std::size_t len = std::min<std::size_t>(n - i, 1 + rng() % 40);
                    for (std::size_t j = 0; j < len; ++j) out[i + j] = std::uint8_t(rng());
                    i += len;
                } else {
                    const std::size_t dist = 1 + (rng() % 3 == 0 ? rng() % i : rng() % std::min<std::size_t>(i, 64));
                    const std::size_t len = std::min<std::size_t>(n - i, 3 + rng() % 300);
                    for (std::size_t j = 0; j < len; ++j) out[i + j] = out[i + j - dist];
                    if (len > 10 && rng() % 2) out[i + rng() % len] ^= std::uint8_t(1 + rng() % 255);
                    i += len;
                }
            }
            break;
        }
        case kind::zeros: break;
        case kind::int_columns: {
            // Rows of (counter, small value, 64-bit timestamp-ish) little-endian.
            std::uint32_t counter = std::uint32_t(rng());
            std::uint64_t ts = rng() >> 20;
            std::size_t i = 0;
            while (i < n) {
                std::uint8_t row[16];
                const std::uint32_t small = std::uint32_t(rng() % 7);
                std::memcpy(row, &counter, 4);
                std::memcpy(row + 4, &small, 4);
                std::memcpy(row + 8, &ts, 8);
                ++counter;
                ts += 1 + rng() % 3;
                const std::size_t len = std::min<std::size_t>(16, n - i);
                std::memcpy(out.data() + i, row, len);
                i += len;
            }
            break;
        }
        case kind::mixed: {
            std::size_t i = 0;
            std::uint64_t s = seed;
            while (i < n) {
                const std::size_t len = std::min<std::size_t>(n - i, 1000 + rng() % 40000);
                const bytes part = make_input(kind(rng() % 5), len, ++s * 7919);
                std::memcpy(out.data() + i, part.data(), len);
                i += len;
            }
            break;
        }
        case kind::low_entropy:
            for (auto& b : out) b = std::uint8_t("abcd"[rng() % 4]);
            break;
    }
    return out;
}

// ---------------------------------------------------------------- replayer

// The decoder's side, written from the RFC: Offset_Value > 3 is a new
// offset; 1..3 name repeat offsets, shifted by one when the literal length
// is 0, where 3 means Repeated_Offset1 - 1.
struct replayer {
    std::uint32_t rep[3] = {1, 4, 8};
    bytes out;
    struct match {
        std::size_t pos, len, offset;
        bool repeat;  // coded as a repeat offset
    };
    std::vector<match> matches;  // every match replayed, where it starts in `out`

    // Returns an empty string on success, else what went wrong.
    std::string block(const seq_store& s, std::size_t window) {
        std::size_t lit_pos = 0;
        for (std::size_t i = 0; i < s.n_seqs; ++i) {
            const stored_sequence& q = s.seqs[i];
            const std::uint32_t lit_len = s.lit_len(i), match_len = s.match_len(i);
            if (lit_len > s.n_lits - lit_pos) return "sequence " + std::to_string(i) + ": literals overrun";
            out.insert(out.end(), s.lits + lit_pos, s.lits + lit_pos + lit_len);
            lit_pos += lit_len;
            if (q.off_value == 0) return "sequence " + std::to_string(i) + ": offset value 0";
            std::uint32_t offset;
            if (q.off_value > 3) {
                offset = q.off_value - 3;
                rep[2] = rep[1], rep[1] = rep[0], rep[0] = offset;
            } else {
                unsigned code = q.off_value - (lit_len != 0 ? 1 : 0);  // 0..3
                if (code == 0) {
                    offset = rep[0];
                } else if (code == 3) {
                    offset = rep[0] - 1;
                    rep[2] = rep[1], rep[1] = rep[0], rep[0] = offset;
                } else if (code == 1) {
                    offset = rep[1];
                    rep[1] = rep[0], rep[0] = offset;
                } else {
                    offset = rep[2];
                    rep[2] = rep[1], rep[1] = rep[0], rep[0] = offset;
                }
            }
            if (match_len < 3) return "sequence " + std::to_string(i) + ": match length < 3";
            if (offset == 0 || offset > out.size())
                return "sequence " + std::to_string(i) + ": offset " + std::to_string(offset) + " beyond output " +
                       std::to_string(out.size());
            if (offset > window)
                return "sequence " + std::to_string(i) + ": offset " + std::to_string(offset) + " beyond window";
            matches.push_back({out.size(), match_len, offset, q.off_value <= 3});
            const std::size_t from = out.size() - offset;
            for (std::uint32_t j = 0; j < match_len; ++j) out.push_back(out[from + j]);
        }
        out.insert(out.end(), s.lits + lit_pos, s.lits + s.n_lits);
        return {};
    }
};

// ---------------------------------------------------------------- driver

using finder_fn = void (*)(match_state&, seq_store&, repeat_offsets&, std::size_t, std::size_t) noexcept;

struct run_stats {
    std::size_t lits = 0, seqs = 0;
};

// A finder's tables, kept from frame to frame as a context keeps them.
struct finder_tables {
    std::vector<std::uint32_t> hash, chain, hash3;
    std::vector<std::uint8_t> tags;
    std::unique_ptr<zest::detail::opt_workspace> opt;
    std::uint32_t next_frame = 0;  // the next frame's first position

    explicit finder_tables(const compression_params& p)
        : hash(zest::detail::hash_table_entries(p), 0),
          chain(std::max<std::size_t>(1, zest::detail::chain_table_entries(p)), 0),
          hash3(std::max<std::size_t>(1, zest::detail::hash3_table_entries(p)), 0),
          tags(std::max<std::size_t>(1, zest::detail::tag_table_entries(p)), 0),
          opt(new zest::detail::opt_workspace) {}
};

// Runs `finder` over `input` in blocks of at most `block` bytes (one frame),
// replays every block and checks it. With `exact_buffers`, each block sees
// its input through a buffer that starts at the frame's first byte and ends
// exactly at the block's end, so that an address sanitizer build catches
// reads outside it. With `tables`, the frame continues their positions (its
// first byte at their next_frame, older entries left in place) as a reused
// context does.
run_stats run_and_check(const bytes& input, const compression_params& p, finder_fn finder, std::size_t block,
                        bool exact_buffers, const std::string& what, finder_tables* tables = nullptr) {
    finder_tables own(tables ? compression_params{} : p);
    finder_tables& t = tables ? *tables : own;
    std::vector<std::uint8_t> lits(max_block);
    std::vector<stored_sequence> seqs(max_block / 3 + 1);
    match_state ms;
    ms.hash_table = t.hash.data();
    ms.chain_table = zest::detail::chain_table_entries(p) ? t.chain.data() : nullptr;
    ms.tag_table = zest::detail::tag_table_entries(p) ? t.tags.data() : nullptr;
    ms.hash3_table = t.hash3.data();
    ms.hash3_log = zest::detail::hash3_log(p);
    ms.opt = t.opt.get();
    ms.opt->stats.lit_len_sum = 0;  // a new frame
    ms.params = p;
    const std::size_t low = t.next_frame;
    ms.low = std::uint32_t(low);
    ms.next_to_update = ms.low;
    // btultra2 moves the tables' positions up after its first block.
    std::size_t shift = 0;
    repeat_offsets reps;
    replayer rp;
    run_stats st;
    const std::size_t window = std::size_t(1) << p.window_log;
    std::size_t begin = 0;
    bytes prefix;
    do {
        const std::size_t end = std::min(input.size(), begin + block);
        const std::uint8_t* first;
        if (exact_buffers) {
            prefix.assign(input.begin(), input.begin() + std::ptrdiff_t(end));
            prefix.shrink_to_fit();
            first = prefix.data();
        } else {
            first = input.data();
        }
        // Position `low` is the frame's first byte (base itself is never read).
        ms.base = reinterpret_cast<const std::uint8_t*>(reinterpret_cast<std::uintptr_t>(first) - low - shift);
        seq_store s;
        s.lits = lits.data();
        s.seqs = seqs.data();
        s.clear();
        const std::uint8_t* const base_before = ms.base;
        finder(ms, s, reps, low + shift + begin, low + shift + end);
        shift += std::size_t(base_before - ms.base);
        const std::size_t before = rp.out.size();
        const std::string err = rp.block(s, window);
        if (!err.empty()) {
            ADD_FAILURE() << what << ": block [" << begin << ", " << end << "): " << err;
            return st;
        }
        if (rp.out.size() - before != end - begin) {
            ADD_FAILURE() << what << ": block [" << begin << ", " << end << ") replays to "
                          << rp.out.size() - before << " bytes";
            return st;
        }
        if (!std::equal(input.begin() + std::ptrdiff_t(begin), input.begin() + std::ptrdiff_t(end),
                        rp.out.begin() + std::ptrdiff_t(before))) {
            ADD_FAILURE() << what << ": block [" << begin << ", " << end << ") replays to different bytes";
            return st;
        }
        // The compressor's view of the repeat offsets is the decoder's.
        for (int i = 0; i < 3; ++i)
            if (reps.rep[i] != rp.rep[i]) {
                ADD_FAILURE() << what << ": repeat offsets diverge after block at " << begin;
                return st;
            }
        st.lits += s.n_lits;
        st.seqs += s.n_seqs;
        begin = end;
    } while (begin < input.size());
    t.next_frame = std::uint32_t(low + shift + input.size());
    return st;
}

struct finder_case {
    const char* name;
    finder_fn fn;
    strategy strat;
    int window_log = 0;  // 0: the level's; else forced, to pick the hash chain (<= 14) or the rows
};
const finder_case finders[] = {
    {"fast", zest::detail::find_matches_fast, strategy::fast},
    {"dfast", zest::detail::find_matches_dfast, strategy::dfast},
    {"greedy", zest::detail::find_matches_lazy, strategy::greedy},
    {"lazy", zest::detail::find_matches_lazy, strategy::lazy},
    {"lazy2", zest::detail::find_matches_lazy, strategy::lazy2},
    {"greedy-hc", zest::detail::find_matches_lazy, strategy::greedy, 14},
    {"lazy-hc", zest::detail::find_matches_lazy, strategy::lazy, 14},
    {"lazy2-hc", zest::detail::find_matches_lazy, strategy::lazy2, 14},
    {"btlazy2", zest::detail::find_matches_btlazy2, strategy::btlazy2},
    {"btlazy2-w14", zest::detail::find_matches_btlazy2, strategy::btlazy2, 14},
    {"btopt", zest::detail::find_matches_opt, strategy::btopt},
    {"btultra", zest::detail::find_matches_opt, strategy::btultra},
    {"btultra2", zest::detail::find_matches_opt, strategy::btultra2},
    {"btultra2-w14", zest::detail::find_matches_opt, strategy::btultra2, 14},
};

// The row matcher's hash takes at least its row's bits (as the frame
// writer makes sure).
compression_params rows_fitted(compression_params p) {
    if (zest::detail::uses_row_matcher(p)) p.hash_log = std::max(p.hash_log, std::clamp(p.search_log, 4u, 6u));
    return p;
}

// The level's parameters for an input of `size` bytes, run with `f`'s
// strategy (and window).
compression_params for_finder(int level, std::uint64_t size, const finder_case& f) {
    compression_params p = zest::detail::params_for_level(level, size);
    p.strategy = f.strat;
    if (f.window_log) p.window_log = std::min<unsigned>(p.window_log, unsigned(f.window_log));
    return rows_fitted(p);
}

TEST(Finders, ReplayReproducesInput) {
    const std::size_t sizes[] = {0, 1, 5, 11, 12, 13, 16, 20, 33, 100, 1000, 4096, 20000, 65536 + 7, 300000};
    const kind kinds[] = {kind::random, kind::text, kind::repetitive, kind::zeros,
                          kind::int_columns, kind::mixed, kind::low_entropy};
    const int levels[] = {-100, -5, -1, 1, 2, 3, 4, 7, 12, 13, 15, 19};
    std::uint64_t seed = 1;
    for (kind k : kinds)
        for (std::size_t n : sizes) {
            const bytes input = make_input(k, n, seed++);
            for (int level : levels)
                for (const auto& f : finders) {
                    const compression_params p = for_finder(level, n, f);
                    const std::string what = std::string(f.name) + " " + kind_name(k) + " n=" + std::to_string(n) +
                                             " level " + std::to_string(level);
                    const std::size_t block = std::min<std::size_t>(max_block, std::size_t(1) << p.window_log);
                    run_and_check(input, p, f.fn, block, false, what);
                    if (testing::Test::HasFailure()) return;
                }
        }
}

// Large inputs in several blocks, with unknown size (full-size tables and
// window), odd block sizes and small windows that make the history slide.
TEST(Finders, MultiBlockAndSlidingWindow) {
    const kind kinds[] = {kind::text, kind::repetitive, kind::int_columns, kind::mixed, kind::zeros};
    std::uint64_t seed = 1000;
    for (kind k : kinds) {
        const bytes input = make_input(k, (1u << 20) + 12345, seed++);
        for (const auto& f : finders) {
            const std::vector<int> levels = f.strat >= strategy::btopt    ? std::vector<int>{19}
                                            : f.strat >= strategy::greedy ? std::vector<int>{6, 15}
                                                                          : std::vector<int>{-3, 1, 3};
            for (int level : levels) {
                // The optimal strategies with tables fitted to the input (the
                // level's full ones are tens of MiB: slow under the sanitizers).
                const bool opt = f.strat >= strategy::btopt;
                const compression_params p = for_finder(level, opt ? input.size() : UINT64_MAX, f);
                run_and_check(input, p, f.fn, max_block, false,
                              std::string(f.name) + " " + kind_name(k) + " 1MiB level " + std::to_string(level));
                if (!opt)
                    run_and_check(input, p, f.fn, 100001, false,
                                  std::string(f.name) + " " + kind_name(k) + " 1MiB blocks 100001");
            }
            for (unsigned wlog : {10u, 12u, 16u}) {
                compression_params p = for_finder(f.strat >= strategy::greedy ? 13 : 1, UINT64_MAX, f);
                p.window_log = wlog;
                // Chains and trees that wrap within the window.
                if (f.strat >= strategy::greedy) p.chain_log = std::min(p.chain_log, wlog - 1);
                p = rows_fitted(p);
                p.min_match = 4 + wlog % 4;  // 6, 4, 4: also a hash length other than 4 and 5
                for (std::size_t block : {std::size_t(1) << wlog, std::size_t(3000), max_block})
                    run_and_check(input, p, f.fn, block, false,
                                  std::string(f.name) + " " + kind_name(k) + " window 2^" + std::to_string(wlog) +
                                      " blocks " + std::to_string(block));
            }
            if (testing::Test::HasFailure()) return;
        }
    }
}

TEST(Finders, AllHashLengths) {
    const bytes input = make_input(kind::mixed, 400000, 77);
    for (const auto& f : finders) {
        for (unsigned mm : {3u, 4u, 5u, 6u, 7u, 8u}) {
            compression_params p = for_finder(f.strat >= strategy::greedy ? 12 : 3, input.size(), f);
            p.min_match = mm;
            p = rows_fitted(p);
            const run_stats st = run_and_check(input, p, f.fn, max_block, false,
                                               std::string(f.name) + " min_match " + std::to_string(mm));
            EXPECT_GT(st.seqs, 100u) << f.name << " min_match " << mm;
        }
    }
}

// Every block seen through a buffer that ends at the block's end (run under
// the address sanitizer build to catch reads past it).
TEST(Finders, NoReadPastBlockEnd) {
    std::uint64_t seed = 5000;
    for (kind k : {kind::text, kind::repetitive, kind::zeros, kind::low_entropy}) {
        const bytes input = make_input(k, 700000, seed++);
        for (const auto& f : finders) {
            for (int level : {-2, 1, 3, 13}) {
                const compression_params p = for_finder(level, input.size(), f);
                for (std::size_t block : {max_block, std::size_t(9), std::size_t(13), std::size_t(4099)}) {
                    if (block < 100 && input.size() > 50000) {
                        const bytes small(input.begin(), input.begin() + 50000);
                        run_and_check(small, p, f.fn, block, true, std::string(f.name) + " tiny blocks");
                    } else {
                        run_and_check(input, p, f.fn, block, true, std::string(f.name) + " exact buffers");
                    }
                }
            }
        }
    }
}

// Frames one after another on the same tables, as a reused context runs
// them: entries of the earlier frames are left in place, and must never be
// followed (each frame's buffer starts at its first byte, for the address
// sanitizer build to catch reads before it).
TEST(Finders, ReusedTablesStayInTheirFrame) {
    const bytes first = make_input(kind::text, 300000, 6001);
    const bytes again(first.begin() + 1000, first.begin() + 200000);  // the same text, to tempt stale entries
    const bytes other = make_input(kind::repetitive, 150000, 6002);
    for (const auto& f : finders) {
        for (int level : {1, 3, 5, 9, 13, 15}) {
            const compression_params p = for_finder(level, 300000, f);
            finder_tables tables(p);
            tables.next_frame = 1;
            for (const bytes* in : {&first, &again, &other, &first}) {
                run_and_check(*in, p, f.fn, max_block, true, std::string(f.name) + " reused tables", &tables);
                tables.next_frame += 1 + std::uint32_t(in->size() % 7);  // not always adjacent
            }
            if (testing::Test::HasFailure()) return;
        }
    }
}

// The finders must actually find matches: near-total coverage on
// repetitive data, and none to speak of on random bytes.
TEST(Finders, FindsWhatIsThere) {
    const bytes zeros = make_input(kind::zeros, 500000, 1);
    bytes twice = make_input(kind::random, 250000, 2);
    twice.insert(twice.end(), twice.begin(), twice.end());  // the second half repeats the first
    const bytes random = make_input(kind::random, 500000, 3);
    for (const auto& f : finders) {
        const compression_params p = for_finder(f.strat >= strategy::greedy ? 13 : 1, 500000, f);
        const run_stats z = run_and_check(zeros, p, f.fn, max_block, false, "zeros");
        EXPECT_LT(z.lits, 64u) << f.name;
        const run_stats t = run_and_check(twice, p, f.fn, max_block, false, "twice");
        EXPECT_GT(t.lits, 249000u) << f.name;
        if (p.window_log > 18) {  // the repeat is 250000 bytes back
            EXPECT_LT(t.lits, 251000u) << f.name;
        }
        const run_stats r = run_and_check(random, p, f.fn, max_block, false, "random");
        EXPECT_GT(r.lits, 499000u) << f.name;
    }
}

// ---------------------------------------------------------------- optimal parser

const finder_case optimal_finders[] = {
    {"btopt", zest::detail::find_matches_opt, strategy::btopt},
    {"btultra", zest::detail::find_matches_opt, strategy::btultra},
    {"btultra2", zest::detail::find_matches_opt, strategy::btultra2},
};

// The matches `f` finds in `input` (one frame, one block), replayed.
std::vector<replayer::match> optimal_parse(const bytes& input, const finder_case& f) {
    const compression_params p = for_finder(19, input.size(), f);
    finder_tables tables(p);
    tables.next_frame = 1;
    // run_and_check replays the blocks; replay them again to see the matches.
    std::vector<std::uint8_t> lits(max_block);
    std::vector<stored_sequence> seqs(max_block / 3 + 1);
    match_state ms;
    ms.hash_table = tables.hash.data();
    ms.chain_table = tables.chain.data();
    ms.hash3_table = tables.hash3.data();
    ms.hash3_log = zest::detail::hash3_log(p);
    ms.opt = tables.opt.get();
    ms.opt->stats.lit_len_sum = 0;
    ms.params = p;
    ms.low = 1;
    ms.next_to_update = 1;
    ms.base = input.data() - 1;
    seq_store s;
    s.lits = lits.data();
    s.seqs = seqs.data();
    s.clear();
    repeat_offsets reps;
    const std::uint8_t* const base_before = ms.base;
    zest::detail::find_matches_opt(ms, s, reps, 1, 1 + input.size());
    EXPECT_TRUE(ms.base == base_before || f.strat == strategy::btultra2);
    replayer rp;
    const std::string err = rp.block(s, std::size_t(1) << p.window_log);
    EXPECT_EQ(err, "") << f.name;
    EXPECT_TRUE(rp.out == input) << f.name << ": the parse does not replay to the input";
    return rp.matches;
}

bytes random_bytes(std::size_t n, std::mt19937_64& rng) {
    bytes b(n);
    for (auto& c : b) c = std::uint8_t(rng());
    return b;
}

// At `p` a 4-byte match starts, and right after it a 64-byte one at another
// offset: one literal then the long match costs less than the short match
// followed by the rest of the long one (two sequences), which a parser that
// takes the first match it sees would write.
TEST(OptimalParser, SkipsAShortMatchForALongOneAfterIt) {
    std::mt19937_64 rng(91);
    const bytes x = random_bytes(64, rng);
    bytes input = random_bytes(300, rng);
    // The short match's source: 'a', then x's first three bytes, then other bytes.
    input.push_back('a');
    input.insert(input.end(), x.begin(), x.begin() + 3);
    const bytes gap1 = random_bytes(200, rng);
    input.insert(input.end(), gap1.begin(), gap1.end());
    // The long match's source: x, preceded by a byte other than 'a'.
    input.push_back('q');
    input.insert(input.end(), x.begin(), x.end());
    const bytes gap2 = random_bytes(300, rng);
    input.insert(input.end(), gap2.begin(), gap2.end());
    const std::size_t p = input.size();
    input.push_back('a');
    input.insert(input.end(), x.begin(), x.end());
    const bytes tail = random_bytes(100, rng);
    input.insert(input.end(), tail.begin(), tail.end());
    const std::size_t long_offset = p + 1 - (300 + 4 + 200 + 1);

    for (const auto& f : optimal_finders) {
        const auto matches = optimal_parse(input, f);
        bool found = false;
        for (const auto& m : matches) {
            EXPECT_NE(m.pos, p) << f.name << ": took the short match";
            if (m.pos == p + 1) {
                found = true;
                EXPECT_GE(m.len, 64u) << f.name;
                EXPECT_EQ(m.offset, long_offset) << f.name;
            }
        }
        EXPECT_TRUE(found) << f.name << ": no match right after the short one";
    }
}

// A copy of 4000 random bytes with one byte changed every 50: the cheapest
// parse matches each stretch at the same offset, the first time as a new
// offset and then as the repeat offset after each changed byte (a literal),
// which only works if the parser tracks the repeat offsets along its path.
TEST(OptimalParser, RepeatOffsetsAlongThePath) {
    std::mt19937_64 rng(92);
    const bytes y = random_bytes(4000, rng);
    bytes input = y;
    bytes copy = y;
    for (std::size_t i = 25; i < copy.size(); i += 50) copy[i] ^= 0x5A;
    input.insert(input.end(), copy.begin(), copy.end());
    const bytes tail = random_bytes(16, rng);  // the last 8 bytes start no match
    input.insert(input.end(), tail.begin(), tail.end());

    for (const auto& f : optimal_finders) {
        const auto matches = optimal_parse(input, f);
        std::size_t in_copy = 0, repeats = 0, covered = 0;
        for (const auto& m : matches) {
            if (m.pos < 4000) continue;  // chance matches in the random bytes may pay
            EXPECT_EQ(m.offset, 4000u) << f.name << ": a match at " << m.pos;
            ++in_copy;
            repeats += m.repeat;
            covered += m.len;
        }
        // 80 changed bytes cut the copy into 81 stretches.
        EXPECT_EQ(in_copy, 81u) << f.name;
        EXPECT_GE(repeats, in_copy - 1) << f.name << ": every match after the first is a repeat";
        EXPECT_GE(covered, 4000u - 80u) << f.name;
        EXPECT_LE(covered, 4000u - 80u + 8u) << f.name;  // the last may run on by chance
    }
}

// ---------------------------------------------------------------- quality

// libzstd's sequences for the same input and level (one frame, its blocks).
run_stats libzstd_stats(const bytes& input, int level) {
    ZSTD_CCtx* cctx = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level);
    // Without the block splitter of the optimal levels: with it, libzstd
    // 1.5.4 reports the sequences of a split block more than once (and the
    // finders do not split blocks, the frame writer does).
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_experimentalParam13, 2 /* ZSTD_ps_disable */);
    std::vector<ZSTD_Sequence> seqs(ZSTD_sequenceBound(input.size()));
    const std::size_t n = ZSTD_generateSequences(cctx, seqs.data(), seqs.size(), input.data(), input.size());
    ZSTD_freeCCtx(cctx);
    run_stats st;
    if (ZSTD_isError(n)) {
        ADD_FAILURE() << "ZSTD_generateSequences: " << ZSTD_getErrorName(n);
        return st;
    }
    for (std::size_t i = 0; i < n; ++i) {
        st.lits += seqs[i].litLength;
        if (seqs[i].matchLength != 0) ++st.seqs;
    }
    return st;
}

const char* strategy_name(strategy s) {
    const char* const names[] = {"fast", "dfast", "greedy", "lazy", "lazy2", "btlazy2", "btopt", "btultra", "btultra2"};
    return names[int(s) - 1];
}

TEST(Finders, QualityAgainstLibzstd) {
    struct q_case {
        const char* name;
        bytes data;
    };
    const q_case cases[] = {{"text", make_input(kind::text, 1u << 20, 42)},
                            {"int_columns", make_input(kind::int_columns, 1u << 20, 43)},
                            {"repetitive", make_input(kind::repetitive, 1u << 20, 44)},
                            {"text 100k", make_input(kind::text, 100000, 45)}};
    for (const auto& c : cases) {
        for (int level : {-5, -1, 1, 2, 3, 4, 5, 6, 7, 9, 12, 13, 14, 15, 16, 17, 19, 22}) {
            const compression_params p = rows_fitted(zest::detail::params_for_level(level, c.data.size()));
            const std::size_t block = std::min<std::size_t>(max_block, std::size_t(1) << p.window_log);
            const run_stats ours =
                run_and_check(c.data, p, zest::detail::find_matches, block, false, std::string("quality ") + c.name);
            const run_stats ref = libzstd_stats(c.data, level);
            std::printf("%-12s level %2d (%-7s): literals %8zu vs libzstd %8zu (%+.2f%%), sequences %7zu vs %7zu\n",
                        c.name, level, strategy_name(p.strategy), ours.lits, ref.lits,
                        ref.lits ? 100.0 * (double(ours.lits) - double(ref.lits)) / double(ref.lits) : 0.0, ours.seqs,
                        ref.seqs);
            // Same algorithm and parameters: the volumes must be close.
            const double tol = 0.03 * double(ref.lits) + 64;
            EXPECT_LE(double(ours.lits), double(ref.lits) + tol) << c.name << " level " << level;
            EXPECT_GE(double(ours.lits), double(ref.lits) - tol) << c.name << " level " << level;
            EXPECT_LE(double(ours.seqs), 1.05 * double(ref.seqs) + 16) << c.name << " level " << level;
            EXPECT_GE(double(ours.seqs), 0.95 * double(ref.seqs) - 16) << c.name << " level " << level;
        }
    }
}

}  // namespace
