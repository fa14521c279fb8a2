#!/usr/bin/env bash
# The TSC's calibration: against the PIT normally; on a machine without a
# PIT (QEMU -M q35,pit=off, where port 0x61 reads all ones) it says why the
# PIT is not used and calibrates against the ACPI PM timer found through the
# FADT, within the virtual clock's 1 GHz; tsc_calibrate= picks a source, and
# one that cannot count is one clear error. The boot line and the exit
# summary name the source; the time suite checks the TSC against both.
cd "$(dirname "$0")/../.." || exit 1
. tests/qemu/lib.sh
tap_plan 8

mhz() { sed -n 's/^time: .*TSC \([0-9.]*\) MHz.*/\1/p' "$QOUT"; }
near_1000() { python3 -c "import sys; sys.exit(not abs(float(sys.argv[1]) - 1000) < 10)" "${1:-0}" 2>/dev/null; }

qemu --timeout 60 -- "run=selftest suite=time"
tap_ktap_subtest "$QOUT"
tap_is "$QSTATUS" 0 "the time suite passes on a PC with a PIT"
# under -icount the TSC is set to exactly 1 GHz after the calibration, and the lines say so
exact='\(, exactly 1 GHz under -icount\)\?'
if grep -q "^time: .*(calibrated against the PIT$exact)\$" "$QOUT" &&
	grep -q "^| clock: virtual, TSC [0-9.]* MHz, calibrated against the PIT$exact\$" "$QOUT"; then
	tap_ok "the boot line and the summary say the PIT calibrated the clock"
else
	tap_not_ok "the boot line and the summary say the PIT calibrated the clock"
fi

qemu --machine-opt pit=off --timeout 60 -- "run=selftest suite=time"
tap_ktap_subtest "$QOUT"
tap_is "$QSTATUS" 0 "without a PIT the kernel boots and the time suite passes"
tap_grep "^warning: time: the PIT does not count: .*; the ACPI PM timer instead$" "$QOUT" \
	"it says why the PIT is not used"
m=$(mhz)
if grep -q "^time: .*(calibrated against the ACPI PM timer (port 0x[0-9a-f]*, \(24\|32\)-bit)$exact)\$" "$QOUT" &&
	near_1000 "$m"; then
	tap_ok "calibrated against the ACPI PM timer: $m MHz (the virtual clock's 1000)"
else
	tap_not_ok "calibrated against the ACPI PM timer, near 1000 MHz" "got '$m'"
fi
tap_grep '^\| clock: virtual, TSC [0-9.]* MHz, calibrated against the ACPI PM timer' "$QOUT" \
	"the exit summary names the PM timer"

qemu --timeout 60 -- tsc_calibrate=pmtimer run=help
m=$(mhz)
if [ "$QSTATUS" = 0 ] && grep -q 'calibrated against the ACPI PM timer' "$QOUT" && near_1000 "$m" &&
	! grep -q '^warning: time' "$QOUT"; then
	tap_ok "tsc_calibrate=pmtimer uses the PM timer with a PIT present: $m MHz"
else
	tap_not_ok "tsc_calibrate=pmtimer uses the PM timer with a PIT present" "status $QSTATUS, '$m'"
fi

qemu --machine-opt pit=off --timeout 60 -- tsc_calibrate=pit run=help
errs=$(grep -c '^error: ' "$QOUT")
if [ "$QSTATUS" = 1 ] && [ "$errs" = 1 ] &&
	grep -q '^error: time: cannot calibrate the TSC: the PIT does not count: ' "$QOUT" &&
	grep -q '^| first error: time: cannot calibrate the TSC' "$QOUT"; then
	tap_ok "tsc_calibrate=pit without a PIT: one error naming why, exit 1"
else
	tap_not_ok "tsc_calibrate=pit without a PIT: one error naming why, exit 1" "status $QSTATUS, $errs errors"
fi
