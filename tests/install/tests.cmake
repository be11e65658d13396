# Install test: `cmake --install` of this build tree into a scratch prefix,
# then a downstream project uses it through find_package and pkg-config.
# Needs the whole tree built (ctest runs after the build).
find_program(ZEST_PKG_CONFIG NAMES pkg-config pkgconf REQUIRED)
set(_install_flags "")
if(ZEST_SANITIZE)
  set(_install_flags "-fsanitize=address,undefined")
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
    -P ${CMAKE_CURRENT_LIST_DIR}/run_install_test.cmake)
set_tests_properties(install.consumer PROPERTIES LABELS install TIMEOUT 600)
