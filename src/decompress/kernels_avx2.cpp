// The decoder's hot loops for the "avx2" target (flags set by CMake).
#define ZEST_KERNEL_NS isa_avx2
#define ZEST_KERNEL_SET kernels_avx2
#define ZEST_KERNEL_NAME "avx2"
#define ZEST_KERNEL_ISA isa_level::avx2
#include "decompress/kernels.inl"
