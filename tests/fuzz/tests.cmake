# Fuzzing regressions. The GoogleTest suite feeds each reproducer of a bug
# the fuzzer found to zest (normal builds included). With ZEST_FUZZ=ON, more
# tests run the fuzzer binaries themselves: the decompression fuzzer over
# fuzz/regressions/ (bugs and known differences, which must all pass its
# checks), and each fuzzer for a few seconds over its seed corpus, generated
# at run time.
include(GoogleTest)

add_executable(zest_fuzz_regression_test ${CMAKE_CURRENT_LIST_DIR}/regression_test.cpp)
target_link_libraries(zest_fuzz_regression_test PRIVATE zest GTest::gtest_main)
target_compile_options(zest_fuzz_regression_test PRIVATE ${ZEST_WARNINGS})
target_compile_definitions(zest_fuzz_regression_test PRIVATE
  ZEST_FUZZ_REGRESSIONS_DIR="${PROJECT_SOURCE_DIR}/fuzz/regressions")
gtest_discover_tests(zest_fuzz_regression_test
  TEST_PREFIX "fuzz."
  DISCOVERY_MODE PRE_TEST
  DISCOVERY_TIMEOUT 60
  PROPERTIES TIMEOUT 120 LABELS "fuzz")

# fuzz/ is added after tests/, so its targets are looked up once the whole
# project has been read.
function(_zest_add_fuzzer_tests test_dir)
  if(NOT TARGET zest_decompress_fuzzer OR NOT TARGET zest_fuzz_seeds)
    return()
  endif()
  add_test(NAME fuzz.fuzzer.regressions
    COMMAND zest_decompress_fuzzer -runs=0 -rss_limit_mb=4096 ${PROJECT_SOURCE_DIR}/fuzz/regressions)
  add_test(NAME fuzz.fuzzer.smoke
    COMMAND ${CMAKE_COMMAND} -DFUZZER=$<TARGET_FILE:zest_decompress_fuzzer>
            -DSEEDER=$<TARGET_FILE:zest_fuzz_seeds> -DWORK_DIR=${CMAKE_BINARY_DIR}/fuzz/smoke -DSECONDS=20
            -DCORPUS=decompress -P ${test_dir}/run_fuzz_smoke.cmake)
  # The stream fuzzer's reproducers: a hang inside one call fails after
  # -timeout seconds instead of holding the suite.
  add_test(NAME fuzz.fuzzer.regressions.stream
    COMMAND zest_stream_fuzzer -runs=0 -timeout=60 -rss_limit_mb=4096 ${PROJECT_SOURCE_DIR}/fuzz/regressions/stream)
  set_tests_properties(fuzz.fuzzer.regressions fuzz.fuzzer.regressions.stream fuzz.fuzzer.smoke PROPERTIES
    LABELS "fuzz" TIMEOUT 300)
  # The other fuzzers, a few seconds each from their own seeds: that they
  # run, and that their seeds hold nothing they fail on.
  foreach(name stream compress_roundtrip dictionary)
    add_test(NAME fuzz.fuzzer.smoke.${name}
      COMMAND ${CMAKE_COMMAND} -DFUZZER=$<TARGET_FILE:zest_${name}_fuzzer>
              -DSEEDER=$<TARGET_FILE:zest_fuzz_seeds> -DWORK_DIR=${CMAKE_BINARY_DIR}/fuzz/smoke-${name} -DSECONDS=10
              -DCORPUS=${name} -P ${test_dir}/run_fuzz_smoke.cmake)
    set_tests_properties(fuzz.fuzzer.smoke.${name} PROPERTIES LABELS "fuzz" TIMEOUT 300)
  endforeach()
endfunction()
cmake_language(EVAL CODE
  "cmake_language(DEFER DIRECTORY [[${PROJECT_SOURCE_DIR}]] CALL _zest_add_fuzzer_tests [[${CMAKE_CURRENT_LIST_DIR}]])")
