#!/usr/bin/env bash
# tools/run-tests runs only what this tree builds, and a filter that matches
# nothing is an error: a test program left in build/host/ by an older tree (here
# a stray test_zz_stray that would pass) is never run, and "0 passed, 0 failed"
# is never a success.
cd "$(dirname "$0")/../.." || exit 1
echo "1..3"
stray=build/host/test_zz_stray
printf '#!/bin/sh\necho 1..1\necho ok 1 - stray\n' >"$stray" && chmod +x "$stray"
trap 'rm -f "$stray"' EXIT
out=$(tools/run-tests -j1 zz_stray 2>&1)
st=$?
if [ $st = 1 ] && echo "$out" | grep -q "no test program matches 'zz_stray'"; then
	echo "ok 1 - a test binary the tree does not build is not run (exit $st)"
else
	echo "not ok 1 - a test binary the tree does not build is not run (exit $st)"
	echo "$out" | sed 's/^/# /'
fi
out=$(tools/run-tests -j1 no-such-test-anywhere 2>&1)
st=$?
if [ $st = 1 ] && echo "$out" | grep -q "no test program matches" &&
	! echo "$out" | grep -q "0 passed, 0 failed"; then
	echo "ok 2 - a filter matching nothing: one error, exit 1"
else
	echo "not ok 2 - a filter matching nothing: one error, exit 1 (exit $st)"
	echo "$out" | sed 's/^/# /'
fi
list=$(make -s --no-print-directory print-host-tests)
if [ -n "$list" ] && ! echo "$list" | grep -q zz_stray; then
	echo "ok 3 - make print-host-tests lists the tree's host tests ($(echo $list | wc -w))"
else
	echo "not ok 3 - make print-host-tests lists the tree's host tests: '$list'"
fi
