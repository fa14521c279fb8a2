#!/usr/bin/env bash
# ra=linux against today's Linux, without booting Linux: tools/linux-ref
# compare replays the reference workloads (tests/linux-ref/workloads) in a
# boot of lookahead per image and compares each one's readahead events with
# the trace Debian's kernel printed for it (tests/linux-ref/NAME.trace,
# recorded by tools/linux-ref record), event by event and field by field,
# and the sectors read; the workloads under memory pressure by aggregates,
# within Linux's own spread over its recorded runs (pressure.runs). Each
# workload's rule is docs/linux-ref.md's: every one passes but mmap-huge,
# whose one difference (a folio's I/O done in Linux and not yet here when
# touched: mmap_miss 9 against 10 at event 23) is checked to be that and
# nothing else.
cd "$(dirname "$0")/../.." || exit 1
. tests/qemu/lib.sh
n=$(grep -cv '^#' tests/linux-ref/workloads)
tap_plan $((n + 2))

out=$TAP_TMP/compare
tools/linux-ref compare --out "$out" >"$TAP_TMP/stdout" 2>&1
status=$?
tap_is "$status" 1 "tools/linux-ref compare: exit status 1, for mmap-huge's race alone (below)"
while read -r name _ keys; do
	case "$name" in \#*|"") continue ;; esac
	line=$(grep -E "^$name " "$out/compare.txt")
	case "$name" in
	mmap-huge)
		# the race: the same 22 events, then event 23 differs in mmap_miss alone
		block=$(sed -n "/^$name /,/^[a-z]/p" "$out/compare.txt")
		lx=$(echo "$block" | sed -n 's/^    Linux: *//p')
		la=$(echo "$block" | sed -n 's/^    lookahead: *//p')
		if echo "$line" | grep -q " 38  *38  *22  DIFFER .*same sectors" &&
			echo "$block" | grep -q "first difference: event 23;" &&
			[ "${lx/mmap_miss=9 /mmap_miss=10 }" = "$la" ] && [ "$lx" != "$la" ]; then
			tap_ok "$name: 22 of 38 events identical, then mmap_miss 9 (Linux) and 10 alone"
		else
			tap_not_ok "$name: 22 of 38 events identical, then mmap_miss 9 and 10 alone" \
				"$line" "Linux:     $lx" "lookahead: $la"
		fi
		continue
		;;
	esac
	case " $keys " in
	*" runs="*)
		if echo "$line" | grep -q "by aggregates: within Linux's spread"; then
			tap_ok "$name: within Linux's spread over its runs"
		else
			tap_not_ok "$name: within Linux's spread over its runs" "$line" \
				"$(sed -n "/^$name /,/^[a-z]/p" "$out/compare.txt" | sed -n '2,8p')"
		fi
		;;
	*)
		if echo "$line" | grep -q " identical .*same sectors"; then
			tap_ok "$name: $(echo "$line" | awk '{ print $2 }') events identical, same sectors read"
		else
			tap_not_ok "$name: events identical and the same sectors read" "$line" \
				"$(sed -n "/^$name /,/^[a-z]/p" "$out/compare.txt" | sed -n '2,14p')"
		fi
		;;
	esac
done <tests/linux-ref/workloads
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
