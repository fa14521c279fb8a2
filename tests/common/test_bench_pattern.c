/*
 * The benchmarks' pattern check (bench/pattern-check.h) against its
 * reference, pattern_check() in bench/pattern.h: the same answer for every
 * alignment, length and position of a wrong byte, and for a file's name
 * that gives another seed; and the bytes a load through a mapping checks
 * (pattern_word_in_file()) at the end of a file of any size.
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

/*
 * bench_touch()'s check through a mapping of a file whose size is not a
 * multiple of 8 (nor of a page): the mapping holds the file's bytes, then
 * zeros to the end of its last page. Every byte's word, cut at the end of
 * the file, is right; the whole last word (the check before
 * pattern_word_in_file()) is "wrong" at the first byte past the end.
 */
#define T_MAP_BYTES (4 * 4096)
static uint8_t tmap[T_MAP_BYTES];

static void test_touch_word_inside_file(struct ktest *t)
{
	static const uint64_t sizes[] = {1, 5, 8, 1540, 4093, 4096, 4097, 12291, 16383};
	uint64_t seed = pattern_seed("/replay/files/usr/include/stdio.h");

	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		uint64_t size = sizes[k], at, last_at;
		int wrong = 0, outside = 0;

		memset(tmap, 0, sizeof(tmap));
		for (uint64_t i = 0; i < size; i++)
			tmap[i] = (uint8_t)(pattern_word(seed, i / 8) >> (8 * (i % 8)));
		for (uint64_t pos = 0; pos < size; pos++) {
			size_t n = pattern_word_in_file(pos, size, &at);

			outside += n == 0 || n > 8 || at > pos || pos >= at + n || at + n > size ||
				   at % 8;
			wrong += pattern_check_fast(seed, tmap + at, n, at) != -1;
		}
		KT_EXPECT_EQ(t, outside, 0);
		KT_EXPECT_EQ(t, wrong, 0);
		KT_EXPECT_EQ(t, pattern_word_in_file(size, size, &at), 0);
		/* the whole last word: right only when the file ends on a word */
		pattern_word_in_file(size - 1, size, &last_at);
		KT_EXPECT_EQ(t, pattern_check_fast(seed, tmap + last_at, 8, last_at),
			     size % 8 ? (int64_t)size : -1);
	}
}

KTEST_SUITE(bench_pattern, NULL, KTEST_CASE(test_clean_data), KTEST_CASE(test_every_wrong_byte),
	    KTEST_CASE(test_two_wrong_bytes_first_counts), KTEST_CASE(test_other_file),
	    KTEST_CASE(test_touch_word_inside_file));
