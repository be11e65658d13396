# CLI tests: run the built `zest` against the system zstd (the oracle).
# Included from tests/CMakeLists.txt; one CTest test per group of the script.
if(TARGET zest_cli)
  find_program(ZEST_REFERENCE_ZSTD zstd)
  if(NOT ZEST_REFERENCE_ZSTD)
    set(ZEST_REFERENCE_ZSTD zstd)  # the script reports a skip when it is missing
  endif()
  foreach(group roundtrip stdio multi test errors overwrite options compress signals
                list recursive levels messages bench interop progress signals_compress streaming
                compat fsize fsize_library sizes output_dir option_effects list_damaged progress_decompress
                level_parsing pass_through program_names environment filelist suffix_zstd cparams
                accepted refusals same_file)
    add_test(NAME cli.${group}
      COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/cli_test.sh $<TARGET_FILE:zest_cli> ${ZEST_REFERENCE_ZSTD} ${group})
    set_tests_properties(cli.${group} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120 LABELS cli)
  endforeach()
endif()
