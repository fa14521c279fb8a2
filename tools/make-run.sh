#!/usr/bin/env bash
# `make run`: boot lookahead under QEMU on a generated ext2 image, read the
# same 70 MiB file with each readahead algorithm (caches dropped between
# runs) and print the results side by side.
#   RA_KB=N    maximum readahead in KiB for the runs (default 128, Linux 2.6's default)
#   TIMEOUT=S  QEMU timeout (default 300)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
ra_kb=${RA_KB:-128}
echo "make run: building the test images (tools/mkimage)"
tools/mkimage
img=build/img/ext2-4k.img
log=build/run.log
cmds="lsblk;ls /;cat /big.bin ra=ondemand ra_kb=$ra_kb;drop_caches"
cmds="$cmds;cat /big.bin ra=legacy ra_kb=$ra_kb;drop_caches;cat /big.bin ra=off;rastat;meminfo"
echo "make run: tools/run-qemu --disk $img -- \"run=$cmds\""
status=0
tools/run-qemu --timeout "${TIMEOUT:-300}" --log "$log" --disk "$img" -- "run=$cmds" || status=$?
echo
echo "make run: /big.bin read with each readahead algorithm (host crc32 $(grep '^/big.bin ' build/img/manifest-full.txt | cut -d' ' -f3)):"
tools/results-table --cmd cat "$log" || true
echo "make run: full console log in $log (exit status $status)"
exit $status
