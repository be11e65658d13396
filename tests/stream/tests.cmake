# Streaming decompression and compression: every buffer size pattern, frames
# from libzstd and from zest, errors, memory bounds.
include(GoogleTest)
set(_zest_stream_dir ${CMAKE_CURRENT_LIST_DIR})
add_executable(zest_stream_test
  ${_zest_stream_dir}/decompress_stream_test.cpp
  ${_zest_stream_dir}/compress_stream_test.cpp)
target_link_libraries(zest_stream_test PRIVATE zest_conformance_support GTest::gtest_main)
target_compile_options(zest_stream_test PRIVATE ${ZEST_WARNINGS})
gtest_discover_tests(zest_stream_test
  TEST_PREFIX "stream."
  DISCOVERY_MODE PRE_TEST
  DISCOVERY_TIMEOUT 60
  PROPERTIES TIMEOUT 900 LABELS "stream")
