#!/usr/bin/env bash
# The exit summary a real machine leaves on its 25-line screen: what was
# found (or why not), each port's errors, timeouts and resets, the first
# error line of the run and the result, in at most 20 lines.
cd "$(dirname "$0")/../.." || exit 1
. tests/qemu/lib.sh
tap_plan 9

summary() {	# the summary block of $QOUT
	sed -n '/^+-- lookahead summary/,/^+-- result:/p' "$QOUT"
}

qemu --timeout 60 -- run=lsblk
summary >"$TAP_TMP/s1"
tap_grep '^\| ahci: no AHCI disk on 1 controller' "$TAP_TMP/s1" "no disk: the summary says there is no AHCI disk"
tap_grep '^\+-- result: success$' "$TAP_TMP/s1" "no disk: the result"
tap_is "$(($(wc -l <"$TAP_TMP/s1") <= 20))" 1 "the summary fits on the screen"

LBA=$TAP_TMP/lba.img CONF=$TAP_TMP/eio1000.conf
tools/mkdisk lba "$LBA" 16 && tools/mkdisk blkdebug "$CONF" 1000 ||
	{ echo "Bail out! tools/mkdisk failed"; exit 1; }
qemu --disk "blkdebug:$CONF:$LBA" --timeout 90 -- 'run=lsblk;rawread disk=0 bs=1024 qd=1 pattern=seq count=1'
summary >"$TAP_TMP/s2"
tap_is "$QSTATUS" 1 "an injected read error fails the run"
tap_grep '^\| sda ahci0\.0: QEMU HARDDISK, 16 MiB, running: errors [1-9][0-9]*, timeouts 0, resets [1-9]' \
	"$TAP_TMP/s2" "the summary shows the port's errors and resets"
tap_grep '^\| first error: ahci0\.0: sda: (task file error|device error status): IS ' "$TAP_TMP/s2" \
	"the summary shows the first error line of the run"
tap_grep '^\+-- result: failure$' "$TAP_TMP/s2" "the summary shows the result"
qemu --timeout 60 -- frobnicate=1
tap_grep "^\| first error: command line: unknown key 'frobnicate'" "$QOUT" \
	"a bad command line: the summary names it"

# a long first error is wrapped over the summary's lines, not cut
qemu --timeout 60 -- elevator=bogus_value_that_is_long "run=help"
tap_grep "^\|   'elevator': expected one of cfq\|deadline\|noop\$" "$QOUT" \
	"the summary wraps a long first error onto a second line"
