// Choice of the decoder's kernel set.
#include "decompress/kernels.hpp"

#include "cpu/cpu.hpp"

namespace zest::detail {

const kernel_set& active_kernels() noexcept {
    // Chosen once per process; the probe behind selected_isa() runs once.
    static const kernel_set* const chosen = [] {
#if ZEST_HAVE_X86_KERNELS
        switch (selected_isa()) {
            case isa_level::avx2: return &kernels_avx2;
            case isa_level::bmi2: return &kernels_bmi2;
            case isa_level::generic: break;
        }
#endif
        return &kernels_generic;
    }();
    return *chosen;
}

}  // namespace zest::detail
