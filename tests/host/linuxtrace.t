#!/usr/bin/env python3
"""The Linux trace parser (tools/lib/linuxtrace.py) on what users bring.

Every reference trace of tests/linux-ref parses, with the event counts its
header's workload implies (readahead events, none under madvise=random, and
block requests); then a property test: 30000 mutations of real
lines (bytes deleted, inserted, replaced, lines cut short or joined; a
fixed seed, so a failure repeats) each either parse to an event that prints
and parses back to itself, or raise the one error the tool reports
(ValueError naming what was wrong, TraceError with the line); never another
exception."""
import os
import random
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools", "lib"))
import linuxtrace  # noqa: E402

REF = os.path.join(ROOT, "tests", "linux-ref")
names = sorted(f[:-6] for f in os.listdir(REF) if f.endswith(".trace"))
print("1..%d" % (len(names) + 3))
n = 0
lines = []
for name in names:
    n += 1
    path = os.path.join(REF, name + ".trace")
    try:
        ev = linuxtrace.parse(path)
        ra = [e for e in ev if e["name"] in linuxtrace.READAHEAD_FIELDS]
        with open(path) as f:
            head = f.readline()
        # MADV_RANDOM (VM_RAND_READ): Linux reads each fault's page alone, no readahead
        # event at all; every other workload has some, and every one reads the disk
        none = " madvise=random" in head
        ok = (len(ra) == 0 if none else len(ra) > 0) and all(e["dev"] == (8, 0) for e in ev) \
            and any(e["name"] == "block_rq_issue" for e in ev)
        print("%s %d - %s: %d events, %d of them readahead" % ("ok" if ok else "not ok", n,
                                                               name, len(ev), len(ra)))
    except linuxtrace.TraceError as e:
        print("not ok %d - %s parses\n# %s" % (n, name, e))
    with open(path) as f:
        lines += [l.rstrip("\n") for l in f if not l.startswith("#")]

# lookahead's own format parses to the same events as the kernel's
n += 1
sample = [l for l in lines if "page_cache_" in l][:200]
mine = [linuxtrace.show(linuxtrace.parse_line(l)) for l in sample]
back = [linuxtrace.key(linuxtrace.parse_line(l)) for l in mine]
same = back == [linuxtrace.key(linuxtrace.parse_line(l)) for l in sample]
print("%s %d - ratrace format=linux lines (show()) parse back to the same events" %
      ("ok" if same else "not ok", n))

rng = random.Random(29)
alphabet = "0123456789abcdefx=:,+() []-_.\t RAWpage_cache_ra_order"
bad, good, other = 0, 0, []
for i in range(30000):
    s = list(rng.choice(lines))
    for _ in range(rng.randint(1, 4)):
        op = rng.randint(0, 4)
        pos = rng.randint(0, len(s))
        if op == 0 and s:
            del s[min(pos, len(s) - 1)]
        elif op == 1:
            s.insert(pos, rng.choice(alphabet))
        elif op == 2 and s:
            s[min(pos, len(s) - 1)] = rng.choice(alphabet)
        elif op == 3:
            s = s[:pos]
        else:
            s += list(" " + rng.choice(lines))
    line = "".join(s)
    try:
        ev = linuxtrace.parse_line(line)
        if ev is not None:
            again = linuxtrace.parse_line(linuxtrace.show(ev))
            if ev["name"] in linuxtrace.READAHEAD_FIELDS and \
                    linuxtrace.key(again) != linuxtrace.key(ev):
                other.append("%r: printed back as %r" % (line, linuxtrace.show(ev)))
        good += 1
    except ValueError:
        bad += 1
    except Exception as e:  # anything else is a crash of the tool
        other.append("%r: %s: %s" % (line, type(e).__name__, e))
n += 1
print("%s %d - 30000 mutated lines: %d parsed, %d refused with a message, %d crashed" %
      ("ok" if not other else "not ok", n, good, bad, len(other)))
for o in other[:5]:
    print("# " + o)
# and through parse_text(): the error names the line
n += 1
try:
    linuxtrace.parse_text("%s\n%s\nnot an event\n" % (lines[0], lines[1]), "t.trace")
    print("not ok %d - a bad third line is refused" % n)
except linuxtrace.TraceError as e:
    ok = str(e).startswith("t.trace:3: ")
    print("%s %d - a bad third line is refused naming it: %s" % ("ok" if ok else "not ok", n, e))
