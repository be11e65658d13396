# Tests of the compressor's entropy encoders (bit writer, FSE, Huffman):
# everything they write is read back with zest's decoder tables and kernels,
# and Huffman literals also with libzstd.
include(GoogleTest)

set(_zest_encode_dir ${CMAKE_CURRENT_LIST_DIR})
add_executable(zest_encode_tests
  ${_zest_encode_dir}/bit_writer_test.cpp
  ${_zest_encode_dir}/fse_encode_test.cpp
  ${_zest_encode_dir}/huffman_encode_test.cpp)
target_include_directories(zest_encode_tests PRIVATE ${_zest_encode_dir})
# libzstd is only the second decoder of what zest writes.
target_link_libraries(zest_encode_tests PRIVATE zest_internal GTest::gtest_main PkgConfig::LIBZSTD)
target_compile_options(zest_encode_tests PRIVATE ${ZEST_WARNINGS})
gtest_discover_tests(zest_encode_tests
  TEST_PREFIX "encode."
  DISCOVERY_MODE PRE_TEST
  DISCOVERY_TIMEOUT 60
  PROPERTIES TIMEOUT 120 LABELS "encode")
