// Frames written by the reference encoder (the zstd CLI and libzstd) must
// decode byte-exact with zest, through every public entry point.
#include <gtest/gtest.h>
#include <zstd.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <tuple>

#include "cpu/cpu.hpp"

#include "check.hpp"
#include "corpus.hpp"
#include "frames.hpp"
#include "zstd_cli.hpp"

namespace zest::test {
namespace {

std::vector<std::string> config_names() {
    std::vector<std::string> v;
    for (const cli_config& c : cli_matrix()) v.push_back(c.name);
    return v;
}

bytes cli(std::span<const std::byte> input, const std::string& config) {
    return zstd_cli_compress(input, cli_matrix_config(config));
}

// --- every shape at every zstd CLI setting -----------------------------------

class CliMatrix : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(CliMatrix, RoundTrip) {
    const auto& [shape_name, config_name] = GetParam();
    const bytes input = corpus_shape(shape_name).generate();
    const cli_config& config = cli_matrix_config(config_name);
    bytes compressed;
    ASSERT_NO_THROW(compressed = zstd_cli_compress(input, config));
    const unsigned long long declared = ZSTD_getFrameContentSize(compressed.data(), compressed.size());
    if (config.from_stdin && !input.empty()) {  // zstd declares 0 when stdin is empty
        EXPECT_EQ(declared, ZSTD_CONTENTSIZE_UNKNOWN) << "stdin frames should not declare a size";
    } else {
        EXPECT_EQ(declared, input.size());
    }
    expect_conformant(compressed, input);
}

std::string cli_case_name(const ::testing::TestParamInfo<CliMatrix::ParamType>& info) {
    return std::get<0>(info.param) + "_" + std::get<1>(info.param);
}

INSTANTIATE_TEST_SUITE_P(Corpus, CliMatrix,
                         ::testing::Combine(::testing::ValuesIn(corpus_shape_names(true)),
                                            ::testing::ValuesIn(config_names())),
                         cli_case_name);

// Sizes around the 128 KiB block boundaries: fewer settings (the block
// splitting does not depend on the level beyond these).
INSTANTIATE_TEST_SUITE_P(Boundary, CliMatrix,
                         ::testing::Combine(::testing::ValuesIn(corpus_shape_names(false)),
                                            ::testing::Values("fast7", "l1", "l3", "l9", "l19", "l22",
                                                              "long27", "wlog10_l3", "nocheck_l3",
                                                              "stdin_l3", "stdin_l19")),
                         cli_case_name);

// --- concatenated frames -------------------------------------------------------

class Concatenated : public ::testing::TestWithParam<std::string> {};

// Slices of one input, each compressed differently (window sizes, checksum
// or not, size declared or not), then catenated like `cat a.zst b.zst`.
TEST_P(Concatenated, SlicesWithDifferentSettings) {
    const bytes input = corpus_shape(GetParam()).generate();
    const std::vector<std::string> configs = {"l1", "stdin_l3", "wlog10_l3", "l19", "nocheck_l3",
                                              "fast7", "long27", "stdin_fast1_nocheck"};
    rng r(77);
    bytes all;
    std::size_t pos = 0;
    for (std::size_t i = 0; i < configs.size(); ++i) {
        const std::size_t left = input.size() - pos;
        const std::size_t n = i + 1 == configs.size() ? left : std::min<std::size_t>(left, r.below(static_cast<std::uint32_t>(left / 3 + 2)));
        bytes frame;
        ASSERT_NO_THROW(frame = cli(std::span(input).subspan(pos, n), configs[i])) << configs[i];
        append(all, frame);
        pos += n;
    }
    expect_conformant(all, input);
}

INSTANTIATE_TEST_SUITE_P(Corpus, Concatenated,
                         ::testing::Values("text", "json", "records", "int32", "int64", "mixed",
                                           "zeros", "random", "small_text"));

TEST(ConcatenatedFrames, DifferentShapesAndEmptyFrames) {
    bytes all, expected;
    const std::vector<std::pair<std::string, std::string>> parts = {
        {"empty", "l3"},     {"text", "l19"},  {"empty", "stdin_l3"},    {"zeros", "wlog10_l3"},
        {"random", "l1"},    {"one_byte", "l3"}, {"int64", "stdin_l19"}, {"json", "long27"},
        {"empty", "nocheck_l3"}, {"source", "fast1"}};
    for (const auto& [shape_name, config] : parts) {
        const bytes input = corpus_shape(shape_name).generate();
        bytes frame;
        ASSERT_NO_THROW(frame = cli(input, config)) << shape_name << " " << config;
        append(all, frame);
        append(expected, input);
    }
    expect_conformant(all, expected);
}

TEST(ConcatenatedFrames, ManySmallFramesFromLibzstd) {
    rng r(1234);
    bytes all, expected;
    for (int i = 0; i < 300; ++i) {
        const std::size_t n = r.below(4) == 0 ? 0 : r.range(1, 700);
        const bytes input = r.chance(50) ? english_text(n, r.next()) : int32_runs(n, r.next());
        const int level = static_cast<int>(r.range(0, 23)) - 4;  // -4 .. 19
        const bytes frame = libzstd_compress(input, level == 0 ? 1 : level, r.chance(50));
        append(all, frame);
        append(expected, input);
    }
    expect_conformant(all, expected);
}

// --- skippable frames ------------------------------------------------------------

TEST(Skippable, OnlySkippableFramesDecodeToNothing) {
    bytes all;
    for (unsigned nibble = 0; nibble < 16; ++nibble)
        append(all, skippable_frame(nibble, random_bytes(nibble * 3, nibble)));
    expect_conformant(all, {});
    expect_conformant(skippable_frame(0, {}), {});
}

TEST(Skippable, BeforeBetweenAndAfterFrames) {
    const bytes text = corpus_shape("small_json").generate();
    const bytes zero_input = zeros(70000);
    bytes text_frame, zero_frame;
    ASSERT_NO_THROW(text_frame = cli(text, "l3"));
    ASSERT_NO_THROW(zero_frame = cli(zero_input, "stdin_l3"));
    for (unsigned nibble = 0; nibble < 16; ++nibble) {
        SCOPED_TRACE("magic nibble " + std::to_string(nibble));
        const bytes payload = english_text(nibble * 37 % 300, nibble);
        bytes all, expected;
        append(all, skippable_frame(nibble, payload));
        append(all, text_frame);
        append(expected, text);
        append(all, skippable_frame(15 - nibble, {}));
        append(all, skippable_frame(nibble, payload));
        append(all, zero_frame);
        append(expected, zero_input);
        append(all, skippable_frame(nibble ^ 5, payload));
        expect_conformant(all, expected);
    }
}

TEST(Skippable, LargePayloadThatLooksLikeAFrame) {
    // The payload is itself a valid Zstandard frame: it must be skipped, not decoded.
    const bytes inner_input = english_text(100000, 5);
    const bytes inner = libzstd_compress(inner_input, 3, true);
    const bytes outer_input = json_logs(3000, 6);
    bytes all = skippable_frame(7, inner);
    append(all, libzstd_compress(outer_input, 1, false));
    append(all, skippable_frame(8, random_bytes(70000, 9)));
    expect_conformant(all, outer_input);
}

TEST(Skippable, Inspection) {
    const bytes payload = random_bytes(1000, 3);
    const bytes frame = skippable_frame(0xA, payload);
    const auto size = find_frame_compressed_size(frame);
    ASSERT_TRUE(size.has_value()) << errc_name(size.error());
    EXPECT_EQ(*size, 8 + payload.size());
    const auto fcs = frame_content_size(frame);
    ASSERT_TRUE(fcs.has_value()) << errc_name(fcs.error());
    EXPECT_EQ(*fcs, std::optional<std::uint64_t>(0)) << "a skippable frame reports 0";
    expect_frame_inspection_matches_libzstd(frame);
}

// --- frames written through libzstd's streaming API ------------------------------

const std::vector<stream_options>& stream_configs() {
    static const std::vector<stream_options> v = {
        {"l1_chunk64", 1, 64, 0, 0, 11},
        {"l3_chunk4k_flush3", 3, 4096, 3, 0, 12},
        {"l3_chunk16_flush200", 3, 16, 200, 0, 13},
        {"l7_wlog10", 7, 1000, 0, 10, 14},
        {"l19_chunk300_flush50", 19, 300, 50, 0, 15},
        {"fast5_chunk8k", -5, 8192, 0, 0, 16},
        {"l12_flush_each", 12, 2048, 1, 0, 17},
    };
    return v;
}

class Streaming : public ::testing::TestWithParam<std::tuple<std::string, std::size_t>> {};

TEST_P(Streaming, RoundTrip) {
    const auto& [shape_name, config_index] = GetParam();
    bytes input = corpus_shape(shape_name).generate();
    if (input.size() > 512 * 1024) input.resize(512 * 1024);
    const bytes compressed = libzstd_stream_compress(input, stream_configs()[config_index]);
    if (!input.empty()) {  // libzstd knows the size when the first call ends the frame
        EXPECT_EQ(ZSTD_getFrameContentSize(compressed.data(), compressed.size()), ZSTD_CONTENTSIZE_UNKNOWN);
    }
    expect_conformant(compressed, input);
}

INSTANTIATE_TEST_SUITE_P(Corpus, Streaming,
                         ::testing::Combine(::testing::Values("text", "source", "json", "records",
                                                              "int16", "int32", "int64", "mixed",
                                                              "zeros", "random", "small_text", "empty"),
                                            ::testing::Range<std::size_t>(0, 7)),
                         [](const auto& info) {
                             return std::get<0>(info.param) + "_" +
                                    stream_configs()[std::get<1>(info.param)].name;
                         });

// --- hand-made frames ------------------------------------------------------------

TEST(HandMade, RawRleAndEmptyBlocks) {
    const bytes a = english_text(3000, 1);
    bytes expected = a;
    frame_header_spec h;
    h.window_exponent = 7;  // 128 KiB
    h.checksum = true;
    bytes frame = frame_header(h);
    put_raw_block(frame, false, a);
    put_raw_block(frame, false, {});
    put_rle_block(frame, false, std::byte{'x'}, 5000);
    expected.insert(expected.end(), 5000, std::byte{'x'});
    put_rle_block(frame, false, std::byte{0}, 0);
    put_rle_block(frame, false, std::byte{7}, 131072);
    expected.insert(expected.end(), 131072, std::byte{7});
    put_raw_block(frame, true, std::span(a).first(10));
    append(expected, std::span(a).first(10));
    put_checksum(frame, expected);
    expect_conformant(frame, expected);
}

TEST(HandMade, ContentSizeFieldWidths) {
    // Every width of Frame_Content_Size, single-segment and not.
    struct field { unsigned width; bool single; std::size_t size; };
    for (const field f : {field{1, true, 0}, field{1, true, 200}, field{2, true, 256}, field{2, false, 300},
                          field{2, true, 65535 + 256}, field{4, true, 65536 + 256}, field{4, false, 70000},
                          field{8, false, 5000}, field{8, true, 1}, field{0, false, 100}}) {
        SCOPED_TRACE("width " + std::to_string(f.width) + ", size " + std::to_string(f.size) +
                     (f.single ? ", single segment" : ""));
        const bytes content = json_logs(f.size, f.size);
        frame_header_spec h;
        h.single_segment = f.single;
        h.fcs_field_size = f.width;
        h.content_size = f.size;
        h.window_exponent = 7;
        bytes frame = frame_header(h);
        std::size_t pos = 0;
        do {
            const std::size_t n = std::min<std::size_t>(content.size() - pos, 65536);
            put_raw_block(frame, pos + n == content.size(), std::span(content).subspan(pos, n));
            pos += n;
        } while (pos < content.size());
        expect_conformant(frame, content);
    }
}

TEST(HandMade, UnusedDescriptorBitIsIgnored) {
    // Bit 4 of the frame header descriptor is "unused": decoders must ignore it
    // (unlike the reserved bit 3).
    const bytes content = to_bytes("unused bit");
    frame_header_spec h;
    h.unused_bit = true;
    h.single_segment = true;
    h.fcs_field_size = 1;
    h.content_size = content.size();
    bytes frame = frame_header(h);
    put_raw_block(frame, true, content);
    expect_conformant(frame, content);
}

// --- window limits -------------------------------------------------------------------

TEST(WindowLimit, Log30FrameNeedsARaisedLimit) {
    const bytes content = to_bytes("a tiny payload in a frame that declares a 1 GiB window");
    const bytes frame = raw_frame_with_window_log(30, content, true);

    // The reference agrees on both counts: rejected at its default limit, fine at 30.
    EXPECT_FALSE(libzstd_stream_decompress(frame, 27, 1024).ok);
    const reference_result ref = libzstd_stream_decompress(frame, 30, 1024);
    ASSERT_TRUE(ref.ok) << ref.error;
    ASSERT_TRUE(same_bytes(ref.out, content));

    bytes dst(content.size());
    const auto r = decompress(std::span<std::byte>(dst), frame);
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error(), errc::window_too_large);
    try {
        (void)decompress(std::span<const std::byte>(frame));
        ADD_FAILURE() << "vector overload did not throw";
    } catch (const std::system_error& e) {
        EXPECT_EQ(e.code(), make_error_code(errc::window_too_large));
    }

