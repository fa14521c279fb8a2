#!/usr/bin/env bash
# tools/linux-ref compare --mem, checked before anything is built or booted: without
# --log (the reference traces were recorded in 1 GiB) it is refused; a size QEMU's -m
# would not take, a guest too small for Debian's kernel or too large is one error naming
# the option, exit status 1; a good size goes on to the log (here a missing one, which
# mkbench names). What --mem does in a boot is measured in docs/linux-7.2.md (Linux boots
# are not part of make test). --lru-gen likewise is --log's, on or off; a reference
# workload's lru_gen= is on or off, and runs recorded under another setting than the
# workload names are refused, before any image is built.
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..10"
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

tools/linux-ref compare --lru-gen off --out "$tmp/o" >"$tmp/out" 2>&1; st=$?
check "--lru-gen without --log: refused, a workload names its own" 1 \
	"^linux-ref: compare: --lru-gen is for --log" "$tmp/out"
tools/linux-ref compare --log "$tmp/none.log" --lru-gen maybe --out "$tmp/o" \
	>"$tmp/out" 2>&1; st=$?
check "--lru-gen maybe: refused by name" 2 "argument --lru-gen: invalid choice: 'maybe'" \
	"$tmp/out"
mkdir -p "$tmp/t"
cp tests/linux-ref/workloads tests/linux-ref/files.sizes "$tmp/t/"
# Debian's default, the multi-gen LRU, where the workload asks for the classic one
sed 's/"lru_gen": "0x0000"/"lru_gen": "0x0007"/' tests/linux-ref/pressure.runs \
	>"$tmp/t/pressure.runs"
tools/linux-ref compare --traces "$tmp/t" --only pressure-reread --out "$tmp/o" \
	>"$tmp/out" 2>&1; st=$?
check "runs recorded under the other LRU: refused, naming the run and both settings" 1 \
	"pressure-reread's run 1 recorded with lru_gen 0x0007, the workload asks lru_gen=off" \
	"$tmp/out"
sed -i 's/^pressure-reread \(.*\) lru_gen=off$/pressure-reread \1 lru_gen=sometimes/' \
	"$tmp/t/workloads"
tools/linux-ref compare --traces "$tmp/t" --only pressure-reread --out "$tmp/o" \
	>"$tmp/out" 2>&1; st=$?
check "lru_gen=sometimes in workloads: the line refused" 1 \
	"workloads: line [0-9]*: expected NAME LOG .*lru_gen=on[|]off" "$tmp/out"
