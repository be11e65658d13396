# Installs the build tree into a scratch prefix, then uses it as a downstream
# project would: find_package(zest) + zest::zest / zest::zest_shared, and
# pkg-config. Invoked by tests.cmake:
#   cmake -DBUILD_DIR=... -DCONSUMER_DIR=... -DWORK_DIR=... -DGENERATOR=... -DCXX_COMPILER=...
#         -DPKG_CONFIG=... [-DCONFIG=...] [-DEXTRA_FLAGS=...] -P run_install_test.cmake
cmake_minimum_required(VERSION 3.25)
foreach(v BUILD_DIR CONSUMER_DIR WORK_DIR GENERATOR CXX_COMPILER PKG_CONFIG)
  if(NOT DEFINED ${v} OR "${${v}}" STREQUAL "")
    message(FATAL_ERROR "run_install_test.cmake: -D${v}= is required")
  endif()
endforeach()

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${ARGN}\n${out}\n${err}")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")
set(config_args)
if(DEFINED CONFIG AND NOT CONFIG STREQUAL "")
  set(config_args --config "${CONFIG}")
endif()

# 1. Install.
run("cmake --install" "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}" ${config_args})
foreach(pattern include/zest/zest.hpp include/zest/errors.hpp "lib*/libzest.a" "lib*/libzest.so"
        "lib*/cmake/zest/zestConfig.cmake" "lib*/cmake/zest/zestConfigVersion.cmake"
        "lib*/cmake/zest/zestTargets.cmake" "lib*/pkgconfig/zest.pc")
  file(GLOB_RECURSE found "${prefix}/${pattern}")
  if(NOT found)
    file(GLOB_RECURSE all RELATIVE "${prefix}" "${prefix}/*")
    string(REPLACE ";" "\n  " all "${all}")
    message(FATAL_ERROR "the install has no ${pattern}; it has:\n  ${all}")
  endif()
endforeach()
file(GLOB_RECURSE pc_file "${prefix}/lib*/pkgconfig/zest.pc")
get_filename_component(pc_dir "${pc_file}" DIRECTORY)
get_filename_component(libdir "${pc_dir}" DIRECTORY)

# 2. A CMake consumer finds the package in the prefix (not the build tree,
#    not a package registry) and links both libraries.
set(consumer_build "${WORK_DIR}/consumer-build")
set(flag_args)
if(DEFINED EXTRA_FLAGS AND NOT EXTRA_FLAGS STREQUAL "")
  set(flag_args "-DCMAKE_CXX_FLAGS=${EXTRA_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${EXTRA_FLAGS}")
endif()
run("configuring the consumer" "${CMAKE_COMMAND}" -S "${CONSUMER_DIR}" -B "${consumer_build}" -G "${GENERATOR}"
    "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}" "-DCMAKE_PREFIX_PATH=${prefix}" -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF ${flag_args})
file(STRINGS "${consumer_build}/CMakeCache.txt" zest_dir REGEX "^zest_DIR:")
string(REGEX REPLACE "^zest_DIR:[A-Z]+=" "" zest_dir "${zest_dir}")
file(REAL_PATH "${zest_dir}" zest_dir)
file(REAL_PATH "${prefix}" real_prefix)
string(FIND "${zest_dir}/" "${real_prefix}/" at)
if(NOT at EQUAL 0)
  message(FATAL_ERROR "find_package(zest) used ${zest_dir}, not the install prefix ${real_prefix}")
endif()
run("building the consumer" "${CMAKE_COMMAND}" --build "${consumer_build}" ${config_args})
foreach(app app app_shared)
  file(GLOB_RECURSE exe "${consumer_build}/${app}" "${consumer_build}/*/${app}")
  if(NOT exe)
    message(FATAL_ERROR "the consumer build made no ${app}")
  endif()
  list(GET exe 0 exe)
  run("running the consumer's ${app}" "${exe}")
  message(STATUS "${app}: ${run_output}")
endforeach()

# 3. pkg-config finds zest in the prefix, its flags point into the prefix,
#    and a program built with exactly those flags works.
set(ENV{PKG_CONFIG_PATH} "${pc_dir}")
run("pkg-config --cflags --libs zest" "${PKG_CONFIG}" --cflags --libs zest)
string(STRIP "${run_output}" pc_flags)
message(STATUS "pkg-config --cflags --libs zest: ${pc_flags}")
separate_arguments(pc_list UNIX_COMMAND "${pc_flags}")
# True when `dir` lies inside the install prefix.
function(in_prefix dir out)
  file(REAL_PATH "${dir}" d)
  string(FIND "${d}/" "${real_prefix}/" at)
  if(at EQUAL 0)
    set(${out} TRUE PARENT_SCOPE)
  else()
    set(${out} FALSE PARENT_SCOPE)
  endif()
endfunction()
set(inc_ok FALSE)
set(lib_ok FALSE)
foreach(flag IN LISTS pc_list)
  # (CMAKE_MATCH_1 is read in a separate if: within one condition it would
  # still hold the previous match when the arguments are expanded.)
  if(flag MATCHES "^-I(.+)$")
    set(dir "${CMAKE_MATCH_1}")
    if(EXISTS "${dir}/zest/zest.hpp")
      in_prefix("${dir}" inc_ok)
    endif()
  elseif(flag MATCHES "^-L(.+)$")
    set(dir "${CMAKE_MATCH_1}")
    if(EXISTS "${dir}/libzest.so")
      in_prefix("${dir}" lib_ok)
    endif()
  endif()
endforeach()
if(NOT inc_ok OR NOT lib_ok OR NOT pc_flags MATCHES "(^| )-lzest( |$)")
  file(READ "${pc_file}" pc_text)
  message(FATAL_ERROR "pkg-config flags '${pc_flags}' do not point into the install prefix ${prefix} "
                      "(-I with zest/zest.hpp: ${inc_ok}, -L with libzest.so: ${lib_ok}). "
                      "A zest.pc that hard-codes the configure-time prefix breaks 'cmake --install --prefix'; "
                      "prefix=\${pcfiledir}/<relative path> makes it relocatable. zest.pc:\n${pc_text}")
endif()
set(pc_app "${WORK_DIR}/app_pkgconfig")
separate_arguments(extra UNIX_COMMAND "${EXTRA_FLAGS}")
run("compiling with pkg-config's flags" "${CXX_COMPILER}" -std=c++20 ${extra} "${CONSUMER_DIR}/main.cpp"
    -o "${pc_app}" ${pc_list})
set(ENV{LD_LIBRARY_PATH} "${libdir}")
run("running the pkg-config build" "${pc_app}")
message(STATUS "app_pkgconfig: ${run_output}")
