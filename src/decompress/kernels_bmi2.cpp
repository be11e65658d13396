// The decoder's hot loops for the "bmi2" target (flags set by CMake).
#define ZEST_KERNEL_NS isa_bmi2
#define ZEST_KERNEL_SET kernels_bmi2
#define ZEST_KERNEL_NAME "bmi2"
#define ZEST_KERNEL_ISA isa_level::bmi2
#include "decompress/kernels.inl"
