# Frames from the reference's decompressor errata: valid frames that some
# decoders in the field rejected. zest must decode them as libzstd does.
add_executable(zest_errata_tests ${CMAKE_CURRENT_LIST_DIR}/errata_test.cpp)
target_link_libraries(zest_errata_tests PRIVATE zest GTest::gtest_main PkgConfig::LIBZSTD)
target_compile_options(zest_errata_tests PRIVATE ${ZEST_WARNINGS})
include(GoogleTest)
gtest_discover_tests(zest_errata_tests TEST_PREFIX "errata." PROPERTIES LABELS errata)
