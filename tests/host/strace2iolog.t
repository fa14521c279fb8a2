#!/usr/bin/env bash
# tools/strace2iolog on traces written here: the reads of an strace become a
# version 3 iolog with the file's size; the lines it does not understand are
# counted and named by number (the first five, then "..."); a trace without
# reads and a missing trace are one error each; without -y, descriptors are
# followed from openat's return (issue 38), and a relative path is said.
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..10"
. tests/host/tap.sh

cat >"$tmp/a.strace" <<'EOF'
100 10:00:00.000000 openat(AT_FDCWD, "/data/in", O_RDONLY) = 3</data/in>
100 10:00:00.000100 read(3</data/in>, "..."..., 65536) = 65536
this line is no strace line
100 10:00:00.000200 read(3</data/in>, "..."..., 65536) = 1000
100 10:00:00.000300 read(3</data/in>, "", 65536) = 0
100 10:00:00.000400 frobnicate
100 10:00:00.000500 close(3</data/in>) = 0
EOF
tools/strace2iolog --no-stat "$tmp/a.strace" -o "$tmp/a.log" 2>"$tmp/err"; st=$?
if [ $st = 0 ] && [ "$(cat "$tmp/a.log")" = "fio version 3 iolog
0 /data/in add
0 /data/in open
100 /data/in read 0 65536
200 /data/in read 65536 65536
300 /data/in read 66536 65536
500 /data/in close" ]; then
	ok "the reads at their offsets, with their times, in a version 3 log"
else
	not_ok "the reads at their offsets, with their times, in a version 3 log" "$(cat "$tmp/a.log")"
fi
check "the file's size from the short read" 0 '^/data/in 66536$' "$tmp/a.sizes"
check "two lines not understood, named by number" 0 \
	'^strace2iolog:   2 lines not understood \(not a call of the traced kinds\): lines 3, 6$' "$tmp/err"

{ head -2 "$tmp/a.strace"; for i in 1 2 3 4 5 6 7; do echo "garbage $i"; done; tail -1 "$tmp/a.strace"; } \
	>"$tmp/b.strace"
tools/strace2iolog --no-stat "$tmp/b.strace" -o "$tmp/b.log" 2>"$tmp/err"; st=$?
check "seven: the first five named, then ..." 0 \
	'^strace2iolog:   7 lines not understood \(not a call of the traced kinds\): lines 3, 4, 5, 6, 7, \.\.\.$' \
	"$tmp/err"

printf 'nothing\n' >"$tmp/c.strace"
tools/strace2iolog "$tmp/c.strace" 2>"$tmp/err" >/dev/null; st=$?
check "a trace without reads: one error, exit 1" 1 '^strace2iolog: .*c.strace: no reads of regular files' "$tmp/err"
tools/strace2iolog "$tmp/nosuch.strace" 2>"$tmp/err" >/dev/null; st=$?
check "a missing trace: one error naming it, exit 1" 1 "^strace2iolog: $tmp/nosuch.strace: No such file" "$tmp/err"
tools/strace2iolog --no-stat "$tmp/a.strace" -o "$tmp/no-such-dir/a.log" 2>"$tmp/err" >/dev/null; st=$?
check "an iolog it cannot write: one error naming it, exit 1" 1 \
	"^strace2iolog: cannot write the iolog $tmp/no-such-dir/a.log: No such file" "$tmp/err"

# without -y: openat's return value names the descriptor, its absolute path the file
sed -e 's/<\/data\/in>//g' "$tmp/a.strace" >"$tmp/d.strace"
tools/strace2iolog --no-stat "$tmp/d.strace" -o "$tmp/d.log" 2>"$tmp/err"; st=$?
if [ $st = 0 ] && cmp -s "$tmp/a.log" "$tmp/d.log"; then
	ok "without -y: descriptors followed from openat's return, the same log"
else
	not_ok "without -y: descriptors followed from openat's return, the same log" \
		"$(cat "$tmp/err" "$tmp/d.log" 2>/dev/null)"
fi
check "... and the summary counts in the singular: 1 file" 0 \
	'^strace2iolog: .*d.log: 3 reads of 1 file over ' "$tmp/err"
sed -e 's|"/data/in"|"in"|' "$tmp/d.strace" >"$tmp/e.strace"
tools/strace2iolog --no-stat "$tmp/e.strace" -o "$tmp/e.log" 2>"$tmp/err"; st=$?
check "without -y, a relative path: says the trace lacks the full paths (strace -y), exit 1" 1 \
	'^strace2iolog: .*e.strace: no reads of regular files: 3 reads, but the files were opened by relative paths \(1 open\), .*strace -y gives their full paths$' \
	"$tmp/err"
