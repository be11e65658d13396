#include "compress/bit_writer.hpp"

namespace zest::detail {

bit_writer::bit_writer(std::uint8_t* dst, std::size_t capacity) noexcept
    : start_(dst), pos_(dst), end_(dst + capacity) {}

void bit_writer::flush_slow(unsigned bytes) noexcept {
    // Near the end of the buffer: byte stores, and none once it is full (the
    // encoder keeps going; close() reports the overflow).
    if (std::size_t(end_ - pos_) >= bytes) {
        for (unsigned i = 0; i < bytes; ++i) pos_[i] = std::uint8_t(acc_ >> (8 * i));
        pos_ += bytes;
    } else {
        overflow_ = true;
    }
}

std::size_t bit_writer::close() noexcept {
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

}  // namespace zest::detail
