// The forward bit writer against the decoder's backward reader: fields come
// back last first, the end mark is where the reader expects it, and a full
// buffer is reported without a byte stored past it.
#include <gtest/gtest.h>

#include <random>
#include <utility>
#include <vector>

#include "common/bits.hpp"
#include "compress/bit_writer.hpp"

namespace {

using zest::detail::backward_bit_reader;
using zest::detail::bit_writer;

TEST(BitWriter, KnownBytes) {
    std::uint8_t buf[4] = {0xEE, 0xEE, 0xEE, 0xEE};
    bit_writer bw(buf, 4);
    bw.add(0b101, 3);
    bw.add(0b11, 2);
    bw.flush();
    // Bits low to high: 1 0 1 1 1, then the end mark at bit 5.
    ASSERT_EQ(bw.close(), 1u);
    EXPECT_EQ(buf[0], 0x3D);

    bit_writer bw2(buf, 4);
    bw2.add(0xAB, 8);
    bw2.add(0x1, 1);
    bw2.flush();
    ASSERT_EQ(bw2.close(), 2u);
    EXPECT_EQ(buf[0], 0xAB);
    EXPECT_EQ(buf[1], 0x03);  // the added 1, then the end mark
}

TEST(BitWriter, EmptyStreamIsTheEndMark) {
    std::uint8_t buf[2] = {0xEE, 0xEE};
    bit_writer bw(buf, 2);
    ASSERT_EQ(bw.close(), 1u);
    EXPECT_EQ(buf[0], 0x01);
    backward_bit_reader br;
    ASSERT_TRUE(br.init(buf, 1));
    EXPECT_TRUE(br.finished());
}

TEST(BitWriter, EndMarkOnByteBoundary) {
    // 8 bits of data: the end mark takes a byte of its own.
    std::uint8_t buf[3] = {};
    bit_writer bw(buf, 3);
    bw.add(0x5A, 8);
    ASSERT_EQ(bw.close(), 2u);
    EXPECT_EQ(buf[0], 0x5A);
    EXPECT_EQ(buf[1], 0x01);
}

TEST(BitWriter, RandomFieldsReadBackwards) {
    std::mt19937_64 rng(12345);
    for (int round = 0; round < 200; ++round) {
        const int fields = int(rng() % 300);
        std::vector<std::pair<std::uint64_t, unsigned>> written;
        std::vector<std::uint8_t> buf(fields * 8 + 16);
        bit_writer bw(buf.data(), buf.size());
        std::size_t total_bits = 0;
        unsigned since_flush = 0;  // the writer allows 56 bits between flushes
        for (int i = 0; i < fields; ++i) {
            const unsigned n = unsigned(rng() % 57);
            const std::uint64_t v = n == 0 ? 0 : rng() & ((std::uint64_t(1) << n) - 1);
            if (since_flush + n > 56) {
                bw.flush();
                since_flush = 0;
            }
            bw.add(v, n);
            since_flush += n;
            written.emplace_back(v, n);
            total_bits += n;
        }
        const std::size_t size = bw.close();
        ASSERT_EQ(size, total_bits / 8 + 1) << "round " << round;

        backward_bit_reader br;
        ASSERT_TRUE(br.init(buf.data(), size));
        for (auto it = written.rbegin(); it != written.rend(); ++it) {
            br.refill();
            ASSERT_EQ(br.read(it->second), it->first) << "round " << round;
            ASSERT_FALSE(br.overflowed());
        }
        br.refill();
        EXPECT_TRUE(br.finished()) << "round " << round;
    }
}

TEST(BitWriter, CloseWithFullAccumulator) {
    // Up to 7 bits left by a flush plus 56 added: close() must still find
    // room for the end mark.
    for (unsigned r = 0; r < 8; ++r) {
        for (unsigned k = 0; k <= 56; ++k) {
            std::uint8_t buf[16];
            bit_writer bw(buf, sizeof buf);
            const std::uint64_t a = 0x55 & ((1u << r) - 1);
            const std::uint64_t b = 0x9E3779B97F4A7C15ull & ((std::uint64_t(1) << k) - 1);
            bw.add(a, r);
            bw.flush();
            bw.add(b, k);
            const std::size_t size = bw.close();
            ASSERT_EQ(size, (r + k) / 8 + 1) << r << " " << k;
            backward_bit_reader br;
            ASSERT_TRUE(br.init(buf, size));
            EXPECT_EQ(br.read(k), b) << r << " " << k;
            br.refill();
            EXPECT_EQ(br.read(r), a) << r << " " << k;
            br.refill();
            EXPECT_TRUE(br.finished()) << r << " " << k;
        }
    }
}

TEST(BitWriter, OverflowNeverWritesPastCapacity) {
    constexpr std::size_t guard = 64;
    for (std::size_t cap = 0; cap <= 24; ++cap) {
        for (std::size_t bits = 0; bits <= cap * 8 + 24; ++bits) {
            std::vector<std::uint8_t> buf(cap + guard, 0xA5);
            bit_writer bw(buf.data(), cap);
            std::size_t left = bits;
            while (left > 0) {
                const unsigned n = unsigned(left < 13 ? left : 13);
                bw.add((std::uint64_t(1) << n) - 1, n);  // all ones: any stray store shows
                bw.flush();
                left -= n;
            }
            const std::size_t need = bits / 8 + 1;
            const std::size_t size = bw.close();
            if (need <= cap)
                EXPECT_EQ(size, need) << "cap " << cap << " bits " << bits;
            else
                EXPECT_EQ(size, 0u) << "cap " << cap << " bits " << bits;
            for (std::size_t i = cap; i < buf.size(); ++i)
                ASSERT_EQ(buf[i], 0xA5) << "store past capacity " << cap << " at " << i << ", bits " << bits;
        }
    }
}

}  // namespace
