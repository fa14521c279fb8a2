#!/usr/bin/env bash
# tools/sweep and tools/bench compare on the smoke suite's image: a grid of
# algorithms and readahead sizes, one boot per point, through GNU parallel's
# remote path (--sshlogin :, the local machine as a remote); the same sweep
# one boot at a time gives the same results.jsonl; a point that fails is a
# row with its error line and the exit status says so; compare finds no
# difference between a folder and itself and finds them between two
# algorithms' results.
cd "$(dirname "$0")/../.." || exit 1
. tests/qemu/lib.sh
tap_plan 15

need_bench_image smoke
A=$TAP_TMP/a B=$TAP_TMP/b
CMD='bench iozone s=4m i=reverse'

tools/sweep --suite smoke --out "$A" --timeout 120 --sshlogin : "$CMD" ra=legacy,ondemand \
	ra_kb=64,256 >"$TAP_TMP/a.log" 2>&1
tap_is "$?" 0 "a sweep of 4 points through --sshlogin : exits 0"
n=$(ls "$A"/points/p*.log 2>/dev/null | grep -c '/p[0-9]*\.log$')
tap_is "$n" 4 "one console log per point"
py() {	# py NAME PYTHON-EXPRESSION over R, the RESULT lines of $A/results.jsonl
	if python3 - "$A/results.jsonl" "$2" <<'PY'
import sys
import results
R = results.from_jsonl(sys.argv[1])
ok = eval(sys.argv[2])
if not ok:
    print("# failed: " + sys.argv[2])
sys.exit(0 if ok else 1)
PY
	then tap_ok "$1"; else tap_not_ok "$1"; fi
}
py "results.jsonl: a line per point, with its keys" \
	"sorted((r['point']['ra'], r['point']['ra_kb'], r['test']) for r in R) == sorted((a, k, 'reverse') for a in ('legacy', 'ondemand') for k in ('64', '256'))"
py "each point ran with its keys: the algorithm and the window" \
	"all(r['ra'] == r['point']['ra'] and r['ra_kb'] == int(r['point']['ra_kb']) and r['verified'] for r in R)"
tap_grep '^ *p004 +ondemand +256 +reverse +[0-9]+ ' "$A/table.txt" "table.txt: a row per point and test"
png() { head -c 8 "$1" 2>/dev/null | od -An -tx1 | tr -d ' \n'; }
tap_is "$(png "$A/kbps-reverse.png")" 89504e470d0a1a0a "a PNG per figure and test (KB/s against ra_kb)"
tap_grep '^set logscale x 2$' "$A/kbps-reverse.gp" "ra_kb's powers of two on a log2 axis"
tap_grep '^set key outside right top vertical' "$A/kbps-reverse.gp" \
	"the legend right of the plot, one curve a line: clear of the x axis' label"

# the same points one boot at a time, and a point whose kernel key is wrong
tools/sweep --suite smoke --out "$B" --timeout 120 -j 1 "$CMD" ra=legacy ra_kb=64,256,3 \
	>"$TAP_TMP/b.log" 2>&1
tap_is "$?" 1 "a sweep with a failing point exits 1"
if cmp -s <(grep '"ra": "legacy"' "$A/results.jsonl" | sort) <(sort "$B/results.jsonl"); then
	tap_ok "the same points one boot at a time: the same results.jsonl lines"
else
	tap_not_ok "the same points one boot at a time: the same results.jsonl lines" \
		"$(diff <(grep '"ra": "legacy"' "$A/results.jsonl" | sort) <(sort "$B/results.jsonl") | head -3)"
fi
tap_grep '^ *p003 +legacy +3 +FAILED: error: .*ra_kb' "$B/table.txt" \
	"the failed point's row holds its error line"
tap_grep '^ *p002 +legacy +256 +reverse +[0-9]+ ' "$B/table.txt" "the sweep went on: the other points' rows"

tools/bench compare "$A" "$A" >"$TAP_TMP/same.log" 2>&1
st=$?
tap_grep '^[0-9]+ rows compared, 0 differ, 0 only' "$TAP_TMP/same.log" "compare: a folder and itself, no difference"
tap_is "$st" 0 "compare: exit 0 when nothing differs"

grep '"ra": "legacy"' "$A/results.jsonl" >"$TAP_TMP/legacy.jsonl"
grep '"ra": "ondemand"' "$A/results.jsonl" >"$TAP_TMP/ondemand.jsonl"
tools/bench compare --ignore ra "$TAP_TMP/legacy.jsonl" "$TAP_TMP/ondemand.jsonl" \
	>"$TAP_TMP/two.log" 2>&1
st=$?
if [ "$st" = 1 ] && grep -Eq '^ +[a-z_.0-9]+ +[0-9.]+ -> [0-9.]+ \([-+][0-9.]+%\)$' "$TAP_TMP/two.log" &&
	grep -Eq '^2 rows compared, [12] differ, 0 only' "$TAP_TMP/two.log"; then
	tap_ok "compare: two algorithms' results differ, figure by figure (exit 1)"
else
	tap_not_ok "compare: two algorithms' results differ, figure by figure (exit 1)" \
		"exit $st" "$(tail -3 "$TAP_TMP/two.log")"
fi
