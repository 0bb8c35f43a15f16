# The eigensolver through the CLI: every type, triangle and jobz checked
# against LAPACKE on three devices with small kd/nb (many panels and
# blocks), the matrix classes, the O(n^2) probes past n = 2048, an .npy
# round trip (inputs from test_syevd --write-npy), NaN input (exit 1) and bad
# input (exit 2).
add_test(NAME cli_syevd COMMAND hyla_cli syevd -n 1,2,37,130 --type s,d,c,z --uplo L,U --jobz V --one-stage off --check --vs vendor --devices cpu:3 --kd 8 --nb 24 --timers)
# Q2 through the backend's q2_apply op (the host backend runs the CUDA
# kernel's schedule), both back-transformation orders
add_test(NAME cli_syevd_back2_kernel COMMAND hyla_cli syevd -n 1,2,67,211 --type d,z --uplo L --jobz V --one-stage off --check --vs vendor --devices cpu:2 --kd 6 --nb 12 --back2 kernel --back-order direct)
add_test(NAME cli_syevd_back2_kernel_r COMMAND hyla_cli syevd -n 150 --type s,c --jobz V --one-stage off --check --devices cpu:1 --kd 5 --back2 kernel --back-order reordered)
add_test(NAME cli_syevd_chase_v COMMAND hyla_cli syevd -n 2,37,130 --type s,d,c,z --uplo L --jobz V --one-stage off --check --vs vendor --devices cpu:3 --kd 8 --nb 24 --chase device --timers)
# the chase step flag (the host chase ignores it; test_hb2st runs each mode on a GPU)
add_test(NAME cli_syevd_chase_step COMMAND hyla_cli syevd -n 2,130 --type d,z --jobz V --one-stage off --check --devices cpu:2 --kd 8 --chase device --chase-step split)
add_test(NAME cli_syevd_n COMMAND hyla_cli heevd -n 0,3,101 --type d,z --uplo L,U --jobz N --check --vs vendor --devices cpu:2 --json)
foreach(m clustered geometric arithmetic onelarge graded diagonal zero)
  add_test(NAME cli_syevd_${m} COMMAND hyla_cli syevd -n 90 --type d,c --jobz V --one-stage off --matrix ${m} --check --devices cpu:2 --kd 4 --nb 16 --repeat 1)
endforeach()
add_test(NAME cli_syevd_probe_v COMMAND hyla_cli syevd -n 2050 --jobz V --check --devices cpu:1 --repeat 1 --warmup 0)
add_test(NAME cli_syevd_probe_n COMMAND hyla_cli syevd -n 2050 --jobz N --check --devices cpu:1 --repeat 1 --warmup 0)
set(eig_npy ${CMAKE_CURRENT_BINARY_DIR}/syevd_)
add_test(NAME cli_eig_npy_inputs COMMAND test_syevd --write-npy ${eig_npy})
add_test(NAME cli_syevd_npy COMMAND hyla_cli syevd --input ${eig_npy}A_d.npy --jobz V --one-stage off --check --output ${eig_npy}w_d.npy,${eig_npy}Z_d.npy --devices cpu:3 --kd 4)
add_test(NAME cli_heevd_npy COMMAND hyla_cli heevd --input ${eig_npy}A_z.npy --uplo L,U --jobz V --check --vs vendor --devices cpu:2)
add_test(NAME cli_syevd_npy_nan COMMAND sh -c "\"$0\" \"$@\"; test $? -eq 1" $<TARGET_FILE:hyla_cli> syevd --input ${eig_npy}nan_d.npy)
set_tests_properties(cli_eig_npy_inputs PROPERTIES FIXTURES_SETUP eig_npy)
set_tests_properties(cli_syevd_npy cli_heevd_npy cli_syevd_npy_nan PROPERTIES FIXTURES_REQUIRED eig_npy)
foreach(bad "rect|syevd --input ${eig_npy}rect_d.npy"
            "count|syevd --input ${eig_npy}A_d.npy,${eig_npy}A_z.npy"
            "matrix|syevd -n 10 --matrix foo"
            "jobz|syevd -n 10 --jobz X"
            "back2|syevd -n 10 --back2 fast")
  string(REPLACE "|" ";" bad "${bad}")
  list(POP_FRONT bad name)
  separate_arguments(args UNIX_COMMAND "${bad}")
  add_test(NAME cli_eig_bad_${name} COMMAND sh -c "\"$0\" \"$@\"; test $? -eq 2" $<TARGET_FILE:hyla_cli> ${args})
  set_tests_properties(cli_eig_bad_${name} PROPERTIES FIXTURES_REQUIRED eig_npy)
