# The multi-device logic at the device counts of the scaling runs (issue 6: 8
# GPUs), on eight virtual host devices: GEMM, Cholesky, LU and the LU solve,
# each checked against LAPACK's residuals with enough panels (--nb) that every
# device owns several; HPL on a 2x4 grid of 8 ranks, whose solution must agree
# with the one-rank run of cli_hpl_1rank to rounding level.
add_test(NAME cli_scale8_gemm COMMAND hyla_cli gemm -m 700 -n 650 -k 300 --tile 128 --kblock 64 --type d,z --check --devices cpu:8)
add_test(NAME cli_scale8_potrf COMMAND hyla_cli potrf -n 613 --nb 32 --type d,z --uplo L,U --check --devices cpu:8)
add_test(NAME cli_scale8_getrf COMMAND hyla_cli getrf -n 613 --nb 32 --type d,z --check --devices cpu:8)
add_test(NAME cli_scale8_gesv COMMAND hyla_cli gesv -n 517 --nrhs 3 --nb 24 --type d --check --devices cpu:8)
set_tests_properties(cli_scale8_gemm cli_scale8_potrf cli_scale8_getrf cli_scale8_gesv PROPERTIES
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
