#!/usr/bin/env bash
# ra=linux against today's Linux, without booting Linux: tools/linux-ref
# compare replays the reference workloads (tests/linux-ref/workloads) in one
# boot of lookahead and compares each one's readahead events with the trace
# Debian's kernel printed for it (tests/linux-ref/NAME.trace, recorded by
# tools/linux-ref record), event by event and field by field. Every
# workload must be identical, and read the same sectors as Linux did.
cd "$(dirname "$0")/../.." || exit 1
. tests/qemu/lib.sh
n=$(grep -cv '^#' tests/linux-ref/workloads)
tap_plan $((n + 2))

out=$TAP_TMP/compare
tools/linux-ref compare --out "$out" >"$TAP_TMP/stdout" 2>&1
status=$?
tap_is "$status" 0 "tools/linux-ref compare: every workload identical (exit status)"
while read -r name _; do
	case "$name" in \#*|"") continue ;; esac
	line=$(grep -E "^$name " "$out/compare.txt")
	if echo "$line" | grep -q " identical .*same sectors"; then
		tap_ok "$name: $(echo "$line" | awk '{ print $2 }') events identical, same sectors read"
	else
		tap_not_ok "$name: events identical and the same sectors read" "$line" \
			"$(sed -n "/^$name /,/^[a-z]/p" "$out/compare.txt" | sed -n '2,14p')"
	fi
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
