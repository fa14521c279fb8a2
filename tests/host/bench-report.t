#!/usr/bin/env bash
# tools/bench-report on a console log written here: --help (not a folder's
# name); one name per algorithm in every table (ra=, the kernel's titles only
# in the line naming them); KB/s said to be KiB/s and MB/s decimal; the plots'
# gnuplot scripts beside them: thrash.png titled with the run's own interval,
# thrash-trace.png drawing no series that is zero all along on its log axis
# (and naming it), window.png's coinciding curves each drawn its own way.
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..9"
. tests/host/tap.sh
grep_ok() { # grep_ok NAME REGEX FILE
	if grep -Eq -- "$2" "$3"; then ok "$1"; else not_ok "$1" "no line /$2/ in $3:" "$(head -12 "$3")"; fi
}

(cd "$tmp" && "$OLDPWD/tools/bench-report" --help >"$tmp/help" 2>&1)
st=$?
if [ $st = 0 ] && grep -q '^    tools/bench-report DIR' "$tmp/help" && [ ! -e "$tmp/--help" ]; then
	ok "--help: the usage, exit 0, not a folder named --help"
else
	not_ok "--help: the usage, exit 0, not a folder named --help" "exit $st" "$(ls -a "$tmp")"
fi

D=$tmp/res
mkdir -p "$D"
python3 - "$D/console.log" <<'PY'
import json, sys
out = open(sys.argv[1], "w")
def res(**r):
    out.write("RESULT " + json.dumps(r) + "\n")
titles = {"legacy": "2.6.20", "ondemand": "on-demand", "linux": "linux-6.17", "off": "off"}
for a, kbps in (("legacy", 65000.0), ("ondemand", 66000.0), ("linux", 67000.0)):
    out.write('command line: lookahead32.elf run="lsblk;ralist;bench suite=quick ra=%s"\n' % a)
    res(cmd="ralist", algorithms="legacy|linux|off|ondemand", titles=titles, default="ondemand")
    res(cmd="bench", workload="iozone", test="read", suite="quick", ra=a, kbps=kbps, secs=1.0,
        verified=True, clock="virtual", disk="modelled")
    res(cmd="bench-row", suite="quick", test="Read", unit="KB/s", **{a: kbps})
    res(cmd="bench-suite", suite="quick", ra=a, failed=0, rows=1, clock="virtual")
    # the same windows for every algorithm: their curves coincide
    for i, (off, actual) in enumerate(((0, 32), (16, 64), (48, 128), (176, 256))):
        out.write("ratrace: t=0.%d file=/bench/pipe.pat algo=%s case=x offset=%d req=16 "
                  "actual=%d io=sync\n" % (i, a, off, actual))
for a in ("legacy", "ondemand"):
    out.write('command line: lookahead32.elf run="bench thrash streams=20 interval=100 trace=5"\n')
    for t in range(1, 4):
        res(cmd="bench-sample", workload="thrash", ra=a, t=t, streams=min(20, 10 * t + 1),
            mbps=1.0 * t, disk_mbps=2.0 * t, avg_req_kb=64.0, thrashed_pages=0, thrashed_windows=0,
            windows=5, sync_windows=2 if a == "legacy" else 0, readpage_ios=3, deferred=0,
            cached_kb=1000)
        res(cmd="bench-trace", workload="thrash", ra=a, t=t, stream=5, pos_kb=100 * t,
            lag_ms=10.0 * t, reads=25, stall_ms=1.0, windows=1, readpage_ios=0,
            thrashed_windows=0, deferred=0)
    res(cmd="bench", workload="thrash", test="thrash", ra=a, mbps=2.0, secs=3.0, streams=20,
        interval_ms=100, rate=102400, max_mbps=3.0, min_avg_req_kb=64.0, ramp_max_mbps=3.0,
        max_disk_mbps=6.0, thrashed_pages=0, thrashed_windows=0, ra_windows=15, readpage_ios=9,
        ra_deferred=0, avg_req_kb=64.0, catchup=0, files=0, verified=True, clock="virtual",
        disk="modelled")
out.write("lookahead: exit success\n")
PY
tools/bench-report "$D" >"$tmp/report.log" 2>&1 || echo "# bench-report: $(tail -3 "$tmp/report.log")"

grep_ok "table.txt's first line: each algorithm's ra= name with the kernel's title" \
	'^algorithms \(ra=, the kernel.s title\): legacy \(2\.6\.20\), ondemand \(on-demand\), linux \(linux-6\.17\)$' \
	"$D/table.txt"
if [ "$(grep -c 'linux-6\.17\|on-demand\|2\.6\.20' "$D/table.txt")" = 1 ] &&
	grep -Eq '^ +legacy +ondemand +gain +linux +gain$' "$D/table.txt"; then
	ok "every table names the algorithms by ra=: the titles only in that first line"
else
	not_ok "every table names the algorithms by ra=: the titles only in that first line" \
		"$(grep -n 'linux-6\.17\|on-demand\|2\.6\.20\|legacy' "$D/table.txt")"
fi
grep_ok "the suite's table says KB/s is KiB/s and MB/s decimal" \
	'^quick suite: KB/s: KiB \(1024 bytes\) per second, as iozone.s; MB/s: 10\^6 bytes per second$' \
	"$D/table.txt"
grep_ok "the thrashing table too" '^  \(KB/s: KiB .*MB/s: 10\^6 bytes per second\)$' "$D/table.txt"
grep_ok "thrash.png's title: the run's own interval and rate" \
	'title "readahead thrashing: a paced reader \(100 KiB/s\) added every 100 ms ' "$D/thrash.gp"
if grep -q 'calls deferred' "$D/thrash-trace.gp" && ! grep -q "using 1:3 with lines dt 2 lw 2 title '[a-z]*: calls deferred" "$D/thrash-trace.gp" &&
	grep -q 'zero all along, not drawn: legacy: calls deferred (congested); ondemand: calls deferred (congested); ondemand: windows waited for' "$D/thrash-trace.gp" &&
	grep -q "title 'legacy: windows waited for'" "$D/thrash-trace.gp"; then
	ok "thrash-trace.png: series zero all along are not drawn on the log axis, and are named"
else
	not_ok "thrash-trace.png: series zero all along are not drawn on the log axis, and are named" \
		"$(grep -n 'deferred\|waited' "$D/thrash-trace.gp")"
fi
styles=$(grep -o "with linespoints lw [0-9]* dt [0-9]* pt [0-9]*" "$D/window.gp" | sort -u | wc -l)
curves=$(grep -o "window.dat' index" "$D/window.gp" | wc -l)
if [ "$curves" = 3 ] && [ "$styles" = 3 ]; then
	ok "window.png: coinciding curves each with a width, dash and point of its own"
else
	not_ok "window.png: coinciding curves each with a width, dash and point of its own" \
		"$curves curves, $styles styles"
fi
if [ -s "$D/thrash.png" ] && [ -s "$D/thrash-trace.png" ] && [ -s "$D/window.png" ] &&
	! grep -q 'gnuplot failed' "$tmp/report.log"; then
	ok "gnuplot drew every plot from those scripts"
else
	not_ok "gnuplot drew every plot from those scripts" "$(cat "$tmp/report.log" | tail -5)"
fi
