# The GPU bulge chase alone (bench/probes/chase_probe.c) on one H100: its
# time per step of the critical path (2 n dependent steps) and, from a
# traced run, where a step's time goes (waiting for the previous sweep,
# loading the windows, the bulge, the reflector with its products, the
# update and stores, publishing), in the four precisions at the tuning
# table's band width and at kd 32.
probe chase_probe d,z,s,c 8192,16384 64 3
probe chase_probe d,z 16384 32 3
probe chase_probe d,z 2048,3000,4096 64 3
