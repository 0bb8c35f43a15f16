# The GPU bulge chase alone (bench/probes/chase_probe.c) on one H100: its
# time per step of the critical path and, from a traced run, where a step's
# time goes (waiting for the previous sweep, loading the windows, the
# bulge, the reflector, the products, the update and stores, publishing),
# for the kernel's variants (k_hb2st.h: 1 release/acquire progress, 2 polls
# without sleeping, 4 the reflector's norm unscaled where safe, 8 the
# bulge's products by four threads a row; 0 the kernel as the library runs
# it).
probe chase_probe d,z 8192,16384 64 3 0,1,3,5,9,15
probe chase_probe d,s 16384 32 3 0,15
