#include "cpu/pick_kernels.hpp"
#include "test_util.hpp"

namespace zest_test {

const zest::detail::kernel_set* kernel_by_name(const std::string& name) {
    using namespace zest::detail;
    for (const kernel_set* k : kernel_sets)
        if (name == k->name) return cpu_supports(k->required_isa) ? k : nullptr;
    return nullptr;
}

}  // namespace zest_test
