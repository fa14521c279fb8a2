#!/usr/bin/env bash
# An elevator is its file (issue 37): a renamed copy of drivers/deadline-iosched.c
# ("deadline-copy", made here with sed, its default flag dropped), built into a
# kernel of its own (make BUILD=... EXTRA_KSRCS=..., the tree's objects reused)
# with no other file of the tree touched, is offered by elevator=, and a disk
# booted with it names it (lsblk's RESULT, blockdev, the bench settings line)
# and reads through it. Also: with no elevator= a disk gets cfq, the default (as
# 2.6.20's block/Kconfig.iosched), and lsblk names it.
cd "$(dirname "$0")/../.." || exit 1
. tests/qemu/lib.sh
tap_plan 8

img=build/img/bench-smoke.img
tools/mkbench smoke >/dev/null 2>&1
extra=build/elv-extra
rm -rf "$extra"
mkdir -p "$extra"
cp -a build/k "$extra/k"	# only the new file compiles
ln -s "$PWD/build/newlib" "$extra/newlib"
sed -e 's/\.name = "deadline"/.name = "deadline-copy"/' -e '/\.flags = ELV_DEFAULT,/d' \
	-e 's/elevator_deadline\b/elevator_deadline_copy/g' \
	drivers/deadline-iosched.c >"$extra/deadline-copy-iosched.c"
if grep -q '"deadline-copy"' "$extra/deadline-copy-iosched.c" &&
	make -s BUILD="$extra" EXTRA_KSRCS="$extra/deadline-copy-iosched.c" \
		"$extra/lookahead32.elf" >"$TAP_TMP/make.log" 2>&1; then
	tap_ok "the kernel builds with the elevator file added"
else
	tap_not_ok "the kernel builds with the elevator file added" "$(tail -5 "$TAP_TMP/make.log")"
fi
qemu --kernel "$extra/lookahead32.elf" --timeout 60 -- elevator=bogus "run=lsblk"
tap_grep "expected one of cfq\|deadline\|deadline-copy\|noop" "$QOUT" \
	"elevator= offers it among the others, in name order"
qemu --kernel "$extra/lookahead32.elf" --mem 64M --disk "$img" --timeout 300 -- \
	elevator=deadline-copy "run=lsblk;blockdev disk=0;bench iozone path=/bench/big.pat i=read"
tap_is "$QSTATUS" 0 "lsblk, blockdev and a bench phase with it: exit 0"
tap_result "$QOUT" "lsblk's RESULT names it" cmd=lsblk disks.0.elevator=deadline-copy
tap_result "$QOUT" "blockdev names it" cmd=blockdev elevator=deadline-copy
tap_grep '^bench: iozone read: .* elevator=deadline-copy ' "$QOUT" \
	"the bench settings line names it"
rm -rf "$extra"
qemu --mem 64M --disk "$img" --timeout 300 -- \
	"run=lsblk;bench iozone path=/bench/big.pat i=read;diskstats"
tap_result "$QOUT" "no elevator=: cfq, the default; lsblk's RESULT names it" cmd=lsblk \
	disks.0.elevator=cfq
tap_result "$QOUT" "cfq: a sequential read through it verifies" \
	cmd=bench workload=iozone test=read verified=true
