#!/usr/bin/env bash
# A short run of the ext2 fuzzer (tests/host/fuzz_ext2.c) for make test, on
# the seed corpus (tools/mkimage: build/img/fuzz) and what earlier `make fuzz`
# runs found (tests/host/fuzz-lib.sh).
cd "$(dirname "$0")/../.." || exit 1
. tests/host/fuzz-lib.sh
fuzz_test fuzz_ext2 262144 ext2-images build/img/fuzz
