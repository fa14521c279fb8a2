/*
 * The kernel's memcpy, in place of newlib's x86-64 one (the linker takes
 * this object's memcpy and never pulls newlib's from libc.a). Every byte a
 * benchmark reads goes through it once (do_generic_mapping_read copies each
 * page into the reader's buffer), so it is chosen by what it costs there,
 * measured with `copybench` (bench/copybench.c):
 *
 *  - newlib's loop streams its stores past the cache (movnti) and prefetches
 *    768 bytes ahead: on the Core 2 the benchmark's pattern check then reads
 *    the just-copied buffer back from memory; under QEMU it is 0.31
 *    instructions a byte.
 *  - This one moves 128 bytes a step through four general registers with
 *    ordinary stores: 0.28 instructions a byte, and as cheap for TCG as
 *    newlib's.
 *  - SSE2 (16-byte MOVDQU) is 0.16 instructions a byte, but TCG emulates
 *    each one through the CPU state in memory: about twice the host's time
 *    per byte. REP MOVSQ is 0.13 (TCG counts one instruction per iteration,
 *    not per REP) and REP MOVSB 1.0; both are several times the host's time,
 *    as TCG runs each iteration as a pass through the translated block.
 *    So string instructions only move what is left under 128 bytes.
 *
 * The direction flag is clear at every call (the ABI; interrupt entry
 * clears it too).
 */
#include <stddef.h>

void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	void *d = dst;
	const void *s = src;
	size_t steps = n / 128, rest = n % 128;

	__asm__ __volatile__("test %[steps], %[steps]\n\t"
			     "jz 2f\n"
			     "1:\n\t"
			     ".irp off, 0, 32, 64, 96\n\t"
			     "movq \\off(%[s]), %%r8\n\t"
			     "movq \\off+8(%[s]), %%r9\n\t"
			     "movq \\off+16(%[s]), %%r10\n\t"
			     "movq \\off+24(%[s]), %%r11\n\t"
			     "movq %%r8, \\off(%[d])\n\t"
			     "movq %%r9, \\off+8(%[d])\n\t"
			     "movq %%r10, \\off+16(%[d])\n\t"
			     "movq %%r11, \\off+24(%[d])\n\t"
			     ".endr\n\t"
			     "addq $128, %[s]\n\t"
			     "addq $128, %[d]\n\t"
			     "decq %[steps]\n\t"
			     "jnz 1b\n"
			     "2:\n\t"
			     "movq %[rest], %%rcx\n\t"
			     "shrq $3, %%rcx\n\t"
			     "rep movsq\n\t"
			     "movq %[rest], %%rcx\n\t"
			     "andq $7, %%rcx\n\t"
			     "rep movsb"
			     : [d] "+D"(d), [s] "+S"(s), [steps] "+r"(steps)
			     : [rest] "r"(rest)
			     : "rcx", "r8", "r9", "r10", "r11", "memory", "cc");
	return dst;
}
