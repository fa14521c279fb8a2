"""lookahead's results as every tool and test reads them.

The kernel prints one line per measured thing, `RESULT {json}` (kernel/result.c),
among its other console lines; tools/bench-report keeps those of a results
folder's console.log in DIR/results.jsonl, one JSON object per line, and
tools/sweep does the same for a sweep. This module is the one reader of both:

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), "lib"))
    import results                          # a tool in tools/; a test: PYTHONPATH=tools/lib
    for r in results.from_log("console.log"):           # dicts, in log order
        ...
    rows = results.from_folder("results/seeds-...")    # DIR/results.jsonl
    benches = results.select(rows, cmd="bench", workload="thrash")

A RESULT line that is not JSON (a console line cut by a reset, or two
writers' lines run together) is skipped in a log, as bench-report always
did; in results.jsonl, which a tool wrote, it is an error naming the file
and line. Paths of a log may also be "-" (standard input) or an open file.
"""
import json
import os
import sys

PREFIX = "RESULT "


class ResultsError(Exception):
    """A results file that cannot be read: the message names the file (and line)."""


def parse(line):
    """The JSON object of one RESULT line; None for any other line or a malformed one."""
    if not line.startswith(PREFIX):
        return None
    try:
        r = json.loads(line[len(PREFIX):])
    except ValueError:
        return None
    return r if isinstance(r, dict) else None


def _lines(source):
    if hasattr(source, "read"):
        return source, False
    if source == "-":
        return sys.stdin, False
    try:
        return open(source, errors="replace"), True
    except OSError as e:
        raise ResultsError("%s: %s" % (source, e.strerror or e))


def from_log(source, boots=False, other=None):
    """The RESULT lines of a console log, as dicts in log order.

    boots=True gives (dict, boot) pairs instead: each boot of a joined log
    starts with its "command line: " line, so boot counts those seen after
    the first RESULT. other(line) is called with every line that is not a
    RESULT line (stripped of its line end), for callers that read the
    kernel's other lines too (ratrace, diskmodel:, rawread-lat:)."""
    f, mine = _lines(source)
    out, boot = [], 0
    try:
        for line in f:
            line = line.rstrip("\r\n")
            r = parse(line)
            if r is not None:
                out.append((r, boot) if boots else r)
                continue
            if line.startswith("command line: ") and out:
                boot += 1
            if other is not None and not line.startswith(PREFIX):
                other(line)
    finally:
        if mine:
            f.close()
    return out


def from_jsonl(path):
    """Every line of a results.jsonl file, as dicts; a line that is not a JSON object is an error."""
    rows = []
    try:
        with open(path) as f:
            for n, line in enumerate(f, 1):
                line = line.strip()
                if not line:
                    continue
                try:
                    r = json.loads(line)
                except ValueError:
                    raise ResultsError("%s:%d: not a JSON line" % (path, n))
                if not isinstance(r, dict):
                    raise ResultsError("%s:%d: not a JSON object" % (path, n))
                rows.append(r)
    except OSError as e:
        raise ResultsError("%s: %s" % (path, e.strerror or e))
    return rows


def jsonl_path(arg):
    """A results folder's results.jsonl, or arg itself when it names a file."""
    return os.path.join(arg, "results.jsonl") if os.path.isdir(arg) else arg


def from_folder(arg):
    """A results folder's (or a results.jsonl file's) lines, as dicts."""
    path = jsonl_path(arg)
    if not os.path.isfile(path):
        raise ResultsError("%s: no results.jsonl (a results folder of tools/bench or "
                           "tools/sweep)" % arg)
    return from_jsonl(path)


def write_jsonl(path, rows):
    """results.jsonl as bench-report writes it: one object per line, keys sorted."""
    with open(path, "w") as f:
        for r in rows:
            f.write(json.dumps(r, sort_keys=True) + "\n")


def select(rows, cmd=None, **fields):
    """The rows of command cmd (any, if None) whose fields equal the given values."""
    return [r for r in rows
            if (cmd is None or r.get("cmd") == cmd)
            and all(r.get(k) == v for k, v in fields.items())]


def first(rows, cmd=None, **fields):
    """The first row select() finds, or None."""
    m = select(rows, cmd, **fields)
    return m[0] if m else None


def provenance(folder):
    """One line saying what a results folder measured: its commit, date, host and QEMU.

    From DIR/provenance.json (tools/helpers/provenance, which tools/bench runs for every
    folder); a folder made before that existed says so instead of guessing.
    """
    path = os.path.join(folder, "provenance.json")
    try:
        with open(path) as f:
            p = json.load(f)
    except FileNotFoundError:
        return "%s (no provenance.json: commit, host and date not recorded)" % folder
    except (OSError, ValueError) as e:
        raise ResultsError("%s: %s" % (path, e))
    if not isinstance(p, dict):
        raise ResultsError("%s: not a JSON object" % path)
    return ("%s at %s, %s; %s, %s cores, %s; %s; %s (%s)"
            % (folder, p.get("commit", "?"), p.get("date", "?"), p.get("cpu", "?"),
               p.get("cores", "?"), p.get("memory", "?"), p.get("system", "?"),
               p.get("qemu", "?"), p.get("source", "?")))
