# Invalid input: truncations, bit flips, random corruption and specific
# malformations must produce errors (never crashes, never writes past the
# destination), compared with what libzstd accepts.
include(GoogleTest)

set(_zest_invalid_dir ${CMAKE_CURRENT_LIST_DIR})
add_executable(zest_invalid_test
  ${_zest_invalid_dir}/samples.cpp
  ${_zest_invalid_dir}/damage_test.cpp
  ${_zest_invalid_dir}/malformed_test.cpp)
target_include_directories(zest_invalid_test PRIVATE ${_zest_invalid_dir})
# zest_conformance_support (tests/conformance): corpus, hand-made frames, libzstd glue.
target_link_libraries(zest_invalid_test PRIVATE zest_conformance_support GTest::gtest_main)
target_compile_options(zest_invalid_test PRIVATE ${ZEST_WARNINGS})
gtest_discover_tests(zest_invalid_test
  TEST_PREFIX "invalid."
  DISCOVERY_MODE PRE_TEST
  DISCOVERY_TIMEOUT 60
  PROPERTIES TIMEOUT 600 LABELS "invalid")
