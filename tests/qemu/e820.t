#!/usr/bin/env bash
# The firmware's memory map: booted through a test loader (tests/qemu/mbshim.c)
# that hands the kernel QEMU's map plus overlapping, nested, unaligned,
# duplicated, empty and bad-page entries, unsorted, the kernel says what was
# wrong with it, prints the sanitized map (checked here against an independent
# computation from the loader's entries it printed), and the frame allocator
# keeps every frame the loader did not call usable (the boot_memmap selftest).
# QEMU's own map, clean, is used as given.
cd "$(dirname "$0")/../.." || exit 1
. tests/qemu/lib.sh
tap_plan 9

if ! make -s build/mbshim.elf >"$TAP_TMP/make.log" 2>&1; then
	sed 's/^/# /' "$TAP_TMP/make.log"
	echo "Bail out! make build/mbshim.elf failed"
	exit 1
fi

qemu --mbshim --mem 256M --timeout 120 -- "run=selftest suite=e820,boot_memmap,mm_alloc;meminfo"
tap_ktap_subtest "$QOUT"
tap_is "$QSTATUS" 0 "booted through mbshim's map: e820, boot_memmap and mm_alloc suites pass"
tap_grep '^boot loader: mbshim' "$QOUT" "the loader is mbshim"
tap_grep "^warning: memory map: the loader's [0-9]+ entries: unsorted, [0-9]+ overlapping, 2 empty; sanitized into [0-9]+$" \
	"$QOUT" "the kernel says the loader's map was unsorted, overlapping and held empty entries"
if python3 - "$QOUT" <<'PY'
import re, sys
loader, used = [], []
for line in open(sys.argv[1], errors="replace"):
    m = re.match(r"memory map( \(loader\))?: 0x([0-9a-f]+)-0x([0-9a-f]+) (usable|reserved|ACPI data|ACPI NVS|bad) ", line)
    if m:
        (loader if m.group(1) else used).append((int(m.group(2), 16), int(m.group(3), 16), m.group(4)))
rank = {"usable": 1, "reserved": 2, "ACPI data": 3, "ACPI NVS": 4, "bad": 5}
cuts = sorted({a for e in loader for a in e[:2]})
want = []
for a, b in zip(cuts, cuts[1:]):
    types = [rank[t] for s, e, t in loader if s <= a and b <= e and s < e]
    if not types:
        continue
    t = [k for k, v in rank.items() if v == max(types)][0]
    if want and want[-1][1] == a and want[-1][2] == t:
        want[-1] = (want[-1][0], b, t)
    else:
        want.append((a, b, t))
ok = loader and used == want
if not ok:
    print("# used: %s\n# want: %s" % (used, want))
sys.exit(0 if ok else 1)
PY
then tap_ok "the map as used is the loader's, sanitized (checked against an independent sweep)"
else tap_not_ok "the map as used is the loader's, sanitized (checked against an independent sweep)"; fi
tap_grep '^memory map: 0x000000100000-0x000002000000 usable .*$' "$QOUT" "the duplicated usable entry merged, cut where the nested reserved range starts"
tap_grep '^memory map: 0x000002000000-0x000002100000 reserved ' "$QOUT" "the reserved range nested in usable RAM is kept out of it"
tap_grep '^memory map: 0x000002800800-0x000002801800 reserved ' "$QOUT" "a reserved range off page boundaries is kept, to the byte"
if grep -q '^memory map: 0x000005000000-0x000005001000 bad ' "$QOUT" &&
	grep -Eq '^memory map: 0x00000ffd8000-0x00000ffdc000 ACPI NVS ' "$QOUT"; then
	tap_ok "the bad page, and the NVS range nested in ACPI data over RAM's end, win"
else
	tap_not_ok "the bad page, and the NVS range nested in ACPI data over RAM's end, win"
fi

qemu --timeout 60 -- run=help
if [ "$QSTATUS" = 0 ] && ! grep -q "memory map (loader)\|the loader's .* entries" "$QOUT" &&
	grep -q '^memory map: 0x000000100000-' "$QOUT"; then
	tap_ok "QEMU's own map (sorted, disjoint) is used as given, without a warning"
else
	tap_not_ok "QEMU's own map (sorted, disjoint) is used as given, without a warning" "status $QSTATUS"
fi
