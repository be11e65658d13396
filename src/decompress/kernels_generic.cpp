// The decoder's hot loops for the "generic" target (flags set by CMake).
#define ZEST_KERNEL_NS isa_generic
#define ZEST_KERNEL_SET kernels_generic
#define ZEST_KERNEL_NAME "generic"
#define ZEST_KERNEL_ISA isa_level::generic
#include "decompress/kernels.inl"
