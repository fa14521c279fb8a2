#!/usr/bin/env bash
# Readahead on a real disk (issue 6): /big.bin (~70 MiB) of the generated
# ext2 image read with each algorithm through read(2) (cat), the fault path
# (mmapcat with each advice), the splice path (splicecat) and the readdir
# path (walk), caches dropped between runs. Every crc32 must match the host's;
# ra=off shows only page-sized requests, on-demand with ra_kb=128 requests of
# nearly 128 KiB and one asynchronous readahead per window.
cd "$(dirname "$0")/../.." || exit 1
. tests/qemu/lib.sh
tap_plan 35

img=build/img/ext2-4k.img
manifest=build/img/manifest-full.txt
tools/mkimage >/dev/null 2>&1
if [ ! -f "$img" ] || [ ! -f "$manifest" ]; then
	for i in $(seq 35); do tap_ok "# SKIP no test image (tools/mkimage failed)"; done
	exit 0
fi
crc_of() { grep "^$1 " "$manifest" | cut -d' ' -f3; }
big_crc=$(crc_of /big.bin)
medium_crc=$(crc_of /medium.bin)

# The value of KEY in the Nth (1-based) RESULT line of command CMD.
rf() {	# rf FILE CMD N KEY
	result_nth "$@"
}
# tap_cmp "EXPR" NAME: EXPR is a python expression over the numbers substituted in
tap_cmp() {
	if python3 -c "import sys; sys.exit(0 if ($1) else 1)" 2>/dev/null; then
		tap_ok "$2"
	else
		tap_not_ok "$2" "false: $1"
	fi
}

cats="cat /big.bin ra=off;drop_caches;cat /big.bin ra=ondemand ra_kb=128;drop_caches"
cats="$cats;cat /big.bin ra=legacy ra_kb=128;drop_caches"
qemu --timeout 600 --disk "$img" -- "run=$cats"
out1=$QOUT st1=$QSTATUS
if grep -q "unknown command 'cat'" "$out1"; then
	for i in $(seq 35); do tap_ok "# SKIP the cat command is not in this kernel yet"; done
	exit 0
fi
tap_is "$st1" 0 "cat with each algorithm: exit 0"
tap_grep '^cat: /big.bin: .* buffer hits \((cold|warm) disk\); readahead legacy: [0-9]+ calls, [0-9]+ windows$' "$out1" \
	"cat's line has the buffer hits, readahead calls and windows"
for n in 1 2 3; do
	ra=$(rf "$out1" cat $n ra)
	tap_is "$(rf "$out1" cat $n crc32)" "$big_crc" "cat ra=${ra:-?}: crc32 matches the host's"
done
off_avg=$(rf "$out1" cat 1 avg_req_kb)
off_pages=$(rf "$out1" cat 1 ra_pages)
tap_cmp "${off_avg:-999} <= 8" "ra=off: requests of a page ($off_avg KiB on average)"
tap_is "$off_pages" 0 "ra=off: no page read ahead"
od_avg=$(rf "$out1" cat 2 avg_req_kb)
od_sync=$(rf "$out1" cat 2 ra_sync)
od_async=$(rf "$out1" cat 2 ra_async)
od_pages=$(rf "$out1" cat 2 ra_pages)
od_calls=$(rf "$out1" cat 2 ra_calls)
tap_cmp "${od_avg:-0} >= 100" "ondemand ra_kb=128: average request near 128 KiB ($od_avg KiB)"
tap_cmp "${od_sync:-99} <= 2 and ${od_async:-0} >= 0.95 * ${od_pages:-0} / 32" \
	"ondemand: one async readahead per 32-page window ($od_async async, $od_sync sync, $od_pages pages)"
tap_cmp "${od_calls:-0} <= 1.05 * (${od_sync:-0} + ${od_async:-0}) + 2" \
	"ondemand: readahead is called only to read ahead ($od_calls calls)"
lg_avg=$(rf "$out1" cat 3 avg_req_kb)
lg_calls=$(rf "$out1" cat 3 ra_calls)
tap_cmp "${lg_avg:-0} >= 100" "legacy ra_kb=128: average request near 128 KiB ($lg_avg KiB)"
tap_cmp "${lg_calls:-0} > ${od_calls:-0}" "legacy is called more often than on-demand ($lg_calls vs $od_calls)"

paths="mmapcat /big.bin advice=sequential;drop_caches;mmapcat /big.bin advice=normal;drop_caches"
paths="$paths;mmapcat /medium.bin advice=random;drop_caches;splicecat /big.bin;drop_caches"
paths="$paths;walk / quiet=1;drop_caches;walk / quiet=1 ra=legacy;rastat"
qemu --timeout 600 --disk "$img" -- "run=$paths"
out2=$QOUT
tap_is "$QSTATUS" 0 "mmapcat, splicecat and walk: exit 0"
tap_is "$(rf "$out2" mmapcat 1 crc32)" "$big_crc" "mmapcat advice=sequential: crc32 matches"
tap_is "$(rf "$out2" mmapcat 2 crc32)" "$big_crc" "mmapcat advice=normal: crc32 matches"
tap_is "$(rf "$out2" mmapcat 3 crc32)" "$medium_crc" "mmapcat advice=random: crc32 matches"
sq_async=$(rf "$out2" mmapcat 1 ra_async)
sq_avg=$(rf "$out2" mmapcat 1 avg_req_kb)
tap_cmp "${sq_async:-0} > 100 and ${sq_avg:-0} >= 64" \
	"mmapcat sequential: async readahead ($sq_async) in large requests ($sq_avg KiB)"
