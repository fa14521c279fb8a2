/*
 * The legacy 2.6.20 algorithm (the lines patch 010 removes) through the
 * read(2) path, with sequences worked out by hand:
 *
 *	page_cache_readahead(offset, req), called for every request at
 *	next_index: sequential = offset == prev_index + 1; prev_index =
 *	offset + min(req, max) - 1.
 *	  first (sequential, size 0): size = init(req), start = offset, read
 *		it blocking; if req >= max also the ahead window, forced
 *	  random (not sequential): ra_off, read min(req, max) as is
 *	  no ahead window yet: make one; crossed into it (prev_index >=
 *		ahead_start): it becomes current, make the next one
 *	make_ahead_window: ahead_size = next(size), ahead_start = start +
 *		size, blocking when prev_index >= ahead_start
 *	next(cur): after a miss max(cur - 2, 4), else cur < max/16 ? 4cur :
 *		2cur, capped at max
 *	every submission finding everything cached adds its size to
 *		cache_hit; at 256 readahead is off for the file (RA_FLAG_INCACHE)
 *		until handle_ra_miss()
 *
 * Events are {case, offset, req_size, start, size, 0, pages submitted};
 * I/O {op, first index, pages}.
 */
#include "tests/common/test_ra_harness.h"

static struct ra_harness h;

/* Cold 1-page sequential reads at max 32: the same I/O as on-demand, a call per page. */
static void test_legacy_seq1(struct ktest *t)
{
	/*
	 * 0: first, init(1) = 4: [0,4).  1: no ahead window: next(4) = 8 (4 is
	 *    not < 32/16), ahead [4,12), not blocking (prev 1 < 4).  2, 3: in
	 *    window.  4: crossed: current [4,12), ahead next(8) = 16 at 12.
	 * 12: [28,60).  28: [60,92).  60: [92,124).  92: [124,156): 4 pages.
	 * 124: [156,188): nothing left, cache_hit 32.
	 */
	const struct rah_event first[] = {
		{ rah_case("legacy-first"), 0, 1, 0, 4, 0, 4 },
		{ rah_case("legacy-ahead"), 1, 1, 0, 4, 0, 8 },
		{ rah_case("legacy-window"), 2, 1, 0, 4, 0, 0 },
		{ rah_case("legacy-window"), 3, 1, 0, 4, 0, 0 },
		{ rah_case("legacy-ahead"), 4, 1, 4, 8, 0, 16 },
		{ rah_case("legacy-window"), 5, 1, 4, 8, 0, 0 },
	};
	static const struct rah_io io[] = {
		RP(0, 4), RP(4, 8), RP(12, 16), RP(28, 32), RP(60, 32), RP(92, 32), RP(124, 4),
	};
	const struct ra_trace_event *e;
	struct ra_stats st;

	KT_ASSERT_EQ(t, rah_open(&h, "/legacy-seq1", 128 * PAGE_SIZE, &ra_algo_legacy, 32), 0);
	rah_read_one_by_one(t, &h, 0, 5);
	rah_expect_events(t, 0, first, ARRAY_SIZE(first));
	KT_EXPECT_TRUE(t, !ra_trace_get(0)->async);	/* the reader waits for [0,4) */
	KT_EXPECT_TRUE(t, ra_trace_get(1)->async);	/* but not for the ahead window */
	rah_read_one_by_one(t, &h, 6, 127);
	KT_EXPECT_EQ(t, ra_trace_count(), 128);
	KT_EXPECT_EQ(t, rah_count_case(rah_case("legacy-first")), 1);
	KT_EXPECT_EQ(t, rah_count_case(rah_case("legacy-ahead")), 7);	/* 1 4 12 28 60 92 124 */
	KT_EXPECT_EQ(t, rah_count_case(rah_case("legacy-window")), 120);
	e = ra_trace_get(124);
	KT_ASSERT_TRUE(t, e != NULL);
	KT_EXPECT_EQ(t, e->ahead_start, 156);
	KT_EXPECT_EQ(t, e->ahead_size, 32);
	rah_expect_io(t, &h, io, ARRAY_SIZE(io));
	ra_file_stats(&h.file.f_ra, &st);
	KT_EXPECT_EQ(t, ra_stats_calls(&st), 128);
	KT_EXPECT_EQ(t, st.sync_ios, 1);
	KT_EXPECT_EQ(t, st.async_ios, 6);
	KT_EXPECT_EQ(t, st.hit_pages, 128);
	KT_EXPECT_EQ(t, h.bad_words, 0);
	rah_close(&h);
}

