#!/usr/bin/env python3
"""The table of a benchmark run, from its raw log.

Usage: bench_table.py RAW TABLE

RAW is the log scripts/bench.sh writes (its `% bench KEY: value` lines give
the suite, device, host, date and commit; scripts/bench_log.py reads the
records). TABLE (markdown) gives them and, per record, the command, hyla's
time, the vendor's time from the same run and their ratio. Exit status 1
when a record is FAILED or there is none.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_log  # noqa: E402


def num(v, fmt):
    return "-" if v is None else fmt % v


def row(r):
    what = r.get("routine", "?") + " " + r.get("type", "d")
    if "jobz" in r:
        what += " " + r["jobz"]
    size = str(r.get("n", "-"))
    if r.get("m") not in (None, r.get("n")):
        size = f"{r['m']} x {size}"
    if r.get("routine") == "hpl":
        where = f"grid {r['p']} x {r['q']}, nb {r['nb']}"
        rate = num(r.get("gflops") and r["gflops"] * 1e-3, "%.2f")
    else:
        where = r.get("devices", "-")
        rate = num(r.get("tflops") or (r.get("gflops") and r["gflops"] * 1e-3), "%.3g")
    return (f"| `{r['command']}` | {what} | {size} | {where} | {num(r.get('time_s'), '%.4g')} | "
            f"{rate} | {num(r.get('ours_device_time_s'), '%.4g')} | {r.get('vendor', '-')} | "
            f"{num(r.get('vendor_time_s'), '%.4g')} | {num(r.get('ratio'), '%.2f')} | "
            f"{r.get('status', '-')} |")


def main():
    raw, table = sys.argv[1:]
    h = bench_log.header(raw)
    records = bench_log.read(raw)
    rows = [row(r) for r in records]
    bad = sum(r.get("status") == "FAILED" for r in records)
    link = os.path.relpath(raw, os.path.dirname(os.path.abspath(table)))
    suite = h.get("suite", "?")
    with open(table, "w") as f:
        f.write(f"# Suite {suite}\n\n"
                f"- suite: `bench/suites/{suite}.sh`, run by `scripts/bench.sh {suite}`\n"
                f"- device: {h.get('device', '?')}; host: {h.get('host', '?')}\n"
                f"- date: {h.get('date', '?')}; commit: {h.get('commit', '?')}\n"
                f"- raw log: [{link}]({link})\n"
                "- hyla (s): host-resident input, every transfer included; device-resident: "
                "hyla's `_gpu` routine on a device-resident copy; ratio = vendor time / hyla time "
                "(> 1: hyla is faster)\n\n"
                "| command | routine | n | devices | hyla (s) | TF/s | hyla device-resident (s) | "
                "vendor | vendor (s) | ratio | status |\n"
                "|---|---|---|---|---|---|---|---|---|---|---|\n")
        f.write("\n".join(rows) + "\n")
    print(f"{table}: {len(rows)} rows")
    return 1 if bad or not rows else 0


if __name__ == "__main__":
    sys.exit(main())
