// The decoder's kernel sets, best first, and the choice among them.
#include "decompress/kernels.hpp"

#include "cpu/pick_kernels.hpp"

namespace zest::detail {
namespace {

constexpr const kernel_set* best_first[] = {
#if ZEST_HAVE_X86_KERNELS
    &kernels_avx512,
    &kernels_avx2,
    &kernels_bmi2,
#endif
    &kernels_generic,
};

}  // namespace

constinit const std::span<const kernel_set* const> kernel_sets{best_first};

const kernel_set& active_kernels() noexcept {
    // Chosen once per process; the probe behind selected_isa() runs once.
    static const kernel_set& chosen = pick_kernels(kernel_sets);
    return chosen;
}

}  // namespace zest::detail
