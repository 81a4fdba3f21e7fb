#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""table.py ROWS [QMAX_B]: the incast table from run.sh's rows, one line
per run ("N CC REP util jain conv_s flows gput drops ce rexmit q50 q99
qmax"): one line per N and CC, in the order they ran, each figure the
median of the repetitions and, when there are several, their range
[min..max], so that no figure rests on one run. conv_s "-" (never
converged) sorts above every number; a median that lands on it prints "-".

With QMAX_B (RED's max, in bytes), then one line per N run with DCQCN:
how many of its runs met every one of N = 4's targets (TARGETS), and how
many met each, so that a median that meets them is not taken for every
run meeting them."""
import sys

COLS = ("util", "jain", "conv_s", "gput", "drops", "ce", "rexmit", "q50_B", "q99_B", "qmax_B",
        "flows")
# N = 4's targets (Documentation/datapath.rst, "A preset for the QEMU lab"):
# what it says, its short name, the figure's index in COLS, the test.
TARGETS = (
    ("utilisation >= 0.95", "util", COLS.index("util"), lambda x, qmax: x >= 0.95),
    ("no drops", "drops", COLS.index("drops"), lambda x, qmax: x == 0),
    ("queue p99 < QMAX", "q99", COLS.index("q99_B"), lambda x, qmax: x < qmax),
    ("Jain >= 0.99", "jain", COLS.index("jain"), lambda x, qmax: x >= 0.99),
)
FMT = ("%.3f", "%.3f", "%.1f", "%.2f", "%d", "%d", "%d", "%d", "%d", "%d", "%d")
# the rows' order: util jain conv flows gput drops ce rexmit q50 q99 qmax
ORDER = (0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 3)

qmax = None
if len(sys.argv) > 2:
    try:
        qmax = int(sys.argv[2])
    except ValueError:
        sys.exit("table.py: QMAX_B %r is not a number of bytes" % sys.argv[2])
groups = {}
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) != 14:
        sys.exit("table.py: a row of %d fields, not 14: %r" % (len(f), line))
    vals = [float("inf") if x == "-" else float(x) for x in f[3:]]
    groups.setdefault((f[0], f[1]), []).append([vals[i] for i in ORDER])
if not groups:
    sys.exit("table.py: no rows")


def fig(fmt, x):
    return "-" if x == float("inf") else fmt % x


reps = {len(v) for v in groups.values()}
print("%-4s %-3s %4s" % ("qps", "cc", "runs") +
      "".join(" %-22s" % c for c in COLS).rstrip())
for (n, cc), runs in groups.items():
    cells = []
    for i, fmt in enumerate(FMT):
        xs = sorted(r[i] for r in runs)
        med = xs[(len(xs) - 1) // 2] if len(xs) % 2 else (
            xs[len(xs) // 2 - 1] + xs[len(xs) // 2]) / 2
        cell = fig(fmt, med)
        if len(xs) > 1:
            cell += " [%s..%s]" % (fig(fmt, xs[0]), fig(fmt, xs[-1]))
        cells.append(cell)
    print("%-4s %-3s %4d" % (n, cc, len(runs)) + "".join(" %-22s" % c for c in cells).rstrip())
if len(reps) != 1:
    sys.exit("table.py: unequal repetitions %s" % sorted(reps))
if qmax is not None:
    says = ", ".join(s.replace("QMAX", "%d B" % qmax) for s, _, _, _ in TARGETS)
    print("# runs with DCQCN that met every one of N = 4's targets (%s):" % says)
    for (n, cc), runs in groups.items():
        if cc != "on":
            continue
        every = sum(1 for r in runs if all(ok(r[i], qmax) for _, _, i, ok in TARGETS))
        each = ", ".join("%s %d" % (short, sum(1 for r in runs if ok(r[i], qmax)))
                         for _, short, i, ok in TARGETS)
        print("#   N = %s: %d of %d (each: %s)" % (n, every, len(runs), each))
