# zest-bench smoke tests: tiny inputs, one round; they check that the tool
# runs, reports every case with figures on both sides, writes valid JSON and
# rejects bad arguments. They do not judge speed.
if(TARGET zest_bench)
  set(_bench_check ${CMAKE_CURRENT_LIST_DIR}/check_bench.cmake)
  set(_bench_work ${CMAKE_CURRENT_BINARY_DIR}/bench-tests)
  # Another libzstd, when a folder holding libzstd.so.1.X.Y is there (how to
  # build one: docs/benchmarks.md): ZEST_REF_DIR, by default
  # ~/.cache/zest-reference/1.5.7. The smoke test also runs against it, to see
  # the header name it.
  set(_bench_ref "$ENV{ZEST_REF_DIR}")
  if(NOT _bench_ref)
    set(_bench_ref "$ENV{HOME}/.cache/zest-reference/1.5.7")
  endif()
  if(NOT EXISTS "${_bench_ref}/.done")
    set(_bench_ref "")
  endif()
  foreach(mode smoke args files)
    add_test(NAME bench.${mode}
      COMMAND ${CMAKE_COMMAND} -DBENCH=$<TARGET_FILE:zest_bench> -DMODE=${mode} -DREF_DIR=${_bench_ref}
              -DWORK_DIR=${_bench_work}/${mode} -DSAMPLE_FILE=${CMAKE_CURRENT_LIST_DIR}/tests.cmake
              -P ${_bench_check})
    set_tests_properties(bench.${mode} PROPERTIES LABELS bench TIMEOUT 300)
  endforeach()
endif()
