#!/usr/bin/env bash
# An algorithm is its file (issue 26): tests/fixtures/readahead-ondemand4x.c,
# built into a kernel of its own (make BUILD=... EXTRA_KSRCS=..., the tree's
# objects reused), with no other file of the tree touched, appears in ralist,
# ra= takes it, ratrace names its own cases, and a suite's table has its
# column. (ra=all's order and its cases' numbering: the host test
# test_ra_newalgo.) A copy that kept ondemand's RA_ALGO_DEFAULT or its .order
# does not build, the error naming both files (issue 38).
cd "$(dirname "$0")/../.." || exit 1
. tests/qemu/lib.sh
tap_plan 9

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
# a copied algorithm that kept the default flag, then one that kept the seeds' .order
for kept in "RA_ALGO_MARKS | RA_ALGO_DEFAULT," "RA_ALGO_MARKS, .order = 2,"; do
	sed -e 's/ondemand4x/ondemand4y/g' -e "s/\.flags = RA_ALGO_MARKS,/.flags = $kept/" \
		tests/fixtures/readahead-ondemand4x.c >"$extra/readahead-ondemand4y.c"
	grep -q "$kept" "$extra/readahead-ondemand4y.c" || echo "# the copy did not take '$kept'"
	rm -f "$extra/lookahead.elf"
	make -s BUILD="$extra" EXTRA_KSRCS="tests/fixtures/readahead-ondemand4x.c \
		$extra/readahead-ondemand4y.c" "$extra/lookahead.elf" >"$TAP_TMP/make2.log" 2>&1
	st=$?
	what=$(case "$kept" in *DEFAULT*) echo "say RA_ALGO_DEFAULT" ;; *) echo "have the same .order = 2" ;; esac)
	if [ $st != 0 ] && [ ! -e "$extra/lookahead.elf" ] && grep -q \
		"^ra-registry-check: mm/readahead-ondemand.c (ra_algo_ondemand) and $extra/readahead-ondemand4y.c (ra_algo_ondemand4y) $what" \
		"$TAP_TMP/make2.log"; then
		tap_ok "a copy that kept '$kept': a build error naming both files"
	else
		tap_not_ok "a copy that kept '$kept': a build error naming both files" \
			"$(tail -3 "$TAP_TMP/make2.log")"
	fi
done
# and the checker passes the tree's own kernel (the ordinary build runs it)
if tools/helpers/ra-registry-check $(find build/k -name '*.o') 2>"$TAP_TMP/check.log"; then
	tap_ok "ra-registry-check: the tree's kernel objects, one default, orders 1 and 2 once each"
else
	tap_not_ok "ra-registry-check: the tree's kernel objects" "$(cat "$TAP_TMP/check.log")"
fi
rm -rf "$extra"
