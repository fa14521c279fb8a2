#!/usr/bin/env bash
# tools/demerit: Ruemmler and Wilkes' demerit figure on made-up logs whose
# answer is known (a distribution against itself: 0; against itself shifted
# by 1 ms: exactly 1 ms), the PNG, and bad input (no log, no lat=1 run).
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..6"
python3 - "$tmp" <<'PY'
import random, sys
d = sys.argv[1]
r = random.Random(7)
a = [r.randint(2000, 20000) for _ in range(1000)]
def log(path, v):
    with open(path, "w") as f:
        f.write("lookahead$ rawread disk=0 bs=4 qd=1 pattern=rand count=1000 lat=1\n")
        for i in range(0, len(v), 16):
            f.write("rawread-lat: " + " ".join(str(x) for x in v[i:i + 16]) + "\n")
        f.write('RESULT {"cmd":"rawread"}\n')
log(d + "/a.log", a)
log(d + "/b.log", [x + 1000 for x in a])
mean = sum(a) / len(a)
open(d + "/want", "w").write("%.2f\n" % (1000 / mean * 100))
PY
out=$(tools/demerit "$tmp/a.log" "$tmp/a.log" | grep '^DEMERIT')
[[ "$out" == *'"demerit_ms": 0.0,'* ]] && echo "ok 1 - a run against itself: demerit 0" ||
	echo "not ok 1 - a run against itself: demerit 0 # $out"
out=$(tools/demerit "$tmp/a.log" "$tmp/b.log" --png "$tmp/d.png")
want=$(cat "$tmp/want")
got=$(echo "$out" | sed -n 's/^demerit 1.000 ms = \([0-9.]*\)% .*/\1/p')
[ "$got" = "$want" ] && echo "ok 2 - shifted by 1 ms: 1 ms, $got% of the mean" ||
	echo "not ok 2 - shifted by 1 ms: 1 ms, $want% of the mean # got: $(echo "$out" | head -3)"
[ -s "$tmp/d.png" ] && echo "ok 3 - --png draws both distributions" || echo "not ok 3 - --png draws both distributions"
tools/demerit "$tmp/a.log" "$tmp/nosuch.log" 2>"$tmp/err" >/dev/null
s=$?
[ $s = 1 ] && grep -q "no log at $tmp/nosuch.log" "$tmp/err" && echo "ok 4 - a missing log: exit 1, named" ||
	echo "not ok 4 - a missing log: exit 1, named # $s $(cat "$tmp/err")"
tools/demerit "$tmp/a.log" "$tmp/b.log" --run 2 2>"$tmp/err" >/dev/null
s=$?
[ $s = 1 ] && grep -q "holds 1 rawread lat=1 run(s); no run 2" "$tmp/err" && echo "ok 5 - no such run: exit 1, named" ||
	echo "not ok 5 - no such run: exit 1, named # $s $(cat "$tmp/err")"
mkdir "$tmp/res" && cp "$tmp/a.log" "$tmp/res/console.log"
tools/demerit "$tmp/res" "$tmp/b.log" >/dev/null 2>&1 && echo "ok 6 - a results folder as A" ||
	echo "not ok 6 - a results folder as A"
