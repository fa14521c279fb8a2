#!/usr/bin/env bash
# tools/bench compare on results folders made here, as tools/bench makes them (a
# boot per algorithm, each a "command line:" and its RESULT lines in console.log,
# tools/bench-report's results.jsonl): a folder against itself; two algorithms of
# one folder (--ra A,B), their boots' own lines paired too; folders whose
# algorithm sets differ (only the common ones compared, one line naming the
# rest, whatever order the boots ran in); a change found; nothing in common
# (exit 2, a warning); sweep-style files with --ignore ra; and bad input;
# replay suites of different sets of logs (a warning; issue 38).
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..14"
. tests/host/tap.sh
# expect NAME STATUS REGEX FILE: the last command's exit status and a line of its output
expect() {
	if [ "$st" = "$2" ] && grep -Eq -- "$3" "$4"; then ok "$1"; else
		not_ok "$1" "exit $st (want $2); no line /$3/ in:" "$(head -20 "$4")"
	fi
}

# folder DIR ALGO... [-- CHANGE]: one boot per algorithm, in the order given; CHANGE
# (ALGO:FACTOR) scales that algorithm's Read figure
folder() {
	python3 - "$@" <<'PY'
import json, os, sys
args = sys.argv[1:]
d, algos = args[0], args[1:]
change = {}
if "--" in algos:
    change = dict(a.split(":") for a in algos[algos.index("--") + 1:])
    algos = algos[:algos.index("--")]
base = {"legacy": 100.0, "ondemand": 110.0, "linux": 120.0, "off": 50.0}
os.makedirs(d, exist_ok=True)
with open(os.path.join(d, "console.log"), "w") as f:
    for a in algos:
        k = float(change.get(a, 1))
        f.write('command line: lookahead32.elf run="lsblk;bench suite=quick ra=%s"\n' % a)
        lines = [{"cmd": "lsblk", "count": 1},
                 {"cmd": "bench", "workload": "iozone", "test": "read", "suite": "quick",
                  "ra": a, "kbps": base[a] * k, "secs": 1 / (base[a] * k)},
                 {"cmd": "bench-row", "suite": "quick", "test": "Read", "unit": "KB/s",
                  a: base[a] * k},
                 {"cmd": "bench-suite", "suite": "quick", "ra": a, "failed": 0},
                 {"cmd": "diskstats", "disks": [{"reads": int(base[a] * k)}]}]
        for r in lines:
            f.write("RESULT " + json.dumps(r) + "\n")
PY
	tools/bench-report "$1" >/dev/null 2>&1
}
A=$tmp/a B=$tmp/b C=$tmp/c D=$tmp/d E=$tmp/e
folder "$A" legacy ondemand off
folder "$B" ondemand linux legacy off
folder "$C" legacy ondemand off -- legacy:1.5
folder "$D" linux

tools/bench compare "$A" "$A" >"$tmp/out" 2>&1; st=$?
expect "a folder against itself: nothing differs, exit 0" 0 '^15 rows compared, 0 differ, 0 only' "$tmp/out"

tools/bench compare "$A" --ra legacy,ondemand >"$tmp/out" 2>&1; st=$?
expect "one folder, --ra legacy,ondemand: legacy's row against ondemand's, exit 1" 1 \
	'^\* +"Read" +KB/s +100.0 -> 110.0 \(\+10.00%\)$' "$tmp/out"
if grep -q '^  diskstats$' "$tmp/out" && grep -Eq '^ +disks.0.reads +100 -> 110 ' "$tmp/out" &&
	grep -Eq '^5 rows compared, 3 differ, 0 only in legacy, 0 only in ondemand$' "$tmp/out"; then
	ok "--ra: each boot's own lines (diskstats) paired with the other algorithm's boot's"
else
	not_ok "--ra: each boot's own lines (diskstats) paired with the other algorithm's boot's" \
		"$(cat "$tmp/out")"
fi

tools/bench compare "$A" "$B" >"$tmp/out" 2>&1; st=$?
expect "other algorithm sets, other boot order: the common ones compared, identical, exit 0" 0 \
	'^15 rows compared, 0 differ, 0 only in' "$tmp/out"
