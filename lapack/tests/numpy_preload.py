"""NumPy and SciPy unchanged (Debian's call LAPACK's plain names, pip's
their OpenBLAS's scipy_ names, LP64 for SciPy and ILP64 for NumPy), with
libhyla_lapack preloaded and every call forced to hyla: run under
LD_PRELOAD=libhyla_lapack.so HYLA_LAPACK_MIN_N=0 HYLA_LAPACK_VERBOSE=1.
numpy.linalg.eigh, scipy.linalg.cholesky, solve and lu_factor must give
LAPACK's results (scaled residuals) and hyla's log must show it served
them. LAPACK's XERBLA must be the one it is without the preload (NumPy's
own, which raises ValueError instead of printing, where this NumPy's build
lets LAPACK reach it; numpy.linalg.lapack_lite's dgeqrf with m = -1, where
lapack_lite has it). Exit 77 (skipped) without
NumPy or SciPy."""
import os
import sys
import tempfile

try:
    import numpy as np
    import scipy.linalg as sl
except ImportError:
    print("no numpy/scipy")
    sys.exit(77)

if "libhyla_lapack" not in os.environ.get("LD_PRELOAD", ""):
    print("run with LD_PRELOAD=libhyla_lapack.so")
    sys.exit(1)

# hyla's log goes to stderr (fd 2): into a file for the duration of the calls
log = tempfile.TemporaryFile(mode="w+")
saved = os.dup(2)
sys.stderr.flush()
os.dup2(log.fileno(), 2)
rng = np.random.default_rng(7)
n = 97
eps = np.finfo(float).eps
A = rng.standard_normal((n, n))
S = A @ A.T + n * np.eye(n)
H = (A + A.T) / 2
b = rng.standard_normal((n, 3))
w, V = np.linalg.eigh(H)
L = sl.cholesky(S, lower=True)
x = sl.solve(A, b)
lu, piv = sl.lu_factor(A)
os.dup2(saved, 2)
log.seek(0)
text = log.read()

fails = []
def check(name, value, bound=30.0):
    print(f"{name}: {value:.3g}")
    if not value < bound:
        fails.append(name)

norm = np.linalg.norm
check("eigh ||HV - VW|| / (n ||H|| eps)", norm(H @ V - V * w) / (n * norm(H) * eps))
check("eigh ||I - V^T V|| / (n eps)", norm(np.eye(n) - V.T @ V) / (n * eps))
check("cholesky ||S - LL^T|| / (n ||S|| eps)", norm(S - L @ L.T) / (n * norm(S) * eps))
check("solve ||b - Ax|| / (||A|| ||x|| n eps)", norm(b - A @ x) / (norm(A) * norm(x) * n * eps))
P = np.eye(n)
for i, p in enumerate(piv):
    P[[i, p]] = P[[p, i]]
Lf = np.tril(lu, -1) + np.eye(n)
Uf = np.triu(lu)
check("lu_factor ||PA - LU|| / (n ||A|| eps)", norm(P @ A - Lf @ Uf) / (n * norm(A) * eps))

def plain(name):
    """dsyevd_ for dsyevd_, scipy_dsyevd_ (pip SciPy) and scipy_dsyevd_64_ (pip NumPy)"""
    name = name.removeprefix("scipy_")
    return name[:-4] + "_" if name.endswith("_64_") else name


served = {plain(line.split()[1]) for line in text.splitlines()
          if line.startswith("hyla_lapack: ") and "-> hyla (info 0)" in line and f" n={n} " in line}
print("served by hyla:", " ".join(sorted(served)))
for want in (["dsyevd_"], ["dpotrf_"], ["dgesv_", "dgetrf_"], ["dgetrf_"]):
    if not any(w_ in served for w_ in want):
        fails.append("hyla did not serve " + " or ".join(want))
