# Bad input to the CLI (docs/BAD_INPUT.md): --output never destroys data
# (temporary files renamed together, never an --input, devices and FIFOs
# written into, links followed, read-only files refused, nothing after a
# FAILED check without --output-on-fail), --output names counted per
# routine, 1-D eigenvalues, getrf's factor written when info > 0, JSON
# without nan/inf, size guards, zero-work rows, refused zero tuning values
# and warnings for ignored options, the device-list grammar, empty getrf,
# and one error line under MPI (tests/cli_bad_input.py).
set(bad_input_cases same_file all_or_none output_targets check_failed output_count eig_1d getrf_singular
    json_finite zero_work sizes options empty mpi_once)
find_program(HYLA_MPIEXEC NAMES mpirun mpiexec)
set(bad_input_mpi "")
if(MPI_C_FOUND AND HYLA_MPIEXEC)
  set(bad_input_mpi ${HYLA_MPIEXEC})
endif()
foreach(c ${bad_input_cases})
  add_test(NAME cli_bad_input_${c} COMMAND Python3::Interpreter ${CMAKE_CURRENT_SOURCE_DIR}/cli_bad_input.py
    $<TARGET_FILE:hyla_cli> ${CMAKE_CURRENT_BINARY_DIR}/bad_input_${c} ${c} ${bad_input_mpi})
  set_tests_properties(cli_bad_input_${c} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300
    FAIL_REGULAR_EXPRESSION "runtime error|Sanitizer")
endforeach()
