#!/usr/bin/env bash
# ext2 failures in QEMU: images with garbage over one structure (superblock,
# group descriptors, the inode table block of the root, the root directory's
# block, an indirect block), an ext4 image, a bad root= and bad paths. Each
# run must exit 1 (failure) with an error line naming what is wrong: never 2
# (panic) or 124 (timeout). Bad paths on one image share a boot: each
# command's error names its own path, and one that failed without its line
# would leave its check failing.
cd "$(dirname "$0")/../.." || exit 1
. tests/qemu/lib.sh

# IMAGE|ROOT|COMMANDS|REGEX of the expected error line; "+|COMMANDS|REGEX" runs
# COMMANDS in the boot of the case above it
cases=(
	"corrupt-sb.img|0|ls /|^error: root=0: cannot mount sda: no ext2 superblock"
	"corrupt-sb.img||ls /|^error: ls: no filesystem mounted"
	"corrupt-gd.img|0|ls /|^error: ext2 sda: group 0: "
	"corrupt-itable.img|0|ls /|^error: ext2 sda: .*inode 2[^0-9]"
	"corrupt-dir.img|0|ls /|^error: ext2 sda: directory inode 2, block [0-9]+ \(logical 0\), offset"
	"corrupt-ind.img|0|ls /;cat /medium.bin|^error: ext2 sda: inode [0-9]+: data \(logical block 12\) block [0-9]+ outside"
	"corrupt-ind.img|0|cat /medium.bin|^error: cat: /medium.bin: read failed at offset 12288"
	"small-ext4.img|0|ls /|^error: root=0: cannot mount sda: unsupported incompatible features: .*extents.*64bit"
	"small-part.img|0:1|ls /|^error: root=0:1: cannot mount sda: bad superblock magic"
	"small-part.img|0:3|ls /|^error: root=0:3: cannot mount sda: partition 3 is empty"
	"small-1k.img|zz|ls /|^error: root=zz: expected DISK\[:PART\]"
	"small-1k.img|5|ls /|^error: root=5: there is no disk 5 \(1 disks found\)"
	"small-1k.img|0|cat /nope|^error: cat: /nope: cannot open: no such file$"
	"+|ls /links/loop1|^error: ls: /links/loop1: too many symbolic links"
	"+|cat /nest|^error: cat: /nest: not a regular file"
	"+|ls /small.txt/x|^error: ls: /small.txt/x: not a directory"
)
tap_plan $((${#cases[@]} * 2))
if ! tools/mkimage >"$TAP_TMP/mkimage.log" 2>&1; then
	sed 's/^/# /' "$TAP_TMP/mkimage.log"
	exit 1
fi

# the commands of case I and of the "+" cases after it
boot_cmds() {	# boot_cmds I
	local i=$1 c="" more
	c=$(echo "${cases[$i]}" | cut -d'|' -f3)
	for ((i = i + 1; i < ${#cases[@]}; i++)); do
		[ "${cases[$i]%%|*}" = + ] || break
		more=$(echo "${cases[$i]}" | cut -d'|' -f2)
		c="$c;$more"
	done
	echo "$c"
}

for i in "${!cases[@]}"; do
	c=${cases[$i]}
	if [ "${c%%|*}" = + ]; then
		IFS='|' read -r _ cmds regex <<<"$c"
	else
		IFS='|' read -r img root cmds regex <<<"$c"
		args=("run=$(boot_cmds "$i")")
		[ -n "$root" ] && args=("root=$root" "${args[@]}")
		qemu --timeout 60 --disk "build/img/$img" -- "${args[@]}"
	fi
	name="$img ${root:+root=$root }run=\"$cmds\""
	tap_is "$QSTATUS" 1 "$name: exits 1"
	tap_grep "$regex" "$QOUT" "$name: error line says what is wrong"
done
