/*
 * Context readahead (mm/readahead-context.c, 2.6.31) through the read(2)
 * path: window sequences worked out by hand from 2.6.31's rules, in their
 * order (start = ra_index, size, async = size - mark offset):
 *
 *	offset 0					initial
 *	offset == start + size - async or start + size	start += size, size = next, async = size
 *	a mark hit without that state			hole = next hole after offset
 *		(within max): start = hole, size = next(hole - offset + req), async = size
 *	req > max, or offset - prev_index <= 1		initial
 *	H = cached pages behind offset (<= max) > 0	start = offset,
 *		size = init(H (x2 if back to page 0) + req), async = size
 *	else						read the request as is
 *	initial: start = offset, size = init(req), async = size > req ? size - req : size
 *	readit: offset == start && size == async: async = next(size), size += async
 *
 * Events are {case, offset, req, ra_index, ra_size, la_size, pages submitted}.
 */
#include "tests/common/test_ra_harness.h"

static struct ra_harness h;

/* Found by name, as ra=context finds it: the test needs nothing but the registry. */
#define CONTEXT ra_algo_find("context")

/* A plain sequential read is on-demand's: the same windows. */
static void test_context_sequential(struct ktest *t)
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

	KT_ASSERT_TRUE(t, CONTEXT != NULL);
	KT_ASSERT_EQ(t, rah_open(&h, "/ctx-seq", 128 * PAGE_SIZE, CONTEXT, 32), 0);
	rah_read_one_by_one(t, &h, 0, 127);
	rah_expect_events(t, 0, ev, ARRAY_SIZE(ev));
	KT_EXPECT_EQ(t, h.bad_words, 0);
	rah_close(&h);
}

/*
 * Two streams through one open file, 4 pages a read, alternating: A from
 * 0, B from 128 (the seeds' interleaved reads, and what context readahead
 * was made for). B's second read finds its first one cached behind it and
 * starts a window from that history; A, whose state B overwrote, finds its
 * marks and scans for the next hole.
 *
 *	A 0: initial init(4) = 8, async 4: [0,8) mark 4
 *	B 128: nothing cached behind: as is [128,132)
 *	A 4: expected (0 + 8 - 4): [8,24) mark 8
 *	B 132: H = 4 (128..131): init(4 + 4) = 16, async 16; offset == start
 *	       and size == async: async = next(16) = 32, size 48: [132,180) mark 148
 *	A 8: mark, state is B's: next hole after 9 is 24: size next(16 + 4)
 *	       = 32 capped: [24,56) mark 24
 *	B 148: mark, state is A's: hole 180: next(32 + 4) capped 32: [180,212)
 *	A 24: mark: hole 56: [56,88);  B 180: hole 212: [212,244)
 *	A 56: hole 88: [88,120);  B 212: hole 244: [244,256) 12 pages
 *	A 88: hole 120: [120,128) only 8 (128.. are B's);  B 244: hole 256 is
 *	       past the end: [256,288) submits nothing
 *	A 120: the next 32 pages (121..152) are all cached: no hole within the
 *	       maximum, no window
 */
static void test_context_interleaved(struct ktest *t)
{
	static const struct rah_event ev[] = {
		{ RA_CASE_SEQ_FIRST, 0, 4, 0, 8, 4, 8 },
		{ RA_CASE_RANDOM, 128, 4, 128, 4, 0, 4 },
		{ RA_CASE_SEQ_NEXT, 4, 4, 8, 16, 16, 16 },
		{ RA_CASE_CONTEXT, 132, 4, 132, 48, 32, 48 },
		{ RA_CASE_HOLE_SCAN, 8, 4, 24, 32, 32, 32 },
		{ RA_CASE_HOLE_SCAN, 148, 4, 180, 32, 32, 32 },
		{ RA_CASE_HOLE_SCAN, 24, 4, 56, 32, 32, 32 },
		{ RA_CASE_HOLE_SCAN, 180, 4, 212, 32, 32, 32 },
		{ RA_CASE_HOLE_SCAN, 56, 4, 88, 32, 32, 32 },
		{ RA_CASE_HOLE_SCAN, 212, 4, 244, 32, 32, 12 },
		{ RA_CASE_HOLE_SCAN, 88, 4, 120, 32, 32, 8 },
		{ RA_CASE_HOLE_SCAN, 244, 4, 256, 32, 32, 0 },
		{ RA_CASE_HOLE_SCAN, 120, 4, 120, 0, 0, 0 },
	};

	KT_ASSERT_EQ(t, rah_open(&h, "/ctx-inter", 256 * PAGE_SIZE, CONTEXT, 32), 0);
	for (pgoff_t i = 0; i < 128; i += 4) {
		KT_ASSERT_EQ(t, rah_read(&h, i, 4), 4 * PAGE_SIZE);
		KT_ASSERT_EQ(t, rah_read(&h, 128 + i, 4), 4 * PAGE_SIZE);
	}
	rah_expect_events(t, 0, ev, ARRAY_SIZE(ev));
	KT_EXPECT_EQ(t, h.bad_words, 0);
	/* every page came through a window or the one as-is read: none alone */
	KT_EXPECT_EQ(t, h.file.f_ra.stats.readpage_ios, 0);
	rah_close(&h);
}

