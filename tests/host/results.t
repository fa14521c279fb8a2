#!/usr/bin/env python3
"""tools/lib/results.py, the one reader of RESULT lines and results.jsonl: a log's
RESULT lines in order with the other lines left out, a cut or non-object line
skipped, boots counted by their "command line:" lines, the other lines handed to
a callback in order; results.jsonl read back as written, and one error naming the
file and line for a line that is not a JSON object; select() and first()."""
import io
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools", "lib"))
import results  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tap import ok  # noqa: E402 (tests/host/tap.py)


def raises(fn):
    try:
        fn()
    except results.ResultsError as e:
        return str(e)
    return None


print("1..12")
LOG = """command line: ra=legacy
lookahead$ cat /a
RESULT {"cmd":"cat","ra":"legacy","bytes":4096}
ratrace: t=1 ra=legacy
RESULT {"cmd":"cat","ra":"leg
RESULT [1, 2]
RESULT {"cmd":"bench","ra":"legacy","kbps":1.5}\r
command line: ra=ondemand
RESULT {"cmd":"cat","ra":"ondemand","bytes":4096}
"""
rows = results.from_log(io.StringIO(LOG))
ok([r["cmd"] for r in rows] == ["cat", "bench", "cat"],
   "a log: its RESULT objects in order; a cut line and a non-object skipped", rows)
ok(rows[1] == {"cmd": "bench", "ra": "legacy", "kbps": 1.5}, "a CRLF line end is no part of it",
   rows[1])
pairs = results.from_log(io.StringIO(LOG), boots=True)
ok([b for _, b in pairs] == [0, 0, 1], "boots: counted by the command lines after the first RESULT",
   pairs)
seen = []
results.from_log(io.StringIO(LOG), other=seen.append)
ok(seen == ["command line: ra=legacy", "lookahead$ cat /a", "ratrace: t=1 ra=legacy",
            "command line: ra=ondemand"], "other(): every non-RESULT line, in order", seen)
ok(results.parse("RESULT {\"cmd\":\"x\"}") == {"cmd": "x"} and results.parse("RESULTS {}") is None
   and results.parse("  RESULT {}") is None, "parse(): only a line that starts with 'RESULT '")
d = tempfile.mkdtemp()
results.write_jsonl(os.path.join(d, "results.jsonl"), rows)
ok(results.from_folder(d) == rows and results.from_jsonl(os.path.join(d, "results.jsonl")) == rows,
   "results.jsonl: read back as written, from the folder or the file")
with open(os.path.join(d, "results.jsonl"), "a") as f:
    f.write("\n{not json\n")
e = raises(lambda: results.from_folder(d))
ok(e is not None and e.endswith("results.jsonl:5: not a JSON line"), "a broken line: its file and number", e)
with open(os.path.join(d, "results.jsonl"), "w") as f:
    f.write('{"cmd":"a"}\n[1]\n')
e = raises(lambda: results.from_folder(d))
ok(e is not None and e.endswith("results.jsonl:2: not a JSON object"), "a line that is not an object", e)
e = raises(lambda: results.from_folder(os.path.join(d, "nothing")))
ok(e is not None and "no results.jsonl" in e, "a folder without results.jsonl: said so", e)
e = raises(lambda: results.from_log(os.path.join(d, "missing.log")))
ok(e is not None and "missing.log" in e, "a missing log: one error naming it", e)
ok(results.select(rows, cmd="cat") == [rows[0], rows[2]] and
   results.select(rows, ra="ondemand") == [rows[2]] and results.select(rows, cmd="nope") == [],
   "select(): by command and by fields")
ok(results.first(rows, cmd="bench", ra="legacy") == rows[1] and results.first(rows, cmd="x") is None,
   "first(): the first match or None")
