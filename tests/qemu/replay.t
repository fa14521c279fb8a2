#!/usr/bin/env bash
# bench replay and its suite on the modelled disk in virtual time: the shipped
# traces (tests/replay/) with every algorithm the kernel registers, every byte
# verified; a sequential trace of one file gives exactly cat's disk requests
# with every algorithm; timing=recorded takes at least the trace's own time,
# and with think=sleep its pauses sleep and decide the same;
# writes, syncs and trims are counted and skipped; opens and
# closes as logged or kept; a read of any size is one request, as readahead
# sees it; a read error stops the replay saying where; and
# every bad log is one error naming its line, with nothing replayed.
cd "$(dirname "$0")/../.." || exit 1
. tests/qemu/lib.sh
tap_plan 39

# --- the suite on the shipped traces -------------------------------------------------------
IMG=$(tools/mkbench --iolog tests/replay/*.log --files tests/replay/build-headers.sizes \
	--files tests/replay/db-oltp.sizes 2>"$TAP_TMP/mkbench.log")
if [ ! -f "$IMG" ]; then
	sed 's/^/# /' "$TAP_TMP/mkbench.log"
	echo "Bail out! tools/mkbench --iolog tests/replay/*.log failed"
	exit 1
fi
qemu --mem 128M --disk "$IMG" --timeout 300 -- \
	"run=params;bench suite=replay;bench replay log=/replay/logs/media-player.log timing=asap"
tap_is "$QSTATUS" 0 "bench suite=replay on the shipped traces exits 0"
SUITE=$QOUT
# the algorithms as the kernel's ra= key lists them, not as this script would
ALGOS=$(sed -n 's/^  ra  .*(one of \([a-z|-]*\))$/\1/p' "$SUITE" | tr '|' ' ')
[ -n "$ALGOS" ] || echo "# no 'ra' line in params"

check() { # check NAME PYTHON-EXPRESSION [LOG]: over R (bench RESULTs), F (bench-file), S (others)
	if python3 - "${3:-$QOUT}" "$2" "$ALGOS" <<'PY'
import sys
import results
R, F, S = [], [], []
for r in results.from_log(sys.argv[1]):
    (R if r.get("cmd") == "bench" else F if r.get("cmd") == "bench-file" else S).append(r)
A = sys.argv[3].split()
def one(test, ra, **kw):
    m = [r for r in R if r.get("test") == test and r.get("ra") == ra and all(r.get(k) == v for k, v in kw.items())]
    return m[0] if len(m) == 1 else {}
ok = eval(sys.argv[2])
if not ok:
    print("# failed: " + sys.argv[2])
sys.exit(0 if ok else 1)
PY
	then tap_ok "$1"; else tap_not_ok "$1"; fi
}

LOGS='["build-headers.log", "db-oltp.log", "fio-randread.log", "media-player.log"]'
check "the suite ran every shipped log with every algorithm the kernel lists ($ALGOS)" \
	"len(A) >= 3 and sorted((r['test'], r['ra']) for r in R if r.get('suite') == 'replay') == sorted((l, a) for l in $LOGS for a in A) and [s for s in S if s.get('cmd') == 'bench-suite'][0]['algorithms'] == ','.join(A)"
check "every replay read every byte right, at the log's length" \
	"all(r['verified'] is True and r['log_reads'] == r['calls'] for r in R)"
check "the RESULT keys: time, disk reads, average request, stall, readahead, what was skipped" \
	"all(k in r for r in R for k in ('secs', 'disk_reads', 'avg_req_kb', 'stall_secs', 'ra_windows', 'skipped_writes', 'skipped_syncs', 'skipped_trims', 'trace_secs', 'waited_secs', 'clock'))"
check "per-file lines: each file's reads add up to the run's, its disk I/Os to the run's submissions" \
	"all(sum(f['reads'] for f in F if f['log'].endswith(r['test']) and f['ra'] == r['ra'] and f.get('suite') == 'replay') == r['calls'] and sum(f['ios'] for f in F if f['log'].endswith(r['test']) and f['ra'] == r['ra'] and f.get('suite') == 'replay') == r['ra_sync'] + r['ra_async'] + r['readpage_ios'] for r in R if r.get('suite') == 'replay')"
check "timing=recorded: each replay takes at least its trace's own time (versions 2 and 3, fio's own)" \
	"all(r['secs'] >= r['trace_secs'] > 0.01 for r in R if r.get('suite') == 'replay')"
check "waited_secs: the log's pauses less what the reads took (less with ra=off's slower reads), at most the trace's time" \
	"one('media-player.log', 'off', suite='replay')['waited_secs'] < one('media-player.log', 'ondemand', suite='replay')['waited_secs'] <= one('media-player.log', 'ondemand', suite='replay')['trace_secs']" "$SUITE"
check "timing=asap drops the media player's 48 waits: faster than its 1.5 s of playback" \
	"one('media-player.log', 'ondemand', suite=None).get('waits') == 48 and one('media-player.log', 'ondemand', suite=None)['secs'] < 0.5 and one('media-player.log', 'ondemand', suite=None)['waited_secs'] == 0"
check "readahead pays off on the paced stream: fewer, larger requests than ra=off" \
	"one('media-player.log', 'ondemand', suite='replay')['disk_reads'] * 5 < one('media-player.log', 'off', suite='replay')['disk_reads']"
tap_grep '^db-oltp.log +ondemand +128K +[0-9.]+ +[0-9]+ +[0-9.]+ +[0-9.]+  verified$' "$SUITE" \
	"the suite's table: a row per log and algorithm, with its window"

# Each row counts the same whatever ran before it: ondemand alone gives the counts it gave after
# legacy in the full suite (a cold start waits for the reads in flight before it drops the
# page cache; it passed their locked pages by, and media-player.log's row after legacy had
# 472 pages read ahead where alone it has 504). Times are left out: build-headers.log's
# moves by 2 us with what ran before (the kernel's state outside the page cache and disk)
qemu --mem 128M --disk "$IMG" --timeout 120 -- "run=bench suite=replay ra=ondemand"
ALONE=$QOUT
if python3 - "$SUITE" "$ALONE" <<'PY'
import sys
import results
keys = ("calls", "bytes", "disk_reads", "ra_calls", "ra_sync", "ra_async", "ra_pages",
        "ra_hit_pages", "ra_windows", "readpage_ios")
def rows(path):
    return {r["test"]: {k: r.get(k) for k in keys} for r in results.from_log(path)
            if r.get("cmd") == "bench" and r.get("suite") == "replay" and r.get("ra") == "ondemand"}
full, alone = rows(sys.argv[1]), rows(sys.argv[2])
bad = [t for t in alone if full.get(t) != alone[t]]
for t in bad:
    print("# %s: in the suite %s, alone %s" % (t, full.get(t), alone[t]))
sys.exit(0 if alone and len(alone) == len(full) and not bad else 1)
PY
then tap_ok "the suite's ondemand rows alone: every count as after the algorithms before"
else tap_not_ok "the suite's ondemand rows alone: every count as after the algorithms before"
fi

mkdir -p "$TAP_TMP/res"
cp "$SUITE" "$TAP_TMP/res/console.log"
tools/bench-report "$TAP_TMP/res" >"$TAP_TMP/report.log" 2>&1
if [ "$(head -c 8 "$TAP_TMP/res/replay.png" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
	grep -q '^replay suite: every log with every algorithm' "$TAP_TMP/res/table.txt"; then
	tap_ok "tools/bench-report: the replay table and replay.png"
else
	tap_not_ok "tools/bench-report: the replay table and replay.png" "$(tail -3 "$TAP_TMP/report.log")"
fi
tap_grep '^  linux +8192 +[0-9.]+ +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9]+  verified$' "$TAP_TMP/res/table.txt" \
	"the replay table: each algorithm by its ra= name, its window, time deciding, waiting in the calls, waited, late lines"

# --- traces made here: sequential, skips, reopen, short reads --------------------------------
L=$TAP_TMP/logs
mkdir -p "$L"
python3 - "$L" <<'PY'
import sys
d = sys.argv[1]
with open(d + "/seq.log", "w") as f:  # one file, in order, 64 KiB at a time: what cat does
    f.write("fio version 2 iolog\n/data/seq.bin add\n/data/seq.bin open\n")
    for i in range(0, 8 << 20, 65536):
        f.write("/data/seq.bin read %d 65536\n" % i)
    f.write("/data/seq.bin close\n")
with open(d + "/skips.log", "w") as f:
    f.write("fio version 3 iolog\n0 /s add\n0 /s open\n10 /s read 0 4096\n20 /s write 0 4096\n"
            "30 /s sync 0 0\n40 /s datasync 0 0\n50 /s trim 0 4096\n60 /s sync 0 0\n"
            "80 /s read 4096 4096\n90 /s close\n")
with open(d + "/reopen.log", "w") as f:
    f.write("fio version 2 iolog\n/r add\n/r open\n/r read 0 65536\n/r close\n"
            "/r open\n/r read 65536 65536\n/r close\n")
with open(d + "/tail.log", "w") as f:  # a file of 10000 bytes: a short read, then one at its end
    f.write("fio version 2 iolog\n/t add\n/t open\n/t read 8192 4096\n/t read 10000 4096\n/t close\n")
with open(d + "/tail.sizes", "w") as f:
    f.write("# tail.log's file\n/t 10000\n")
with open(d + "/big.log", "w") as f:  # sort's reads: far larger than any buffer of the kernel's
    f.write("fio version 3 iolog\n0 /big.bin add\n0 /big.bin open\n10 /big.bin read 0 20971520\n"
            "20 /big.bin read 20971520 8388608\n30 /big.bin read 1000 5000000\n40 /big.bin close\n")
PY
IMG2=$(tools/mkbench --iolog "$L"/*.log --files "$L/tail.sizes" 2>"$TAP_TMP/mkbench2.log")
[ -f "$IMG2" ] || sed 's/^/# /' "$TAP_TMP/mkbench2.log"
# the same set-up before each run: the log read and the file looked up, so the phases
# see only the file's own reads; as many algorithms a boot as its command line holds
pre="drop_caches;cat /replay/logs/seq.log;stat /replay/files/data/seq.bin;rastat reset=1;diskstats"
more="bench replay log=/replay/logs/skips.log;bench replay log=/replay/logs/reopen.log"
more="$more;bench replay log=/replay/logs/reopen.log files=keep;bench replay log=/replay/logs/tail.log"
more="$more;rastat reset=1;bench replay log=/replay/logs/big.log ra=ondemand;ratrace file=/replay/files/big.bin first=2"
SEQ=$TAP_TMP/seq.log
: >"$SEQ"
status=0 run=""
for a in $ALGOS ""; do
	one="$pre;cat /replay/files/data/seq.bin bs=64k ra=$a;diskstats;ratrace"
	one="$one;$pre;bench replay log=/replay/logs/seq.log ra=$a;diskstats;ratrace"
	if [ -n "$run" ] && { [ -z "$a" ] || [ $((${#run} + ${#one})) -gt 900 ]; }; then
		qemu --mem 128M --disk "$IMG2" --timeout 120 -- "run=${run#;}"
		[ "$QSTATUS" = 0 ] || status=$QSTATUS
		cat "$QOUT" >>"$SEQ"
		run=""
	fi
	run="$run;$one"
done
qemu --mem 128M --disk "$IMG2" --timeout 60 -- "run=$more"
[ "$QSTATUS" = 0 ] || status=$QSTATUS
tap_is "$status" 0 "cat and bench replay of a sequential trace, every algorithm; skips, reopen, tail, big"
# for each algorithm: the disk's request counters around cat and around the replay, their
# readahead counters and the readahead decisions (ratrace, times aside), pairwise
if python3 - "$SEQ" "$ALGOS" >"$TAP_TMP/seq.txt" <<'PY'
import json, re, sys
import results
blocks, cur, cmd, stats = [], None, "", None
for line in open(sys.argv[1], errors="replace"):
    if line.startswith("lookahead$ "):
        cmd = line[11:].strip()
        if cmd.startswith(("cat /replay/files/", "bench replay log=/replay/logs/seq.log")):
            cur = {"trace": [], "stats": [stats]}
            blocks.append(cur)
        elif not cmd.startswith(("diskstats", "ratrace")):
            cur = None
    elif results.parse(line) is not None:
        r = results.parse(line)
        if r["cmd"] == "diskstats":
            stats = r["disks"][0]
            if cur is not None and len(cur["stats"]) == 1:
                cur["stats"].append(stats)
        elif r["cmd"] in ("cat", "bench") and cur is not None:
            cur["result"] = r
    elif line.startswith("ratrace: t=") and cur is not None:
        cur["trace"].append(re.sub(r"^ratrace: t=\S+ ", "", line.strip()))
algos = sys.argv[2].split()
if len(blocks) != 2 * len(algos):
    sys.exit("# %d cat/replay runs, want %d" % (len(blocks), 2 * len(algos)))
keys = ("reads", "reads_merged", "sectors_read", "size_hist", "elv_dispatched", "elv_sorted")
bad = 0
for i, a in enumerate(algos):
    c, r = blocks[2 * i], blocks[2 * i + 1]
    d = lambda b, k: b["stats"][1][k] - b["stats"][0][k] if k != "size_hist" else \
        [y - x for x, y in zip(b["stats"][0][k], b["stats"][1][k])]
    dc, dr = [d(c, k) for k in keys], [d(r, k) for k in keys]
    rk = ("disk_reads", "avg_req_kb", "ra_calls", "ra_sync", "ra_async", "ra_pages", "ra_windows", "readpage_ios", "bytes")
    same = dc == dr and [c["result"][k] for k in rk] == [r["result"][k] for k in rk] and \
        c["trace"] == r["trace"] and c["result"]["verified"] and r["result"]["verified"]
    print("# %-9s cat: %d requests, %d sectors, %d readahead decisions; replay: %d, %d, %d: %s" %
          (a, dc[0], dc[2], len(c["trace"]), dr[0], dr[2], len(r["trace"]), "equal" if same else "DIFFERENT"))
    bad += not same or dc[0] == 0
sys.exit(1 if bad else 0)
PY
then
	tap_ok "a sequential trace gives exactly cat's disk requests (count, sectors, sizes, merges) and readahead decisions"
else
	tap_not_ok "a sequential trace gives exactly cat's disk requests (count, sectors, sizes, merges) and readahead decisions"
fi
cat "$TAP_TMP/seq.txt"
check "skips.log: 1 write, 3 syncs, 1 trim counted and skipped, its 2 reads replayed" \
	"[(r['skipped_writes'], r['skipped_syncs'], r['skipped_trims'], r['calls'], r['verified']) for r in R if r['test'] == 'skips.log'] == [(1, 3, 1, 2, True)]"
tap_grep '^bench replay: /replay/logs/skips.log: fio iolog version 3, 11 lines, 2 reads of 1 file; skipped: 1 write, 3 syncs, 1 trim; asap timing, files close$' "$QOUT" \
	"the console says what was skipped"
check "files=close opens the file twice as logged, files=keep once and keeps it" \
	"[f['opens'] for f in F if f['log'].endswith('reopen.log')] == [2, 1] and [(r['kept_opens'], r['verified']) for r in R if r['test'] == 'reopen.log'] == [(0, True), (1, True)]"
check "a read across the file's end is short, one at its end reads nothing, as the application saw" \
	"[(r['bytes'], r['short_reads'], r['verified']) for r in R if r['test'] == 'tail.log'] == [(10000 - 8192, 2, True)]"

check "big.log: reads of 20 MiB, 8 MiB and 5 MB replay whole, every byte verified, one call each" \
	"[(r['calls'], r['bytes'], r['short_reads'], r['verified']) for r in R if r['test'] == 'big.log'] == [(3, 20971520 + 8388608 + 5000000, 0, True)]"
tap_grep '^ratrace: t=[0-9.]+ file=/replay/files/big.bin algo=ondemand case=sequential-first offset=0 req=5120 ' "$QOUT" \
	"big.log: one request as readahead sees it: the 20 MiB read's 5120 pages are its req_size"
# inside a readahead call ext2 reads an indirect block and waits for it: not the algorithm's time
check "big.log: the readahead calls wait on the disk inside (ext2's indirect blocks): ra_decide_wait_secs, not ra_decide_secs" \
	"[r['ra_decide_wait_secs'] > r['ra_decide_secs'] > 0 for r in R if r['test'] == 'big.log'] == [True] or print('# ' + str([(r['ra_decide_secs'], r['ra_decide_wait_secs']) for r in R if r['test'] == 'big.log']))"

# --- think=sleep: the recorded pauses sleep, the disk's completions run during them ------------
# sleep first: a think=cpu replay ends with its last window's read in flight, and
# drop_caches keeps pages under I/O, so a replay after it would find them cached
run=""
for t in sleep cpu; do
	run="$run;drop_caches disk=cold;ratrace clear=1 last=0"
	run="$run;bench replay log=/replay/logs/media-player.log timing=recorded think=$t ra=ondemand"
	run="$run;ratrace"
done
qemu --mem 128M --disk "$IMG" --timeout 60 -- "run=${run#;}"
tap_is "$QSTATUS" 0 "media-player.log with timing=recorded, think=sleep then think=cpu"
tap_grep '^bench replay: /replay/logs/media-player.log: .*; recorded timing \(think=sleep\), files close$' \
	"$QOUT" "the console says the pauses sleep"
check "think=sleep and think=cpu: the same readahead, every byte verified, both waiting the log's 1.5 s" \
	"len(R) == 2 and all(R[0][k] == R[1][k] for k in ('calls', 'ra_calls', 'ra_sync', 'ra_async', 'ra_pages', 'ra_windows', 'readpage_ios', 'bytes')) and all(r['verified'] and 1.4 < r['waited_secs'] <= r['trace_secs'] for r in R)"
awk -v d="$TAP_TMP" '/^lookahead\$ ratrace$/ { n++ }
	/^ratrace: t=/ { sub(/^ratrace: t=[^ ]* /, ""); print > (d "/think" n ".txt") }' "$QOUT"
if [ -s "$TAP_TMP/think1.txt" ] && cmp -s "$TAP_TMP/think1.txt" "$TAP_TMP/think2.txt"; then
	tap_ok "think=sleep and think=cpu: the same readahead decisions, event for event (ratrace)"
else
	tap_not_ok "think=sleep and think=cpu: the same readahead decisions, event for event (ratrace)" \
		"$(diff "$TAP_TMP/think1.txt" "$TAP_TMP/think2.txt" 2>&1 | head -5)"
fi

# --- a read error stops the replay, saying where -----------------------------------------------
blk=$(debugfs -R "bmap /replay/files/data/seq.bin 1200" "$IMG2" 2>/dev/null)
tools/mkdisk blkdebug "$TAP_TMP/eio.conf" $((blk * 8)) >/dev/null 2>&1
qemu --mem 128M --disk "blkdebug:$TAP_TMP/eio.conf:$IMG2" --timeout 120 -- \
	"run=bench replay log=/replay/logs/seq.log"
tap_is "$QSTATUS" 1 "a disk error inside the file fails the replay"
tap_grep '^error: bench replay: /replay/logs/seq.log: line 79: a read of 65536 bytes at 4915200 of /replay/files/data/seq.bin returned -5 \(I/O error\), not 65536; stopped there, the figures are up to line 79 of 132$' "$QOUT" \
	"one line names the read that failed (block 1200: line 79) and says the replay stopped there"
tap_is "$(grep -c '^error: bench replay' "$QOUT")" 1 "one error line from the replay"

# --- bad logs: one error naming the line, nothing replayed ----------------------------------------
B=$TAP_TMP/bad
mkdir -p "$B/replay/logs" "$B/replay/files"
make -s build/host/patgen >/dev/null 2>&1
build/host/patgen "$B/replay/files/f" 8192
: >"$B/replay/logs/empty.log"
printf '/f add\n/f open\n/f read 0 4096\n' >"$B/replay/logs/noversion.log"
printf 'fio version 2 iolog\n/f add\n/f open\n/f write 0 4096\n/f close\n' >"$B/replay/logs/noreads.log"
printf 'fio version 2 iolog\n/f add\n/f open\n/f read 4x96 4096\n' >"$B/replay/logs/badnum.log"
printf 'fio version 2 iolog\n/f add\n/f open\n/g read 0 4096\n' >"$B/replay/logs/neveradded.log"
printf 'fio version 2 iolog\n/f add\n/f read 0 4096\n/f open\n' >"$B/replay/logs/beforeopen.log"
printf 'fio version 2 iolog\n/f add\n/f open\n/f read 0 4096\n/f read 12288 4096\n' >"$B/replay/logs/pastend.log"
printf 'fio version 3 iolog\n0 /missing add\n0 /missing open\n5 /missing read 0 1\n' >"$B/replay/logs/missing.log"
printf 'fio version 3 iolog\n0 /../f add\n0 /../f open\n5 /../f read 0 1\n' >"$B/replay/logs/dotdot.log"
printf 'fio version 2 iolog\n/f add\n/f open\n/f read 0 4096\n/f raed 0 4096\n' >"$B/replay/logs/misspelt.log"
printf 'fio version 2 iolog\n/f add\n/f open\n/f read 0 1\n/f wait 3600000001 0\n' >"$B/replay/logs/bigwait.log"
mke2fs -q -F -t ext2 -b 4096 -d "$B" "$TAP_TMP/bad.img" 8M >/dev/null 2>&1
run="bench replay"
for l in empty noversion noreads badnum neveradded beforeopen pastend missing dotdot misspelt; do
	run="$run;bench replay log=/replay/logs/$l.log"
done
run="$run;bench replay log=/replay/logs/bigwait.log timing=recorded"
run="$run;bench replay log=/replay/logs/empty.log think=sleep"
run="$run;bench replay log=/replay/logs/empty.log timing=recorded think=nap"
qemu --mem 64M --disk "$TAP_TMP/bad.img" --timeout 60 -- "run=$run;bench replay log=/nosuch.log"
tap_is "$QSTATUS" 1 "bad logs fail the run"
want=(
	'which log\? log=PATH'
	'/replay/logs/empty.log: an empty log: no version line$'
	"/replay/logs/noversion.log: line 1: not a fio iolog: the first line must be 'fio version 2 iolog' or 'fio version 3 iolog'$"
	'/replay/logs/noreads.log: no reads: nothing to replay$'
	"/replay/logs/badnum.log: line 4: offset '4x96' is not an unsigned decimal number$"
	'/replay/logs/neveradded.log: line 4: read of /g, a file never added$'
	'/replay/logs/beforeopen.log: line 3: read of /f, which is not open$'
	'/replay/logs/pastend.log: line 5: a read at offset 12288 of /f, past what the image holds \(8192 bytes\)$'
	'/replay/logs/missing.log: line 2: /missing: /replay/files/missing is not a file of the image'
	"/replay/logs/dotdot.log: line 2: /../f is not a plain path"
	"/replay/logs/misspelt.log: line 5: unknown action 'raed' \\(one of add, open, close, read, write, sync, datasync, trim, wait\\)$"
	'/replay/logs/bigwait.log: line 5: a pause of 3600 s; timing=recorded keeps pauses of up to an hour'
	"think=sleep is timing=recorded's \(timing=asap has no pauses\)$"
	"bad value 'nap' for key 'think': expected one of cpu\|sleep$"
	'/nosuch.log: '
)
n=0
for w in "${want[@]}"; do
	if grep -Eq "^error: bench replay: $w" "$QOUT"; then n=$((n + 1)); else echo "# missing: $w"; fi
done
tap_is "$n" "${#want[@]}" "each bad log gets its error line, naming the line where there is one"
tap_is "$(grep -c '^error: ' "$QOUT")" "${#want[@]}" "one error line each"
tap_nogrep '^bench: replay ' "$QOUT" "nothing of a bad log is replayed"

# the host side refuses the same logs with the same messages, before building anything
tools/mkbench --iolog "$B/replay/logs/badnum.log" >/dev/null 2>"$TAP_TMP/mk.err"
tap_grep "^mkbench: .*badnum.log: line 4: offset '4x96' is not an unsigned decimal number$" "$TAP_TMP/mk.err" \
	"tools/mkbench --iolog refuses a bad log with the kernel parser's message"
tools/mkbench --iolog "$B/replay/logs/bigwait.log" >/dev/null 2>"$TAP_TMP/mk.err"
tap_grep "^mkbench: .*bigwait.log: line 5: a pause of 3600 s; timing=recorded keeps pauses of up to an hour" \
	"$TAP_TMP/mk.err" "tools/mkbench --iolog refuses, before any boot, what the replay cannot replay (naming the line)"
printf '/f 100\n' >"$TAP_TMP/small.sizes"
tools/mkbench --iolog "$B/replay/logs/pastend.log" --files "$TAP_TMP/small.sizes" >/dev/null 2>"$TAP_TMP/mk.err"
tap_grep "^mkbench: .*pastend.log line 5: a read at offset 12288 of /f, past its size 100" "$TAP_TMP/mk.err" \
	"tools/mkbench --iolog refuses a size list smaller than a read's offset"

# --- tools/strace2iolog on a real strace, and its log replayed ----------------------------------
if command -v strace >/dev/null; then
	S=$TAP_TMP/st
	mkdir -p "$S"
	build/host/patgen "$S/data.pat" 300000
	(cd "$S" && strace -f -tt -y -e trace=openat,read,pread64,lseek,close -o "$S/cat.strace" \
		dd if=data.pat of=/dev/null bs=64k skip=1 2>/dev/null)
	tools/strace2iolog "$S/cat.strace" -o "$S/dd.log" 2>"$S/conv.err"
	tap_grep "^[0-9]+ $S/data.pat read 65536 65536$" "$S/dd.log" \
		"strace2iolog: dd's reads at their offsets (skip=1: from 64 KiB), in a version 3 log"
	tap_grep "^$S/data.pat 300000$" "$S/dd.sizes" "strace2iolog: the file's size in the sizes list"
	IMG3=$(tools/mkbench --iolog "$S/dd.log" --files "$S/dd.sizes" 2>/dev/null)
	qemu --mem 64M --disk "$IMG3" --timeout 60 -- "run=bench replay log=/replay/logs/dd.log timing=recorded"
	check "the converted trace replays, every byte verified, dd's file from 64 KiB to its end" \
		"[(r['verified'], r['version']) for r in R] == [(True, 3)] and [f['bytes'] for f in F if f['path'].endswith('/data.pat')] == [300000 - 65536]"
else
	for i in 1 2 3; do tap_ok "strace2iolog # SKIP no strace"; done
fi
