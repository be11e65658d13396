// How far back a frame may reach, into its dictionary or beyond its window,
// whichever path reads it. The format's text ends the dictionary's reach once a window's worth
// of output exists, but libzstd reads matches into it later too (one-shot,
// and streaming until its buffer wraps), and frames of the reference's
// generator (decodecorpus --use-dict) carry a repeat offset into it past
// that point. zest's one-shot and streaming decoders give one answer:
// matches wholly inside the dictionary are read at any distance; a match
// that runs from the dictionary into output the stream no longer holds is
// refused by the stream alone (tests/known_differences.md). Offsets beyond
// the window likewise, while the stream still holds their bytes. Frames
// built by hand (tests/unit/test_util.hpp): a 1 KiB window, a 4 KiB raw
// dictionary.
#include <gtest/gtest.h>

#include <cstring>

#include <zstd.h>

#include "dict_support.hpp"
#include "stream_driver.hpp"
#include "test_util.hpp"
#include "zest/zest.hpp"

namespace zest::test {
namespace {

using zest_test::block_type;
using zest_test::put_block;
using zest_test::raw_literals_section;
using zest_test::rle_sequences_section;
using zest_test::sequence;
using u8bytes = zest_test::bytes;

constexpr std::size_t dict_size = 4096;

const u8bytes& dict_content() {
    static const u8bytes d = zest_test::pseudo_random_bytes(dict_size, 71);
    return d;
}

// A compressed block: raw literals, one sequence (RLE modes).
u8bytes one_sequence_block(const u8bytes& lits, std::uint32_t offset_value, std::uint32_t match_length) {
    u8bytes b = raw_literals_section(lits);
    const u8bytes seq = rle_sequences_section({sequence{std::uint32_t(lits.size()), offset_value, match_length}});
    b.insert(b.end(), seq.begin(), seq.end());
    return b;
}

struct built {
    u8bytes frame;
    u8bytes content;  // what it decodes to, computed here
};

// 10 literals, then a match of 100 from 3510 back (3500 into the
// dictionary), which leaves 3510 as the repeat offset; `raw_blocks` raw
// blocks of 1 KiB; then 5 literals and a match of `last_match` with that
// repeat offset, which now starts 3510 - 3187 = 323 bytes before the
// dictionary's end (past 3 KiB of output with a 1 KiB window).
built frame_with_late_repeat(std::size_t raw_blocks, std::uint32_t last_match) {
    const u8bytes& d = dict_content();
    built b;
    b.frame = zest_test::frame_start(0);  // window 2^10
    u8bytes lits = zest_test::pseudo_random_bytes(10, 72);
    put_block(b.frame, block_type::compressed, one_sequence_block(lits, 3510 + 3, 100), false);
    // The model: the dictionary, then the frame's output, one address space.
    u8bytes all = d;
    all.insert(all.end(), lits.begin(), lits.end());
    for (std::size_t i = 0; i < 100; ++i) all.push_back(all[all.size() - 3510]);
    for (std::size_t k = 0; k < raw_blocks; ++k) {
        const u8bytes raw = zest_test::pseudo_random_bytes(1024, unsigned(80 + k));
        put_block(b.frame, block_type::raw, raw, false);
        all.insert(all.end(), raw.begin(), raw.end());
    }
    lits = zest_test::pseudo_random_bytes(5, 73);
    put_block(b.frame, block_type::compressed, one_sequence_block(lits, 1, last_match), true);
    all.insert(all.end(), lits.begin(), lits.end());
    for (std::size_t i = 0; i < last_match; ++i) all.push_back(all[all.size() - 3510]);
    b.content.assign(all.begin() + std::ptrdiff_t(dict_size), all.end());
    return b;
}

bytes as_std(const u8bytes& b) {
    bytes out(b.size());
    std::memcpy(out.data(), b.data(), b.size());
    return out;
}

const zest::dictionary& dict() {
    static const zest::dictionary d =
        *zest::dictionary::load(as_std(dict_content()), zest::dictionary_content::raw);
    return d;
}

bool libzstd_one_shot(const built& b) {
    std::vector<std::uint8_t> out(b.content.size() + 64);
    ZSTD_DCtx* dctx = ZSTD_createDCtx();
    const std::size_t n = ZSTD_decompress_usingDict(dctx, out.data(), out.size(), b.frame.data(), b.frame.size(),
                                                    dict_content().data(), dict_content().size());
    ZSTD_freeDCtx(dctx);
    return !ZSTD_isError(n) && n == b.content.size() && std::memcmp(out.data(), b.content.data(), n) == 0;
}

zest::errc zest_one_shot(const built& b, bytes& out) {
    out.assign(b.content.size() + 64, std::byte{0});
    const auto n = zest::decompress(std::span<std::byte>(out), as_std(b.frame), dict());
    if (!n) return n.error();
    out.resize(*n);
    return zest::errc{};
}

TEST(DictionaryReach, RepeatOffsetIntoTheDictionaryAfterTheWindow) {
    for (const std::size_t raw_blocks : {std::size_t(0), std::size_t(1), std::size_t(3)}) {
        const built b = frame_with_late_repeat(raw_blocks, 50);
        const std::string what = std::to_string(raw_blocks) + " raw blocks";
        ASSERT_TRUE(libzstd_one_shot(b)) << what << ": the model and libzstd disagree";
        bytes one;
        ASSERT_EQ(zest_one_shot(b, one), zest::errc{}) << what;
        EXPECT_TRUE(one == as_std(b.content)) << what;
        // Streamed in every buffer pattern: the same bytes.
        for (const auto& p : streaming::patterns()) {
            zest::decompress_stream ds;
            ASSERT_TRUE(ds.set_dictionary(dict()).has_value());
            const auto r = streaming::stream_decode(ds, as_std(b.frame), p.in, p.out);
            ASSERT_EQ(r.error, zest::errc{}) << what << ", " << p.name << ": " << zest::error_message(r.error);
            EXPECT_TRUE(r.out == as_std(b.content)) << what << ", " << p.name;
        }
    }
}

// The last match runs 323 bytes from the dictionary into the frame's first
// bytes, which a stream that has wrapped its 1 KiB-window buffer no longer
// holds: one-shot decoding (zest's and libzstd's) reads it, the stream
// refuses it with a clear error. Before the wrap (no raw blocks), both read it.
TEST(DictionaryReach, MatchFromTheDictionaryIntoOutputNoLongerHeld) {
    for (const std::size_t raw_blocks : {std::size_t(0), std::size_t(3)}) {
        const built b = frame_with_late_repeat(raw_blocks, 400);
        const std::string what = std::to_string(raw_blocks) + " raw blocks";
        ASSERT_TRUE(libzstd_one_shot(b)) << what;
        bytes one;
        ASSERT_EQ(zest_one_shot(b, one), zest::errc{}) << what;
        EXPECT_TRUE(one == as_std(b.content)) << what;
        zest::decompress_stream ds;
        ASSERT_TRUE(ds.set_dictionary(dict()).has_value());
        const auto r = streaming::stream_decode(
            ds, as_std(b.frame), [](std::size_t) { return std::size_t(1) << 20; },
            [](std::size_t) { return std::size_t(1) << 20; });
        if (raw_blocks == 0) {
            EXPECT_EQ(r.error, zest::errc{}) << what;
            EXPECT_TRUE(r.out == as_std(b.content)) << what;
        } else {
            EXPECT_EQ(r.error, zest::errc::offset_invalid) << what;
        }
    }
}

// Past the dictionary's start: refused everywhere.
TEST(DictionaryReach, BeforeTheDictionaryIsCorrupt) {
    built b;
    b.frame = zest_test::frame_start(0);
    put_block(b.frame, block_type::compressed,
              one_sequence_block(zest_test::pseudo_random_bytes(10, 74), 10 + dict_size + 1 + 3, 20), true);
    bytes out;
    EXPECT_EQ(zest_one_shot(b, out), zest::errc::offset_invalid);
    zest::decompress_stream ds;
    ASSERT_TRUE(ds.set_dictionary(dict()).has_value());
    const auto r = streaming::stream_decode(ds, as_std(b.frame), [](std::size_t) { return std::size_t(4096); },
                                            [](std::size_t) { return std::size_t(4096); });
    EXPECT_EQ(r.error, zest::errc::offset_invalid);
}

// Without a dictionary: offsets beyond the window. The one-shot decoder
// (as libzstd) reads them; the stream reads them while its buffer (window +
// one block + slack) still holds their bytes, and refuses them once it does
// not. A 1 KiB window, two raw blocks of 1 KiB, then a block whose match
// starts `offset` back; the stream's buffer has wrapped by then.
built frame_with_far_offset(std::uint32_t offset, std::uint32_t match_length) {
    built b;
    b.frame = zest_test::frame_start(0);
    u8bytes all;
    for (unsigned k = 0; k < 2; ++k) {
        const u8bytes raw = zest_test::pseudo_random_bytes(1024, 90 + k);
        put_block(b.frame, block_type::raw, raw, false);
        all.insert(all.end(), raw.begin(), raw.end());
    }
    const u8bytes lits = zest_test::pseudo_random_bytes(2, 92);
    put_block(b.frame, block_type::compressed, one_sequence_block(lits, offset + 3, match_length), true);
    all.insert(all.end(), lits.begin(), lits.end());
    for (std::size_t i = 0; i < match_length; ++i) all.push_back(all[all.size() - offset]);
    b.content = all;
    return b;
}

TEST(DictionaryReach, OffsetBeyondTheWindowWhileTheStreamHoldsIt) {
    for (const std::uint32_t offset : {1000u, 1100u, 1500u, 2000u}) {
        const built b = frame_with_far_offset(offset, 100);
        const std::string what = "offset " + std::to_string(offset);
        std::vector<std::uint8_t> lib(b.content.size() + 64);
        const std::size_t n = ZSTD_decompress(lib.data(), lib.size(), b.frame.data(), b.frame.size());
        ASSERT_FALSE(ZSTD_isError(n)) << what << ": " << ZSTD_getErrorName(n);
        ASSERT_TRUE(n == b.content.size() && std::memcmp(lib.data(), b.content.data(), n) == 0) << what;
        bytes one(b.content.size() + 64);
        const auto r1 = zest::decompress(std::span<std::byte>(one), as_std(b.frame));
        ASSERT_TRUE(r1.has_value()) << what << ": " << zest::error_message(r1.error());
        one.resize(*r1);
        EXPECT_TRUE(one == as_std(b.content)) << what;
        for (const auto& p : streaming::patterns()) {
            zest::decompress_stream ds;
            const auto r = streaming::stream_decode(ds, as_std(b.frame), p.in, p.out);
            if (offset <= 1500) {
                // 1500 - 2 = 1498 bytes back in a buffer of 2048 + slack,
                // 100 of which the match writes: still there.
                ASSERT_EQ(r.error, zest::errc{}) << what << ", " << p.name << ": " << zest::error_message(r.error);
                EXPECT_TRUE(r.out == as_std(b.content)) << what << ", " << p.name;
            } else {
                EXPECT_EQ(r.error, zest::errc::offset_invalid) << what << ", " << p.name;
            }
        }
    }
}

}  // namespace
}  // namespace zest::test
