#!/usr/bin/env python3
"""The layer rules of docs/ARCHITECTURE.md, checked on every quoted include.

Scans each `#include "..."` (and each `#define HYLA_TEMPLATE "..."`, which
names a file that each_prec.h includes) in src/, tools/ and tests/, resolves
it as the build does (the including file's folder, then src/, then include/)
and fails, naming the file and line, when a folder includes a folder of a
layer above it or beside it, or when an include names no file of the tree.

Usage: check_layers.py [ROOT]   (ROOT: the source tree, default: this file's parent's parent)
"""
import os
import re
import sys

# The layers, bottom up: what a file in each folder may include (besides the
# system's headers). tests/ may include anything.
PUBLIC = {"include"}
BASE = PUBLIC | {"src/base"}
BACKEND = BASE | {"src/backend", "src/backend/ops"}
CORE = BACKEND | {"src/core"}
ALGORITHMS = ("src/gemm", "src/chol", "src/lu", "src/eig", "src/hpl", "src/io")

ALLOWED = {
    "include": PUBLIC,
    "src/base": BASE,
    "src/backend": BACKEND,
    "src/backend/ops": BACKEND,
    "src/backend/cuda": BACKEND | {"src/backend/cuda"},
    "src/backend/host": BACKEND | {"src/backend/host"},
    "src/core": CORE,
}
for folder in ALGORITHMS:
    ALLOWED[folder] = CORE | {folder}

# Single files a folder may include beyond its layer, each with its reason.
EXCEPTIONS = {
    # the CPU share of the hybrid GEMM calls the host BLAS on the caller's
    # arrays by design (docs/ARCHITECTURE.md, tier 2)
    ("src/gemm", "src/backend/host/host_blas.h"),
}

INCLUDE = re.compile(r'^\s*#\s*(?:include|define\s+HYLA_TEMPLATE)\s+"([^"]+)"')
SOURCES = (".c", ".h", ".cu", ".cuh")


def folder_of(rel):
    """The rules' name for the folder of a file (repository-relative path)."""
    parts = rel.split("/")
    if parts[0] in ("include", "tests"):
        return parts[0]
    if parts[0] == "tools":
        return "/".join(parts[:2])
    if parts[0] == "src":
        if parts[1] == "backend" and len(parts) > 3:
            return "/".join(parts[:3])
        return "/".join(parts[:2])
    return None


def allowed_for(folder):
    if folder.startswith("tools/"):
        return PUBLIC | {folder}
    return ALLOWED.get(folder)


def resolve(root, src_rel, name):
    for base in (os.path.dirname(src_rel), "src", "include"):
        rel = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(os.path.join(root, rel)):
            return rel.replace(os.sep, "/")
    return None


def check(root):
    errors = []
    used = set()
    for top in ("src", "tools", "tests"):
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for f in sorted(files):
                if not f.endswith(SOURCES):
                    continue
                rel = os.path.relpath(os.path.join(dirpath, f), root).replace(os.sep, "/")
                folder = folder_of(rel)
                allowed = None if folder == "tests" else allowed_for(folder)
                if folder != "tests" and allowed is None:
                    errors.append(f"{rel}:1: folder {folder} has no layer: add it to "
                                  "tests/check_layers.py and docs/ARCHITECTURE.md")
                    continue
                with open(os.path.join(root, rel), encoding="utf-8") as fh:
                    for lineno, line in enumerate(fh, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        target = resolve(root, rel, m.group(1))
                        if target is None:
                            errors.append(f'{rel}:{lineno}: "{m.group(1)}" names no file of the tree')
                            continue
                        if folder == "tests":
                            continue
                        tfolder = folder_of(target)
                        if tfolder in allowed:
                            continue
                        if (folder, target) in EXCEPTIONS:
                            used.add((folder, target))
                            continue
                        errors.append(f"{rel}:{lineno}: includes {target}: {folder} may include "
                                      f"only {', '.join(sorted(allowed))}")
    for folder, target in sorted(EXCEPTIONS - used):
        errors.append(f"tests/check_layers.py: the exception {folder} -> {target} is no longer used: remove it")
    return errors


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    errors = check(root)
    for e in errors:
        print(e)
    print(f"layer rules: {len(errors)} violation(s)" if errors else "layer rules: ok")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
