#!/usr/bin/env bash
# Help that matches the code: every command answers `CMD help` (and `help CMD`)
# with its usage and keys from the table that parses them, and succeeds
# without running; bench answers for itself and for each workload; and every
# kernel key (`params`) is in docs/command-line.md and every bench workload
# (`bench`) in docs/benchmarks.md, so the
# two cannot drift apart.
cd "$(dirname "$0")/../.." || exit 1
. tests/qemu/lib.sh
tap_plan 8

qemu --timeout 60 -- "run=help;params;bench"
tap_is "$QSTATUS" 0 "help, params and bench (the lists): exit 0"
cmds=$(sed -n '/^lookahead\$ help$/,/^RESULT/p' "$QOUT" | awk '/^  [a-z_]+/ { print $1 }' | grep -v '^(')
keys=$(sed -n '/^lookahead\$ params$/,/^RESULT/p' "$QOUT" | awk '/^  [a-z_]+ / { print $1 }')
works=$(sed -n "/^bench workloads:/,/^  common keys/p" "$QOUT" | awk "/^  [a-z]+ / && \$1 != \"common\" { print \$1 }")
tap_cmp() { python3 -c "import sys; sys.exit(0 if ($1) else 1)" && tap_ok "$2" || tap_not_ok "$2" "false: $1"; }
tap_cmp "$(echo "$cmds" | wc -w) >= 25 and $(echo "$keys" | wc -w) >= 10 and $(echo "$works" | wc -w) >= 8" \
	"the lists: $(echo "$cmds" | wc -w) commands, $(echo "$keys" | wc -w) keys, $(echo "$works" | wc -w) workloads"

# every command with help: its own usage, success, and nothing run (no fault, no halt)
run=""
for c in $cmds; do run="$run;$c help"; done
qemu --timeout 60 -- "run=${run#;}"
tap_is "$QSTATUS" 0 "every command answers 'CMD help' and succeeds (fault and halt too)"
missing=""
for c in $cmds; do grep -q "^usage: $c\b" "$QOUT" || missing="$missing $c"; done
tap_is "${missing:-none}" none "each printed its own usage line"

qemu --timeout 60 -- "run=help bench iozone;bench thrash --help;help cat;help nosuch"
tap_grep '^  i=  which test' "$QOUT" "help bench iozone: the workload's own keys"
tap_grep '^  catchup=  1: a reader behind' "$QOUT" "bench thrash --help: the workload's own keys"
tap_grep "^error: help: no command 'nosuch'" "$QOUT" "help nosuch: one error naming it"

# the documentation names every kernel key and every workload
absent=""
for k in $keys; do grep -q "\`$k=" docs/command-line.md || absent="$absent key:$k"; done
for w in $works; do grep -q "^| \`$w\b" docs/benchmarks.md || absent="$absent workload:$w"; done
tap_is "${absent:-none}" none "docs/command-line.md has every kernel key, docs/benchmarks.md every bench workload"