    decompressor d;
    EXPECT_EQ(d.max_window_log(), default_max_window_log);
    const auto rejected = d.decompress(std::span<std::byte>(dst), frame);
    ASSERT_FALSE(rejected.has_value());
    EXPECT_EQ(rejected.error(), errc::window_too_large);
    EXPECT_LT(d.memory_usage(), std::size_t{1} << 26) << "memory allocated for a rejected window";

    const auto set29 = d.set_max_window_log(29);
    ASSERT_TRUE(set29.has_value());
    const auto still_rejected = d.decompress(std::span<std::byte>(dst), frame);
    ASSERT_FALSE(still_rejected.has_value());
    EXPECT_EQ(still_rejected.error(), errc::window_too_large);

    const auto set30 = d.set_max_window_log(30);
    ASSERT_TRUE(set30.has_value());
    EXPECT_EQ(d.max_window_log(), 30u);
    const auto ok = d.decompress(std::span<std::byte>(dst), frame);
    ASSERT_TRUE(ok.has_value()) << errc_name(ok.error());
    EXPECT_EQ(*ok, content.size());
    EXPECT_TRUE(same_bytes(dst, content));
    EXPECT_TRUE(same_bytes(d.decompress(std::span<const std::byte>(frame)), content));

    // A frame with a smaller window still decodes with the raised limit.
    const bytes small_input = english_text(50000, 3);
    const bytes small = cli(small_input, "wlog10_l3");
    EXPECT_TRUE(same_bytes(d.decompress(std::span<const std::byte>(small)), small_input));
}

TEST(WindowLimit, Log31IsTheFormatMaximum) {
    const bytes content = random_bytes(300, 31);
    const bytes frame = raw_frame_with_window_log(31, content, false);
    decompressor d;
    ASSERT_TRUE(d.set_max_window_log(max_window_log_limit).has_value());
    bytes dst(content.size());
    const auto r = d.decompress(std::span<std::byte>(dst), frame);
    ASSERT_TRUE(r.has_value()) << errc_name(r.error());
    EXPECT_TRUE(same_bytes(dst, content));
}

TEST(WindowLimit, DefaultAcceptsExactly2To27) {
    const bytes content = english_text(1000, 27);
    bytes dst(content.size());
    // 2^27 exactly: accepted.
    const bytes at_limit = raw_frame_with_window_log(27, content, true);
    expect_conformant(at_limit, content);
    // 2^27 + 2^24 (mantissa 1): over the limit, libzstd's streaming API agrees.
    frame_header_spec h;
    h.window_exponent = 17;
    h.window_mantissa = 1;
    bytes over = frame_header(h);
    put_raw_block(over, true, content);
    EXPECT_FALSE(libzstd_stream_decompress(over, 27, content.size()).ok);
    const auto r = decompress(std::span<std::byte>(dst), over);
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error(), errc::window_too_large);
    // zstd --long=27 from stdin declares exactly 2^27.
    bytes long_frame;
    ASSERT_NO_THROW(long_frame = zstd_cli_compress(content, {"stdin_long27", {"-3", "--long=27"}, true}));
    expect_conformant(long_frame, content);
}

