# zest-bench smoke tests: tiny inputs, one round; they check that the tool
# runs, reports every case with figures on both sides, writes valid JSON and
# rejects bad arguments. They do not judge speed.
if(TARGET zest_bench)
  set(_bench_check ${CMAKE_CURRENT_LIST_DIR}/check_bench.cmake)
  set(_bench_work ${CMAKE_CURRENT_BINARY_DIR}/bench-tests)
  foreach(mode smoke args files)
    add_test(NAME bench.${mode}
      COMMAND ${CMAKE_COMMAND} -DBENCH=$<TARGET_FILE:zest_bench> -DMODE=${mode}
              -DWORK_DIR=${_bench_work}/${mode} -DSAMPLE_FILE=${CMAKE_CURRENT_LIST_DIR}/tests.cmake
              -P ${_bench_check})
    set_tests_properties(bench.${mode} PROPERTIES LABELS bench TIMEOUT 300)
  endforeach()
endif()
