#!/usr/bin/env python3
"""The floors: each folder of the kernel includes only its own and the ones below.

    boot/ < kernel/ < mm/ < drivers/ < fs/ < bench/

(docs/layout.md: the page cache's floor owns the types it uses, struct file
in mm/file.h and struct backing_dev_info in mm/backing-dev.h; kernel/ reaches memory
through kernel/memory.h). Every #include "DIR/..." of every .c, .h and .S file
under those folders is checked against the order, and the headers' include graph
for cycles. One test per folder, one for cycles; a failure names the file, its
line and the include. Then the checker checks itself on a made-up tree: an upward
include and a cycle must each be found."""
import os
import re
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FLOORS = ["boot", "kernel", "mm", "drivers", "fs", "bench"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def sources(root):
    for floor in FLOORS:
        d = os.path.join(root, floor)
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            if name.endswith((".c", ".h", ".S")):
                yield floor, os.path.join(floor, name)


def includes(root, rel):
    with open(os.path.join(root, rel), errors="replace") as f:
        for n, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if m:
                yield n, m.group(1)


def upward(root):
    """{floor: ["file:line: includes X (floor Y is above)"]}"""
    bad = {f: [] for f in FLOORS}
    for floor, rel in sources(root):
        for n, inc in includes(root, rel):
            top = inc.split("/")[0]
            if top in FLOORS and FLOORS.index(top) > FLOORS.index(floor):
                bad[floor].append("%s:%d: includes %s (%s/ is above %s/)" %
                                  (rel, n, inc, top, floor))
    return bad


def cycles(root):
    """Include cycles among the headers: each as "a.h -> b.h -> a.h"."""
    graph = {}
    for _, rel in sources(root):
        if rel.endswith(".h"):
            graph[rel] = [inc for _, inc in includes(root, rel)
                          if os.path.exists(os.path.join(root, inc))]
    found, state = [], {}

    def visit(node, path):
        state[node] = 1
        for nxt in graph.get(node, []):
            if state.get(nxt) == 1:
                found.append(" -> ".join(path[path.index(nxt):] + [nxt]))
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    return found


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tap import ok  # noqa: E402 (tests/host/tap.py)


print("1..%d" % (len(FLOORS) + 3))
bad = upward(ROOT)
for floor in FLOORS:
    ok(not bad[floor], "%s/ includes nothing from the floors above it" % floor, bad[floor])
cyc = cycles(ROOT)
ok(not cyc, "no include cycle among the headers", cyc)

# the checker finds what it is for
with tempfile.TemporaryDirectory() as t:
    for d in ("mm", "fs", "kernel"):
        os.mkdir(os.path.join(t, d))
    with open(os.path.join(t, "mm", "a.h"), "w") as f:
        f.write('#include "fs/b.h"\n')
    with open(os.path.join(t, "fs", "b.h"), "w") as f:
        f.write('#include "mm/a.h"\n')
    with open(os.path.join(t, "kernel", "c.c"), "w") as f:
        f.write('#include <stdio.h>\n#include "kernel/d.h"\n')
    b = upward(t)
    ok(b["mm"] == ["mm/a.h:1: includes fs/b.h (fs/ is above mm/)"] and not b["kernel"],
       "an include up a floor is found, with its file and line", b["mm"] + b["kernel"])
    c = cycles(t)
    ok(len(c) == 1 and "mm/a.h" in c[0] and "fs/b.h" in c[0], "an include cycle is found", c)
sys.exit(0)