nm_miss=$(rf "$out2" mmapcat 2 mmap_miss)
nm_avg=$(rf "$out2" mmapcat 2 avg_req_kb)
tap_cmp "${nm_miss:-0} > 0 and ${nm_avg:-0} >= 32" \
	"mmapcat normal: read-around on misses ($nm_miss misses, $nm_avg KiB requests)"
rd_calls=$(rf "$out2" mmapcat 3 ra_calls)
rd_avg=$(rf "$out2" mmapcat 3 avg_req_kb)
tap_cmp "${rd_calls:-1} == 0 and ${rd_avg:-999} <= 8" \
	"mmapcat random: no readahead, page-sized reads ($rd_avg KiB)"
tap_is "$(rf "$out2" splicecat 1 crc32)" "$big_crc" "splicecat: crc32 matches"
sp_async=$(rf "$out2" splicecat 1 ra_async)
sp_avg=$(rf "$out2" splicecat 1 avg_req_kb)
tap_cmp "${sp_async:-0} > 100 and ${sp_avg:-0} >= 100" \
	"splicecat: async readahead ($sp_async) in ~128 KiB requests ($sp_avg KiB)"
wk_entries=$(rf "$out2" walk 1 entries)
wk_calls=$(rf "$out2" walk 1 ra_calls)
tap_cmp "${wk_entries:-0} >= 1000 and ${wk_calls:-0} > 0" \
	"walk /: every entry listed ($wk_entries), readdir read ahead on the disk ($wk_calls calls)"
tap_cmp "'$(rf "$out2" walk 1 crc32)' == '$(rf "$out2" walk 2 crc32)' != ''" \
	"walk: the same listing with ra=legacy (crc32 $(rf "$out2" walk 2 crc32))"
tap_nogrep '^error: ' "$out2" "no error lines"

# The algorithms after the seeds read the same bytes; ralist lists every one.
cats="ralist"
for a in context linux thrash-safe zfetch; do cats="$cats;cat /big.bin ra=$a ra_kb=128;drop_caches"; done
qemu --timeout 600 --disk "$img" -- "run=$cats"
out3=$QOUT
for n in 1 2 3 4; do
	ra=$(rf "$out3" cat $n ra)
	tap_is "$(rf "$out3" cat $n crc32)" "$big_crc" "cat ra=${ra:-?}: crc32 matches the host's"
done
tap_is "$(rf "$out3" ralist 1 algorithms)" "context|legacy|linux|off|ondemand|thrash-safe|zfetch" \
	"ralist: every algorithm, by name"

# ratrace: 4 KiB reads with legacy record more decisions than the ring holds
trc="cat /big.bin ra=legacy bs=4096;ratrace first=2;ratrace last=3 file=/big.bin;ratrace file=/none"
qemu --timeout 600 --disk "$img" -- "run=$trc"
out4=$QOUT
tap_grep '^ratrace: [0-9]+ earlier events lost: the ring holds the last 4096' "$out4" \
	"ratrace: says how many earlier events the ring lost"
tap_is "$(rf "$out4" ratrace 1 printed)/$(rf "$out4" ratrace 2 printed)/$(rf "$out4" ratrace 3 printed)" \
	"2/3/0" "ratrace first=2, last=3 file=/big.bin, file=/none print 2, 3 and none"
tap_grep '^ratrace: .*case=legacy-(window|ahead).*(ahead_start=[1-9]|ahead=closed ahead_end=)' "$out4" \
	"ratrace: 2.6.20's ahead window printed open, or closed with where it ended"
# a large ring lives in RAM outside the page cache's layout: QEMU's above mem=
qemu --timeout 600 --mem 600M --disk "$img" -- mem=512M ratrace_events=32768 \
	"run=cat /big.bin ra=legacy bs=4096;ratrace last=1"
tap_cmp "$(rf "$QOUT" ratrace 1 overwritten) == 0 and $(rf "$QOUT" ratrace 1 held) > 4096" \
	"ratrace_events=32768: the whole run held ($(rf "$QOUT" ratrace 1 held) events)"
qemu --timeout 60 --disk "$img" -- ratrace_events=10 "run=ratrace"
tap_grep '^error: readahead: ratrace_events=10: 4096 to 262144' "$QOUT" \
	"ratrace_events=10: one error naming the key and the range"

# diskstats reset=1 zeroes everything it prints: the disk's, the elevator's and the model's
qemu --timeout 60 --disk "$img" -- "run=cat /medium.bin;diskstats reset=1;diskstats"
python3 - "$QOUT" <<'PY' && tap_ok "diskstats reset=1: the disk's, the elevator's and the model's counters all zero" || tap_not_ok "diskstats reset=1 zeroes every counter it prints"
import sys
import results
ds = results.select(results.from_log(sys.argv[1]), cmd="diskstats")
before, after = ds[0]["disks"][0], ds[1]["disks"][0]
keys = ["reads", "sectors_read", "elv_dispatched", "elv_sorted", "elv_expired", "congested"]
ok = before["reads"] > 0 and before["elv_dispatched"] > 0 and all(after[k] == 0 for k in keys)
ok = ok and after["model"]["commands"] == 0 and sum(after["size_hist"]) == 0
sys.exit(0 if ok else 1)
PY
