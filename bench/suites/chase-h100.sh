# The GPU bulge chase alone (bench/probes/chase_probe.c) on one H100: its
# time over 2 n steps (the critical path before the late-row hand-off, kept
# as the unit) and, from a
# traced run, where a step's time goes (waiting for the previous sweep,
# loading the windows, the bulge, the reflector with its products, the
# update and stores, publishing), in the four precisions at the tuning
# table's band width and at kd 32.
probe chase_probe d,z,s,c 8192,16384 64 3
probe chase_probe d,z 16384 32 3
probe chase_probe d,z 2048,3000,4096 64 3
# the steps split at the late row (2), the windows copied ahead (1) and
# loaded after the wait (0): the default's choice per type
probe chase_probe d,z,s,c 4096,16384 64 3 2
probe chase_probe d,z,s,c 4096,16384 64 3 1
probe chase_probe d,z,s,c 4096,16384 64 3 0
