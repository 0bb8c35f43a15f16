# HPL (src/hpl, tools/hyla/cmd_hpl.c): the unit test program links hyla_hpl;
# CLI runs on one rank and, when MPI is built, under mpirun on 2x2 and 1x4
# grids of host ranks, whose solutions must agree with the one-rank solution
# to rounding level; malformed HPL.dat files exit 2 naming the line.
set(hpl_data ${CMAKE_CURRENT_SOURCE_DIR}/data/hpl)
target_link_libraries(test_hpl PRIVATE hyla_hpl hyla_static)
target_compile_definitions(test_hpl PRIVATE HYLA_HPL_TEST_DATA="${hpl_data}")

set(hpl_x ${CMAKE_CURRENT_BINARY_DIR}/hpl_x_)
add_test(NAME cli_hpl_dat COMMAND hyla_cli hpl ${hpl_data}/HPL.dat --devices cpu)
set_tests_properties(cli_hpl_dat PROPERTIES PASS_REGULAR_EXPRESSION "8 tests completed and passed"
  FAIL_REGULAR_EXPRESSION "FAILED|Sanitizer")
add_test(NAME cli_hpl_1rank COMMAND hyla_cli hpl -n 700 --nb 32 --devices cpu --output ${hpl_x}1.npy)
set_tests_properties(cli_hpl_1rank PROPERTIES FIXTURES_SETUP hpl_x1 PASS_REGULAR_EXPRESSION "PASSED"
  FAIL_REGULAR_EXPRESSION "FAILED|Sanitizer")
add_test(NAME cli_hpl_json COMMAND hyla_cli hpl -n 300 --nb 16 --devices cpu:2 --json)
set_tests_properties(cli_hpl_json PROPERTIES PASS_REGULAR_EXPRESSION "\"status\":\"PASSED\""
  FAIL_REGULAR_EXPRESSION "Sanitizer")
foreach(bad bad_n:6 bad_nb_count:7 bad_pmap:9 bad_q:12 bad_bcast:23 bad_depth:25 bad_align:31 short:21)
  string(REPLACE ":" ";" bad ${bad})
  list(GET bad 0 name)
  list(GET bad 1 line)
  add_test(NAME cli_hpl_${name} COMMAND sh -c "out=$(\"$0\" hpl \"$1\" 2>&1); rc=$?; echo \"$out\"; test $rc -eq 2 && echo \"$out\" | grep -q \"HPL.dat line $2:\""
    $<TARGET_FILE:hyla_cli> ${hpl_data}/${name}.dat ${line})
endforeach()
add_test(NAME cli_hpl_missing COMMAND sh -c "cd \"$1\" && \"$0\" hpl; test $? -eq 2" $<TARGET_FILE:hyla_cli> ${CMAKE_CURRENT_BINARY_DIR})

# MPI: 4 ranks on 2x2, 1x4 and 4x1 grids of host devices. CI has 2 cores and
# runs as root: oversubscribe, allow root, shared memory only. OpenMPI's own
# start-up allocations (and its unloaded components) are never freed, so
# LeakSanitizer is off for these runs; hyla's leaks are counted in test_hpl.
find_program(HYLA_MPIEXEC NAMES mpirun mpiexec)
foreach(grid 2x2 1x4 4x1)
  if(MPI_C_FOUND AND HYLA_MPIEXEC)
    add_test(NAME cli_hpl_mpi_${grid} COMMAND ${HYLA_MPIEXEC} --allow-run-as-root --oversubscribe -np 4
      $<TARGET_FILE:hyla_cli> hpl -n 700 --nb 32 --grid ${grid} --devices cpu --output ${hpl_x}${grid}.npy)
    set_tests_properties(cli_hpl_mpi_${grid} PROPERTIES FIXTURES_SETUP hpl_x${grid}
      PASS_REGULAR_EXPRESSION "PASSED" FAIL_REGULAR_EXPRESSION "FAILED|Sanitizer"
      ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0;OMPI_MCA_btl=self,vader;OMPI_MCA_btl_vader_single_copy_mechanism=none;OMPI_MCA_rmaps_base_oversubscribe=1;OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMP_NUM_THREADS=1;OPENBLAS_NUM_THREADS=1"
      TIMEOUT 300)
    add_test(NAME cli_hpl_mpi_${grid}_same COMMAND test_hpl --same-x ${hpl_x}1.npy ${hpl_x}${grid}.npy)
  else()
    add_test(NAME cli_hpl_mpi_${grid} COMMAND sh -c "echo 'MPI not built: skipped'; exit 77")
    add_test(NAME cli_hpl_mpi_${grid}_same COMMAND sh -c "exit 77")
  endif()
  set_tests_properties(cli_hpl_mpi_${grid} cli_hpl_mpi_${grid}_same PROPERTIES SKIP_RETURN_CODE 77)
  set_tests_properties(cli_hpl_mpi_${grid}_same PROPERTIES FIXTURES_REQUIRED "hpl_x1;hpl_x${grid}")
endforeach()

# The panel broadcast along a process row (--bcast). Host devices have no
# device collectives: --bcast device is refused on every rank (exit 1, named).
# Without --devices the ranks take the GPUs (one each where there are
# several: NCCL device to device, the path of two H200) or host devices (CI),
# and the solution must agree with the one-rank run's.
if(MPI_C_FOUND AND HYLA_MPIEXEC)
  set(hpl_mpi_env "ASAN_OPTIONS=detect_leaks=0;OMPI_MCA_btl=self,vader;OMPI_MCA_btl_vader_single_copy_mechanism=none;OMPI_MCA_rmaps_base_oversubscribe=1;OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMP_NUM_THREADS=1;OPENBLAS_NUM_THREADS=1")
  add_test(NAME cli_hpl_bcast_device_host COMMAND sh -c "out=$(\"$0\" --allow-run-as-root --oversubscribe -np 2 \"$1\" hpl -n 300 --nb 32 --grid 1x2 --devices cpu --bcast device 2>&1); rc=$?; echo \"$out\"; test $rc -ne 0 && echo \"$out\" | grep -q 'device to device'"
    ${HYLA_MPIEXEC} $<TARGET_FILE:hyla_cli>)
  add_test(NAME cli_hpl_mpi_1x2_any COMMAND ${HYLA_MPIEXEC} --allow-run-as-root --oversubscribe -np 2
    $<TARGET_FILE:hyla_cli> hpl -n 700 --nb 32 --grid 1x2 --output ${hpl_x}1x2any.npy)
  set_tests_properties(cli_hpl_mpi_1x2_any PROPERTIES FIXTURES_SETUP hpl_x1x2any
    PASS_REGULAR_EXPRESSION "PASSED" FAIL_REGULAR_EXPRESSION "FAILED|Sanitizer" TIMEOUT 300)
  set_tests_properties(cli_hpl_bcast_device_host cli_hpl_mpi_1x2_any PROPERTIES ENVIRONMENT "${hpl_mpi_env}")
  add_test(NAME cli_hpl_mpi_1x2_any_same COMMAND test_hpl --same-x ${hpl_x}1.npy ${hpl_x}1x2any.npy)
  set_tests_properties(cli_hpl_mpi_1x2_any_same PROPERTIES FIXTURES_REQUIRED "hpl_x1;hpl_x1x2any")
endif()
