# The instruction sets zest compiles kernels for, and their compiler flags:
# one template source per half (src/decompress/kernels.inl,
# src/compress/kernels.inl) is compiled once per ISA by kernels_<isa>.cpp,
# and the run time picks among the results (src/cpu/pick_kernels.hpp).
#
#   ZEST_ISA_NAMES           every isa_level, weakest first: what ZEST_CPU takes
#   ZEST_ISAS                those this architecture has kernels for
#   ZEST_HAVE_X86_KERNELS    1 when the x86 sets (bmi2, avx2, avx512) are built
#   zest_isa_sources(target isa file...)
#                            adds the files to target, compiled for isa; nothing
#                            when the architecture has no such ISA

set(ZEST_ISA_NAMES generic bmi2 avx2 avx512)
if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64|amd64")
  set(ZEST_ISAS generic bmi2 avx2 avx512)
  set(ZEST_HAVE_X86_KERNELS 1)
else()
  set(ZEST_ISAS generic)
  set(ZEST_HAVE_X86_KERNELS 0)
endif()

set(ZEST_ISA_FLAGS_generic "")
set(ZEST_ISA_FLAGS_bmi2 -mbmi -mbmi2)
# g++'s generic tuning splits unaligned 32-byte loads and stores in two;
# CPUs with AVX2 do them whole, and the copy loops are made of them.
set(ZEST_ISA_FLAGS_avx2 -mbmi -mbmi2 -mavx2 -mssse3
  $<$<CXX_COMPILER_ID:GNU>:-mno-avx256-split-unaligned-load>
  $<$<CXX_COMPILER_ID:GNU>:-mno-avx256-split-unaligned-store>)

# AVX-512 for the decoder's copies: byte permutes (VBMI) on 256-bit vectors
# (VL), and masks (BW). The avx2 flags stay, so the rest compiles as there.
set(ZEST_ISA_FLAGS_avx512 ${ZEST_ISA_FLAGS_avx2} -mavx512f -mavx512bw -mavx512vl -mavx512vbmi)

function(zest_isa_sources target isa)
  if(NOT isa IN_LIST ZEST_ISA_NAMES)
    message(FATAL_ERROR "zest_isa_sources: unknown ISA '${isa}' (known: ${ZEST_ISA_NAMES})")
  endif()
  if(NOT isa IN_LIST ZEST_ISAS)
    return()
  endif()
  target_sources(${target} PRIVATE ${ARGN})
  if(ZEST_ISA_FLAGS_${isa})
    set_source_files_properties(${ARGN} TARGET_DIRECTORY ${target}
      PROPERTIES COMPILE_OPTIONS "${ZEST_ISA_FLAGS_${isa}}")
  endif()
endfunction()
