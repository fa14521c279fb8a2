#!/usr/bin/env bash
# A short run of the readahead fuzzer (tests/host/fuzz_ra.c) for make test:
# every algorithm through the real page cache, its invariants checked after
# each operation, from the committed corpus tests/fuzz/ra/
# (tests/host/fuzz-lib.sh).
cd "$(dirname "$0")/../.." || exit 1
. tests/host/fuzz-lib.sh
fuzz_test ra
