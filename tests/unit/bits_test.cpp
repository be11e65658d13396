// Byte loads, highbit32 and the backward bit reader (RFC 8878: streams are
// read from their last byte, whose highest set bit is the end mark).
#include <gtest/gtest.h>

#include "common/bits.hpp"
#include "test_util.hpp"

namespace {

using zest::detail::backward_bit_reader;
using zest_test::bytes;

// Bit i of a stream is bit (i % 8) of byte i / 8 (little-endian order).
unsigned bit_at(const bytes& b, std::size_t i) { return (b[i / 8] >> (i % 8)) & 1u; }

// The n bits just below bit position `top` (exclusive), first-read bit highest:
// how the RFC defines reading a backward stream.
std::uint64_t model_read(const bytes& b, std::size_t top, unsigned n) {
    std::uint64_t v = 0;
    for (unsigned j = 0; j < n; ++j) v = (v << 1) | bit_at(b, top - 1 - j);
    return v;
}

// Payload bits of a stream: everything below the end mark.
std::size_t payload_bits(const bytes& b) {
    unsigned mark = 7;
    while (!((b.back() >> mark) & 1)) --mark;
    return 8 * (b.size() - 1) + mark;
}

TEST(LoadLe, KnownBytesAlignedAndUnaligned) {
    const std::uint8_t b[] = {0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF, 0x10};
    EXPECT_EQ(zest::detail::load_le16(b), 0x2301u);
    EXPECT_EQ(zest::detail::load_le24(b), 0x452301u);
    EXPECT_EQ(zest::detail::load_le32(b), 0x67452301u);
    EXPECT_EQ(zest::detail::load_le64(b), 0xEFCDAB8967452301ull);
    EXPECT_EQ(zest::detail::load_le16(b + 1), 0x4523u);
    EXPECT_EQ(zest::detail::load_le24(b + 1), 0x674523u);
    EXPECT_EQ(zest::detail::load_le32(b + 1), 0x89674523u);
    EXPECT_EQ(zest::detail::load_le64(b + 1), 0x10EFCDAB89674523ull);
    // load_le24 reads exactly three bytes: the fourth never leaks in.
    const std::uint8_t c[] = {0xFF, 0xFF, 0xFF, 0x5A};
    EXPECT_EQ(zest::detail::load_le24(c), 0xFFFFFFu);
}

TEST(HighBit32, EveryBitPosition) {
    for (unsigned k = 0; k < 32; ++k) {
        const std::uint32_t p = std::uint32_t(1) << k;
        EXPECT_EQ(zest::detail::highbit32(p), k) << k;
        EXPECT_EQ(zest::detail::highbit32(p | (p - 1)), k) << k;  // all lower bits set
    }
    EXPECT_EQ(zest::detail::highbit32(3), 1u);
    EXPECT_EQ(zest::detail::highbit32(5), 2u);
    EXPECT_EQ(zest::detail::highbit32(0x80000001u), 31u);
}

TEST(BackwardBitReader, RejectsEmptyStream) {
    const std::uint8_t b[1] = {0x80};
    backward_bit_reader br;
    EXPECT_FALSE(br.init(b, 0));
}

TEST(BackwardBitReader, RejectsLastByteZeroAtEverySize) {
    for (std::size_t n = 1; n <= 16; ++n) {
        bytes b(n, 0xFF);
        b.back() = 0;
        backward_bit_reader br;
        EXPECT_FALSE(br.init(b.data(), n)) << "size " << n;
        b.back() = 1;
        EXPECT_TRUE(br.init(b.data(), n)) << "size " << n;
    }
}

// The RFC's Huffman example stream "00010000 00001101" holds, read from the
// end, the fields 1, 01, 0001, 0000.
TEST(BackwardBitReader, RfcExampleStream) {
    const std::uint8_t b[] = {0x10, 0x0D};
    backward_bit_reader br;
    ASSERT_TRUE(br.init(b, 2));
    EXPECT_FALSE(br.finished());
    EXPECT_EQ(br.peek(1), 1u);
    EXPECT_EQ(br.read(1), 1u);
    EXPECT_EQ(br.read(2), 1u);
    EXPECT_EQ(br.read(4), 1u);
    EXPECT_FALSE(br.finished());
    EXPECT_EQ(br.read(4), 0u);
    EXPECT_TRUE(br.finished());
    EXPECT_FALSE(br.overflowed());
    br.read(1);
    EXPECT_TRUE(br.overflowed());
    EXPECT_FALSE(br.finished());
}

// A stream whose last byte is 0x01 (end mark only) returns its other bytes,
// 8 bits at a time, from the last to the first.
TEST(BackwardBitReader, BytesComeBackInReverseOrder) {
    for (std::size_t n = 1; n <= 16; ++n) {
        bytes b(n);
        for (std::size_t i = 0; i + 1 < n; ++i) b[i] = std::uint8_t(0x11 * (i + 1) + 3);
        b.back() = 0x01;
        backward_bit_reader br;
        ASSERT_TRUE(br.init(b.data(), n));
        for (std::size_t i = n - 1; i-- > 0;) {
            EXPECT_FALSE(br.finished()) << "size " << n << " byte " << i;
            br.refill();
            EXPECT_EQ(br.read(8), b[i]) << "size " << n << " byte " << i;
        }
        br.refill();
        EXPECT_TRUE(br.finished()) << "size " << n;
        EXPECT_FALSE(br.overflowed()) << "size " << n;
        br.read(1);
        br.refill();
        EXPECT_TRUE(br.overflowed()) << "size " << n;
        EXPECT_FALSE(br.finished()) << "size " << n;
    }
}

// Every size 1..16, several end-mark positions and read widths: the bits come
// out as the RFC's model says, finished() holds exactly at the end and
// overflowed() one bit past it.
TEST(BackwardBitReader, KnownPatternsAllSizesAndWidths) {
    const std::uint8_t last_bytes[] = {0x01, 0x02, 0x0D, 0x5A, 0x80, 0xFF};
    const unsigned widths[] = {1, 3, 7, 8, 13, 25, 31};
    for (std::size_t n = 1; n <= 16; ++n) {
        for (std::uint8_t last : last_bytes) {
            for (unsigned w : widths) {
                bytes b = zest_test::pseudo_random_bytes(n, unsigned(n * 131 + last));
                b.back() = last;
                const std::size_t total = payload_bits(b);
                backward_bit_reader br;
                ASSERT_TRUE(br.init(b.data(), n));
                std::size_t top = total;
                while (top > 0) {
                    const unsigned k = unsigned(std::min<std::size_t>(w, top));
                    br.refill();
                    EXPECT_FALSE(br.finished());
                    ASSERT_EQ(br.read(k), model_read(b, top, k))
                        << "size " << n << " last " << int(last) << " width " << w << " top " << top;
                    EXPECT_FALSE(br.overflowed());
                    top -= k;
                }
                br.refill();
                EXPECT_TRUE(br.finished()) << "size " << n << " last " << int(last) << " width " << w;
                EXPECT_FALSE(br.overflowed());
                br.read(1);  // one bit past the start
                br.refill();
                EXPECT_TRUE(br.overflowed()) << "size " << n << " last " << int(last);
                EXPECT_FALSE(br.finished());
            }
        }
    }
}

TEST(BackwardBitReader, FinishedRequiresEveryBit) {
    // One bit short of the end is not finished, whatever the size.
    for (std::size_t n = 1; n <= 16; ++n) {
        bytes b(n, 0xA5);
        b.back() = 0x03;  // one payload bit in the last byte
        backward_bit_reader br;
        ASSERT_TRUE(br.init(b.data(), n));
        std::size_t left = payload_bits(b);
        while (left > 1) {
            br.refill();
            const unsigned k = unsigned(std::min<std::size_t>(left - 1, 24));
            br.read(k);
            left -= k;
        }
        br.refill();
        EXPECT_FALSE(br.finished()) << n;
        EXPECT_FALSE(br.overflowed()) << n;
        EXPECT_EQ(br.read(1), 1u) << n;  // the lowest bit of byte 0 (0xA5 or the 0x03 itself)
        br.refill();
        EXPECT_TRUE(br.finished()) << n;
    }
}

// 64 bits used from a container that is not the stream's first 8 bytes:
// bytes remain, so the stream is not finished until a refill shows it.
TEST(BackwardBitReader, FinishedNeedsTheStreamStart) {
    for (std::size_t n = 9; n <= 16; ++n) {
        bytes b(n, 0x42);
        b.back() = 0x01;
        backward_bit_reader br;
        ASSERT_TRUE(br.init(b.data(), n));
        br.read(56);  // the container's other 7 bytes
        EXPECT_FALSE(br.finished()) << n;
        EXPECT_FALSE(br.overflowed()) << n;
        br.refill();
        EXPECT_FALSE(br.finished()) << n;
        for (std::size_t left = n - 8; left > 0; --left) {
            br.refill();
            EXPECT_EQ(br.read(8), 0x42u);
        }
        br.refill();
        EXPECT_TRUE(br.finished()) << n;
    }
}

TEST(BackwardBitReader, PeekVariantsAndSkip) {
    const std::uint8_t b[] = {0x34, 0x12, 0x81};  // payload: 0x01 (7 bits), 0x12, 0x34
    backward_bit_reader br;
    ASSERT_TRUE(br.init(b, 3));
    EXPECT_EQ(br.peek(0), 0u);
    EXPECT_EQ(br.peek(7), 0x01u);
    EXPECT_EQ(br.peek_nz(7), 0x01u);
    EXPECT_EQ(br.peek(15), (0x01u << 8) | 0x12u);
    br.skip(7);
    EXPECT_EQ(br.peek_nz(4), 0x1u);
    EXPECT_EQ(br.peek(8), 0x12u);
    EXPECT_EQ(br.read(0), 0u);
    EXPECT_EQ(br.read(16), 0x1234u);
    EXPECT_TRUE(br.finished());
}

TEST(BackwardBitReader, RefillFastMovesByWholeConsumedBytes) {
    bytes b(16);
    for (std::size_t i = 0; i < 15; ++i) b[i] = std::uint8_t(0xB0 + i);
    b[15] = 0x01;
    backward_bit_reader br;
    ASSERT_TRUE(br.init(b.data(), 16));
    EXPECT_EQ(br.ptr, b.data() + 8);
    EXPECT_EQ(br.consumed, 8u);  // the end-mark byte
    EXPECT_TRUE(br.can_refill_fast());
    EXPECT_EQ(br.read(8), 0xBEu);
    EXPECT_EQ(br.read(8), 0xBDu);
    EXPECT_EQ(br.read(3), 0xBCu >> 5);
    br.refill_fast();  // 27 bits consumed: 3 whole bytes
    EXPECT_EQ(br.ptr, b.data() + 5);
    EXPECT_EQ(br.consumed, 3u);
    EXPECT_FALSE(br.can_refill_fast());
    EXPECT_EQ(br.read(5), 0xBCu & 31);
    for (unsigned i = 11; i >= 7; --i) EXPECT_EQ(br.read(8), 0xB0u + i);
    // 48 bits consumed at ptr = start + 5: refill() may only step back 5 bytes.
    br.refill();
    EXPECT_EQ(br.ptr, b.data());
    EXPECT_EQ(br.consumed, 8u);
    EXPECT_FALSE(br.finished());
    for (unsigned i = 7; i-- > 0;) EXPECT_EQ(br.read(8), 0xB0u + i);  // bytes 6..0
    EXPECT_TRUE(br.finished());
    br.refill();  // at the start: a no-op
    EXPECT_TRUE(br.finished());
    EXPECT_EQ(br.ptr, b.data());
}

// After a refill the reader holds at least 57 bits unless the stream's start
// is near: a 56-bit read then matches the model.
TEST(BackwardBitReader, FiftySixBitReads) {
    for (std::size_t n = 8; n <= 16; ++n) {
        bytes b = zest_test::pseudo_random_bytes(n, unsigned(n));
        b.back() = 0x80;  // 7 payload bits in the last byte
        backward_bit_reader br;
        ASSERT_TRUE(br.init(b.data(), n));
        std::size_t top = payload_bits(b);
        br.read(3);
        top -= 3;
        br.refill();
        const std::size_t avail = 64 - br.consumed;
        if (br.ptr != b.data()) {
            EXPECT_GE(avail, 57u) << n;
        }
        const unsigned k = unsigned(std::min<std::size_t>(56, top));
        EXPECT_EQ(br.read(k), model_read(b, top, k)) << n;
    }
}

}  // namespace
