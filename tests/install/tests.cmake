# Install test: `cmake --install` of this build tree into a scratch prefix,
# then a downstream project uses it through find_package and pkg-config.
# Needs the whole tree built (ctest runs after the build).
find_program(ZEST_PKG_CONFIG NAMES pkg-config pkgconf REQUIRED)
set(_install_flags "")
if(ZEST_SANITIZE)
  set(_install_flags "-fsanitize=address,undefined")
endif()
get_property(_zest_links GLOBAL PROPERTY ZEST_PROGRAM_LINKS)
set(_zest_tool_args "")
if(TARGET zest_cli)
  # The tool and its links: those that must be there, and the zstd names
  # that must not be without ZEST_INSTALL_ZSTD_NAMES.
  set(_zest_absent zstd zstdcat unzstd zstdmt)
  list(REMOVE_ITEM _zest_absent ${_zest_links})
  set(_zest_tool_args "-DBINDIR=${CMAKE_INSTALL_BINDIR}" "-DPROGRAM_LINKS=${_zest_links}"
                      "-DABSENT_LINKS=${_zest_absent}")
endif()
add_test(NAME install.consumer
  COMMAND ${CMAKE_COMMAND}
    -DBUILD_DIR=${CMAKE_BINARY_DIR}
    -DCONSUMER_DIR=${CMAKE_CURRENT_LIST_DIR}/consumer
    -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/install-test
    "-DGENERATOR=${CMAKE_GENERATOR}"
    -DCXX_COMPILER=${CMAKE_CXX_COMPILER}
    -DPKG_CONFIG=${ZEST_PKG_CONFIG}
    -DCONFIG=$<CONFIG>
    "-DEXTRA_FLAGS=${_install_flags}"
    ${_zest_tool_args}
    -P ${CMAKE_CURRENT_LIST_DIR}/run_install_test.cmake)
set_tests_properties(install.consumer PROPERTIES LABELS install TIMEOUT 600)
