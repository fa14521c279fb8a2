#!/usr/bin/env bash
# Checks that never cry wolf (issue 36): pattern files whose sizes are not a
# multiple of 8 nor of a page (1540 bytes, the header of the issue's `tar`
# trace; 5; 4097; 12291), read through every path to their last byte: read(2)
# (cat with 64 KiB and 7-byte reads, bench pipeline), pread (bench replay),
# page faults (mmapcat, and bench replay access=mmap, whose loads read the
# aligned 8-byte word holding a byte: past the end of the file a mapping
# reads as zeros, and only the word's bytes inside the file may be checked),
# and splice (splicecat). Every byte is verified, or the crc32 is the host's.
cd "$(dirname "$0")/../.." || exit 1
. tests/qemu/lib.sh
tap_plan 10

L=$TAP_TMP/logs
mkdir -p "$L"
# each file to its end: reads across it, at its last word, and past its end (short reads)
cat >"$L/odd.log" <<'EOF'
fio version 2 iolog
/h/stdio.h add
/d/odd.bin add
/d/tiny add
/d/page1.bin add
/h/stdio.h open
/h/stdio.h read 0 512
/h/stdio.h read 512 1024
/h/stdio.h read 1536 512
/h/stdio.h close
/d/odd.bin open
/d/odd.bin read 0 12291
/d/odd.bin read 4000 8291
/d/odd.bin read 12290 100
/d/odd.bin close
/d/tiny open
/d/tiny read 0 4096
/d/tiny close
/d/page1.bin open
/d/page1.bin read 4000 200
/d/page1.bin close
EOF
printf '/h/stdio.h 1540\n/d/odd.bin 12291\n/d/tiny 5\n/d/page1.bin 4097\n' >"$L/odd.sizes"
IMG=$(tools/mkbench --iolog "$L/odd.log" --files "$L/odd.sizes" 2>"$TAP_TMP/mkbench.log")
if [ ! -f "$IMG" ]; then
	sed 's/^/# /' "$TAP_TMP/mkbench.log"
	echo "Bail out! tools/mkbench --iolog failed"
	exit 1
fi
# the host's crc32 of each file: the same pattern, from the same name (bench/pattern.h)
make -s build/host/patgen >/dev/null 2>&1
declare -A CRC
for f in h/stdio.h:1540 d/odd.bin:12291 d/tiny:5 d/page1.bin:4097; do
	mkdir -p "$TAP_TMP/host/$(dirname "${f%%:*}")"
	build/host/patgen "$TAP_TMP/host/${f%%:*}" "${f##*:}"
	CRC[${f%%:*}]=$(host_crc32 "$TAP_TMP/host/${f%%:*}")
done

F=/replay/files
run="bench replay log=/replay/logs/odd.log;drop_caches;bench replay log=/replay/logs/odd.log access=mmap"
run="$run;drop_caches;bench replay log=/replay/logs/odd.log access=mmap advice=random"
for f in h/stdio.h d/odd.bin d/tiny d/page1.bin; do
	run="$run;drop_caches;cat $F/$f;cat $F/$f bs=7;mmapcat $F/$f;splicecat $F/$f"
done
run="$run;drop_caches;bench pipeline path=$F/d/odd.bin"
qemu --mem 64M --disk "$IMG" --timeout 120 -- "run=$run"
tap_is "$QSTATUS" 0 "every read of the odd-sized files exits 0"
tap_nogrep '(wrong data|WRONG DATA|nonzero byte)' "$QOUT" "no data check cries wolf"

check() { # check NAME PYTHON-EXPRESSION: over R (bench), C (cat), M (mmapcat), S (splicecat)
	if python3 - "$QOUT" "$2" "${CRC[h/stdio.h]} ${CRC[d/odd.bin]} ${CRC[d/tiny]} ${CRC[d/page1.bin]}" <<'PY'
import sys
import results
rows = list(results.from_log(sys.argv[1]))
sel = lambda c: [r for r in rows if r.get("cmd") == c]
R, C, M, S = sel("bench"), sel("cat"), sel("mmapcat"), sel("splicecat")
P = [r for r in R if r["workload"] == "replay"]  # access=read, then access=mmap twice
H = sys.argv[3].split()
SIZES = [1540, 12291, 5, 4097]
ok = eval(sys.argv[2])
if not ok:
    print("# failed: " + sys.argv[2])
sys.exit(0 if ok else 1)
PY
	then tap_ok "$1"; else tap_not_ok "$1"; fi
}

# the log's reads: 1540 + 12291 + (12291 - 4000) + 1 + 5 + 97 bytes, four of them short
check "bench replay (pread): every byte verified, to the end of each file" \
	"len(P) == 3 and (P[0]['verified'], P[0]['bytes'], P[0]['short_reads']) == (True, 1540 + 12291 + 8291 + 1 + 5 + 97, 4)"
check "bench replay access=mmap: every touched word verified where it lies in the file (1540-byte header too)" \
	"len(P) == 3 and all(r['verified'] and r['calls'] == 15 and r['disk_reads'] > 0 and not r.get('stopped_line') for r in P[1:])"
check "cat (read, 64 KiB and 7-byte reads): every byte verified, each file's whole size" \
	"[(r['verified'], r['bytes']) for r in C] == [(True, s) for s in SIZES for _ in (0, 1)]"
check "mmapcat (page faults): the host's crc32 of each file, its whole size" \
	"[(r['crc32'], r['bytes']) for r in M] == list(zip(H, SIZES))"
check "splicecat (splice): the host's crc32 of each file, its whole size" \
	"[(r['crc32'], r['bytes']) for r in S] == list(zip(H, SIZES))"
check "bench pipeline (read in 4 KiB reads): 12291 bytes, every byte verified" \
	"[(r['verified'], r['bytes']) for r in R if r['workload'] == 'pipeline'] == [(True, 12291)]"
tap_grep '^bench: replay odd.log: .* verified' "$QOUT" "the console says verified"
tap_nogrep '^error: ' "$QOUT" "no error lines"
