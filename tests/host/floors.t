#!/usr/bin/env python3
"""The floors: each folder of the kernel uses only its own and the ones below.

    boot/ < kernel/ < mm/ < drivers/ < fs/ < bench/ < init/

(docs/layout.md: the page cache's floor owns the types it uses, struct file
in mm/file.h and struct backing_dev_info in mm/backing-dev.h; kernel/ reaches memory
through kernel/memory.h; init/main.c holds kmain, the floor above all, as Linux's
start_kernel in init/main.c: it calls down into every floor and nothing calls it
but boot/, the entry, which may call up.)

Two checks, each failing the script (exit 1) by itself:
  - includes: every #include "DIR/..." of every .c, .h and .S file under those
    folders against the order, and the headers' include graph for cycles;
  - symbols: every undefined symbol of every kernel object (nm over build/k, the
    objects of this tree's sources) against the floor of the object defining it:
    a call or a data reference up a floor fails, whatever header declared it.
    tests/kernel and tests/common, built into the kernel, sit above init/.
One test per floor and check, one for cycles; a failure names the file (and line)
and what it uses. Then the checker checks itself on made-up trees, this script
run whole on them: an upward include, an upward call and a cycle each make it
exit 1, a clean tree exit 0. FLOORS_ROOT=DIR checks DIR instead of this tree
(the self-check's own runs)."""
import os
import re
import subprocess
import sys
import tempfile

SELF = os.path.abspath(__file__)
ROOT = os.environ.get("FLOORS_ROOT") or os.path.dirname(os.path.dirname(os.path.dirname(SELF)))
FLOORS = ["boot", "kernel", "mm", "drivers", "fs", "bench", "init"]
# the objects of the kernel image by floor: the folders above, then the tests built in
SYMBOL_FLOORS = FLOORS + ["tests"]
TEST_DIRS = ["tests/kernel", "tests/common"]
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


def objects(root):
    """(floor, source, object) for every kernel source of the tree (the Makefile's
    KSRCS): its object is build/k/SOURCE.o. Old objects of sources gone are not
    looked at."""
    dirs = [(f, f) for f in FLOORS] + [("tests", d) for d in TEST_DIRS]
    for floor, d in dirs:
        if not os.path.isdir(os.path.join(root, d)):
            continue
        for name in sorted(os.listdir(os.path.join(root, d))):
            if name.endswith((".c", ".S")):
                rel = os.path.join(d, name)
                yield floor, rel, os.path.join(root, "build", "k", rel + ".o")


def nm(objs):
    """{object: (defined global symbols, undefined symbols)} of every object, from one nm
    run: an nm a file started the binutils plugins a file, 150 times (12 s of CPU)."""
    out = subprocess.run(["nm", "-A", "-P"] + objs, capture_output=True, text=True,
                         check=True).stdout
    table = {o: (set(), set()) for o in objs}
    for line in out.splitlines():
        # "OBJECT: SYMBOL TYPE [VALUE SIZE]"; the symbol part holds no ": "
        obj, _, sym = line.rpartition(": ")
        f = sym.split()
        if obj not in table or len(f) < 2:
            continue
        defined, undefined = table[obj]
        if f[1] in ("U", "w", "v"):
            undefined.add(f[0])
        elif f[1].isupper():
            defined.add(f[0])
    return table


def symbols_up(root):
    """({floor: ["file: uses SYM, defined in FILE (X/ is above Y/)"]}, [missing
    objects]). boot/ is the entry and may use any floor."""
    objs = list(objects(root))
    missing = [o for _, _, o in objs if not os.path.exists(o)]
    if missing:
        return {f: [] for f in SYMBOL_FLOORS}, missing
    syms = nm([o for _, _, o in objs])
    table = [(floor, rel) + syms[o] for floor, rel, o in objs]
    where = {}
    for floor, rel, defined, _ in table:
        for s in defined:
            where.setdefault(s, []).append((floor, rel))
    bad = {f: [] for f in SYMBOL_FLOORS}
    for floor, rel, _, undefined in table:
        if floor == "boot":
            continue
        for s in sorted(undefined):
            for dfloor, drel in where.get(s, []):
                if SYMBOL_FLOORS.index(dfloor) <= SYMBOL_FLOORS.index(floor):
                    continue
                line = "%s: uses %s, defined in %s (%s/ is above %s/)" % (
                    rel, s, drel, dfloor, floor)
                bad[floor].append(line)
    return bad, missing


