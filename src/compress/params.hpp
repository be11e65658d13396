// Compression levels: the parameters behind each level, following the
// reference's level semantics, scaled down for small inputs.
#pragma once

#include <cstdint>

#include "zest/zest.hpp"

namespace zest::detail {

// The encoder works on the public types: a level's parameters are a
// compression_parameters with every field filled in.
using strategy = zest::strategy;
using compression_params = zest::compression_parameters;

/// Parameters for `level` (0 means the default level; below 0: `fast` with
/// acceleration -level) for an input of `src_size` bytes (unknown:
/// UINT64_MAX), including the smaller tables the reference uses for inputs
/// of at most 256 KiB, 128 KiB and 16 KiB, and the window shrunk to the input.
/// The fields of `set` that are not 0 replace the level's values before the
/// adjustment to the size, as in the reference. Long-distance matching is then resolved for the
/// window: enabled on request (the window then 2^27 unless set), or for
/// windows of 2^27 and more at btopt and up; its parameters are the
/// caller's or the reference's defaults for the window.
compression_params params_for_level(int level, std::uint64_t src_size, const compression_parameters& set = {}) noexcept;

}  // namespace zest::detail
