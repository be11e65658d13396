# Unit tests of the decoder's building blocks (bit readers, FSE, Huffman,
# sequences and repeat offsets, frame headers, errors, large buffers), with expectations
# derived by hand from RFC 8878.
include(GoogleTest)

set(_zest_unit_dir ${CMAKE_CURRENT_LIST_DIR})
add_executable(zest_unit_tests
  ${_zest_unit_dir}/kernels.cpp
  ${_zest_unit_dir}/bits_test.cpp
  ${_zest_unit_dir}/fse_test.cpp
  ${_zest_unit_dir}/huffman_test.cpp
  ${_zest_unit_dir}/sequences_test.cpp
  ${_zest_unit_dir}/frame_test.cpp
  ${_zest_unit_dir}/errors_test.cpp
  ${_zest_unit_dir}/large_buffer_test.cpp)
target_include_directories(zest_unit_tests PRIVATE ${_zest_unit_dir})
# libzstd only produces inputs for a few tests; expectations never come from it.
target_link_libraries(zest_unit_tests PRIVATE zest_internal GTest::gtest_main PkgConfig::LIBZSTD)
target_compile_options(zest_unit_tests PRIVATE ${ZEST_WARNINGS})
gtest_discover_tests(zest_unit_tests
  TEST_PREFIX "unit."
  DISCOVERY_MODE PRE_TEST
  DISCOVERY_TIMEOUT 60
  PROPERTIES TIMEOUT 120 LABELS "unit")