endforeach()
# On the common run loop: a range of sizes with --repeat and --json gives one
# JSON object per run, each checked.
add_test(NAME cli_syevd_range_json COMMAND sh -c "out=$(\"$0\" syevd -n 10:30:10 --repeat 2 --json --check --devices cpu:2); rc=$?; echo \"$out\"; test $rc -eq 0 && test $(echo \"$out\" | grep -c '^{\"routine\":\"syevd\".*\"status\":\"pass\"') -eq 3" $<TARGET_FILE:hyla_cli>)
# Several devices: the multi-device solver checked in each stage-1 variant and
# order of the back transformations, on 2, 4 and 5 virtual devices; with --vs
# vendor the one-device path's column, with --timers the per-device timeline.
add_test(NAME cli_syevd_mgpu COMMAND sh -c "out=$(\"$0\" syevd -n 150,301 --type d,z --uplo L,U --jobz V --one-stage off --devices cpu:3 --check --vs vendor --timers --kd 8 --nb 32 --repeat 1); rc=$?; echo \"$out\"; test $rc -eq 0 && echo \"$out\" | grep -q '^% routine.* one-dev(s) ' && test $(echo \"$out\" | grep -c '^% vendor (eig): LAPACKE') -eq 1 && test $(echo \"$out\" | grep -c '^%   dev [0-2]  |[U12TqQGD.]\\{60\\}| *[0-9][0-9]* cols  U ') -eq 24 && test $(echo \"$out\" | grep -c ' pass$') -eq 8" $<TARGET_FILE:hyla_cli>)
foreach(v "half_host|--sbr half --allreduce host|cpu:2" "half_device|--sbr half --allreduce device|cpu:4"
          "full|--sbr full|cpu:4" "reordered|--back-order reordered|cpu:5" "direct_full|--sbr full --back-order direct|cpu:2")
  string(REPLACE "|" ";" v "${v}")
  list(GET v 0 name)
  list(GET v 1 flags)
  list(GET v 2 devs)
  separate_arguments(flags UNIX_COMMAND "${flags}")
  add_test(NAME cli_syevd_mgpu_${name} COMMAND hyla_cli syevd -n 1,3,97,260 --type s,c --uplo L,U --jobz V --one-stage off --check --devices ${devs} --kd 6 --nb 24 --repeat 1 ${flags})
endforeach()
# and each of the stage-1 variants and the reordered order on the other of 2
# and 4 devices, in d and z
foreach(v "half_host|--sbr half --allreduce host|cpu:4" "half_device|--sbr half --allreduce device|cpu:2"
          "full|--sbr full|cpu:2" "reordered|--back-order reordered|cpu:2" "reordered|--back-order reordered|cpu:4")
  string(REPLACE "|" ";" v "${v}")
  list(GET v 0 name)
  list(GET v 1 flags)
  list(GET v 2 devs)
  string(REPLACE "cpu:" "" ndev "${devs}")
  separate_arguments(flags UNIX_COMMAND "${flags}")
  add_test(NAME cli_syevd_mgpu_${name}_${ndev} COMMAND hyla_cli syevd -n 3,97,250 --type d,z --uplo L,U --jobz V --one-stage off --check --devices ${devs} --kd 6 --nb 24 --repeat 1 ${flags})
  # the same code as the runs above on another device count: the Release
  # pass only (scripts/test.sh runs the sanitizer pass with -LE repeat)
  set_tests_properties(cli_syevd_mgpu_${name}_${ndev} PROPERTIES LABELS repeat)
