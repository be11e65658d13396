// The one choice among kernel sets, for the decoder, the compressor and
// the tests. A kernel set is a struct of function pointers compiled for one
// instruction set, stating the level it needs in a member `required_isa`;
// each half lists its sets best first, an isa_level::generic set last.
// Kept apart from cpu.hpp, which the per-ISA kernel files include: nothing
// here may be instantiated with their target flags.
#pragma once

#include <span>
#include <vector>

#include "cpu/cpu.hpp"

namespace zest::detail {

/// The set the process runs: the first of `best_first` whose instruction
/// set selected_isa() allows. Callers keep the answer (it never changes).
template <class KernelSet>
const KernelSet& pick_kernels(std::span<const KernelSet* const> best_first) noexcept {
    const isa_level allowed = selected_isa();
    for (const KernelSet* k : best_first)
        if (k->required_isa <= allowed) return *k;
    return *best_first.back();
}

/// The sets of `best_first` this CPU can run, ZEST_CPU aside: what tests
/// compare with each other.
template <class KernelSet>
std::vector<const KernelSet*> runnable_kernels(std::span<const KernelSet* const> best_first) {
    std::vector<const KernelSet*> out;
    for (const KernelSet* k : best_first)
        if (cpu_supports(k->required_isa)) out.push_back(k);
    return out;
}

}  // namespace zest::detail
