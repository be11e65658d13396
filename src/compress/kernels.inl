// The compressor's kernels for one instruction set: the including file
// defines ZEST_CKERNEL_NS (a namespace of its own), ZEST_CKERNEL_SET (the
// set's name), ZEST_CKERNEL_NAME and ZEST_CKERNEL_ISA (the isa_level it
// needs); CMake gives it the compiler flags.
#include <bit>
#include <cstring>
#include <utility>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include "common/bits.hpp"
#include "common/huffman.hpp"
#include "common/seq_codes.hpp"
#include "compress/bit_writer.hpp"
#include "compress/kernels.hpp"
#include "compress/length_codes.hpp"
#include "compress/match_common.hpp"

#include "compress/match_attached.inl"
#include "compress/match_fast.inl"
#include "compress/match_dfast.inl"
#include "compress/match_lazy.inl"
#include "compress/match_hc.inl"
#include "compress/match_row.inl"
#include "compress/match_bt.inl"
#include "compress/match_lazy_select.inl"
#include "compress/match_opt.inl"
#include "compress/entropy_streams.inl"

namespace zest::detail {

const compress_kernel_set ZEST_CKERNEL_SET = {
    ZEST_CKERNEL_NAME,
    ZEST_CKERNEL_ISA,
    ZEST_CKERNEL_NS::fast_finder,
    ZEST_CKERNEL_NS::dfast_finder,
    ZEST_CKERNEL_NS::lazy_finder,
    ZEST_CKERNEL_NS::btlazy2_finder,
    ZEST_CKERNEL_NS::opt_finder,
    ZEST_CKERNEL_NS::opt_fill,
    ZEST_CKERNEL_NS::huffman_stream,
    ZEST_CKERNEL_NS::sequence_stream,
};

}  // namespace zest::detail
