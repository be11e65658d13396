// Reproducers of what the decompression fuzzer (fuzz/) found, run in every
// build. Each bug keeps its minimized input here; fuzz/regressions/ keeps
// them as files too, with examples of the known differences from libzstd
// (tests/known_differences.md), and every file there must be handled
// consistently by each entry point.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <new>
#include <string>
#include <system_error>
#include <vector>

#include "zest/zest.hpp"

// The largest single allocation, to check that a header alone cannot make
// the vector overload allocate much.
namespace {
std::atomic<std::size_t> largest_allocation{0};
}  // namespace

namespace {
void* counted_malloc(std::size_t n) noexcept {
    std::size_t seen = largest_allocation.load(std::memory_order_relaxed);
    while (n > seen && !largest_allocation.compare_exchange_weak(seen, n, std::memory_order_relaxed)) {
    }
    return std::malloc(n ? n : 1);
}
}  // namespace

// Every form of new goes through malloc and every delete through free (the
// forms not replaced would pair the sanitizers' own new with this free).
void* operator new(std::size_t n) {
    if (void* p = counted_malloc(n)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return counted_malloc(n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return counted_malloc(n); }
// GCC 12 flags free() inside a replacement operator delete as mismatched.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

namespace {

using bytes = std::vector<std::byte>;

bytes make(std::initializer_list<unsigned> v) {
    bytes out;
    for (unsigned b : v) out.push_back(static_cast<std::byte>(b));
    return out;
}

zest::result<std::size_t> decode(const bytes& src, std::vector<std::byte>& dst) {
    return zest::decompress(std::span(dst), std::span(src));
}

// FSE-compressed Huffman weights whose bitstream is too short for the two
// initial states (the example of the reference's decompressor_permissive.md).
// zest read the missing bits with a wrapped shift (garbage); it now rejects
// the tree (src/common/huffman.cpp, decode_fse_weights).
TEST(FuzzRegression, TruncatedHuffmanInitialStatesAreCorruption) {
    const bytes src = make({0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x00, 0x55, 0x00, 0x00, 0x72, 0x80, 0x01, 0x04, 0x20, 0x7e,
                            0x1f, 0x02, 0xaa, 0x00});
    std::vector<std::byte> dst(64);
    const auto r = decode(src, dst);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error(), zest::errc::huffman_invalid);
}

// The sequences bitstream runs out during the first sequence's state
// updates; the second sequence, decoded from missing bits, has an absurd
// offset. zest reported offset_invalid; the cause is the corrupt stream, and
// the differential fuzzer files it under known difference 8 (libzstd 1.5.4
// decodes such blocks) only with that error.
TEST(FuzzRegression, OverrunSequencesStreamIsReportedAsSuch) {
    for (const unsigned modes : {0x00u, 0x02u}) {
        const bytes src = make({0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x00, 0x45, 0x00, 0x00, 0x08, 0x00, 0x02, modes, 0x2f,
                                0x43, 0x03, 0xae});
        std::vector<std::byte> dst(64);
        const auto r = decode(src, dst);
        ASSERT_FALSE(r);
        EXPECT_EQ(r.error(), modes ? zest::errc::reserved_bit_set : zest::errc::sequences_invalid);
    }
}

// A 17-byte frame declaring 1 GiB of content: the vector overload reserved
// (and zero-filled) the whole declared size before reading a block
// (src/decompress/frame.cpp, decode_frame). Now the reservation is bounded
// by what the input can produce.
TEST(FuzzRegression, DeclaredSizeBeyondTheInputIsNotReserved) {
    const bytes src =
        make({0x28, 0xb5, 0x2f, 0xfd, 0xc0, 0x50, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00});
    largest_allocation = 0;
    EXPECT_THROW((void)zest::decompress(std::span(src)), std::system_error);
    EXPECT_LT(largest_allocation.load(), std::size_t(1) << 20);

    // The same with 8 GiB - 1, just under the default limit's guard.
    bytes big = src;
    big[9] = std::byte{0xff};
    big[10] = std::byte{0xff};
    big[11] = std::byte{0xff};
    big[12] = std::byte{0xff};
    big[13] = std::byte{0x01};
    largest_allocation = 0;
    EXPECT_THROW((void)zest::decompress(std::span(big)), std::system_error);
    EXPECT_LT(largest_allocation.load(), std::size_t(1) << 20);
}

// Valid frames with a known size still get one exact allocation.
TEST(FuzzRegression, DeclaredSizeWithinReachIsStillReservedOnce) {
    // Single segment, content size 5, one raw block "hello".
    const bytes src = make({0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x05, 0x29, 0x00, 0x00, 'h', 'e', 'l', 'l', 'o'});
    const std::vector<std::byte> out = zest::decompress(std::span(src));
    ASSERT_EQ(out.size(), 5u);
    EXPECT_EQ(static_cast<char>(out[0]), 'h');
    // An RLE block of 100000 bytes from 4 bytes of block: within reach.
    const bytes rle = make({0x28, 0xb5, 0x2f, 0xfd, 0x80, 0x70, 0xa0, 0x86, 0x01, 0x00, 0x03, 0x35, 0x0c, 0x7a});
    const std::vector<std::byte> many = zest::decompress(std::span(rle));
    ASSERT_EQ(many.size(), 100000u);
    EXPECT_EQ(static_cast<char>(many[99999]), 'z');
}

// A sequence whose offset works out to 0: literal length 0 and offset code
// 3 (repeat offset 1 minus 1) while repeat offset 1 is 1 (the example of the
// reference's decompressor_permissive.md, its golden off0.bin.zst). zest,
// like libzstd up to 1.5.5, read it as 1 and decoded 18 bytes; the format
// calls it corruption, and libzstd since 1.5.6 rejects it.
TEST(FuzzRegression, ZeroOffsetIsCorruption) {
    const bytes src =
        make({0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x00, 0x45, 0x00, 0x00, 0x08, 0x00, 0x02, 0x00, 0x2f, 0x43, 0x0b, 0xae});
    std::vector<std::byte> dst(64);
    const auto r = decode(src, dst);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error(), zest::errc::offset_invalid);
    // The streaming decoder too, fed a byte at a time.
    zest::decompress_stream ds;
    zest::result<std::size_t> s = std::size_t(1);
    for (std::size_t i = 0; i < src.size() && s; ++i) {
        zest::in_buffer in{src.data() + i, 1, 0};
        zest::out_buffer out{dst.data(), dst.size(), 0};
        s = ds.decompress(out, in);
    }
    ASSERT_FALSE(s);
    EXPECT_EQ(s.error(), zest::errc::offset_invalid);
}

// A compressed block whose sequence count is 0 in its 2-byte form (80 00),
// followed by a modes byte and 12 more bytes: the count ends the section,
// so the rest is corruption. libzstd 1.5.4 ignores it and decodes nothing;
// 1.5.7 rejects it as zest does (found by the differential fuzzer;
// tests/known_differences.md, class 13). The 1-byte form 00 with bytes after
// it is rejected too.
TEST(FuzzRegression, BytesAfterAZeroSequenceCount) {
    const bytes two_byte = make({0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x00, 0x85, 0x00, 0x00, 0x00, 0x80, 0x00, 0x00,
                                 0x03, 0x66, 0x21, 0x00, 0x00, 0x00, 0x00, 0x04, 0x04, 0x04, 0x01, 0x00});
    std::vector<std::byte> dst(64);
    auto r = decode(two_byte, dst);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error(), zest::errc::sequences_invalid);
    // The same block ending right after the count decodes (to nothing).
    const bytes exact = make({0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x00, 0x1d, 0x00, 0x00, 0x00, 0x80, 0x00});
    r = decode(exact, dst);
    ASSERT_TRUE(r) << r.message();
    EXPECT_EQ(*r, 0u);
    const bytes one_byte = make({0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x00, 0x1d, 0x00, 0x00, 0x00, 0x00, 0x00});
    r = decode(one_byte, dst);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error(), zest::errc::sequences_invalid);
}

