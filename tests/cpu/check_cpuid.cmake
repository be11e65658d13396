# Asserts that exactly one function of a library executes CPUID, and that it
# is the designated one (DESIGN.md: "Probe the CPU once per process").
#
#   cmake -DOBJDUMP=<objdump> -DLIBRARY=<file> -DWORK_DIR=<dir>
#         [-DFUNCTION_REGEX=run_cpuid] [-DEXPECT=pass|fail -DEXPECT_REASON=<regex>]
#         -P check_cpuid.cmake
#
# Functions are told apart by archive member and symbol name, after folding
# the compiler's clone suffixes (.constprop.N, .isra.N, .part.N, .cold) into
# the function they were split from. Keying on the member matters: internal
# functions of two translation units can share one mangled name (an anonymous
# namespace's run_cpuid in two .cpp files); in the static archive they are in
# different members and count as two. (In the shared library such names
# coincide; the static-archive run of this check catches that case.)
#
# EXPECT=fail runs the check on a fixture built to violate the rule and
# passes only if the check reports the violation matching EXPECT_REASON;
# it shows that the check can fail.
cmake_minimum_required(VERSION 3.25)
foreach(v OBJDUMP LIBRARY WORK_DIR)
  if(NOT DEFINED ${v} OR "${${v}}" STREQUAL "")
    message(FATAL_ERROR "check_cpuid.cmake: -D${v}= is required")
  endif()
endforeach()
if(NOT DEFINED FUNCTION_REGEX)
  set(FUNCTION_REGEX "run_cpuid")
endif()
if(NOT DEFINED EXPECT)
  set(EXPECT pass)
endif()
if(NOT EXISTS "${LIBRARY}")
  message(FATAL_ERROR "no such library: ${LIBRARY}")
endif()

file(MAKE_DIRECTORY "${WORK_DIR}")
get_filename_component(lib_name "${LIBRARY}" NAME)
set(listing "${WORK_DIR}/${lib_name}.dis")
execute_process(COMMAND "${OBJDUMP}" -d --no-show-raw-insn "${LIBRARY}"
  OUTPUT_FILE "${listing}" ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${OBJDUMP} -d ${LIBRARY} failed (${rc}): ${err}")
endif()

# Only the lines that matter: archive members, function labels, cpuid.
set(member_re "^(.+):[ \t]+file format ")
set(label_re "^[0-9a-fA-F]+ <(.+)>:$")
set(cpuid_re "^[ \t]*[0-9a-fA-F]+:[ \t]+cpuid([ \t].*)?$")
file(STRINGS "${listing}" lines REGEX "(${member_re})|(${label_re})|(${cpuid_re})")

set(member "")
set(function "(before any symbol)")
set(n_labels 0)
set(hits "")
foreach(line IN LISTS lines)
  if(line MATCHES "${member_re}")
    set(member "${CMAKE_MATCH_1}")
    set(function "(before any symbol)")
  elseif(line MATCHES "${label_re}")
    string(REGEX REPLACE "\\.(constprop|isra|part|cold|lto_priv|localalias)(\\.[0-9]+)?" "" function
           "${CMAKE_MATCH_1}")
    math(EXPR n_labels "${n_labels} + 1")
  elseif(line MATCHES "${cpuid_re}")
    list(APPEND hits "${member}: ${function}")
  endif()
endforeach()
list(REMOVE_DUPLICATES hits)
list(LENGTH hits n_functions)

set(verdict "")
if(n_labels EQUAL 0)
  message(FATAL_ERROR "${OBJDUMP} found no function symbols in ${LIBRARY} (stripped?); cannot check")
elseif(NOT n_functions EQUAL 1)
  string(REPLACE ";" "\n  " where "${hits}")
  set(verdict "cpuid is executed in ${n_functions} functions, expected exactly 1:\n  ${where}")
else()
  list(GET hits 0 only)
  if(NOT only MATCHES "${FUNCTION_REGEX}")
    set(verdict "the one function executing cpuid is '${only}', expected one matching '${FUNCTION_REGEX}'")
  endif()
endif()

if(EXPECT STREQUAL "pass")
  if(verdict)
    message(FATAL_ERROR "${lib_name}: ${verdict}")
  endif()
  message(STATUS "${lib_name}: cpuid only in ${hits}")
elseif(EXPECT STREQUAL "fail")
  if(NOT verdict)
    message(FATAL_ERROR "${lib_name}: the check passed (cpuid only in ${hits}) on a fixture built to fail it")
  endif()
  if(DEFINED EXPECT_REASON AND NOT verdict MATCHES "${EXPECT_REASON}")
    message(FATAL_ERROR "${lib_name}: failed for an unexpected reason:\n${verdict}\n(expected '${EXPECT_REASON}')")
  endif()
  message(STATUS "${lib_name}: failed as it should: ${verdict}")
else()
  message(FATAL_ERROR "EXPECT must be pass or fail, not '${EXPECT}'")
endif()