/*
 * Random reads: nothing cached behind is a random read, read as is; a
 * cached run behind is history, doubled when it reaches page 0. 2.6.31's
 * piggy-back does not clamp to the maximum: 32 + 32 pages.
 */
static void test_context_random(struct ktest *t)
{
	static const struct rah_event ev[] = {
		{ RA_CASE_RANDOM, 500, 2, 500, 2, 0, 2 },
		/* H = 50 (50..99): init(51) = 32; piggy-back: async 32, size 64 */
		{ RA_CASE_CONTEXT, 100, 1, 100, 64, 32, 64 },
		/* H = 2 back to page 0, doubled: init(4 + 1) = 16, piggy-back 16 + 32 */
		{ RA_CASE_CONTEXT, 2, 1, 2, 48, 32, 48 },
	};

	KT_ASSERT_EQ(t, rah_open(&h, "/ctx-rand", 1024 * PAGE_SIZE, CONTEXT, 32), 0);
	KT_ASSERT_EQ(t, rah_read(&h, 500, 2), 2 * PAGE_SIZE);
	KT_ASSERT_EQ(t, rah_populate(&h, 50, 50), 0);
	KT_ASSERT_EQ(t, rah_read(&h, 100, 1), PAGE_SIZE);
	rah_expect_events(t, 0, ev, 2);
	rah_close(&h);

	KT_ASSERT_EQ(t, rah_open(&h, "/ctx-rand0", 1024 * PAGE_SIZE, CONTEXT, 32), 0);
	/* the file's first 2 pages cached, the reader elsewhere */
	KT_ASSERT_EQ(t, rah_populate(&h, 0, 2), 0);
	h.file.f_ra.prev_index = 700;
	KT_ASSERT_EQ(t, rah_read(&h, 2, 1), PAGE_SIZE);
	rah_expect_events(t, 0, &ev[2], 1);
	rah_close(&h);
}

/*
 * Thrashing: the window ahead of the reader is evicted before it gets
 * there. The miss at its first page is still the expected offset, so the
 * window moves on past the hole; the next page, not sequential to the last
 * request, is served from the history behind it.
 *
 *	0: [0,8) mark 4;  4: [8,24) mark 8;  evict 8..23
 *	8 (miss): 8 == 8 + 16 - 16: start 24, next(16) = 32: [24,56); page 8
 *	     is then read alone
 *	9 (miss): 9 - prev 7 > 1; H = 9 (0..8, to page 0) x2 = 18: init(18 + 3)
 *	     = 32, piggy-back 64: [9,73): 15 pages below 24 and 17 from 56 on
 */
static void test_context_thrashed(struct ktest *t)
{
	static const struct rah_event ev[] = {
		{ RA_CASE_SEQ_FIRST, 0, 4, 0, 8, 4, 8 },
		{ RA_CASE_SEQ_NEXT, 4, 4, 8, 16, 16, 16 },
		{ RA_CASE_SEQ_NEXT, 8, 4, 24, 32, 32, 32 },
		{ RA_CASE_CONTEXT, 9, 3, 9, 64, 32, 32 },
	};

	KT_ASSERT_EQ(t, rah_open(&h, "/ctx-thrash", 256 * PAGE_SIZE, CONTEXT, 32), 0);
	KT_ASSERT_EQ(t, rah_read(&h, 0, 4), 4 * PAGE_SIZE);
	KT_ASSERT_EQ(t, rah_read(&h, 4, 4), 4 * PAGE_SIZE);
	KT_EXPECT_EQ(t, rah_evict(&h, 8, 16), 16);
	KT_ASSERT_EQ(t, rah_read(&h, 8, 4), 4 * PAGE_SIZE);
	rah_expect_events(t, 0, ev, ARRAY_SIZE(ev));
	KT_EXPECT_EQ(t, h.file.f_ra.stats.readpage_ios, 1);
	KT_EXPECT_EQ(t, h.bad_words, 0);
	rah_close(&h);
}

/* MADV_SEQUENTIAL faults use the algorithm's own windows (the 2.6 fault path). */
static void test_context_fault(struct ktest *t)
{
	static const struct rah_event ev[] = {
		{ RA_CASE_SEQ_FIRST, 0, 1, 0, 4, 3, 4 },
		{ RA_CASE_SEQ_NEXT, 1, 1, 4, 8, 8, 8 },
		{ RA_CASE_SEQ_NEXT, 4, 1, 12, 16, 16, 16 },
		{ RA_CASE_SEQ_NEXT, 12, 1, 28, 32, 32, 32 },
		{ RA_CASE_SEQ_NEXT, 28, 1, 60, 32, 32, 0 },	/* past the end */
	};

	KT_ASSERT_EQ(t, rah_open(&h, "/ctx-mmap", 60 * PAGE_SIZE, CONTEXT, 32), 0);
	for (pgoff_t i = 0; i < 60; i++)
		KT_ASSERT_EQ(t, rah_fault(&h, i, FAULT_ADV_SEQUENTIAL), 0);
	rah_expect_events(t, 0, ev, ARRAY_SIZE(ev));
	rah_close(&h);
}

KTEST_SUITE(ra_context, rah_suite_ready, KTEST_CASE(test_context_sequential),
	    KTEST_CASE(test_context_interleaved), KTEST_CASE(test_context_random),
	    KTEST_CASE(test_context_thrashed), KTEST_CASE(test_context_fault));
