"""TAP output for the host test scripts written in Python (tests/host/*.t), as
tests/host/tap.sh is for the shell ones:

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from tap import ok
    print("1..2")
    ok(cond, "what was checked", why)   # why: a text or a list of lines, shown
                                        # as "# " lines only when cond is false
    sys.exit(status())                  # 1 when any ok() failed, else 0
"""

_n = 0
_failed = 0


def ok(cond, what, why=""):
    global _n, _failed
    _n += 1
    _failed += not cond
    print("%s %d - %s" % ("ok" if cond else "not ok", _n, what))
    if cond or not why:
        return
    for line in why if isinstance(why, (list, tuple)) else str(why).split("\n"):
        print("# " + str(line))


def status():
    """The script's exit status: 1 when any ok() so far failed, else 0."""
    return 1 if _failed else 0
