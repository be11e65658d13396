// zest::errc, its std::error_category and result<T>.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <system_error>
#include <vector>

#include "zest/errors.hpp"

namespace {

using zest::errc;

const std::vector<errc> all_errors = {
    errc::invalid_argument,    errc::truncated_input,    errc::unknown_frame,    errc::reserved_bit_set,
    errc::frame_header_invalid, errc::window_too_large,  errc::dictionary_required, errc::block_invalid,
    errc::literals_invalid,    errc::huffman_invalid,    errc::fse_invalid,      errc::sequences_invalid,
    errc::offset_invalid,      errc::content_size_mismatch, errc::checksum_mismatch, errc::destination_too_small,
    errc::out_of_memory,       errc::io_error,           errc::dictionary_wrong, errc::dictionary_invalid,
};

TEST(Errors, ValuesAreStable) {
    // Documented as stable: 1..18 in declaration order, 0 never an error.
    for (std::size_t i = 0; i < all_errors.size(); ++i) EXPECT_EQ(static_cast<int>(all_errors[i]), int(i) + 1);
}

TEST(Errors, EveryCodeHasItsOwnMessage) {
    std::set<std::string> seen;
    for (errc e : all_errors) {
        const char* m = zest::error_message(e);
        ASSERT_NE(m, nullptr) << int(e);
        EXPECT_GT(std::string(m).size(), 3u) << int(e);
        EXPECT_NE(std::string(m), "unknown error") << int(e);
        seen.insert(m);
    }
    EXPECT_EQ(seen.size(), all_errors.size());
    // Out-of-range values still get text.
    EXPECT_NE(zest::error_message(static_cast<errc>(0)), nullptr);
    EXPECT_NE(zest::error_message(static_cast<errc>(999)), nullptr);
}

TEST(Errors, CategoryBridge) {
    const std::error_category& cat = zest::error_category();
    EXPECT_STREQ(cat.name(), "zest");
    EXPECT_EQ(&cat, &zest::error_category());  // one instance
    for (errc e : all_errors) {
        const std::error_code ec = e;  // is_error_code_enum: implicit
        EXPECT_EQ(ec.value(), static_cast<int>(e));
        EXPECT_EQ(&ec.category(), &cat);
        EXPECT_EQ(ec.message(), zest::error_message(e));
        EXPECT_TRUE(ec == e);
        EXPECT_TRUE(static_cast<bool>(ec));
        EXPECT_EQ(zest::make_error_code(e), ec);
        for (errc other : all_errors)
            if (other != e) {
                EXPECT_FALSE(ec == other);
            }
    }
    // Not equal to a generic error with the same value.
    EXPECT_NE(std::error_code(errc::truncated_input), std::error_code(2, std::generic_category()));
}

TEST(Errors, ResultHoldsValue) {
    zest::result<int> r = 42;
    ASSERT_TRUE(r.has_value());
    EXPECT_TRUE(static_cast<bool>(r));
    EXPECT_EQ(r.value(), 42);
    EXPECT_EQ(*r, 42);
    EXPECT_FALSE(r.error_code());
    EXPECT_STREQ(r.message(), "ok");
    r.value() = 7;
    EXPECT_EQ(*r, 7);
    zest::result<std::string> s = std::string("abc");
    EXPECT_EQ(s->size(), 3u);
    EXPECT_EQ(std::move(s).value(), "abc");
}

TEST(Errors, ResultValueThrowsSystemError) {
    for (errc e : all_errors) {
        zest::result<int> r = e;
        ASSERT_FALSE(r.has_value());
        EXPECT_FALSE(static_cast<bool>(r));
        EXPECT_EQ(r.error(), e);
        EXPECT_EQ(r.error_code(), e);
        EXPECT_STREQ(r.message(), zest::error_message(e));
        try {
            (void)r.value();
            ADD_FAILURE() << "value() did not throw for " << int(e);
        } catch (const std::system_error& ex) {
            EXPECT_EQ(ex.code(), e);
            EXPECT_EQ(&ex.code().category(), &zest::error_category());
        }
        const zest::result<int>& cr = r;
        EXPECT_THROW((void)cr.value(), std::system_error);
        EXPECT_THROW((void)zest::result<std::vector<int>>(e).value(), std::system_error);
    }
}

}  // namespace
