# The short fuzzer runs of make test (tests/host/fuzz_*.t), sourced:
#
#	fuzz_test NAME MAX_LEN MAKE_TARGETS [OPTIONS AND SEED DIRS...]
#
# builds build/host/NAME (and MAKE_TARGETS), runs it for FUZZ_TEST_SECONDS
# (default 20) on the seed directories plus what earlier `make fuzz` runs
# found (build/fuzz-X/corpus for NAME fuzz_X, read, not written), and prints
# two TAP lines. A crash, sanitizer report, leak or timeout fails, leaving the
# input in build/fuzz-X/crashes/ with the command that reproduces it.
fuzz_test() {
	local name=$1 max_len=$2 targets=$3 secs=${FUZZ_TEST_SECONDS:-20} tmp status execs dir
	shift 3
	dir=build/fuzz-${name#fuzz_}
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	echo "1..2"
	# shellcheck disable=SC2086
	if make -s "build/host/$name" $targets >"$tmp/build.log" 2>&1; then
		echo "ok 1 - $name builds (clang -fsanitize=fuzzer,address,undefined)"
	else
		echo "not ok 1 - $name builds (clang -fsanitize=fuzzer,address,undefined)"
		sed 's/^/# /' "$tmp/build.log" | tail -20
		echo "not ok 2 - $name runs ${secs} s without a finding # no fuzzer"
		exit 1
	fi
	mkdir -p "$tmp/corpus" "$tmp/crashes" "$dir/crashes"
	[ -d "$dir/corpus" ] && cp "$dir/corpus/"* "$tmp/corpus/" 2>/dev/null
	"build/host/$name" -max_total_time="$secs" -max_len="$max_len" -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$tmp/crashes/" \
		"$tmp/corpus" "$@" >"$tmp/fuzz.log" 2>&1
	status=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/fuzz.log")
	if [ "$status" = 0 ] && [ -n "$execs" ] && [ -z "$(ls -A "$tmp/crashes")" ]; then
		echo "ok 2 - $name ran ${secs} s: $execs executions without a finding"
		return 0
	fi
	echo "not ok 2 - $name runs ${secs} s without a finding (status $status)"
	grep -E "^(==|SUMMARY|.*ERROR|$name:)" "$tmp/fuzz.log" | head -20 | sed 's/^/# /'
	for f in "$tmp"/crashes/*; do
		[ -e "$f" ] || continue
		cp "$f" "$dir/crashes/"
		echo "# reproduce: build/host/$name $dir/crashes/$(basename "$f")"
	done
	exit 1
}
