/*
 * Linux 7.2's readahead (mm/readahead-linux.c) through the read(2) and
 * fault paths, worked out by hand from page_cache_sync_ra(),
 * page_cache_async_ra() and page_cache_ra_order() (start, size, async
 * size; prev = the page of the byte after the previous read):
 *
 *	sync: index 0, req > max or index - prev <= 1: start = index,
 *		size = init(req), async = size > req ? size - req : size / 2,
 *		order 0
 *	      else C = cached pages behind index (<= max): C <= req: read the
 *		request as is; else start = index, size = min(C (x2 back to
 *		page 0) + req, max), async = 1, order 0
 *	async (at the marked folio's first page): index == start + size -
 *		async, rounded down to the folio: start += size, size =
 *		max(size, next(size)); else hole = next missing page after
 *		index (within max): start = hole, size = next(hole - index + req);
 *		then order += 2, the end rounded down to 2^min(order, ffs(max)-1),
 *		async = size
 *	folios: min(9, order, ilog2(size)), smaller to reach alignment and
 *		near the end; the one holding start + size - async marked
 *	fault: MADV_RANDOM none; MADV_SEQUENTIAL sync(ra_pages); else
 *		mmap_miss++ (< 1000), > 100: none; read-around start =
 *		pgoff - ra/2, size = ra, async = ra/4. A cached page:
 *		mmap_miss--, async on a mark.
 *
 * Events are {case, offset, req, ra_index, ra_size, la_size, pages submitted}.
 */
#include "tests/common/test_ra_harness.h"

static struct ra_harness h;

#define LINUX ra_algo_find("linux")

/*
 * A plain sequential read, a page at a time, max 32 pages: the windows
 * 4, 8, then 4 (16 asked, 16..28 cut at 16: order 4's boundary), 8, 8, 16,
 * 16, 32, 32, and the folios growing with them.
 *
 *	read 0: [0,4) mark 1, order 0
 *	mark 1: [4,12) order 2 (4 + 8 = 12 on a 4-page boundary), mark 4
 *	mark 4 (folio 4-7): next 16: [12,28) cut to [12,16) (order 4: 16)
 *	mark 12: next(4) = 8: [16,24) (order 4, 24 < 32: no cut), order 3
 *	mark 16: 16 asked: [24,40) cut at 32 (order 5): [24,32)
 *	mark 24: 16: [32,48), order 4;  mark 32: 32: [48,80) cut at 64: [48,64)
 *	mark 48: 32: [64,96);  mark 64: [96,128)
 */
static void test_linux_sequential(struct ktest *t)
{
	static const struct rah_event ev[] = {
		{ RA_CASE_SEQ_FIRST, 0, 1, 0, 4, 3, 4 },
		{ RA_CASE_SEQ_NEXT, 1, 1, 4, 8, 8, 8 },
		{ RA_CASE_SEQ_NEXT, 4, 1, 12, 4, 4, 4 },
		{ RA_CASE_SEQ_NEXT, 12, 1, 16, 8, 8, 8 },
		{ RA_CASE_SEQ_NEXT, 16, 1, 24, 8, 8, 8 },
		{ RA_CASE_SEQ_NEXT, 24, 1, 32, 16, 16, 16 },
		{ RA_CASE_SEQ_NEXT, 32, 1, 48, 16, 16, 16 },
		{ RA_CASE_SEQ_NEXT, 48, 1, 64, 32, 32, 32 },
		{ RA_CASE_SEQ_NEXT, 64, 1, 96, 32, 32, 32 },
	};
	/* Linux's own events for the first three decisions */
	static const struct rah_linux_event lx[] = {
		{ RA_EV_SYNC_RA, 0, 1, 0, 0, 0 },
		{ RA_EV_RA_ORDER, 0, 0, 0, 4, 3 },
		{ RA_EV_ASYNC_RA, 1, 1, 0, 4, 3 },
		{ RA_EV_RA_ORDER, 4, 0, 2, 8, 8 },
		{ RA_EV_ASYNC_RA, 4, 1, 2, 8, 8 },
		{ RA_EV_RA_ORDER, 12, 0, 4, 4, 4 },
	};

	KT_ASSERT_TRUE(t, LINUX != NULL);
	KT_ASSERT_EQ(t, rah_open(&h, "/lx-seq", 128 * PAGE_SIZE, LINUX, 32), 0);
	rah_read_one_by_one(t, &h, 0, 7);
	rah_expect_linux(t, lx, ARRAY_SIZE(lx));
	rah_read_one_by_one(t, &h, 8, 127);
	rah_expect_events(t, 0, ev, ARRAY_SIZE(ev));
	KT_EXPECT_EQ(t, h.bad_words, 0);
	rah_close(&h);
}

