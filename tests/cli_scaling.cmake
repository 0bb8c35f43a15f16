# The multi-device logic at the device counts of the scaling runs (8 GPUs),
# on eight virtual host devices: GEMM, Cholesky, LU and the LU solve, each
# checked against LAPACK's residuals with enough panels (--nb) that every
# device owns several; the multi-device eigensolver, d and z, both
# triangles, with and without vectors, in the direct order and the reordered
# one (Q built beside the tridiagonal solver, then Z = Q E), each run's
# timeline listing all eight devices; HPL on a 2x4 grid of 8 ranks, whose solution must agree
# with the one-rank run of cli_hpl_1rank to rounding level.
add_test(NAME cli_scale8_gemm COMMAND hyla_cli gemm -m 700 -n 650 -k 300 --tile 128 --kblock 64 --type d,z --check --devices cpu:8)
add_test(NAME cli_scale8_potrf COMMAND hyla_cli potrf -n 613 --nb 32 --type d,z --uplo L,U --check --devices cpu:8)
add_test(NAME cli_scale8_getrf COMMAND hyla_cli getrf -n 613 --nb 32 --type d,z --check --devices cpu:8)
add_test(NAME cli_scale8_gesv COMMAND hyla_cli gesv -n 517 --nrhs 3 --nb 24 --type d --check --devices cpu:8)
foreach(order direct reordered)
  # 2 orders x 2 types x 2 triangles x 2 jobz = 8 rows per order, each with 8 timeline lines
  add_test(NAME cli_scale8_syevd_${order} COMMAND sh -c "out=$(\"$0\" syevd -n 517 --type d,z --uplo L,U --jobz V --one-stage off --back-order ${order} --devices cpu:8 --check --timers --kd 8 --nb 32 --repeat 1 && \"$0\" syevd -n 517 --type d,z --uplo L,U --jobz N --one-stage off --devices cpu:8 --check --timers --kd 8 --nb 32 --repeat 1); rc=$?; echo \"$out\"; test $rc -eq 0 && test $(echo \"$out\" | grep -c ' pass$') -eq 8 && test $(echo \"$out\" | grep -c '^%   dev [0-7]  |') -eq 64 && test $(echo \"$out\" | grep -c '^%   dev 7  |') -eq 8" $<TARGET_FILE:hyla_cli>)
endforeach()
set_tests_properties(cli_scale8_gemm cli_scale8_potrf cli_scale8_getrf cli_scale8_gesv
  cli_scale8_syevd_direct cli_scale8_syevd_reordered PROPERTIES
  FAIL_REGULAR_EXPRESSION "FAILED|Sanitizer" ENVIRONMENT "OMP_NUM_THREADS=1;OPENBLAS_NUM_THREADS=1")
if(MPI_C_FOUND AND HYLA_MPIEXEC)
  add_test(NAME cli_scale8_hpl_2x4 COMMAND ${HYLA_MPIEXEC} --allow-run-as-root --oversubscribe -np 8
    $<TARGET_FILE:hyla_cli> hpl -n 700 --nb 32 --grid 2x4 --devices cpu --output ${hpl_x}2x4.npy)
  set_tests_properties(cli_scale8_hpl_2x4 PROPERTIES FIXTURES_SETUP hpl_x2x4
    PASS_REGULAR_EXPRESSION "PASSED" FAIL_REGULAR_EXPRESSION "FAILED|Sanitizer"
    ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0;OMPI_MCA_btl=self,vader;OMPI_MCA_btl_vader_single_copy_mechanism=none;OMPI_MCA_rmaps_base_oversubscribe=1;OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMP_NUM_THREADS=1;OPENBLAS_NUM_THREADS=1"
    TIMEOUT 300)
  add_test(NAME cli_scale8_hpl_2x4_same COMMAND test_hpl --same-x ${hpl_x}1.npy ${hpl_x}2x4.npy)
  set_tests_properties(cli_scale8_hpl_2x4_same PROPERTIES FIXTURES_REQUIRED "hpl_x1;hpl_x2x4")
endif()
