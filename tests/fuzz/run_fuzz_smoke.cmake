# Generates the seed corpora, then runs a fuzzer on its own (seeds/CORPUS)
# for SECONDS seconds. -D FUZZER=... SEEDER=... WORK_DIR=... SECONDS=... CORPUS=...
foreach(v FUZZER SEEDER WORK_DIR SECONDS CORPUS)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "run_fuzz_smoke.cmake: ${v} is not set")
  endif()
endforeach()
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR}/corpus)
execute_process(COMMAND ${SEEDER} ${WORK_DIR}/seeds RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "seed generation failed: ${rc}")
endif()
execute_process(
  COMMAND ${FUZZER} -max_total_time=${SECONDS} -rss_limit_mb=4096 -max_len=65536 -timeout=60
          -print_final_stats=1 -artifact_prefix=${WORK_DIR}/ ${WORK_DIR}/corpus ${WORK_DIR}/seeds/${CORPUS}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the fuzzer found a problem (exit ${rc}); the input is in ${WORK_DIR}")
endif()
