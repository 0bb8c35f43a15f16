#!/usr/bin/env python3
"""Pictures of benchmark logs: time or TF/s against n, hyla against the vendor.

Usage: plot_bench.py [-o OUT.png] [--routines LIST] [--metric auto|rate|time]
                     [--title TEXT] [--summary] LOG...

LOG: a raw log of scripts/bench.sh (its --json records) or the CLI's text
output kept by hand (scripts/bench_log.py reads both). One panel per routine,
precision and jobz (dpotrf, zheevd V, ...); in a panel, hyla's time
(host-resident input, transfers included), its device-resident time, its
one-device path and the vendor's times, from the same runs, each a color. Runs
that differ in something else (the machine, the devices, uplo, nrhs, m, the
matrix class, options such as --nb, settings such as OMP_NUM_THREADS, the
section of a log) are separate lines of the panel, told apart by marker and
line style; repeated points (same line, same n) are drawn at their median.
Failed runs are left out.

  -o OUT.png      the picture (default: the first LOG's name with .png)
  --routines L    only these routines (comma list, e.g. potrf,posv)
  --defaults      only runs with the library's defaults: none of the options
                  that set a configuration (--nb, --panel, a memory cap, ...)
  --metric M      the flop rate (TF/s, GF/s below 1 TF/s) where every run of
                  the panel has one, time otherwise (auto, the default); rate,
                  time: that one only (rate: panels without one are left out)
  --title TEXT    the figure's title (default: the logs' names)
  --summary       print what was drawn as JSON: the PNG's size in pixels and,
                  per panel, its box in those pixels, title, axis labels and
                  lines (label, color, points)
Exit status 1 when the logs hold no run to draw.
"""
import argparse
import json
import math
import os
import statistics
import sys
import textwrap
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_log  # noqa: E402

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import to_hex
    from matplotlib.lines import Line2D
except ImportError:
    plt = None

SUCCESS = {"ok", "pass", "PASSED"}
# (time key, rate key stem, label, color): what a panel can show of one run
KINDS = [("time_s", "", "hyla", "tab:blue"),
         ("ours_device_time_s", "ours_device_", "hyla device-resident", "tab:cyan"),
         ("one_dev_time_s", None, "hyla one-device path", "tab:green"),
         ("vendor_time_s", "vendor_", "vendor", "tab:red"),
         ("vendor_device_time_s", "vendor_device_", "vendor device-resident", "tab:orange")]
# command words that pick sizes or reporting, not a configuration; the
# configuration words left over tell runs apart (their value follows those
# of the first group)
SIZE_WORDS = {"-n", "-m", "-k", "--type", "--jobz", "--uplo", "--nrhs", "--devices", "--matrix",
              "--repeat", "--warmup", "--seed", "--vs", "--transa", "--transb"}
FLAG_WORDS = {"--check", "--stats", "--timers", "--json", "--verbose"}
MARKERS = "osD^vP*Xph<>"
STYLES = ["-", "--", ":", "-."]


def variant(r):
    """The options and settings of a run's command other than sizes and
    reporting (hpl: its grid, block size and broadcast)."""
    if r["routine"] == "hpl":
        v = f"grid {r['p']}x{r['q']}, nb {r['nb']}"
        return v + (f", bcast {r['bcast']}" if r.get("bcast") not in (None, "none") else "")
    words = (r.get("command") or "").split()
    at = words.index("hyla") if "hyla" in words else len(words)
    # the settings before the launcher; after `hyla ROUTINE`, the options
    out, i = [w for w in words[:at] if "=" in w], at + 2
    while i < len(words):
        w = words[i]
        if w in SIZE_WORDS and not (w == "--devices" and "@" in "".join(words[i + 1:i + 2])):
            i += 2  # (a memory cap on the devices is a configuration)
            continue
        if w not in FLAG_WORDS:
            out.append(w)
        i += 1
    return " ".join(out)


