// The compressor's hot loops for the "avx2" target (flags set by CMake):
// the row matcher compares 32 tags per instruction, and the bmi2 set's
// shifts stay.
#define ZEST_CKERNEL_NS isa_avx2
#define ZEST_CKERNEL_SET compress_kernels_avx2
#define ZEST_CKERNEL_NAME "avx2"
#define ZEST_CKERNEL_ISA isa_level::avx2
#include "compress/kernels.inl"
