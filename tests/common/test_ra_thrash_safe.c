/*
 * Thrashing-safe context readahead (mm/readahead-thrash-safe.c, Wu 2010,
 * 06/11) through the read(2) path, worked out by hand (start = ra_index,
 * size, async = size - mark offset; H = history behind the offset, A =
 * pages already ahead; 32 KiB = 8 pages):
 *
 *	offset 0: initial;  thrashed before: context;  expected offset: next
 *	req > max without a mark: size = async = max
 *	context: start = offset, or the next hole after a mark; H = 0 without
 *	  a mark: random, or thrashed (inside [start - size, start + size) of
 *	  the last window): size = max(size / 2, 8), async 0, sticky flag;
 *	  H (x2 back to page 0) <= A: nothing; else size = clamp(H - A, 8,
 *	  max), async = min(size, 1 + (H - A) / 8)
 *	then the piggy-back of 2.6.31
 *
 * Events are {case, offset, req, ra_index, ra_size, la_size, pages submitted}.
 */
#include "tests/common/test_ra_harness.h"

static struct ra_harness h;

#define THRASH_SAFE ra_algo_find("thrash-safe")

/* A plain sequential read: the expected offsets, on-demand's windows. */
static void test_thrash_safe_sequential(struct ktest *t)
{
	static const struct rah_event ev[] = {
		{ RA_CASE_SEQ_FIRST, 0, 1, 0, 4, 3, 4 },
		{ RA_CASE_SEQ_NEXT, 1, 1, 4, 8, 8, 8 },
		{ RA_CASE_SEQ_NEXT, 4, 1, 12, 16, 16, 16 },
		{ RA_CASE_SEQ_NEXT, 12, 1, 28, 32, 32, 32 },
		{ RA_CASE_SEQ_NEXT, 28, 1, 60, 32, 32, 32 },
		{ RA_CASE_SEQ_NEXT, 60, 1, 92, 32, 32, 32 },
		{ RA_CASE_SEQ_NEXT, 92, 1, 124, 32, 32, 4 },
		{ RA_CASE_SEQ_NEXT, 124, 1, 156, 32, 32, 0 },
	};

	KT_ASSERT_TRUE(t, THRASH_SAFE != NULL);
	KT_ASSERT_EQ(t, rah_open(&h, "/ts-seq", 128 * PAGE_SIZE, THRASH_SAFE, 32), 0);
	rah_read_one_by_one(t, &h, 0, 127);
	rah_expect_events(t, 0, ev, ARRAY_SIZE(ev));
	KT_EXPECT_EQ(t, h.bad_words, 0);
	rah_close(&h);
}

/*
 * A stream's windows are evicted ahead of it and behind it, as under
 * thrashing: 4-page reads, max 32.
 *
 *	0..91: [0,8) [8,24) [24,56) [56,88) [88,120), and at 88 [120,152)
 *	evict 0..151 but for 92..95 being read: at 96 nothing is behind (95
 *	     went too), and 96 lies in [120 - 32, 120 + 32): thrashed, half of
 *	     32 = 16, no mark: [96,112), and the flag stays
 *	112 (miss): context sizing (flag): H = 16 (96..111), A = 0: size 16,
 *	     async 1 + 16/8 = 3: [112,128) mark 125
 *	125 (mark, req 3): context (flag), hole 128, A = 3, H = 29 (96..124):
 *	     size 26, async 1 + 26/8 = 4: [128,154) mark 150
 */
static void test_thrash_safe_thrashed(struct ktest *t)
{
	const struct rah_event ev[] = {
		{ rah_case("thrashed"), 96, 4, 96, 16, 0, 16 },
		{ RA_CASE_CONTEXT, 112, 4, 112, 16, 3, 16 },
		{ RA_CASE_HOLE_SCAN, 125, 3, 128, 26, 4, 26 },
	};

	KT_ASSERT_EQ(t, rah_open(&h, "/ts-thrash", 512 * PAGE_SIZE, THRASH_SAFE, 32), 0);
	for (pgoff_t i = 0; i < 92; i += 4)
		KT_ASSERT_EQ(t, rah_read(&h, i, 4), 4 * PAGE_SIZE);
	KT_EXPECT_EQ(t, h.file.f_ra.ra_index, 120);
	KT_EXPECT_EQ(t, rah_evict(&h, 0, 92), 92);
	KT_EXPECT_EQ(t, rah_evict(&h, 96, 56), 56);
	ra_trace_reset();
	KT_ASSERT_EQ(t, rah_read(&h, 92, 4), 4 * PAGE_SIZE);
	KT_EXPECT_EQ(t, rah_evict(&h, 92, 4), 4);
	for (pgoff_t i = 96; i < 128; i += 4)
		KT_ASSERT_EQ(t, rah_read(&h, i, 4), 4 * PAGE_SIZE);
	rah_expect_events(t, 0, ev, ARRAY_SIZE(ev));
	KT_EXPECT_EQ(t, h.bad_words, 0);
	rah_close(&h);
}

