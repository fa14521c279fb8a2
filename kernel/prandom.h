/*
 * The kernel's one pseudo-random generator: Marsaglia's xorshift64 with the
 * shifts (13, 7, 17) ("Xorshift RNGs", J. Stat. Software 8(14), 2003). A
 * workload's random offsets, the disk probe's, rawread's and blkcheck's all
 * come from it, so a seed names the same sequence wherever it is given, and
 * a run is repeated by giving its seed again. The state is the caller's: a
 * workload keeps its own, so other code drawing numbers cannot move it.
 *
 *	uint64_t s = 1;			// any value but 0: zero is a fixed point
 *	x = prandom_u64(&s) % n;	// next number; the modulo's bias is < n / 2^64
 *	i = prandom_below(&s, n);	// uniform in [0, n), a multiply, no division
 */
#ifndef KERNEL_PRANDOM_H
#define KERNEL_PRANDOM_H

#include "kernel/types.h"

/* The seed used where a caller gives 0, which xorshift would never leave. */
#define PRANDOM_SEED_FOR_ZERO 0x9E3779B97F4A7C15ULL

static inline uint64_t prandom_u64(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *state = x;
}

/* Lemire's multiply-shift: the high half of a 128-bit product, uniform in [0, n). */
static inline uint64_t prandom_below(uint64_t *state, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)prandom_u64(state) * n) >> 64);
}

#endif
