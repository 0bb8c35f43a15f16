#!/usr/bin/env python3
"""Scaling tables and curves from the JSON records of a scaling run.

Usage: plot_scaling.py RAW OUT_PREFIX
RAW holds the CLI's --json records, one per line, among other lines: the raw
log of `scripts/bench.sh scaling-h200x2`, or records that carry their own
"label" (strong/weak) and "gpus". Otherwise the GPUs come from the record's
devices (cuda:0,1) or HPL grid (p x q), and the label from the sizes: the runs
of one routine at one n on several GPU counts are strong scaling, the other
runs of that routine (n growing with the GPUs) weak. Writes OUT_PREFIX.md (tables: time, rate, speed-up and parallel
efficiency against one GPU, the vendor's numbers from the same run) and
OUT_PREFIX.png (rate against GPUs, one curve per routine, ideal lines dashed).
"""
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_log import rate, read  # noqa: E402


def gpus(r):
    if "gpus" in r:
        return r["gpus"]
    if r.get("routine") == "hpl":
        return r["p"] * r["q"]
    return len(r.get("devices", "").split(","))


def add_labels(rows):
    """Adds "gpus" and "label" to records that lack them (see the module's text)."""
    counts = defaultdict(set)
    for r in rows:
        r["gpus"] = gpus(r)
        counts[(r["routine"], r.get("n"))].add(r["gpus"])
    for r in rows:
        if "label" not in r:
            r["label"] = "strong" if len(counts[(r["routine"], r.get("n"))]) > 1 else "weak"
    return rows


def main():
    raw, prefix = sys.argv[1], sys.argv[2]
    rows = add_labels([r for r in read(raw) if r.get("status") in ("ok", "pass", "PASSED") and "time_s" in r])
    series = defaultdict(list)
    for r in rows:
        # strong: one curve per (routine, n); weak: n grows with the GPUs,
        # one curve per routine
        n = r.get("n") if r["label"] == "strong" else None
        series[(r["label"], r["routine"], n)].append(r)
    out = ["| scaling | routine | n | GPUs | time (s) | TF/s | speed-up | efficiency | vendor (s) | vendor TF/s |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    curves = defaultdict(list)
    for key in sorted(series, key=lambda k: (k[0], k[1], k[2] or 0)):
        label, routine, n = key
        pts = sorted(series[key], key=lambda r: r["gpus"])
        base = next((p for p in pts if p["gpus"] == 1), None)
        for p in pts:
            g = p["gpus"]
            if label == "strong" and base:
                sp = base["time_s"] / p["time_s"]
            elif base:  # weak: rate ratio, work grows with the GPUs
                sp = rate(p) / rate(base)
            else:
                sp = float("nan")
            eff = sp / g
            vt = p.get("vendor_time_s")
            vg = rate(p, "vendor_")
            out.append(f"| {label} | {routine} | {p.get('n')} | {g} | {p['time_s']:.3f} | {rate(p)/1e3:.1f} | "
                       f"{sp:.2f}x | {100*eff:.0f}% | {'-' if vt is None else f'{vt:.3f}'} | "
                       f"{'-' if vg is None else f'{vg/1e3:.1f}'} |")
            curves[(label, routine, n)].append((g, rate(p) / 1e3, base and rate(base) / 1e3))
    with open(prefix + ".md", "w") as f:
        f.write("\n".join(out) + "\n")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: table only", file=sys.stderr)
        return
    fig, axes = plt.subplots(1, 2, figsize=(12, 5))
    for ax, label in zip(axes, ("strong", "weak")):
        for (lab, routine, n), pts in sorted(curves.items(), key=lambda kv: str(kv[0])):
            if lab != label:
                continue
            g = [p[0] for p in pts]
            tf = [p[1] for p in pts]
            name = f"{routine} n={n}" if n else f"{routine} (n grows with sqrt(GPUs))"
            line, = ax.plot(g, tf, "o-", label=name)
            if pts[0][2]:
                ax.plot(g, [pts[0][2] * x for x in g], "--", color=line.get_color(), alpha=0.4)
        ax.set_xlabel("GPUs")
        ax.set_ylabel("TFLOP/s")
        ax.set_title(f"{label} scaling (dashed: ideal)")
        ax.set_xticks([1, 2, 4, 8])
        ax.grid(alpha=0.3)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(prefix + ".png", dpi=110)


if __name__ == "__main__":
    main()
