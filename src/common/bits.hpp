// Byte loads, bit tricks and the backward bit reader every entropy stream uses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__GNUC__)
#define ZEST_INLINE inline __attribute__((always_inline))
#define ZEST_NOINLINE __attribute__((noinline))
#define ZEST_LIKELY(x) __builtin_expect(!!(x), 1)
#define ZEST_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define ZEST_INLINE inline
#define ZEST_NOINLINE
#define ZEST_LIKELY(x) (x)
#define ZEST_UNLIKELY(x) (x)
#endif

// The format is little-endian, and so are the hosts zest targets: loads are
// plain copies.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "zest assumes a little-endian host");

// Internal helpers have internal linkage: the per-ISA kernel files include
// this header with different target flags, and an inline function with
// external linkage could be merged across them by the linker.
namespace zest::detail {
namespace {

ZEST_INLINE std::uint16_t load_le16(const void* p) noexcept {
    std::uint16_t v;
    std::memcpy(&v, p, 2);
    return v;
}
ZEST_INLINE std::uint32_t load_le24(const void* p) noexcept {
    const auto* b = static_cast<const std::uint8_t*>(p);
    return std::uint32_t(b[0]) | (std::uint32_t(b[1]) << 8) | (std::uint32_t(b[2]) << 16);
}
ZEST_INLINE std::uint32_t load_le32(const void* p) noexcept {
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}
ZEST_INLINE std::uint64_t load_le64(const void* p) noexcept {
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
}

ZEST_INLINE void store_le24(void* p, std::uint32_t v) noexcept {
    auto* b = static_cast<std::uint8_t*>(p);
    b[0] = std::uint8_t(v), b[1] = std::uint8_t(v >> 8), b[2] = std::uint8_t(v >> 16);
}
ZEST_INLINE void store_le32(void* p, std::uint32_t v) noexcept {
    auto* b = static_cast<std::uint8_t*>(p);
    b[0] = std::uint8_t(v), b[1] = std::uint8_t(v >> 8), b[2] = std::uint8_t(v >> 16), b[3] = std::uint8_t(v >> 24);
}

/// Index of the highest set bit; v must not be 0.
ZEST_INLINE unsigned highbit32(std::uint32_t v) noexcept { return 31u - unsigned(__builtin_clz(v)); }

/// Reads a bit stream backwards, as the format writes FSE and Huffman
/// streams: the last byte holds a 1-bit end mark above 0-7 padding zeros.
/// The container's top bits are the next to read.
struct backward_bit_reader {
    std::uint64_t container = 0;
    unsigned consumed = 0;  // bits of `container` already used, from the top
    const std::uint8_t* ptr = nullptr;    // where `container` was loaded from
    const std::uint8_t* start = nullptr;  // first byte of the stream

    /// Returns false when the stream is empty or its last byte is 0.
    ZEST_INLINE bool init(const std::uint8_t* begin, std::size_t size) noexcept {
        if (size == 0) return false;
        const std::uint8_t last = begin[size - 1];
        if (last == 0) return false;
        start = begin;
        if (size >= 8) {
            ptr = begin + size - 8;
            container = load_le64(ptr);
            consumed = 0;
        } else {
            // Short stream: its bytes sit at the bottom of the container and
            // the empty top bytes count as already consumed.
            ptr = begin;
            container = 0;
            for (std::size_t i = 0; i < size; ++i) container |= std::uint64_t(begin[i]) << (8 * i);
            consumed = unsigned(8 * (8 - size));
        }
        consumed += 8 - highbit32(last);  // padding zeros and the end mark
        return true;
    }


    /// Next n bits (0 <= n <= 56 after a refill) without consuming them.
    ZEST_INLINE std::uint64_t peek(unsigned n) const noexcept {
        // Shifting twice keeps n == 0 defined and yields 0.
        return ((container << (consumed & 63)) >> 1) >> (63 - n);
    }
    /// Peek for n >= 1 (one shift fewer).
    ZEST_INLINE std::uint64_t peek_nz(unsigned n) const noexcept {
        return (container << (consumed & 63)) >> (64 - n);
    }
    ZEST_INLINE void skip(unsigned n) noexcept { consumed += n; }
    ZEST_INLINE std::uint64_t read(unsigned n) noexcept {
        const std::uint64_t v = peek(n);
        consumed += n;
        return v;
    }

    /// True once more bits were consumed than the stream holds.
    bool overflowed() const noexcept { return consumed > 64; }
    /// True when every bit of the stream was consumed, exactly.
    bool finished() const noexcept { return ptr == start && consumed == 64; }

    /// Fast refill: valid only while ptr >= start + 8.
    ZEST_INLINE void refill_fast() noexcept {
        ptr -= consumed >> 3;
        consumed &= 7;
        container = load_le64(ptr);
    }
    ZEST_INLINE bool can_refill_fast() const noexcept { return ptr >= start + 8; }

    /// Careful refill near the stream's start. After it, at least 57 bits
    /// are loaded unless the stream is nearly exhausted.
    ZEST_INLINE void refill() noexcept {
        if (ZEST_LIKELY(ptr >= start + 8)) {
            refill_fast();
            return;
        }
        if (ptr == start) return;
        std::size_t n = consumed >> 3;
        if (n > std::size_t(ptr - start)) n = std::size_t(ptr - start);
        ptr -= n;
        consumed -= unsigned(n * 8);
        container = load_le64(ptr);
    }
};

}  // namespace
}  // namespace zest::detail
