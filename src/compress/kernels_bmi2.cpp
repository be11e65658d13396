// The compressor's hot loops for the "bmi2" target (flags set by CMake):
// shifts by a variable count without the CL register, which the hashes and
// bit writers are made of.
#define ZEST_CKERNEL_NS isa_bmi2
#define ZEST_CKERNEL_SET compress_kernels_bmi2
#define ZEST_CKERNEL_NAME "bmi2"
#define ZEST_CKERNEL_ISA isa_level::bmi2
#include "compress/kernels.inl"
