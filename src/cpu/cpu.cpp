#include "cpu/cpu.hpp"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>

#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__)
#include <cpuid.h>
#define ZEST_X86 1
#endif

namespace zest::detail {
namespace {

std::atomic<unsigned> probe_count{0};

#if ZEST_X86
// The one function in the library that executes CPUID. Kept out of line so
// the build check can find it by name in the disassembly.
[[gnu::noinline]] void run_cpuid(unsigned leaf, unsigned sub, unsigned regs[4]) noexcept {
    __cpuid_count(leaf, sub, regs[0], regs[1], regs[2], regs[3]);
}

std::uint64_t read_xcr0() noexcept {
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return (std::uint64_t(hi) << 32) | lo;
}
#endif

cpu_features probe() noexcept {
    probe_count.fetch_add(1, std::memory_order_relaxed);
    cpu_features f;
#if ZEST_X86
    unsigned r[4];
    run_cpuid(0, 0, r);
    const unsigned max_leaf = r[0];
    if (max_leaf < 1) return f;
    run_cpuid(1, 0, r);
    f.ssse3 = (r[2] >> 9) & 1;
    const bool osxsave = (r[2] >> 27) & 1;
    const bool avx = (r[2] >> 28) & 1;
    bool ymm_enabled = false, zmm_enabled = false;
    if (osxsave && avx) {
        const std::uint64_t xcr0 = read_xcr0();
        ymm_enabled = (xcr0 & 0x6) == 0x6;
        zmm_enabled = (xcr0 & 0xE6) == 0xE6;  // also the opmask and both halves of the 512-bit registers
    }
    if (max_leaf >= 7) {
        run_cpuid(7, 0, r);
        f.bmi2 = (r[1] >> 8) & 1;
        f.avx2 = ymm_enabled && ((r[1] >> 5) & 1) && f.bmi2;
        const bool avx512f = (r[1] >> 16) & 1, avx512bw = (r[1] >> 30) & 1, avx512vl = (r[1] >> 31) & 1;
        const bool avx512vbmi = (r[2] >> 1) & 1;
        f.avx512 = zmm_enabled && f.avx2 && avx512f && avx512bw && avx512vl && avx512vbmi;
    }
#endif
    return f;
}

struct selection {
    cpu_features features;
    isa_level level;
};

isa_level best_level(const cpu_features& f) noexcept {
    if (f.avx512) return isa_level::avx512;
    if (f.avx2 && f.bmi2) return isa_level::avx2;
    if (f.bmi2) return isa_level::bmi2;
    return isa_level::generic;
}

// ZEST_CPU can only lower the level: forcing a kernel the CPU lacks would crash.
isa_level apply_override(isa_level best) noexcept {
    const char* env = std::getenv("ZEST_CPU");
    if (!env) return best;
    isa_level want = best;
    if (std::strcmp(env, "generic") == 0) want = isa_level::generic;
    else if (std::strcmp(env, "bmi2") == 0) want = isa_level::bmi2;
    else if (std::strcmp(env, "avx2") == 0) want = isa_level::avx2;
    else if (std::strcmp(env, "avx512") == 0) want = isa_level::avx512;
    return want < best ? want : best;
}

const selection& selected() noexcept {
    // A function-local static: initialised exactly once, thread-safe.
    static const selection s = [] {
        selection out;
        out.features = probe();
        out.level = apply_override(best_level(out.features));
        return out;
    }();
    return s;
}

}  // namespace

const cpu_features& cpu() noexcept { return selected().features; }
isa_level selected_isa() noexcept { return selected().level; }
bool cpu_supports(isa_level level) noexcept { return level <= best_level(cpu()); }
unsigned cpu_probe_count() noexcept { return probe_count.load(std::memory_order_relaxed); }

const char* isa_name(isa_level l) noexcept {
    switch (l) {
        case isa_level::generic: return "generic";
        case isa_level::bmi2: return "bmi2";
        case isa_level::avx2: return "avx2";
        case isa_level::avx512: return "avx512";
    }
    return "unknown";
}

}  // namespace zest::detail