/*
 * Two streams through one open file, 4 pages a read, alternating: A from 0,
 * B from 128, max 32. B's history must be longer than its request before it
 * gets a window (2cad40180197), and then its mark is one page from the end.
 *
 *	A 0: init(4) = 8, async 4: [0,8) mark 4
 *	B 128: nothing behind: as is;  A 4: expected: [8,24) order 2, mark 8
 *	B 132: C = 4, not more than req 4: as is
 *	A 8: expected: 32 asked, order 4: [24,56) cut at 48: [24,48), mark on
 *	     folio 24-31 (order 3 to reach 32's alignment)
 *	B 136: C = 8: size min(8 + 4, 32) = 12, async 1: [136,148) mark 147
 *	B 144 (the mark at 147, the request from there 1): expected:
 *	     max(12, next 24) = 24: [148,172) order 2, mark 148
 *	B 148: 32, order 4: [172,204) cut at 192: [172,192)
 *	A 24: mark on folio 24-31, state is B's: page_cache_next_miss(25)
 *	     walks a slot behind (25's slot is 24's) and says 49, not 48
 *	     (test_linux_next_miss_lag): start 49, next(49 - 24 + 4) = 32,
 *	     cut at 64: [49,64), page 48 left out
 *	B 172: the same a slot behind: hole 193: [193,224)
 *	A 48: the page left out: 32 cached behind it: [48,+32) async 1, 17 new
 *	A 49-51 (the mark at 49): state A's, not expected: hole 80: [80,112)
 *	B 192 and 193-195 likewise: [192,+32) 1 new, then [224,256)
 *	A 79 (the mark, 1 page asked) and A 80: no hole within 32: nothing
 *	A 112: 32 cached behind: [112,+32), 16 new (128 on is B's)
 * Linux 7.2 printed this sequence for this workload at read_ahead_kb=128
 * (tests/linux-ref: interleave-small).
 */
