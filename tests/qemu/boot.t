#!/usr/bin/env bash
# Foundation: the kernel boots by -kernel (Multiboot1) and by GRUB
# (Multiboot2), runs its selftests, rejects bad command lines with one line
# naming the key, boots in the target machine's 2 GiB without an error, and
# reports a page fault with RIP and CR2. Every selftest
# suite runs in the -kernel boot; the GRUB boot runs all but the
# two long ones that take nothing from the boot (diskmodel: the model's
# arithmetic, also build/host/test_diskmodel; mm_pressure: also mm.t's boot).
cd "$(dirname "$0")/../.." || exit 1
. tests/qemu/lib.sh
tap_plan 19

qemu --timeout 120 -- run=selftest
tap_ktap_subtest "$QOUT"
tap_is "$QSTATUS" 0 "selftest via -kernel exits 0"
tap_grep '^boot loader: qemu \(multiboot1\)' "$QOUT" "boot loader named (multiboot1)"
tap_grep '^memory map: .*usable' "$QOUT" "memory map printed"
tap_grep '^time: (real|virtual \(QEMU -icount\)) clock: TSC [0-9]+\.[0-9]+ MHz' "$QOUT" "TSC frequency printed"
tap_result "$QOUT" "selftest RESULT line" cmd=selftest failed_cases=0

qemu --iso --timeout 120 -- "run=selftest suite=-diskmodel,-mm_pressure"
tap_ktap_subtest "$QOUT"
tap_is "$QSTATUS" 0 "selftest via the GRUB ISO exits 0"
tap_grep '^# ktest: [0-9]+ suites, 0 failed cases' "$QOUT" "the selftests ran via the GRUB ISO"
tap_grep '^boot loader: GRUB.*\(multiboot2\)' "$QOUT" "boot loader named (multiboot2)"

for bad in frobnicate=1 mem=12Q console=telnet; do
	key=${bad%%=*}
	qemu --timeout 30 -- "$bad"
	errs=$(grep -c '^error: ' "$QOUT")
	if [ "$QSTATUS" = 1 ] && [ "$errs" = 1 ] && grep -q "^error: .*'$key'" "$QOUT"; then
		tap_ok "$bad: exit 1 with one error line naming '$key'"
	else
		tap_not_ok "$bad: exit 1 with one error line naming '$key'" "status $QSTATUS, $errs error lines" \
			"$(grep '^error' "$QOUT")"
	fi
done

# The target machine's RAM, 2 GiB: the page cache takes it all and leaves no spare RAM
# for the workingset's shadow table, which then comes from the heap at the size that
# fits (it was an 8 MiB allocation, twice the heap's largest, and an error line at
# every 2 GiB boot: make bench's)
qemu --mem 2048M --timeout 60 -- run=meminfo
tap_is "$QSTATUS" 0 "2 GiB of RAM: meminfo exits 0"
tap_grep '^workingset: [0-9]+ shadow slots for [0-9]+ page-cache frames .*lower bound$' "$QOUT" \
	"2 GiB: the shadow table from the heap, at the size that fits, said as such"
tap_nogrep '^error: ' "$QOUT" "2 GiB: no error line at boot"

qemu --timeout 30 -- run=fault
tap_is "$QSTATUS" 2 "run=fault exits 2 (panic)"
tap_grep '^RIP [0-9a-f]{16}' "$QOUT" "panic report holds RIP"
tap_grep '^CR2 0000000000000010' "$QOUT" "panic report holds the faulting address in CR2"

qemu --timeout 30 -- 'run=nosuchcommand;help;selftest suite=kv,-nosuch'
if [ "$QSTATUS" = 1 ] && grep -q "unknown command 'nosuchcommand'" "$QOUT" &&
	[ "$(result_count "$QOUT" cmd=help)" -gt 0 ]; then
	tap_ok "a failed command is reported, the next one runs, the exit is failure"
else
	tap_not_ok "a failed command is reported, the next one runs, the exit is failure" "status $QSTATUS"
fi
tap_grep "^error: selftest: suite=kv,-nosuch: no suite '-nosuch'$" "$QOUT" \
	"selftest suite= naming no suite (even to leave it out): one error naming it"
