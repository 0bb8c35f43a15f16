#!/usr/bin/env python3
"""The index of the benchmark results: bench/results/INDEX.md.

Usage: bench_index.py [--check] [ROOT]

ROOT is the repository (default: this script's parent's parent). Every table
bench/results/*.md is one row: the suites' tables (written by
scripts/bench.sh, with `- device:` and `- date: ...; commit: ...` lines) with
their device, date, commit, row count and a headline (the row with the best
vendor / hyla ratio where the table has ratios, else the first row's time);
then the hand-kept tables (no device line) by their title; then the suites
of bench/suites/ that have no table yet. scripts/bench.sh rewrites the index
after each table it writes into bench/results.

--check: write nothing; exit 1 when INDEX.md differs from what this script
would write (the ctest `bench_index`), 0 when it is current.
"""
import os
import re
import sys


def read_table(path):
    """(info, rows): info has title, device, date, commit (None when absent);
    rows are dicts from column name to cell."""
    info = {"title": None, "device": None, "date": None, "commit": None}
    header, rows = None, []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if info["title"] is None and line.startswith("# "):
                info["title"] = line[2:].strip()
            elif line.startswith("- device:") and info["device"] is None:
                info["device"] = line[len("- device:"):].split(";")[0].strip()
            elif line.startswith("- date:") and info["date"] is None:
                m = re.match(r"- date: ([^;]*); commit: (\S+)", line)
                if m:
                    info["date"], info["commit"] = m.group(1).strip(), m.group(2).strip()
            elif line.startswith("|") and not line.startswith("|---"):
                cells = [c.strip() for c in line.strip().strip("|").split("|")]
                if header is None:
                    header = cells
                elif len(cells) == len(header):
                    rows.append(dict(zip(header, cells)))
    return info, rows


def number(cell):
    try:
        return float(cell)
    except (TypeError, ValueError):
        return None


def headline(rows):
    """One line that says what the table shows."""
    if not rows:
        return "-"
    with_ratio = [r for r in rows if number(r.get("ratio")) is not None]
    if with_ratio:
        best = max(with_ratio, key=lambda r: number(r["ratio"]))
        return "best ratio %s: %s n = %s on %s, %s s against %s %s s" % (
            best["ratio"], best.get("routine", "?"), best.get("n", "?"),
            best.get("devices", "?"), best.get("hyla (s)", "?"), best.get("vendor", "?"),
            best.get("vendor (s)", "?"))
    r = rows[0]
    if "hyla (s)" in r:
        return "%s n = %s on %s: %s s" % (r.get("routine", "?"), r.get("n", "?"),
                                          r.get("devices", "?"), r["hyla (s)"])
    return "%d rows" % len(rows)


def cell(text):
    return str(text).replace("|", "\\|")


def build(root):
    results = os.path.join(root, "bench", "results")
    suites_dir = os.path.join(root, "bench", "suites")
    suites = sorted(f[:-3] for f in os.listdir(suites_dir) if f.endswith(".sh"))
    tables = sorted(f for f in os.listdir(results) if f.endswith(".md") and f != "INDEX.md")
    made, kept = [], []
    for name in tables:
        info, rows = read_table(os.path.join(results, name))
        (made if info["device"] else kept).append((name, info, rows))
    out = ["# Benchmark results: index",
           "",
           "Written by `scripts/bench_index.py` (scripts/bench.sh rewrites it after each",
           "table; the ctest `bench_index` checks that it is current). Each table of",
           "`bench/results/` is one row. Ratio = vendor time / hyla time from the same",
           "run (> 1: hyla is faster).",
           "",
           "## Tables of the suites (`scripts/bench.sh SUITE`)",
           "",
           "| table | suite | device | date | commit | rows | headline |",
           "|---|---|---|---|---|---|---|"]
    for name, info, rows in made:
        stem = name[:-3]
        suite = stem if stem in suites else None
        if suite is None:
            m = re.match(r"(.*)-([0-9a-f]{7,})$", stem)
            if m and m.group(1) in suites:
                suite = "%s (at %s)" % (m.group(1), m.group(2))
        out.append("| [%s](%s) | %s | %s | %s | %s | %d | %s |" % (
            stem, name, cell(suite or "-"), cell(info["device"]), cell(info["date"] or "-"),
            cell(info["commit"] or "-"), len(rows), cell(headline(rows))))
    out += ["",
            "## Hand-kept tables (several suites, or runs before the suites)",
            "",
            "| table | title |",
            "|---|---|"]
    for name, info, rows in kept:
        out.append("| [%s](%s) | %s |" % (name[:-3], name, cell(info["title"] or "-")))
    have = {n[:-3] for n in tables}
    missing = [s for s in suites if s not in have]
    out += ["",
            "## Suites without a table of their own",
            "",
            "Their runs are in the hand-kept tables above (a hand-kept table of the same",
            "name counts as the suite's), or not committed yet.",
            ""]
    out += ["- `bench/suites/%s.sh`" % s for s in missing] or ["(none)"]
    return "\n".join(out) + "\n"


def main(argv):
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    root = args[0] if args else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    text = build(root)
    path = os.path.join(root, "bench", "results", "INDEX.md")
    if check:
        try:
            with open(path, encoding="utf-8") as f:
                current = f.read()
        except OSError:
            current = None
        if current != text:
            print("bench/results/INDEX.md is not current: run scripts/bench_index.py")
            return 1
        print("bench/results/INDEX.md is current")
        return 0
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