TEST(WindowLimit, SetMaxWindowLogValidatesItsArgument) {
    decompressor d;
    for (unsigned bad : {0u, 9u, 32u, 64u}) {
        const auto r = d.set_max_window_log(bad);
        ASSERT_FALSE(r.has_value()) << bad;
        EXPECT_EQ(r.error(), errc::invalid_argument) << bad;
        EXPECT_EQ(d.max_window_log(), default_max_window_log) << "changed by a rejected value " << bad;
    }
    for (unsigned good : {10u, 20u, 27u, 31u}) {
        const auto r = d.set_max_window_log(good);
        ASSERT_TRUE(r.has_value()) << good;
        EXPECT_EQ(d.max_window_log(), good);
    }
}

TEST(WindowLimit, LoweredLimitRejectsRealFrames) {
    const bytes input = english_text(200000, 8);
    bytes frame;
    ASSERT_NO_THROW(frame = zstd_cli_compress(input, {"stdin_wlog20", {"-3", "--zstd=wlog=20"}, true}));
    decompressor d;
    ASSERT_TRUE(d.set_max_window_log(19).has_value());
    bytes dst(input.size());
    const auto r = d.decompress(std::span<std::byte>(dst), frame);
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error(), errc::window_too_large);
    ASSERT_TRUE(d.set_max_window_log(20).has_value());
    const auto ok = d.decompress(std::span<std::byte>(dst), frame);
    ASSERT_TRUE(ok.has_value()) << errc_name(ok.error());
    EXPECT_TRUE(same_bytes(dst, input));
}

