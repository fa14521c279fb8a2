#!/usr/bin/env bash
# ra=linux against today's Linux, without booting Linux: tools/linux-ref
# compare replays the reference workloads (tests/linux-ref/workloads) in a
# boot of lookahead per image and compares each one's readahead events with
# the trace Debian's kernel printed for it (tests/linux-ref/NAME.trace,
# recorded by tools/linux-ref record), event by event and field by field,
# and the sectors read. Each workload's rule is docs/linux-ref.md's, and
# every one passes: mmap-huge too, whose touches are 400 ms apart and
# replayed with that timing as sleeps on both sides (timing=recorded
# think=sleep), so that every folio's I/O is done when the next touch
# comes in both kernels (with no pause, whether it is decides mmap_miss,
# and Linux's disk and lookahead's differ). The three under memory pressure
# (runs= in workloads) compare by aggregates with Linux's recorded runs,
# which were recorded under the classic LRU (lru_gen=off): each must lie
# within Linux's own spread (docs/linux-ref.md, "Which reclaim").
#
# Then the mmap image's boot again, its disk throttled in QEMU (30 MB/s of
# host reads): a large folio read by two requests, and mapped by a fault
# or fault-around while the second was still in flight, read as frames the
# disk had not filled yet. QEMU's DMA lands at host time, which the virtual
# clock does not see, so without the throttle the race showed only under
# host load; with it, it showed every time (wrong data in mmap-madv-seq).
cd "$(dirname "$0")/../.." || exit 1
. tests/qemu/lib.sh
n=$(awk '!/^#/ && NF { print $1 }' tests/linux-ref/workloads | wc -l)
tap_plan $((n + 4))

out=$TAP_TMP/compare
tools/linux-ref compare --out "$out" >"$TAP_TMP/stdout" 2>&1
status=$?
if [ "$status" = 0 ] && [ -f "$out/compare.txt" ]; then
	tap_ok "tools/linux-ref compare: exit status 0, every workload as Linux"
else
	# the tool stopped before its table: what it said is the diagnosis
	tap_not_ok "tools/linux-ref compare: exit status 0 and its table, every workload as Linux" \
		"status $status, $out/compare.txt $([ -f "$out/compare.txt" ] || echo missing)" \
		"$(tail -15 "$TAP_TMP/stdout")"
	cp "$TAP_TMP/stdout" build/test-logs/linux-ref-compare.stdout 2>/dev/null
fi
while read -r name _ keys; do
	case "$name" in \#*|"") continue ;; esac
	line=$(grep -E "^$name " "$out/compare.txt")
	case " $keys " in
	*" runs="*)
		if echo "$line" | grep -q "by aggregates: within Linux's spread$"; then
			tap_ok "$name: within Linux's spread on every ruled aggregate"
		else
			tap_not_ok "$name: within Linux's spread on every ruled aggregate" "$line" \
				"$(sed -n "/^$name /,/^[a-z]/p" "$out/compare.txt" | sed -n '2,9p')"
		fi
		continue
		;;
	esac
	if echo "$line" | grep -q " identical .*same sectors"; then
		tap_ok "$name: $(echo "$line" | awk '{ print $2 }') events identical, same sectors read"
	else
		tap_not_ok "$name: events identical and the same sectors read" "$line" \
			"$(sed -n "/^$name /,/^[a-z]/p" "$out/compare.txt" | sed -n '2,14p')"
	fi
done <tests/linux-ref/workloads
# mmap-huge's keys reached lookahead's replay: its pauses were sleeps
tap_grep "^bench replay: /replay/logs/mmap-huge.log: .*; recorded timing \(think=sleep\), " \
	"$out/image-mmap/lookahead.log" "mmap-huge replayed with timing=recorded think=sleep"
# the mmap image's boot with its disk throttled: every page verified
cmdf=$out/image-mmap/lookahead.cmd
img=$(sed -n 's/.* --disk \([^ ]*\) .*/\1/p' "$cmdf" 2>/dev/null)
if [ -n "$img" ] && [ -f "$img" ]; then
	# QEMU's -drive takes options after the file name in a file: pseudo-protocol path
	ln -sf "$PWD/$img" "$TAP_TMP/thr:img"
	sed "s#--disk $img #--disk $TAP_TMP/thr:img,throttling.bps-read=30000000 #; \
	     s#--log [^ ]* #--log $TAP_TMP/throttled.log #" "$cmdf" >"$TAP_TMP/throttled.cmd"
	bash "$TAP_TMP/throttled.cmd" >"$TAP_TMP/throttled.out" 2>&1
	tstatus=$?
	nver=$(grep -c "^bench: replay .*; verified$" "$TAP_TMP/throttled.log")
	nmap=$(grep -o "bench replay log=" "$cmdf" | wc -l)
	if [ "$tstatus" = 0 ] && [ "$nver" = "$nmap" ]; then
		tap_ok "the mmap workloads on a throttled disk: $nver replays, every page verified"
	else
		tap_not_ok "the mmap workloads on a throttled disk: every page verified" \
			"status $tstatus, $nver of $nmap verified" \
			"$(grep -m3 "wrong data\|error" "$TAP_TMP/throttled.log")"
	fi
else
	tap_not_ok "the mmap workloads on a throttled disk" "no image in $cmdf"
fi
# a reference trace that is not one is refused with its line, before any boot
bad=$TAP_TMP/bad
mkdir -p "$bad"
cp tests/linux-ref/workloads tests/linux-ref/files.sizes tests/linux-ref/*.log "$bad/"
cp tests/linux-ref/seq64k.trace "$bad/"
sed -i '2s/req_count=16/req_count=sixteen/' "$bad/seq64k.trace"
tools/linux-ref compare --traces "$bad" --only seq64k --out "$TAP_TMP/bad-out" \
	>"$TAP_TMP/bad.txt" 2>&1
bstatus=$?
if [ "$bstatus" = 1 ] && grep -q "seq64k.trace:2: .*req_count" "$TAP_TMP/bad.txt"; then
	tap_ok "a malformed reference trace: one error naming its line, exit 1"
else
	tap_not_ok "a malformed reference trace: one error naming its line, exit 1" \
		"status $bstatus" "$(tail -3 "$TAP_TMP/bad.txt")"
fi
