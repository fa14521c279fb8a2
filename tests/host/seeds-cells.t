#!/usr/bin/env python3
"""tools/seeds-cells on a made-up results folder: every cell beside the seeds', the
ratio computed, a cause only where a cell is more than 15% off (worked out from the
folder's own counters), and one error for a folder missing a cell or a broken line."""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(ROOT, "tools", "seeds-cells")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tap import ok  # noqa: E402 (tests/host/tap.py)


def folder(rows):
    d = tempfile.mkdtemp()
    with open(os.path.join(d, "results.jsonl"), "w") as f:
        for r in rows:
            f.write((r if isinstance(r, str) else json.dumps(r)) + "\n")
    return d


def run(d):
    p = subprocess.run([TOOL, d], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


rows = []
for ra in ("legacy", "ondemand"):
    for test, kbps in (("read", 62111.84), ("reverse", 75000.0), ("stride", 8657.61),
                       ("random", 13914.28), ("pread", 62209.99)):
        rows.append({"cmd": "bench", "workload": "iozone", "suite": "seeds", "ra": ra,
                     "test": test, "kbps": kbps, "bytes": 4 << 30, "disk_reads": 1024,
                     "avg_req_kb": 1024.0, "dm_busy_secs": 20.0, "dm_buffer_hits": 7})
    rows.append({"cmd": "bench", "workload": "thrash", "ra": ra, "streams": 2,
                 "max_mbps": 5.0 if ra == "legacy" else 15.0,
                 "min_avg_req_kb": 16.0 if ra == "legacy" else 70.0})
    for t in (1, 2, 3):
        rows.append({"cmd": "bench-sample", "workload": "thrash", "ra": ra, "t": t,
                     "streams": min(t, 2), "mbps": float(t), "avg_req_kb": 100.0 - t,
                     "thrashed_pages": 5 if t == 3 else 0, "readpage_ios": t})
print("1..11")
st, out, err = run(folder(rows))
lines = [l for l in out.splitlines() if l.startswith("| ") and "---" not in l][1:]
ok(st == 0 and len(lines) == 14, "14 cells, exit 0", out + err)
rev = [l for l in lines if l.startswith("| Reverse Read, 2.6.20 ")]
ok(rev and "+49.9%" in rev[0] and "75% of reverse comes from the cache" in rev[0] and
   "53.7 MB/s" in rev[0], "a cell 50% off: the ratio and its cause from the folder's counters",
   "\n".join(rev))
read = [l for l in lines if l.startswith("| Read, 2.6.20 ")]
ok(read and read[0].rstrip().endswith("| +0.0% |  |"), "a cell on the seeds' figure: no cause",
   "\n".join(read))
req = [l for l in lines if l.startswith("| thrashing: min avg request KB, on-demand")]
ok(req and "-50.0%" in req[0] and "t=3" in req[0], "the thrashing cell's cause names its second",
   "\n".join(req))
st, out, err = run(folder([r for r in rows if r.get("test") != "pread"]))
ok(st != 0 and "no figure for Pread 2.6.20" in err and not out, "a missing cell: one error",
   err)
st, out, err = run(folder(rows[:3] + ["{not json"]))
ok(st != 0 and "results.jsonl:4: not a JSON line" in err, "a broken line: its number", err)

# provenance: a folder without provenance.json says so; with one, its commit and date lead
d = folder(rows)
st, out, err = run(d)
ok(st == 0 and out.startswith("*`make bench`: %s (no provenance.json" % d),
   "a folder without provenance.json: said above the table, nothing guessed", out[:200])
p = subprocess.run([os.path.join(ROOT, "tools", "helpers", "provenance"), d],
                   capture_output=True, text=True)
st, out, err = run(d)
ok(p.returncode == 0 and st == 0 and "at " in out.splitlines()[0] and " UTC" in out.splitlines()[0]
   and "cores" in out.splitlines()[0], "tools/helpers/provenance: commit, date and host above",
   p.stderr + out[:300])
# --write: the blocks of README.md and docs/seeds-cells.md replaced, the rest kept
top = tempfile.mkdtemp()
os.mkdir(os.path.join(top, "docs"))
for page in ("README.md", os.path.join("docs", "seeds-cells.md")):
    with open(os.path.join(top, page), "w") as f:
        f.write("before\n<!-- seeds-cells:begin -->\nold table\n<!-- seeds-cells:end -->\nafter\n")
w = subprocess.run([TOOL, d, "--write", top], capture_output=True, text=True)
readme = open(os.path.join(top, "README.md")).read()
page = open(os.path.join(top, "docs", "seeds-cells.md")).read()
ok(w.returncode == 0 and "old table" not in readme + page and readme.startswith("before\n")
   and readme.endswith("after\n") and "| Read, 2.6.20 |" in readme
   and "from the cache" not in readme and "from the cache" in page and " UTC" in readme,
   "--write: both blocks, causes only in docs/seeds-cells.md, provenance in both",
   w.stderr + readme[:400])
with open(os.path.join(top, "README.md"), "w") as f:
    f.write("no markers\n")
w = subprocess.run([TOOL, d, "--write", top], capture_output=True, text=True)
ok(w.returncode != 0 and "README.md: needs one <!-- seeds-cells:begin -->" in w.stderr and
   open(os.path.join(top, "README.md")).read() == "no markers\n",
   "--write on a page without the markers: one error, the page untouched", w.stderr)
# the elevator the boots' lsblk named, in the line above the table
st, out, err = run(folder(rows + [{"cmd": "lsblk", "disks": [{"name": "sda", "elevator": "cfq"}]}]))
ok(st == 0 and out.splitlines()[0].endswith("; elevator cfq (lsblk)*"),
   "the line above the table names the elevator lsblk reported", out[:300])
