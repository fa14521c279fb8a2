#!/usr/bin/env bash
# Running out of memory is an error, not a result. First the case that was
# reported: 1024 paced readers in mem=16M stop before their phase with one
# error line naming what ran out and how much, the summary's first error is
# that line, and no RESULT claims a run. Then every workload under fault
# injection (the failnth command, mm_fail_nth): each allocation it makes
# before its phase fails in turn, and every such run must print exactly one
# error line saying what had no memory and how many bytes were asked, print
# no bench RESULT, return -ENOMEM and leave nothing allocated. And rawread
# says when it lowers qd= to count=. Last, oltp's clients running out of memory
# mid-phase (their loop only notes a failure): one error line with the cause.
cd "$(dirname "$0")/../.." || exit 1
. tests/qemu/lib.sh
tap_plan 18

need_bench_image smoke
IMG=build/img/bench-smoke.img

qemu --mem 64M --disk "$IMG" --timeout 120 -- mem=16M "run=bench thrash streams=1024 rate=100K interval=1"
errs=$(grep -c '^error: ' "$QOUT")
first=$(grep -m1 '^error: ' "$QOUT" | sed 's/^error: //')
# the summary wraps a long first error over its lines: join them back; one longer than its
# three lines ends in "..." (kernel/summary.c), so it is then the error's beginning
summary=$(awk '/^\| first error: / { s = substr($0, 16); on = 1; next }
	on && /^\|   / { s = s " " substr($0, 5); next } { on = 0 } END { print s }' "$QOUT")
if [ "$QSTATUS" = 1 ] && [ "$errs" = 1 ] &&
	grep -Eq "^error: bench thrash: .*no memory (for|to) .*[0-9]+[ -]bytes?\b" "$QOUT" &&
	{ [ "$summary" = "$first" ] ||
		{ [ "${summary%...}" != "$summary" ] && [ "${first#"${summary%...}"}" != "$first" ]; }; }; then
	tap_ok "mem=16M, 1024 readers: one error line, the summary's first error: $first"
else
	tap_not_ok "mem=16M, 1024 readers: one error line naming what ran out, the summary's first error" \
		"status $QSTATUS, $errs error lines" "$(grep -E '^error: |first error' "$QOUT")"
fi
tap_no_result "$QOUT" "mem=16M, 1024 readers: no RESULT line for a run that did not happen" \
	cmd=bench
tap_grep "^lookahead: command 'bench' failed: out of memory$" "$QOUT" "mem=16M, 1024 readers: the command fails with -ENOMEM"

WORKLOADS=(
	"bench iozone s=1m r=64k"
	"bench iozone s=1m r=64k i=random"
	"bench aiostress s=1m"
	"bench overhead s=64k"
	"bench overhead t=seq1-hot"
	"bench overhead t=tree-hot"
	"bench pipeline s=256k"
	"bench thrash streams=3 interval=1 tail=0"
	"bench sysbench threads=3 requests=12"
	"bench oltp threads=3 transactions=6 s=16m"
	"bench interleave streams=3 s=768k"
)
run=""
for w in "${WORKLOADS[@]}"; do run="$run;failnth $w"; done
qemu --mem 64M --disk "$IMG" --timeout 300 -- "run=${run#;};rawread disk=0 bs=64 qd=8 pattern=seq count=3"
cp "$QOUT" "$TAP_TMP/failnth.log"
for w in "${WORKLOADS[@]}"; do
	if python3 - "$TAP_TMP/failnth.log" "$w" >"$TAP_TMP/check.log" <<'PY'
import re, sys
import results
log, cmd = open(sys.argv[1], errors="replace").read().splitlines(), sys.argv[2]
start = log.index("failnth: '%s' once without injection" % cmd)
end = next(i for i in range(start, len(log)) if (results.parse(log[i]) or {}).get("cmd") == "failnth")
res = results.parse(log[end])
problems, seg, before = [], None, 0
for line in log[start + 1:end]:
    m = re.match(r"failnth: n=(\d+): (.*)", line)
    if m and m.group(2) == "run":
        seg = (int(m.group(1)), [])
        continue
    if m and seg:
        n, lines = seg
        if "before the first phase" in m.group(2):
            before += 1
            errs = [l for l in lines if l.startswith("error: ")]
            if len(errs) != 1:
                problems.append("n=%d: %d error lines: %s" % (n, len(errs), errs))
            elif not re.search(r"(no|out of) memory", errs[0]) or not re.search(r"\b\d+[ -]bytes?\b", errs[0]):
                problems.append("n=%d: the error does not say what ran out and how much: %s" % (n, errs[0]))
            if any((results.parse(l) or {}).get("cmd") == "bench" for l in lines):
                problems.append("n=%d: a bench RESULT for a run that did not start" % n)
            if "returned -12;" not in m.group(2):
                problems.append("n=%d: %s" % (n, m.group(2)))
            if not m.group(2).endswith(": 0 objects, 0 large pages, 0 other pages"):
                problems.append("n=%d: not all freed: %s" % (n, m.group(2)))
        seg = None
        continue
    if seg:
        seg[1].append(line)
if res["broken"] or not before or res["before_phase"] != before:
    problems.append("RESULT %s, %d runs before the phase seen" % (res, before))
print("%d runs, %d failing before the phase" % (res["runs"], before))
for p in problems[:8]:
    print("# " + p)
sys.exit(1 if problems else 0)
PY
	then
		tap_ok "failnth $w: $(head -1 "$TAP_TMP/check.log"): each one error naming it, no RESULT, -ENOMEM, all freed"
	else
		tap_not_ok "failnth $w: each allocation failing before the phase: one error naming it, no RESULT, -ENOMEM, all freed" \
			"$(sed 's/^# //' "$TAP_TMP/check.log")"
	fi
done
first=$(grep -m1 '^error: ' "$QOUT" | sed 's/^error: //')
if [ -n "$first" ] && grep -Fxq "| first error: $first" "$QOUT"; then
	tap_ok "the summary's first error is the first injected failure's line"
else
	tap_not_ok "the summary's first error is the first injected failure's line" "$first" "$(grep 'first error' "$QOUT")"
fi
if grep -Eq '^rawread: qd=8 is more than the 3 reads of count=3: lowered to 3$' "$QOUT" &&
	[ "$(result_field "$QOUT" rawread qd)" = 3 ]; then
	tap_ok "rawread qd=8 count=3 says it lowered the queue depth to 3"
else
	tap_not_ok "rawread qd=8 count=3 says it lowered the queue depth to 3" "$(grep '^rawread' "$QOUT")"
fi

# 1600 oltp clients' stacks leave 64 MiB's page cache about a megabyte: a client's read finds
# no frame mid-phase. Before, the run failed with -EIO and no error line at all.
qemu --mem 64M --disk "$IMG" --timeout 120 -- "run=bench oltp threads=1600 s=16m transactions=1600"
errs=$(grep -c '^error: ' "$QOUT")
cause="(a read failed|[0-9]+ reads failed, the first) with out of memory: .*makes room"
if [ "$QSTATUS" = 1 ] && [ "$errs" = 1 ] && grep -Eq "^error: bench oltp: $cause\$" "$QOUT"; then
	tap_ok "oltp, 1600 clients in 64 MiB: one error line naming the failed read's cause and the RAM"
else
	tap_not_ok "oltp, 1600 clients in 64 MiB: one error line naming the failed read's cause" \
		"status $QSTATUS, $errs error lines" "$(grep -E '^error: ' "$QOUT")"
fi
tap_grep "^lookahead: command 'bench' failed: out of memory$" "$QOUT" \
	"oltp, 1600 clients in 64 MiB: the command fails with -ENOMEM"
