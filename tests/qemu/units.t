#!/usr/bin/env bash
# Durations take units (issue 36): every key that is a time (kernel/kv.h:
# KV_TIME_*) takes ns, us, ms, s or min, as sizes take K/M/G, and a plain
# number keeps the key's own unit. Under the virtual clock a time given with a
# unit runs exactly as the same time given as a plain number (bench thrash: the
# same RESULT line, byte for byte). A value that is not a whole number of the key's unit,
# or no time at all, is one error naming the key and the accepted forms. The
# disk model's keys in ms or s (diskmodel set=, parameter files) too.
cd "$(dirname "$0")/../.." || exit 1
. tests/qemu/lib.sh
tap_plan 10

need_bench_image smoke
IMG=build/img/bench-smoke.img
# RESULT lines of command CMD, the Nth and the Mth, the same? (figures and all)
same() {	# same FILE CMD N M
	python3 - "$@" <<'PY'
import sys
import results
path, cmd, n, m = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
rows = results.select(results.from_log(path), cmd=cmd)
sys.exit(0 if len(rows) >= max(n, m) and rows[n - 1] == rows[m - 1] else 1)
PY
}

run="sleep ms=20;sleep ms=0.02s"
c="drop_caches disk=cold"
run="$run;$c;bench pipeline s=1M think=30000;$c;bench pipeline s=1M think=30us"
run="$run;$c;bench thrash path=/bench/pipe.pat streams=2 rate=256k interval=300 tail=1"
run="$run;$c;bench thrash path=/bench/pipe.pat streams=2 rate=256k interval=0.3s tail=1000ms"
run="$run;diskmodel set=track_switch=1500us,seek_single=500000ns;diskmodel set=track_switch=1.5,seek_single=0.5"
run="$run;sleep ms=250us;bench thrash interval=100x;bench pipeline think=0.5ns;diskmodel set=track_switch=2x"
run="$run;bench thrash interval=61s;bench diskprobe minutes=90s"
qemu --mem 64M --disk "$IMG" --timeout 120 -- ahci_timeout_ms=12s "run=$run"
tap_is "$QSTATUS" 1 "the bad values fail the run"
if same "$QOUT" sleep 1 2; then tap_ok "sleep ms=0.02s sleeps as ms=20"; else tap_not_ok "sleep ms=0.02s sleeps as ms=20"; fi
# (the pipeline's disk times hang on where the platter is when it starts: its reads, not its figures)
tap_is "$(result_nth "$QOUT" bench 1 think_ns)/$(result_nth "$QOUT" bench 2 think_ns)/$(result_nth "$QOUT" bench 2 bytes)" \
	"30000/30000/1048576" "bench pipeline think=30us: think_ns=30000, as think=30000 (ns)"
if same "$QOUT" bench 3 4; then
	tap_ok "bench thrash interval=0.3s tail=1000ms: every figure as interval=300 (ms) tail=1 (s)"
else
	tap_not_ok "bench thrash interval=0.3s tail=1000ms: every figure as interval=300 (ms) tail=1 (s)"
fi
python3 - "$QOUT" <<'PY' && tap_ok "diskmodel set=track_switch=1500us,seek_single=500000ns: the model of 1.5 and 0.5 (ms)" || tap_not_ok "diskmodel set= with time units: the model of the same times in ms"
import sys
import results
d = results.select(results.from_log(sys.argv[1]), cmd="diskmodel")
for r in d:
    r.pop("set", None)
sys.exit(0 if len(d) == 2 and d[0] == d[1] and d[0]["seek_single_ms"] == 0.5 else 1)
PY
want=(
	"sleep: bad value '250us' for key 'ms': expected a time in whole ms: N \\(ms\\) or N with a unit ns\\|us\\|ms\\|s\\|min such as 250us, 20ms or 1\\.5s$"
	"bench thrash: bad value '100x' for key 'interval': expected a time in whole ms"
	"bench pipeline: bad value '0\\.5ns' for key 'think': expected a time in whole ns"
	"bench thrash: interval=61s is out of range 1\\.\\.60000 ms$"
	"bench diskprobe: bad value '90s' for key 'minutes': expected a time in whole min"
	"diskmodel: set=track_switch=2x: track_switch=2x is not a number \\(a key in ms or s also takes a time with a unit"
)
n=0
for w in "${want[@]}"; do
	if grep -Eq "^error: $w" "$QOUT"; then n=$((n + 1)); else echo "# missing: $w"; fi
done
tap_is "$n" "${#want[@]}" "each bad time is one error naming the key, the value and the forms it takes"
tap_is "$(grep -c '^error: ' "$QOUT")" "${#want[@]}" "one error line each"

# the command line: a time key with a unit, and one that is not whole
qemu --timeout 60 -- ahci_timeout_ms=1500us run=params
tap_grep "^error: command line: bad value '1500us' for key 'ahci_timeout_ms': expected a time in whole ms" \
	"$QOUT" "ahci_timeout_ms=1500us: the boot stops, naming the key"
qemu --timeout 60 -- ahci_timeout_ms=12s run=params
tap_is "$QSTATUS" 0 "ahci_timeout_ms=12s boots"
tap_grep '^  ahci_timeout_ms .*\(a time in whole ms: ' "$QOUT" "params: ahci_timeout_ms takes a time"
