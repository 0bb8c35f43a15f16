"""The pictures of scripts/bench.sh -p, on the host backend.

Usage: bench_plot.py SOURCE BUILD OUT

Runs bench/suites/smoke-cpu.sh with `scripts/bench.sh -n -p` on the build
BUILD into OUT, then draws its raw log again with scripts/plot_bench.py
--summary and checks, against the table bench.sh wrote:
  - one panel per routine, precision and jobz of the table, titled so;
  - in each, hyla's line has a point at every n of the table's rows, at the
    table's time or rate, and the vendor's line one wherever the row has a
    vendor time;
  - both PNGs are PNGs of the figure's size, and in each panel's box of the
    picture there are pixels of the color of each of its lines.
"""
import json
import os
import shutil
import struct
import subprocess
import sys

import matplotlib.image

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "scripts"))
from bench_compare import read_table  # noqa: E402
from bench_smoke import is_number  # noqa: E402


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", head[16:24])


def color_pixels(image, box, color):
    """How many pixels of image (an RGB(A) array of floats) inside box have color (#rrggbb)."""
    want = [int(color[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    left, top, right, bottom = box
    return int((abs(image[top:bottom, left:right, :3] - want) < 0.02).all(axis=-1).sum())


def expected_title(routine_cell):
    """The panel title of a table row's routine cell ("syevd d N", "potrf z", "hpl d")."""
    routine, t, *jobz = routine_cell.split()
    title = routine if routine == "hpl" else t + routine
    return title + (f", jobz {jobz[0]}" if jobz else "")


def half_unit(cell):
    """Half a unit of the last digit of a table cell ("0.00495", "3.74e-05", "0.01")."""
    mantissa, _, exponent = cell.partition("e")
    decimals = len(mantissa.partition(".")[2])
    return 0.5 * 10 ** (int(exponent or 0) - decimals)


def check_point(lines, prefix, n, cell, rate_unit, problems, where):
    """A line whose label starts with prefix has a point at n; with a table
    cell (seconds, or TF/s shown in the axis's rate_unit), at its value."""
    pts = [p for ln in lines if ln["label"].split(" - ")[0] == prefix for p in ln["points"]
           if p[0] == n]
    if not pts:
        problems.append(f"{where}: no {prefix} point at n = {n}")
        return
    if cell is None:
        return
    scale = 1e3 if rate_unit == "GF/s" else 1
    want, tol = float(cell) * scale, (half_unit(cell) + 1e-9) * scale
    if not any(abs(p[1] - want) <= tol for p in pts):
        problems.append(f"{where}: {prefix} at n = {n}: {[p[1] for p in pts]}, table {want}")


def main():
    source, build, out = sys.argv[1:]
    shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ, PYTHON=sys.executable)
    rc = subprocess.call(["bash", os.path.join(source, "scripts", "bench.sh"), "-n", "-p", "-B", build,
                          "-o", out, "smoke-cpu"], env=env)
    if rc != 0:
        print(f"scripts/bench.sh -p smoke-cpu: exit status {rc}")
        return 1
    raw = os.path.join(out, "raw", "smoke-cpu.log")
    check_png = os.path.join(out, "check.png")
    drawn = subprocess.run([sys.executable, os.path.join(source, "scripts", "plot_bench.py"),
                            "--summary", "-o", check_png, raw], capture_output=True, text=True)
    if drawn.returncode != 0:
        print(f"plot_bench.py: exit status {drawn.returncode}\n{drawn.stderr}")
        return 1
    fig = json.loads(drawn.stdout)
    rows = read_table(os.path.join(out, "smoke-cpu.md"))[1]
    problems = []

    titles = {expected_title(r["routine"]) for r in rows}
    got = [p["title"] for p in fig["panels"]]
    print(f"{len(rows)} rows, {len(titles)} routines, {len(got)} panels: {', '.join(got)}")
    if len(got) != len(titles) or any(not any(g.startswith(t) for g in got) for t in titles):
        problems.append(f"panels {got}, expected one per {sorted(titles)}")
    for r in rows:
        title = expected_title(r["routine"])
        panel = next((p for p in fig["panels"] if p["title"].startswith(title)), None)
        if panel is None:
            continue
        n = float(r["n"])
        unit = panel["ylabel"].split()[0] if not panel["ylabel"].startswith("time") else None
        check_point(panel["lines"], "hyla", n, r["TF/s"] if unit else r["hyla (s)"], unit, problems,
                    title)
        if is_number(r["vendor (s)"]):  # (the table has no vendor rate)
            check_point(panel["lines"], "vendor", n, None if unit else r["vendor (s)"], unit,
                        problems, title)

    for png in (os.path.join(out, "smoke-cpu.png"), check_png):
        size = png_size(png) if os.path.exists(png) else None
        if size != (fig["width"], fig["height"]):
            problems.append(f"{png}: size {size}, figure {fig['width']} x {fig['height']}")
    image = matplotlib.image.imread(check_png)
    for p in fig["panels"]:
        for ln in p["lines"]:
            if color_pixels(image, p["box"], ln["color"]) < 10:
                problems.append(f"{p['title']}: no pixels of {ln['label']} ({ln['color']})")
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