static void test_linux_interleaved(struct ktest *t)
{
	static const struct rah_event ev[] = {
		{ RA_CASE_SEQ_FIRST, 0, 4, 0, 8, 4, 8 },
		{ RA_CASE_RANDOM, 128, 4, 128, 4, 0, 4 },
		{ RA_CASE_SEQ_NEXT, 4, 4, 8, 16, 16, 16 },
		{ RA_CASE_RANDOM, 132, 4, 132, 4, 0, 4 },
		{ RA_CASE_SEQ_NEXT, 8, 4, 24, 24, 24, 24 },
		{ RA_CASE_CONTEXT, 136, 4, 136, 12, 1, 12 },
		{ RA_CASE_SEQ_NEXT, 147, 1, 148, 24, 24, 24 },
		{ RA_CASE_SEQ_NEXT, 148, 4, 172, 20, 20, 20 },
		{ RA_CASE_HOLE_SCAN, 24, 4, 49, 15, 15, 15 },
		{ RA_CASE_HOLE_SCAN, 172, 4, 193, 31, 31, 31 },
		{ RA_CASE_CONTEXT, 48, 4, 48, 32, 1, 17 },
		{ RA_CASE_HOLE_SCAN, 49, 3, 80, 32, 32, 32 },
		{ RA_CASE_CONTEXT, 192, 4, 192, 32, 1, 1 },
		{ RA_CASE_HOLE_SCAN, 193, 3, 224, 32, 32, 32 },
		{ RA_CASE_HOLE_SCAN, 79, 1, 79, 0, 0, 0 },
		{ RA_CASE_HOLE_SCAN, 80, 4, 80, 0, 0, 0 },
		{ RA_CASE_CONTEXT, 112, 4, 112, 32, 1, 16 },
	};

	KT_ASSERT_EQ(t, rah_open(&h, "/lx-inter", 256 * PAGE_SIZE, LINUX, 32), 0);
	for (pgoff_t i = 0; i < 128; i += 4) {
		KT_ASSERT_EQ(t, rah_read(&h, i, 4), 4 * PAGE_SIZE);
		KT_ASSERT_EQ(t, rah_read(&h, 128 + i, 4), 4 * PAGE_SIZE);
	}
	rah_expect_events(t, 0, ev, ARRAY_SIZE(ev));
	KT_EXPECT_EQ(t, h.bad_words, 0);
	rah_close(&h);
}

/*
 * Random reads: as is without history, a window from history longer than
 * the request (doubled back to page 0), and the unaligned re-read of the
 * page just read counts as sequential (index - prev 0).
 */
static void test_linux_random(struct ktest *t)
{
	static const struct rah_event ev[] = {
		{ RA_CASE_RANDOM, 500, 2, 500, 2, 0, 2 },
		/* C = 50 (50..99) > 1: min(51, 32) = 32, async 1 */
		{ RA_CASE_CONTEXT, 100, 1, 100, 32, 1, 32 },
		/* C = 2 back to page 0, doubled 4: min(4 + 1, 32) = 5 */
		{ RA_CASE_CONTEXT, 2, 1, 2, 5, 1, 5 },
	};
	char buf[100];
	loff_t pos = 700 * PAGE_SIZE + 100;

	KT_ASSERT_TRUE(t, LINUX != NULL);
	KT_ASSERT_EQ(t, rah_open(&h, "/lx-rand", 1024 * PAGE_SIZE, LINUX, 32), 0);
	KT_ASSERT_EQ(t, rah_read(&h, 500, 2), 2 * PAGE_SIZE);
	KT_ASSERT_EQ(t, rah_populate(&h, 50, 50), 0);
	KT_ASSERT_EQ(t, rah_read(&h, 100, 1), PAGE_SIZE);
	rah_expect_events(t, 0, ev, 2);
	rah_close(&h);

	KT_ASSERT_EQ(t, rah_open(&h, "/lx-rand0", 1024 * PAGE_SIZE, LINUX, 32), 0);
	KT_ASSERT_EQ(t, rah_populate(&h, 0, 2), 0);
	h.file.f_ra.prev_index = 700;
	KT_ASSERT_EQ(t, rah_read(&h, 2, 1), PAGE_SIZE);
	rah_expect_events(t, 0, &ev[2], 1);
	/* 100 bytes inside page 700, then the rest of it: the second is sequential */
	KT_ASSERT_EQ(t, rah_pread(&h, pos, sizeof(buf), buf), (ssize_t)sizeof(buf));
	KT_EXPECT_EQ(t, rah_decision(1)->rcase, RA_CASE_RANDOM);
	KT_EXPECT_EQ(t, rah_evict(&h, 700, 1), 1);
	KT_ASSERT_EQ(t, rah_pread(&h, pos + 100, sizeof(buf), buf), (ssize_t)sizeof(buf));
	KT_EXPECT_EQ(t, rah_decision(2)->rcase, RA_CASE_SEQ_FIRST);
	/*
	 * A read that ends on a page boundary leaves prev_pos on the next page:
	 * a read one page further on is sequential (305 - 304 = 1).
	 */
	KT_ASSERT_EQ(t, rah_read(&h, 300, 4), 4 * PAGE_SIZE);
	KT_EXPECT_EQ(t, rah_decision(3)->rcase, RA_CASE_RANDOM);
	KT_ASSERT_EQ(t, rah_read(&h, 305, 1), PAGE_SIZE);
	KT_EXPECT_EQ(t, rah_decision(4)->rcase, RA_CASE_SEQ_FIRST);
	KT_EXPECT_EQ(t, rah_decision(4)->ra_size, 4);
	rah_close(&h);
}

