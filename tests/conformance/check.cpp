#include "check.hpp"

#include <zstd.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <system_error>

#include "frames.hpp"

namespace zest {
void PrintTo(errc e, std::ostream* os) { *os << test::errc_name(e); }
}  // namespace zest

namespace zest::test {

const char* errc_name(errc e) {
    switch (e) {
        case errc::invalid_argument: return "invalid_argument";
        case errc::truncated_input: return "truncated_input";
        case errc::unknown_frame: return "unknown_frame";
        case errc::reserved_bit_set: return "reserved_bit_set";
        case errc::frame_header_invalid: return "frame_header_invalid";
        case errc::window_too_large: return "window_too_large";
        case errc::dictionary_required: return "dictionary_required";
        case errc::block_invalid: return "block_invalid";
        case errc::literals_invalid: return "literals_invalid";
        case errc::huffman_invalid: return "huffman_invalid";
        case errc::fse_invalid: return "fse_invalid";
        case errc::sequences_invalid: return "sequences_invalid";
        case errc::offset_invalid: return "offset_invalid";
        case errc::content_size_mismatch: return "content_size_mismatch";
        case errc::checksum_mismatch: return "checksum_mismatch";
        case errc::destination_too_small: return "destination_too_small";
        case errc::out_of_memory: return "out_of_memory";
        case errc::io_error: return "io_error";
        case errc::dictionary_wrong: return "dictionary_wrong";
        case errc::dictionary_invalid: return "dictionary_invalid";
    }
    return "errc(?)";
}

::testing::AssertionResult same_bytes(std::span<const std::byte> got, std::span<const std::byte> want) {
    const std::size_t common = std::min(got.size(), want.size());
    const auto diff = std::mismatch(got.begin(), got.begin() + static_cast<std::ptrdiff_t>(common), want.begin());
    const auto at = static_cast<std::size_t>(diff.first - got.begin());
    if (got.size() == want.size() && at == common) return ::testing::AssertionSuccess();
    auto failure = ::testing::AssertionFailure();
    failure << "output has " << got.size() << " bytes, expected " << want.size();
    if (at < common) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "; first difference at offset %zu (got 0x%02x, expected 0x%02x)", at,
                      static_cast<unsigned>(got[at]), static_cast<unsigned>(want[at]));
        failure << buf;
    } else {
        failure << "; equal up to the shorter length";
    }
    return failure;
}

decompressor& shared_decompressor() {
    static decompressor d;
    return d;
}

void expect_frame_inspection_matches_libzstd(std::span<const std::byte> compressed) {
    const auto sizes = libzstd_frame_sizes(compressed);
    ASSERT_TRUE(sizes.has_value()) << "libzstd cannot split the input into frames";
    std::size_t pos = 0;
    for (std::size_t i = 0; i < sizes->size(); ++i) {
        const std::size_t n = (*sizes)[i];
        const auto rest = compressed.subspan(pos);
        SCOPED_TRACE("frame " + std::to_string(i) + " at offset " + std::to_string(pos));

        for (const auto in : {rest, rest.first(n)}) {
            const auto size = find_frame_compressed_size(in);
            if (!size)
                ADD_FAILURE() << "find_frame_compressed_size: " << errc_name(size.error());
            else
                EXPECT_EQ(*size, n) << "find_frame_compressed_size";
        }

        const unsigned long long ref = ZSTD_getFrameContentSize(rest.data(), rest.size());
        const auto fcs = frame_content_size(rest);
        if (ref == ZSTD_CONTENTSIZE_ERROR) {
            EXPECT_FALSE(fcs.has_value()) << "libzstd rejects this frame header";
        } else if (!fcs) {
            ADD_FAILURE() << "frame_content_size: " << errc_name(fcs.error());
        } else if (ref == ZSTD_CONTENTSIZE_UNKNOWN) {
            EXPECT_FALSE(fcs->has_value()) << "frame_content_size reports " << fcs->value_or(0)
                                           << ", libzstd says unknown";
        } else {
            EXPECT_TRUE(fcs->has_value()) << "frame_content_size reports no size, libzstd says " << ref;
            EXPECT_EQ(fcs->value_or(~0ull), ref) << "frame_content_size";
        }
        pos += n;
    }
}