endforeach()
# CholeskyQR2 panels on three devices: every panel of 2 kd rows or more of a
# random matrix (35 of 37 at n = 301, kd 8), and none left of a zero one (its
# first panel refused, the solver started over with Householder panels); both
# checked, in d and z.
add_test(NAME cli_syevd_mgpu_cholqr COMMAND sh -c "out=$(\"$0\" syevd -n 301 --type d,z --uplo L --jobz V --one-stage off --devices cpu:3 --panel-qr cholqr --check --timers --kd 8 --nb 32 --repeat 1 && \"$0\" syevd -n 301 --matrix zero --type d,z --uplo L --jobz V --one-stage off --devices cpu:3 --panel-qr cholqr --check --timers --kd 8 --nb 32 --repeat 1); rc=$?; echo \"$out\"; test $rc -eq 0 && test $(echo \"$out\" | grep -c ' pass$') -eq 4 && test $(echo \"$out\" | grep -c 'CholeskyQR2 panels 35)') -eq 2 && test $(echo \"$out\" | grep -c 'CholeskyQR2 panels 0)') -eq 2" $<TARGET_FILE:hyla_cli>)
add_test(NAME cli_syevd_mgpu_json COMMAND sh -c "out=$(\"$0\" syevd -n 120 --jobz V --one-stage off --devices cpu:2 --vs vendor --timers --json --check --kd 8 --nb 16); rc=$?; echo \"$out\"; test $rc -eq 0 && echo \"$out\" | grep -q '\"one_dev_time_s\":[0-9].*\"status\":\"pass\".*\"timeline\":\\[{\"device\":0,\"cols\":[0-9]*,\"upload\":\\[[0-9.e-]*,[0-9.e-]*\\].*},{\"device\":1,\"cols\":'" $<TARGET_FILE:hyla_cli>)

# The generalized eigensolver through the CLI: every itype, triangle and
# precision pair checked against LAPACKE (residual and B-normalization with
# vectors, eigenvalues without) on three devices, orders over several
# reduction blocks; a bad --itype is a usage error.
add_test(NAME cli_sygvd COMMAND sh -c "out=$(\"$0\" sygvd -n 1,37,130 --type d,z --itype 1,2,3 --uplo L,U --jobz V --check --vs vendor --devices cpu:3 --repeat 1); rc=$?; echo \"$out\"; test $rc -eq 0 && test $(echo \"$out\" | grep -c ' pass$') -eq 36 && echo \"$out\" | grep -q '^% vendor (generalized eig): LAPACKE'" $<TARGET_FILE:hyla_cli>)
add_test(NAME cli_hegvd_values COMMAND sh -c "out=$(\"$0\" hegvd -n 2,90 --type s,c --itype 2,3 --jobz N --check --repeat 1 --json); rc=$?; echo \"$out\"; test $rc -eq 0 && test $(echo \"$out\" | grep -c '\"itype\":[23],.*\"status\":\"pass\"') -eq 8" $<TARGET_FILE:hyla_cli>)
add_test(NAME cli_sygvd_bad_itype COMMAND sh -c "\"$0\" sygvd -n 5 --itype 4; test $? -eq 2" $<TARGET_FILE:hyla_cli>)
# A part of the generalized spectrum (--range: hyla_?sygvdx) through the
# CLI: by index with vectors in every precision and itype on three devices
# (checked, LAPACKE ?sygvx timed beside), by value without vectors (the
# values against LAPACKE's same indices, the count included), an interval
# holding nothing (m 0, a pass), iu beyond n (a usage error).
add_test(NAME cli_sygvdx COMMAND sh -c "out=$(\"$0\" sygvd -n 1,60 --type s,d,c,z --itype 1,2,3 --uplo L,U --jobz V --range I:1:1 --check --vs vendor --devices cpu:3 --repeat 2 --json); rc=$?; echo \"$out\"; test $rc -eq 0 && test $(echo \"$out\" | grep -c '\"routine\":\"\\(sy\\|he\\)gvdx\".*\"range\":\"I\",\"m\":1,.*\"vendor\":\"lapacke_\\(sy\\|he\\)gvx\".*\"status\":\"pass\"') -eq 48" $<TARGET_FILE:hyla_cli>)
add_test(NAME cli_hegvdx_values COMMAND sh -c "out=$(\"$0\" hegvd -n 80 --type z --itype 1,3 --jobz N --range V:-20:5 --check --repeat 1); rc=$?; echo \"$out\"; test $rc -eq 0 && test $(echo \"$out\" | grep -c '^  hegvdx .* pass$') -eq 2" $<TARGET_FILE:hyla_cli>)
add_test(NAME cli_sygvdx_empty COMMAND sh -c "out=$(\"$0\" sygvd -n 40 --jobz V --range V:1e9:2e9 --check --repeat 1 --json); rc=$?; echo \"$out\"; test $rc -eq 0 && echo \"$out\" | grep -q '\"m\":0,.*\"status\":\"pass\"'" $<TARGET_FILE:hyla_cli>)
add_test(NAME cli_sygvdx_bad_iu COMMAND sh -c "\"$0\" sygvd -n 5 --range I:1:9; test $? -eq 2" $<TARGET_FILE:hyla_cli>)
# --timers on the generalized drivers: the steps of their own (Cholesky, reduction, back-solve),
# in text and in JSON, with no warning that the flag does not apply
add_test(NAME cli_sygvd_timers COMMAND sh -c "out=$(\"$0\" sygvd -n 300 --jobz V --timers --devices cpu:1 --repeat 1 2>&1) && echo \"$out\" | grep -q 'timers: potrf [0-9.]*  reduction [0-9.]* .*back-solve' && ! echo \"$out\" | grep -q 'does not apply' && \"$0\" hegvd -n 200 --range I:1:20 --timers --json --repeat 1 | grep -q '\"gv_potrf\":[0-9.e-]*,\"gv_reduce\":[0-9.e-]*,\"gv_back\":'" $<TARGET_FILE:hyla_cli>)

