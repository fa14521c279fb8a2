# The short fuzzer runs of make test (tests/host/fuzz_*.t), sourced:
#
#	fuzz_test NAME [SECONDS]
#
# builds build/host/fuzz_NAME and what its runs need (make fuzz-build-NAME),
# runs it for SECONDS (FUZZ_TEST_SECONDS, default 5) with what `make fuzz`
# gives it (make fuzz-args-NAME: its dictionary and seed directories) on the
# committed corpus tests/fuzz/NAME/, read, not written, and prints two TAP
# lines. Every input of the corpus runs first, so a regression input that
# crashes again fails here (a whole corpus takes 0.4 to 1.5 s of CPU); the
# seconds after it are new inputs, thousands of them (ra, the slowest, runs
# about 350 a second). Long fuzzing, which finds what short runs cannot, is
# `make fuzz`'s (the runs of 6 to 20 s make test had cost it 76 s of CPU).
# The working corpus of `make fuzz` (build/fuzz-NAME/corpus) is left out:
# after long runs it holds thousands of inputs, and `make fuzz-merge` folds
# what counts of it into tests/fuzz/.
# A crash, sanitizer report, leak or timeout fails, leaving the input in
# build/fuzz-NAME/crashes/ with the command that reproduces it.
fuzz_test() {
	local name=$1 secs=${FUZZ_TEST_SECONDS:-${2:-5}} tmp status execs dir args
	dir=build/fuzz-$name
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	echo "1..2"
	if make -s --no-print-directory "fuzz-build-$name" >"$tmp/build.log" 2>&1 &&
		args=$(make -s --no-print-directory "fuzz-args-$name" 2>>"$tmp/build.log"); then
		echo "ok 1 - fuzz_$name builds (clang -fsanitize=fuzzer,address,undefined)"
	else
		echo "not ok 1 - fuzz_$name builds (clang -fsanitize=fuzzer,address,undefined)"
		sed 's/^/# /' "$tmp/build.log" | tail -20
		echo "not ok 2 - fuzz_$name runs ${secs} s without a finding # no fuzzer"
		exit 1
	fi
	mkdir -p "$tmp/corpus" "$tmp/crashes" "$dir/crashes" "tests/fuzz/$name"
	# libFuzzer writes what it finds into the first directory it is given: $tmp/corpus
	# shellcheck disable=SC2086 # $args: options and directories, no blanks
	"build/host/fuzz_$name" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$tmp/crashes/" "$tmp/corpus" \
		"tests/fuzz/$name" $args >"$tmp/fuzz.log" 2>&1
	status=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/fuzz.log")
	if [ "$status" = 0 ] && [ -n "$execs" ] && [ -z "$(ls -A "$tmp/crashes")" ]; then
		echo "ok 2 - fuzz_$name ran ${secs} s: $execs executions without a finding"
		return 0
	fi
	echo "not ok 2 - fuzz_$name runs ${secs} s without a finding (status $status)"
	grep -E "^(==|SUMMARY|.*ERROR|fuzz_$name:)" "$tmp/fuzz.log" | head -20 | sed 's/^/# /'
	for f in "$tmp"/crashes/*; do
		[ -e "$f" ] || continue
		cp "$f" "$dir/crashes/"
		echo "# reproduce: build/host/fuzz_$name $dir/crashes/$(basename "$f")"
	done
	exit 1
}
