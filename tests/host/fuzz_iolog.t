#!/usr/bin/env bash
# A short run of the fio iolog fuzzer (tests/host/fuzz_iolog.c) for make test,
# with its dictionary, on the shipped traces (tests/replay/) and what earlier
# `make fuzz` runs found (tests/host/fuzz-lib.sh; FUZZ_TEST_SECONDS, default 10).
cd "$(dirname "$0")/../.." || exit 1
. tests/host/fuzz-lib.sh
FUZZ_TEST_SECONDS=${FUZZ_TEST_SECONDS:-10} fuzz_test fuzz_iolog 65536 "" \
	-dict=tests/host/iolog.dict tests/replay
