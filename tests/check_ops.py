#!/usr/bin/env python3
"""docs/OPS.md against the backend interface: every op of struct
hyla_backend_ops (src/backend/backend.h) and struct hyla_alg_ops
(src/backend/ops/ops.h) has one row; each test file named as a direct test
exists under tests/ and calls the op (`->op(` or `.op(`); an op with no
direct test names at least one existing test file that exercises it; no row
names an op the interface lacks. Usage: check_ops.py SOURCE_DIR."""
import os
import re
import sys


def ops_of(path, struct):
    text = open(path, encoding="utf-8").read()
    start = text.index("struct " + struct + " {")
    body = text[start:text.index("\n};", start)]
    return re.findall(r"\(\*([a-z_0-9]+)\)\(", body)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    ops = ops_of(os.path.join(root, "src/backend/backend.h"), "hyla_backend_ops")
    ops += ops_of(os.path.join(root, "src/backend/ops/ops.h"), "hyla_alg_ops")
    # the function-pointer arguments of ops are not ops themselves
    ops = [o for o in ops if o != "fn"]
    rows = {}
    bad = []
    for line in open(os.path.join(root, "docs/OPS.md"), encoding="utf-8"):
        m = re.match(r"\|\s*`([a-z_0-9]+)`\s*\|([^|]*)\|([^|]*)\|", line)
        if not m:
            continue
        if m.group(1) in rows:
            bad.append("row %s twice" % m.group(1))
        rows[m.group(1)] = (m.group(2), m.group(3))
    for op in ops:
        if op not in rows:
            bad.append("op %s has no row" % op)
            continue
        direct = re.findall(r"test_[a-z_0-9]+\.c", rows[op][0])
        through = re.findall(r"test_[a-z_0-9]+\.c", rows[op][1])
        for f in direct:
            p = os.path.join(root, "tests", f)
            if not os.path.exists(p):
                bad.append("%s: %s does not exist" % (op, f))
            elif not re.search(r"(->|\.)" + op + r"\(", open(p, encoding="utf-8").read()):
                bad.append("%s: %s does not call it" % (op, f))
        for f in through:
            if not os.path.exists(os.path.join(root, "tests", f)):
                bad.append("%s: %s does not exist" % (op, f))
        if not direct and not through and "every test" not in rows[op][1]:
            bad.append("%s: no test named" % op)
    for op in rows:
        if op not in ops:
            bad.append("row %s: no such op" % op)
    for b in bad:
        print("check_ops: " + b)
    print("check_ops: %d ops, %d rows, %d problems" % (len(ops), len(rows), len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
