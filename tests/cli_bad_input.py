"""Bad input to the hyla CLI (docs/BAD_INPUT.md): each case runs hyla in a
fresh directory and asserts the exit status, the message on stderr and the
files left behind.

usage: cli_bad_input.py HYLA WORKDIR CASE [MPIEXEC]"""
import os
import re
import shutil
import stat
import struct
import subprocess
import sys

HYLA, WORK, CASE = sys.argv[1], sys.argv[2], sys.argv[3]
MPIEXEC = sys.argv[4] if len(sys.argv) > 4 else ""


def npy(path, rows, cols, vals):
    """A float64 Fortran-order .npy (vals column-major; nan and inf allowed)."""
    d = "{'descr': '<f8', 'fortran_order': True, 'shape': (%d, %d), }" % (rows, cols)
    d += " " * ((64 - (10 + len(d) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(d)) + d.encode())
        f.write(struct.pack("<%dd" % len(vals), *vals))


def run(*args, env=None, mpi=0):
    cmd = [HYLA] + list(args)
    if mpi:
        cmd = [MPIEXEC, "--allow-run-as-root", "--oversubscribe", "-np", str(mpi)] + cmd
    e = dict(os.environ, **(env or {}))
    p = subprocess.run(cmd, capture_output=True, text=True, env=e, timeout=120)
    print("$", " ".join(cmd), "->", p.returncode)
    print(p.stdout, p.stderr, sep="\n")
    return p


def expect(cond, what):
    if not cond:
        print("FAILED:", what)
        sys.exit(1)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def shape(path):
    head = read(path)[:256].decode("latin-1")
    return re.search(r"'shape': \(([^)]*)\)", head).group(1)


def no_temps():
    left = [f for f in os.listdir(".") if f.startswith(".")]
    expect(not left, "temporary files left: %s" % left)


def case_same_file():
    # --output naming an --input (also through another path) is refused
    npy("A.npy", 3, 3, [4, 1, 0, 1, 4, 1, 0, 1, 4])
    before = read("A.npy")
    for out in ("A.npy", "./A.npy", os.path.abspath("A.npy")):
        p = run("getrf", "--input", "A.npy", "--output", out, "--devices", "cpu")
        expect(p.returncode == 2, "exit 2")
        expect("would destroy the input" in p.stderr, "message")
        expect(read("A.npy") == before, "input untouched")
    p = run("getrf", "--input", "A.npy", "--output", "LU.npy,LU.npy", "--devices", "cpu")
    expect(p.returncode == 2 and "named twice" in p.stderr, "an output named twice")
    no_temps()


def case_all_or_none():
    # the second file cannot be written: the first keeps its old content
    npy("A.npy", 3, 3, [4, 1, 0, 1, 4, 1, 0, 1, 4])
    with open("LU.npy", "wb") as f:
        f.write(b"old")
    p = run("getrf", "--input", "A.npy", "--output", "LU.npy,nodir/ipiv.npy", "--devices", "cpu")
    expect(p.returncode == 1, "exit 1")
    expect("cannot write nodir/ipiv.npy" in p.stderr, "message names the file")
    expect(read("LU.npy") == b"old", "LU.npy untouched")
    no_temps()
    # both written: every file replaced, the pivots 1-D
    p = run("getrf", "--input", "A.npy", "--output", "LU.npy,ipiv.npy", "--devices", "cpu")
    expect(p.returncode == 0, "exit 0")
    expect(shape("LU.npy") == "3, 3" and shape("ipiv.npy") == "3,", "shapes")
    no_temps()


def case_output_targets():
    # --output onto what is not a plain new or writable file: a device or a
    # FIFO is written into, a link followed (it stays a link), a read-only
    # file, a directory and a link to nothing refused, untouched
    npy("A.npy", 3, 3, [4, 1, 0, 1, 4, 1, 0, 1, 4])
    for dev in ("/dev/null", "/dev/full"):
        if not os.path.exists(dev) or not stat.S_ISCHR(os.stat(dev).st_mode):
            continue
        p = run("potrf", "--input", "A.npy", "--output", dev, "--devices", "cpu")
        if dev == "/dev/null":
            expect(p.returncode == 0, "/dev/null written into")
        else:
            expect(p.returncode == 1 and "cannot write /dev/full" in p.stderr, "/dev/full: a clean error")
        expect(stat.S_ISCHR(os.stat(dev).st_mode), dev + " still a character device")
    os.mkfifo("pipe.npy")
    fd = os.open("pipe.npy", os.O_RDONLY | os.O_NONBLOCK)  # a reader, before the writer opens
    p = run("potrf", "--input", "A.npy", "--output", "pipe.npy", "--devices", "cpu")
    data = os.read(fd, 1 << 16)
    os.close(fd)
    expect(p.returncode == 0 and data.startswith(b"\x93NUMPY"), "the FIFO's reader got the .npy")
    expect(stat.S_ISFIFO(os.lstat("pipe.npy").st_mode), "still a FIFO")
    with open("target.npy", "wb") as f:
        f.write(b"old")
    os.symlink("target.npy", "link.npy")
    p = run("potrf", "--input", "A.npy", "--output", "link.npy", "--devices", "cpu")
    expect(p.returncode == 0 and os.path.islink("link.npy"), "the link stays a link")
    expect(read("target.npy").startswith(b"\x93NUMPY") and shape("target.npy") == "3, 3",
           "the link's target written")
    os.symlink("nowhere/x.npy", "dangling.npy")
    p = run("potrf", "--input", "A.npy", "--output", "dangling.npy", "--devices", "cpu")
    expect(p.returncode == 1 and "symbolic link to nothing" in p.stderr, "a link to nothing refused")
    expect(os.path.islink("dangling.npy"), "the dangling link untouched")
    with open("ro.npy", "wb") as f:
        f.write(b"keep")
    os.chmod("ro.npy", 0o444)
    p = run("potrf", "--input", "A.npy", "--output", "ro.npy", "--devices", "cpu")
    expect(p.returncode == 1 and "read-only" in p.stderr, "a read-only file refused")
    expect(read("ro.npy") == b"keep" and stat.S_IMODE(os.stat("ro.npy").st_mode) == 0o444,
           "the read-only file untouched")
    p = run("getrf", "--input", "A.npy", "--output", "LU.npy,ro.npy", "--devices", "cpu")
    expect(p.returncode == 1 and not os.path.exists("LU.npy"), "with a read-only second name, none written")
    os.mkdir("d.npy")
    p = run("potrf", "--input", "A.npy", "--output", "d.npy", "--devices", "cpu")
    expect(p.returncode == 1 and "is a directory" in p.stderr, "a directory refused")
    no_temps()


def case_check_failed():
    # a FAILED check writes nothing, unless --output-on-fail
    npy("N.npy", 2, 2, [1, float("nan"), 3, 4])
    p = run("getrf", "--input", "N.npy", "--check", "--output", "LU.npy", "--devices", "cpu")
    expect(p.returncode == 1 and "FAILED" in p.stdout, "FAILED, exit 1")
    expect("no --output file written" in p.stderr, "message")
    expect(not os.path.exists("LU.npy"), "nothing written")
    p = run("getrf", "--input", "N.npy", "--check", "--output", "LU.npy", "--output-on-fail",
            "--devices", "cpu")
    expect(p.returncode == 1 and os.path.exists("LU.npy"), "--output-on-fail writes")
    no_temps()


def case_output_count():
    # more names than the routine writes: exit 2, nothing written
    npy("A.npy", 2, 2, [2, 1, 1, 2])
    npy("B.npy", 2, 1, [1, 1])
    for args in (["potrf", "-n", "4"], ["posv", "-n", "4"], ["gemm", "-n", "4"],
                 ["gesv_rbt", "-n", "4"], ["gesv", "-n", "4"], ["getrs", "-n", "4"],
                 ["potrs", "-n", "4"], ["hpl", "-n", "64", "--nb", "16"],
                 ["syevd", "-n", "4"], ["stedc", "-n", "4"]):
        p = run(*args, "--output", "x.npy,y.npy", "--devices", "cpu")
        expect(p.returncode == 2 and "at most" in p.stderr, "%s: refused" % args[0])
    for args in (["getrf", "-n", "4"], ["syevd", "-n", "4", "--jobz", "V"]):
        p = run(*args, "--output", "x.npy,y.npy,z.npy", "--devices", "cpu")
        expect(p.returncode == 2 and "at most" in p.stderr, "%s: refused" % args[0])
    expect(not [f for f in os.listdir(".") if f[0] in "xyz."], "nothing written")


def case_eig_1d():
    p = run("syevd", "-n", "7", "--jobz", "V", "--output", "W.npy,Z.npy", "--devices", "cpu")
    expect(p.returncode == 0, "exit 0")
    expect(shape("W.npy") == "7,", "eigenvalues 1-D, got (%s)" % shape("W.npy"))
    expect(shape("Z.npy") == "7, 7", "eigenvectors 2-D")
    p = run("heevd", "-n", "5", "--type", "z", "--output", "Wz.npy", "--devices", "cpu")
    expect(p.returncode == 0 and shape("Wz.npy") == "5,", "heevd eigenvalues 1-D")


def case_getrf_singular():
    # info > 0: the factor is complete and written, with a warning
    npy("S.npy", 3, 3, [1, 2, 3, 2, 4, 6, 1, 0, 1])
    p = run("getrf", "--input", "S.npy", "--output", "LU.npy", "--devices", "cpu")
    expect(p.returncode == 1 and "singular" in p.stdout, "singular, exit 1")
    expect("warning: info = " in p.stderr, "warning")
    expect(os.path.exists("LU.npy") and shape("LU.npy") == "3, 3", "LU written")


def case_json_finite():
    # no nan/inf tokens in JSON: a NaN input, a zero-work run, an empty run
    npy("N.npy", 2, 2, [1, float("nan"), 3, 4])
    npy("B.npy", 2, 1, [1, 1])
    outs = []
    outs.append(run("gesv_rbt", "--input", "N.npy,B.npy", "--check", "--json", "--devices", "cpu"))
    outs.append(run("getrf", "--input", "N.npy", "--check", "--json", "--devices", "cpu"))
    outs.append(run("gesv_rbt", "-n", "50", "--nrhs", "0", "--json", "--stats", "--devices", "cpu"))
    outs.append(run("gemm", "-n", "0", "--check", "--vs", "vendor", "--json", "--devices", "cpu"))
    outs.append(run("hpl", "-n", "0", "--nb", "16", "--json", "--devices", "cpu"))
    for p in outs:
        for line in p.stdout.splitlines():
            expect(not re.search(r"(?i)(:|\[|,)\s*-?(nan|inf)", line), "non-finite token: " + line)
    expect('"tflops":null' in outs[2].stdout, "zero work: no rate")


def case_zero_work():
    p = run("gesv_rbt", "-n", "200", "--nrhs", "0", "--devices", "cpu")
    row = [l for l in p.stdout.splitlines() if l.startswith("  gesv_rbt")][0].split()
    expect(p.returncode == 0 and row[6] == "-", "zero work: Tflop/s '-', got %s" % row[6])


def case_sizes():
    p = run("sterf", "-n", "1e11", "--devices", "cpu")
    expect(p.returncode == 1 and "fits" in p.stderr, "sterf 1e11 refused, saying what fits")
    p = run("syevd", "-n", "3e9", "--devices", "cpu")
    expect(p.returncode != 0 and "\n" in p.stderr, "syevd 3e9 refused")
    p = run("hpl", "-n", "3e9", "--devices", "cpu")
    expect(p.returncode == 2 and "largest N" in p.stderr, "hpl 3e9: exit 2")
    expect("skipped" not in p.stdout, "not a skipped test")
    p = run("hpl", "-n", "1e6", "--devices", "cpu")
    expect(p.returncode == 1 and "fits" in p.stderr, "hpl 1e6 does not fit: exit 1")
    dat = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "hpl", "HPL.dat")
    lines = open(dat).read().split("\n")
    lines[4], lines[5] = "1   # of problems sizes (N)", "9999999999   Ns"
    open("big.dat", "w").write("\n".join(lines))
    p = run("hpl", "big.dat", "--devices", "cpu")
    expect(p.returncode == 2 and "(0..2147483647)" in p.stderr, "HPL.dat N beyond int")


