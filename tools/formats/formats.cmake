# The other formats of the zest CLI (gzip, xz/lzma, lz4): each on the field's
# library from the system, each optional. An option left ON whose library
# is missing builds the tool without that format (it then says so per file).
# Included at the end of tools/CMakeLists.txt, once zest_cli has its sources.
option(ZEST_WITH_ZLIB "zest CLI: gzip through zlib, when found" ON)
option(ZEST_WITH_LZMA "zest CLI: xz and lzma through liblzma, when found" ON)
option(ZEST_WITH_LZ4 "zest CLI: lz4 through liblz4 (frame API), when found" ON)

# The tool's sources without the formats, for the test build below.
get_target_property(_zest_cli_base_sources zest_cli SOURCES)

set(_zest_format_defs ZEST_HAVE_ZLIB=0 ZEST_HAVE_LZMA=0 ZEST_HAVE_LZ4=0)
set(_zest_format_sources formats/format.cpp formats/program_names.cpp)
set(_zest_format_libs "")
set(_zest_formats_on "")

if(ZEST_WITH_ZLIB)
  find_package(ZLIB)
  if(ZLIB_FOUND)
    list(TRANSFORM _zest_format_defs REPLACE "ZEST_HAVE_ZLIB=0" "ZEST_HAVE_ZLIB=1")
    list(APPEND _zest_format_sources formats/gzip.cpp)
    list(APPEND _zest_format_libs ZLIB::ZLIB)
    list(APPEND _zest_formats_on gzip)
  else()
    message(STATUS "zlib not found (Debian: zlib1g-dev): the zest CLI is built without gzip")
  endif()
endif()
if(ZEST_WITH_LZMA)
  find_package(LibLZMA)
  if(LIBLZMA_FOUND)
    list(TRANSFORM _zest_format_defs REPLACE "ZEST_HAVE_LZMA=0" "ZEST_HAVE_LZMA=1")
    list(APPEND _zest_format_sources formats/xz.cpp)
    list(APPEND _zest_format_libs LibLZMA::LibLZMA)
    list(APPEND _zest_formats_on xz lzma)
  else()
    message(STATUS "liblzma not found (Debian: liblzma-dev): the zest CLI is built without xz and lzma")
  endif()
endif()
if(ZEST_WITH_LZ4)
  # liblz4 ships a pkg-config file but no CMake package.
  find_path(LZ4_INCLUDE_DIR lz4frame.h)
  find_library(LZ4_LIBRARY lz4)
  if(LZ4_INCLUDE_DIR AND LZ4_LIBRARY)
    list(TRANSFORM _zest_format_defs REPLACE "ZEST_HAVE_LZ4=0" "ZEST_HAVE_LZ4=1")
    list(APPEND _zest_format_sources formats/lz4.cpp)
    list(APPEND _zest_format_libs ${LZ4_LIBRARY})
    list(APPEND _zest_formats_on lz4)
  else()
    message(STATUS "liblz4 not found (Debian: liblz4-dev): the zest CLI is built without lz4")
  endif()
endif()
list(JOIN _zest_formats_on " " _zest_formats_text)
message(STATUS "zest CLI formats besides zstd: ${_zest_formats_text}")
# For the tests, which check that the tool was built with what was found.
set_property(TARGET zest_cli PROPERTY ZEST_FORMATS "${_zest_formats_text}")

target_sources(zest_cli PRIVATE ${_zest_format_sources})
# Only format.cpp reads them; it is compiled again, without them, below.
target_compile_definitions(zest_cli PRIVATE ${_zest_format_defs})
target_link_libraries(zest_cli PRIVATE ${_zest_format_libs})
if(LZ4_INCLUDE_DIR AND ZEST_WITH_LZ4)
  target_include_directories(zest_cli PRIVATE ${LZ4_INCLUDE_DIR})
endif()

# The same tool with no format library, for the tests that the missing ones
# are reported as such (tests/cli/formats_test.sh); never installed.
if(ZEST_BUILD_TESTS)
  add_executable(zest_cli_no_formats ${_zest_cli_base_sources} formats/format.cpp formats/program_names.cpp)
  target_link_libraries(zest_cli_no_formats PRIVATE zest_internal)
  target_compile_options(zest_cli_no_formats PRIVATE ${ZEST_WARNINGS})
endif()
