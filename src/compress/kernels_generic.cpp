// The compressor's hot loops for any CPU of the architecture.
#define ZEST_CKERNEL_NS isa_generic
#define ZEST_CKERNEL_SET compress_kernels_generic
#define ZEST_CKERNEL_NAME "generic"
#define ZEST_CKERNEL_ISA isa_level::generic
#include "compress/kernels.inl"