expect "... and one line says what only NEW has" 0 "^only in $B: linux \\(not compared\\)$" "$tmp/out"
tools/bench compare "$B" "$A" >"$tmp/out" 2>&1; st=$?
expect "... and what only OLD has" 0 "^only in $B: linux \\(not compared\\)$" "$tmp/out"

tools/bench compare "$A" "$C" >"$tmp/out" 2>&1; st=$?
expect "a figure that moved: its row marked, exit 1" 1 '^\* +"Read" +KB/s legacy +100.0 -> 150.0 \(\+50.00%\)$' \
	"$tmp/out"

tools/bench compare "$A" "$D" >"$tmp/out" 2>&1; st=$?
expect "no algorithm in common: a warning, exit 2" 2 \
	"^bench compare: nothing compared: no algorithm in common .*--ra A,B compares one with another" "$tmp/out"

tools/bench compare "$A" --ra legacy,zfetch >"$tmp/out" 2>&1; st=$?
expect "--ra with an algorithm the folder lacks: named, exit 2" 2 \
	"has no results of algorithm zfetch \\(it has: legacy, ondemand, off\\)" "$tmp/out"

tools/bench compare "$A" "$D" --ra legacy,linux >"$tmp/out" 2>&1; st=$?
expect "two folders, --ra legacy,linux: OLD's legacy against NEW's linux" 1 \
	'^\* +"Read" +KB/s +100.0 -> 120.0 \(\+20.00%\)$' "$tmp/out"

# sweep-style files: every line has its algorithm in ra and in its point's keys
grep '"ra": "legacy"' "$A/results.jsonl" | sed 's/}$/, "point": {"ra": "legacy"}}/' >"$tmp/l.jsonl"
grep '"ra": "ondemand"' "$A/results.jsonl" | sed 's/}$/, "point": {"ra": "ondemand"}}/' >"$tmp/o.jsonl"
tools/bench compare --ignore ra "$tmp/l.jsonl" "$tmp/o.jsonl" >"$tmp/out" 2>&1; st=$?
expect "--ignore ra pairs two files' lines whatever their algorithm" 1 \
	'^2 rows compared, 1 differ, 0 only' "$tmp/out"

bad=0
for args in "$tmp/nosuch $A" "$A --ra a,b,c" "$A" "$A $A --bogus" "$A --ra"; do
	# shellcheck disable=SC2086
	tools/bench compare $args >"$tmp/out" 2>&1
	s=$?
	if [ $s != 2 ] || [ "$(grep -c '^bench compare: ' "$tmp/out")" != 1 ]; then
		bad=1
		echo "# compare $args: exit $s: $(cat "$tmp/out")"
	fi
done
[ $bad = 0 ] && ok "bad input: one error line each, exit 2" || not_ok "bad input: one error line each, exit 2"

# two replay suites of different sets of logs: a warning that their figures need not compare
for s in a b; do
	python3 - "$tmp/replay-$s.jsonl" $s <<'PY'
import json, sys
logs = ["db.log", "sort.log"] if sys.argv[2] == "b" else ["db.log"]
with open(sys.argv[1], "w") as f:
    for lg in logs:
        f.write(json.dumps({"cmd": "bench", "workload": "replay", "test": lg, "suite": "replay",
                            "ra": "linux", "ra_kb": 8192, "secs": 1.5, "disk_reads": 10}) + "\n")
PY
done
tools/bench-compare "$tmp/replay-a.jsonl" "$tmp/replay-b.jsonl" >"$tmp/out" 2>&1; st=$?
expect "replay suites of different logs: a warning naming the log only one has" 1 \
	"^bench compare: warning: the two replayed different sets of logs \(only in $tmp/replay-a.jsonl: none; only in $tmp/replay-b.jsonl: sort.log\)" \
	"$tmp/out"
expect "... and each replay row named with its window" 1 \
	'^  bench replay replay sort.log ra=linux \(window 8192 KiB\)$' "$tmp/out"
