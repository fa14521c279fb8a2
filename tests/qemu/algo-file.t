#!/usr/bin/env bash
# An algorithm is its file (issue 26): tests/fixtures/readahead-ondemand4x.c,
# built into a kernel of its own (make BUILD=... EXTRA_KSRCS=..., the tree's
# objects reused), with no other file of the tree touched, appears in ralist,
# ra= takes it, ratrace names its own cases, and a suite's table has its
# column. (ra=all's order and its cases' numbering: the host test
# test_ra_newalgo.)
cd "$(dirname "$0")/../.." || exit 1
. tests/qemu/lib.sh
tap_plan 6

img=build/img/bench-smoke.img
tools/mkbench smoke >/dev/null 2>&1
extra=build/algo-extra
rm -rf "$extra"
mkdir -p "$extra"
cp -a build/k "$extra/k"	# only the new file compiles
ln -s "$PWD/build/newlib" "$extra/newlib"
if make -s BUILD="$extra" EXTRA_KSRCS=tests/fixtures/readahead-ondemand4x.c \
	"$extra/lookahead32.elf" >"$TAP_TMP/make.log" 2>&1; then
	tap_ok "the kernel builds with the algorithm file added"
else
	tap_not_ok "the kernel builds with the algorithm file added" "$(tail -5 "$TAP_TMP/make.log")"
fi
qemu --kernel "$extra/lookahead32.elf" --mem 64M --disk "$img" --timeout 600 -- ra_kb=128 \
	"run=ralist;cat /bench/big.pat ra=ondemand4x;ratrace last=3;bench suite=smoke ra=ondemand4x,ondemand"
tap_is "$QSTATUS" 0 "ralist, cat, ratrace and the smoke suite with it: exit 0"
tap_result "$QOUT" "ralist lists it" cmd=ralist 'algorithms~[a-z0-9|-]*ondemand4x.*' 
tap_result "$QOUT" "ra=ondemand4x reads with it" cmd=cat ra=ondemand4x
tap_grep '^ratrace: .* algo=ondemand4x case=x4-next ' "$QOUT" "ratrace names its own cases"
tap_result "$QOUT" "the suite's table has its column" cmd=bench-row suite=smoke ondemand4x
rm -rf "$extra"
