#!/usr/bin/env bash
# A short run of the parameter-file fuzzer (tests/host/fuzz_diskmodel.c) for
# make test: FUZZ_TEST_SECONDS (default 6) of libFuzzer on the seed corpus
# (tests/host/diskmodel-corpus/) plus what earlier `make fuzz` runs found
# (build/fuzz-diskmodel/corpus, read, not written). A crash, sanitizer
# report, leak, timeout or broken model rule fails, leaving the input in
# build/fuzz-diskmodel/crashes/ with the command that reproduces it.
cd "$(dirname "$0")/../.." || exit 1
secs=${FUZZ_TEST_SECONDS:-6}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..2"
if make -s build/host/fuzz_diskmodel >"$tmp/build.log" 2>&1; then
	echo "ok 1 - fuzz_diskmodel builds (clang -fsanitize=fuzzer,address,undefined)"
else
	echo "not ok 1 - fuzz_diskmodel builds (clang -fsanitize=fuzzer,address,undefined)"
	sed 's/^/# /' "$tmp/build.log" | tail -20
	echo "not ok 2 - fuzz_diskmodel runs ${secs} s without a finding # no fuzzer"
	exit 1
fi
mkdir -p "$tmp/corpus" "$tmp/crashes" build/fuzz-diskmodel/crashes
cp tests/host/diskmodel-corpus/* "$tmp/corpus/"
[ -d build/fuzz-diskmodel/corpus ] && cp build/fuzz-diskmodel/corpus/* "$tmp/corpus/" 2>/dev/null
build/host/fuzz_diskmodel -max_total_time="$secs" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
	-print_final_stats=1 -artifact_prefix="$tmp/crashes/" "$tmp/corpus" >"$tmp/fuzz.log" 2>&1
status=$?
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/fuzz.log")
if [ "$status" = 0 ] && [ -n "$execs" ] && [ -z "$(ls -A "$tmp/crashes")" ]; then
	echo "ok 2 - fuzz_diskmodel ran ${secs} s: $execs executions without a finding"
else
	echo "not ok 2 - fuzz_diskmodel runs ${secs} s without a finding (status $status)"
	grep -E '^(==|SUMMARY|.*ERROR)' "$tmp/fuzz.log" | head -20 | sed 's/^/# /'
	for f in "$tmp"/crashes/*; do
		[ -e "$f" ] || continue
		cp "$f" build/fuzz-diskmodel/crashes/
		echo "# reproduce: build/host/fuzz_diskmodel build/fuzz-diskmodel/crashes/$(basename "$f")"
	done
	exit 1
fi