# NumPy's XERBLA: preloaded, this library and its OpenBLAS come first in the
# global scope; LAPACK's call of xerbla_ must still reach whatever XERBLA it
# reaches without the preload: NumPy's raising one where this NumPy's build
# has it reach (Debian's: ValueError), OpenBLAS's printing one where not
# (pip's, whose XERBLA lives in an extension module loaded RTLD_LOCAL)
XERBLA_PROBE = """
import numpy as np
from numpy.linalg import lapack_lite
try:
    lapack_lite.dgeqrf(-1, 4, np.zeros((4, 4)), 4, np.zeros(4), np.zeros(16), 16, 0)
    print("returned")
except ValueError as e:
    print("raised", e)
"""
try:
    from numpy.linalg import lapack_lite
except ImportError:
    lapack_lite = None
if lapack_lite is not None and hasattr(lapack_lite, "dgeqrf"):
    import subprocess
    bare_env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    # its last line: OpenBLAS's XERBLA prints to stdout before it
    out = subprocess.run([sys.executable, "-c", XERBLA_PROBE], env=bare_env,
                         capture_output=True, text=True).stdout.strip().splitlines()
    bare = out[-1] if out else ""
    print("without the preload, lapack_lite.dgeqrf(m=-1):", bare)
    a = np.zeros((4, 4))
    try:
        r = lapack_lite.dgeqrf(-1, 4, a, 4, np.zeros(4), np.zeros(16), 16, 0)
        print("lapack_lite.dgeqrf(m=-1) returned", r)
        if bare.startswith("raised"):
            fails.append("NumPy's XERBLA was not called (no ValueError for m = -1), "
                         "as it is without the preload")
        elif not bare.startswith("returned"):
            fails.append("the run without the preload gave no answer: " + bare)
    except ValueError as e:
        print("lapack_lite.dgeqrf(m=-1) raised ValueError:", e)
        if "parameter number 1" not in str(e):
            fails.append("NumPy's XERBLA named the wrong parameter: " + str(e))
        if not bare.startswith("raised"):
            fails.append("ValueError with the preload, none without it: " + bare)
else:
    print("numpy.linalg.lapack_lite has no dgeqrf: NumPy's XERBLA not checked")
# HYLA_LAPACK_VERBOSE logs the program's LAPACK-level calls only (not the
# BLAS calls OpenBLAS's LAPACK or hyla make through the same names) and
# prints a summary at exit: a program of four LAPACK calls, in a process of
# its own, at the default thresholds (forwarded, so that OpenBLAS's LAPACK
# runs and makes its own calls)
import subprocess
prog = """
import numpy as np, scipy.linalg as sl
rng = np.random.default_rng(1)
A = rng.standard_normal((300, 300))
S = A @ A.T + 300 * np.eye(300)
np.linalg.eigh(S); sl.cholesky(S); sl.lu_factor(A); np.linalg.solve(A, A[:, 0])
"""
env = dict(os.environ)
env.pop("HYLA_LAPACK_MIN_N", None)
err = subprocess.run([sys.executable, "-c", prog], env=env, capture_output=True, text=True).stderr
calls = [l for l in err.splitlines() if " -> " in l]
summary = [l for l in err.splitlines() if l.startswith("hyla_lapack: summary")]
print(f"verbose log of four calls: {len(calls)} call lines, summary {'present' if summary else 'missing'}")
if not 4 <= len(calls) <= 12:
    fails.append(f"HYLA_LAPACK_VERBOSE logged {len(calls)} call lines for four LAPACK calls")
if not summary or not any(l.split()[1:2] == ["dsyevd_"] or l.split()[1:2] == ["scipy_dsyevd_64_"]
                          for l in err.splitlines() if l.startswith("hyla_lapack: ")):
    fails.append("HYLA_LAPACK_VERBOSE printed no summary with the eigensolver's row at exit")
if fails:
    print("FAILED:", "; ".join(fails))
    sys.exit(1)
print("pass")
