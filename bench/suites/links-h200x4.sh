# The links between the four GPUs of one host: whether peer access is
# possible and what a device-to-device copy (issued as hyla's copy_2d issues
# it) reaches, pair by pair, all devices pulling at once, and beside a
# DGEMM on every device (bench/probes/peer_link.c); `nvidia-smi topo -m`
# in the raw log beside it. The multi-device eigensolver's Z = Q E exchange
# moves 3/4 of Q to every device: at NVLink rates it hides behind its GEMMs,
# at PCIe rates it sets their time.
run nvidia-smi topo -m
probe peer_link 1024 3
