#!/usr/bin/env bash
# Capacity at a smaller scale than tools/capacity's (docs/capacity.md): what a
# workload creates comes out of the page cache's RAM (docs/memory.md), so in
# mem=64M 400 paced readers and 256 sysbench threads run, every byte
# verified, a reader costing what docs/memory.md says, and a replay of 2000
# files and 20,000 reads holds its log and tables in RAM; meminfo shows what
# the objects held, and they are all given back. Too many readers for the RAM
# (4000 in 64M) is one error line naming what ran out and what would make room, and so is
# a replay whose files' inodes fill the RAM mid-run (pagecache=12800K: the log and tables
# take 12.2 MiB, the inodes the rest, so an open or a read finds no frame). The replay's image is
# built as tools/capacity's 100,000-file one is (tools/mkbench --iolog).
cd "$(dirname "$0")/../.." || exit 1
. tests/qemu/lib.sh
tap_plan 15

need_bench_image smoke
IMG=build/img/bench-smoke.img

qemu --mem 64M --disk "$IMG" --timeout 300 -- \
	"run=bench thrash streams=400 rate=1K interval=1 tail=2;bench sysbench threads=256 requests=512;meminfo;bench thrash streams=4000 rate=1K interval=1 tail=1"
check() { # check NAME PYTHON-EXPRESSION: over R (bench RESULTs) and M (meminfo)
	if python3 - "$QOUT" "$2" <<'PY'
import sys
import results
rows = results.from_log(sys.argv[1])
R = [r for r in rows if r.get("cmd") == "bench"]
M = results.first(rows, "meminfo") or {}
def one(w):
    m = [r for r in R if r.get("workload") == w]
    return m[0] if len(m) == 1 else {}
ok = eval(sys.argv[2])
if not ok:
    print("# " + repr([R, M])[:600])
sys.exit(0 if ok else 1)
PY
	then tap_ok "$1"; else tap_not_ok "$1"; fi
}
check "mem=64M: 400 paced readers ran, every byte verified" \
	'one("thrash").get("streams") == 400 and one("thrash").get("verified") is True'
# a stack (8 KiB), a file (a 2 KiB object), a 16-byte path, a 4 KiB buffer, 112 bytes of state
check "a reader holds 14,464 bytes of the page cache's RAM, as docs/memory.md itemizes" \
	'14400 <= one("thrash").get("reader_bytes", 0) <= 14600'
check "mem=64M: 256 sysbench threads ran, every byte verified" \
	'one("sysbench").get("threads") == 256 and one("sysbench").get("verified") is True'
# the stacks left: the idle thread's, the AHCI port's and kblockd-sda's (the elevator's timer,
# drivers/blk-timer.c, which cfq has: under deadline 2)
check "meminfo: the threads' stacks and buffers given back, the page cache's RAM whole" \
	'M.get("stacks") == 3 and M.get("vmalloc_kb") == 0 and M.get("kernel_obj_failures") == 0'
errs=$(grep -c '^error: ' "$QOUT")
tap_is "$errs" 1 "mem=64M, 4000 readers: one error line"
tap_grep "^error: bench thrash: .*no memory (for|to) .*[0-9]+[ -]bytes?.*: the page cache's RAM is [0-9]+ MiB, of which kernel objects hold .* a larger mem= .*makes room" \
	"$QOUT" "mem=64M, 4000 readers: the error names what ran out, how much, and what makes room"

# --- a replay whose log and tables live in RAM ---------------------------------------------
mkdir -p build/capacity
LOG=build/capacity/cap-2k.log
[ -f "$LOG" ] || tools/capacity-trace 2000 20000 "$LOG"
RIMG=$(tools/mkbench --iolog "$LOG" --timing asap 2>"$TAP_TMP/mkbench.log")
if [ ! -f "$RIMG" ]; then
	sed 's/^/# /' "$TAP_TMP/mkbench.log"
	echo "Bail out! tools/mkbench --iolog $LOG failed"
	exit 1
fi
# the image as tools/mkbench builds 100,000 files fast (patgen --list, the times set in the
# inode tables in place): a filesystem e2fsck takes whole, every file at the fixed time
if e2fsck -fn "$RIMG" >"$TAP_TMP/fsck.log" 2>&1; then
	tap_ok "the replay image passes e2fsck -fn"
else
	tap_not_ok "the replay image passes e2fsck -fn" \
		"$(grep -v '^Pass\|^e2fsck' "$TAP_TMP/fsck.log" | head -3)"
fi
times=$(debugfs -R "stat /replay/files/cap/d001/f001999" "$RIMG" 2>/dev/null |
	grep -Ec '^ *(a|c|m|cr)time: 0x464b8a20:00000000 ')
