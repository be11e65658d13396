// Streaming decompression with a dictionary: libzstd's dictionary frames
// (one-shot and streamed, small windows that wrap the window buffer) fed in
// every buffer pattern; the dictionary's reach ends where the format ends
// it; changing dictionaries between frames, and not within one.
#include <gtest/gtest.h>

#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

#include <cstring>

#include "dict_support.hpp"
#include "stream_driver.hpp"
#include "zest/zest.hpp"

namespace zest::test {
namespace {

using namespace streaming;

struct fixture {
    bytes dict_bytes;
    zest::dictionary dict;
    std::vector<bytes> msgs;
};

const fixture& data() {
    static const fixture f = [] {
        fixture x;
        x.dict_bytes = libzstd_train(messages("json", 400, 200, 2000, 31), 16 * 1024);
        x.dict = *zest::dictionary::load(x.dict_bytes);
        x.msgs = messages("json", 6, 1, 5000, 32);
        x.msgs.push_back(messages("json", 1, 400'000, 400'000, 33)[0]);  // many blocks
        return x;
    }();
    return f;
}

void expect_streams(const bytes& frames, const bytes& want, std::size_t n_frames, const std::string& what) {
    for (const auto& p : patterns()) {
        if (want.size() > 100'000 && std::string(p.name).find("one-byte") == 0) continue;
        zest::decompress_stream ds;
        ASSERT_TRUE(ds.set_dictionary(data().dict).has_value());
        const stream_run r = stream_decode(ds, frames, p.in, p.out);
        ASSERT_EQ(r.error, zest::errc{}) << what << ", " << p.name << ": " << zest::error_message(r.error);
        ASSERT_EQ(r.out.size(), want.size()) << what << ", " << p.name;
        EXPECT_TRUE(r.out == want) << what << ", " << p.name;
        EXPECT_EQ(r.frames_done, n_frames) << what << ", " << p.name;
    }
}

TEST(DictionaryStream, OneShotFramesInEveryBufferPattern) {
    const fixture& f = data();
    bytes all, want;
    for (std::size_t i = 0; i < f.msgs.size(); ++i) {
        for (const int level : {-1, 1, 3, 12, 19}) {
            const bytes frame = libzstd_compress(f.msgs[i], f.dict_bytes, level);
            if (f.msgs[i].size() < 100'000) {
                append(all, frame);
                append(want, f.msgs[i]);
            }
            expect_streams(frame, f.msgs[i], 1, "message " + std::to_string(i) + " level " + std::to_string(level));
        }
    }
    expect_streams(all, want, f.msgs.size() * 5 - 5, "concatenated");
}

// Small windows: the window buffer restarts its segment, after which the
// dictionary is out of reach (and the frames no longer reach it).
TEST(DictionaryStream, StreamedFramesWithSmallWindows) {
    const fixture& f = data();
    const bytes& big = f.msgs.back();
    for (const int wlog : {10, 11, 14, 17}) {
        for (const int level : {1, 5, 19}) {
            const bytes frame = zstd_streamed(big, level, wlog, f.dict_bytes, 20000, std::uint64_t(wlog + level));
            expect_streams(frame, big, 1, "window 2^" + std::to_string(wlog) + " level " + std::to_string(level));
        }
    }
}

TEST(DictionaryStream, WrongMissingAndChangedDictionaries) {
    const fixture& f = data();
    const bytes frame = libzstd_compress(f.msgs[2], f.dict_bytes, 3);
    bytes out(f.msgs[2].size() + 16);
    {
        zest::decompress_stream ds;  // none
        zest::in_buffer in{frame.data(), frame.size(), 0};
        zest::out_buffer o{out.data(), out.size(), 0};
        auto r = ds.decompress(o, in);
        ASSERT_FALSE(r.has_value());
        EXPECT_EQ(r.error(), zest::errc::dictionary_required);
    }
    {
        zest::decompress_stream ds;  // another
        const bytes other = libzstd_train(messages("code", 300, 200, 2000, 34), 8 * 1024);
        ASSERT_TRUE(ds.set_dictionary(*zest::dictionary::load(other)).has_value());
        zest::in_buffer in{frame.data(), frame.size(), 0};
        zest::out_buffer o{out.data(), out.size(), 0};
        auto r = ds.decompress(o, in);
        ASSERT_FALSE(r.has_value());
        EXPECT_EQ(r.error(), zest::errc::dictionary_wrong);
        // Sticky until reset; then the right dictionary decodes it.
        ds.reset();
        ASSERT_TRUE(ds.set_dictionary(f.dict).has_value());
        in.pos = 0;
        o.pos = 0;
        auto ok = ds.decompress(o, in);
        ASSERT_TRUE(ok.has_value()) << zest::error_message(ok.error());
        EXPECT_EQ(*ok, 0u);
        ASSERT_EQ(o.pos, f.msgs[2].size());
        EXPECT_EQ(std::memcmp(out.data(), f.msgs[2].data(), o.pos), 0);
    }
    {
        // Mid-frame the dictionary cannot change.
        zest::decompress_stream ds;
        ASSERT_TRUE(ds.set_dictionary(f.dict).has_value());
        zest::in_buffer in{frame.data(), 10, 0};
        zest::out_buffer o{out.data(), out.size(), 0};
        ASSERT_TRUE(ds.decompress(o, in).has_value());
        auto r = ds.set_dictionary(zest::dictionary());
        ASSERT_FALSE(r.has_value());
        EXPECT_EQ(r.error(), zest::errc::invalid_argument);
        EXPECT_EQ(ds.dict().id(), f.dict.id());
    }
}

}  // namespace
}  // namespace zest::test
