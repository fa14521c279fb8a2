#!/usr/bin/env bash
# A short run of the command-line fuzzer (tests/host/fuzz_cmdline.c) for make
# test, with the kernel's dictionary of keys (tools/kernel-keys), on the seed
# command lines (boot/grub.cfg's and tests/host/fuzz_cmdline.seeds) and what
# earlier `make fuzz` runs found (tests/host/fuzz-lib.sh).
cd "$(dirname "$0")/../.." || exit 1
. tests/host/fuzz-lib.sh
fuzz_test fuzz_cmdline 4096 "build/fuzz/cmdline-seeds.stamp build/fuzz/cmdline.dict" \
	-dict=build/fuzz/cmdline.dict build/fuzz/cmdline-seeds
