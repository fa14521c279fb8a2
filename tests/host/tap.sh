# TAP output for the host test scripts (tests/host/*.t), sourced after the
# script's cd to the top of the tree:
#
#	ok NAME                       the next test passed
#	not_ok NAME [DETAIL...]       it failed; each DETAIL a "# " line after it
#	check NAME STATUS REGEX FILE  passed if $st is STATUS and FILE has a line
#	                              matching REGEX (grep -E); else the file shown
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; shift; for d in "$@"; do echo "# $d"; done; }
check() {
	if [ "$st" = "$2" ] && grep -Eq -- "$3" "$4"; then ok "$1"; else
		not_ok "$1" "exit $st (want $2); no line /$3/ in:" "$(cat "$4")"
	fi
}