tap_is "$times" 4 "a file's atime, ctime, mtime and crtime are mkbench's fixed time (2007-05-16)"
qemu --mem 64M --disk "$RIMG" --timeout 300 -- "run=bench replay log=/replay/logs/cap-2k.log;meminfo"
check "mem=64M: a replay of 2000 files and 20,000 reads, every byte verified" \
	'one("replay").get("files") == 2000 and one("replay").get("log_reads") == 20000 and one("replay").get("verified") is True'
check "the replay's log and tables came out of the page cache's RAM (kernel_objs_kb)" \
	'one("replay").get("kernel_objs_kb", 0) * 1024 > 20000 * 32'
check "meminfo after the replay: its tables given back" \
	'M.get("vmalloc_kb") == 0 and M.get("kernel_obj_failures") == 0'

# --- a replay that runs out of memory mid-run: one error line --------------------------------
# its tables fit the 12.5 MiB pool, the inodes and page indexes of the files it opens stay
# cached until one open finds no frame: bench_open()'s line names the file, the allocation
# and what holds the RAM; the replay adds where it stopped as a note, not a second error
# (then access=mmap, whose fault out of memory maps the zero page: the data check must not
# call those zeros wrong data beside the replay's line)
qemu --mem 64M --disk "$RIMG" --timeout 300 -- pagecache=12800K \
	"run=bench replay log=/replay/logs/cap-2k.log;bench replay log=/replay/logs/cap-2k.log access=mmap"
cp "$QOUT" "$TAP_TMP/oom2.log"
sed -n '/^lookahead\$ bench replay log=[^ ]*$/,/^lookahead\$ /p' "$TAP_TMP/oom2.log" >"$QOUT"
errs=$(grep -c '^error: ' "$QOUT")
# an open that fails: bench_open()'s line, then the replay's note; a read that fails: the
# replay's own line, which says where it stopped (which comes first depends on what the
# kernel's objects hold: under cfq, the default, each reader's queue too)
line=$(sed -n -e 's/^bench replay: .*: stopped at line \([0-9]*\) (the error above), the figures are up to line \1 of 26001$/\1/p' \
	-e 's/^error: bench replay: .*; stopped there, the figures are up to line \([0-9]*\) of 26001$/\1/p' "$QOUT")
if [ "$errs" = 1 ] && [ -n "$line" ] &&
	[ "$(result_field "$QOUT" bench stopped_line)" = "$line" ] &&
	grep -q "^lookahead: command 'bench' failed: out of memory$" "$QOUT"; then
	tap_ok "pagecache=12800K, a replay out of memory at line $line: one error line, a failure exit (-ENOMEM)"
else
	tap_not_ok "pagecache=12800K, a replay out of memory mid-run: one error line, a failure exit" \
		"status $QSTATUS, $errs error lines, stopped at '$line'" \
		"$(grep -E "^error: |stopped at|command 'bench'" "$QOUT")"
fi
room="the page cache's RAM is 12 MiB, of which kernel objects hold .*; a larger mem= \(or pagecache=\) makes room"
file="/replay/files/cap/d[0-9]+/f[0-9]+"
tap_grep "^error: bench replay: ($file: no memory to open it \(a [0-9]+-byte allocation failed\): $room|/replay/logs/cap-2k.log: line [0-9]+: a read of [0-9]+ bytes at [0-9]+ of $file returned -12 \(out of memory\), not [0-9]+: $room; stopped there, .*)$" \
	"$QOUT" "the replay's error names the file, the open's allocation or the read, what holds the RAM and what makes room"
check "the run's RESULT says it stopped: not verified, its figures up to that line" \
	'one("replay").get("verified") is False and one("replay").get("stopped_line", 0) > 0'
sed -n '/^lookahead\$ bench replay log=[^ ]* access=mmap$/,$p' "$TAP_TMP/oom2.log" >"$QOUT"
errs=$(grep -c '^error: ' "$QOUT")
if [ "$errs" = 1 ] && [ "$QSTATUS" = 1 ] &&
	grep -Eq "^error: bench replay: .*: line [0-9]+: .*out of memory.*: the page cache's RAM is 12 MiB, .*makes room; stopped there" "$QOUT" &&
	grep -q "^lookahead: command 'bench' failed: out of memory$" "$QOUT"; then
	tap_ok "access=mmap out of memory: one error line with what holds the RAM (no 'wrong data' for the zero page), -ENOMEM"
else
	tap_not_ok "access=mmap out of memory: one error line with what holds the RAM, -ENOMEM" \
		"status $QSTATUS, $errs error lines" "$(grep -E "^error: |command 'bench'" "$QOUT")"
fi
