// zest::settings_table against libzstd: every row's bounds are what
// ZSTD_cParam_getBounds reports, every value a libzstd context takes (or
// clamps, or refuses) is taken, clamped or refused the same way by
// set_setting, and the defaults are what a new libzstd context reports.
// Then the one settings type on both context classes.
#include <climits>
#include <cstring>
#include <string_view>
#include <vector>

#define ZSTD_STATIC_LINKING_ONLY  // ZSTD_c_rsyncable
#include <gtest/gtest.h>
#include <zstd.h>

#include "zest/zest.hpp"

namespace {

// The libzstd parameter behind each row, by the row's name.
ZSTD_cParameter reference_parameter(std::string_view name) {
    struct entry {
        std::string_view name;
        ZSTD_cParameter p;
    };
    static const entry all[] = {
        {"compressionLevel", ZSTD_c_compressionLevel},
        {"checksumFlag", ZSTD_c_checksumFlag},
        {"contentSizeFlag", ZSTD_c_contentSizeFlag},
        {"dictIDFlag", ZSTD_c_dictIDFlag},
        {"windowLog", ZSTD_c_windowLog},
        {"chainLog", ZSTD_c_chainLog},
        {"hashLog", ZSTD_c_hashLog},
        {"searchLog", ZSTD_c_searchLog},
        {"minMatch", ZSTD_c_minMatch},
        {"targetLength", ZSTD_c_targetLength},
        {"strategy", ZSTD_c_strategy},
        {"enableLongDistanceMatching", ZSTD_c_enableLongDistanceMatching},
        {"ldmHashLog", ZSTD_c_ldmHashLog},
        {"ldmMinMatch", ZSTD_c_ldmMinMatch},
        {"ldmBucketSizeLog", ZSTD_c_ldmBucketSizeLog},
        {"ldmHashRateLog", ZSTD_c_ldmHashRateLog},
        {"nbWorkers", ZSTD_c_nbWorkers},
        {"jobSize", ZSTD_c_jobSize},
        {"overlapLog", ZSTD_c_overlapLog},
        {"rsyncable", ZSTD_c_rsyncable},
    };
    for (const entry& e : all)
        if (e.name == name) return e.p;
    ADD_FAILURE() << "no libzstd parameter named " << name;
    return ZSTD_c_compressionLevel;
}

std::vector<int> probes(const zest::setting_info& s) {
    return {0,         1,         -1,        2,         3,         s.lower, s.lower - 1, s.lower + 1,
            s.upper,   s.upper - 1, s.upper + 1, (s.lower + s.upper) / 2, INT_MIN, INT_MAX, 1000, 1 << 20};
}

TEST(Settings, BoundsAreTheReferences) {
    for (const zest::setting_info& s : zest::settings_table) {
        SCOPED_TRACE(s.name);
        const ZSTD_bounds b = ZSTD_cParam_getBounds(reference_parameter(s.name));
        ASSERT_FALSE(ZSTD_isError(b.error)) << ZSTD_getErrorName(b.error);
        // libzstd reports jobSize from its default, 0, and raises other
        // values to its least job size (checked below).
        EXPECT_EQ(s.id == zest::setting::job_size ? 0 : s.lower, b.lowerBound);
        EXPECT_EQ(s.upper, b.upperBound);
    }
}

TEST(Settings, DefaultsAreTheReferences) {
    ZSTD_CCtx* ref = ZSTD_createCCtx();
    ASSERT_NE(ref, nullptr);
    const zest::compression_options defaults;
    for (const zest::setting_info& s : zest::settings_table) {
        int v = -12345;
        ASSERT_EQ(ZSTD_CCtx_getParameter(ref, reference_parameter(s.name), &v), 0u) << s.name;
        EXPECT_EQ(zest::get_setting(defaults, s.id), v) << s.name;
    }
    ZSTD_freeCCtx(ref);
}

TEST(Settings, ValuesAreTakenClampedOrRefusedAsTheReferenceDoes) {
    for (const zest::setting_info& s : zest::settings_table) {
        SCOPED_TRACE(s.name);
        for (const int v : probes(s)) {
            ZSTD_CCtx* ref = ZSTD_createCCtx();
            ASSERT_NE(ref, nullptr);
            const ZSTD_cParameter p = reference_parameter(s.name);
            const std::size_t r = ZSTD_CCtx_setParameter(ref, p, v);
            zest::compression_options o;
            const zest::compression_options before = o;
            const auto ours = zest::set_setting(o, s.id, v);
            EXPECT_EQ(!ZSTD_isError(r), ours.has_value()) << v << ": " << ZSTD_getErrorName(r);
            if (ZSTD_isError(r)) {
                EXPECT_TRUE(o == before) << "a refused " << v << " changed the options";
            } else if (ours) {
                int stored = 0;
                ASSERT_EQ(ZSTD_CCtx_getParameter(ref, p, &stored), 0u);
                // libzstd clamps rsyncable to overlapLog's bounds (0..9) and
                // reads it as a flag; zest stores the flag.
                if (s.id == zest::setting::rsyncable) stored = stored != 0;
                EXPECT_EQ(*ours, stored) << v;
                EXPECT_EQ(zest::get_setting(o, s.id), stored) << v;
                EXPECT_TRUE(zest::valid(o)) << v;
            }
            ZSTD_freeCCtx(ref);
        }
    }
}

TEST(Settings, AdmittedAndValidAgree) {
    zest::compression_options o;
    o.parameters.hash_log = 31;  // refused: back to the level's
    o.parameters.window_log = 20;
    o.overlap_log = 12;  // clamped
    o.level = 99;        // clamped
    EXPECT_FALSE(zest::valid(o));
    const zest::compression_options a = zest::admitted(o);
    EXPECT_EQ(a.parameters.hash_log, 0u);
    EXPECT_EQ(a.parameters.window_log, 20u);
    EXPECT_EQ(a.overlap_log, 9u);
    EXPECT_EQ(a.level, zest::max_level);
    EXPECT_TRUE(zest::valid(a));
}

template <class Context>
void check_one_settings_type(Context& c) {
    zest::compression_options o;
    o.level = 7;
    o.checksum = true;
    o.content_size = false;
    o.dictionary_id = false;
    o.parameters.search_log = 4;
    o.workers = 2;
    ASSERT_TRUE(c.set_options(o));
    EXPECT_TRUE(c.options() == o);
    EXPECT_EQ(c.level(), 7);
    EXPECT_TRUE(c.checksum());
    EXPECT_FALSE(c.content_size());
    EXPECT_FALSE(c.dictionary_id_written());
    EXPECT_EQ(c.get(zest::setting::search_log), 4);
    EXPECT_EQ(c.get(zest::setting::workers), 2);
    // A refused field: nothing changes.
    zest::compression_options bad = o;
    bad.level = 1;
    bad.parameters.min_match = 9;
    EXPECT_FALSE(c.set_options(bad));
    EXPECT_TRUE(c.options() == o);
    // One by one, through the table.
    const auto clamped = c.set(zest::setting::overlap_log, 20);
    ASSERT_TRUE(clamped);
    EXPECT_EQ(*clamped, 9);
    EXPECT_FALSE(c.set(zest::setting::chain_log, 5));
    EXPECT_EQ(c.get(zest::setting::chain_log), 0);
    const auto level = c.set(zest::setting::level, 0);
    ASSERT_TRUE(level);
    EXPECT_EQ(*level, zest::default_level);
    EXPECT_FALSE(c.set(static_cast<zest::setting>(zest::setting_count), 1));
}

TEST(Settings, OneTypeOnBothContexts) {
    zest::compressor c;
    check_one_settings_type(c);
    c.reset();
    EXPECT_TRUE(c.options() == zest::compression_options{});
    zest::compress_stream cs;
    check_one_settings_type(cs);
}

TEST(Settings, AStreamMidFrameRefusesEveryChange) {
    zest::compress_stream cs;
    std::vector<unsigned char> in(1000, 'a'), out(2000);
    zest::in_buffer ib{in.data(), in.size(), 0};
    zest::out_buffer ob{out.data(), out.size(), 0};
    ASSERT_TRUE(cs.compress(ob, ib, zest::directive::proceed));
    const zest::compression_options before = cs.options();
    for (const zest::setting_info& s : zest::settings_table) {
        EXPECT_FALSE(cs.set(s.id, s.upper)) << s.name;
    }
    zest::compression_options o;
    o.level = 9;
    EXPECT_FALSE(cs.set_options(o));
    EXPECT_FALSE(cs.set_dictionary({}));
    EXPECT_TRUE(cs.options() == before);
    ib = {in.data(), 0, 0};
    ASSERT_TRUE(cs.compress(ob, ib, zest::directive::end));
    EXPECT_TRUE(cs.set_options(o));  // the frame ended
    EXPECT_EQ(cs.level(), 9);
}

}  // namespace