// --- kernel selection ----------------------------------------------------------------------

// The ISA-variant runs of this suite (ZEST_CPU=generic|bmi2) only mean
// something if the variable really lowers the selection.
TEST(KernelSelection, HonoursZestCpu) {
    const char* env = std::getenv("ZEST_CPU");
    const detail::isa_level level = detail::selected_isa();
    std::printf("[ info     ] kernels: %s (ZEST_CPU=%s)\n", detail::isa_name(level), env ? env : "");
    if (env == nullptr) GTEST_SKIP() << "ZEST_CPU not set";
    if (std::strcmp(env, "generic") == 0) {
        EXPECT_EQ(level, detail::isa_level::generic);
    } else if (std::strcmp(env, "bmi2") == 0) {
        EXPECT_LE(level, detail::isa_level::bmi2);
    }
}

// --- misc ---------------------------------------------------------------------------------

TEST(Inspection, EmptyAndShortInputs) {
    const auto fcs = frame_content_size({});
    ASSERT_FALSE(fcs.has_value());
    EXPECT_EQ(fcs.error(), errc::truncated_input);
    const auto size = find_frame_compressed_size({});
    ASSERT_FALSE(size.has_value());
    EXPECT_EQ(size.error(), errc::truncated_input);

    const bytes frame = libzstd_compress(english_text(5000, 1), 3, true);
    const std::size_t header = frame_header_size(frame);
    ASSERT_GT(header, 4u);
    for (std::size_t n = 0; n < header; ++n) {
        const auto r = frame_content_size(std::span(frame).first(n));
        ASSERT_FALSE(r.has_value()) << "prefix of " << n << " bytes";
        EXPECT_EQ(r.error(), errc::truncated_input) << "prefix of " << n << " bytes";
    }
    const auto full = frame_content_size(std::span(frame).first(header));
    ASSERT_TRUE(full.has_value());
    EXPECT_EQ(*full, std::optional<std::uint64_t>(5000));
}

