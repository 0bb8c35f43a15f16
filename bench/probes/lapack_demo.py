"""An unchanged NumPy/SciPy program timed with and without libhyla_lapack.

  python3 bench/probes/lapack_demo.py --lib build/lapack/libhyla_lapack.so -n 8000,16000
      [--routines eigh,cholesky,solve] [--repeat 2] [--min-n N]

runs the program below (numpy.linalg.eigh, scipy.linalg.cholesky,
scipy.linalg.solve on n x n doubles) twice per n in child processes: once
plain (the LAPACK NumPy and SciPy come with: the vendor) and once with
LD_PRELOAD=libhyla_lapack.so at its default thresholds and
HYLA_LAPACK_VERBOSE=1. It prints one JSON record per routine and n in the
CLI's --json format (routine, type, n, time_s: the preloaded run's,
vendor_time_s: the plain run's, ratio = vendor / hyla, status), which
scripts/bench_table.py reads; "served" names the LAPACK routines of that
call hyla's log says it served at size n (LAPACK_OF), status FAILED when none
(the preload did not take) or when a residual check fails. Times: the best of --repeat calls after one
warm-up call (the context's creation and the GPU's start-up), each call
including the copy of its input that SciPy and NumPy make.
"""
import argparse
import json
import os
import subprocess
import sys
import time

ROUTINES = ("eigh", "cholesky", "solve")


def worker(n, repeat, routines):
    """The program itself: one JSON line per routine (time, residual)."""
    import numpy as np
    import scipy.linalg as sl
    rng = np.random.default_rng(1)
    A = rng.standard_normal((n, n))
    H = (A + A.T) / 2
    S = H + n * np.eye(n)
    b = rng.standard_normal((n, 1))
    x = rng.standard_normal((n, 1))
    eps = np.finfo(float).eps
    norm = np.linalg.norm
    calls = {
        "eigh": lambda M: np.linalg.eigh(M),
        "cholesky": lambda M: sl.cholesky(M, lower=True),
        "solve": lambda M: sl.solve(M, b),
    }
    inputs = {"eigh": H, "cholesky": S, "solve": A}
    small = {k: v[: n // 4, : n // 4].copy() for k, v in inputs.items()}
    for r in routines:
        call = calls[r]
        if r == "solve":
            sl.solve(small[r], b[: n // 4])
        else:
            call(small[r])
        best, out = None, None
        for _ in range(repeat):
            t0 = time.perf_counter()
            out = call(inputs[r])
            t = time.perf_counter() - t0
            best = t if best is None else min(best, t)
        # residuals in O(n^2): against a random vector x
        M = inputs[r]
        if r == "eigh":
            w, V = out
            err = norm(M @ (V @ x) - V @ (w[:, None] * x)) / (n * norm(M) * norm(x) * eps)
        elif r == "cholesky":
            err = norm(M @ x - out @ (out.T @ x)) / (n * norm(M) * norm(x) * eps)
        else:
            err = norm(b - M @ out) / (norm(M) * norm(out) * n * eps)
        print(json.dumps({"routine": r, "n": n, "time_s": best, "error": float(err)}), flush=True)


# the LAPACK routines through which each call of the program can reach hyla
LAPACK_OF = {"eigh": ("dsyevd", "dsyevr", "dsyev"), "cholesky": ("dpotrf",),
             "solve": ("dgesv", "dgetrf")}


def plain(name):
    """dsyevd for dsyevd_, scipy_dsyevd_ (pip SciPy) and scipy_dsyevd_64_ (pip NumPy)"""
    name = name.removeprefix("scipy_").removesuffix("_")
    return name.removesuffix("_64")


def child(args, n, lib):
    env = dict(os.environ)
    if lib:
        env["LD_PRELOAD"] = os.path.abspath(lib)
        env["HYLA_LAPACK_VERBOSE"] = "1"
        if args.min_n is not None:
            env["HYLA_LAPACK_MIN_N"] = str(args.min_n)
    p = subprocess.run([sys.executable, __file__, "--worker", "-n", str(n), "--repeat",
                        str(args.repeat), "--routines", ",".join(args.routines)], env=env,
                       capture_output=True, text=True)
    recs = {}
    for line in p.stdout.splitlines():
        if line.startswith("{"):
            r = json.loads(line)
            recs[r["routine"]] = r
    served = sorted({plain(l.split()[1]) for l in p.stderr.splitlines()
                     if l.startswith("hyla_lapack: ") and "-> hyla" in l and f" n={n} " in l})
    if p.returncode:
        sys.stderr.write(p.stderr[-2000:])
    return recs, served, p.returncode


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", help="libhyla_lapack.so")
    ap.add_argument("-n", default="8000,16000")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--routines", default=",".join(ROUTINES),
                    help="comma-separated subset of " + ",".join(ROUTINES))
    ap.add_argument("--min-n", type=int, help="HYLA_LAPACK_MIN_N of the preloaded run "
                    "(1: hyla at every size, to find where it starts to pay; default: "
                    "the library's thresholds)")
    ap.add_argument("--worker", action="store_true")
    args = ap.parse_args()
    args.routines = [r for r in args.routines.split(",") if r]
    bad = [r for r in args.routines if r not in ROUTINES]
    if bad or not args.routines:
        ap.error("--routines: choose from " + ",".join(ROUTINES))
    sizes = [int(s) for s in args.n.split(",")]
    if args.worker:
        for n in sizes:
            worker(n, args.repeat, args.routines)
        return 0
    if not args.lib:
        ap.error("--lib is required")
    import numpy as np
    vendor = "numpy-" + np.__version__
    failed = 0
    for n in sizes:
        plain_run, _, rc0 = child(args, n, None)
        pre, served, rc1 = child(args, n, args.lib)
        for r in args.routines:
            v, h = plain_run.get(r), pre.get(r)
            mine = [x for x in served if x in LAPACK_OF[r]]
            ok = rc0 == 0 and rc1 == 0 and v and h and mine and h["error"] < 60 and v["error"] < 60
            rec = {"routine": r, "type": "d", "n": n, "devices": os.environ.get("HYLA_DEVICES", "default"),
                   "time_s": h["time_s"] if h else None, "vendor": vendor,
                   "vendor_time_s": v["time_s"] if v else None,
                   "ratio": v["time_s"] / h["time_s"] if v and h else None,
                   "error": h["error"] if h else None, "served": " ".join(mine),
                   "status": "ok" if ok else "FAILED"}
            failed |= not ok
            print(json.dumps(rec), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
