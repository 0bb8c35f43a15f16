#!/usr/bin/env python3
"""A benchmark table against a reference table of the same suite.

Usage: bench_compare.py TABLE REFERENCE [-t PCT] [-m time|ratio] [--min-time S]
                        [--any-device]

TABLE and REFERENCE are tables that scripts/bench.sh wrote (markdown: a
`- device:` line, then one row per record). Rows are matched by command,
routine, size and devices. A row is SLOWER when
  time:  its hyla time exceeds the reference's by more than PCT percent;
  ratio: its vendor/hyla ratio (both timed in the same run, so that the
         machine's own speed cancels) fell by more than PCT percent; rows
         without a vendor are compared by time.
Rows whose reference time is below --min-time seconds (default 0) are
listed but not judged: timer noise. A reference row that the run lacks is
MISSING (its command failed or no longer runs); a row the reference lacks is
new and not judged.

Prints one line per row and a summary. Exit status: 0 when no row is SLOWER
or MISSING, 3 when one is, 2 when the tables cannot be compared (unreadable,
no rows, or other devices without --any-device).
"""
import argparse
import sys


def read_table(path):
    """(device, rows): the `- device:` line's text and each row as a dict
    from column name to cell."""
    device, header, rows = None, None, []
    with open(path) as f:
        for line in f:
            if line.startswith("- device:"):
                device = line[len("- device:"):].strip().split(";")[0].strip()
            if not line.startswith("|") or line.startswith("|---"):
                continue
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if header is None:
                header = cells
            else:
                rows.append(dict(zip(header, cells)))
    return device, rows


def key(r):
    return (r.get("command", "").strip("`"), r.get("routine"), r.get("n"), r.get("devices"))


def number(cell):
    try:
        v = float(cell)
    except (TypeError, ValueError):
        return None
    return v if v > 0 else None


def judge(new, ref, tol, metric, min_time):
    """(verdict, change): change in percent, > 0 slower."""
    t_new, t_ref = number(new.get("hyla (s)")), number(ref.get("hyla (s)"))
    r_new, r_ref = number(new.get("ratio")), number(ref.get("ratio"))
    if t_new is None or t_ref is None:
        return "no time", None
    if metric == "ratio" and r_new is not None and r_ref is not None:
        change = (r_ref / r_new - 1) * 100
    else:
        change = (t_new / t_ref - 1) * 100
    if t_ref < min_time:
        return "noise", change
    return ("SLOWER" if change > tol else "ok"), change


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("table")
    ap.add_argument("reference")
    ap.add_argument("-t", "--tolerance", type=float, default=10.0,
                    help="percent slower that counts as a regression (default 10)")
    ap.add_argument("-m", "--metric", choices=("time", "ratio"), default="time")
    ap.add_argument("--min-time", type=float, default=0.0,
                    help="reference rows faster than this (s) are not judged")
    ap.add_argument("--any-device", action="store_true",
                    help="compare tables from different devices")
    a = ap.parse_args(argv)
    try:
        dev_new, new = read_table(a.table)
        dev_ref, ref = read_table(a.reference)
    except OSError as e:
        print(f"bench_compare: {e}")
        return 2
    if not new or not ref:
        print(f"bench_compare: no rows in {a.table if not new else a.reference}")
        return 2
    if dev_new != dev_ref and not a.any_device:
        print(f"bench_compare: other devices ({dev_new!r} against the reference's {dev_ref!r}); "
              "--any-device compares anyway")
        return 2
    by_key = {key(r): r for r in new}
    bad = 0
    print(f"% compare: {a.table} against {a.reference}, metric {a.metric}, "
          f"tolerance {a.tolerance:g} %, min time {a.min_time:g} s")
    for r in ref:
        k = key(r)
        what = f"{r.get('routine')} n={r.get('n')} {r.get('devices')}: `{k[0]}`"
        n = by_key.pop(k, None)
        if n is None:
            print(f"MISSING  {what}")
            bad += 1
            continue
        verdict, change = judge(n, r, a.tolerance, a.metric, a.min_time)
        bad += verdict == "SLOWER"
        ch = "" if change is None else f" {change:+.1f} %"
        print(f"{verdict:8s} {what}: {r.get('hyla (s)')} -> {n.get('hyla (s)')} s, ratio "
              f"{r.get('ratio')} -> {n.get('ratio')}{ch}")
    for k, n in by_key.items():
        print(f"new      {n.get('routine')} n={n.get('n')} {n.get('devices')}: `{k[0]}`")
    print(f"% compare: {len(ref)} reference rows, {bad} slower or missing")
    return 3 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