/*
 * A read larger than the window may use the device's largest request
 * (io_pages), and the window that follows keeps that size rather than
 * shrinking to the next size below the maximum.
 *
 *	read 0-47, ra_pages 32, io_pages 64: max = min(48, 64) = 48:
 *	     init(48, 48) = 48, async 48 / 2 = 24: [0,48) mark 24
 *	the same read meets the mark at 24 (req 24, max 32): expected:
 *	     size max(48, next(48) = 32) = 48: [48,96) mark 48
 */
static void test_linux_large_read(struct ktest *t)
{
	static const struct rah_event ev[] = {
		{ RA_CASE_SEQ_FIRST, 0, 48, 0, 48, 24, 48 },
		{ RA_CASE_SEQ_NEXT, 24, 24, 48, 48, 48, 48 },
	};

	KT_ASSERT_EQ(t, rah_open(&h, "/lx-large", 256 * PAGE_SIZE, LINUX, 32), 0);
	h.bdi.io_pages = 64;
	KT_ASSERT_EQ(t, rah_read(&h, 0, 48), 48 * PAGE_SIZE);
	rah_expect_events(t, 0, ev, ARRAY_SIZE(ev));
	rah_close(&h);
}

/*
 * Thrashing: the window ahead is evicted before the reader gets there. The
 * miss at its first page is sequential to the last read (8 - prev 8): a new
 * initial window, as small as the request makes it.
 */
static void test_linux_thrashed(struct ktest *t)
{
	static const struct rah_event ev[] = {
		{ RA_CASE_SEQ_FIRST, 0, 4, 0, 8, 4, 8 },
		{ RA_CASE_SEQ_NEXT, 4, 4, 8, 16, 16, 16 },
		{ RA_CASE_SEQ_FIRST, 8, 4, 8, 8, 4, 8 },
		{ RA_CASE_SEQ_NEXT, 12, 4, 16, 16, 16, 16 },
	};

	KT_ASSERT_EQ(t, rah_open(&h, "/lx-thrash", 256 * PAGE_SIZE, LINUX, 32), 0);
	KT_ASSERT_EQ(t, rah_read(&h, 0, 4), 4 * PAGE_SIZE);
	KT_ASSERT_EQ(t, rah_read(&h, 4, 4), 4 * PAGE_SIZE);
	KT_EXPECT_EQ(t, rah_evict(&h, 8, 16), 16);
	KT_ASSERT_EQ(t, rah_read(&h, 8, 4), 4 * PAGE_SIZE);
	KT_ASSERT_EQ(t, rah_read(&h, 12, 4), 4 * PAGE_SIZE);
	rah_expect_events(t, 0, ev, ARRAY_SIZE(ev));
	KT_EXPECT_EQ(t, h.file.f_ra.stats.readpage_ios, 0);
	rah_close(&h);
}

/*
 * mmap: with no advice, read-around puts a mark a quarter from the end, and
 * touching it reads ahead as a sequential read would; MADV_RANDOM reads
 * nothing around; misses beyond MMAP_LOTSAMISS stop read-around.
 */
