#!/usr/bin/env bash
# AHCI driver and block layer on QEMU's ich9-ahci: the PCI scan finds the
# controller, IDENTIFY data reaches lsblk, every byte of many reads (sizes,
# alignments, queue depths up to 32 NCQ tags) matches the LBA pattern,
# rawread's crc32 equals zlib's on the host, two disks with empty ports,
# polling and non-NCQ modes read the same data, range errors submit nothing,
# and writes happen only with ahci_write=1.
cd "$(dirname "$0")/../.." || exit 1
. tests/qemu/lib.sh
tap_plan 35

LBA=$TAP_TMP/lba.img RND=$TAP_TMP/rand.img SCRATCH=$TAP_TMP/scratch.img
tools/mkdisk lba "$LBA" 16 && tools/mkdisk random "$RND" 64 7 && tools/mkdisk zero "$SCRATCH" 16 ||
	{ echo "Bail out! tools/mkdisk failed"; exit 1; }

# crc32 of bytes [OFF, OFF+LEN) of FILE
crc_range() {
	python3 -c 'import sys, zlib
f = open(sys.argv[1], "rb"); f.seek(int(sys.argv[2]))
print("%08x" % zlib.crc32(f.read(int(sys.argv[3]))))' "$@"
}
MiB=1048576

# --- one LBA-pattern disk: bring-up, IDENTIFY, every-byte verification ---
qemu --disk "$LBA" --timeout 90 -- 'run=lsblk;blkcheck disk=0;diskstats;lsblk'
tap_is "$QSTATUS" 0 "LBA disk: lsblk, blkcheck, diskstats exit 0"
tap_grep '^pci 00:1f\.2 8086:2922 class 01:06:01' "$QOUT" "PCI scan prints the AHCI controller"
tap_grep '^ahci0: 00:1f\.2 .* 6 ports .* 32 slots, NCQ' "$QOUT" "controller line: ports, slots, NCQ"
tap_grep '^ahci0\.0: sda: QEMU HARDDISK, serial QM00001, .* 16 MiB \(32768 sectors of 512 bytes\), NCQ depth 32' \
	"$QOUT" "one boot line with the disk's IDENTIFY data"
tap_is "$(result_field "$QOUT" lsblk count)" 1 "lsblk counts one disk"
tap_result "$QOUT" "lsblk RESULT holds the model" cmd=lsblk "disks.0.model=QEMU HARDDISK"
tap_is "$(result_field "$QOUT" blkcheck ok)" True "blkcheck: every byte of every read matches"
tap_is "$(result_field "$QOUT" blkcheck mismatches)" 0 "blkcheck: no mismatched sector"
tap_grep 'peak 32 in flight' "$QOUT" "NCQ: 32 commands were in flight at once"
tap_grep '^sda: request sizes 0-1K:[0-9]+ .*1024-2047K:[0-9]+' "$QOUT" "diskstats: request-size histogram"

# --- rawread crc32 against zlib; ranges; errors submit nothing ---
qemu --disk "$RND" --timeout 120 -- 'run=diskstats reset=1;lsblk;rawread disk=0 bs=1024 qd=4 pattern=seq mb=64;rawread disk=0 bs=4 qd=32 pattern=seq mb=4 offset_mb=7;rawread disk=0 bs=4 qd=32 pattern=rand count=2000;rawread disk=0 bs=1024 qd=1 pattern=seq mb=2 offset_mb=63;rawread disk=3 bs=4 qd=1 pattern=seq count=1;diskstats'
tap_is "$(result_field "$QOUT" rawread crc32)" "$(host_crc32 "$RND" $((64 * MiB)))" \
	"rawread seq 64 MiB: crc32 equals zlib.crc32"
want=$(crc_range "$RND" $((7 * MiB)) $((4 * MiB)))
tap_result "$QOUT" "rawread 4 KiB x qd 32 from 7 MiB: crc32 equals zlib.crc32" \
	cmd=rawread bs_kb=4 qd=32 bytes=4194304 crc32="$want"
tap_result "$QOUT" "rawread rand: bytes, latency percentiles" \
	cmd=rawread disk=sda pattern=rand bs_kb=4 qd=32 bytes=8192000 'p99_us~[0-9]+' 
