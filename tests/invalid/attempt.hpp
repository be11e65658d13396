// Runs zest on possibly-invalid input and records what happened.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "check.hpp"
#include "corpus.hpp"
#include "zest/zest.hpp"

namespace zest::test {

struct attempt {
    bool ok = false;
    errc error{};
    bytes out;             ///< the decoded bytes when ok
    bool overrun = false;  ///< returned a size above the capacity, or wrote past it
};

inline constexpr std::byte guard_byte{0xA5};
inline constexpr std::size_t guard_size = 64;

/// zest::decompress (or `d` when given) into `capacity` bytes, with guard
/// bytes behind the capacity that must stay untouched.
inline attempt try_decompress(std::span<const std::byte> src, std::size_t capacity,
                              decompressor* d = nullptr) {
    bytes dst(capacity + guard_size, guard_byte);
    const std::span<std::byte> view(dst.data(), capacity);
    const result<std::size_t> r = d ? d->decompress(view, src) : decompress(view, src);
    attempt a;
    a.overrun = !std::all_of(dst.end() - guard_size, dst.end(), [](std::byte b) { return b == guard_byte; });
    if (!r) {
        a.error = r.error();
        return a;
    }
    a.ok = true;
    if (*r > capacity) {
        a.overrun = true;
        return a;
    }
    dst.resize(*r);
    a.out = std::move(dst);
    return a;
}

inline std::string describe(const attempt& a) {
    if (a.ok) return "success, " + std::to_string(a.out.size()) + " bytes";
    return errc_name(a.error);
}

/// Two runs on the same input must agree: success, error code and output.
inline ::testing::AssertionResult same_outcome(const attempt& a, const attempt& b) {
    if (a.ok != b.ok || (!a.ok && a.error != b.error) || (a.ok && a.out != b.out))
        return ::testing::AssertionFailure() << describe(a) << " vs " << describe(b);
    return ::testing::AssertionSuccess();
}

/// Caps the number of failure messages one exhaustive loop prints.
class failure_budget {
public:
    explicit failure_budget(int shown = 12) : shown_(shown) {}
    /// True while failures should still be printed; counts every call.
    bool report() { return ++count_ <= shown_; }
    int count() const { return count_; }

private:
    int shown_;
    int count_ = 0;
};

}  // namespace zest::test
