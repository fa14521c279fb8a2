#!/usr/bin/env bash
# The harness must not move what it measures: under the virtual clock the
# benchmark framework's own work (latency histogram, pattern check,
# progress lines) runs with the kernel's clock stopped, so verify=1 and
# verify=0 give the same RESULT lines but for "verified", for each
# algorithm, reading in order and at random (iozone's read and random
# tests); harness_secs is 0 there. On a real
# clock (QEMU's disk untimed) the harness costs real time and harness_secs
# says how much.
cd "$(dirname "$0")/../.." || exit 1
. tests/qemu/lib.sh
tap_plan 7

need_bench_image smoke
IMG=build/img/bench-smoke.img

# The bench RESULT lines of a log without "verified".
results() {	# results FILE
	python3 - "$1" <<'PY'
import json, sys
import results
for r in results.select(results.from_log(sys.argv[1]), cmd="bench"):
    r.pop("verified", None)
    print(json.dumps(r, sort_keys=True))
PY
}

RUNS="bench iozone i=read ra=ondemand;bench iozone i=random ra=ondemand;drop_caches;bench iozone i=read ra=legacy;bench iozone i=random ra=legacy"
for v in 1 0; do
	qemu --mem 64M --disk "$IMG" --timeout 300 -- "run=${RUNS//iozone/iozone verify=$v}"
	eval "s$v=\$QSTATUS"
	results "$QOUT" >"$TAP_TMP/v$v"
	cp "$QOUT" "$TAP_TMP/log$v"
done
tap_is "$s1$s0" 00 "iozone with verify=1 and verify=0 runs"
tap_is "$(grep -c . "$TAP_TMP/v1")" 4 "read and random for each algorithm"
if cmp -s "$TAP_TMP/v1" "$TAP_TMP/v0"; then
	tap_ok "verify=1 and verify=0: the same RESULT lines but for verified"
else
	tap_not_ok "verify=1 and verify=0: the same RESULT lines but for verified" \
		"$(python3 - "$TAP_TMP/v1" "$TAP_TMP/v0" <<'PY'
import json, sys
for x, y in zip(*(map(json.loads, open(f)) for f in sys.argv[1:3])):
    d = {k: (x.get(k), y.get(k)) for k in set(x) | set(y) if x.get(k) != y.get(k)}
    if d:
        print(x["test"], x["ra"], d)
PY
)"
fi
tap_is "$(result_count "$TAP_TMP/log1" verified=true)/$(result_count "$TAP_TMP/log0" verified=false)" \
	4/4 "verify=1 checks every byte; verify=0 checks none"
tap_is "$(result_count "$TAP_TMP/log1" harness_secs=0.0)" 4 \
	"virtual clock: the harness costs the measured run nothing (harness_secs 0)"

# A real clock: the harness's time is counted, and reported.
qemu --mem 64M --disk "$IMG" --disk-model none --timeout 120 -- \
	"run=bench iozone i=read verify=1;drop_caches;bench iozone i=read verify=0"
tap_is "$QSTATUS" 0 "real clock: the runs succeed"
if python3 - "$QOUT" <<'PY'; then
import sys
import results
r = results.select(results.from_log(sys.argv[1]), cmd="bench")
v1, v0 = r[0], r[1]
print("# verify=1: harness %.6f s of %.6f s; verify=0: %.6f s of %.6f s" %
      (v1["harness_secs"], v1["secs"], v0["harness_secs"], v0["secs"]))
sys.exit(not (v1["clock"] == "real" and v1["harness_secs"] > 0 and
              v1["harness_secs"] > v0["harness_secs"] and v1["harness_secs"] < v1["secs"]))
PY
	tap_ok "real clock: harness_secs counts the pattern check (more with verify=1)"
else
	tap_not_ok "real clock: harness_secs counts the pattern check (more with verify=1)"
fi
