# Compression levels and the fast/dfast match finders: the level table and
# size adjustment, and the finders' output replayed by an independent model
# of the decoder's sequence execution.
include(GoogleTest)

set(_zest_match_dir ${CMAKE_CURRENT_LIST_DIR})
add_executable(zest_match_tests
  ${_zest_match_dir}/params_test.cpp
  ${_zest_match_dir}/finder_test.cpp)
target_include_directories(zest_match_tests PRIVATE ${_zest_match_dir})
# libzstd: a cross-check of the level parameters and the quality comparison.
target_link_libraries(zest_match_tests PRIVATE zest_internal GTest::gtest_main PkgConfig::LIBZSTD)
target_compile_options(zest_match_tests PRIVATE ${ZEST_WARNINGS})
gtest_discover_tests(zest_match_tests
  TEST_PREFIX "match."
  DISCOVERY_MODE PRE_TEST
  DISCOVERY_TIMEOUT 60
  PROPERTIES TIMEOUT 900 LABELS "match")
