#!/usr/bin/env bash
# mm acceptance: mem= caps the memory the allocator manages, and the mm
# suites pass on real memory in a 64 MiB kernel (reclaim included).
cd "$(dirname "$0")/../.." || exit 1
. tests/qemu/lib.sh
tap_plan 4

qemu --mem 256M --timeout 60 -- mem=64M run=meminfo
tap_is "$QSTATUS" 0 "mem=64M run=meminfo exits 0"
total=$(result_field "$QOUT" meminfo total_kb)
free=$(result_field "$QOUT" meminfo free_kb)
if [ -n "$total" ] && [ "$total" -le 65536 ] && [ "$total" -gt 32768 ]; then
	tap_ok "total_kb $total is at most 64 MiB"
else
	tap_not_ok "total_kb is at most 64 MiB" "total_kb '$total'"
fi
if [ -n "$free" ] && [ -n "$total" ] && [ "$free" -le "$total" ] && [ "$free" -gt 0 ]; then
	tap_ok "free_kb $free lies within the usable total"
else
	tap_not_ok "free_kb lies within the usable total" "free_kb '$free' total_kb '$total'"
fi

qemu --mem 256M --timeout 120 -- mem=64M "run=selftest suite=mm_alloc,mm_lru,mm_pagecache,mm_pressure,mm_kmalloc"
tap_ktap_subtest "$QOUT"
tap_is "$QSTATUS" 0 "mm suites pass in a mem=64M kernel"