void expect_decodes_to(std::span<const std::byte> compressed, std::span<const std::byte> original) {
    const std::size_t n = original.size();
    {
        bytes dst(n);
        const auto r = decompress(std::span<std::byte>(dst), compressed);
        if (!r) {
            ADD_FAILURE() << "zest::decompress(span) into " << n << " bytes: " << errc_name(r.error());
        } else {
            EXPECT_EQ(*r, n) << "zest::decompress(span) size";
            EXPECT_TRUE(same_bytes(std::span(dst).first(std::min(*r, n)), original)) << "zest::decompress(span)";
        }
    }
    {
        // Pointer form with slack; bytes past the capacity must stay untouched.
        constexpr std::size_t slack = 32, guard = 32;
        bytes dst(n + slack + guard, std::byte{0xA5});
        const auto r = decompress(dst.data(), n + slack, compressed.data(), compressed.size());
        if (!r) {
            ADD_FAILURE() << "zest::decompress(ptr) into " << n + slack << " bytes: " << errc_name(r.error());
        } else {
            EXPECT_EQ(*r, n) << "zest::decompress(ptr) size";
            EXPECT_TRUE(same_bytes(std::span(dst).first(std::min(*r, n)), original)) << "zest::decompress(ptr)";
        }
        EXPECT_TRUE(std::all_of(dst.end() - guard, dst.end(), [](std::byte b) { return b == std::byte{0xA5}; }))
            << "zest::decompress(ptr) wrote past dst_capacity";
    }
    try {
        const bytes v = decompress(compressed);
        EXPECT_TRUE(same_bytes(v, original)) << "zest::decompress(vector)";
    } catch (const std::system_error& e) {
        ADD_FAILURE() << "zest::decompress(vector) threw: " << e.what() << " (" << e.code().value() << ")";
    } catch (const std::exception& e) {
        ADD_FAILURE() << "zest::decompress(vector) threw: " << e.what();
    }
    {
        decompressor& d = shared_decompressor();
        for (int round = 0; round < 2; ++round) {
            bytes dst(n);
            const auto r = d.decompress(std::span<std::byte>(dst), compressed);
            if (!r) {
                ADD_FAILURE() << "reused decompressor, round " << round << ": " << errc_name(r.error());
            } else {
                EXPECT_EQ(*r, n) << "reused decompressor size, round " << round;
                EXPECT_TRUE(same_bytes(std::span(dst).first(std::min(*r, n)), original))
                    << "reused decompressor, round " << round;
            }
        }
        try {
            const bytes v = d.decompress(compressed);
            EXPECT_TRUE(same_bytes(v, original)) << "reused decompressor (vector)";
        } catch (const std::exception& e) {
            ADD_FAILURE() << "reused decompressor (vector) threw: " << e.what();
        }
    }
    {
        decompressor fresh;
        bytes dst(n);
        const auto r = fresh.decompress(dst.data(), dst.size(), compressed.data(), compressed.size());
        if (!r) {
            ADD_FAILURE() << "fresh decompressor: " << errc_name(r.error());
        } else {
            EXPECT_TRUE(same_bytes(std::span(dst).first(std::min(*r, n)), original)) << "fresh decompressor";
        }
    }
}

void expect_conformant(std::span<const std::byte> compressed, std::span<const std::byte> original) {
    const reference_result ref = libzstd_decompress(compressed, original.size());
    ASSERT_TRUE(ref.ok) << "libzstd cannot decode the test frame: " << ref.error;
    ASSERT_TRUE(same_bytes(ref.out, original)) << "libzstd output differs: corpus bug";
    expect_frame_inspection_matches_libzstd(compressed);
    expect_decodes_to(compressed, original);
}

}  // namespace zest::test
