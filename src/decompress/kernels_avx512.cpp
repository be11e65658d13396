// The decoder's hot loops for the "avx512" target (flags set by CMake).
#define ZEST_KERNEL_NS isa_avx512
#define ZEST_KERNEL_SET kernels_avx512
#define ZEST_KERNEL_NAME "avx512"
#define ZEST_KERNEL_ISA isa_level::avx512
#include "decompress/kernels.inl"
