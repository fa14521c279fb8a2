#!/usr/bin/env bash
# lrrun (tools/helpers/lrrun.c, tools/linux-ref's replayer in the Linux guest) on the host,
# on a made-up mount: timing=asap as before (no pauses, the summary line unchanged);
# timing=recorded keeps a version 3 log's timestamps and a version 2 log's waits, as a
# busy loop (think=cpu) or a sleep (think=sleep), and says what it waited; a bad timing= or
# think= value, and think=sleep without timing=recorded, are one line, exit status 2; a
# pause of more than an hour under timing=recorded is one error naming its line, exit 1.
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..10"
. tests/host/tap.sh

make -s build/host/lrrun >"$tmp/make" 2>&1 || { echo "Bail out! make build/host/lrrun"; exit 1; }
lr=build/host/lrrun
mkdir -p "$tmp/mnt/replay/files/ref"
head -c 262144 /dev/zero >"$tmp/mnt/replay/files/ref/a.dat"
# 0.3 s of pauses: 100 ms to the first read, 200 ms more to the second, a write between
printf '%s\n' "fio version 3 iolog" "0 /ref/a.dat add" "0 /ref/a.dat open" \
	"100000 /ref/a.dat read 0 4096" "150000 /ref/a.dat write 0 4096" \
	"300000 /ref/a.dat read 65536 4096" "300000 /ref/a.dat close" >"$tmp/v3.log"
printf '%s\n' "fio version 2 iolog" "/ref/a.dat add" "/ref/a.dat open" \
	"/ref/a.dat read 0 4096" "/ref/a.dat wait 200000 0" "/ref/a.dat read 4096 4096" \
	"/ref/a.dat close" >"$tmp/v2.log"
printf '%s\n' "fio version 3 iolog" "0 /ref/a.dat add" "0 /ref/a.dat open" \
	"3600000001 /ref/a.dat read 0 4096" "3600000001 /ref/a.dat close" >"$tmp/long.log"

run() { "$lr" "$@" mnt="$tmp/mnt" >"$tmp/out" 2>&1; st=$?; }
waited() { # the seconds lrrun says it waited
	sed -n 's/.*; waited \([0-9.]*\) s, .*/\1/p' "$tmp/out"
}
run "$tmp/v3.log"
asap="v3.log: 2 reads, 8192 bytes, 1 opens \(0 kept\), 0 pages touched; access=read"
asap="$asap advice=none madvise=none prot=read files=close; 0\.[0-2][0-9]{2} s$"
check "timing=asap (the default): no pauses, the summary line as before" 0 "^lrrun: .*$asap" \
	"$tmp/out"
for think in cpu sleep; do
	run "$tmp/v3.log" timing=recorded think=$think
	want="close timing=recorded think=$think; waited 0\.[0-9]{3} s, 0 lines late; 0\.[0-9]+ s$"
	check "version 3, timing=recorded think=$think: its timestamps kept, the wait said" 0 \
		"$want" "$tmp/out"
	w=$(waited)
	if [ -n "$w" ] && awk -v w="$w" 'BEGIN { exit !(w >= 0.299 && w < 1) }'; then
		ok "think=$think: waited the log's 0.3 s ($w s)"
	else
		not_ok "think=$think: waited the log's 0.3 s" "$(cat "$tmp/out")"
	fi
done
run "$tmp/v2.log" timing=recorded think=sleep
check "version 2, timing=recorded think=sleep: the wait of 200 ms kept" 0 \
	"think=sleep; waited 0\.(199|2[0-9]{2}) s, 0 lines late; " "$tmp/out"
run "$tmp/v3.log" timing=later
check "timing=later: one line naming the choices, exit 2" 2 \
	"^lrrun: timing=later: not one of asap recorded$" "$tmp/out"
run "$tmp/v3.log" timing=recorded think=nap
check "think=nap: one line naming the choices, exit 2" 2 \
	"^lrrun: think=nap: not one of cpu sleep$" "$tmp/out"
run "$tmp/v3.log" think=sleep
check "think=sleep without timing=recorded: one line, exit 2" 2 \
	"^lrrun: think=sleep is timing=recorded's \(timing=asap has no pauses\)$" "$tmp/out"
run "$tmp/long.log" timing=recorded
check "a pause over an hour under timing=recorded: one error naming its line, exit 1" 1 \
	"^lrrun: .*long.log: line 4: a pause of 3600 s; timing=recorded keeps pauses of up to an" \
	"$tmp/out"
