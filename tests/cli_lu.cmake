# LU through the CLI: every type checked against LAPACKE on three devices
# (many panels with --nb 32), rectangular getrf, the solvers with each
# trans, the O(n^2) check past n = 2048, an .npy round trip (inputs from
# test_getrf --write-npy), a singular matrix (info 30, exit 1, info in the
# JSON record), and bad input: exit status exactly 2 with a message.
# Pivots round trip: getrf --output LU.npy,ipiv.npy, then getrs --input
# LU.npy,ipiv.npy,B.npy gives the very X of gesv with the same panel width
# (same factor, same solve: compared byte for byte). --stats prints the
# LU statistics.
add_test(NAME cli_getrf COMMAND hyla_cli getrf -n 100,257 --type s,d,c,z --check --vs vendor --devices cpu:3 --nb 32)
add_test(NAME cli_getrf_rect COMMAND hyla_cli getrf -n 150,301 -m 301,150 --type d,c --check --vs vendor --devices cpu:2 --nb 16)
add_test(NAME cli_gesv COMMAND hyla_cli gesv -n 150,301 --nrhs 1,7 --type d,z --check --vs vendor --devices cpu:3)
add_test(NAME cli_getrs COMMAND hyla_cli getrs -n 200 --nrhs 1,3,40 --type s,c --transa C --check --vs vendor --devices cpu:2 --json)
add_test(NAME cli_getrs_t COMMAND hyla_cli getrs -n 99 --nrhs 2 --type d,z --transa T --check --devices cpu:3 --nb 8)
add_test(NAME cli_getrf_big COMMAND hyla_cli getrf -n 2100 --type d --check --devices cpu:3 --repeat 1 --warmup 0)
set(lu_npy ${CMAKE_CURRENT_BINARY_DIR}/getrf_)
add_test(NAME cli_lu_npy_inputs COMMAND test_getrf --write-npy ${lu_npy})
add_test(NAME cli_getrf_npy COMMAND hyla_cli getrf --input ${lu_npy}a_d.npy --output ${lu_npy}LU_d.npy --check --devices cpu:3 --nb 16)
add_test(NAME cli_getrf_npy_rect COMMAND hyla_cli getrf --input ${lu_npy}rect_d.npy --check --vs vendor --devices cpu:2 --nb 16)
add_test(NAME cli_gesv_npy COMMAND hyla_cli gesv --input ${lu_npy}a_d.npy,${lu_npy}b_d.npy --output ${lu_npy}X_d.npy --check --devices cpu:3)
add_test(NAME cli_getrs_npy_z COMMAND hyla_cli getrs --input ${lu_npy}a_z.npy,${lu_npy}b_z.npy --transa T --check --vs vendor --devices cpu:3)
add_test(NAME cli_getrf_npy_singular COMMAND sh -c "out=$(\"$0\" \"$@\"); rc=$?; echo \"$out\"; test $rc -eq 1 && echo \"$out\" | grep -q '\"info\":30'" $<TARGET_FILE:hyla_cli> getrf --input ${lu_npy}sing_d.npy --check --json)
add_test(NAME cli_getrf_stats COMMAND sh -c "\"$0\" \"$@\" | grep -q '\"panels_per_device\":\\[3,2,2\\]'" $<TARGET_FILE:hyla_cli> getrf -n 200 --nb 32 --type d --devices cpu:3 --stats --json)
foreach(t d z)
  add_test(NAME cli_getrf_piv_${t} COMMAND hyla_cli getrf --input ${lu_npy}a_${t}.npy --output ${lu_npy}LU_${t}.npy,${lu_npy}ipiv_${t}.npy --check --devices cpu:3 --nb 16)
  add_test(NAME cli_getrs_piv_${t} COMMAND hyla_cli getrs --input ${lu_npy}LU_${t}.npy,${lu_npy}ipiv_${t}.npy,${lu_npy}b_${t}.npy --output ${lu_npy}Xr_${t}.npy --check --devices cpu:3 --nb 16)
  add_test(NAME cli_gesv_piv_${t} COMMAND hyla_cli gesv --input ${lu_npy}a_${t}.npy,${lu_npy}b_${t}.npy --output ${lu_npy}Xg_${t}.npy --check --devices cpu:3 --nb 16)
  add_test(NAME cli_lu_piv_same_${t} COMMAND ${CMAKE_COMMAND} -E compare_files ${lu_npy}Xr_${t}.npy ${lu_npy}Xg_${t}.npy)
  set_tests_properties(cli_getrf_piv_${t} PROPERTIES FIXTURES_REQUIRED lu_npy FIXTURES_SETUP lu_piv_${t})
  set_tests_properties(cli_getrs_piv_${t} PROPERTIES FIXTURES_REQUIRED "lu_npy;lu_piv_${t}" FIXTURES_SETUP lu_x_${t})
  set_tests_properties(cli_gesv_piv_${t} PROPERTIES FIXTURES_REQUIRED lu_npy FIXTURES_SETUP lu_x_${t})
  set_tests_properties(cli_lu_piv_same_${t} PROPERTIES FIXTURES_REQUIRED lu_x_${t})
endforeach()
set_tests_properties(cli_lu_npy_inputs PROPERTIES FIXTURES_SETUP lu_npy)
set_tests_properties(cli_getrf_npy cli_getrf_npy_rect cli_gesv_npy cli_getrs_npy_z cli_getrf_npy_singular
                     PROPERTIES FIXTURES_REQUIRED lu_npy)
foreach(bad "rect|gesv --input ${lu_npy}rect_d.npy,${lu_npy}b_d.npy"
            "rows|getrs --input ${lu_npy}a_d.npy,${lu_npy}b59_d.npy"
            "type|gesv --input ${lu_npy}a_d.npy,${lu_npy}b_z.npy"
            "count|getrf --input ${lu_npy}a_d.npy,${lu_npy}b_d.npy"
            "trans|gesv -n 10 --transa T"
            "ipiv|getrs --input ${lu_npy}a_d.npy,${lu_npy}b_d.npy,${lu_npy}b_d.npy"
            "outputs|gesv --input ${lu_npy}a_d.npy,${lu_npy}b_d.npy --output ${lu_npy}x1.npy,${lu_npy}x2.npy"
            "panel_ctas|getrf -n 10 --panel kernel:5"
            "panel_name|getrf -n 10 --panel fast")
  string(REPLACE "|" ";" bad "${bad}")
  list(POP_FRONT bad name)
  separate_arguments(args UNIX_COMMAND "${bad}")
  add_test(NAME cli_lu_bad_${name} COMMAND sh -c "\"$0\" \"$@\"; test $? -eq 2" $<TARGET_FILE:hyla_cli> ${args})
  set_tests_properties(cli_lu_bad_${name} PROPERTIES FIXTURES_REQUIRED lu_npy)
endforeach()

# The GPU panel choice (--panel, HYLA_OPT_LU_PANEL) is taken on every
# backend (the host one ignores it).
add_test(NAME cli_getrf_panel COMMAND hyla_cli getrf -n 300 --type d,z --check --devices cpu:2 --panel kernel:16)
