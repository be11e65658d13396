# Conformance with the reference: frames written by the system zstd CLI and by
# libzstd must decode byte-exact. All inputs are generated during the run.
include(GoogleTest)
find_program(ZEST_TEST_ZSTD_CLI zstd REQUIRED)

set(_zest_conf_dir ${CMAKE_CURRENT_LIST_DIR})

# Corpus generators, the zstd CLI runner, hand-made frames and shared
# assertions; tests/invalid links it too.
add_library(zest_conformance_support STATIC
  ${_zest_conf_dir}/corpus.cpp
  ${_zest_conf_dir}/zstd_cli.cpp
  ${_zest_conf_dir}/frames.cpp
  ${_zest_conf_dir}/check.cpp)
target_include_directories(zest_conformance_support PUBLIC ${_zest_conf_dir})
target_link_libraries(zest_conformance_support PUBLIC zest_internal GTest::gtest PkgConfig::LIBZSTD)
target_compile_definitions(zest_conformance_support PRIVATE ZEST_TEST_ZSTD_CLI="${ZEST_TEST_ZSTD_CLI}")
target_compile_options(zest_conformance_support PRIVATE ${ZEST_WARNINGS})

add_executable(zest_conformance_test ${_zest_conf_dir}/conformance_test.cpp)
target_link_libraries(zest_conformance_test PRIVATE zest_conformance_support GTest::gtest_main)
target_compile_options(zest_conformance_test PRIVATE ${ZEST_WARNINGS})
gtest_discover_tests(zest_conformance_test
  TEST_PREFIX "conformance."
  DISCOVERY_MODE PRE_TEST
  DISCOVERY_TIMEOUT 60
  PROPERTIES TIMEOUT 300 LABELS "conformance")

# The 40 MiB input: one CTest test per zstd setting so that ctest -j spreads them.
# Labels are single words (a list would be split by gtest_discover_tests):
# `ctest -L conformance` runs them all, `-LE slow` leaves out the big input.
add_executable(zest_conformance_big_test ${_zest_conf_dir}/big_input_test.cpp)
target_link_libraries(zest_conformance_big_test PRIVATE zest_conformance_support GTest::gtest_main)
target_compile_options(zest_conformance_big_test PRIVATE ${ZEST_WARNINGS})
gtest_discover_tests(zest_conformance_big_test
  TEST_PREFIX "conformance."
  DISCOVERY_MODE PRE_TEST
  DISCOVERY_TIMEOUT 60
  PROPERTIES TIMEOUT 900 LABELS "conformance-slow")

# Part of the corpus again with each weaker kernel family forced (ZEST_CPU
# only lowers the selection): the shapes whose decoding leans on the
# per-ISA kernels (Huffman-heavy text, short-offset matches in columns).
set(_zest_conf_isa_filter "KernelSelection.*:HandMade.*:ConcatenatedFrames.*")
foreach(_shape text int16 int32 int64 records mixed mixed_131073)
  foreach(_config l1 l3 l19 stdin_l3 wlog10_l3)
    string(APPEND _zest_conf_isa_filter ":*/CliMatrix.RoundTrip/${_shape}_${_config}")
  endforeach()
endforeach()
foreach(_shape text int16 int64 records)
  string(APPEND _zest_conf_isa_filter ":Corpus/Streaming.RoundTrip/${_shape}_*")
endforeach()
set(_zest_weaker_isas ${ZEST_ISAS})
list(POP_BACK _zest_weaker_isas)  # the best runs by default
foreach(_isa IN LISTS _zest_weaker_isas)
  gtest_discover_tests(zest_conformance_test
    TEST_PREFIX "conformance.${_isa}."
    TEST_FILTER "${_zest_conf_isa_filter}"
    DISCOVERY_MODE PRE_TEST
    DISCOVERY_TIMEOUT 60
    PROPERTIES TIMEOUT 300 LABELS "conformance-isa" ENVIRONMENT "ZEST_CPU=${_isa}")
  gtest_discover_tests(zest_conformance_big_test
    TEST_PREFIX "conformance.${_isa}."
    TEST_FILTER "Corpus/BigInput.RoundTrip/l3"
    DISCOVERY_MODE PRE_TEST
    DISCOVERY_TIMEOUT 60
    PROPERTIES TIMEOUT 900 LABELS "conformance-isa-slow" ENVIRONMENT "ZEST_CPU=${_isa}")
endforeach()
