#!/usr/bin/env bash
# Every tool under tools/ (and the host programs built from tools/*.c) answers
# --help: its usage on stdout, exit status 0, nothing else done (no file or
# folder made where it ran, such as one named "--help", no build, no test
# run), quickly; and an option it does not know is one error line, exit
# status non-zero.
cd "$(dirname "$0")/../.." || exit 1
top=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s build/host/patgen build/host/iologinfo >/dev/null 2>&1
tools=()
for t in tools/* tools/helpers/*; do
	[ -f "$t" ] && [ -x "$t" ] && tools+=("$t")
done
tools+=(build/host/patgen build/host/iologinfo)
echo "1..$((2 * ${#tools[@]}))"
n=0
for t in "${tools[@]}"; do
	name=${t##*/}
	mkdir -p "$tmp/$name" && cd "$tmp/$name" || exit 1
	start=$(date +%s)
	timeout 60 "$top/$t" --help >"$tmp/$name.out" 2>"$tmp/$name.err"
	st=$?
	took=$(($(date +%s) - start))
	made=$(ls -A "$tmp/$name")
	cd "$top" || exit 1
	n=$((n + 1))
	if [ $st = 0 ] && [ -s "$tmp/$name.out" ] && [ -z "$made" ] && [ $took -le 10 ] &&
		grep -qi 'usage\|tools/' "$tmp/$name.out"; then
		echo "ok $n - $t --help: its usage, exit 0, nothing else done"
	else
		echo "not ok $n - $t --help: its usage, exit 0, nothing else done"
		echo "# exit $st in $took s; made: '$made'; stdout: $(head -2 "$tmp/$name.out" | tr '\n' ' ')"
		echo "# stderr: $(head -2 "$tmp/$name.err" | tr '\n' ' ')"
	fi
	# an unknown option: an error naming it, not the tool's work (deps.sh: any argument)
	mkdir -p "$tmp/$name-bad" && cd "$tmp/$name-bad" || exit 1
	timeout 60 "$top/$t" --no-such-option >"$tmp/$name.out" 2>"$tmp/$name.err" </dev/null
	st=$?
	made=$(ls -A "$tmp/$name-bad")
	cd "$top" || exit 1
	n=$((n + 1))
	if [ $st != 0 ] && [ -z "$made" ] && grep -q -- 'no-such-option\|unrecognized\|usage\|argument' "$tmp/$name.err"; then
		echo "ok $n - $t --no-such-option: an error, exit $st"
	else
		echo "not ok $n - $t --no-such-option: an error, exit $st"
		echo "# made: '$made'; stderr: $(head -3 "$tmp/$name.err" | tr '\n' ' ')"
	fi
done
