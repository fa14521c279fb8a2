#!/bin/sh
# Build newlib (Debian's newlib-source tarball) for the kernel: x86_64 ELF,
# no red zone (interrupts run on the same stack), no PIC, small code model,
# no supplied syscalls (kernel/syscalls.c provides _write, _sbrk, ...).
# usage: tools/build-newlib.sh SRCDIR OUTDIR [CROSS_PREFIX]
# SRCDIR holds newlib-*.tar.xz (/usr/src/newlib). The shell looks for it, not
# make: make caches directory listings from before tools/deps.sh installed it.
set -eu
case "${1:-}" in
-h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
esac
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
	echo "build-newlib: usage: tools/build-newlib.sh SRCDIR OUTDIR [CROSS_PREFIX]" >&2
	exit 1
fi
tarball=$(ls "$1"/newlib-*.tar.xz 2>/dev/null | sort | tail -n 1)
out=$(realpath -m "$2")
cross=${3:-}
[ -n "$tarball" ] && [ -f "$tarball" ] || { echo "build-newlib: no newlib tarball (install newlib-source)" >&2; exit 1; }
# The Makefile's stamp goes first, so a failed build is never taken for a finished one.
rm -rf "$out/.installed" "$out/src" "$out/obj" "$out/xtools" "$out/install"
# newlib's own makefiles must not inherit our make's flags (make -B would
# have them regenerate their autoconf output).
unset MAKEFLAGS MFLAGS MAKELEVEL
mkdir -p "$out/src" "$out/obj" "$out/xtools"
tar -xf "$tarball" -C "$out/src" --strip-components=1
# newlib's configure wants x86_64-elf-* tools; without a cross toolchain
# they are thin wrappers around the host's, which generate the same code.
for t in gcc cc ar as ld nm objdump objcopy ranlib readelf strip; do
	real=${cross}$t
	[ "$t" = cc ] && real=${cross}gcc
	command -v "$real" >/dev/null 2>&1 || continue
	printf '#!/bin/sh\nexec %s "$@"\n' "$real" >"$out/xtools/x86_64-elf-$t"
	chmod +x "$out/xtools/x86_64-elf-$t"
done
PATH="$out/xtools:$PATH"
export PATH
flags="-O2 -g -ffreestanding -mno-red-zone -fno-pic -fno-pie -fno-stack-protector"
flags="$flags -mcmodel=small -fno-omit-frame-pointer"
cd "$out/obj"
"$out/src/configure" --target=x86_64-elf --prefix="$out/install" --disable-multilib \
	--disable-newlib-supplied-syscalls --enable-newlib-io-long-long \
	--enable-newlib-io-c99-formats --disable-nls --disable-libgloss \
	CFLAGS_FOR_TARGET="$flags" >"$out/configure.log" 2>&1 ||
	{ tail -20 "$out/configure.log"; exit 1; }
jobs=$(nproc 2>/dev/null || echo 2)
make -j"$jobs" all-target-newlib >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
make install-target-newlib >"$out/install.log" 2>&1 || { tail -20 "$out/install.log"; exit 1; }
