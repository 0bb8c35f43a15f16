"""The records of a benchmark log, read back for tables and plots.

A log is what `scripts/bench.sh` writes to bench/results/raw/SUITE.log, or
the CLI's own output kept by hand (the older files of bench/results/raw/):
  - `$ [SETTINGS] COMMAND` lines (bench.sh) before each command's output;
  - the CLI's --json records, one object per line;
  - the CLI's text tables: a `% routine ...` column header, rows under it,
    the run's `% device I: NAME (KIND ORDINAL)` and `% vendor...:` lines
    above them and its `% command: ...` line;
  - netlib HPL's text (`WR...  N  NB  P  Q  Time  Gflops` and PASSED/FAILED);
  - `% bench KEY: value` lines from bench.sh (suite, device, host, date,
    commit; header() reads them): the device is the machine of the records;
  - `# TITLE` lines (any number of #): a section of a log put together by
    hand (two builds, two thread counts); the records under it carry it.
Every record is a dict with the CLI's JSON keys (time_s, vendor_time_s,
tflops, ...) plus "command" (the CLI's words as a user types them, settings
first, or None), "machine" (the GPU model, e.g. "H100", or "cpu"; None when
the log does not say) and "section" (or None).
"""
import json
import re

# the text table's column names that differ from the JSON keys; a rate
# column (Tflop/s, Gflop/s) belongs to the time column before it
TIME_COLUMNS = {"time(s)": "time_s", "vendor(s)": "vendor_time_s",
                "ours-dev(s)": "ours_device_time_s", "one-dev(s)": "one_dev_time_s",
                "cublas(s)": "vendor_device_time_s"}
RATE_COLUMNS = {"Tflop/s": "tflops", "Gflop/s": "gflops"}
RENAMED = {"ta": "transa", "tb": "transb"}
HPL_ROW = re.compile(r"^(W\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+([0-9.eE+-]+)\s+([0-9.eE+-]+)\s*$")


def machine_of(text):
    """The GPU model in a device line ("H100" from "NVIDIA H100 80GB HBM3"), else "cpu"."""
    m = re.search(r"NVIDIA (\S+?),?(\s|$)", text)
    return m.group(1) if m else "cpu"


def command_of(line):
    """The command of a `$ ...` line as a user types it: settings (VAR=value)
    first, then the CLI's words after the binary without --json, under
    `mpirun -np N` when launched so; other programs by their base name."""
    words = line[2:].split()
    settings = [w for w in words if "=" in w.split("-")[0]]
    words = words[len(settings):]
    at = next((i for i, w in enumerate(words) if w == "hyla" or w.endswith("/bin/hyla")), None)
    if at is None:
        command = " ".join([words[0].rsplit("/", 1)[-1]] + words[1:])
    else:
        np = words[words.index("-np") + 1] if "-np" in words[:at] else None
        # a bench.sh log of an older layout repeats the binary after the name
        rest = [w for w in words[at + 1:] if w != "--json"]
        if rest and rest[0].endswith("/bin/hyla"):
            rest = rest[1:]
        # and may end in a bracketed note
        rest = rest[:next((i for i, w in enumerate(rest) if w.startswith("[")), len(rest))]
        command = " ".join(["hyla"] + rest)
        if np:
            command = f"mpirun -np {np} {command}"
    return " ".join(settings + [command])


def value(cell):
    if cell == "-":
        return None
    for kind in (int, float):
        try:
            return kind(cell)
        except ValueError:
            pass
    return cell


def header_keys(words):
    """The JSON keys of a text table's columns, in order."""
    keys, last_time = [], None
    for w in words:
        if w in TIME_COLUMNS:
            last_time = TIME_COLUMNS[w]
            keys.append(last_time)
        elif w in RATE_COLUMNS and last_time:
            keys.append(last_time[:-len("time_s")] + RATE_COLUMNS[w])
        else:
            keys.append(RENAMED.get(w, w))
    return keys


def header(path):
    """The `% bench KEY: value` lines of a log, as a dict."""
    out = {}
    for line in open(path, errors="replace"):
        if line.startswith("% bench ") and ": " in line:
            key, v = line[len("% bench "):].rstrip("\n").split(": ", 1)
            out[key] = v
    return out


def devices_of(lines):
    """The devices of a run as its JSON records name them (cuda:0,1 or cpu:N),
    from its `% device I: NAME (KIND ORDINAL)` lines."""
    found = [re.search(r"\((\w+) (\d+)\)", d) for d in lines]
    if found and all(m and m.group(1) == "cuda" for m in found):
        return "cuda:" + ",".join(m.group(2) for m in found)
    return f"cpu:{len(lines)}" if lines else None


def read(path):
    """The records of the log at path, in order (see the module's text)."""
    records = []
    command = section = bench_machine = None
    run = {}  # the header of the CLI's text output being read
    hpl = None  # an HPL text row waiting for its PASSED/FAILED line

    def add(r):
        r.setdefault("command", command)
        r.setdefault("section", section)
        r.setdefault("machine", machine_of(run["devices"][0]) if run.get("devices") else bench_machine)
        records.append(r)

    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        if line.startswith("$ "):
            command, run = command_of(line), {}
        elif re.match(r"#+ ", line):
            section = line.lstrip("#").strip()
        elif line.startswith("% bench device: "):
            bench_machine = machine_of(line)
        elif line.startswith("% hyla "):
            run = {}
        elif line.startswith("% device "):
            run.setdefault("devices", []).append(line)
        elif line.startswith("% vendor") and "vendor" not in run:
            run["vendor"] = line.split(": ", 1)[1].split()[0]
            # gemm: "...; cublas: cuBLAS on device-resident copies"
            if "; cublas: " in line:
                run["vendor_device"] = line.split("; cublas: ", 1)[1].split()[0]
        elif line.startswith("% command: "):
            command = command_of("$ " + line[len("% command: "):])
        elif line.startswith("% routine "):
            run["columns"] = header_keys(line[1:].split())
        elif line.startswith("{"):
            try:
                r = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(r, dict) and "time_s" in r:
                add(r)
        elif line.startswith("  ") and len(line.split()) == len(run.get("columns", [])):
            r = {k: value(c) for k, c in zip(run["columns"], line.split())}
            r["devices"] = devices_of(run.get("devices", []))
            for key in ("vendor", "vendor_device"):
                if key in run and r.get(key + "_time_s") is not None:
                    r[key] = run[key]
            add(r)
        elif HPL_ROW.match(line):
            tv, n, nb, p, q, t, gf = HPL_ROW.match(line).groups()
            hpl = {"routine": "hpl", "tv": tv, "n": int(n), "nb": int(nb), "p": int(p),
                   "q": int(q), "time_s": float(t), "gflops": float(gf)}
        elif hpl and ("PASSED" in line or "FAILED" in line):
            hpl["status"] = "PASSED" if "PASSED" in line else "FAILED"
            add(hpl)
            hpl = None
    return records


def rate(r, stem=""):
    """GFLOP/s of one of a record's times (stem "": hyla's; "vendor_",
    "ours_device_", "vendor_device_"): the CLI writes gflops (gemm, hpl) or
    tflops (factorizations); None when the record has neither."""
    if r.get(stem + "tflops") is not None:
        return 1e3 * r[stem + "tflops"]
    return r.get(stem + "gflops")
