#!/usr/bin/env bash
# A short run of the parameter-file fuzzer (tests/host/fuzz_diskmodel.c) for
# make test: 5 s of libFuzzer on the committed corpus tests/fuzz/diskmodel/
# (the two hand-written files among it) with a dictionary of the parser's
# keys (tests/host/fuzz-lib.sh). A broken model rule aborts, as a crash does.
cd "$(dirname "$0")/../.." || exit 1
. tests/host/fuzz-lib.sh
fuzz_test diskmodel
