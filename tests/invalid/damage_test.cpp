// Damaged versions of small valid inputs: every truncation, every single-bit
// flip, and seeded random corruption. zest must never crash, never write
// past the destination, and only succeed where success is right.
#include <gtest/gtest.h>

#include <cstdio>

#include "attempt.hpp"
#include "frames.hpp"
#include "samples.hpp"

namespace zest::test {
namespace {

std::string sample_param_name(const ::testing::TestParamInfo<std::string>& info) { return info.param; }

// --- the samples are what their names say --------------------------------------

TEST(Samples, HaveTheIntendedStructure) {
    const auto first_literals_type = [](const sample& s) {
        const auto blocks = walk_blocks(s.frames);
        EXPECT_FALSE(blocks.empty()) << s.name;
        if (blocks.empty() || blocks[0].type != block_type::compressed) return -1;
        return static_cast<int>(s.frames[blocks[0].offset + 3]) & 3;
    };
    // Number of sequences in a compressed block (after its literals section).
    const auto sequence_count = [](const sample& s, const block_info& b) -> long {
        if (b.type != block_type::compressed) return -1;
        const std::byte* p = s.frames.data() + b.offset + 3;
        std::uint64_t h = 0;
        for (int i = 4; i >= 0; --i) h = h << 8 | static_cast<std::uint64_t>(p[i]);
        const unsigned type = h & 3, format = (h >> 2) & 3;
        std::size_t size = 0;
        if (type < 2) {
            const std::size_t header = format == 1 ? 2 : format == 3 ? 3 : 1;
            const std::size_t regen = format == 1 ? (h >> 4) & 0xFFF : format == 3 ? (h >> 4) & 0xFFFFF : (h >> 3) & 0x1F;
            size = header + (type == 0 ? regen : 1);
        } else {
            size = format < 2 ? 3 + ((h >> 14) & 0x3FF) : format == 2 ? 4 + ((h >> 18) & 0x3FFF) : 5 + ((h >> 22) & 0x3FFFF);
        }
        const auto* q = reinterpret_cast<const unsigned char*>(p + size);
        return q[0] < 128 ? q[0] : q[0] < 255 ? ((q[0] - 128) << 8) + q[1] : q[1] + (q[2] << 8) + 0x7F00;
    };
    for (const sample& s : samples()) {
        SCOPED_TRACE(s.name);
        const reference_result ref = libzstd_decompress(s.frames, s.content.size());
        ASSERT_TRUE(ref.ok) << ref.error;
        ASSERT_TRUE(same_bytes(ref.out, s.content));
        EXPECT_EQ(s.frame_ends.back(), s.frames.size());
    }
    EXPECT_EQ(first_literals_type(sample_named("huffman")), 2) << "Huffman-compressed literals";
    EXPECT_EQ(first_literals_type(sample_named("text_checksum")), 2);
    EXPECT_EQ(walk_blocks(sample_named("rle").frames).at(1).type, block_type::rle);
    EXPECT_EQ(walk_blocks(sample_named("raw").frames).at(0).type, block_type::raw);
    EXPECT_GE(walk_blocks(sample_named("stream").frames).size(), 5u);
    const sample& seq = sample_named("sequences");
    EXPECT_GE(sequence_count(seq, walk_blocks(seq.frames).at(0)), 500) << "many sequences";
    std::printf("[ info     ] sequences: %ld in %zu bytes\n", sequence_count(seq, walk_blocks(seq.frames).at(0)), seq.frames.size());
}

// --- truncation ---------------------------------------------------------------------

class Truncation : public ::testing::TestWithParam<std::string> {};

TEST_P(Truncation, EveryPrefixFailsUnlessItEndsAtAFrameBoundary) {
    const sample& s = sample_named(GetParam());
    const std::size_t capacity = s.content.size() + 64;
    decompressor reused;
    failure_budget budget;
    for (std::size_t len = 1; len < s.frames.size(); ++len) {
        const std::span<const std::byte> prefix = std::span(s.frames).first(len);
        const auto end = std::find(s.frame_ends.begin(), s.frame_ends.end(), len);
        const attempt a = try_decompress(prefix, capacity);
        const attempt b = try_decompress(prefix, capacity, &reused);
        if (a.overrun && budget.report()) ADD_FAILURE() << "prefix " << len << ": wrote past the destination";
        if (!same_outcome(a, b) && budget.report())
            ADD_FAILURE() << "prefix " << len << ": one-shot and reused decompressor differ: " << same_outcome(a, b).message();

        if (end != s.frame_ends.end()) {
            // A complete sequence of frames: valid, decodes to the matching prefix.
            const std::size_t want = s.content_at[static_cast<std::size_t>(end - s.frame_ends.begin())];
            if (!a.ok) {
                if (budget.report()) ADD_FAILURE() << "prefix " << len << " ends at a frame boundary but failed: " << describe(a);
            } else if (!same_bytes(a.out, std::span(s.content).first(want)) && budget.report()) {
                ADD_FAILURE() << "prefix " << len << ": " << same_bytes(a.out, std::span(s.content).first(want)).message();
            }
            continue;
        }
        const reference_result ref = libzstd_decompress(prefix, capacity);
        if (ref.ok && budget.report()) ADD_FAILURE() << "prefix " << len << ": libzstd accepts it (test bug?)";
        if (a.ok) {
            if (budget.report()) ADD_FAILURE() << "prefix " << len << " of " << s.frames.size() << ": success ("
                                               << a.out.size() << " bytes) on truncated input";
        } else if (a.error != errc::truncated_input && budget.report()) {
            ADD_FAILURE() << "prefix " << len << " of " << s.frames.size() << ": expected truncated_input, got "
                          << errc_name(a.error);
        }
        if (len < s.frame_ends[0]) {
            const auto size = find_frame_compressed_size(prefix);
            if ((size.has_value() || size.error() != errc::truncated_input) && budget.report())
                ADD_FAILURE() << "prefix " << len << ": find_frame_compressed_size gives "
                              << (size ? std::to_string(*size) : std::string(errc_name(size.error())));
        }
        // The context must be fully usable after an error.
        if (len % 61 == 0) {
            const attempt full = try_decompress(s.frames, capacity, &reused);
            if ((!full.ok || full.out != s.content) && budget.report())
                ADD_FAILURE() << "after the error on prefix " << len << ", the reused context fails on valid input: "
                              << describe(full);
        }
    }
    EXPECT_EQ(budget.count(), 0) << "failures in total (the first few are shown above)";
}

INSTANTIATE_TEST_SUITE_P(Samples, Truncation, ::testing::ValuesIn(sample_names()), sample_param_name);

// --- bit flips and random corruption ---------------------------------------------------

struct damage_stats {
    int tried = 0, zest_ok = 0, libzstd_ok = 0, only_zest_ok = 0, only_libzstd_ok = 0;
    void print(const std::string& what) const {
        std::printf("[ stats    ] %s: %d inputs, zest accepted %d, libzstd accepted %d, only zest %d, only libzstd %d\n",
                    what.c_str(), tried, zest_ok, libzstd_ok, only_zest_ok, only_libzstd_ok);
    }
};

// Runs one damaged input through zest (one-shot and reused context) and
// libzstd. Success is allowed, but a checksummed sample can then only decode
// to its original content, and when both decoders succeed they must agree.
void check_damaged(const sample& s, std::span<const std::byte> damaged, const std::string& what,
                   decompressor& reused, failure_budget& budget, damage_stats& stats) {
    const std::size_t capacity = 2 * s.content.size() + 4096;
    const attempt a = try_decompress(damaged, capacity);
    const attempt b = try_decompress(damaged, capacity, &reused);
    const reference_result ref = libzstd_decompress(damaged, capacity);
    ++stats.tried;
    stats.zest_ok += a.ok;
    stats.libzstd_ok += ref.ok;
    stats.only_zest_ok += a.ok && !ref.ok;
    stats.only_libzstd_ok += !a.ok && ref.ok;
    if (a.overrun && budget.report()) ADD_FAILURE() << what << ": wrote past the destination";
    const auto same = same_outcome(a, b);
    if (!same && budget.report()) ADD_FAILURE() << what << ": one-shot and reused decompressor differ: " << same.message();
    if (!a.ok) return;
    if (s.all_checksummed && a.out != s.content && budget.report())
        ADD_FAILURE() << what << ": accepted with a checksum, but " << same_bytes(a.out, s.content).message();
    if (ref.ok && a.out != ref.out && budget.report())
        ADD_FAILURE() << what << ": zest and libzstd both accept it but decode differently: "
                      << same_bytes(a.out, ref.out).message();
}

class BitFlip : public ::testing::TestWithParam<std::string> {};

TEST_P(BitFlip, EveryBitOfTheInput) {
    const sample& s = sample_named(GetParam());
    decompressor reused;
    failure_budget budget;
    damage_stats stats;
    bytes damaged = s.frames;
    for (std::size_t i = 0; i < damaged.size(); ++i) {
        for (unsigned bit = 0; bit < 8; ++bit) {
            damaged[i] ^= std::byte{1} << bit;
            check_damaged(s, damaged, "byte " + std::to_string(i) + " bit " + std::to_string(bit), reused,
                          budget, stats);
            damaged[i] ^= std::byte{1} << bit;
        }
    }
    stats.print(s.name + " bit flips");
    EXPECT_EQ(budget.count(), 0) << "failures in total (the first few are shown above)";
}

INSTANTIATE_TEST_SUITE_P(Samples, BitFlip, ::testing::ValuesIn(sample_names()), sample_param_name);

class RandomCorruption : public ::testing::TestWithParam<std::string> {};

TEST_P(RandomCorruption, SeededMutations) {
    const sample& s = sample_named(GetParam());
    std::uint64_t seed = 0xcbf29ce484222325ull;  // FNV-1a of the name: the same on every platform
    for (char c : s.name) seed = (seed ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
    rng r(seed);
    decompressor reused;
    failure_budget budget;
    damage_stats stats;
    const auto pos = [&](std::size_t n) { return static_cast<std::size_t>(r.below(static_cast<std::uint32_t>(n))); };
    for (int iter = 0; iter < 3000; ++iter) {
        bytes d = s.frames;
        std::string how;
        switch (r.below(6)) {
            case 0:  // a few random bytes
                for (unsigned k = r.range(1, 4); k > 0; --k) d[pos(d.size())] = static_cast<std::byte>(r.next());
                how = "random bytes";
                break;
            case 1: {  // a zeroed range
                const std::size_t at = pos(d.size()), n = std::min<std::size_t>(d.size() - at, r.range(1, 64));
                std::fill_n(d.begin() + static_cast<std::ptrdiff_t>(at), n, std::byte{0});
                how = "zeroed range";
                break;
            }
            case 2: {  // a range copied from elsewhere in the input
                const std::size_t from = pos(d.size()), to = pos(d.size());
                const std::size_t n = std::min({d.size() - from, d.size() - to, std::size_t{r.range(1, 128)}});
                std::copy_n(s.frames.begin() + static_cast<std::ptrdiff_t>(from), n,
                            d.begin() + static_cast<std::ptrdiff_t>(to));
                how = "copied range";
                break;
            }
            case 3: {  // bytes removed
                const std::size_t at = pos(d.size()), n = std::min<std::size_t>(d.size() - at, r.range(1, 16));
                d.erase(d.begin() + static_cast<std::ptrdiff_t>(at), d.begin() + static_cast<std::ptrdiff_t>(at + n));
                how = "removed bytes";
                break;
            }
            case 4: {  // bytes inserted
                const std::size_t at = pos(d.size() + 1);
                const bytes extra = random_bytes(r.range(1, 16), r.next());
                d.insert(d.begin() + static_cast<std::ptrdiff_t>(at), extra.begin(), extra.end());
                how = "inserted bytes";
                break;
            }
            default:  // the last bytes replaced
                for (std::size_t k = d.size() - std::min<std::size_t>(d.size(), r.range(1, 12)); k < d.size(); ++k)
                    d[k] = static_cast<std::byte>(r.next());
                how = "replaced tail";
                break;
        }
        check_damaged(s, d, "mutation " + std::to_string(iter) + " (" + how + ")", reused, budget, stats);
    }
    stats.print(s.name + " random corruption");
    EXPECT_EQ(budget.count(), 0) << "failures in total (the first few are shown above)";
}

INSTANTIATE_TEST_SUITE_P(Samples, RandomCorruption, ::testing::ValuesIn(sample_names()), sample_param_name);

}  // namespace
}  // namespace zest::test
