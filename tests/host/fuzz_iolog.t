#!/usr/bin/env bash
# A short run of the fio iolog fuzzer (tests/host/fuzz_iolog.c) for make test:
# FUZZ_TEST_SECONDS (default 10) of libFuzzer on the shipped traces
# (tests/replay/) plus what earlier `make fuzz` runs found
# (build/fuzz/iolog-corpus, read, not written). A crash, sanitizer report,
# broken promise, leak or timeout fails, leaving the input in
# build/fuzz/crashes/ with the command that reproduces it.
cd "$(dirname "$0")/../.." || exit 1
secs=${FUZZ_TEST_SECONDS:-10}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..2"
if make -s build/host/fuzz_iolog >"$tmp/build.log" 2>&1; then
	echo "ok 1 - fuzz_iolog builds (clang -fsanitize=fuzzer,address,undefined)"
else
	echo "not ok 1 - fuzz_iolog builds (clang -fsanitize=fuzzer,address,undefined)"
	sed 's/^/# /' "$tmp/build.log" | tail -20
	echo "not ok 2 - fuzz_iolog runs ${secs} s without a finding # no fuzzer"
	exit 1
fi
mkdir -p "$tmp/corpus" "$tmp/crashes" build/fuzz/crashes
[ -d build/fuzz/iolog-corpus ] && cp build/fuzz/iolog-corpus/* "$tmp/corpus/" 2>/dev/null
build/host/fuzz_iolog -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
	-print_final_stats=1 -dict=tests/host/iolog.dict -artifact_prefix="$tmp/crashes/" \
	"$tmp/corpus" tests/replay >"$tmp/fuzz.log" 2>&1
status=$?
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/fuzz.log")
if [ "$status" = 0 ] && [ -n "$execs" ] && [ -z "$(ls -A "$tmp/crashes")" ]; then
	echo "ok 2 - fuzz_iolog ran ${secs} s: $execs executions without a finding"
else
	echo "not ok 2 - fuzz_iolog runs ${secs} s without a finding (status $status)"
	grep -E '^(==|SUMMARY|.*ERROR|fuzz_iolog:)' "$tmp/fuzz.log" | head -20 | sed 's/^/# /'
	for f in "$tmp"/crashes/*; do
		[ -e "$f" ] || continue
		cp "$f" build/fuzz/crashes/
		echo "# reproduce: build/host/fuzz_iolog build/fuzz/crashes/$(basename "$f")"
	done
	exit 1
fi
