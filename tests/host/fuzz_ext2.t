#!/usr/bin/env bash
# A short run of the ext2 fuzzer (tests/host/fuzz_ext2.c) for make test, on
# the seed images (tools/mkimage: build/img/fuzz) and the committed corpus
# tests/fuzz/ext2/, with the dictionary of the on-disk format
# (tests/host/fuzz-lib.sh).
cd "$(dirname "$0")/../.." || exit 1
. tests/host/fuzz-lib.sh
fuzz_test ext2