/* A read larger than the maximum gets two windows in flight at once. */
static void test_legacy_oversize(struct ktest *t)
{
	/*
	 * read 0-63: call(0, 64): first, newsize 32, prev 31, init(32) = 32:
	 *    [0,32), and req 64 >= 32: forced ahead [32,64). Returns 32.
	 *    call(32, 32): prev 63 >= ahead_start 32: current [32,64), ahead
	 *    [64,96) (prev 63 < 64: not blocking). Returns 64.
	 * read 64-127: call(64, 64): prev 95 >= 64: current [64,96), ahead
	 *    [96,128); call(96, 32): prev 127: current [96,128), ahead [128,160)
	 */
	const struct rah_event ev[] = {
		{ rah_case("legacy-first"), 0, 64, 0, 32, 0, 64 },
		{ rah_case("legacy-ahead"), 32, 32, 32, 32, 0, 32 },
		{ rah_case("legacy-ahead"), 64, 64, 64, 32, 0, 32 },
		{ rah_case("legacy-ahead"), 96, 32, 96, 32, 0, 32 },
	};
	static const struct rah_io io[] = {
		RP(0, 32), RP(32, 32), RP(64, 32), RP(96, 32), RP(128, 32),
	};
	struct ra_stats st;

	KT_ASSERT_EQ(t, rah_open(&h, "/legacy-big", 256 * PAGE_SIZE, &ra_algo_legacy, 32), 0);
	KT_ASSERT_EQ(t, rah_read(&h, 0, 64), 64 * PAGE_SIZE);
	KT_ASSERT_EQ(t, rah_read(&h, 64, 64), 64 * PAGE_SIZE);
	rah_expect_events(t, 0, ev, ARRAY_SIZE(ev));
	rah_expect_io(t, &h, io, ARRAY_SIZE(io));
	ra_file_stats(&h.file.f_ra, &st);
	KT_EXPECT_EQ(t, st.sync_ios, 2);	/* the first window and the forced ahead one */
	KT_EXPECT_EQ(t, st.async_ios, 3);
	KT_EXPECT_EQ(t, h.bad_words, 0);
	rah_close(&h);
}

/*
 * A cache-hot file: legacy looks up every window it would read until 256
 * pages were found cached, then stays off, but is still called per read.
 */