TEST(Decompress, EmptyInputIsZeroFrames) {
    // Like libzstd: zero frames decode to zero bytes.
    ASSERT_TRUE(libzstd_decompress({}, 0).ok);
    const auto r = decompress(std::span<std::byte>(), std::span<const std::byte>());
    ASSERT_TRUE(r.has_value()) << errc_name(r.error());
    EXPECT_EQ(*r, 0u);
    const auto p = decompress(nullptr, 0, nullptr, 0);
    ASSERT_TRUE(p.has_value()) << errc_name(p.error());
    EXPECT_EQ(*p, 0u);
}

TEST(Decompress, OneContextAcrossManyInputs) {
    // Big and small windows, raw/RLE/compressed blocks, errors in between:
    // nothing from one call may leak into the next.
    struct item { bytes input; bytes frame; };
    std::vector<item> items;
    rng r(99);
    for (const char* name : {"text", "zeros", "random", "int16", "small_text", "empty", "json", "one_byte",
                             "records", "mixed_131073"}) {
        bytes input = corpus_shape(name).generate();
        if (input.size() > 300000) input.resize(300000);
        const int level = static_cast<int>(r.range(1, 19));
        bytes frame = r.chance(50) ? libzstd_compress(input, level, r.chance(50))
                                   : libzstd_stream_compress(input, {"", level, 5000, 3, 0, r.next()});
        items.push_back({std::move(input), std::move(frame)});
    }
    decompressor d;
    for (int round = 0; round < 3; ++round) {
        for (std::size_t i = 0; i < items.size(); ++i) {
            SCOPED_TRACE("round " + std::to_string(round) + ", item " + std::to_string(i));
            const item& it = items[(i * 7 + static_cast<std::size_t>(round)) % items.size()];
            bytes dst(it.input.size());
            const auto ok = d.decompress(std::span<std::byte>(dst), it.frame);
            ASSERT_TRUE(ok.has_value()) << errc_name(ok.error());
            EXPECT_TRUE(same_bytes(std::span(dst).first(*ok), it.input));
            if (it.frame.size() > 20) {  // a failure half-way through must not poison the context
                const auto bad = d.decompress(std::span<std::byte>(dst),
                                              std::span(it.frame).first(it.frame.size() - 7));
                EXPECT_FALSE(bad.has_value());
            }
            if (i % 4 == 3) d.reset();
        }
    }
}

TEST(Decompress, MovedDecompressorKeepsWorking) {
    const bytes input = json_logs(100000, 4);
    const bytes frame = libzstd_compress(input, 5, true);
    decompressor a;
    ASSERT_TRUE(a.set_max_window_log(24).has_value());
    EXPECT_TRUE(same_bytes(a.decompress(std::span<const std::byte>(frame)), input));
    decompressor b(std::move(a));
    EXPECT_EQ(b.max_window_log(), 24u);
    EXPECT_TRUE(same_bytes(b.decompress(std::span<const std::byte>(frame)), input));
    decompressor c;
    c = std::move(b);
    EXPECT_TRUE(same_bytes(c.decompress(std::span<const std::byte>(frame)), input));
    c.reset();
    EXPECT_TRUE(same_bytes(c.decompress(std::span<const std::byte>(frame)), input));
}

}  // namespace
}  // namespace zest::test
