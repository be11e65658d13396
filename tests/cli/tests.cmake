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
                accepted refusals same_file zstd_params long dictionary train threads)
    add_test(NAME cli.${group}
      COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/cli_test.sh $<TARGET_FILE:zest_cli> ${ZEST_REFERENCE_ZSTD} ${group})
    set_tests_properties(cli.${group} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS cli)
  endforeach()
endif()

# The other formats (gzip, xz, lzma, lz4): interop with their tools and with
# zstd, program names, and the tool built without them (zest_cli_no_formats).
if(TARGET zest_cli AND TARGET zest_cli_no_formats)
  foreach(group build compress decompress multi boundaries errors test pipes empty names list missing memory)
    add_test(NAME cli.formats.${group}
      COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/formats_test.sh $<TARGET_FILE:zest_cli>
              $<TARGET_FILE:zest_cli_no_formats> ${ZEST_REFERENCE_ZSTD}
              "$<TARGET_PROPERTY:zest_cli,ZEST_FORMATS>" ${group})
    set_tests_properties(cli.formats.${group} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS cli)
  endforeach()
endif()
