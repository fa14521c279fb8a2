/*
 * The pattern check the benchmarks run on every byte they read: the same
 * answer as pattern_check() (bench/pattern.h, which defines the pattern and
 * stays its reference), in fewer instructions. Under QEMU's instruction-count
 * clock every instruction of this loop is a nanosecond of every CPU-bound
 * figure and most of the host's time (bench/copybench.c measures both).
 *
 * The aligned middle runs eight words a step: each word's splitmix64 input
 * is the previous one's plus the golden-ratio increment (one add instead of
 * an index, a multiply and an add), the differences are OR-ed together and
 * tested once a step, and only a step that differs is searched again, with
 * pattern_check(), for its first wrong byte. SSE2 does not help here: it has
 * no 64-bit multiply, and building one from PMULUDQ costs more instructions
 * than the two IMULs per word it would replace.
 */
#ifndef BENCH_PATTERN_CHECK_H
#define BENCH_PATTERN_CHECK_H

#include "bench/pattern.h"

#define PATTERN_GOLDEN 0x9e3779b97f4a7c15ULL

/* Check @len bytes at @buf holding the file's bytes from @pos on; -1 or the first bad offset. */
static inline int64_t pattern_check_fast(uint64_t seed, const void *buf, size_t len, uint64_t pos)
{
	const uint8_t *p = buf;
	size_t head = (size_t)((8 - pos % 8) % 8), i;
	int64_t bad;
	uint64_t z;

	if (head > len)
		head = len;
	bad = pattern_check(seed, p, head, pos);
	if (bad >= 0)
		return bad;
	i = head;
	/* pattern_word(seed, w) is mix64(z) with z = seed + (w + 1) * golden */
	z = seed + ((pos + i) / 8 + 1) * PATTERN_GOLDEN;
	for (; i + 64 <= len; i += 64) {
		uint64_t diff = 0;

#pragma GCC unroll 8
		for (int k = 0; k < 8; k++) {
			uint64_t v;

			__builtin_memcpy(&v, p + i + 8 * k, 8);
			diff |= v ^ mix64(z);
			z += PATTERN_GOLDEN;
			/* one add a word: keep gcc from rebuilding z + k * golden from constants */
			__asm__("" : "+r"(z));
		}
		if (diff)
			return pattern_check(seed, p + i, 64, pos + i);
	}
	return pattern_check(seed, p + i, len - i, pos + i);
}

#endif