tap_grep '^error: rawread: sda: sectors 129024-133119 lie beyond the end of the disk \(131072 sectors' "$QOUT" \
	"read past the end: error names the disk and the range"
tap_grep '^error: rawread: disk=3 does not exist' "$QOUT" "missing disk: error names it"
tap_result "$QOUT" "diskstats: exactly the good reads' sectors were read (nothing submitted for the bad ones)" \
	cmd=diskstats disks.0.sectors_read=155264
tap_is "$QSTATUS" 1 "the two bad rawreads make the run fail"

# --- two disks on two ports, four empty ports ---
qemu --disk "$LBA" --disk "$RND" --timeout 90 -- 'run=lsblk;blkcheck disk=0;rawread disk=1 bs=64 qd=8 pattern=seq mb=16'
tap_is "$QSTATUS" 0 "two disks: exit 0"
tap_is "$(result_field "$QOUT" lsblk count)" 2 "lsblk counts two disks"
tap_grep '^ahci0\.1: sdb: QEMU HARDDISK, serial QM0000[0-9]' "$QOUT" "second port: sdb"
tap_grep '^ahci0\.2: no device' "$QOUT" "empty port reported"
tap_is "$(result_field "$QOUT" blkcheck ok)" True "sda verifies with sdb attached"
tap_is "$(result_field "$QOUT" rawread crc32)" "$(host_crc32 "$RND" $((16 * MiB)))" "sdb crc32 equals zlib.crc32"

# --- polling and non-NCQ: the same data ---
qemu --disk "$LBA" --disk "$RND" --timeout 90 -- ahci_poll=1 'run=lsblk;blkcheck disk=0;rawread disk=1 bs=1024 qd=32 pattern=seq mb=64'
tap_grep 'completing commands by polling' "$QOUT" "ahci_poll=1 polls"
tap_is "$(result_field "$QOUT" blkcheck ok)" True "ahci_poll=1: blkcheck every byte matches"
tap_is "$(result_field "$QOUT" rawread crc32)" "$(host_crc32 "$RND" $((64 * MiB)))" "ahci_poll=1: same crc32"

qemu --disk "$LBA" --disk "$RND" --timeout 90 -- ahci_ncq=0 'run=lsblk;blkcheck disk=0;rawread disk=1 bs=16 qd=32 pattern=seq mb=16;diskstats'
tap_grep '^ahci0\.0: sda: .* no NCQ, depth 1' "$QOUT" "ahci_ncq=0: READ DMA EXT, one at a time"
tap_is "$(result_field "$QOUT" blkcheck ok)" True "ahci_ncq=0: blkcheck every byte matches"
tap_is "$(result_field "$QOUT" rawread crc32)" "$(host_crc32 "$RND" $((16 * MiB)))" "ahci_ncq=0: same crc32"
tap_result "$QOUT" "depth 1: queued 16 KiB reads merge" cmd=diskstats 'disks.1.reads_merged~[1-9][0-9]*'

# --- writes: refused by default, then WRITE FPDMA + FLUSH on a scratch disk ---
qemu --disk "$SCRATCH" --timeout 60 -- 'run=blkcheck disk=0 mode=write mb=16'
tap_grep 'writes are disabled; boot with ahci_write=1' "$QOUT" "writes refused without ahci_write=1"
tap_is "$(python3 -c 'import sys; print(open(sys.argv[1], "rb").read().count(0))' "$SCRATCH")" \
	$((16 * MiB)) "the scratch image is untouched"
qemu --disk "$SCRATCH" --timeout 90 -- ahci_write=1 'run=blkcheck disk=0 mode=write mb=16'
tap_is "$(result_field "$QOUT" blkcheck ok)" True "ahci_write=1: written, flushed, read back"
if tools/mkdisk check-lba "$SCRATCH" 16 >/dev/null; then
	tap_ok "the host sees the LBA pattern in the scratch image"
else
	tap_not_ok "the host sees the LBA pattern in the scratch image" "$(tools/mkdisk check-lba "$SCRATCH" 16)"
fi

# --- a bad driver parameter is named ---
qemu --disk "$LBA" --timeout 30 -- ahci_max_kb=3 'run=lsblk'
tap_grep '^error: ahci: ahci_max_kb=3 is out of range 4\.\.8160' "$QOUT" "ahci_max_kb=3: error names the parameter"
