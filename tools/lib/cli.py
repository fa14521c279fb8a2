"""The tools' one command-line convention: argparse, with a bad argument said in one line.

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), "lib"))
    import cli
    ap = cli.parser("tools/NAME", __doc__, usage="tools/NAME A B [--x N]")

--help prints the usage and the tool's docstring, exit 0; anything argparse
refuses (an unknown option, a missing value or argument) is one line,
"NAME: what was wrong (see --help)" on stderr, exit 2 (NAME: prog without
its folder), as tests/host/tools-help.t checks for every tool.
"""
import argparse
import sys


class OneLineParser(argparse.ArgumentParser):
    def error(self, message):
        name = self.prog.replace("tools/helpers/", "").replace("tools/", "")
        sys.stderr.write("%s: %s (see --help)\n" % (name, message))
        sys.exit(2)


def parser(prog, doc, usage=None):
    return OneLineParser(prog=prog, description=doc, usage=usage,
                         formatter_class=argparse.RawDescriptionHelpFormatter)