static void test_legacy_cache_hot(struct ktest *t)
{
	/*
	 * 0: first [0,4): cached, cache_hit 4.  1: ahead [4,12): 12.
	 * 4: [12,28): 28.  12: [28,60): 60.  28: [60,92): 92.  60: 124.
	 * 92: 156.  124: 188.  156: 220.  188: 252.  220: ahead [252,284):
	 *    284 >= 256: ra_off (start 0, size 0, ahead window folded into
	 *    ahead_size 252 + 32 = 284) and RA_FLAG_INCACHE.
	 * 221..511: return at once. 11 submissions, 284 pages looked up.
	 */
	static const struct {
		pgoff_t at, start;
		unsigned long size, ahead_start, ahead_size;
	} work[] = {
		{ 1, 0, 4, 4, 8 }, { 4, 4, 8, 12, 16 }, { 12, 12, 16, 28, 32 },
		{ 28, 28, 32, 60, 32 }, { 188, 188, 32, 220, 32 }, { 220, 0, 0, 0, 284 },
	};
	unsigned long actual = 0;

	KT_ASSERT_EQ(t, rah_open(&h, "/legacy-hot", 512 * PAGE_SIZE, &ra_algo_legacy, 32), 0);
	KT_ASSERT_EQ(t, rah_populate(&h, 0, 512), 0);
	rah_read_one_by_one(t, &h, 0, 511);
	KT_EXPECT_EQ(t, h.nr_io, 0);
	KT_EXPECT_EQ(t, ra_trace_count(), 512);
	KT_EXPECT_EQ(t, rah_count_case(rah_case("legacy-first")), 1);
	KT_EXPECT_EQ(t, rah_count_case(rah_case("legacy-ahead")), 10);
	KT_EXPECT_EQ(t, rah_count_case(rah_case("legacy-window")), 210);
	KT_EXPECT_EQ(t, rah_count_case(rah_case("legacy-incache")), 291);
	KT_EXPECT_EQ(t, ra_trace_get(220)->rcase, rah_case("legacy-ahead"));
	KT_EXPECT_EQ(t, ra_trace_get(221)->rcase, rah_case("legacy-incache"));
	for (unsigned int i = 0; i < ARRAY_SIZE(work); i++) {
		const struct ra_trace_event *e = ra_trace_get((unsigned int)work[i].at);

		KT_ASSERT_TRUE(t, e != NULL);
		KT_EXPECT_EQ(t, e->offset, work[i].at);
		KT_EXPECT_EQ(t, e->rcase, rah_case("legacy-ahead"));
		KT_EXPECT_EQ(t, e->ra_index, work[i].start);
		KT_EXPECT_EQ(t, e->ra_size, work[i].size);
		KT_EXPECT_EQ(t, e->ahead_start, work[i].ahead_start);
		KT_EXPECT_EQ(t, e->ahead_size, work[i].ahead_size);
	}
	for (unsigned int i = 0; i < ra_trace_count(); i++)
		actual += ra_trace_get(i)->actual;
	KT_EXPECT_EQ(t, actual, 0);

	/*
	 * A miss turns it back on: 300 evicted, call(300) returns (INCACHE),
	 * the miss clears the flag and cache_hit, page 300 is read alone;
	 * call(301): sequential with size 0: first [301,305), all cached: 4.
	 */
	KT_EXPECT_EQ(t, rah_evict(&h, 300, 1), 1);
	KT_ASSERT_EQ(t, rah_read(&h, 300, 1), PAGE_SIZE);
	KT_ASSERT_EQ(t, rah_read(&h, 301, 1), PAGE_SIZE);
	KT_EXPECT_EQ(t, ra_trace_get(512)->rcase, rah_case("legacy-incache"));
	KT_EXPECT_EQ(t, ra_trace_get(513)->rcase, rah_case("legacy-miss"));
	KT_EXPECT_EQ(t, ra_trace_get(514)->rcase, rah_case("legacy-first"));
	KT_EXPECT_EQ(t, ra_trace_get(514)->ra_index, 301);
	KT_EXPECT_EQ(t, h.nr_io, 1);
	KT_EXPECT_EQ(t, h.io[0].op, RAH_READPAGE);
	KT_EXPECT_EQ(t, h.bad_words, 0);
	rah_close(&h);
}

