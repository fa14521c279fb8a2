#!/usr/bin/env bash
# A short run of the fio iolog fuzzer (tests/host/fuzz_iolog.c) for make test,
# with its dictionary, on the shipped traces (tests/replay/) and the committed
# corpus tests/fuzz/iolog/ (tests/host/fuzz-lib.sh).
cd "$(dirname "$0")/../.." || exit 1
. tests/host/fuzz-lib.sh
fuzz_test iolog
