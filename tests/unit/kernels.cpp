#include "cpu/cpu.hpp"
#include "test_util.hpp"

namespace zest_test {

const zest::detail::kernel_set* kernel_by_name(const std::string& name) {
    using namespace zest::detail;
    if (name == "generic") return &kernels_generic;
#if ZEST_HAVE_X86_KERNELS
    if (name == "bmi2") return cpu().bmi2 ? &kernels_bmi2 : nullptr;
    if (name == "avx2") return cpu().avx2 && cpu().bmi2 && cpu().ssse3 ? &kernels_avx2 : nullptr;
#endif
    return nullptr;
}

}  // namespace zest_test
