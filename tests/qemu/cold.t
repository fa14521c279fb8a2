#!/usr/bin/env bash
# A cold disk between runs (drop_caches disk=cold): the same cat twice, each
# after drop_caches disk=cold, gives the same RESULT line, key for key, and
# says "cold":true; after a plain drop_caches the drive's buffer still holds
# what the run before read, the second run's buffer hits are reported and
# it says "cold":false. A disk that times itself (QEMU's, standing in for a
# real one) is read cold from its far end, and the command says so. The
# suites make the disk cold before each algorithm's run.
cd "$(dirname "$0")/../.." || exit 1
. tests/qemu/lib.sh
tap_plan 11

need_bench_image smoke
IMG=build/img/bench-smoke.img
CAT="cat /bench/big.pat"

qemu --mem 64M --disk "$IMG" --timeout 300 -- \
	"run=$CAT;drop_caches disk=cold;$CAT;drop_caches disk=cold;$CAT;drop_caches;$CAT"
tap_is "$QSTATUS" 0 "four cats, two after drop_caches disk=cold, one after drop_caches"
python3 - "$QOUT" >"$TAP_TMP/cats" <<'PY'
import json, sys
import results
for r in results.select(results.from_log(sys.argv[1]), cmd="cat"):
    print(json.dumps(r, sort_keys=True))
PY
tap_is "$(grep -c . "$TAP_TMP/cats")" 4 "four cat RESULT lines"
c2=$(sed -n 2p "$TAP_TMP/cats")
c3=$(sed -n 3p "$TAP_TMP/cats")
c4=$(sed -n 4p "$TAP_TMP/cats")
if [ "$c2" = "$c3" ]; then
	tap_ok "cold, twice: the same RESULT line, key for key"
else
	tap_not_ok "cold, twice: the same RESULT line, key for key" "$c2" "$c3"
fi
field() { echo "$1" | python3 -c "import json, sys; print(json.load(sys.stdin)['$2'])"; }
tap_is "$(field "$c2" cold)/$(field "$c4" cold)" "True/False" \
	"RESULT says cold after disk=cold, not after a plain drop_caches"
tap_is "$(python3 -c "print($(field "$c4" dm_buffer_hits) > $(field "$c2" dm_buffer_hits))")" True \
	"warm: more buffer hits than cold ($(field "$c4" dm_buffer_hits) against $(field "$c2" dm_buffer_hits))"
tap_is "$(grep -c '^cat: .* buffer hits (warm disk)' "$QOUT")/$(grep -c '^cat: .* buffer hits (cold disk)' "$QOUT")" \
	2/2 "the readable line says cold or warm beside the buffer hits"
tap_grep '^drop_caches: sda: modelled disk made cold: buffer empty' "$QOUT" \
	"drop_caches disk=cold says what it did to the modelled disk"

# QEMU's own timing: no model to reset; the far end is read instead
qemu --mem 64M --disk "$IMG" --disk-model none --timeout 120 -- \
	"run=diskstats reset=1;drop_caches disk=cold;diskstats;$CAT;drop_caches disk=hot"
tap_grep '^drop_caches: sda: emulated disk read cold: 32768 KiB from sector [0-9]+ on \(its far end\)' \
	"$QOUT" "an emulated disk is read cold from its far end, and the command says so"
tap_result "$QOUT" "diskstats counts the 32 MiB it read" cmd=diskstats disks.0.sectors_read=65536
tap_grep "^error: drop_caches: bad value 'hot' for key 'disk'" "$QOUT" "drop_caches disk=hot: an error naming the value"

# the suites: every algorithm's run begins on a cold disk
qemu --mem 64M --disk "$IMG" --timeout 300 -- "run=bench suite=smoke ra=legacy,ondemand"
runs=$(grep -c '^bench: suite smoke: ' "$QOUT")
cold=$(result_count "$QOUT" cmd=bench suite=smoke cold=true)
tap_is "$QSTATUS/$cold" "0/$runs" \
	"the smoke suite: each of its $runs runs begins on a cold disk, and its first phase says so"
