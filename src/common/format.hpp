// Limits the format sets for both directions.
#pragma once

#include <cstddef>

namespace zest::detail {

/// The most bytes a block regenerates (the format's Block_Maximum_Size:
/// 128 KiB, or the window size when that is smaller).
inline constexpr std::size_t block_size_max = 128 * 1024;

}  // namespace zest::detail