/* Two interleaved streams: legacy sees a seek at every switch. */
static void test_legacy_interleaved(struct ktest *t)
{
	/*
	 * Burst 0: A0 first [0,4); A1 ahead [4,12); B1000 random 1 page (ra_off);
	 *    B1001 first [1001,1005).
	 * Burst k >= 1: A(2k) random (cached, ra_off); A(2k+1) first
	 *    [2k+1, 2k+5), of which only what lies past A's pages is new;
	 *    B likewise. A's windows read nothing new until [9,13) brings 12,
	 *    then 2 pages a burst; B brings 2 pages a burst from the start.
	 * 40 calls (20 first, 19 random, 1 ahead), 19 I/Os, 46 pages.
	 */
	const struct rah_event ev[] = {
		{ rah_case("legacy-first"), 0, 1, 0, 4, 0, 4 },
		{ rah_case("legacy-ahead"), 1, 1, 0, 4, 0, 8 },
		{ rah_case("legacy-random"), 1000, 1, 0, 0, 0, 1 },
		{ rah_case("legacy-first"), 1001, 1, 1001, 4, 0, 4 },
		{ rah_case("legacy-random"), 2, 1, 0, 0, 0, 0 },
		{ rah_case("legacy-first"), 3, 1, 3, 4, 0, 0 },
		{ rah_case("legacy-random"), 1002, 1, 0, 0, 0, 0 },
		{ rah_case("legacy-first"), 1003, 1, 1003, 4, 0, 2 },
	};
	static const struct rah_io io[] = {
		RP(0, 4), RP(4, 8), RP(1000, 1), RP(1001, 4),
		RP(1005, 2), RP(1007, 2), RP(1009, 2),
		RP(12, 1), RP(1011, 2), RP(13, 2), RP(1013, 2), RP(15, 2), RP(1015, 2),
		RP(17, 2), RP(1017, 2), RP(19, 2), RP(1019, 2), RP(21, 2), RP(1021, 2),
	};
	unsigned long pages = 0;

	KT_ASSERT_EQ(t, rah_open(&h, "/legacy-il", 2048 * PAGE_SIZE, &ra_algo_legacy, 32), 0);
	for (int k = 0; k < 10; k++) {
		KT_ASSERT_EQ(t, rah_read(&h, (pgoff_t)(2 * k), 1), PAGE_SIZE);
		KT_ASSERT_EQ(t, rah_read(&h, (pgoff_t)(2 * k + 1), 1), PAGE_SIZE);
		KT_ASSERT_EQ(t, rah_read(&h, (pgoff_t)(1000 + 2 * k), 1), PAGE_SIZE);
		KT_ASSERT_EQ(t, rah_read(&h, (pgoff_t)(1000 + 2 * k + 1), 1), PAGE_SIZE);
		if (k == 1) {
			KT_EXPECT_EQ(t, ra_trace_count(), 8);
			for (unsigned int i = 0; i < ARRAY_SIZE(ev); i++) {
				const struct ra_trace_event *e = ra_trace_get(i);

				KT_EXPECT_EQ(t, e->rcase, ev[i].rcase);
				KT_EXPECT_EQ(t, e->offset, ev[i].offset);
				KT_EXPECT_EQ(t, e->ra_index, ev[i].ra_index);
				KT_EXPECT_EQ(t, e->ra_size, ev[i].ra_size);
				KT_EXPECT_EQ(t, e->actual, ev[i].actual);
			}
		}
	}
	KT_EXPECT_EQ(t, ra_trace_count(), 40);
	KT_EXPECT_EQ(t, rah_count_case(rah_case("legacy-first")), 20);
	KT_EXPECT_EQ(t, rah_count_case(rah_case("legacy-random")), 19);
	KT_EXPECT_EQ(t, rah_count_case(rah_case("legacy-ahead")), 1);
	rah_expect_io(t, &h, io, ARRAY_SIZE(io));
	for (unsigned int i = 0; i < h.nr_io; i++)
		pages += h.io[i].nr;
	KT_EXPECT_EQ(t, pages, 46);
	KT_EXPECT_EQ(t, h.bad_words, 0);
	rah_close(&h);
}

