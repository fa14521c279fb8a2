#!/usr/bin/env bash
# The instruments cost the run nothing (issue 30): a small thrash, legacy then
# on-demand, run four ways that must give the same figures to the last digit:
#   plain     --mem 64M
#   traced    --mem 64M, a reader followed (bench thrash trace=), the default
#             trace ring printed after each run
#   mem=      --mem 256M and mem=64M: the RAM above mem= is not the page cache's
#   big ring  mem= and traced with a 65536-event ring (ratrace_events=), which
#             lives in the RAM above mem=
# Every RESULT line of the runs (drop_caches, the per-second samples, the
# summaries) must be identical but for the trace's own fields (trace=, and the
# bench-trace lines only the traced run prints) and the host's (host_*). The
# chaos of thrashing makes the check sharp: an instruction or a page moved
# anywhere moves a figure.
cd "$(dirname "$0")/../.." || exit 1
. tests/qemu/lib.sh
tap_plan 8

img=build/img/ext2-4k.img
tools/mkimage >/dev/null 2>&1
if [ ! -f "$img" ]; then
	for i in $(seq 8); do tap_ok "# SKIP no test image"; done
	exit 0
fi

thrash="bench thrash path=/big.bin streams=48 interval=100 rate=256K tail=2"
run_cmds() {	# run_cmds [THRASH-KEYS] [AFTER-EACH]
	local c="" ra
	for ra in legacy ondemand; do
		c="$c;drop_caches disk=cold;$thrash ra=$ra ${1:-}${2:+;$2}"
	done
	echo "run=${c#;}"
}

qemu --timeout 300 --mem 64M --disk "$img" -- ra_kb=1024 "$(run_cmds)"
plain=$QOUT plain_status=$QSTATUS
qemu --timeout 300 --mem 64M --disk "$img" -- ra_kb=1024 "$(run_cmds trace=5 "ratrace last=0")"
traced=$QOUT traced_status=$QSTATUS
qemu --timeout 300 --mem 256M --disk "$img" -- ra_kb=1024 mem=64M "$(run_cmds)"
memeq=$QOUT memeq_status=$QSTATUS
qemu --timeout 300 --mem 256M --disk "$img" -- ra_kb=1024 mem=64M ratrace_events=65536 \
	"$(run_cmds trace=5 "ratrace last=0")"
ring=$QOUT ring_status=$QSTATUS
tap_is "$plain_status/$traced_status/$memeq_status/$ring_status" "0/0/0/0" "four boots: exit 0"

# compare A B: "same N" or the first differences
compare() {
	python3 - "$1" "$2" <<'PY'
import sys
import results as lib

def results(path):
    out = []
    for r in lib.from_log(path):
        if r.get("cmd") in ("bench-trace", "ratrace"):
            continue
        out.append({k: v for k, v in r.items() if k != "trace" and not k.startswith("host_")})
    return out

a, b = results(sys.argv[1]), results(sys.argv[2])
diffs = []
if len(a) != len(b):
    diffs.append("%d RESULT lines against %d" % (len(a), len(b)))
for i, (x, y) in enumerate(zip(a, b)):
    keys = sorted(k for k in set(x) | set(y) if x.get(k) != y.get(k))
    if keys:
        diffs.append("line %d (%s %s): %s" % (i + 1, x.get("cmd"), x.get("ra", ""), ", ".join(
            "%s %s/%s" % (k, x.get(k), y.get(k)) for k in keys[:4])))
if diffs:
    print("\n".join(diffs[:5]))
else:
    print("same %d" % len(a))
PY
}

n=$(result_count "$plain" cmd=bench workload=thrash)
tap_is "$n" 2 "two thrash summaries (legacy, ondemand)"
# result_match prints the lines as json.dumps does: '"KEY": VALUE', whatever the kernel's order
thr=$(result_match "$plain" cmd=bench workload=thrash | grep -o '"ra_thrashed_pages": [0-9]*' |
	awk '{ printf "%s ", $2 }')
if [ -n "$thr" ] && ! echo " $thr" | grep -q " 0 "; then
	tap_ok "both thrash: pages read ahead and evicted unused ($thr)"
else
	tap_not_ok "both thrash" "ra_thrashed_pages: '$thr'"
fi
tr=$(result_count "$traced" cmd=bench-trace)
if [ "$tr" -gt 0 ] && grep -q '^ratrace: t=' "$traced"; then
	tap_ok "the traced run follows its reader ($tr bench-trace lines) and prints the ring"
else
	tap_not_ok "the traced run traces" "$tr bench-trace lines"
fi

r=$(compare "$plain" "$traced")
if [ "${r%% *}" = same ]; then
	tap_ok "traced and untraced: ${r#same } RESULT lines identical but for trace="
else
	tap_not_ok "traced and untraced: identical RESULT lines" "$r"
fi
r=$(compare "$plain" "$ring")
if [ "${r%% *}" = same ]; then
	tap_ok "a 65536-event ring above mem=: ${r#same } RESULT lines identical but for trace="
else
	tap_not_ok "a 65536-event ring above mem=: identical RESULT lines" "$r"
fi
r=$(compare "$plain" "$memeq")
if [ "${r%% *}" = same ]; then
	tap_ok "--mem 64M and --mem 256M mem=64M: ${r#same } RESULT lines identical"
else
	tap_not_ok "--mem 64M and --mem 256M mem=64M: identical RESULT lines" "$r"
fi
s1=$(grep -o 'cache_pages=[0-9]*' "$plain" | sort -u | tr '\n' ' ')
s2=$(grep -o 'cache_pages=[0-9]*' "$memeq" | sort -u | tr '\n' ' ')
if [ -n "$s1" ] && [ "$s1" = "$s2" ]; then
	tap_ok "the settings lines give the page cache the same pages (${s1% })"
else
	tap_not_ok "the settings lines give the page cache the same pages" "'$s1' against '$s2'"
fi
