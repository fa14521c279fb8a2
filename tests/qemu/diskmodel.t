#!/usr/bin/env bash
# The disk timing model under QEMU's virtual clock (tools/run-qemu's default):
# the issue's acceptance figures on a sparse image the size of the modelled
# 160 GB drive (sequential 1 MiB reads at the start and near the end of the
# disk, 4 KiB random reads over the whole disk at queue depth 1 and 32),
# repeatability (the same command list twice gives the same RESULT lines but
# for the fields that measure the host, named host_*), what the results say
# about the clock and the disk, and bad input.
cd "$(dirname "$0")/../.." || exit 1
. tests/qemu/lib.sh
tap_plan 34

# A figure from a RESULT line, checked against [LO, HI].
in_range() {	# in_range VALUE LO HI NAME
	if python3 -c 'import sys; v, lo, hi = map(float, sys.argv[1:4]); sys.exit(not lo <= v <= hi)' \
		"$1" "$2" "$3" 2>/dev/null; then
		tap_ok "$4: $1"
	else
		tap_not_ok "$4" "got '$1', want $2..$3"
	fi
}

# The RESULT lines of a log without the host_* fields (and selftest's run time).
results_nohost() {	# results_nohost FILE
	python3 - "$1" <<'PY'
import json, sys
import results
def strip(o):
    if isinstance(o, dict):
        return {k: strip(v) for k, v in o.items() if not k.startswith("host_")}
    if isinstance(o, list):
        return [strip(v) for v in o]
    return o
for r in results.from_log(sys.argv[1]):
    print(json.dumps(strip(r), sort_keys=True))
PY
}

BIG=$TAP_TMP/hitachi-160g.img
truncate -s $((312581808 * 512)) "$BIG"

qemu --disk "$BIG" --timeout 300 -- "run=rawread disk=0 bs=1024 qd=1 pattern=seq mb=64 crc=0;rawread disk=0 bs=1024 qd=1 pattern=seq mb=64 crc=0 offset_mb=152000;rawread disk=0 bs=4 qd=1 pattern=rand count=2000;rawread disk=0 bs=4 qd=32 pattern=rand count=2000;diskmodel"
tap_is "$QSTATUS" 0 "160 GB sparse image: the acceptance run succeeds"
mapfile -t mbps < <(python3 - "$QOUT" <<'PY'
import sys
import results
for r in results.select(results.from_log(sys.argv[1]), cmd="rawread"):
    print(r["mbps"], r["iops"], r["secs"], r.get("clock"), r.get("disk_kind"))
PY
)
read -r seq0 _ _ clock kind <<<"${mbps[0]:-0 0 0 - -}"
read -r seqend _ _ _ _ <<<"${mbps[1]:-0 0 0 - -}"
read -r _ iops1 secs1 _ _ <<<"${mbps[2]:-0 0 0 - -}"
read -r _ iops32 _ _ _ <<<"${mbps[3]:-0 0 0 - -}"
in_range "$seq0" 55 68 "sequential 1 MiB reads at the start of the disk, MB/s"
in_range "$seqend" 27 35 "sequential 1 MiB reads near the end of the disk, MB/s"
in_range "$(python3 -c "print($secs1 / 2000 * 1000)")" 11 16 \
	"4 KiB random reads over the whole disk at qd=1, average ms (the 7K80 spec's 13.6)"
in_range "$(python3 -c "print($iops32 / $iops1)")" 1.5 100 "NCQ at qd=32 raises IOPS, x"
tap_is "$clock" virtual "results name the virtual clock"
tap_is "$kind" modelled "results name the disk as modelled"
tap_grep '^diskmodel: seek_average +8\.5 ms \[T7K250b\]' "$QOUT" "diskmodel prints each parameter with its source"
tap_grep '^diskmodel: derived: 108000 cylinders x 3 heads' "$QOUT" "diskmodel prints the derived geometry"
tap_grep '^sda: modelled \(hitachi-t7k250\): [0-9]+ commands: .* misses \([0-9]+ seeks\), [1-9][0-9]* NCQ reorders' \
	"$QOUT" "the model's counters: hits, misses, seeks and NCQ reorders"
tap_is "$(result_field "$QOUT" diskmodel seek_full_ms)" 20.0 "diskmodel RESULT: full-stroke seek"

# Repeatability: a mixed command list twice, on the ext2 image and a second disk.
tools/mkimage >/dev/null 2>&1
IMG=build/img/ext2-4k.img
MIX="run=cat /big.bin;cat /big.bin ra=legacy;drop_caches;rastreams /big.bin streams=8;rawread disk=1 bs=64 qd=8 pattern=rand count=300;walk /;diskstats;diskmodel"
qemu --disk "$IMG" --disk "$BIG" --timeout 300 -- "$MIX"
s1=$QSTATUS
results_nohost "$QOUT" >"$TAP_TMP/mix1"
qemu --disk "$IMG" --disk "$BIG" --timeout 300 -- "$MIX"
s2=$QSTATUS
results_nohost "$QOUT" >"$TAP_TMP/mix2"
tap_is "$s1$s2" 00 "the mixed run succeeds twice"
tap_is "$(grep -c . "$TAP_TMP/mix1")" 8 "one RESULT line per command"
if cmp -s "$TAP_TMP/mix1" "$TAP_TMP/mix2"; then
	tap_ok "the same command list twice: the same RESULT lines"