static void test_linux_fault(struct ktest *t)
{
	static const struct rah_event ev[] = {
		{ RA_CASE_AROUND, 0, 1, 0, 32, 8, 32 },
		{ RA_CASE_SEQ_NEXT, 24, 32, 32, 32, 32, 32 },
		{ RA_CASE_SEQ_NEXT, 32, 32, 64, 32, 32, 32 },
	};

	KT_ASSERT_EQ(t, rah_open(&h, "/lx-mmap", 96 * PAGE_SIZE, LINUX, 32), 0);
	for (pgoff_t i = 0; i < 40; i++)
		KT_ASSERT_EQ(t, rah_fault(&h, i, FAULT_ADV_NORMAL), 0);
	rah_expect_events(t, 0, ev, ARRAY_SIZE(ev));
	KT_EXPECT_EQ(t, h.file.f_ra.mmap_miss, 0);
	rah_close(&h);

	KT_ASSERT_EQ(t, rah_open(&h, "/lx-mmap-rand", 96 * PAGE_SIZE, LINUX, 32), 0);
	for (pgoff_t i = 0; i < 8; i++)
		KT_ASSERT_EQ(t, rah_fault(&h, i * 10, FAULT_ADV_RANDOM), 0);
	KT_EXPECT_EQ(t, ra_trace_count(), 0);
	KT_EXPECT_EQ(t, h.nr_io, 8);
	rah_close(&h);

	/* 110 faults 64 pages apart: 100 read-arounds, then none */
	KT_ASSERT_EQ(t, rah_open(&h, "/lx-mmap-miss", 110 * 64 * PAGE_SIZE, LINUX, 32), 0);
	for (pgoff_t i = 0; i < 110; i++)
		KT_ASSERT_EQ(t, rah_fault(&h, i * 64, FAULT_ADV_NORMAL), 0);
	KT_EXPECT_EQ(t, rah_count_case(RA_CASE_AROUND), 100);
	KT_EXPECT_EQ(t, h.file.f_ra.mmap_miss, 110);
	rah_close(&h);
}

/*
 * 7.2's boundaries and scans.
 *
 *	read 2-4: nothing read yet, nothing behind: as is
 *	read 5-7: prev_pos at page 5: new stream init(3) = 8, async 5: [5,13) mark 8
 *	read 8-10: the mark: start 13, max(8, next 16) = 16, order 2, the end
 *	     cut to a 4-page boundary: [13,28) mark 13
 *	with 42..49 cached and max 8, a 7-page read at 50: prev_miss scans 49
 *	     down to 42, all cached, and answers 41 (xas_index - 1): C = 8,
 *	     more than the request: a context window min(8 + 7, 8) = 8
 */
static void test_linux_boundaries(struct ktest *t)
{
	static const struct rah_event ev[] = {
		{ RA_CASE_RANDOM, 2, 3, 2, 3, 0, 3 },
		{ RA_CASE_SEQ_FIRST, 5, 3, 5, 8, 5, 8 },
		{ RA_CASE_SEQ_NEXT, 8, 3, 13, 15, 15, 15 },
	};

	KT_ASSERT_EQ(t, rah_open(&h, "/lx-bound", 256 * PAGE_SIZE, LINUX, 32), 0);
	KT_ASSERT_EQ(t, rah_read(&h, 2, 3), 3 * PAGE_SIZE);
	KT_ASSERT_EQ(t, rah_read(&h, 5, 3), 3 * PAGE_SIZE);
	KT_ASSERT_EQ(t, rah_read(&h, 8, 3), 3 * PAGE_SIZE);
	rah_expect_events(t, 0, ev, ARRAY_SIZE(ev));
	KT_EXPECT_TRUE(t, rah_marked(&h, 13));
	rah_close(&h);

	KT_ASSERT_EQ(t, rah_open(&h, "/lx-prevmiss", 256 * PAGE_SIZE, LINUX, 8), 0);
	KT_ASSERT_EQ(t, rah_populate(&h, 42, 8), 0);
	KT_ASSERT_EQ(t, rah_read(&h, 50, 7), 7 * PAGE_SIZE);
	KT_EXPECT_EQ(t, rah_decision(0)->rcase, RA_CASE_CONTEXT);
	KT_EXPECT_EQ(t, rah_decision(0)->ra_size, 8);
	rah_close(&h);
}

