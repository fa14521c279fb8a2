#!/usr/bin/env bash
# The USB stick's boot path: the GRUB rescue image attached as a USB mass
# storage disk (xHCI), so the BIOS boots it as a hard disk through the
# hybrid image's MBR and then GRUB, as on the real machine; the kernel
# then runs its selftests: all but the two long ones that take nothing from
# the boot path (diskmodel, mm_pressure: boot.t's -kernel boot runs every suite).
cd "$(dirname "$0")/../.." || exit 1
. tests/qemu/lib.sh
tap_plan 3

qemu --usb --timeout 180 -- "run=selftest suite=-diskmodel,-mm_pressure"
tap_is "$QSTATUS" 0 "booted from a USB disk image, the selftests pass"
tap_grep '^boot loader: GRUB .*\(multiboot2\)' "$QOUT" "GRUB loaded the kernel through Multiboot2"
tap_grep '^# ktest: [0-9]+ suites, 0 failed cases' "$QOUT" "the selftest suites ran, none failed"
