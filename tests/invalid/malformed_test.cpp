// Specific malformations, each with the error code it must produce. Where
// the reference library can judge the same input, it must reject it too (so
// the test input really is invalid).
#include <gtest/gtest.h>

#include <system_error>

#include "attempt.hpp"
#include "frames.hpp"
#include "samples.hpp"

namespace zest::test {
namespace {

// zest rejects `src` (one-shot, pointer form, reused context, vector
// overload), with `want` unless want is empty, and libzstd agrees when
// `libzstd_too`.
void expect_rejected(std::span<const std::byte> src, std::size_t capacity, std::initializer_list<errc> want,
                     bool libzstd_too = true) {
    const attempt a = try_decompress(src, capacity);
    EXPECT_FALSE(a.overrun) << "wrote past the destination";
    if (a.ok) {
        ADD_FAILURE() << "accepted (" << a.out.size() << " bytes)";
    } else if (want.size() != 0 && std::find(want.begin(), want.end(), a.error) == want.end()) {
        std::string names;
        for (errc e : want) names += std::string(names.empty() ? "" : " or ") + errc_name(e);
        ADD_FAILURE() << "got " << errc_name(a.error) << ", expected " << names;
    }
    decompressor& d = shared_decompressor();
    const attempt b = try_decompress(src, capacity, &d);
    EXPECT_TRUE(same_outcome(a, b)) << "one-shot vs reused decompressor";
    try {
        (void)decompress(src);
        ADD_FAILURE() << "vector overload accepted it";
    } catch (const std::system_error& e) {
        if (!a.ok) {
            EXPECT_EQ(e.code(), make_error_code(a.error)) << "vector overload: " << e.what();
        }
    } catch (const std::exception& e) {
        ADD_FAILURE() << "vector overload threw something else: " << e.what();
    }
    if (libzstd_too) {
        const reference_result ref = libzstd_decompress(src, capacity);
        EXPECT_FALSE(ref.ok) << "libzstd accepts this input (test bug?)";
    }
}

bytes with_byte(std::span<const std::byte> src, std::size_t at, std::byte v) {
    bytes b(src.begin(), src.end());
    b.at(at) = v;
    return b;
}

// --- checksum --------------------------------------------------------------------------

TEST(Malformed, WrongChecksumEveryBit) {
    for (const char* name : {"text_checksum", "huffman", "sequences", "raw", "stream"}) {
        const sample& s = sample_named(name);
        for (unsigned bit = 0; bit < 32; ++bit) {
            SCOPED_TRACE(std::string(name) + ", checksum bit " + std::to_string(bit));
            bytes f = s.frames;
            f[f.size() - 4 + bit / 8] ^= std::byte{1} << (bit % 8);
            expect_rejected(f, s.content.size(), {errc::checksum_mismatch});
        }
    }
}

TEST(Malformed, WrongChecksumInASecondFrame) {
    const sample& s = sample_named("text_checksum");
    bytes f = s.frames;
    bytes second = s.frames;
    second.back() ^= std::byte{0x80};
    append(f, second);
    expect_rejected(f, 2 * s.content.size(), {errc::checksum_mismatch});
}

// --- frame header ---------------------------------------------------------------------------

TEST(Malformed, ReservedDescriptorBit) {
    for (const sample& s : samples()) {
        if (s.name == "multi") continue;  // starts with a skippable frame
        SCOPED_TRACE(s.name);
        const bytes f = with_byte(s.frames, 4, s.frames[4] | std::byte{0x08});
        expect_rejected(f, s.content.size(), {errc::reserved_bit_set, errc::frame_header_invalid});
        EXPECT_FALSE(frame_content_size(f).has_value()) << "frame_content_size accepts a reserved bit";
    }
    frame_header_spec h;
    h.reserved_bit = true;
    h.single_segment = true;
    h.fcs_field_size = 1;
    h.content_size = 3;
    bytes f = frame_header(h);
    put_raw_block(f, true, to_bytes("abc"));
    expect_rejected(f, 3, {errc::reserved_bit_set, errc::frame_header_invalid});
}

TEST(Malformed, WrongMagic) {
    const sample& s = sample_named("text_checksum");
    for (std::size_t i = 0; i < 4; ++i) {
        for (unsigned x : {0x01u, 0x10u, 0x80u, 0xFFu}) {
            SCOPED_TRACE("magic byte " + std::to_string(i) + " xor " + std::to_string(x));
            const bytes f = with_byte(s.frames, i, s.frames[i] ^ static_cast<std::byte>(x));
            expect_rejected(f, s.content.size(), {errc::unknown_frame});
            const auto fcs = frame_content_size(f);
            ASSERT_FALSE(fcs.has_value());
            EXPECT_EQ(fcs.error(), errc::unknown_frame);
            const auto size = find_frame_compressed_size(f);
            ASSERT_FALSE(size.has_value());
            EXPECT_EQ(size.error(), errc::unknown_frame);
        }
    }
    // Legacy (v0.1-v0.7) magic numbers are not supported.
    for (std::uint32_t legacy = 0xFD2FB51Eu; legacy <= 0xFD2FB527u; ++legacy) {
        bytes f;
        put_le32(f, legacy);
        append(f, std::span(s.frames).subspan(4));
        SCOPED_TRACE("legacy magic " + std::to_string(legacy));
        expect_rejected(f, s.content.size(), {errc::unknown_frame}, /*libzstd_too=*/false);
    }
    expect_rejected(to_bytes("this is not zstd data at all"), 100, {errc::unknown_frame});
}

TEST(Malformed, GarbageAfterAValidFrame) {
    const sample& s = sample_named("text_checksum");
    for (std::size_t extra = 1; extra <= 3; ++extra) {
        SCOPED_TRACE(std::to_string(extra) + " trailing bytes");
        bytes f = s.frames;
        append(f, std::span(s.frames).first(extra));  // the start of a magic number
        expect_rejected(f, s.content.size(), {errc::truncated_input});
    }
    bytes f = s.frames;
    append(f, to_bytes("GARBAGE!"));
    expect_rejected(f, s.content.size(), {errc::unknown_frame});
    f = s.frames;
    append(f, bytes(16));
    expect_rejected(f, s.content.size(), {errc::unknown_frame});
}

TEST(Malformed, DictionaryIdIsNotSupported) {
    for (unsigned width : {1u, 2u, 4u}) {
        SCOPED_TRACE("dictionary id in " + std::to_string(width) + " bytes");
        frame_header_spec h;
        h.dict_id_size = width;
        h.dict_id = 0x7A;
        h.single_segment = true;
        h.fcs_field_size = 1;
        h.content_size = 3;
        bytes f = frame_header(h);
        put_raw_block(f, true, to_bytes("abc"));
        // libzstd decodes raw blocks without the dictionary, so it is no judge here.
        expect_rejected(f, 3, {errc::dictionary_required}, /*libzstd_too=*/false);
    }
}

// --- windows --------------------------------------------------------------------------------

TEST(Malformed, WindowOverTheDefaultLimit) {
    const bytes content = to_bytes("0123456789");
    for (unsigned log : {28u, 29u, 30u, 31u, 35u, 41u}) {
        SCOPED_TRACE("window log " + std::to_string(log));
        const bytes f = raw_frame_with_window_log(log, content);
        // libzstd only applies its limit when streaming.
        if (log <= 31) {
            EXPECT_FALSE(libzstd_stream_decompress(f, 27, 100).ok);
        }
        expect_rejected(f, 100, {errc::window_too_large}, /*libzstd_too=*/false);
    }
    for (unsigned mantissa = 1; mantissa < 8; ++mantissa) {
        SCOPED_TRACE("window 2^27 + " + std::to_string(mantissa) + "/8");
        frame_header_spec h;
        h.window_exponent = 17;
        h.window_mantissa = mantissa;
        bytes f = frame_header(h);
        put_raw_block(f, true, content);
        EXPECT_FALSE(libzstd_stream_decompress(f, 27, 100).ok);
        expect_rejected(f, 100, {errc::window_too_large}, /*libzstd_too=*/false);
    }
}

TEST(Malformed, WindowOverALoweredLimit) {
    const bytes content = english_text(5000, 3);
    decompressor d;
    ASSERT_TRUE(d.set_max_window_log(12).has_value());
    for (unsigned log = 13; log <= 31; ++log) {
        const bytes f = raw_frame_with_window_log(log, content);
        const attempt a = try_decompress(f, content.size(), &d);
        ASSERT_FALSE(a.ok) << "window log " << log;
        EXPECT_EQ(a.error, errc::window_too_large) << "window log " << log;
    }
    // A single-segment frame's window is its content size.
    frame_header_spec h;
    h.single_segment = true;
    h.fcs_field_size = 2;
    h.content_size = content.size();
    bytes f = frame_header(h);
    put_raw_block(f, true, content);
    const attempt a = try_decompress(f, content.size(), &d);
    ASSERT_FALSE(a.ok);
    EXPECT_EQ(a.error, errc::window_too_large);
    ASSERT_TRUE(d.set_max_window_log(13).has_value());
    const attempt ok = try_decompress(f, content.size(), &d);
    ASSERT_TRUE(ok.ok) << describe(ok);
    EXPECT_TRUE(same_bytes(ok.out, content));
}

TEST(Malformed, HugeSingleSegmentContentSize) {
    // Window = content size = 2^40: over any limit, and nothing may be allocated for it.
    frame_header_spec h;
    h.single_segment = true;
    h.fcs_field_size = 8;
    h.content_size = std::uint64_t{1} << 40;
    bytes f = frame_header(h);
    put_raw_block(f, true, to_bytes("tiny"));
    expect_rejected(f, 100, {errc::window_too_large, errc::destination_too_small}, /*libzstd_too=*/true);
}

// --- blocks -----------------------------------------------------------------------------------

TEST(Malformed, ReservedBlockType) {
    frame_header_spec h;
    h.window_exponent = 7;
    bytes f = frame_header(h);
    put_block_header(f, true, block_type::reserved, 5);
    append(f, to_bytes("hello"));
    expect_rejected(f, 100, {errc::block_invalid});

    // Each block of real frames in turn.
    for (const char* name : {"text_checksum", "stream", "rle"}) {
        const sample& s = sample_named(name);
        const auto blocks = walk_blocks(s.frames);
        for (const block_info& b : blocks) {
            SCOPED_TRACE(std::string(name) + ", block at " + std::to_string(b.offset));
            const bytes bad = with_byte(s.frames, b.offset, s.frames[b.offset] | std::byte{0x06});
            expect_rejected(bad, s.content.size(), {errc::block_invalid});
        }
    }
}

TEST(Malformed, MissingLastBlock) {
    frame_header_spec h;
    h.window_exponent = 7;
    bytes f = frame_header(h);
    put_raw_block(f, false, to_bytes("not the last block"));
    expect_rejected(f, 100, {errc::truncated_input});
    put_rle_block(f, false, std::byte{'z'}, 10);
    expect_rejected(f, 100, {errc::truncated_input});
}

TEST(Malformed, CompressedBlockOfSizeZero) {
    frame_header_spec h;
    h.window_exponent = 7;
    bytes f = frame_header(h);
    put_block_header(f, true, block_type::compressed, 0);
    expect_rejected(f, 100, {});
}

TEST(Malformed, CompressedBlockOverTheMaximumSize) {
    // Block_Size of a compressed block may not exceed 128 KiB.
    const bytes text = english_text(300000, 5);
    const bytes frame = libzstd_compress(std::span(text).first(100000), 3, false);
    const auto blocks = walk_blocks(frame);
    ASSERT_EQ(blocks.size(), 1u);
    ASSERT_EQ(blocks[0].type, block_type::compressed);
    frame_header_spec h;
    h.window_exponent = 10;  // 1 MiB
    bytes f = frame_header(h);
    put_block_header(f, true, block_type::compressed, 131073);
    append(f, std::span(frame).subspan(blocks[0].offset + 3, blocks[0].size));
    f.resize(f.size() + 131073 - blocks[0].size);
    expect_rejected(f, 300000, {});
}

// A match that reaches before the first byte of the frame.
TEST(Malformed, OffsetBeforeTheStartOfTheFrame) {
    const bytes a = random_bytes(1000, 77);
    bytes input = a;
    append(input, a);
    stream_options o;
    o.max_chunk = 1000;
    o.exact_chunks = true;
    o.flush_every = 1;  // one block per copy of `a`: the second is one long match
    o.level = 3;
    const bytes frame = libzstd_stream_compress(input, o);
    ASSERT_FALSE(frame.empty());
    const auto blocks = walk_blocks(frame);
    ASSERT_GE(blocks.size(), 2u);
    ASSERT_EQ(blocks[0].type, block_type::raw);
    ASSERT_EQ(blocks[0].size, 1000u);
    ASSERT_EQ(blocks[1].type, block_type::compressed);
    const std::span<const std::byte> second =
        std::span(frame).subspan(blocks[1].offset + 3, blocks[1].size);

    for (std::size_t first_size : {0u, 1u, 500u, 999u}) {
        SCOPED_TRACE("first block shortened to " + std::to_string(first_size));
        frame_header_spec h;
        h.window_exponent = 7;
        bytes f = frame_header(h);
        if (first_size != 0) put_raw_block(f, false, std::span(a).first(first_size));
        put_block_header(f, true, block_type::compressed, blocks[1].size);
        append(f, second);
        expect_rejected(f, 4000, {errc::offset_invalid});
    }
    // Sanity: with the whole first block, the same bytes decode.
    frame_header_spec h;
    h.window_exponent = 7;
    bytes f = frame_header(h);
    put_raw_block(f, false, a);
    put_block_header(f, true, block_type::compressed, blocks[1].size);
    append(f, second);
    expect_conformant(f, input);
}

// --- sizes ------------------------------------------------------------------------------------

TEST(Malformed, DestinationTooSmall) {
    for (const sample& s : samples()) {
        SCOPED_TRACE(s.name);
        const std::size_t n = s.content.size();
        for (std::size_t cap : {n - 1, n / 2, std::size_t{1}, std::size_t{0}}) {
            SCOPED_TRACE("capacity " + std::to_string(cap));
            const attempt a = try_decompress(s.frames, cap);
            EXPECT_FALSE(a.overrun) << "wrote past the destination";
            ASSERT_FALSE(a.ok);
            EXPECT_EQ(a.error, errc::destination_too_small);
            const attempt b = try_decompress(s.frames, cap, &shared_decompressor());
            EXPECT_TRUE(same_outcome(a, b));
            EXPECT_FALSE(libzstd_decompress(s.frames, cap).ok);
        }
        const auto r = decompress(nullptr, 0, s.frames.data(), s.frames.size());
        ASSERT_FALSE(r.has_value());
        EXPECT_EQ(r.error(), errc::destination_too_small);
    }
}

TEST(Malformed, ContentSizeDisagreesWithTheData) {
    const bytes content = json_logs(3000, 4);
    for (unsigned width : {2u, 4u, 8u}) {
        for (long delta : {-1000L, -1L, 1L, 1000L}) {
            SCOPED_TRACE("width " + std::to_string(width) + ", declared " + std::to_string(delta) + " off");
            frame_header_spec h;
            h.window_exponent = 7;
            h.fcs_field_size = width;
            h.content_size = static_cast<std::uint64_t>(static_cast<long>(content.size()) + delta);
            h.checksum = true;
            bytes f = frame_header(h);
            put_raw_block(f, false, std::span(content).first(1000));
            put_rle_block(f, false, std::byte{'-'}, 0);
            put_raw_block(f, true, std::span(content).subspan(1000));
            put_checksum(f, content);
            expect_rejected(f, 2 * content.size(), {errc::content_size_mismatch});
        }
    }
    // The same in frames written by the reference: Frame_Content_Size edited.
    for (const char* name : {"text_checksum", "sequences", "rle"}) {
        const sample& s = sample_named(name);
        const std::size_t header = frame_header_size(s.frames);
        const unsigned fcs_flag = static_cast<unsigned>(s.frames[4]) >> 6;
        const bool single = (static_cast<unsigned>(s.frames[4]) & 0x20) != 0;
        ASSERT_TRUE(fcs_flag != 0 || single) << name << " declares no size";
        // The field is the last 1/2/4/8 bytes of the header; nudge its low byte.
        const std::size_t width = fcs_flag == 0 ? 1 : fcs_flag == 1 ? 2 : fcs_flag == 2 ? 4 : 8;
        for (int delta : {-1, 1}) {
            SCOPED_TRACE(std::string(name) + ", declared " + std::to_string(delta) + " off");
            bytes f = s.frames;
            f[header - width] = static_cast<std::byte>(static_cast<int>(f[header - width]) + delta);
            expect_rejected(f, 2 * s.content.size(), {});
        }
    }
}

TEST(Malformed, DeclaredSizeLargerThanTheDestination) {
    // The size is right, the buffer is not: destination_too_small, before or during decoding.
    const sample& s = sample_named("sequences");
    const attempt a = try_decompress(s.frames, s.content.size() - 100);
    ASSERT_FALSE(a.ok);
    EXPECT_EQ(a.error, errc::destination_too_small);
}

TEST(Malformed, VectorOverloadDoesNotTrustTheDeclaredSize) {
    // Declares 1 TiB, holds 4 bytes: must fail with a zest error, not try to allocate 1 TiB.
    frame_header_spec h;
    h.window_exponent = 7;
    h.fcs_field_size = 8;
    h.content_size = std::uint64_t{1} << 40;
    bytes f = frame_header(h);
    put_raw_block(f, true, to_bytes("tiny"));
    try {
        (void)decompress(std::span<const std::byte>(f));
        ADD_FAILURE() << "accepted";
    } catch (const std::system_error& e) {
        EXPECT_EQ(e.code(), make_error_code(errc::content_size_mismatch)) << e.what();
    } catch (const std::bad_alloc&) {
        ADD_FAILURE() << "tried to allocate the declared 1 TiB";
    }
}

// --- skippable frames -------------------------------------------------------------------------

TEST(Malformed, TruncatedSkippableFrame) {
    const bytes payload = random_bytes(100, 1);
    const bytes f = skippable_frame(5, payload);
    for (std::size_t len = 1; len < f.size(); ++len) {
        SCOPED_TRACE("prefix " + std::to_string(len));
        expect_rejected(std::span(f).first(len), 0, {errc::truncated_input});
    }
    const auto size = find_frame_compressed_size(std::span(f).first(50));
    ASSERT_FALSE(size.has_value());
    EXPECT_EQ(size.error(), errc::truncated_input);
    // After a valid frame.
    bytes g = sample_named("raw").frames;
    append(g, std::span(f).first(f.size() - 1));
    expect_rejected(g, 10000, {errc::truncated_input});
}

}  // namespace
}  // namespace zest::test