sys.path.insert(0, os.path.dirname(SELF))
from tap import ok, status  # noqa: E402 (tests/host/tap.py)

selfcheck = not os.environ.get("FLOORS_ROOT")
checked = [f for f in SYMBOL_FLOORS if f != "boot"]
print("1..%d" % (len(FLOORS) + 2 + len(checked) + (5 if selfcheck else 0)))
bad = upward(ROOT)
for floor in FLOORS:
    ok(not bad[floor], "%s/ includes nothing from the floors above it" % floor, bad[floor])
cyc = cycles(ROOT)
ok(not cyc, "no include cycle among the headers", cyc)
sym, missing = symbols_up(ROOT)
ok(not missing, "every kernel source has its object in build/k (make first)", missing)
for floor in checked:
    ok(not sym[floor],
       "%s/ uses no symbol defined on a floor above it" % floor, sym[floor])

if not selfcheck:
    sys.exit(status())


def tree(t, files):
    """A made-up tree: FILES {path: text}; each .c compiled into build/k like the kernel's."""
    for rel, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(t, rel)), exist_ok=True)
        with open(os.path.join(t, rel), "w") as f:
            f.write(text)
    for rel in files:
        if rel.endswith(".c"):
            o = os.path.join(t, "build", "k", rel + ".o")
            os.makedirs(os.path.dirname(o), exist_ok=True)
            subprocess.run(["gcc", "-c", "-O1", "-I", t, os.path.join(t, rel), "-o", o],
                           check=True)


def run_on(t):
    """This script run whole on tree T: (exit status, its output)."""
    p = subprocess.run([sys.executable, SELF], env=dict(os.environ, FLOORS_ROOT=t),
                       capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


CLEAN = {
    "kernel/k.h": "int k_fn(void);\n",
    "kernel/k.c": '#include "kernel/k.h"\nint k_fn(void) { return 1; }\n',
    "mm/m.c": '#include "kernel/k.h"\nint m_fn(void) { return k_fn(); }\n',
    "init/main.c": "int m_fn(void);\nint kmain(void) { return m_fn(); }\n",
}
with tempfile.TemporaryDirectory() as t:
    tree(t, CLEAN)
    code, out = run_on(t)
    ok(code == 0, "a tree whose floors hold: the script exits 0", out)
with tempfile.TemporaryDirectory() as t:
    tree(t, dict(CLEAN, **{"mm/up.h": '#include "fs/b.h"\n', "fs/b.h": "\n"}))
    code, out = run_on(t)
    ok(code == 1 and "not ok" in out and "mm/up.h:1: includes fs/b.h" in out,
       "an include up a floor: the script exits 1, naming the file and line", out)
with tempfile.TemporaryDirectory() as t:
    # a call from mm/ up to drivers/ (declared locally: no include to see)
    tree(t, dict(CLEAN, **{
        "mm/call.c": "int d_fn(void);\nint c_fn(void) { return d_fn(); }\n",
        "drivers/d.c": "int d_fn(void) { return 2; }\n"}))
    code, out = run_on(t)
    ok(code == 1 and "mm/call.c: uses d_fn, defined in drivers/d.c" in out,
       "a call up a floor, whatever declared it: the script exits 1, naming both files", out)
with tempfile.TemporaryDirectory() as t:
    # kernel/ reading data defined in init/ (a call to kmain's floor)
    tree(t, dict(CLEAN, **{
        "kernel/v.c": "extern int halted;\nint v_fn(void) { return halted; }\n",
        "init/h.c": "int halted = 1;\n"}))
    code, out = run_on(t)
    ok(code == 1 and "kernel/v.c: uses halted, defined in init/h.c" in out,
       "a data reference up to init/: the script exits 1", out)
with tempfile.TemporaryDirectory() as t:
    tree(t, dict(CLEAN, **{"mm/a.h": '#include "mm/b.h"\n', "mm/b.h": '#include "mm/a.h"\n'}))
    code, out = run_on(t)
    ok(code == 1 and "mm/a.h -> mm/b.h -> mm/a.h" in out,
       "an include cycle: the script exits 1, naming it", out)
sys.exit(status())