// A frame whose one compressed block holds a 4-stream Huffman literals
// section of `regen` bytes (a 2-symbol tree of 1-bit codes) and no sequences.
bytes four_stream_literals(unsigned regen) {
    const unsigned per = (regen + 3) / 4;
    const unsigned counts[4] = {per, per, per, regen - 3 * per};
    bytes body = make({0x80, 0x10});  // tree: one weight given (1), the second implied (1)
    for (int i = 0; i < 3; ++i) {  // jump table: every stream is 1 byte
        body.push_back(std::byte{1});
        body.push_back(std::byte{0});
    }
    for (const unsigned c : counts) body.push_back(static_cast<std::byte>(1u << c));  // c zero bits, end mark
    const std::uint32_t header = 2u | 1u << 2 | regen << 4 | std::uint32_t(body.size()) << 14;
    bytes block = make({header & 0xFF, (header >> 8) & 0xFF, header >> 16});
    block.insert(block.end(), body.begin(), body.end());
    block.push_back(std::byte{0});  // no sequences
    const std::uint32_t bh = std::uint32_t(block.size()) << 3 | 2u << 1 | 1u;
    bytes f = make({0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x00, bh & 0xFF, (bh >> 8) & 0xFF, bh >> 16});
    f.insert(f.end(), block.begin(), block.end());
    return f;
}

