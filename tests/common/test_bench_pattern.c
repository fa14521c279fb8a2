/*
 * The benchmarks' pattern check (bench/pattern-check.h) against its
 * reference, pattern_check() in bench/pattern.h: the same answer for every
 * alignment, length and position of a wrong byte, and for a file's name
 * that gives another seed.
 */
#include <string.h>

#include "bench/pattern-check.h"
#include "kernel/ktest.h"

#define T_BYTES 512

static uint8_t tbuf[T_BYTES + 16];

/* The file's bytes [pos, pos + len) into tbuf. */
static void fill(uint64_t seed, uint64_t pos, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		uint64_t at = pos + i;

		tbuf[i] = (uint8_t)(pattern_word(seed, at / 8) >> (8 * (at % 8)));
	}
}

static void test_clean_data(struct ktest *t)
{
	uint64_t seed = pattern_seed("/bench/big.pat");

	for (uint64_t pos = 4096 - 9; pos < 4096 + 9; pos++)
		for (size_t len = 0; len <= T_BYTES; len += (len < 80 ? 1 : 37)) {
			fill(seed, pos, len);
			KT_EXPECT_EQ(t, pattern_check_fast(seed, tbuf, len, pos), -1);
		}
}

static void test_every_wrong_byte(struct ktest *t)
{
	uint64_t seed = pattern_seed("hot.pat");
	int mismatches = 0;

	for (uint64_t pos = 0; pos < 16; pos += 3) {
		size_t len = T_BYTES - (size_t)pos;

		fill(seed, pos, len);
		for (size_t at = 0; at < len; at++) {
			tbuf[at] ^= 0x40;
			if (pattern_check_fast(seed, tbuf, len, pos) != (int64_t)(pos + at) ||
			    pattern_check(seed, tbuf, len, pos) != (int64_t)(pos + at))
				mismatches++;
			tbuf[at] ^= 0x40;
		}
	}
	KT_EXPECT_EQ(t, mismatches, 0);
}

static void test_two_wrong_bytes_first_counts(struct ktest *t)
{
	uint64_t seed = pattern_seed("pipe.pat");

	fill(seed, 8192, T_BYTES);
	tbuf[200] ^= 1;
	tbuf[130] ^= 0x80;
	KT_EXPECT_EQ(t, pattern_check_fast(seed, tbuf, T_BYTES, 8192), 8192 + 130);
}

static void test_other_file(struct ktest *t)
{
	uint64_t seed = pattern_seed("/bench/a.pat");

	fill(seed, 0, T_BYTES);
	KT_EXPECT_EQ(t, pattern_check_fast(pattern_seed("/bench/b.pat"), tbuf, T_BYTES, 0), 0);
	/* the same bytes one word further on in the file are wrong from the start */
	KT_EXPECT_EQ(t, pattern_check_fast(seed, tbuf, T_BYTES, 8), 8);
}

KTEST_SUITE(bench_pattern, NULL, KTEST_CASE(test_clean_data), KTEST_CASE(test_every_wrong_byte),
	    KTEST_CASE(test_two_wrong_bytes_first_counts), KTEST_CASE(test_other_file));
