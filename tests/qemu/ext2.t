#!/usr/bin/env bash
# ext2 in QEMU: every image tools/mkimage builds (1, 2 and 4 KiB blocks,
# 128/256-byte inodes, revision 0, ext3 with a clean journal, flex_bg, an
# MBR-partitioned disk) is mounted with root=, and every file of its
# manifest is read back through the page cache: "cksum /" for the files,
# "cat" for the paths through symlinks, "." and "..". Sizes and crc32s
# must equal the host's. Plus the acceptance run, in ext2-1k's boot (no boot
# of its own: that boot already reads every file cold): without root=, ls /;
# cat /big.bin.
cd "$(dirname "$0")/../.." || exit 1
. tests/qemu/lib.sh

# IMAGE MANIFEST ROOT (-: no root=, the first disk holding ext2)
images=(
	"ext2-1k.img manifest-full.txt -"
	"ext2-2k.img manifest-full.txt 0"
	"ext2-4k.img manifest-full.txt 0"
	"small-4k-i128.img manifest-small.txt 0"
	"small-rev0.img manifest-small.txt 0"
	"small-ext3.img manifest-small.txt 0"
	"small-flexbg.img manifest-small.txt 0"
	"small-part.img manifest-small.txt 0:2"
)
tap_plan $((${#images[@]} * 3 + 3))
if ! tools/mkimage >"$TAP_TMP/mkimage.log" 2>&1; then
	sed 's/^/# /' "$TAP_TMP/mkimage.log"
	exit 1
fi

# Paths that go through a symlink, "." or "..": cksum does not see them.
indirect_paths() { awk '$1 ~ /^\/links\// || $1 ~ /\/\.\.?\// {print $1}' "$1"; }

# check_sums QOUT MANIFEST: the "sum" lines are the manifest's direct files
check_sums() {
	python3 - "$@" <<'PY'
import sys
out, manifest = sys.argv[1:3]
want = {}
for line in open(manifest):
    p, size, crc = line.split()
    if not (p.startswith("/links/") or "/./" in p or "/../" in p):
        want[p] = (size, crc)
got = {}
for line in open(out, errors="replace"):
    if line.startswith("sum "):
        p, size, crc = line.split()[1:4]
        got[p] = (size, crc)
bad = [p for p in want if got.get(p) != want[p]] + [p for p in got if p not in want]
for p in bad[:10]:
    print("# %s: got %s, want %s" % (p, got.get(p), want.get(p)))
sys.exit(1 if bad or not want else 0)
PY
}

# check_cats QOUT MANIFEST PATH...: a cat RESULT with the manifest's size and crc for each
check_cats() {
	python3 - "$@" <<'PY'
import sys
import results
out, manifest, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
want = {l.split()[0]: l.split()[1:3] for l in open(manifest)}
got = {}
for r in results.select(results.from_log(out), cmd="cat"):
    got[r["path"]] = [str(r["bytes"]), r["crc32"]]
bad = [p for p in paths if got.get(p) != want.get(p)]
for p in bad:
    print("# %s: got %s, want %s" % (p, got.get(p), want.get(p)))
sys.exit(1 if bad or not paths else 0)
PY
}

for entry in "${images[@]}"; do
	read -r img manifest root <<<"$entry"
	mapfile -t links < <(indirect_paths "build/img/$manifest")
	run="ls /;cksum /"
	for p in "${links[@]}"; do run="$run;cat $p"; done
	if [ "$root" = - ]; then
		qemu --timeout 120 --disk "build/img/$img" -- "run=$run;cat /big.bin"
		ACC=$QOUT ACC_STATUS=$QSTATUS
	else
		qemu --timeout 120 --disk "build/img/$img" -- "root=$root" "run=$run"
	fi
	how="root=$root"
	[ "$root" = - ] && how="no root="
	tap_is "$QSTATUS" 0 "$img: mounts ($how) and reads every file"
	if check_sums "$QOUT" "build/img/$manifest" >"$TAP_TMP/why"; then
		tap_ok "$img: cksum / matches $manifest (size and crc32 of every file)"
	else
		tap_not_ok "$img: cksum / matches $manifest" "$(cat "$TAP_TMP/why")"
	fi
	if check_cats "$QOUT" "build/img/$manifest" "${links[@]}" >"$TAP_TMP/why"; then
		tap_ok "$img: ${#links[@]} paths through symlinks, . and .. read right"
	else
		tap_not_ok "$img: paths through symlinks, . and .. read right" "$(cat "$TAP_TMP/why")"
	fi
done

# The acceptance run, without root= (the first disk holding ext2): ext2-1k's boot.
tap_is "$ACC_STATUS" 0 "without root=: ls /; cat /big.bin exits 0"
tap_grep '^  big\.bin +[0-9]+ file +73400443$' "$ACC" "ls / lists big.bin with its size"
want=$(awk '$1 == "/big.bin" {print $2, $3}' build/img/manifest-full.txt)
got=$(result_match "$ACC" cmd=cat path=/big.bin | sed -n 2p |
	python3 -c 'import json, sys; r = json.load(sys.stdin); print(r["bytes"], r["crc32"])' 2>/dev/null)
tap_is "$got" "$want" "cat /big.bin: RESULT bytes and crc32 equal the host's"
