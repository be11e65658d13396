# Dictionaries: loading (formatted and raw content, hostile bytes), and
# frames libzstd writes with a dictionary decoded by zest, random dictionaries.
include(GoogleTest)
set(_zest_dict_dir ${CMAKE_CURRENT_LIST_DIR})
add_executable(zest_dictionary_test
  ${_zest_dict_dir}/load_test.cpp
  ${_zest_dict_dir}/decode_test.cpp
  ${_zest_dict_dir}/stream_test.cpp
  ${_zest_dict_dir}/stream_compress_test.cpp
  ${_zest_dict_dir}/golden_test.cpp
  ${_zest_dict_dir}/reach_test.cpp
  ${_zest_dict_dir}/compress_test.cpp
  ${_zest_dict_dir}/train_test.cpp
  ${_zest_dict_dir}/random_test.cpp
  ${_zest_dict_dir}/dict_support.cpp)
target_link_libraries(zest_dictionary_test PRIVATE zest_conformance_support zest_internal GTest::gtest_main)
target_include_directories(zest_dictionary_test PRIVATE ${_zest_dict_dir}/../stream ${_zest_dict_dir}/../unit)
target_compile_options(zest_dictionary_test PRIVATE ${ZEST_WARNINGS})
target_compile_definitions(zest_dictionary_test PRIVATE ZEST_GOLDEN_DIR="${_zest_dict_dir}/golden")
gtest_discover_tests(zest_dictionary_test
  TEST_PREFIX "dictionary."
  DISCOVERY_MODE PRE_TEST
  DISCOVERY_TIMEOUT 60
  PROPERTIES TIMEOUT 600 LABELS "dictionary")
