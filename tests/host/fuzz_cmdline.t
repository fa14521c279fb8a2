#!/usr/bin/env bash
# A short run of the command-line fuzzer (tests/host/fuzz_cmdline.c) for make
# test, with the kernel's dictionary of keys (tools/kernel-keys), on the seed
# command lines (boot/grub.cfg's and tests/host/fuzz_cmdline.seeds) and the
# committed corpus tests/fuzz/cmdline/ (tests/host/fuzz-lib.sh).
cd "$(dirname "$0")/../.." || exit 1
. tests/host/fuzz-lib.sh
fuzz_test cmdline
