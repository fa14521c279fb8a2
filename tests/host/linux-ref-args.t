#!/usr/bin/env bash
# tools/linux-ref compare --mem, checked before anything is built or booted: without
# --log (the reference traces were recorded in 1 GiB) it is refused; a size QEMU's -m
# would not take, a guest too small for Debian's kernel or too large is one error naming
# the option, exit status 1; a good size goes on to the log (here a missing one, which
# mkbench names). What --mem does in a boot is measured in docs/linux-7.2.md (Linux boots
# are not part of make test).
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..6"
. tests/host/tap.sh

tools/linux-ref compare --mem 256M --out "$tmp/o" >"$tmp/out" 2>&1; st=$?
check "--mem without --log: refused, the reference traces are 1 GiB's" 1 \
	"^linux-ref: compare: --mem is for --log" "$tmp/out"
for bad in 12X 256 32M 65G; do
	tools/linux-ref compare --log "$tmp/none.log" --mem "$bad" --out "$tmp/o" \
		>"$tmp/out" 2>&1; st=$?
	check "--mem $bad: one error naming it" 1 \
		"^linux-ref: --mem: a size such as 256M or 2G, 64M to 64G, not '$bad'$" "$tmp/out"
done
tools/linux-ref compare --log "$tmp/none.log" --mem 2G --out "$tmp/o" >"$tmp/out" 2>&1; st=$?
check "--mem 2G: accepted, on to the log (missing: mkbench names it)" 1 \
	"none.log: no such file" "$tmp/out"
