"""TAP output for the host test scripts written in Python (tests/host/*.t), as
tests/host/tap.sh is for the shell ones:

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from tap import ok
    print("1..2")
    ok(cond, "what was checked", why)   # why: a text or a list of lines, shown
                                        # as "# " lines only when cond is false
"""

_n = 0


def ok(cond, what, why=""):
    global _n
    _n += 1
    print("%s %d - %s" % ("ok" if cond else "not ok", _n, what))
    if cond or not why:
        return
    for line in why if isinstance(why, (list, tuple)) else str(why).split("\n"):
        print("# " + str(line))
