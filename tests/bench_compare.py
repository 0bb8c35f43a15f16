"""scripts/bench_compare.py on made-up tables: a row slower than the
tolerance, a missing row, another device and rows below the noise floor
give the documented verdicts and exit statuses.

Usage: bench_compare.py SOURCE WORKDIR
"""
import os
import subprocess
import sys

HEAD = ("# Suite t\n\n- device: {dev}; host: h\n- date: d; commit: c\n\n"
        "| command | routine | n | devices | hyla (s) | TF/s | hyla device-resident (s) | vendor | "
        "vendor (s) | ratio | status |\n|---|---|---|---|---|---|---|---|---|---|---|\n")


def table(path, rows, dev="no GPU"):
    with open(path, "w") as f:
        f.write(HEAD.format(dev=dev))
        for cmd, n, t, vt in rows:
            ratio = "-" if vt is None else f"{vt / t:.2f}"
            f.write(f"| `{cmd}` | getrf d | {n} | cpu:3 | {t} | - | - | "
                    f"{'-' if vt is None else 'LAPACKE'} | {'-' if vt is None else vt} | {ratio} | ok |\n")


def run(source, new, ref, *args):
    p = subprocess.run([sys.executable, os.path.join(source, "scripts", "bench_compare.py"), new, ref,
                        *args], capture_output=True, text=True)
    return p.returncode, p.stdout


def main():
    source, work = sys.argv[1:]
    os.makedirs(work, exist_ok=True)
    ref, new = os.path.join(work, "ref.md"), os.path.join(work, "new.md")
    base = [("hyla getrf -n 1000", 1000, 1.0, 2.0), ("hyla getrf -n 2000", 2000, 4.0, 8.0),
            ("hyla hpl -n 600", 600, 0.5, None)]
    table(ref, base)
    fails = 0

    def expect(what, want_rc, got, words=()):
        nonlocal fails
        rc, out = got
        ok = rc == want_rc and all(w in out for w in words)
        if not ok:
            fails += 1
            print(f"FAIL {what}: exit {rc} (want {want_rc}), output:\n{out}")
        else:
            print(f"ok   {what}")

    table(new, base)
    expect("the same table", 0, run(source, new, ref))
    table(new, [base[0], ("hyla getrf -n 2000", 2000, 4.6, 8.0), base[2]])
    expect("15 % slower, tolerance 10", 3, run(source, new, ref), ["SLOWER", "+15.0 %"])
    expect("15 % slower, tolerance 20", 0, run(source, new, ref, "-t", "20"))
    # the machine 15 % slower for hyla and the vendor alike: the ratio holds
    table(new, [("hyla getrf -n 1000", 1000, 1.15, 2.3), ("hyla getrf -n 2000", 2000, 4.6, 9.2),
                ("hyla hpl -n 600", 600, 0.5, None)])
    expect("ratio metric, both slower", 0, run(source, new, ref, "-m", "ratio"))
    expect("time metric, both slower", 3, run(source, new, ref))
    # hyla alone slower: the ratio falls; a row without a vendor by its time
    table(new, [("hyla getrf -n 1000", 1000, 2.6, 2.0), base[1], ("hyla hpl -n 600", 600, 0.8, None)])
    rc, out = run(source, new, ref, "-m", "ratio")
    expect("ratio metric, hyla 2.6x slower", 3, (rc, out), ["SLOWER"])
    if out.count("SLOWER") != 2:
        fails += 1
        print(f"FAIL two rows slower (one by ratio, one by time):\n{out}")
    expect("below the noise floor", 0, run(source, new, ref, "--min-time", "5"), ["noise"])
    table(new, base[:2])
    expect("a row missing", 3, run(source, new, ref), ["MISSING"])
    table(new, base + [("hyla getrf -n 3000", 3000, 9.0, 18.0)])
    expect("a new row", 0, run(source, new, ref), ["new"])
    table(new, base, dev="1 x NVIDIA H200")
    expect("another device", 2, run(source, new, ref))
    expect("another device, --any-device", 0, run(source, new, ref, "--any-device"))
    table(new, [])
    expect("no rows", 2, run(source, new, ref))
    expect("no such file", 2, run(source, os.path.join(work, "none.md"), ref))
    print("bench_compare:", "FAILED" if fails else "passed")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
