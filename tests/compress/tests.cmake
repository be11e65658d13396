# Compression round trips: what zest writes, libzstd and zest decode back to
# the original, at every level of the first compressor tier and beyond.
include(GoogleTest)
set(_zest_compress_dir ${CMAKE_CURRENT_LIST_DIR})
add_executable(zest_compress_test
  ${_zest_compress_dir}/roundtrip_test.cpp
  ${_zest_compress_dir}/property_test.cpp
  ${_zest_compress_dir}/kernels_test.cpp
  ${_zest_compress_dir}/ratio_test.cpp
  ${_zest_compress_dir}/parameters_test.cpp
  ${_zest_compress_dir}/strategy_test.cpp
  ${_zest_compress_dir}/sequences_test.cpp
  ${_zest_compress_dir}/memory_test.cpp
  ${_zest_compress_dir}/ldm_test.cpp
  ${_zest_compress_dir}/settings_test.cpp)
target_link_libraries(zest_compress_test PRIVATE zest_conformance_support zest_internal GTest::gtest_main)
# kernels.hpp declares the x86 kernel sets under this macro (private to the library target).
target_compile_definitions(zest_compress_test PRIVATE ZEST_HAVE_X86_KERNELS=${ZEST_HAVE_X86_KERNELS})
target_compile_options(zest_compress_test PRIVATE ${ZEST_WARNINGS})
gtest_discover_tests(zest_compress_test
  TEST_PREFIX "compress."
  DISCOVERY_MODE PRE_TEST
  DISCOVERY_TIMEOUT 60
  PROPERTIES TIMEOUT 600 LABELS "compress")

# Compression with workers: its own binary and label, so that the
# ThreadSanitizer build (scripts/test.sh --threads) builds and runs only it.
add_executable(zest_threads_test ${_zest_compress_dir}/workers_test.cpp)
target_link_libraries(zest_threads_test PRIVATE zest_conformance_support zest_internal GTest::gtest_main)
target_compile_options(zest_threads_test PRIVATE ${ZEST_WARNINGS})
gtest_discover_tests(zest_threads_test
  TEST_PREFIX "threads."
  DISCOVERY_MODE PRE_TEST
  DISCOVERY_TIMEOUT 60
  PROPERTIES TIMEOUT 1200 LABELS "threads")
