#!/usr/bin/env bash
# bench diskprobe on the modelled T7K250 (a sparse image the drive's size):
# the probe recovers the rotation period within 0.5%, each zone rate within
# 3%, each seek point within 5% of the model's curve at the same fraction
# of the stroke, and detects read look-ahead, look-behind, zero-latency and
# the segment count as configured (the default table, then each switched by
# diskmodel set=); tools/bench --log turns the log into disk.params, and a
# boot with --disk-model disk.params runs on it and reports the probed drive,
# and random 4 KiB reads on it answer like the original model's: demerit
# (tools/demerit) under 10% of the mean response time.
cd "$(dirname "$0")/../.." || exit 1
. tests/qemu/lib.sh
tap_plan 15

BIG=$TAP_TMP/hitachi-160g.img
truncate -s $((312581808 * 512)) "$BIG"

qemu --disk "$BIG" --timeout 600 -- "run=diskmodel;bench diskprobe disk=0 minutes=4;diskmodel set=lookbehind=0,zero_latency=1,segments=10;bench diskprobe disk=0 minutes=1;diskmodel set=lookahead=0;bench diskprobe disk=0 minutes=1"
tap_is "$QSTATUS" 0 "bench diskprobe runs three times"
cp "$QOUT" "$TAP_TMP/probe.log"

# The model's own figures and the probe's, side by side.
check() {	# check NAME PYTHON-EXPRESSION over M (diskmodel RESULT), P (diskprobe RESULTs), T (tables)
	if python3 - "$TAP_TMP/probe.log" "$2" <<'PY'
import re, sys
import results
M, P, T, cur, shape, seek = None, [], [], None, [], None
for line in open(sys.argv[1], errors="replace"):
    line = line.rstrip("\n")
    r = results.parse(line)
    if r is not None:
        if r.get("cmd") == "diskmodel" and M is None:
            M = r
        elif r.get("cmd") == "diskprobe":
            P.append(r)
    elif line.startswith("diskmodel: seek_shape ") and M is None:
        shape.append((float(line.split()[2]), float(line.split()[3])))
    elif line.startswith("diskmodel: derived: seek ") and seek is None:
        # the built-in curve: a measured drive's shape (seek_shape rows), scaled
        m = re.search(r"seek ([\d.]+) \+ ([\d.]+)\*\(S\(d/\(([\d.]+)\*(\d+)\)\) - "
                      r"([\d.]+)\) ms, S the seek_shape rows, below (\d+) cylinders, "
                      r"([\d.]+) \+ ([\d.]+)\*d/1000", line)
        seek = [float(x) for x in m.groups()]
    elif line.startswith("diskprobe: name "):
        cur = {"rate_at": [], "seek_at": []}
        T.append(cur)
    elif line.startswith("diskprobe: ") and cur is not None:
        f = line.split()
        if f[1] in ("rate_at", "seek_at"):
            cur[f[1]].append((float(f[2]), float(f[3])))
def model_seek(frac):
    # drivers/diskmodel-geom.c's curve, worked again here from what diskmodel prints
    t1, k, scale, D, y0, d0, c, e = seek
    d = frac * (M["cylinders"] - 1)
    if d >= d0:
        return c + e * d / 1000
    x = d / (scale * D)
    if x <= shape[0][0]:
        return t1
    for (x0, v0), (x1, v1) in zip(shape, shape[1:]):
        if x <= x1:
            f = (x ** 0.5 - x0 ** 0.5) / (x1 ** 0.5 - x0 ** 0.5)
            return t1 + k * (v0 + (v1 - v0) * f - y0)
    raise ValueError("past the rows below d0")
def model_rate(frac):
    # the model's zones: linear from zone 0 to the last over the stroke (equal-width zones);
    # a capacity fraction maps onto the stroke through sectors per zone
    z0, zl = M['zone0_mbps'], M["zone_last_mbps"]
    rates = [z0 + (zl - z0) * i / 29 for i in range(30)]
    total, at = sum(rates), 0
    for r in rates:
        if at + r / total >= frac:
            return r
        at += r / total
    return rates[-1]
ok = eval(sys.argv[2])
if not ok:
    print("# M:", M)
    print("# P:", P)
sys.exit(not ok)
PY
	then tap_ok "$1"; else tap_not_ok "$1"; fi
}
check "the probe's rotation period is the model's within 0.5%" \
	"len(P) == 3 and all(abs(p['rev_ms'] / 8.33333 - 1) < 0.005 for p in P)"
