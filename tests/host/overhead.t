#!/usr/bin/env python3
"""tools/overhead --table on a made-up run: each pair's ratio from the least of a boot's
repetitions, their median and spread, the tables --write puts in README.md and
docs/overhead.md, and one error for a run without a complete pair or a page without
the markers."""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(ROOT, "tools", "overhead")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tap import ok, status  # noqa: E402 (tests/host/tap.py)

WORKLOADS = ("seq", "rand", "cat", "replay")


def boot(kernel, times):
    """A boot whose workload W ran twice: times[W] and a slower repetition."""
    t = {}
    for w in WORKLOADS:
        t["%s.0" % w] = times[w] * 3
        t["%s.1" % w] = times[w]
    return {"kernel": kernel, "times": t, "load_before": [4.0, 3.0, 2.0]}


def folder(linux, lookahead):
    d = tempfile.mkdtemp()
    res = {"linux": linux, "lookahead": lookahead, "provenance": {
        "commit": "abc1234", "machine": "Test CPU", "cpus": 2, "host_tsc_mhz": 2000.0,
        "date": "2026-01-01 00:00 UTC", "qemu": "QEMU emulator version 7.2",
        "kernel_short": "7.2.13", "workloads": {"seq_mb": 256, "rand_count": 1000,
                                                 "cat_mb": 64, "replay": "db-oltp.log",
                                                 "reps": 2}}}
    with open(os.path.join(d, "results.json"), "w") as f:
        json.dump(res, f)
    return d


print("1..5")
# Linux twice as slow as lookahead, then 4x, then 3x, on every workload
lx = [boot("linux", {w: x for w in WORKLOADS}) for x in (2.0, 4.0, 3.0)]
la = [boot("lookahead", {w: 1.0 for w in WORKLOADS}) for _ in range(3)]
d = folder(lx, la)
p = subprocess.run([TOOL, "--table", d], capture_output=True, text=True)
rows = [ln for ln in p.stdout.splitlines() if ln.startswith("| random")]
ok(p.returncode == 0 and rows and "| 2.00 4.00 3.00 | 3.00x | 2.00-4.00 |" in rows[0] and
   "| 3.000 | 1.000 |" in rows[0],
   "each pair's ratio from its least repetition, the median and the spread", p.stdout)
ok("commit abc1234" in p.stdout and "load (uptime's 1-minute average) 4.0-4.0" in p.stdout
   and "N = 3 pairs" in p.stdout, "the provenance: commit, load, pairs", p.stdout)

top = tempfile.mkdtemp()
os.makedirs(os.path.join(top, "docs"))
for page in ("README.md", "docs/overhead.md"):
    with open(os.path.join(top, page), "w") as f:
        f.write("before\n<!-- overhead:begin -->\nTHE OLD TABLE\n<!-- overhead:end -->\nafter\n")
w = subprocess.run([TOOL, "--table", d, "--write", top], capture_output=True, text=True)
readme = open(os.path.join(top, "README.md")).read()
page = open(os.path.join(top, "docs", "overhead.md")).read()
ok(w.returncode == 0 and "THE OLD TABLE" not in readme + page and readme.endswith("after\n") and
   "| 3.0x (2.0-4.0) |" in readme and "| 2.00 4.00 3.00 |" in page,
   "--write: the short table in README.md, the pairs in docs/overhead.md", w.stderr + readme)

with open(os.path.join(top, "README.md"), "w") as f:
    f.write("no markers\n")
w = subprocess.run([TOOL, "--table", d, "--write", top], capture_output=True, text=True)
ok(w.returncode == 1 and "README.md: needs one <!-- overhead:begin" in w.stderr and
   open(os.path.join(top, "README.md")).read() == "no markers\n",
   "--write on a page without the markers: one error, the page untouched", w.stderr)

p = subprocess.run([TOOL, "--table", folder(lx, la[:2])], capture_output=True, text=True)
ok(p.returncode == 1 and "no complete pair" in p.stderr and p.stderr.count("\n") == 1,
   "a run with a Linux boot and no lookahead boot after it: one error", p.stderr)
sys.exit(status())
