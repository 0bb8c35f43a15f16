# The strided-batched DGEMMs of one wave of Q2 (eig/psb2st.c) on their own,
# one H100: W = V^T Z against W kept transposed (W' = Z^T V), and the two
# updates, at n = ncols = 16384, kd = 64, nb = 32 / 64 / 128 sweeps a group
# and 16-64 groups a batch (bench/micro/q2_gemm.c): TF/s and GB/s.
probe q2_gemm
