// Forward bit writer for the streams the decoder reads backwards (FSE and
// Huffman): bits are appended low to high, and closing adds the 1-bit end
// mark the reader looks for in the last byte.
//
// Everything is inline and nothing takes the writer's address, so that an
// encoder's local writer lives in registers across its loop.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "common/bits.hpp"

namespace zest::detail {

class bit_writer {
public:
    /// Writes into dst[0, capacity).
    ZEST_INLINE bit_writer(std::uint8_t* dst, std::size_t capacity) noexcept
        : start_(dst), pos_(dst), end_(dst + capacity), wide_end_(capacity >= 8 ? dst + capacity - 7 : dst) {}

    /// Appends the low n bits of value (n <= 56 between flushes; bits of
    /// value above n must be 0).
    ZEST_INLINE void add(std::uint64_t value, unsigned n) noexcept {
        // count_ < 8 after a flush, so the shift and the sum stay below 64.
        acc_ |= value << count_;
        count_ += n;
    }
    /// Moves whole bytes out of the accumulator; call at least every 56 bits.
    /// Never stores past the capacity: an overflow is remembered for close().
    ZEST_INLINE void flush() noexcept {
        if (ZEST_LIKELY(pos_ < wide_end_)) {
            flush_unchecked();
            return;
        }
        // Near the end of the buffer: byte stores, and none once it is full
        // (the encoder keeps going; close() reports the overflow).
        const unsigned bytes = count_ >> 3;
        for (unsigned i = 0; i < bytes; ++i) {
            if (pos_ == end_) {
                overflow_ = true;
                break;
            }
            *pos_++ = std::uint8_t(acc_ >> (8 * i));
        }
        acc_ >>= 8 * bytes;  // bytes <= 7: count_ <= 63
        count_ &= 7;
    }
    /// Bytes that flush_unchecked() may yet move out (each of its stores
    /// writes 8 bytes at the current position).
    ZEST_INLINE std::size_t room() const noexcept { return pos_ < wide_end_ ? std::size_t(wide_end_ - pos_) : 0; }
    /// flush() for a caller that has made sure, with room(), that the bytes
    /// fit: no test of the position. One unconditional store; only the
    /// whole bytes of it count, the rest is rewritten by the next flush.
    ZEST_INLINE void flush_unchecked() noexcept {
        const unsigned bytes = count_ >> 3;
        std::memcpy(pos_, &acc_, 8);  // zest targets little-endian hosts
        pos_ += bytes;
        acc_ >>= 8 * bytes;
        count_ &= 7;
    }
    /// Adds the end mark and flushes. Returns the stream's size in bytes, or
    /// 0 when it did not fit in the capacity. Bytes of dst past the returned
    /// size (but inside the capacity) may have been overwritten.
    ZEST_INLINE std::size_t close() noexcept {
        flush();  // up to 63 bits may be pending: make room for the mark
        add(1, 1);
        flush();
        if (count_ > 0) {
            if (pos_ < end_)
                *pos_++ = std::uint8_t(acc_);
            else
                overflow_ = true;
            acc_ = 0;
            count_ = 0;
        }
        return overflow_ ? 0 : std::size_t(pos_ - start_);
    }

private:
    std::uint8_t* start_;
    std::uint8_t* pos_;
    std::uint8_t* end_;
    std::uint8_t* wide_end_;  // below it, an 8-byte store at pos_ stays inside
    std::uint64_t acc_ = 0;
    unsigned count_ = 0;
    bool overflow_ = false;
};

}  // namespace zest::detail
