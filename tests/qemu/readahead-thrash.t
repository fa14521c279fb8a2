#!/usr/bin/env bash
# Readahead thrashing (patch 006's benchmark in miniature): 128 interleaved
# sequential readers of /big.bin in 40 MiB of RAM, so pages read ahead are
# evicted before their reader gets to them. On-demand reads them again with
# readahead; legacy reads them back a page at a time, so its requests are
# much smaller. Every stream's data must be right (crc32: xor over the
# streams' segments, computed on the host from the image with debugfs).
cd "$(dirname "$0")/../.." || exit 1
. tests/qemu/lib.sh
tap_plan 7

img=build/img/ext2-4k.img
tools/mkimage >/dev/null 2>&1
if [ ! -f "$img" ] || ! command -v debugfs >/dev/null; then
	for i in $(seq 7); do tap_ok "# SKIP no test image or no debugfs"; done
	exit 0
fi
debugfs -R "dump /big.bin $TAP_TMP/big.bin" "$img" >/dev/null 2>&1
want=$(python3 - "$TAP_TMP/big.bin" 128 <<'PY'
import sys, zlib
data = open(sys.argv[1], "rb").read()
n = int(sys.argv[2])
per = (len(data) // n) & ~4095
crc = 0
for i in range(n):
    crc ^= zlib.crc32(data[i * per:(i + 1) * per if i + 1 < n else len(data)])
print("%08x" % crc)
PY
)
whole=$(host_crc32 "$TAP_TMP/big.bin")

field() {	# field N KEY: KEY of the Nth rastreams RESULT
	result_nth "$QOUT" rastreams "$1" "$2"
}

cmds="rastreams /big.bin streams=1;drop_caches"
cmds="$cmds;rastreams /big.bin streams=128 ra=ondemand;drop_caches"
cmds="$cmds;rastreams /big.bin streams=128 ra=legacy"
qemu --timeout 600 --disk "$img" -- mem=40M "run=$cmds"
tap_is "$QSTATUS" 0 "rastreams in 40 MiB: exit 0"
tap_is "$(field 1 crc32)" "$whole" "one stream: crc32 of the whole file"
tap_is "$(field 2 crc32)" "$want" "128 streams, ondemand: every segment's data right"
tap_is "$(field 3 crc32)" "$want" "128 streams, legacy: every segment's data right"
od_thr=$(field 2 ra_thrashed_pages) lg_thr=$(field 3 ra_thrashed_pages)
od_avg=$(field 2 avg_req_kb) lg_avg=$(field 3 avg_req_kb)
od_mbps=$(field 2 mbps) lg_mbps=$(field 3 mbps)
if python3 -c "import sys; sys.exit(0 if ${lg_thr:-0} > 0 and ${od_thr:-0} > 0 else 1)"; then
	tap_ok "memory pressure thrashes readahead (ondemand $od_thr, legacy $lg_thr pages)"
else
	tap_not_ok "memory pressure thrashes readahead" "thrashed: ondemand '$od_thr', legacy '$lg_thr'"
fi
if python3 -c "import sys; sys.exit(0 if ${od_avg:-0} >= 2 * ${lg_avg:-1e9} and ${lg_avg:-99} < 32 else 1)"; then
	tap_ok "thrashed pages come back in readahead-sized requests on-demand ($od_avg KiB), page by page on legacy ($lg_avg KiB)"
else
	tap_not_ok "on-demand requests at least twice legacy's under thrashing" \
		"avg_req_kb: ondemand '$od_avg', legacy '$lg_avg'"
fi
echo "# throughput: ondemand $od_mbps MB/s, legacy $lg_mbps MB/s"
tap_nogrep '^error: ' "$QOUT" "no error lines"
