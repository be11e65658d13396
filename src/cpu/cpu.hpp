// CPU feature probe: runs once per process, cached; the only place that
// executes CPUID. Everything else asks for the selected kernel level, and
// picks its kernel set with pick_kernels (pick_kernels.hpp).
#pragma once

#include <cstdint>

namespace zest::detail {

/// Kernel families zest can run, weakest first.
enum class isa_level : std::uint8_t { generic = 0, bmi2 = 1, avx2 = 2, avx512 = 3 };

/// Raw feature bits found by the probe.
struct cpu_features {
    bool ssse3 = false;
    bool bmi2 = false;
    bool avx2 = false;
    /// AVX-512 F, BW, VL and VBMI (byte permutes across a whole vector),
    /// with the OS saving the 512-bit state.
    bool avx512 = false;
};

/// Features of this CPU (probed on first call, then cached).
const cpu_features& cpu() noexcept;

/// The kernel level to use: the best the CPU supports, lowered (never raised)
/// by the environment variable ZEST_CPU=generic|bmi2|avx2|avx512, read once.
isa_level selected_isa() noexcept;

/// True when this CPU can run kernels built for `level`, whatever ZEST_CPU
/// says (tests run every such set).
bool cpu_supports(isa_level level) noexcept;

/// Name of a level ("generic", "bmi2", "avx2", "avx512").
const char* isa_name(isa_level l) noexcept;

/// Test hook: how many times the probe has executed in this process.
unsigned cpu_probe_count() noexcept;

}  // namespace zest::detail
