# CPU probing: once per process, never from contexts, overridable by ZEST_CPU,
# and (x86) CPUID present in exactly one function of the built libraries.

add_executable(zest_cpu_tests ${CMAKE_CURRENT_LIST_DIR}/cpu_probe_test.cpp)
target_include_directories(zest_cpu_tests PRIVATE ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(zest_cpu_tests PRIVATE zest_internal GTest::gtest_main PkgConfig::LIBZSTD)
target_compile_options(zest_cpu_tests PRIVATE ${ZEST_WARNINGS})

# Each entry is its own process: the probe count starts from zero in each.
# A filter that matches nothing would pass vacuously, hence the FAIL regex.
function(zest_cpu_gtest name filter)
  add_test(NAME cpu.${name} COMMAND zest_cpu_tests --gtest_filter=${filter})
  set_tests_properties(cpu.${name} PROPERTIES LABELS cpu TIMEOUT 120
    FAIL_REGULAR_EXPRESSION "Running 0 tests" ${ARGN})
endfunction()
zest_cpu_gtest(contexts_do_not_probe "ProbeLazy.*" ENVIRONMENT_MODIFICATION "ZEST_CPU=unset:")
zest_cpu_gtest(probe_once "ProbeOnce.*" ENVIRONMENT_MODIFICATION "ZEST_CPU=unset:")
zest_cpu_gtest(isa_default "Dispatch.*" ENVIRONMENT_MODIFICATION "ZEST_CPU=unset:")
foreach(level IN LISTS ZEST_ISA_NAMES)  # those the CPU or build lack included: never raised
  zest_cpu_gtest(isa_${level} "Dispatch.*" ENVIRONMENT "ZEST_CPU=${level}")
endforeach()

if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64|amd64")
  find_program(ZEST_OBJDUMP NAMES objdump llvm-objdump REQUIRED)
  set(_cpuid_check ${CMAKE_CURRENT_LIST_DIR}/check_cpuid.cmake)
  set(_cpuid_work ${CMAKE_CURRENT_BINARY_DIR}/cpuid-check)

  function(zest_cpuid_check name library)
    add_test(NAME cpu.${name}
      COMMAND ${CMAKE_COMMAND} -DOBJDUMP=${ZEST_OBJDUMP} -DLIBRARY=${library}
              -DWORK_DIR=${_cpuid_work} ${ARGN} -P ${_cpuid_check})
    set_tests_properties(cpu.${name} PROPERTIES LABELS cpu TIMEOUT 120)
  endfunction()
  zest_cpuid_check(cpuid_in_one_function_static $<TARGET_FILE:zest>)
  zest_cpuid_check(cpuid_in_one_function_shared $<TARGET_FILE:zest_shared>)

  # Fixtures with known cpuid placement show that the check passes and fails
  # when it should.
  set(_fx ${CMAKE_CURRENT_LIST_DIR}/fixtures)
  add_library(cpuid_fixture_good STATIC ${_fx}/one_function.cpp)
  add_library(cpuid_fixture_good_shared SHARED ${_fx}/one_function.cpp)
  add_library(cpuid_fixture_two STATIC ${_fx}/two_functions.cpp)
  add_library(cpuid_fixture_two_shared SHARED ${_fx}/two_functions.cpp)
  add_library(cpuid_fixture_same_name STATIC ${_fx}/same_name_a.cpp ${_fx}/same_name_b.cpp)
  add_library(cpuid_fixture_wrong_name STATIC ${_fx}/wrong_name.cpp)
  add_library(cpuid_fixture_none STATIC ${_fx}/no_cpuid.cpp)
  foreach(t good good_shared two two_shared same_name wrong_name none)
    target_compile_options(cpuid_fixture_${t} PRIVATE ${ZEST_WARNINGS})
  endforeach()
  zest_cpuid_check(check_accepts_one_function $<TARGET_FILE:cpuid_fixture_good>)
  zest_cpuid_check(check_accepts_one_function_shared $<TARGET_FILE:cpuid_fixture_good_shared>)
  zest_cpuid_check(check_rejects_two_functions $<TARGET_FILE:cpuid_fixture_two>
    -DEXPECT=fail "-DEXPECT_REASON=in 2 functions")
  zest_cpuid_check(check_rejects_two_functions_shared $<TARGET_FILE:cpuid_fixture_two_shared>
    -DEXPECT=fail "-DEXPECT_REASON=in 2 functions")
  zest_cpuid_check(check_rejects_same_name_in_two_files $<TARGET_FILE:cpuid_fixture_same_name>
    -DEXPECT=fail "-DEXPECT_REASON=in 2 functions")
  zest_cpuid_check(check_rejects_other_function $<TARGET_FILE:cpuid_fixture_wrong_name>
    -DEXPECT=fail "-DEXPECT_REASON=expected one matching")
  zest_cpuid_check(check_rejects_no_cpuid $<TARGET_FILE:cpuid_fixture_none>
    -DEXPECT=fail "-DEXPECT_REASON=in 0 functions")
endif()
