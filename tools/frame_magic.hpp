// The magic numbers that open frames, and the little-endian words they are
// read as, for the tool's own looks at raw input (-l walks frames itself;
// -dcf passes through what no frame opens).
#pragma once

#include <cstdint>

namespace zest::cli {

inline constexpr std::uint32_t zstd_frame_magic = 0xFD2FB528u;

/// The little-endian 32-bit word at p.
inline std::uint32_t le32(const unsigned char* p) noexcept {
    return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
           static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
}

/// Skippable frames take any of the 16 numbers 0x184D2A50..0x184D2A5F.
inline bool is_skippable_magic(std::uint32_t magic) noexcept { return (magic & 0xFFFFFFF0u) == 0x184D2A50u; }

}  // namespace zest::cli
