# The zstd C API: one C test program, built three times from the same source
# against zest's zstd.h (static and shared zest_zstd) and once against the
# system's zstd.h and libzstd, which it must pass just the same.
set(_capi_src ${CMAKE_CURRENT_LIST_DIR}/capi_test.c)

add_executable(capi_test_zest ${_capi_src})
target_link_libraries(capi_test_zest PRIVATE zest_zstd)
add_executable(capi_test_zest_shared ${_capi_src})
target_link_libraries(capi_test_zest_shared PRIVATE zest_zstd_shared)
add_executable(capi_test_libzstd ${_capi_src})
target_link_libraries(capi_test_libzstd PRIVATE PkgConfig::LIBZSTD)
foreach(t capi_test_zest capi_test_zest_shared capi_test_libzstd)
  set_target_properties(${t} PROPERTIES C_STANDARD 99 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
  target_compile_options(${t} PRIVATE -Wall -Wextra)
  add_test(NAME ${t} COMMAND ${t})
endforeach()
# The static library holds C++ objects: link with the C++ driver. So does a
# sanitizer build against the shared one (its UBSan checks of C++ objects
# need the sanitizer's C++ runtime, which only the C++ driver brings in).
set_target_properties(capi_test_zest PROPERTIES LINKER_LANGUAGE CXX)
if(ZEST_SANITIZE)
  set_target_properties(capi_test_zest_shared PROPERTIES LINKER_LANGUAGE CXX)
endif()

# Cross-check with the system zstd tool: frames written through zest_zstd
# decode with it, and frames it writes decode through zest_zstd.
find_program(ZEST_SYSTEM_ZSTD zstd)
if(ZEST_SYSTEM_ZSTD)
  add_test(NAME capi_cross_zstd_cli
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/cross_check.sh $<TARGET_FILE:capi_test_zest> ${ZEST_SYSTEM_ZSTD}
            ${CMAKE_CURRENT_BINARY_DIR}/capi_cross)
endif()

# Parameters and their bounds, zest_zstd against libzstd: both shared
# libraries loaded with dlopen into one program (tests/capi/bounds_check.c).
# A C program that loads libzest_zstd.so and libzstd with dlopen.
function(zest_capi_dlopen_program name source)
  add_executable(${name} ${source})
  set_target_properties(${name} PROPERTIES C_STANDARD 99 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
  target_compile_options(${name} PRIVATE -Wall -Wextra)
  target_compile_definitions(${name} PRIVATE _POSIX_C_SOURCE=200809L)
  target_link_libraries(${name} PRIVATE ${CMAKE_DL_LIBS})
  add_dependencies(${name} zest_zstd_shared)
  if(ZEST_SANITIZE)
    set_target_properties(${name} PROPERTIES LINKER_LANGUAGE CXX)
  endif()
endfunction()
zest_capi_dlopen_program(capi_bounds_check ${CMAKE_CURRENT_LIST_DIR}/bounds_check.c)
# The library pkg-config names (libzstd.so); the dynamic loader follows its link.
find_library(ZEST_SYSTEM_LIBZSTD NAMES zstd HINTS ${LIBZSTD_LIBRARY_DIRS} NO_CACHE)
if(ZEST_SYSTEM_LIBZSTD)
  add_test(NAME capi_bounds_vs_libzstd
    COMMAND capi_bounds_check $<TARGET_FILE:zest_zstd_shared> ${ZEST_SYSTEM_LIBZSTD})
endif()

# The match finder's parameters, zest_zstd against libzstd: the same sets on
# both, the frames decoded by libzstd, the same windows and getParameter values.
zest_capi_dlopen_program(capi_cparams_check ${CMAKE_CURRENT_LIST_DIR}/cparams_check.c)
if(ZEST_SYSTEM_LIBZSTD)
  add_test(NAME capi_cparams_vs_libzstd
    COMMAND capi_cparams_check $<TARGET_FILE:zest_zstd_shared> ${ZEST_SYSTEM_LIBZSTD})
  set_tests_properties(capi_cparams_vs_libzstd PROPERTIES TIMEOUT 600)
endif()

# The shared library exports the zstd API and nothing else.
if(CMAKE_NM)
  add_test(NAME capi_shared_exports
    COMMAND ${CMAKE_COMMAND} -DNM=${CMAKE_NM} -DLIB=$<TARGET_FILE:zest_zstd_shared>
            -P ${CMAKE_CURRENT_LIST_DIR}/exports_check.cmake)
endif()

# The streaming decompression contract (issue 18): the cases are written once
# (libzstd's frames of the corpus shapes, with and without checksums, one and
# many blocks, concatenated and skippable frames, 20,000,000 bytes at level 1),
# then the zstd users' read-until-EOF loop decodes them through zest and
# through libzstd (stream_loop.c, built against each), and stream_diff.c feeds
# both libraries the same calls and compares every one.
add_executable(capi_stream_cases ${CMAKE_CURRENT_LIST_DIR}/stream_cases.cpp)
target_link_libraries(capi_stream_cases PRIVATE zest_conformance_support)
target_compile_options(capi_stream_cases PRIVATE ${ZEST_WARNINGS})
set(_stream_cases_dir ${CMAKE_CURRENT_BINARY_DIR}/stream_cases)
add_test(NAME capi_stream_cases COMMAND capi_stream_cases ${_stream_cases_dir} --large)
set_tests_properties(capi_stream_cases PROPERTIES FIXTURES_SETUP stream_cases)

foreach(_lib zest libzstd)
  add_executable(capi_stream_loop_${_lib} ${CMAKE_CURRENT_LIST_DIR}/stream_loop.c)
  set_target_properties(capi_stream_loop_${_lib} PROPERTIES C_STANDARD 99 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
  target_compile_options(capi_stream_loop_${_lib} PRIVATE -Wall -Wextra)
  add_test(NAME capi_stream_loop_${_lib} COMMAND capi_stream_loop_${_lib} ${_stream_cases_dir})
  set_tests_properties(capi_stream_loop_${_lib} PROPERTIES FIXTURES_REQUIRED stream_cases TIMEOUT 900)
endforeach()
target_link_libraries(capi_stream_loop_zest PRIVATE zest_zstd)
set_target_properties(capi_stream_loop_zest PROPERTIES LINKER_LANGUAGE CXX)
target_link_libraries(capi_stream_loop_libzstd PRIVATE PkgConfig::LIBZSTD)

zest_capi_dlopen_program(capi_stream_diff ${CMAKE_CURRENT_LIST_DIR}/stream_diff.c)
if(ZEST_SYSTEM_LIBZSTD)
  add_test(NAME capi_stream_diff_vs_libzstd
    COMMAND capi_stream_diff $<TARGET_FILE:zest_zstd_shared> ${ZEST_SYSTEM_LIBZSTD} ${_stream_cases_dir})
  set_tests_properties(capi_stream_diff_vs_libzstd PROPERTIES FIXTURES_REQUIRED stream_cases TIMEOUT 900)
endif()

# Streaming compression under RLIMIT_FSIZE (issue 18): no buffer may be a file.
add_executable(capi_fsize_limit ${CMAKE_CURRENT_LIST_DIR}/fsize_limit.c)
set_target_properties(capi_fsize_limit PROPERTIES C_STANDARD 99 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF
  LINKER_LANGUAGE CXX)
target_compile_options(capi_fsize_limit PRIVATE -Wall -Wextra)
target_compile_definitions(capi_fsize_limit PRIVATE _POSIX_C_SOURCE=200809L)
target_link_libraries(capi_fsize_limit PRIVATE zest_zstd)
add_test(NAME capi_fsize_limit COMMAND capi_fsize_limit)

# Dictionaries through the zstd API (issue 22): dict_check.c built against
# zest and against libzstd, which must pass the same, with a dictionary the
# system zstd trains; and the reference's own dictionary examples (from
# Debian's libzstd-dev, when installed), built unchanged against zest_zstd,
# round-tripping with `zstd -D`.
foreach(_lib zest libzstd)
  add_executable(capi_dict_check_${_lib} ${CMAKE_CURRENT_LIST_DIR}/dict_check.c)
  set_target_properties(capi_dict_check_${_lib} PROPERTIES C_STANDARD 99 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
  target_compile_options(capi_dict_check_${_lib} PRIVATE -Wall -Wextra)
  target_compile_definitions(capi_dict_check_${_lib} PRIVATE _POSIX_C_SOURCE=200809L)  # alarm(), the watchdog
endforeach()
target_link_libraries(capi_dict_check_zest PRIVATE zest_zstd)
set_target_properties(capi_dict_check_zest PROPERTIES LINKER_LANGUAGE CXX)
target_link_libraries(capi_dict_check_libzstd PRIVATE PkgConfig::LIBZSTD)
set(_examples_dir /usr/share/doc/libzstd-dev/examples)
set(_dict_examples)
if(EXISTS ${_examples_dir}/dictionary_compression.c AND EXISTS ${_examples_dir}/common.h)
  foreach(_ex dictionary_compression dictionary_decompression)
    add_executable(capi_example_${_ex} ${_examples_dir}/${_ex}.c)
    set_target_properties(capi_example_${_ex} PROPERTIES LINKER_LANGUAGE CXX)
    target_link_libraries(capi_example_${_ex} PRIVATE zest_zstd)
  endforeach()
  set(_dict_examples -- $<TARGET_FILE:capi_example_dictionary_compression>
                        $<TARGET_FILE:capi_example_dictionary_decompression>)
endif()
if(ZEST_SYSTEM_ZSTD)
  add_test(NAME capi_dict_check
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/dict_check.sh ${ZEST_SYSTEM_ZSTD} ${CMAKE_CURRENT_BINARY_DIR}/dict_check
            $<TARGET_FILE:capi_dict_check_zest> $<TARGET_FILE:capi_dict_check_libzstd> ${_dict_examples})
endif()

# Compression with ZSTD_c_nbWorkers (issue 32): workers_check.c against zest
# and against libzstd, which must pass the same (same frames for 1 to 4
# workers; every frame decodes). Labelled "threads": the ThreadSanitizer
# build runs the zest one.
foreach(_lib zest libzstd)
  add_executable(capi_workers_check_${_lib} ${CMAKE_CURRENT_LIST_DIR}/workers_check.c)
  set_target_properties(capi_workers_check_${_lib} PROPERTIES C_STANDARD 99 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
  target_compile_options(capi_workers_check_${_lib} PRIVATE -Wall -Wextra)
  target_compile_definitions(capi_workers_check_${_lib} PRIVATE _POSIX_C_SOURCE=200809L)  # alarm(), the watchdog
  add_test(NAME capi_workers_check_${_lib} COMMAND capi_workers_check_${_lib})
  set_tests_properties(capi_workers_check_${_lib} PROPERTIES LABELS "threads" TIMEOUT 900)
endforeach()
target_link_libraries(capi_workers_check_zest PRIVATE zest_zstd)
set_target_properties(capi_workers_check_zest PROPERTIES LINKER_LANGUAGE CXX)
target_link_libraries(capi_workers_check_libzstd PRIVATE PkgConfig::LIBZSTD)
