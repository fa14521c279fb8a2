#!/usr/bin/env python3
"""No kernel function runs over 120 lines (issue 40): a function with one job
and a name a reader can look up, not a page of steps.

Every function defined in a .c or .h file of the kernel's folders (boot/ kernel/ mm/
drivers/ fs/ bench/ init/) is measured as issue 40 measured them: from the line
its definition opens on (the first line of its declarator, however many lines
that takes) to the line of its closing brace, the difference of the two line
numbers. The code is in the kernel's style (clang-format's BreakBeforeBraces:
Linux, .clang-format): a function's body opens with "{" alone at column 0 and
closes with "}" alone at column 0, and nothing else does.

One test per folder, failing (exit 1) with each long function's file, line,
name and length; a "{" at column 0 with no "}" to close it fails too, rather
than leaving the rest of the file unmeasured. Then the script checks itself,
run whole on made-up trees: a function of 120 lines passes, one of 121 fails,
and so does one whose declarator spans lines, or has a version per branch
of an #if. FUNCLEN_ROOT=DIR checks DIR
instead of this tree (the self-check's own runs)."""
import os
import re
import subprocess
import sys
import tempfile

SELF = os.path.abspath(__file__)
ROOT = os.environ.get("FUNCLEN_ROOT") or os.path.dirname(os.path.dirname(os.path.dirname(SELF)))
FOLDERS = ["boot", "kernel", "mm", "drivers", "fs", "bench", "init"]
LIMIT = 120
NAME = re.compile(r"(\w+)\s*\(")


CONDITIONAL = re.compile(r"#\s*(if|ifdef|ifndef|elif|else|endif)\b")


def opening_line(lines, brace):
    """Index of the first line of the declarator before the "{" at lines[brace]:
    the lines above it up to a blank line, a comment's end, a preprocessor line
    other than a conditional (a declarator may have one version per branch) or the
    end of a declaration or of another definition."""
    i = brace
    while i > 0:
        above = lines[i - 1].rstrip()
        if CONDITIONAL.match(above):
            i -= 1
            continue
        if (not above or above.startswith(("#", "/*", " *", "//", "}")) or
                above.endswith((";", "*/", "{", "}"))):
            break
        i -= 1
    while i < brace and CONDITIONAL.match(lines[i]):
        i += 1
    return i


def functions(path):
    """(name, first line, length) of each function of one file, and errors:
    ["file:line: ..."] for a body that never closes."""
    with open(path, errors="replace") as f:
        lines = f.read().split("\n")
    found, errors = [], []
    i = 0
    while i < len(lines):
        if lines[i].rstrip() != "{":
            i += 1
            continue
        start = opening_line(lines, i)
        end = i + 1
        while end < len(lines) and not lines[end].startswith("}"):
            end += 1
        if end == len(lines):
            errors.append("%s:%d: a body opened here never closes at column 0" % (path, i + 1))
            break
        decl = " ".join(lines[start:i])
        m = NAME.search(decl)
        found.append((m.group(1) if m else decl.strip() or "?", start + 1, end - start))
        i = end + 1
    return found, errors


sys.path.insert(0, os.path.dirname(SELF))
from tap import ok, status  # noqa: E402 (tests/host/tap.py)

print("1..%d" % (len(FOLDERS) + (4 if not os.environ.get("FUNCLEN_ROOT") else 0)))
for folder in FOLDERS:
    d = os.path.join(ROOT, folder)
    names = sorted(n for n in os.listdir(d) if n.endswith((".c", ".h"))) if os.path.isdir(d) else []
    long, count = [], 0
    for name in names:
        rel = os.path.join(folder, name)
        found, errors = functions(os.path.join(ROOT, rel))
        long += [e.replace(os.path.join(ROOT, ""), "") for e in errors]
        count += len(found)
        long += ["%s:%d: %s is %d lines" % (rel, line, fn, n)
                 for fn, line, n in found if n > LIMIT]
    ok(not long, "%s/: no function over %d lines (%d functions)" % (folder, LIMIT, count), long)

if os.environ.get("FUNCLEN_ROOT"):
    sys.exit(status())


def run_on(files):
    """This script run whole on a made-up tree of FILES {path: text}: (exit, output)."""
    with tempfile.TemporaryDirectory() as t:
        for rel, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(t, rel)), exist_ok=True)
            with open(os.path.join(t, rel), "w") as f:
                f.write(text)
        p = subprocess.run([sys.executable, SELF], env=dict(os.environ, FUNCLEN_ROOT=t),
                           capture_output=True, text=True)
        return p.returncode, p.stdout + p.stderr


def function(name, length, decl_lines=1):
    """C text of a function @length lines long by the count above, its
    declarator on @decl_lines lines."""
    decl = ["static int %s(int a," % name] + ["\t\tint b%d," % k for k in range(decl_lines - 1)]
    decl[-1] = decl[-1].rstrip(",") + ")"
    body = ["\ta++;"] * (length - decl_lines - 2)
    return "\n".join(["/* a comment */"] + decl + ["{"] + body + ["\treturn a;", "}", ""])


code, out = run_on({"mm/ok.c": function("at_limit", LIMIT) + "\n" + function("tiny", 4)})
ok(code == 0 and "mm/: no function over" in out,
   "a function of %d lines: the script exits 0" % LIMIT, out)
code, out = run_on({"mm/ok.c": function("at_limit", LIMIT),
                    "bench/long.c": function("tiny", 4) + "\n" + function("too_long", LIMIT + 1)})
ok(code == 1 and "bench/long.c:9: too_long is %d lines" % (LIMIT + 1) in out and
   "at_limit" not in out, "one of %d: the script exits 1, naming it" % (LIMIT + 1), out)
code, out = run_on({"kernel/k.c": function("wide", LIMIT + 1, decl_lines=3)})
ok(code == 1 and "kernel/k.c:2: wide is %d lines" % (LIMIT + 1) in out,
   "a declarator over three lines counts from its first", out)
text = function("two", LIMIT - 1).replace("static int two(int a)",
                                          "#ifdef X\nint two(int a)\n#else\nint two2(int b)\n#endif")
code, out = run_on({"mm/two.h": text})
ok(code == 1 and "mm/two.h:3: two is %d lines" % (LIMIT + 2) in out,
   "a declarator in two versions (#ifdef, in a header) counts from the first", out)
sys.exit(status())
