#!/usr/bin/env bash
# Every algorithm the same start (issue 38): tools/bench replay boots once per
# algorithm, so linux's rows are the same with --ra linux alone and after
# context and legacy (tools/bench compare: 0 differ), the table says each row's
# window, and --ra-kb gives every algorithm one window. (That every suite's
# boots run one algorithm each: tests/host/bench-tool.t, from --dry-run.)
cd "$(dirname "$0")/../.." || exit 1
. tests/qemu/lib.sh
tap_plan 6

L=$TAP_TMP/logs
mkdir -p "$L"
cp tests/replay/fio-randread.log tests/replay/media-player.log "$L/"
tools/bench replay --logs "$L" --ra linux -j 1 --out "$TAP_TMP/alone" >"$TAP_TMP/alone.out" 2>&1
a=$?
tools/bench replay --logs "$L" --ra context,legacy,linux -j 1 --out "$TAP_TMP/after" \
	>"$TAP_TMP/after.out" 2>&1
b=$?
tap_is "$a $b" "0 0" "tools/bench replay --ra linux, and --ra context,legacy,linux: exit 0"
tools/bench compare "$TAP_TMP/alone" "$TAP_TMP/after" >"$TAP_TMP/cmp.out" 2>&1
tap_grep '^[1-9][0-9]* rows compared, 0 differ, 0 only in ' "$TAP_TMP/cmp.out" \
	"linux's rows alone and after context and legacy: tools/bench compare, 0 differ"
tap_grep '^  linux +8192 +[0-9.]+ +[0-9]+ ' "$TAP_TMP/after/table.txt" \
	"table.txt: linux's row with its own kernel's window (8192 KiB on this disk)"
tap_grep '^  legacy +128 +[0-9.]+ +[0-9]+ ' "$TAP_TMP/after/table.txt" \
	"... and 2.6.20's with its 128 KiB"
tap_grep '^window: each algorithm.s own default; 3 boots, one per algorithm$' \
	"$TAP_TMP/after/table.txt" "... and says whose windows they are, and the boots"
tools/bench replay --logs "$L" --ra linux --ra-kb 128 -j 1 --out "$TAP_TMP/like" \
	>"$TAP_TMP/like.out" 2>&1
if grep -Eq '^  linux +128 ' "$TAP_TMP/like/table.txt" &&
	grep -q '^window: 128 KiB for every algorithm that reads ahead' "$TAP_TMP/like/table.txt"; then
	tap_ok "--ra-kb 128: linux at 128 KiB like the rest"
else
	tap_not_ok "--ra-kb 128: linux at 128 KiB like the rest" \
		"$(tail -5 "$TAP_TMP/like.out")" "$(grep -E '^  linux ' "$TAP_TMP/like/table.txt")"
fi