def case_options():
    p = run("potrf", "-n", "10", "--nb", "0", "--devices", "cpu")
    expect(p.returncode == 2 and "from 1" in p.stderr, "--nb 0 refused")
    p = run("syevd", "-n", "10", "--kd", "0", "--devices", "cpu")
    expect(p.returncode == 2, "--kd 0 refused")
    p = run("potrf", "-n", "10", "--jobz", "V", "--devices", "cpu")
    expect(p.returncode == 0 and "warning: --jobz does not apply to potrf" in p.stderr, "--jobz")
    p = run("syevd", "-n", "10", "-m", "5", "--devices", "cpu")
    expect(p.returncode == 0 and "warning: -m does not apply to syevd" in p.stderr, "-m")
    npy("A.npy", 2, 2, [2, 1, 1, 2])
    p = run("potrf", "--input", "A.npy", "--type", "s", "--devices", "cpu")
    expect(p.returncode == 2 and "--type" in p.stderr, "--type with --input")
    p = run("getrf", "-n", "10", "--devices", "cuda:x")
    expect(p.returncode == 2 and "cpu:COUNT" in p.stderr and "cuda:0,1" in p.stderr,
           "device grammar")
    # a bad option value in the environment: the variable named
    p = run("potrf", "-n", "10", "--devices", "cpu", env={"HYLA_POTRF_NB": "abc"})
    expect(p.returncode == 2 and "HYLA_POTRF_NB='abc' is not a valid value" in p.stderr,
           "HYLA_POTRF_NB=abc named")
    p = run("potrf", "-n", "10", "--devices", "cpu", env={"HYLA_EIG_DC_MIN": "1"})
    expect(p.returncode == 2 and "HYLA_EIG_DC_MIN='1'" in p.stderr, "a refused value in range named")


