#!/usr/bin/env bash
# AHCI error recovery: QEMU's blkdebug fails every read covering sector
# 1000 with EIO. A read covering it fails with an error naming sector 1000
# (the driver narrows a failed request down to its first bad sector), the
# port registers are logged, the port recovers, and reads of other
# sectors - before, after, and those in flight alongside the failing one -
# return the right data. The same with NCQ, without NCQ and polled; no hang.
# Then a disk whose every read takes 0.5 s (QEMU's null-co driver) against
# ahci_timeout_ms=150, timed by the host (no disk model): commands time out, the port is reset and the reads
# fail with ETIMEDOUT naming their sectors, within the bounds.
cd "$(dirname "$0")/../.." || exit 1
. tests/qemu/lib.sh
tap_plan 32

LBA=$TAP_TMP/lba.img CONF=$TAP_TMP/eio1000.conf
tools/mkdisk lba "$LBA" 16 && tools/mkdisk blkdebug "$CONF" 1000 ||
	{ echo "Bail out! tools/mkdisk failed"; exit 1; }

crc_range() {	# crc_range FILE OFFSET LENGTH
	python3 -c 'import sys, zlib
f = open(sys.argv[1], "rb"); f.seek(int(sys.argv[2]))
print("%08x" % zlib.crc32(f.read(int(sys.argv[3]))))' "$@"
}
before=$(crc_range "$LBA" 0 512000)		# sectors 0-999
after=$(crc_range "$LBA" 1048576 8388608)	# 1 MiB .. 9 MiB

RUN='run=rawread disk=0 bs=1024 qd=1 pattern=seq count=1;rawread disk=0 bs=4 qd=32 pattern=seq count=512;rawread disk=0 bs=4 qd=32 pattern=seq count=125;rawread disk=0 bs=1024 qd=4 pattern=seq mb=8 offset_mb=1;lsblk'

for mode in ncq ahci_ncq=0 ahci_poll=1; do
	opt=()
	[ "$mode" != ncq ] && opt=("$mode")
	qemu --disk "blkdebug:$CONF:$LBA" --timeout 90 -- "${opt[@]}" "$RUN"
	tap_is "$QSTATUS" 1 "$mode: the failing reads fail the run; no hang, no panic"
	tap_is "$(result_field "$QOUT" rawread error_sector)" 1000 "$mode: 1 MiB read covering it fails at sector 1000"
	tap_grep '^error: ahci0\.0: sda: read error at sector 1000 \(request of sectors 0-2047\)' "$QOUT" \
		"$mode: the driver names sector 1000"
	tap_grep '^error: ahci0\.0: sda: .*: IS [0-9a-f]{8} CMD [0-9a-f]{8} TFD [0-9a-f]{8} SSTS [0-9a-f]{8} SERR [0-9a-f]{8} SACT [0-9a-f]{8} CI [0-9a-f]{8}' \
		"$QOUT" "$mode: every port register logged"
	tap_result "$QOUT" "$mode: 32 x 4 KiB in flight: the one at sector 1000 fails, the 125 before it arrive" \
		cmd=rawread bytes=512000 error=-5 error_sector=1000
	tap_result "$QOUT" "$mode: afterwards sectors 0-999 read correctly" \
		cmd=rawread bs_kb=4 qd=32 bytes=512000 crc32="$before"
	tap_result "$QOUT" "$mode: afterwards 1-9 MiB read correctly" \
		cmd=rawread bs_kb=1024 qd=4 bytes=8388608 crc32="$after"
	tap_grep '^sda .*\(ahci0\.0, running, ' "$QOUT" "$mode: the port is running again"
	tap_nogrep 'timed out|command timeout' "$QOUT" "$mode: recovered without timeouts"
done

SLOW='json:{"file":{"driver":"null-co",,"size":16777216,,"latency-ns":500000000}}'
t0=$(date +%s)
qemu --disk "$SLOW" --disk-model none --timeout 90 -- ahci_timeout_ms=150 'run=rawread disk=0 bs=4 qd=2 pattern=seq count=2 crc=0;lsblk'
t1=$(date +%s)
tap_is "$QSTATUS" 1 "slow disk: the timed-out reads fail the run; no hang"
tap_grep '^error: ahci0\.0: sda: command timeout: IS [0-9a-f]{8} CMD' "$QOUT" "slow disk: the timeout is detected and the registers logged"
tap_grep '^error: ahci0\.0: sda: read error at sector 8 \(request of sectors 8-15\): timed out' "$QOUT" \
	"slow disk: each timed-out request fails naming its sectors"
tap_grep '^sda .*\(ahci0\.0, running, .*timeouts [1-9]' "$QOUT" "slow disk: the port is running again"
if [ $((t1 - t0)) -lt 60 ]; then tap_ok "slow disk: done in $((t1 - t0)) s"; else tap_not_ok "slow disk: done in $((t1 - t0)) s"; fi