def rate_of(r, stem):
    """GFLOP/s of one kind of time of a run, or None (stem None: no rate)."""
    return None if stem is None else bench_log.rate(r, stem)


def panel_key(r):
    return r["routine"], r.get("type"), r.get("jobz")


def panel_title(key):
    routine, t, jobz = key
    name = (t or "") + routine
    return name + (f", jobz {jobz}" + (" (vectors)" if jobz == "V" else " (values only)")
                   if jobz else "")


# what tells the lines of a panel apart: (the value of a run, its text)
FIELDS = [(lambda r: None if (r.get("devices") or "").startswith("cpu") else r.get("machine"),
           lambda v: v),
          (lambda r: r.get("devices"), lambda v: v),
          (lambda r: r.get("uplo"), lambda v: f"uplo {v}"),
          (lambda r: r.get("nrhs"), lambda v: f"nrhs {v}"),
          (lambda r: r.get("m") if r.get("m") not in (None, r.get("n")) else None, lambda v: f"m {v}"),
          (lambda r: r.get("matrix"), lambda v: v),
          (variant, lambda v: v or "default"),
          (lambda r: r.get("section"), lambda v: v)]


def series_labels(runs):
    """One label per run: the fields that vary among the panel's runs."""
    varying = [(get, text) for get, text in FIELDS if len({get(r) for r in runs}) > 1]
    return [", ".join(str(text(get(r))) for get, text in varying if get(r) is not None)
            for r in runs]


def use_rate(runs, metric):
    if metric == "time":
        return False
    return all(rate_of(r, "") is not None for r in runs)