/*
 * MADV_SEQUENTIAL away from page 0: a fault does not move prev_pos, so the
 * next miss is no sequential miss, and the pages behind it (the 32 scanned,
 * all cached) are not more than the ra_pages asked for:
 * each miss reads ra_pages as is, and never a mark.
 */
static void test_linux_fault_sequential(struct ktest *t)
{
	static const struct rah_event ev[] = {
		{ RA_CASE_RANDOM, 100, 32, 100, 32, 0, 32 },
		{ RA_CASE_RANDOM, 132, 32, 132, 32, 0, 32 },
	};

	KT_ASSERT_EQ(t, rah_open(&h, "/lx-mmap-seq", 256 * PAGE_SIZE, LINUX, 32), 0);
	for (pgoff_t i = 100; i < 164; i++)
		KT_ASSERT_EQ(t, rah_fault(&h, i, FAULT_ADV_SEQUENTIAL), 0);
	rah_expect_events(t, 0, ev, ARRAY_SIZE(ev));
	KT_EXPECT_EQ(t, h.file.f_ra.prev_index, -1UL);
	rah_close(&h);
}

/*
 * page_cache_next_miss() as the xarray walks it (Linux 7.2 answered this
 * in tests/replay/db-oltp.log): a walk that starts inside a folio runs
 * behind its index. Read 0, 1: [0,4), then [4,12) in order-2 folios,
 * marked at 4; 12..19 cached a page each; a stream at 200-201 takes the
 * window. The reader reaches the mark at 4 off the expected index:
 * next_miss(5) loads 5's folio, whose slot is 4's, and walks a slot behind
 * to 20's, absent, with its index at 21: the window starts at 21, not 20.
 */
static void test_linux_next_miss_lag(struct ktest *t)
{
	const struct ra_trace_event *e = NULL;
	unsigned int n = 0;

	KT_ASSERT_EQ(t, rah_open(&h, "/lx-lag", 256 * PAGE_SIZE, LINUX, 32), 0);
	KT_ASSERT_EQ(t, rah_read(&h, 0, 1), PAGE_SIZE);
	KT_ASSERT_EQ(t, rah_read(&h, 1, 1), PAGE_SIZE);
	KT_ASSERT_EQ(t, rah_populate(&h, 12, 8), 0);
	KT_ASSERT_EQ(t, rah_read(&h, 200, 1), PAGE_SIZE);
	KT_ASSERT_EQ(t, rah_read(&h, 201, 1), PAGE_SIZE);
	KT_EXPECT_TRUE(t, rah_marked(&h, 4));
	while (rah_decision(n))
		n++;
	KT_ASSERT_EQ(t, rah_read(&h, 4, 1), PAGE_SIZE);
	e = rah_decision(n);
	KT_ASSERT_TRUE(t, e != NULL);
	KT_EXPECT_EQ(t, e->offset, 4);
	KT_EXPECT_EQ(t, e->ra_index, 21);
	KT_EXPECT_EQ(t, rah_page_flags(&h, 20), -1);
	rah_close(&h);
}

KTEST_SUITE(ra_linux, rah_suite_ready, KTEST_CASE(test_linux_sequential),
	    KTEST_CASE(test_linux_interleaved), KTEST_CASE(test_linux_random),
	    KTEST_CASE(test_linux_thrashed), KTEST_CASE(test_linux_large_read),
	    KTEST_CASE(test_linux_boundaries), KTEST_CASE(test_linux_fault),
	    KTEST_CASE(test_linux_fault_sequential), KTEST_CASE(test_linux_next_miss_lag));