else
	tap_not_ok "the same command list twice: the same RESULT lines" \
		"$(diff "$TAP_TMP/mix1" "$TAP_TMP/mix2" | head -6)"
fi
tap_result "$QOUT" "late real I/O is counted, in a host_ field" cmd=diskstats disks.0.model.host_late

# Without the model: QEMU's disk times itself, on the host's clock.
qemu --disk "$IMG" --disk-model none --timeout 120 -- "run=cat /big.bin;diskstats"
tap_is "$(result_field "$QOUT" cat disk_kind)/$(result_field "$QOUT" cat clock)" emulated/real \
	"--disk-model none: the emulated disk, the real clock"
tap_nogrep '^diskmodel:' "$QOUT" "--disk-model none: no model parameters printed"

# The buffer's mechanisms switched at run time (one boot compares configurations).
qemu --disk "$IMG" --timeout 120 -- "run=diskmodel set=segments=10,lookbehind=0,zero_latency=1;cat /big.bin"
tap_is "$QSTATUS" 0 "diskmodel set=: the run succeeds"
tap_is "$(result_field "$QOUT" diskmodel segments)/$(result_field "$QOUT" diskmodel lookbehind)/$(result_field "$QOUT" diskmodel zero_latency)" \
	10/False/True "diskmodel set=: the model is rebuilt with the new values"
tap_grep '^diskmodel: segments +10 segments set by the diskmodel command \(the table says 7\)' "$QOUT" \
	"diskmodel set=: the table says what was set and what the source said"
qemu --disk "$IMG" --timeout 60 -- "run=diskmodel set=segments=99;diskmodel set=segmentz=3"
tap_is "$QSTATUS" 1 "diskmodel set=segments=99: exit 1"
tap_grep '^error: diskmodel: segments=99 is out of range: segments \(segments, 1\.\.64, whole' "$QOUT" \
	"diskmodel set=segments=99: the error names the key and its range"
tap_grep "^error: diskmodel: hitachi-t7k250: no scalar parameter 'segmentz' to set" "$QOUT" \
	"diskmodel set=segmentz=3: the error names the unknown key"

# A model from a parameter file: the built-in table as diskmodel prints it,
# read back through fw_cfg, times the disk exactly as the built-in model.
qemu --disk "$IMG" --timeout 60 -- "run=diskmodel;cat /big.bin"
sed -n 's/^diskmodel: //p' "$QOUT" | sed -n '/^name /,/^derived/p' | grep -v '^derived' >"$TAP_TMP/t7k.params"
result_match "$QOUT" cmd=cat >"$TAP_TMP/builtin.res"
qemu --disk "$IMG" --disk-model "$TAP_TMP/t7k.params" --timeout 60 -- "run=diskmodel;cat /big.bin"
tap_is "$QSTATUS" 0 "--disk-model FILE: the run succeeds"
result_match "$QOUT" cmd=cat >"$TAP_TMP/file.res"
if [ -s "$TAP_TMP/file.res" ] && cmp -s "$TAP_TMP/builtin.res" "$TAP_TMP/file.res"; then
	tap_ok "--disk-model FILE with the built-in table: the same RESULT as the built-in model"
else
	tap_not_ok "--disk-model FILE with the built-in table: the same RESULT as the built-in model"
fi
tap_grep '^diskmodel: seek_average +8\.5 ms \[T7K250b\]' "$QOUT" "--disk-model FILE: diskmodel prints the file's table"
# A bad file stops the boot before anything runs, naming its line.
sed 's/^rpm .*/rpm 72000 rev\/min/' "$TAP_TMP/t7k.params" >"$TAP_TMP/bad.params"
qemu --disk "$IMG" --disk-model "$TAP_TMP/bad.params" --timeout 60 -- "run=lsblk"
tap_is "$QSTATUS" 1 "a bad parameter file: exit 1"
tap_grep "^error: diskmodel: the parameter file: line 4: rpm 72000 is out of range: rpm \(rev/min, 1000\.\.30000" \
	"$QOUT" "a bad parameter file: the error names the line and what the key accepts"
tap_no_result "$QOUT" "a bad parameter file: nothing runs" cmd=lsblk
qemu --disk "$IMG" --timeout 60 -- disk_model=file run=lsblk
tap_grep "^error: diskmodel: disk_model=file, but no parameter file was given" "$QOUT" \
	"disk_model=file without a file: the error says what is missing"

# Bad input: an unknown drive, and an image larger than the drive.
qemu --disk "$IMG" --timeout 60 -- disk_model=hitachi-9k999 run=lsblk
tap_is "$QSTATUS" 1 "disk_model=hitachi-9k999: exit 1"
tap_grep "^error: command line: bad value 'hitachi-9k999' for key 'disk_model'" "$QOUT" "disk_model=hitachi-9k999: the error names the key and the value"
truncate -s $((312581808 * 512 + 1048576)) "$TAP_TMP/too-big.img"
qemu --disk "$TAP_TMP/too-big.img" --timeout 60 -- run=lsblk
tap_is "$QSTATUS" 1 "an image larger than the modelled drive: exit 1"
tap_grep '^error: diskmodel: the disk has 312583856 sectors, more than the hitachi-t7k250.s 312581808' \
	"$QOUT" "an image larger than the modelled drive: the error gives both sizes"