# A part of the spectrum through the CLI, every precision and triangle,
# several calls per size (warm-up and repeats: every call's workspaces
# fresh), checked against LAPACKE ?syevr with the same range; by value and
# values only in JSON; a bad --range is a usage error.
add_test(NAME cli_syevdx COMMAND sh -c "out=$(\"$0\" syevdx -n 50,300 --type s,d,c,z --range I:1:30 --uplo L,U --jobz V --check --vs vendor --repeat 2 --devices cpu:3); rc=$?; echo \"$out\"; test $rc -eq 0 && test $(echo \"$out\" | grep -c ' 30 .* pass$') -eq 16" $<TARGET_FILE:hyla_cli>)
# MRRR's hard cases (n >= 256): clustered, geometric (graded) and
# one-large spectra, a tenth of them by index and an interval by value, in
# d and z, checked against LAPACKE ?syevr and by the residual.
add_test(NAME cli_syevdx_mrrr_hard COMMAND sh -c "n=0; for m in clustered geometric onelarge graded; do for r in I:1:40 I:181:220; do out=$(\"$0\" syevdx -n 400 --type d,z --matrix $m --range $r --jobz V --check --repeat 1 --devices cpu) || exit 1; echo \"$out\"; n=$((n + $(echo \"$out\" | grep -c ' 40 .* pass$'))); done; done; test $n -eq 16" $<TARGET_FILE:hyla_cli>)
add_test(NAME cli_syevdx_bad_matrix COMMAND sh -c "\"$0\" syevdx -n 40 --matrix tiny --range I:1:4; test $? -eq 2" $<TARGET_FILE:hyla_cli>)
add_test(NAME cli_heevdx_values COMMAND sh -c "out=$(\"$0\" heevdx -n 120 --type z --range V:-5:5 --jobz N --check --json --repeat 1); rc=$?; echo \"$out\"; test $rc -eq 0 && echo \"$out\" | grep -q '\"range\":\"V\".*\"m\":[1-9][0-9]*,.*\"status\":\"pass\"'" $<TARGET_FILE:hyla_cli>)
add_test(NAME cli_syevdx_bad_range COMMAND sh -c "\"$0\" syevdx -n 20 --range I:3:2; test $? -eq 2 && \"$0\" syevdx -n 20 --range I:1:21; test $? -eq 2" $<TARGET_FILE:hyla_cli>)
