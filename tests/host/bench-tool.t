#!/usr/bin/env bash
# tools/bench without QEMU: replay's own --help; replay --logs naming a folder
# that is not there (or not a folder), or none; a results folder from the
# log of a run that failed becomes DIR-FAILED, never silently: the terminal's
# last line says so and where, and a second failed run with the same --out
# gets a folder of its own (DIR-FAILED-2), not one inside the first. Every
# suite gives each algorithm a boot of its own (issues 27 and 38): --dry-run's
# commands, one algorithm a boot, every algorithm a boot. Paths are the caller's:
# run from another folder, relative --logs, --out and --log name files there,
# and messages show them as typed.
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..15"
. tests/host/tap.sh

tools/bench replay --help >"$tmp/out" 2>&1; st=$?
if [ $st = 0 ] && grep -q '^usage: tools/bench replay --logs DIR' "$tmp/out" &&
	! grep -q 'smoke, quick or seeds' "$tmp/out"; then
	ok "tools/bench replay --help: replay's own help"
else
	not_ok "tools/bench replay --help: replay's own help" "$(head -5 "$tmp/out")"
fi
tools/bench --help >"$tmp/out" 2>&1; st=$?
check "tools/bench --help: the general help, pointing at replay's" 0 'tools/bench replay --help says more' \
	"$tmp/out"

tools/bench replay --logs "$tmp/missing" >"$tmp/out" 2>&1; st=$?
check "replay --logs a folder that is not there: says so, exit 1" 1 \
	"^bench: replay --logs $tmp/missing: no such directory$" "$tmp/out"
: >"$tmp/file"
tools/bench replay --logs "$tmp/file" >"$tmp/out" 2>&1; st=$?
check "replay --logs a file: not a directory, exit 1" 1 "^bench: replay --logs $tmp/file: not a directory$" \
	"$tmp/out"
tools/bench replay >"$tmp/out" 2>&1; st=$?
check "replay without --logs: what it needs, exit 1" 1 '^bench: replay needs --logs DIR' "$tmp/out"

# the console log of a run that failed, as tools/bench --log takes a real machine's
cat >"$tmp/failed.log" <<'EOF'
lookahead: a testbed for page-cache readahead
lookahead$ bench replay log=/replay/logs/x.log
error: bench replay: /replay/logs/x.log: line 4: something went wrong
lookahead: exit failure
EOF
tools/bench --log "$tmp/failed.log" --out "$tmp/res" >"$tmp/out" 2>&1; st=$?
check "a failed run's folder: DIR-FAILED, the last line says so and where" 1 \
	"^bench: the run failed \\(error: bench replay: .*something went wrong\\); its folder is $tmp/res-FAILED \\(not $tmp/res\\)$" \
	"$tmp/out"
if [ -d "$tmp/res-FAILED" ] && [ ! -e "$tmp/res" ] &&
	head -1 "$tmp/res-FAILED/table.txt" | grep -q '^FAILED RUN (exit status 1): error: bench replay'; then
	ok "... renamed, the reason at the top of its table"
else
	not_ok "... renamed, the reason at the top of its table" "$(ls "$tmp")"
fi
tools/bench --log "$tmp/failed.log" --out "$tmp/res" >"$tmp/out" 2>&1; st=$?
if [ $st = 1 ] && [ "$(tail -1 "$tmp/out" | grep -c "its folder is $tmp/res-FAILED-2 ")" = 1 ] &&
	[ -f "$tmp/res-FAILED-2/table.txt" ] && [ ! -e "$tmp/res-FAILED/res" ]; then
	ok "the same --out failing again: DIR-FAILED-2, not a folder inside DIR-FAILED"
else
	not_ok "the same --out failing again: DIR-FAILED-2, not a folder inside DIR-FAILED" \
		"$(tail -2 "$tmp/out")" "$(ls -R "$tmp" | head)"
fi
# every suite: each boot runs one algorithm (or the ra=off baseline), each algorithm has its boots
mkdir -p "$tmp/logs"
printf 'fio version 2 iolog\n/a add\n/a open\n/a read 0 4096\n/a close\n' >"$tmp/logs/a.log"
for suite in smoke quick seeds replay; do
	logs=()
	[ $suite = replay ] && logs=(--logs "$tmp/logs")
	tools/bench $suite "${logs[@]}" --ra all --dry-run --out "$tmp/dry-$suite" >"$tmp/out" 2>&1
	st=$?
	if [ $st = 0 ] && python3 - "$tmp/dry-$suite/commands.txt" "$tmp/out" <<'PY'
import re, sys
boots = [l for l in open(sys.argv[1]) if l.startswith("tools/run-qemu ")]
printed = [l for l in open(sys.argv[2]) if l.startswith("tools/run-qemu ")]
seen = {}
for b in boots:
    run = re.search(r'"run=([^"]*)"', b).group(1)
    algos = set(a for x in re.findall(r"(?:^|[ ;])ra=([a-z0-9,-]+)", run) for a in x.split(","))
    if len(algos) > 1:
        sys.exit("a boot runs %s: %s" % (sorted(algos), b))
    if not algos and "baseline=only" not in run:
        sys.exit("a boot names no algorithm: " + b)
    for a in algos:
        seen[a] = seen.get(a, 0) + 1
if len(seen) < 5 or len(set(seen.values())) != 1 or printed != boots:
    sys.exit("boots per algorithm: %s (%d boots, %d printed)" % (seen, len(boots), len(printed)))
PY
	then
		ok "tools/bench $suite --ra all: a boot per algorithm, each running that one alone"
	else
		not_ok "tools/bench $suite --ra all: a boot per algorithm, each running that one alone" \
			"$(tail -3 "$tmp/out")"
	fi
done

# relative paths from another folder: the caller's, shown as typed (issue 38)
top=$PWD
(cd "$tmp" && "$top/tools/bench" replay --logs logs --out rel --dry-run) >"$tmp/out" 2>&1; st=$?
if [ $st = 0 ] && [ -f "$tmp/rel/commands.txt" ] && [ ! -e "$top/rel" ]; then
	ok "run from another folder: relative --logs and --out are the caller's"
else
	not_ok "run from another folder: relative --logs and --out are the caller's" "$(tail -3 "$tmp/out")"
fi
(cd "$tmp" && "$top/tools/bench" replay --logs nothere) >"$tmp/out" 2>&1; st=$?
check "... a relative --logs that is not there: named as typed, exit 1" 1 \
	"^bench: replay --logs nothere: no such directory$" "$tmp/out"
(cd "$tmp" && "$top/tools/bench" --log failed.log --out relf) >"$tmp/out" 2>&1; st=$?
check "... a relative --log: read from the caller's folder, its failed folder named as typed" 1 \
	"its folder is relf-FAILED \\(not relf\\)$" "$tmp/out"
