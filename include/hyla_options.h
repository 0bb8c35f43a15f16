/*
 * hyla's option table: one line per hyla_option (include/hyla.h documents
 * each option in full). Everything else about an option comes from its line:
 *   - the library's default, valid range and environment variable
 *     HYLA_<ID> (read by hyla_create, see there);
 *   - the hyla tool's flag, the syntax of its value and its --help line;
 *   - the options table of README.md (a test checks README.md, and the
 *     hyla_option enum of hyla.h, against this table).
 * Adding an option takes its enum value in hyla.h, one line here, a row in
 * README.md, and the code that reads it.
 *
 * X(ID, FLAG, VALUES, MIN, MAX, DEFAULT, HELP)
 *   ID       the option is HYLA_OPT_<ID>, its environment variable HYLA_<ID>
 *   FLAG     the hyla tool's flag ("--name"); options may share one, a flag
 *            given sets all of them
 *   VALUES   the flag's value, alternatives separated by '|':
 *              word     the k-th word (k from 0) stands for MIN + k
 *              N        an integer
 *              word:N   the word, ':' and an integer (the integer is the value)
 *              F        a fraction from 0 to 0.999, in units of 1/1000
 *            ""         the flag takes no value and sets MAX
 *            The environment variable takes the integer value.
 *   MIN, MAX the range hyla_set_option accepts (hyla.h names the few values
 *            inside it that an option refuses)
 *   DEFAULT  the value in a new context, when the environment sets none
 *   HELP     what the option does, on one line
 */
#ifndef HYLA_OPTIONS_H
#define HYLA_OPTIONS_H

#include <stdint.h>

#define HYLA_OPTIONS(X)                                                                            \
    X(GEMM_TILE, "--tile", "N", 0, 1 << 20, 0, "GEMM tile edge; 0: tuning table")                  \
    X(GEMM_KBLOCK, "--kblock", "N", 0, 1 << 20, 0, "GEMM k-block; 0: tuning table")                \
    X(GEMM_CPU_SHARE, "--cpu-share", "auto|off|F", -1, 999, -1,                                    \
      "GEMM share of the host cores next to GPUs (1/1000); auto: when predicted faster")           \
    X(PACK_THREADS, "--pack-threads", "N", 0, 256, 0,                                              \
      "threads packing host panels, per device; 0: automatic")                                     \
    X(POTRF_NB, "--nb", "N", 0, 1 << 20, 0, "Cholesky panel width; 0: tuning table")               \
    X(POTRF_OOC, "--ooc", "", 0, 1, 0, "Cholesky: 1 forces the out-of-core path; 0: by size")      \
    X(GETRF_NB, "--nb", "N", 0, 1 << 20, 0, "LU panel width; 0: tuning table")                     \
    X(GETRF_IB, "--ib", "N", 0, 1 << 20, 0, "LU leaf width inside a panel; 0: tuning table")       \
    X(LU_PANEL, "--panel", "auto|vendor|kernel|kernel:N", 0, 1 << 20, 0,                           \
      "GPU LU panel leaves: cuSOLVER, or the fused kernel (on N >= 8 CTAs)")                       \
    X(EIG_KD, "--kd", "N", 0, 1 << 16, 0, "eigensolver band half-width; 0: tuning table")          \
    X(EIG_NB, "--nb", "N", 0, 1 << 20, 0, "eigensolver stage-1 update block; 0: tuning table")     \
    X(EIG_BACK2_NB, "--back2-nb", "N", 0, 1 << 16, 0,                                              \
      "sweeps per block reflector of the Q2 back transformation, 1..min(4 kd, 256); 0: auto")      \
    X(EIG_ORDER, "--back-order", "auto|direct|reordered", 0, 2, 0,                                 \
      "eigenvectors: Z := Q1 (Q2 E), or Q1 Q2 built during stedc then one GEMM")                   \
    X(EIG_CHASE, "--chase", "auto|host|device", 0, 2, 0,                                           \
      "bulge chasing (stage 2) on the host cores or the device")                                   \
    X(EIG_TRIDIAG, "--tri", "auto|sterf|bisect", 0, 2, 0,                                          \
      "eigenvalues only: sterf on the host cores, or bisection on the device")                     \
    X(EIG_BACK2, "--back2", "auto|gemm|kernel", 0, 2, 0,                                           \
      "eigenvectors: Q2 by batched GEMMs or the one-call kernel; auto: tuning table")              \
    X(EIG_DC_MIN, "--dc-min", "N", 0, INT64_MAX, 0,                                                \
      "smallest divide-and-conquer merge run on the device (not 1); 0: automatic")                 \
    X(EIG_BACK1_NB, "--back1-nb", "N", 0, 1 << 20, 0,                                              \
      "columns per block reflector of the Q1 back transformation; 0: tuning table")                \
    X(EIG_DEVICES, "--eig-devices", "auto|one|all", 0, 2, 0,                                       \
      "eigensolver: device 0 alone or every device; auto: several GPUs with vectors from n = 16384")           \
    X(EIG_SBR, "--sbr", "auto|half|full", 0, 2, 0,                                                 \
      "several devices, stage 1: lower triangle and an allreduce, or both triangles")              \
    X(EIG_ALLREDUCE, "--allreduce", "auto|host|device", 0, 2, 0,                                   \
      "several devices, half storage: A V summed through host memory or device to device")        \
    X(EIG_PANEL_QR, "--panel-qr", "auto|householder|cholqr", 0, 2, 0,                            \
      "eigensolver stage 1: panels by Householder QR or CholeskyQR2 (reconstructed)")           \
    X(EIG_S1_UPDATE, "--s1-update", "auto|her2k|gemm", 0, 2, 0,                                   \
      "eigensolver stage 1 and the generalized reduction: trailing update by one HER2K or by " \
      "block-column GEMMs")                                                                       \
    X(EIG_S1_SYMM, "--s1-symm", "auto|vendor|gemm|gemm:N", 0, 1 << 20, 0,                          \
      "eigensolver stage 1: A V by SYMM/HEMM or GEMMs (diagonal blocks of order N >= 16)")         \
    X(EIG_ONE_STAGE, "--one-stage", "auto|off|N", 0, 1 << 30, 0,                                   \
      "eigensolver, one device: the backend's one-stage solver up to order N (off: never)")       \
    X(EIG_CHASE_STEP, "--chase-step", "auto|wait|ahead|split", 0, 3, 0,                            \
      "GPU chase: a step's window loaded after the wait, copied ahead, or split at its last row")     \
    X(HOST_LAPACK, "--host-lapack", "auto|off", 0, 1, 0,                                           \
      "one host device: potrf/getrf and their solves by the host LAPACK (auto) or the tile engine") \
    X(EIG_SUBSET_DC, "--subset-dc", "auto|N", 0, 1001, 0,                                          \
      "part of the spectrum with vectors: all pairs by divide and conquer from N per mille of n on (1001: never)")

#endif