def series_style(i):
    """Marker and line style of the i-th line of a panel's runs."""
    return MARKERS[i % len(MARKERS)], STYLES[(i // len(MARKERS)) % len(STYLES)]


def draw_panel(ax, key, runs, metric):
    rate = use_rate(runs, metric)
    labels = series_labels(runs)
    series = list(dict.fromkeys(labels))
    points = defaultdict(lambda: defaultdict(list))  # (series, kind) -> n -> values
    names = defaultdict(dict)  # kind -> the vendor's name -> None (ordered)
    for r, s in zip(runs, labels):
        for time_key, stem, _, _ in KINDS:
            y = rate_of(r, stem) if rate else r.get(time_key)
            if r.get(time_key) is None or y is None:
                continue
            points[(s, time_key)][r["n"]].append(y)
            name = r.get("vendor_device" if time_key == "vendor_device_time_s" else "vendor")
            if time_key.startswith("vendor") and name:
                names[time_key][name] = None
    # GFLOP/s as the CLI gives them, TF/s where they reach 1000
    top = max(y for by_n in points.values() for ys in by_n.values() for y in ys)
    scale, unit = (1e-3, "TF/s") if rate and top >= 1e3 else (1, "GF/s")
    xs = set()
    for (s, time_key), by_n in points.items():
        _, _, label, color = next(k for k in KINDS if k[0] == time_key)
        marker, style = series_style(series.index(s))
        n = sorted(by_n)
        xs.update(n)
        # the line's label names kind and series (--summary reads it); the
        # legend shows the kinds by color and the series by marker apart
        ax.plot(n, [scale * statistics.median(by_n[v]) for v in n], color=color, marker=marker,
                markersize=5, linestyle=style if len(n) > 1 else "none",
                label=label + (f" - {s}" if s else ""))
    handles = [Line2D([], [], color=color, linewidth=2,
                      label=label + (": " + " / ".join(names[t]) if names[t] else ""))
               for t, _, label, color in KINDS if any(k == t for _, k in points)]
    if len(series) > 1:
        handles += [Line2D([], [], color="0.3", marker=series_style(i)[0], markersize=5,
                           linestyle=series_style(i)[1], label=s) for i, s in enumerate(series)]
    ax.set_title(panel_title(key), fontsize=10)
    ax.set_xlabel("n")
    ax.set_ylabel(f"{unit} (higher is better)" if rate else "time (s, lower is better)")
    # n on a log scale, ticks at the sizes that ran
    ax.set_xscale("log", base=2)
    ax.set_xlim(min(xs) / 1.4, max(xs) * 1.4)
    ax.set_xticks(sorted(xs))
    ax.set_xticklabels([str(v) for v in sorted(xs)], rotation=30, fontsize=8)
    ax.minorticks_off()
    if rate:
        ax.set_ylim(bottom=0, top=1.1 * scale * top)
    elif top > 10 * min(y for by_n in points.values() for ys in by_n.values() for y in ys):
        ax.set_yscale("log")
    ax.grid(alpha=0.3)
    ax.legend(handles=handles, fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.22),
              ncol=2 if len(handles) > 4 else 1, frameon=False)


def summary(fig, path):
    """What the saved figure shows: its size and, per panel, its box in the
    PNG's pixels (left, top, right, bottom), labels, and lines (label, color,
    points)."""
    w, h = (round(v * fig.dpi) for v in fig.get_size_inches())
    panels = []
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        box = ax.get_window_extent()
        panels.append({"title": ax.get_title(), "xlabel": ax.get_xlabel(),
                       "ylabel": ax.get_ylabel(),
                       "box": [round(box.x0), round(h - box.y1), round(box.x1), round(h - box.y0)],
                       "lines": [{"label": ln.get_label(), "color": to_hex(ln.get_color()),
                                  "points": [[float(x), float(y)] for x, y in
                                             zip(ln.get_xdata(), ln.get_ydata())]}
                                 for ln in ax.get_lines()]})
    return {"png": path, "width": w, "height": h, "panels": panels}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("logs", nargs="+")
    ap.add_argument("-o", dest="out")
    ap.add_argument("--routines")
    ap.add_argument("--defaults", action="store_true")
    ap.add_argument("--metric", choices=("auto", "rate", "time"), default="auto")
    ap.add_argument("--title")
    ap.add_argument("--summary", action="store_true")
    a = ap.parse_args()
    out = a.out or os.path.splitext(a.logs[0])[0] + ".png"
    runs = [r for log in a.logs for r in bench_log.read(log)]
    ok = [r.get("status") in SUCCESS and r.get("time_s") is not None for r in runs]
    failed = ok.count(False)
    runs = [r for r, good in zip(runs, ok) if good and "routine" in r and "n" in r]
    if a.routines:
        runs = [r for r in runs if r["routine"] in a.routines.split(",")]
    if a.defaults:
        runs = [r for r in runs if r["routine"] == "hpl" or
                not any(w.startswith("-") for w in variant(r).split())]
    panels = defaultdict(list)
    for r in runs:
        panels[panel_key(r)].append(r)
    if a.metric == "rate":
        panels = {k: v for k, v in panels.items() if use_rate(v, "rate")}
    if failed:
        print(f"plot_bench.py: {failed} failed runs left out", file=sys.stderr)
    if not panels:
        print(f"plot_bench.py: no run to draw in {' '.join(a.logs)}", file=sys.stderr)
        return 1
    if plt is None:
        print("plot_bench.py: matplotlib missing (scripts/setup.sh installs python3-matplotlib)",
              file=sys.stderr)
        return 1
    cols = min(3, len(panels))
    rows = math.ceil(len(panels) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.6 * cols, 4.6 * rows + 0.4), dpi=100,
                             squeeze=False, layout="constrained")
    order = list(panels)  # as the logs ran them
    for ax, key in zip(axes.flat, order):
        draw_panel(ax, key, panels[key], a.metric)
    for ax in axes.flat[len(order):]:
        ax.set_visible(False)
    title = a.title or ", ".join(os.path.basename(p) for p in a.logs)
    fig.suptitle(textwrap.fill(title, int(11 * 4.6 * cols)), fontsize=11)  # ~11 characters an inch
    fig.savefig(out)
    if a.summary:
        print(json.dumps(summary(fig, out)))
    else:
        print(f"{out}: {len(order)} panels")
    return 0


if __name__ == "__main__":
    sys.exit(main())