/* Pages evicted before use are read back one at a time, windows shrink. */
static void test_legacy_thrash(struct ktest *t)
{
	/*
	 * 0..40 as in the sequential case: current [28,60), ahead [60,92).
	 * evict 41..91.  41..59: in the current window: no readahead; the miss
	 *    sets RA_FLAG_MISS; the page is read alone with ->readpage.
	 * 60: crossed: current [60,92), ahead next(32) after a miss = 32 - 2 =
	 *    30: [92,122), then 60 itself misses and is read alone, and so do
	 *    61..91.  92: crossed: ahead 30 - 2 = 28: [122,150).
	 */
	struct rah_io io[60];
	unsigned int n = 0;
	unsigned long windows;
	struct ra_stats st;

	for (pgoff_t i = 41; i <= 59; i++)
		io[n++] = (struct rah_io)R1(i);
	io[n++] = (struct rah_io)RP(92, 30);
	for (pgoff_t i = 60; i <= 91; i++)
		io[n++] = (struct rah_io)R1(i);
	io[n++] = (struct rah_io)RP(122, 28);

	KT_ASSERT_EQ(t, rah_open(&h, "/legacy-thrash", 256 * PAGE_SIZE, &ra_algo_legacy, 32), 0);
	rah_read_one_by_one(t, &h, 0, 40);
	ra_file_stats(&h.file.f_ra, &st);
	windows = st.windows;
	KT_EXPECT_EQ(t, st.thrashed_windows, 0);
	KT_EXPECT_EQ(t, rah_evict(&h, 41, 51), 51);
	rah_clear_log(&h);
	rah_read_one_by_one(t, &h, 41, 100);
	rah_expect_io(t, &h, io, n);
	/* 41 calls before; then 19 (window, miss) pairs, ahead + miss at 60,
	 * 31 pairs, ahead at 92 and 8 window calls */
	KT_EXPECT_EQ(t, ra_trace_count(), 41 + 38 + 2 + 62 + 1 + 8);
	KT_EXPECT_EQ(t, rah_count_case(rah_case("legacy-miss")), 51);
	ra_file_stats(&h.file.f_ra, &st);
	KT_EXPECT_EQ(t, st.thrashed_pages, 51);
	/* the two windows that lost pages, each once; two new ones after */
	KT_EXPECT_EQ(t, st.thrashed_windows, 2);
	KT_EXPECT_EQ(t, st.windows, windows + 2);
	/* "They have to be fault in by do_generic_mapping_read() one by one." */
	KT_EXPECT_EQ(t, st.readpage_ios, 51);
	KT_EXPECT_EQ(t, h.bad_words, 0);
	rah_close(&h);
}

/*
 * A congested queue: 2.6.20 puts off every ahead window the reader is not
 * yet in (blockable_page_cache_readahead() without block), and reads it
 * when the reader gets there and must wait: no window is ever read ahead.
 */
static void test_legacy_congested(struct ktest *t)
{
	struct ra_stats st;

	KT_ASSERT_EQ(t, rah_open(&h, "/legacy-congested", 256 * PAGE_SIZE, &ra_algo_legacy, 32), 0);
	h.congested = true;
	rah_read_one_by_one(t, &h, 0, 100);
	ra_file_stats(&h.file.f_ra, &st);
	KT_EXPECT_EQ(t, st.async_ios, 0);
	KT_EXPECT_GE(t, st.sync_ios, 4);
	/* pages 0..100: every read after the first puts the ahead window off */
	KT_EXPECT_EQ(t, st.deferred, 100);
	KT_EXPECT_EQ(t, rah_count_case(rah_case("legacy-ahead")), 100);
	KT_EXPECT_EQ(t, st.readpage_ios, 0);
	KT_EXPECT_EQ(t, h.pages_read, st.pages);
	KT_EXPECT_EQ(t, h.bad_words, 0);
	h.congested = false;
	rah_close(&h);
}

KTEST_SUITE(ra_legacy, rah_suite_ready,
	    KTEST_CASE(test_legacy_seq1), KTEST_CASE(test_legacy_oversize),
	    KTEST_CASE(test_legacy_cache_hot), KTEST_CASE(test_legacy_interleaved),
	    KTEST_CASE(test_legacy_thrash), KTEST_CASE(test_legacy_congested));