// "A minimum of 6 bytes is required for the 4 streams mode": zest decoded
// sections of 0 and 4 bytes (libzstd rejects them).
TEST(FuzzRegression, FourStreamLiteralsNeedSixBytes) {
    std::vector<std::byte> dst(64);
    for (const unsigned regen : {0u, 4u}) {
        const auto r = decode(four_stream_literals(regen), dst);
        ASSERT_FALSE(r) << regen;
        EXPECT_EQ(r.error(), zest::errc::literals_invalid) << regen;
    }
    for (const unsigned regen : {6u, 7u, 8u, 12u}) {
        const auto r = decode(four_stream_literals(regen), dst);
        ASSERT_TRUE(r) << regen << ": " << zest::error_message(r.error());
        EXPECT_EQ(*r, regen);
    }
}

struct outcome {
    bool ok = false;
    zest::errc error{};
    bytes out;
    bool operator==(const outcome&) const = default;
};

// Every stored reproducer: the entry points agree, and they fail, since
// they are invalid frames (bug-*) or frames zest rejects on purpose where
// libzstd accepts them (known-*); except known-accepted-*, frames zest
// decodes on purpose where libzstd rejects them
// (tests/known_differences.md, class 11), which must decode.
TEST(FuzzRegression, StoredReproducers) {
    const std::filesystem::path dir = ZEST_FUZZ_REGRESSIONS_DIR;
    ASSERT_TRUE(std::filesystem::is_directory(dir)) << dir;
    int files = 0, accepted_files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        if (!entry.is_regular_file() || entry.path().extension() != ".zst") continue;
        SCOPED_TRACE(entry.path().filename().string());
        ++files;
        std::ifstream in(entry.path(), std::ios::binary);
        const std::vector<char> raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        bytes src(raw.size());
        std::memcpy(src.data(), raw.data(), raw.size());

        std::vector<std::byte> dst(std::size_t(4) << 20);
        outcome one_shot, context, vec;
        if (const auto r = decode(src, dst)) {
            one_shot.ok = true;
            one_shot.out.assign(dst.begin(), dst.begin() + static_cast<std::ptrdiff_t>(*r));
        } else {
            one_shot.error = r.error();
        }
        zest::decompressor d;
        if (const auto r = d.decompress(std::span(dst), std::span(src))) {
            context.ok = true;
            context.out.assign(dst.begin(), dst.begin() + static_cast<std::ptrdiff_t>(*r));
        } else {
            context.error = r.error();
        }
        try {
            vec.out = zest::decompress(std::span(src));
            vec.ok = true;
        } catch (const std::system_error& e) {
            vec.error = static_cast<zest::errc>(e.code().value());
        }
        EXPECT_EQ(one_shot, context);
        // A fixed buffer may be too small where the vector would grow.
        if (one_shot.ok || one_shot.error != zest::errc::destination_too_small) {
            EXPECT_EQ(one_shot, vec);
        }
        const bool accepted = entry.path().filename().string().starts_with("known-accepted-");
        accepted_files += accepted;
        EXPECT_EQ(one_shot.ok, accepted) << zest::error_message(one_shot.error);
        EXPECT_EQ(vec.ok, accepted) << zest::error_message(vec.error);
    }
    EXPECT_GT(files, 0);
    EXPECT_GT(accepted_files, 0);
}

}  // namespace
