# The eigensolver's choices that decide its small and middle sizes on one
# H100: where the band is chased (host cores or the GPU kernel, whose time is
# 2 n steps whatever the size) below n = 4096, with cuSOLVER in the same
# run; and the stage-1 panel QR, cuSOLVER's Xgeqrf against the fused QR
# panel kernel, alone at the panel shapes (bench/probes/qr_probe.c) and in
# the solver (--panel vendor / kernel, eigenvalues only) at 4096 to 16384,
# where stage 1 is a chain of panels, each waiting for the previous one.
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
probe qr_probe d,z 1024,2048,4096,8192,16384 64 5
for c in host device; do
  hyla syevd -n 512,1024,1536,2048,3000 --type d,z --jobz V --vs vendor --timers --repeat 2 --warmup 1 --chase $c
  hyla syevd -n 512,1024,1536,2048,3000 --type d,z --jobz N --vs vendor --timers --repeat 2 --warmup 1 --chase $c
done
for p in vendor kernel; do
  hyla syevd -n 4096,8192,16384 --type d,z --jobz N --timers --repeat 2 --warmup 1 --panel $p
done