def case_empty():
    # 0 x 5 and 5 x 0, generated and read from files with no data (no copy
    # from a NULL buffer: clean under UBSan)
    for m, n in (("0", "5"), ("5", "0")):
        p = run("getrf", "-m", m, "-n", n, "--check", "--vs", "vendor", "--devices", "cpu")
        expect(p.returncode == 0 and "runtime error" not in p.stderr, "getrf %sx%s" % (m, n))
        npy("E.npy", int(m), int(n), [])
        p = run("getrf", "--input", "E.npy", "--check", "--output", "LU.npy", "--devices", "cpu")
        expect(p.returncode == 0 and "runtime error" not in p.stderr, "getrf --input %sx%s" % (m, n))
        expect(shape("LU.npy") == "%s, %s" % (m, n), "empty LU written")


def case_mpi_once():
    env = {"OMPI_MCA_btl": "self,vader", "OMPI_MCA_btl_vader_single_copy_mechanism": "none",
           "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
           "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "ASAN_OPTIONS": "detect_leaks=0"}
    p = run("hpl", "-n", "300", "--nb", "32", "--grid", "1x2", "--devices", "cpu", "--bcast",
            "device", env=env, mpi=2)
    expect(p.returncode != 0 and p.stderr.count("hyla hpl:") == 1, "one error line")
    p = run("hpl", "-n", "1e6", "--grid", "1x2", "--devices", "cpu", env=env, mpi=2)
    expect(p.returncode != 0 and p.stderr.count("hyla hpl:") == 1, "one error line")
    expect("hyla hpl: rank 0:" in p.stderr, "the failing rank named")


shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
os.chdir(WORK)
if CASE == "mpi_once" and not MPIEXEC:
    print("MPI not built: skipped")
    sys.exit(77)
globals()["case_" + CASE]()
print("ok")
