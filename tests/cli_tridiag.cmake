# The tridiagonal eigensolvers through the CLI: both types checked against
# LAPACKE on three devices (all merges on the host: the host tuning has no
# device levels), a spectrum from a dense matrix (--cond), eigenvalues only (n = 1300 by
# divide and conquer), JSON;
# a complex type and --input are usage errors (exit status 2).
add_test(NAME cli_stedc COMMAND hyla_cli stedc -n 0,1,2,77,300,1100 --type s,d --check --vs vendor --devices cpu:3)
add_test(NAME cli_stedc_cond COMMAND hyla_cli stedc -n 257 --cond 1e12 --check --devices cpu:2 --repeat 1)
add_test(NAME cli_sterf COMMAND hyla_cli sterf -n 1,2,500,1300 --type s,d --check --vs vendor --json)
add_test(NAME cli_stedc_bad_type COMMAND sh -c "\"$0\" \"$@\"; test $? -eq 2" $<TARGET_FILE:hyla_cli> stedc -n 10 --type z)
add_test(NAME cli_stedc_bad_input COMMAND sh -c "\"$0\" \"$@\"; test $? -eq 2" $<TARGET_FILE:hyla_cli> stedc --input x.npy)
# Bisection (--tri bisect): sterf's row "stebz" checked against LAPACKE ?sterf
# on the host backend; syevd / heevd jobz N through it; a bad --tri value is a
# usage error.
add_test(NAME cli_sterf_bisect COMMAND sh -c "out=$(\"$0\" \"$@\"); rc=$?; echo \"$out\"; test $rc -eq 0 && echo \"$out\" | grep -q 'stebz.*pass'" $<TARGET_FILE:hyla_cli> sterf -n 0,1,2,77,300 --type s,d --check --vs vendor --tri bisect --devices cpu:2 --repeat 1)
add_test(NAME cli_syevd_bisect COMMAND hyla_cli syevd -n 1,130,257 --type d,z --jobz N --check --tri bisect --devices cpu:2 --repeat 1)
add_test(NAME cli_tri_bad COMMAND sh -c "\"$0\" \"$@\"; test $? -eq 2" $<TARGET_FILE:hyla_cli> syevd -n 10 --tri qr)
# Device merges forced on the host backend from 40 rows (--dc-min): stedc
# checked against LAPACKE, and syevd with vectors with a Q1 block reflector of
# 3 panels (--back1-nb); --dc-min 1 is out of range (exit status 2).
add_test(NAME cli_stedc_dc_min COMMAND hyla_cli stedc -n 100,300 --type s,d --check --vs vendor --dc-min 40 --devices cpu:2 --repeat 1)
add_test(NAME cli_syevd_dc_min COMMAND hyla_cli syevd -n 300 --type d,z --jobz V --one-stage off --check --dc-min 40 --back1-nb 96 --kd 32 --devices cpu:2 --repeat 1)
add_test(NAME cli_dc_min_bad COMMAND sh -c "\"$0\" \"$@\"; test $? -eq 2" $<TARGET_FILE:hyla_cli> syevd -n 10 --dc-min 1)
# On the common run loop: a range of sizes and two types with --repeat and
# --json gives one JSON object per run, each checked.
add_test(NAME cli_stedc_range_json COMMAND sh -c "out=$(\"$0\" stedc -n 10:30:10 --type s,d --repeat 2 --json --check --devices cpu:2); rc=$?; echo \"$out\"; test $rc -eq 0 && test $(echo \"$out\" | grep -c '^{\"routine\":\"stedc\".*\"status\":\"pass\"') -eq 6" $<TARGET_FILE:hyla_cli>)
