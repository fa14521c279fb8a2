# Shared helpers for the QEMU test scripts (tests/qemu/*.t): TAP output and
# running the kernel. Source it from the repository root:
#	. tests/qemu/lib.sh
#	tap_plan 3
#	qemu -- run=selftest            # sets QOUT (output file) and QSTATUS
#	tap_is "$QSTATUS" 0 "selftest exits 0"
set -u
# Python in the scripts reads RESULT lines with tools/lib/results.py: import results
export PYTHONPATH="$PWD/tools/lib${PYTHONPATH:+:$PYTHONPATH}"
# The helpers below start python3 for every RESULT line a script checks (hundreds a run)
# and need only the standard library and tools/lib: -S leaves out site and the .pth files
# of its site-packages, 0.11 s of CPU a start against 0.03 s with pyenv's Python 3.11.
TAP_N=0
TAP_TMP=$(mktemp -d)
trap 'rm -rf "$TAP_TMP"' EXIT

tap_plan() { echo "1..$1"; }

tap_ok() {	# tap_ok NAME
	TAP_N=$((TAP_N + 1))
	echo "ok $TAP_N - $1"
}

tap_not_ok() {	# tap_not_ok NAME [DIAGNOSTIC...]
	TAP_N=$((TAP_N + 1))
	echo "not ok $TAP_N - $1"
	shift
	for d in "$@"; do echo "# $d"; done
}

tap_is() {	# tap_is GOT WANT NAME
	if [ "$1" = "$2" ]; then tap_ok "$3"; else tap_not_ok "$3" "got '$1', want '$2'"; fi
}

tap_grep() {	# tap_grep REGEX FILE NAME: FILE has a line matching REGEX
	if grep -Eq -- "$1" "$2"; then tap_ok "$3"; else tap_not_ok "$3" "no line matches /$1/"; fi
}

tap_nogrep() {	# tap_nogrep REGEX FILE NAME
	if grep -Eq -- "$1" "$2"; then tap_not_ok "$3" "unexpected: $(grep -Em1 -- "$1" "$2")"; else tap_ok "$3"; fi
}

QRUN=0
qemu() {	# qemu [run-qemu options] -- KEY=VALUE...: output in $QOUT, status in $QSTATUS
	QRUN=$((QRUN + 1))
	QOUT=$TAP_TMP/run$QRUN.log
	# each boot's wall and CPU seconds as a TAP comment: where a script's time goes
	local TIMEFORMAT='%R %U %S' t
	t=$( { time tools/run-qemu "$@" >"$QOUT" 2>&1; } 2>&1; echo "status $?")
	QSTATUS=${t##*status }
	t=${t%status*}
	awk -v n=$QRUN -v t="$t" 'BEGIN { split(t, f, " ")
		printf "# boot %d: %.1f s wall, %.1f s CPU\n", n, f[1], f[2] + f[3] }'
	if [ -n "${TEST_LOG_DIR:-}" ]; then cp "$QOUT" "$TEST_LOG_DIR/"; fi
}

# The kernel's KTAP (from "KTAP version 1" to the "# ktest:" summary) as a
# subtest of the next result, so the harness counts each kernel test case.
tap_ktap_subtest() {	# tap_ktap_subtest FILE
	sed -n '/^KTAP version 1$/,/^# ktest:/p' "$1" | sed 's/^/    /'
}

# The value of KEY in the first RESULT line whose cmd is CMD (numbers and strings).
result_field() {	# result_field FILE CMD KEY
	python3 -S - "$@" <<'PY'
import sys
import results
path, cmd, key = sys.argv[1:4]
for r in results.from_log(path):
    if r.get("cmd") == cmd and key in r:
        print(r[key])
        break
PY
}

# The value of KEY in the Nth (1-based) RESULT line of command CMD ("" if none).
result_nth() {	# result_nth FILE CMD N KEY
	python3 -S - "$@" <<'PY'
import sys
import results
path, cmd, n, key = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
rows = results.select(results.from_log(path), cmd=cmd)
if len(rows) >= n:
    print(rows[n - 1].get(key, ""))
PY
}

# The RESULT lines matching every KEY=VALUE (the value's text: a string as is, a
# number or true/false as JSON prints it), KEY~REGEX (the text matches REGEX
# whole) or KEY (present), in any key order: how many, then those lines as
# JSON, one a line (tools/lib/results.py reads them). A KEY that is not a key of
# the line may be a path into it: disks.0.model is the model of its first disk.
result_match() {	# result_match FILE TERM...
	python3 -S - "$@" <<'PY'
import json, os, re, sys
import results
path, terms = sys.argv[1], sys.argv[2:]

def text(v):
    return v if isinstance(v, str) else json.dumps(v)

def holds(r, term):
    m = re.match(r"^([A-Za-z0-9_.-]+)(?:(=|~)(.*))?$", term, re.S)
    if not m:
        sys.exit("result_match: bad term %r (KEY, KEY=VALUE or KEY~REGEX)" % term)
    key, op, want = m.groups()
    v = lookup(r, key)
    if v is MISSING:
        return False
    if op is None:
        return True
    return text(v) == want if op == "=" else re.fullmatch(want, text(v)) is not None

MISSING = object()

def lookup(r, key):
    if key in r:
        return r[key]
    v = r
    for part in key.split("."):
        if isinstance(v, dict) and part in v:
            v = v[part]
        elif isinstance(v, list) and part.isdigit() and int(part) < len(v):
            v = v[int(part)]
        else:
            return MISSING
    return v

rows = [r for r in results.from_log(path) if all(holds(r, t) for t in terms)]
print(len(rows))
if not os.environ.get("RESULT_COUNT_ONLY"):
    for r in rows:
        print(json.dumps(r, sort_keys=True))
PY
}

# How many RESULT lines match every TERM (result_match).
result_count() {	# result_count FILE TERM...
	RESULT_COUNT_ONLY=1 result_match "$@"
}

tap_result() {	# tap_result FILE NAME TERM...: some RESULT line matches every TERM
	local f=$1 name=$2
	shift 2
	if [ "$(result_count "$f" "$@")" -gt 0 ] 2>/dev/null; then
		tap_ok "$name"
	else
		tap_not_ok "$name" "no RESULT line has $*"
	fi
}

tap_no_result() {	# tap_no_result FILE NAME TERM...: no RESULT line matches every TERM
	local f=$1 name=$2 n
	shift 2
	n=$(result_count "$f" "$@")
	if [ "$n" = 0 ]; then tap_ok "$name"; else tap_not_ok "$name" "$n RESULT line(s) have $*"; fi
}

# crc32 (zlib) of a file, or of its first N bytes
host_crc32() {	# host_crc32 FILE [BYTES]
	python3 -S - "$@" <<'PY'
import sys, zlib
path = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else -1
crc = 0
with open(path, "rb") as f:
    left = n
    while left != 0:
        b = f.read(1 << 20 if left < 0 else min(left, 1 << 20))
        if not b:
            break
        crc = zlib.crc32(b, crc)
        if left > 0:
            left -= len(b)
print("%08x" % crc)
PY
}

# Build the bench image of SUITE (tools/mkbench SUITE) or bail out of the script, its log
# in the TAP output.
need_bench_image() {	# need_bench_image SUITE
	if ! tools/mkbench "$1" >"$TAP_TMP/mkbench-$1.log" 2>&1; then
		sed 's/^/# /' "$TAP_TMP/mkbench-$1.log"
		echo "Bail out! tools/mkbench $1 failed"
		exit 1
	fi
}
