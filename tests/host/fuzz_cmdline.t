#!/usr/bin/env bash
# A short run of the command-line fuzzer (tests/host/fuzz_cmdline.c) for
# make test: FUZZ_TEST_SECONDS (default 20) of libFuzzer with the kernel's
# dictionary of keys (tools/kernel-keys) on the seed command lines (boot/grub.cfg's
# and tests/host/fuzz_cmdline.seeds) plus what earlier `make fuzz` runs found
# (build/fuzz/cmdline-corpus, read, not written). A crash, sanitizer report,
# broken parser promise or timeout fails, leaving the input in
# build/fuzz/crashes/ with the command that reproduces it.
cd "$(dirname "$0")/../.." || exit 1
secs=${FUZZ_TEST_SECONDS:-20}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..2"
if make -s build/host/fuzz_cmdline build/fuzz/cmdline-seeds.stamp >"$tmp/build.log" 2>&1; then
	echo "ok 1 - fuzz_cmdline builds (clang -fsanitize=fuzzer,address,undefined)"
else
	echo "not ok 1 - fuzz_cmdline builds (clang -fsanitize=fuzzer,address,undefined)"
	sed 's/^/# /' "$tmp/build.log" | tail -20
	echo "not ok 2 - fuzz_cmdline runs ${secs} s without a finding # no fuzzer"
	exit 1
fi
mkdir -p "$tmp/corpus" "$tmp/crashes" build/fuzz/crashes
[ -d build/fuzz/cmdline-corpus ] && cp build/fuzz/cmdline-corpus/* "$tmp/corpus/" 2>/dev/null
build/host/fuzz_cmdline -max_total_time="$secs" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
	-dict=build/fuzz/cmdline.dict -print_final_stats=1 -artifact_prefix="$tmp/crashes/" \
	"$tmp/corpus" build/fuzz/cmdline-seeds >"$tmp/fuzz.log" 2>&1
status=$?
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/fuzz.log")
if [ "$status" = 0 ] && [ -n "$execs" ] && [ -z "$(ls -A "$tmp/crashes")" ]; then
	echo "ok 2 - fuzz_cmdline ran ${secs} s: $execs executions without a finding"
else
	echo "not ok 2 - fuzz_cmdline runs ${secs} s without a finding (status $status)"
	grep -E '^(==|SUMMARY|.*ERROR|fuzz_cmdline: broken)' "$tmp/fuzz.log" | head -20 | sed 's/^/# /'
	for f in "$tmp"/crashes/*; do
		[ -e "$f" ] || continue
		cp "$f" build/fuzz/crashes/
		echo "# reproduce: build/host/fuzz_cmdline build/fuzz/crashes/$(basename "$f")"
	done
	exit 1
fi
