# The RBT solver through the CLI: every type checked against LAPACKE on three
# devices with the part timings; options and JSON; the no-pivoting killers
# (A(1,1) = 0 and tiny: the RBT path itself; a cyclic shift: the sparse
# butterflies meet a zero pivot and partial pivoting takes over, status
# 'fallback', exit 0); an .npy round trip on the LU tests' inputs; a matrix
# with a zero column (info 30 from the fallback, exit 1, when the pivot test
# catches it; else a backward stable X, exit 0); bad input: exit status 2.
set(rbt_npy ${CMAKE_CURRENT_BINARY_DIR}/getrf_)
add_test(NAME cli_gesv_rbt COMMAND hyla_cli gesv_rbt -n 100,257 --nrhs 1,3 --type s,d,c,z --check --vs vendor --devices cpu:3 --stats)
add_test(NAME cli_gesv_rbt_opts COMMAND sh -c "out=$(\"$0\" \"$@\"); rc=$?; echo \"$out\"; test $rc -eq 0 && echo \"$out\" | grep -q '\"depth\":3,\"n_padded\":72' && echo \"$out\" | grep -q '\"fallback\":0'" $<TARGET_FILE:hyla_cli> gesv_rbt -n 65 --nrhs 2 --depth 3 --refine 4 --seed 7 --check --json --devices cpu:1)
foreach(kind zero11 tiny)
  add_test(NAME cli_gesv_rbt_${kind} COMMAND sh -c "out=$(\"$0\" \"$@\"); rc=$?; echo \"$out\"; test $rc -eq 0 && echo \"$out\" | grep -q 'fallback no' && echo \"$out\" | grep -q ' pass$'" $<TARGET_FILE:hyla_cli> gesv_rbt -n 200 --type d,z --matrix ${kind} --check --devices cpu:2)
endforeach()
add_test(NAME cli_gesv_rbt_perm COMMAND sh -c "out=$(\"$0\" \"$@\"); rc=$?; echo \"$out\"; test $rc -eq 0 && echo \"$out\" | grep -q 'fallback yes (small pivot)' && echo \"$out\" | grep -q ' fallback$'" $<TARGET_FILE:hyla_cli> gesv_rbt -n 128 --matrix perm --check --devices cpu:3)
add_test(NAME cli_gesv_rbt_npy COMMAND hyla_cli gesv_rbt --input ${rbt_npy}a_d.npy,${rbt_npy}b_d.npy --output ${rbt_npy}Xrbt_d.npy --check --devices cpu:3)
add_test(NAME cli_gesv_rbt_npy_z COMMAND hyla_cli gesv_rbt --input ${rbt_npy}a_z.npy,${rbt_npy}b_z.npy --check --vs vendor --devices cpu:2)
add_test(NAME cli_gesv_rbt_singular COMMAND sh -c "out=$(\"$0\" \"$@\"); rc=$?; echo \"$out\"; (test $rc -eq 1 && echo \"$out\" | grep -q ' 30  singular') || (test $rc -eq 0 && echo \"$out\" | grep -q ' pass$')" $<TARGET_FILE:hyla_cli> gesv_rbt --input ${rbt_npy}sing_d.npy,${rbt_npy}b_d.npy --check)
set_tests_properties(cli_gesv_rbt_npy cli_gesv_rbt_npy_z cli_gesv_rbt_singular PROPERTIES FIXTURES_REQUIRED lu_npy)
foreach(bad "depth|gesv_rbt -n 10 --depth 9"
            "refine|gesv_rbt -n 10 --refine 101"
            "matrix|gesv_rbt -n 10 --matrix lower"
            "matrix_input|gesv_rbt --input ${rbt_npy}a_d.npy,${rbt_npy}b_d.npy --matrix perm"
            "rect|gesv_rbt --input ${rbt_npy}rect_d.npy,${rbt_npy}b_d.npy"
            "count|gesv_rbt --input ${rbt_npy}a_d.npy")
  string(REPLACE "|" ";" bad "${bad}")
  list(POP_FRONT bad name)
  separate_arguments(args UNIX_COMMAND "${bad}")
  add_test(NAME cli_rbt_bad_${name} COMMAND sh -c "\"$0\" \"$@\"; test $? -eq 2" $<TARGET_FILE:hyla_cli> ${args})
  set_tests_properties(cli_rbt_bad_${name} PROPERTIES FIXTURES_REQUIRED lu_npy)
endforeach()