check "every zone rate within 3% of the model's zone there" \
	"all(abs(v / model_rate(f + 1e-5) - 1) < 0.03 for f, v in T[0]['rate_at'])"
check "every seek point within 5% of the model's seek at that fraction of the stroke" \
	"len(T[0]['seek_at']) >= 20 and all(abs(v / model_seek(f) - 1) < 0.05 for f, v in T[0]['seek_at'])"
check "the default table: look-ahead of a segment (1170 KiB), look-behind, no zero-latency, 7 segments" \
	"P[0]['lookahead'] and P[0]['lookahead_kb'] == 1170 and P[0]['lookbehind'] and not P[0]['zero_latency'] and P[0]['segments'] == 7"
check "the command overhead and bus rate: the model's (with the host's few us)" \
	"abs(P[0]['overhead_us'] - M['overhead_us']) < 10 and abs(P[0]['bus_mbps'] / 300 - 1) < 0.02"
check "lookbehind=0, zero_latency=1, segments=10: detected" \
	"not P[1]['lookbehind'] and P[1]['zero_latency'] and P[1]['segments'] == 10 and P[1]['lookahead_kb'] == 819"
check "lookahead=0: no look-ahead detected" "not P[2]['lookahead']"
check "NCQ helps random reads (qd 32 against qd 1)" "P[0]['ncq_gain'] > 1.5"

# The serial log to disk.params, and a model from it.
tools/bench --log "$TAP_TMP/probe.log" --out "$TAP_TMP/res" >"$TAP_TMP/bench.out" 2>&1
tap_is "$?" 0 "tools/bench --log: the results folder"
tap_grep '^ncq_aging 1000 ms assumed' "$TAP_TMP/res/disk.params" "disk.params holds the last probe's table"
# the first probe's table (the default model) for the model
python3 - "$TAP_TMP/probe.log" >"$TAP_TMP/first.params" <<'PY'
import sys
out, on = [], False
for line in open(sys.argv[1], errors="replace"):
    if line.startswith("diskprobe: name "):
        if out:
            break
        on = True
    if on and line.startswith("diskprobe: "):
        out.append(line[len("diskprobe: "):].rstrip("\n"))
print("\n".join(out))
PY
qemu --disk "$BIG" --disk-model "$TAP_TMP/first.params" --timeout 120 -- "run=diskmodel;rawread disk=0 bs=4 qd=1 pattern=rand count=1000 lat=1"
tap_is "$QSTATUS" 0 "a boot with --disk-model disk.params runs"
tap_is "$(result_field "$QOUT" diskmodel drive)" probed-sda "diskmodel reports the probed drive"
cp "$QOUT" "$TAP_TMP/probed-rand.log"
qemu --disk "$BIG" --timeout 120 -- "run=rawread disk=0 bs=4 qd=1 pattern=rand count=1000 lat=1"
tap_is "$QSTATUS" 0 "the same reads on the original model"
pct=$(tools/demerit "$QOUT" "$TAP_TMP/probed-rand.log" | sed -n 's/^DEMERIT .*"demerit_pct": \([0-9.]*\).*/\1/p')
in_range() { python3 -c 'import sys; sys.exit(not 0 <= float(sys.argv[1]) < 10)' "$1" 2>/dev/null; }
if in_range "$pct"; then
	tap_ok "random 4 KiB reads, original against probed model: demerit $pct% of the mean (< 10%)"
else
	tap_not_ok "random 4 KiB reads, original against probed model: demerit under 10%" "got '$pct'"
fi