/*
 * Two streams on one open, 4 pages a read: A from 0, B from 128, max 32.
 *
 *	A 0: initial [0,8) mark 4
 *	B 128: nothing behind, not inside A's window: random [128,132)
 *	A 4 (mark): hole 8, A = 4, H = 4 back to page 0, x2 = 8: size
 *	     clamp(4, 8, 32) = 8, async 1 + 4/8 = 1: [8,16) mark 15
 *	B 132: H = 4, A = 0: size 8, async 1: [132,140) mark 139
 *	B 139 (mark, req 1): expected (132 + 8 - 1): [140,156) mark 140
 *	A 15 (mark, req 1): hole 16, A = 1, H = 15 x2 = 30: size 29,
 *	     async 1 + 29/8 = 4: [16,45) mark 41
 *	B 140 (mark): hole 156, A = 16, H = 12 (128..139): not more than A,
 *	     so nothing
 */
static void test_thrash_safe_interleaved(struct ktest *t)
{
	static const struct rah_event ev[] = {
		{ RA_CASE_SEQ_FIRST, 0, 4, 0, 8, 4, 8 },
		{ RA_CASE_RANDOM, 128, 4, 128, 4, 0, 4 },
		{ RA_CASE_HOLE_SCAN, 4, 4, 8, 8, 1, 8 },
		{ RA_CASE_CONTEXT, 132, 4, 132, 8, 1, 8 },
		{ RA_CASE_SEQ_NEXT, 139, 1, 140, 16, 16, 16 },
		{ RA_CASE_HOLE_SCAN, 15, 1, 16, 29, 4, 29 },
		{ RA_CASE_HOLE_SCAN, 140, 4, 140, 0, 0, 0 },
	};

	KT_ASSERT_EQ(t, rah_open(&h, "/ts-inter", 256 * PAGE_SIZE, THRASH_SAFE, 32), 0);
	for (pgoff_t i = 0; i < 16; i += 4) {
		KT_ASSERT_EQ(t, rah_read(&h, i, 4), 4 * PAGE_SIZE);
		KT_ASSERT_EQ(t, rah_read(&h, 128 + i, 4), 4 * PAGE_SIZE);
	}
	rah_expect_events(t, 0, ev, ARRAY_SIZE(ev));
	KT_EXPECT_EQ(t, h.bad_words, 0);
	rah_close(&h);
}

/*
 * Random reads: as is. An oversize read gets the maximum as its size and
 * async, which the piggy-back then doubles ([600,664) mark 632); the same
 * read meets that mark: [664,696).
 */
static void test_thrash_safe_random(struct ktest *t)
{
	static const struct rah_event ev[] = {
		{ RA_CASE_RANDOM, 300, 3, 300, 3, 0, 3 },
		{ RA_CASE_SEQ_FIRST, 600, 40, 600, 64, 32, 64 },
		{ RA_CASE_SEQ_NEXT, 632, 8, 664, 32, 32, 32 },
	};

	KT_ASSERT_EQ(t, rah_open(&h, "/ts-rand", 1024 * PAGE_SIZE, THRASH_SAFE, 32), 0);
	KT_ASSERT_EQ(t, rah_read(&h, 300, 3), 3 * PAGE_SIZE);
	KT_ASSERT_EQ(t, rah_read(&h, 600, 40), 40 * PAGE_SIZE);
	rah_expect_events(t, 0, ev, ARRAY_SIZE(ev));
	rah_close(&h);
}

KTEST_SUITE(ra_thrash_safe, rah_suite_ready, KTEST_CASE(test_thrash_safe_sequential),
	    KTEST_CASE(test_thrash_safe_thrashed), KTEST_CASE(test_thrash_safe_interleaved),
	    KTEST_CASE(test_thrash_safe_random));
