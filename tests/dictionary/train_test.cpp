// Dictionary training: zest's dictionaries against libzstd's trained on the
// same samples (the held-out messages compressed by libzstd with each, so
// that only the dictionaries differ), their format as libzstd reads it, the
// parameters, and samples too few to train on.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <random>

#define ZDICT_STATIC_LINKING_ONLY
#include <zdict.h>
#include <zstd.h>

#include "dict_support.hpp"
#include "zest/zest.hpp"

namespace zest::test {
namespace {

struct sample_set {
    bytes all;
    std::vector<std::size_t> sizes;
};

sample_set concat(const std::vector<bytes>& msgs) {
    sample_set s;
    for (const bytes& m : msgs) {
        append(s.all, m);
        s.sizes.push_back(m.size());
    }
    return s;
}

std::size_t libzstd_total(const std::vector<bytes>& msgs, const bytes& dict, int level) {
    std::size_t total = 0;
    for (const bytes& m : msgs) total += libzstd_compress(m, dict, level).size();
    return total;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

class TrainShapes : public ::testing::TestWithParam<std::string> {};

TEST_P(TrainShapes, AsGoodAsLibzstdsDictionary) {
    const std::string shape = GetParam();
    const std::vector<bytes> train = messages(shape, 1500, 200, 1000, 51);
    const std::vector<bytes> held = messages(shape, 300, 200, 1000, 52);
    const sample_set s = concat(train);
    const std::size_t capacity = 16 * 1024;

    auto t0 = std::chrono::steady_clock::now();
    zest::training_parameters used;
    auto z = zest::train_dictionary(s.all, s.sizes, capacity, {}, &used);
    const double zest_time = seconds_since(t0);
    ASSERT_TRUE(z.has_value()) << zest::error_message(z.error());
    ASSERT_LE(z->size(), capacity);

    t0 = std::chrono::steady_clock::now();
    bytes lib(capacity);
    const std::size_t n = ZDICT_trainFromBuffer(lib.data(), lib.size(), s.all.data(), s.sizes.data(), unsigned(s.sizes.size()));
    const double lib_time = seconds_since(t0);
    ASSERT_FALSE(ZDICT_isError(n)) << ZDICT_getErrorName(n);
    lib.resize(n);

    // libzstd reads zest's dictionary as its own format says.
    EXPECT_NE(ZDICT_getDictID(z->data(), z->size()), 0u);
    EXPECT_FALSE(ZDICT_isError(ZDICT_getDictHeaderSize(z->data(), z->size())));

    std::size_t plain = 0;
    for (const bytes& m : held) plain += m.size();
    const std::size_t with_zest = libzstd_total(held, *z, 3), with_lib = libzstd_total(held, lib, 3);
    const double ratio = double(with_lib) / double(with_zest);
    std::printf("[ %s ] held-out %zu bytes: zest dictionary %zu (x%.2f), libzstd's %zu (x%.2f): %.3f; "
                "k=%u d=%u; training %.2f s against %.2f s\n",
                shape.c_str(), plain, with_zest, double(plain) / double(with_zest), with_lib,
                double(plain) / double(with_lib), ratio, used.k, used.d, zest_time, lib_time);
    RecordProperty("ratio_vs_libzstd", std::to_string(ratio));
    EXPECT_GE(ratio, 0.97) << "zest's dictionary compresses the held-out messages worse than libzstd's";
}

INSTANTIATE_TEST_SUITE_P(Dictionaries, TrainShapes, ::testing::Values("json", "records", "text", "code", "mixed"));

TEST(Train, ParametersAndLimits) {
    const std::vector<bytes> train = messages("json", 200, 100, 600, 53);
    const sample_set s = concat(train);
    // Given k and d: used as they are.
    zest::training_parameters p;
    p.k = 200;
    p.d = 6;
    zest::training_parameters used;
    auto z = zest::train_dictionary(s.all, s.sizes, 4096, p, &used);
    ASSERT_TRUE(z.has_value()) << zest::error_message(z.error());
    EXPECT_EQ(used.k, 200u);
    EXPECT_EQ(used.d, 6u);
    // The ID asked for; COVER; acceleration; all samples for both halves.
    p = {};
    p.dict_id = 123456;
    p.cover = true;
    p.steps = 4;
    z = zest::train_dictionary(s.all, s.sizes, 4096, p);
    ASSERT_TRUE(z.has_value());
    EXPECT_EQ(ZDICT_getDictID(z->data(), z->size()), 123456u);
    p = {};
    p.accel = 5;
    p.split_percent = 100;
    z = zest::train_dictionary(s.all, s.sizes, 4096, p);
    ASSERT_TRUE(z.has_value());
    EXPECT_TRUE(zest::dictionary::load(*z).has_value());
    // Out of range.
    for (auto bad : {[] { zest::training_parameters q; q.d = 7; return q; }(),
                     [] { zest::training_parameters q; q.k = 5; return q; }(),
                     [] { zest::training_parameters q; q.f = 40; return q; }(),
                     [] { zest::training_parameters q; q.split_percent = 0; return q; }(),
                     [] { zest::training_parameters q; q.accel = 11; return q; }()}) {
        auto r = zest::train_dictionary(s.all, s.sizes, 4096, bad);
        ASSERT_FALSE(r.has_value());
        EXPECT_EQ(r.error(), zest::errc::invalid_argument);
    }
    auto small = zest::train_dictionary(s.all, s.sizes, 100);
    ASSERT_FALSE(small.has_value());
    EXPECT_EQ(small.error(), zest::errc::invalid_argument);
    // Too few samples, or sizes that run past the bytes.
    const std::vector<std::size_t> four(s.sizes.begin(), s.sizes.begin() + 4);
    auto few = zest::train_dictionary(s.all, four, 4096);
    ASSERT_FALSE(few.has_value());
    EXPECT_EQ(few.error(), zest::errc::dictionary_invalid);
    std::vector<std::size_t> over = s.sizes;
    over.back() += 1;
    auto past = zest::train_dictionary(s.all, over, 4096);
    ASSERT_FALSE(past.has_value());
    EXPECT_EQ(past.error(), zest::errc::invalid_argument);
}

TEST(Train, FinalizeLikeLibzstd) {
    const std::vector<bytes> train = messages("records", 300, 100, 800, 54);
    const sample_set s = concat(train);
    const bytes content(s.all.begin(), s.all.begin() + 3000);
    auto z = zest::finalize_dictionary(content, s.all, s.sizes, 8192, 3, 4242);
    ASSERT_TRUE(z.has_value()) << zest::error_message(z.error());
    EXPECT_EQ(ZDICT_getDictID(z->data(), z->size()), 4242u);
    const std::size_t header = ZDICT_getDictHeaderSize(z->data(), z->size());
    ASSERT_FALSE(ZDICT_isError(header));
    // The content ends the dictionary, whole when it fits.
    ASSERT_EQ(z->size() - header, content.size());
    EXPECT_EQ(std::memcmp(z->data() + header, content.data(), content.size()), 0);
    // Capacity short of it all: the content's end is kept.
    auto cut = zest::finalize_dictionary(content, s.all, s.sizes, header + 1000, 3, 4242);
    ASSERT_TRUE(cut.has_value());
    ASSERT_EQ(cut->size(), header + 1000);
    EXPECT_EQ(std::memcmp(cut->data() + header, content.data() + content.size() - 1000, 1000), 0);
    // Frames written with it by libzstd decode with zest, and the reverse.
    const zest::dictionary d = *zest::dictionary::load(*z);
    for (std::size_t i = 0; i < 20; ++i) {
        const bytes f = libzstd_compress(train[i], *z, 3);
        bytes out(train[i].size());
        auto r = zest::decompress(std::span<std::byte>(out), f, d);
        ASSERT_TRUE(r.has_value() && out == train[i]);
        bytes zf(zest::compress_bound(train[i].size()));
        auto w = zest::compress(std::span<std::byte>(zf), train[i], d);
        ASSERT_TRUE(w.has_value());
        zf.resize(*w);
        bool ok = false;
        EXPECT_TRUE(libzstd_decompress(zf, *z, ok) == train[i] && ok);
    }
}

TEST(Train, FinalizeLeavesOutSamplesThatDoNotCompress) {
    // Half the samples are noise: their blocks would be stored raw, so their
    // bytes must not flatten the literal table the messages need (the
    // reference counts only blocks that compress).
    const std::vector<bytes> train = messages("text", 400, 200, 800, 55);
    const std::vector<bytes> held = messages("text", 200, 200, 800, 56);
    std::vector<bytes> mixed;
    std::mt19937_64 rng(9);
    for (const bytes& m : train) {
        mixed.push_back(m);
        bytes noise(m.size());
        for (auto& b : noise) b = std::byte(rng());
        mixed.push_back(std::move(noise));
    }
    const sample_set clean = concat(train), noisy = concat(mixed);
    const bytes content(clean.all.begin(), clean.all.begin() + 8000);
    auto a = zest::finalize_dictionary(content, clean.all, clean.sizes, 16384, 3, 0);
    auto b = zest::finalize_dictionary(content, noisy.all, noisy.sizes, 16384, 3, 0);
    ASSERT_TRUE(a.has_value() && b.has_value());
    const double with_clean = double(libzstd_total(held, *a, 3)), with_noisy = double(libzstd_total(held, *b, 3));
    EXPECT_LT(with_noisy, with_clean * 1.003) << "the noise's literals went into the tables";
}

}  // namespace
}  // namespace zest::test
