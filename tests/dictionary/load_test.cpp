// Loading dictionaries: the reference's format read as libzstd reads it
// (ID, header size, content), raw content, and hostile bytes (truncated,
// mutated, bad repeat offsets): a clear error, never a crash, and the same
// verdict as libzstd's loader.
#include <gtest/gtest.h>

#include <cstring>

#define ZSTD_STATIC_LINKING_ONLY
#include <zdict.h>
#include <zstd.h>

#include "dict_support.hpp"
#include "zest/zest.hpp"

namespace zest::test {
namespace {

const bytes& trained() {
    static const bytes d = libzstd_train(messages("json", 300, 200, 1500, 21), 8 * 1024);
    return d;
}

// libzstd's verdict on formatted dictionary bytes (its decoder loader).
bool libzstd_accepts(std::span<const std::byte> d) {
    ZSTD_DDict* dd = ZSTD_createDDict_advanced(d.data(), d.size(), ZSTD_dlm_byCopy, ZSTD_dct_fullDict,
                                               ZSTD_defaultCMem);
    ZSTD_freeDDict(dd);
    return dd != nullptr;
}

TEST(DictionaryLoad, FormattedDictionaryAsLibzstdReadsIt) {
    const bytes& d = trained();
    ASSERT_FALSE(d.empty());
    auto dict = zest::dictionary::load(d);
    ASSERT_TRUE(dict.has_value()) << zest::error_message(dict.error());
    EXPECT_FALSE(dict->empty());
    EXPECT_TRUE(dict->has_entropy_tables());
    EXPECT_EQ(dict->id(), ZDICT_getDictID(d.data(), d.size()));
    EXPECT_NE(dict->id(), 0u);
    EXPECT_EQ(zest::dictionary_id(d), dict->id());
    const std::size_t header = ZDICT_getDictHeaderSize(d.data(), d.size());
    ASSERT_FALSE(ZDICT_isError(header));
    EXPECT_EQ(dict->content_size(), d.size() - header);
    EXPECT_GE(dict->memory_usage(), d.size());
    // `full` reads it the same; `raw` takes every byte as content.
    auto full = zest::dictionary::load(d, zest::dictionary_content::full);
    ASSERT_TRUE(full.has_value());
    EXPECT_EQ(full->content_size(), dict->content_size());
    auto raw = zest::dictionary::load(d, zest::dictionary_content::raw);
    ASSERT_TRUE(raw.has_value());
    EXPECT_EQ(raw->id(), 0u);
    EXPECT_FALSE(raw->has_entropy_tables());
    EXPECT_EQ(raw->content_size(), d.size());
}

TEST(DictionaryLoad, ReferencedBytesAreNotCopied) {
    const bytes& d = trained();
    auto copied = zest::dictionary::load(d);
    auto ref = zest::dictionary::load(d, zest::dictionary_content::automatic, zest::dictionary_storage::reference);
    ASSERT_TRUE(copied.has_value() && ref.has_value());
    EXPECT_EQ(copied->memory_usage() - ref->memory_usage(), d.size());
    EXPECT_EQ(ref->id(), copied->id());
}

TEST(DictionaryLoad, RawContentAndEmpty) {
    auto empty = zest::dictionary::load(std::span<const std::byte>());
    ASSERT_TRUE(empty.has_value());
    EXPECT_TRUE(empty->empty());
    EXPECT_EQ(empty->id(), 0u);
    EXPECT_EQ(empty->content_size(), 0u);
    EXPECT_EQ(zest::dictionary().content_size(), 0u);
    auto empty_full = zest::dictionary::load(std::span<const std::byte>(), zest::dictionary_content::full);
    ASSERT_FALSE(empty_full.has_value());
    EXPECT_EQ(empty_full.error(), zest::errc::dictionary_invalid);

    // Fewer than 8 bytes are raw content even when they start with the magic.
    const bytes small = {std::byte{0x37}, std::byte{0xA4}, std::byte{0x30}, std::byte{0xEC}, std::byte{1}};
    auto s = zest::dictionary::load(small);
    ASSERT_TRUE(s.has_value());
    EXPECT_EQ(s->content_size(), small.size());
    EXPECT_FALSE(s->has_entropy_tables());

    const bytes text = to_bytes("no magic number here, just history for the next frames");
    auto t = zest::dictionary::load(text);
    ASSERT_TRUE(t.has_value());
    EXPECT_EQ(t->content_size(), text.size());
    auto must_be_full = zest::dictionary::load(text, zest::dictionary_content::full);
    ASSERT_FALSE(must_be_full.has_value());
    EXPECT_EQ(must_be_full.error(), zest::errc::dictionary_invalid);
    EXPECT_EQ(zest::dictionary_id(text), 0u);

    auto null_bytes = zest::dictionary::load(nullptr, 5);
    ASSERT_FALSE(null_bytes.has_value());
    EXPECT_EQ(null_bytes.error(), zest::errc::invalid_argument);
}

TEST(DictionaryLoad, EveryTruncationIsRejectedLikeLibzstd) {
    const bytes& d = trained();
    const std::size_t header = ZDICT_getDictHeaderSize(d.data(), d.size());
    // Cut inside the tables or the offsets: malformed. Cut in the content:
    // a valid dictionary unless a repeat offset now exceeds the content.
    for (std::size_t n = 8; n <= header + 64 && n < d.size(); ++n) {
        const std::span<const std::byte> cut(d.data(), n);
        auto z = zest::dictionary::load(cut);
        EXPECT_EQ(z.has_value(), libzstd_accepts(cut)) << "cut at " << n << " of " << d.size();
        if (n < header) {
            ASSERT_FALSE(z.has_value()) << n;
            EXPECT_EQ(z.error(), zest::errc::dictionary_invalid);
        }
    }
}

TEST(DictionaryLoad, MutatedHeadersGetTheSameVerdictAsLibzstd) {
    const bytes& d = trained();
    const std::size_t header = ZDICT_getDictHeaderSize(d.data(), d.size());
    rng r(77);
    int rejected = 0, accepted = 0;
    for (int i = 0; i < 3000; ++i) {
        bytes m = d;
        const int flips = 1 + int(r.below(3));
        for (int f = 0; f < flips; ++f) {
            // Bytes 8.. (after the ID): tables and offsets.
            const std::size_t at = 8 + r.below(std::uint32_t(header - 8));
            m[at] = std::byte(r.below(256));
        }
        auto z = zest::dictionary::load(m);
        const bool lib = libzstd_accepts(m);
        ASSERT_EQ(z.has_value(), lib) << "mutation " << i;
        if (!z) {
            EXPECT_EQ(z.error(), zest::errc::dictionary_invalid);
        }
        (z ? accepted : rejected)++;
    }
    // Both verdicts occur (a check that cannot fail proves nothing).
    EXPECT_GT(rejected, 100);
    EXPECT_GT(accepted, 100);
}

// Repeat offsets: each must be at least 1 and at most the content size.
TEST(DictionaryLoad, RepeatOffsetsBoundedByTheContent) {
    const bytes& d = trained();
    const std::size_t header = ZDICT_getDictHeaderSize(d.data(), d.size());
    const std::size_t content = d.size() - header;
    const auto with_rep = [&](int which, std::uint32_t v) {
        bytes m = d;
        const std::size_t at = header - 12 + 4 * std::size_t(which);
        for (int b = 0; b < 4; ++b) m[at + std::size_t(b)] = std::byte((v >> (8 * b)) & 0xFF);
        return m;
    };
    for (int which = 0; which < 3; ++which) {
        for (const std::uint32_t v : {0u, 1u, std::uint32_t(content), std::uint32_t(content + 1), 0xFFFFFFFFu}) {
            const bytes m = with_rep(which, v);
            auto z = zest::dictionary::load(m);
            const bool valid = v != 0 && v <= content;
            EXPECT_EQ(z.has_value(), valid) << "offset " << which << " = " << v;
            EXPECT_EQ(libzstd_accepts(m), valid) << "libzstd, offset " << which << " = " << v;
        }
    }
}

TEST(DictionaryLoad, FrameDictionaryId) {
    const bytes& d = trained();
    const bytes msg = messages("json", 1, 3000, 3000, 4)[0];
    const bytes frame = libzstd_compress(msg, d, 3);
    EXPECT_EQ(zest::frame_dictionary_id(frame), ZSTD_getDictID_fromFrame(frame.data(), frame.size()));
    EXPECT_EQ(zest::frame_dictionary_id(frame), ZDICT_getDictID(d.data(), d.size()));
    EXPECT_EQ(zest::frame_dictionary_id(std::span<const std::byte>(frame.data(), 3)), 0u);
    EXPECT_EQ(zest::frame_dictionary_id(to_bytes("not a frame at all")), 0u);
}

}  // namespace
}  // namespace zest::test
