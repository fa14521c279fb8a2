#!/bin/sh
# Install the Debian packages lookahead needs when any is missing: as root
# with apt-get; otherwise print the one command that would do it.
# usage: tools/deps.sh    (exit 0 when nothing is missing or all was installed)
set -eu
case "${1:-}" in
-h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
?*) echo "deps: no arguments (see --help)" >&2; exit 1 ;;
esac
need=""
have() { command -v "$1" >/dev/null 2>&1; }
pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
have gcc || need="$need gcc"
# static libc: tools/linux-ref's guest program (build/host/lrrun) links statically
pkg libc6-dev || need="$need libc6-dev"
have make || need="$need make"
have ld || need="$need binutils"
have qemu-system-x86_64 || need="$need qemu-system-x86"
have grub-mkrescue || need="$need grub-common"
pkg grub-pc-bin || need="$need grub-pc-bin"
have xorriso || need="$need xorriso"
have mformat || need="$need mtools"
have mke2fs || need="$need e2fsprogs"
have debugfs || need="$need e2fsprogs"
have prove || need="$need perl"
have python3 || need="$need python3"
have gnuplot || need="$need gnuplot-nox"
have parallel || need="$need parallel"
have clang || need="$need clang"
have strace || need="$need strace"
pkg libclang-rt-14-dev || need="$need libclang-rt-14-dev"
# tools/linux-ref checks Debian's packages against it
[ -f /usr/share/keyrings/debian-archive-keyring.gpg ] || need="$need debian-archive-keyring"
ls /usr/src/newlib/newlib-*.tar.xz >/dev/null 2>&1 || need="$need newlib-source"
[ -z "$need" ] && exit 0
need=$(echo $need | tr ' ' '\n' | sort -u | xargs)
if [ "$(id -u)" = 0 ] && have apt-get; then
	echo "deps: installing $need"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null || { echo "deps: apt-get update failed" >&2; exit 1; }
	apt-get install -y -q --no-install-recommends $need >/dev/null ||
		{ echo "deps: apt-get install $need failed" >&2; exit 1; }
else
	echo "deps: missing packages; run as root:" >&2
	echo "  apt-get install $need" >&2
	exit 1
fi
