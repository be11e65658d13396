// Internal status convention: functions return zest::errc, and errc{} (0)
// means success. Keeps error paths cheap and exception-free.
#pragma once

#include "zest/errors.hpp"

namespace zest::detail {

inline constexpr errc ok{};

#define ZEST_TRY(expr)                                  \
    do {                                                \
        const ::zest::errc zest_try_e_ = (expr);        \
        if (ZEST_UNLIKELY(zest_try_e_ != ::zest::detail::ok)) return zest_try_e_; \
    } while (0)

}  // namespace zest::detail
