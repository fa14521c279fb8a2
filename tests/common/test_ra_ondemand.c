/*
 * On-demand readahead (patches 002-007) through the read(2) path: exact
 * window sequences worked out by hand from the formulas of patch 006.
 *
 *	get_init_ra_size(size, max): r = roundup_pow_of_two(size);
 *		r <= max/32 ? 4r : r <= max/4 ? 2r : max
 *	get_next_ra_size(ra, max): cur = readahead_index - ra_index;
 *		min(cur < max/16 ? 4cur : 2cur, max)
 *	sequential = offset - prev_index <= 1 || req_size > max
 *	case 1 (sequential-next): offset != 0 && offset is lookahead_index or
 *		readahead_index: ra_index = readahead_index, size = next, la = size
 *	case 2 (random): !page && !sequential: read [offset, offset + req) as is
 *	case 3 (sequential-first): ra_index = offset, size = init(req, max),
 *		la = size > req ? size - req : size
 *	case 4 (clueless): case 3 with a page: ra_index + 1, min(4 size, max)
 *	the mark goes on page ra_index + size - la, if that page is new
 *
 * Events are written {case, offset, req_size, ra_index, ra_size, la_size,
 * pages submitted}; I/O as {op, first index, pages}.
 */
#include "tests/common/test_ra_harness.h"

static struct ra_harness h;

/* 1-page sequential reads from 0, max 32 pages (128 KiB), a 128-page file. */
static void test_seq1_max32(struct ktest *t)
{
	/*
	 * 0: miss, prev_index -1 so sequential, offset 0 so not case 1:
	 *    case 3, init(1, 32): 1 <= 32/32 -> 4; la = 4 - 1 = 3; mark 0+4-3 = 1
	 * 1: mark, == lookahead_index 1: case 1, ra_index 4, cur 4 >= 32/16
	 *    -> 8; la 8 -> mark 4
	 * 4: ra 12, cur 8 -> 16, mark 12;  12: ra 28, cur 16 -> 32, mark 28
	 * 28: ra 60, 2*32 capped at 32;  60: ra 92;  92: ra 124, only 124..127
	 *    exist (4 pages), mark 124;  124: ra 156, past end: nothing
	 */
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
	static const struct rah_io io[] = {
		RP(0, 4), RP(4, 8), RP(12, 16), RP(28, 32), RP(60, 32), RP(92, 32), RP(124, 4),
	};
	struct ra_stats st;

	KT_ASSERT_EQ(t, rah_open(&h, "/seq1-32", 128 * PAGE_SIZE, &ra_algo_ondemand, 32), 0);
	KT_EXPECT_TRUE(t, !rah_marked(&h, 0));
	rah_read_one_by_one(t, &h, 0, 127);
	rah_expect_events(t, 0, ev, ARRAY_SIZE(ev));
	rah_expect_io(t, &h, io, ARRAY_SIZE(io));
	KT_EXPECT_EQ(t, h.bad_words, 0);
	ra_file_stats(&h.file.f_ra, &st);
	KT_EXPECT_EQ(t, ra_stats_calls(&st), 8);
	KT_EXPECT_EQ(t, st.sync_ios, 1);
	KT_EXPECT_EQ(t, st.async_ios, 6);	/* one per window after the first */
	KT_EXPECT_EQ(t, st.pages, 128);
	KT_EXPECT_EQ(t, st.hit_pages, 128);
	KT_EXPECT_EQ(t, st.thrashed_pages, 0);
	KT_EXPECT_EQ(t, h.file.f_ra.prev_index, 127);
	rah_close(&h);
}

/* The same at max 256 pages (1 MiB, the seeds' benchmarks), a 1024-page file. */
static void test_seq1_max256(struct ktest *t)
{
	/*
	 * 0: init(1, 256): 1 <= 8 -> 4, la 3, mark 1
	 * 1: cur 4 < 256/16 = 16 -> x4 = 16: [4, 20), mark 4
	 * 4: cur 16, not < 16 -> x2 = 32: [20, 52);  20: 64: [52, 116)
	 * 52: 128: [116, 244);  116: 256: [244, 500);  244: 512 capped: [500, 756)
	 * 500: [756, 1012);  756: [1012, 1268) has 12 pages in the file;  1012: none
	 */
	static const struct rah_event ev[] = {
		{ RA_CASE_SEQ_FIRST, 0, 1, 0, 4, 3, 4 },
		{ RA_CASE_SEQ_NEXT, 1, 1, 4, 16, 16, 16 },
		{ RA_CASE_SEQ_NEXT, 4, 1, 20, 32, 32, 32 },
		{ RA_CASE_SEQ_NEXT, 20, 1, 52, 64, 64, 64 },
		{ RA_CASE_SEQ_NEXT, 52, 1, 116, 128, 128, 128 },
		{ RA_CASE_SEQ_NEXT, 116, 1, 244, 256, 256, 256 },
		{ RA_CASE_SEQ_NEXT, 244, 1, 500, 256, 256, 256 },
		{ RA_CASE_SEQ_NEXT, 500, 1, 756, 256, 256, 256 },
		{ RA_CASE_SEQ_NEXT, 756, 1, 1012, 256, 256, 12 },
		{ RA_CASE_SEQ_NEXT, 1012, 1, 1268, 256, 256, 0 },
	};
	static const struct rah_io io[] = {
		RP(0, 4), RP(4, 16), RP(20, 32), RP(52, 64), RP(116, 128),
		RP(244, 256), RP(500, 256), RP(756, 256), RP(1012, 12),
	};

	KT_ASSERT_EQ(t, rah_open(&h, "/seq1-256", 1024 * PAGE_SIZE, &ra_algo_ondemand, 256), 0);
	rah_read_one_by_one(t, &h, 0, 1023);
	rah_expect_events(t, 0, ev, ARRAY_SIZE(ev));
	rah_expect_io(t, &h, io, ARRAY_SIZE(io));
	KT_EXPECT_EQ(t, h.bad_words, 0);
	rah_close(&h);
}

/* 16-page reads at max 32: one window per two requests, one async readahead each. */
static void test_seq16_max32(struct ktest *t)
{
	/*
	 * read 0-15: miss, case 3, init(16, 32): 16 > 32/4 -> 32; la = 32 - 16
	 *    = 16: [0, 32), mark 16
	 * read 16-31: mark at 16 == lookahead_index: case 1, ra 32, cur 32 ->
	 *    64 capped 32, la 32: [32, 64), mark 32
	 * read 32-47: mark 32: [64, 96), mark 64;  read 48-63: no mark, no call
	 * and so on: a call at every other request (64, 96, ... 224); the one
	 * at 224 asks for [256, 288), past the 256-page file
	 */
	static const struct rah_event ev[] = {
		{ RA_CASE_SEQ_FIRST, 0, 16, 0, 32, 16, 32 },
		{ RA_CASE_SEQ_NEXT, 16, 16, 32, 32, 32, 32 },
		{ RA_CASE_SEQ_NEXT, 32, 16, 64, 32, 32, 32 },
		{ RA_CASE_SEQ_NEXT, 64, 16, 96, 32, 32, 32 },
		{ RA_CASE_SEQ_NEXT, 96, 16, 128, 32, 32, 32 },
		{ RA_CASE_SEQ_NEXT, 128, 16, 160, 32, 32, 32 },
		{ RA_CASE_SEQ_NEXT, 160, 16, 192, 32, 32, 32 },
		{ RA_CASE_SEQ_NEXT, 192, 16, 224, 32, 32, 32 },
		{ RA_CASE_SEQ_NEXT, 224, 16, 256, 32, 32, 0 },
	};
	static const struct rah_io io[] = {
		RP(0, 32), RP(32, 32), RP(64, 32), RP(96, 32),
		RP(128, 32), RP(160, 32), RP(192, 32), RP(224, 32),
	};

	KT_ASSERT_EQ(t, rah_open(&h, "/seq16", 256 * PAGE_SIZE, &ra_algo_ondemand, 32), 0);
	for (pgoff_t i = 0; i < 256; i += 16)
		KT_ASSERT_EQ(t, rah_read(&h, i, 16), 16 * PAGE_SIZE);
	rah_expect_events(t, 0, ev, ARRAY_SIZE(ev));
	rah_expect_io(t, &h, io, ARRAY_SIZE(io));
	KT_EXPECT_EQ(t, h.bad_words, 0);
	rah_close(&h);
}

/* A read larger than the maximum: 64 pages at 0, then 64 at 64, max 32. */
static void test_oversize(struct ktest *t)
{
	/*
	 * read 0-63, page 0: miss, req 64 > max so sequential; case 3: init(64,
	 *    32) = 32, la = 32 (not > req): [0, 32), lookahead_index 0, so the
	 *    mark is on page 0 itself. Found again marked: an async call at
	 *    offset 0, which case 1 skips (offset 0), so case 3 again, turned
	 *    clueless by the page: ra_index 1, min(4*32, 32) = 32: [1, 33) has
	 *    only page 32 new; the mark would go on page 1, cached, so none.
	 *    State: ra_index 1, lookahead_index 1, readahead_index 33.
	 * page 33: miss at readahead_index: case 1, cur 33 - 1 = 32 -> 32,
	 *    [33, 65) with the mark on 33 (la 32), req 64 - 33 = 31; found
	 *    marked: 33 == lookahead_index: case 1, [65, 97), mark 65.
	 * read 64-127: 64 cached, unmarked; 65 marked: case 1, req 128 - 65 =
	 *    63: [97, 129); 97 marked: req 31: [129, 161), mark 129.
	 */
	static const struct rah_event ev[] = {
		{ RA_CASE_SEQ_FIRST, 0, 64, 0, 32, 32, 32 },
		{ RA_CASE_CLUELESS, 0, 64, 1, 32, 32, 1 },
		{ RA_CASE_SEQ_NEXT, 33, 31, 33, 32, 32, 32 },
		{ RA_CASE_SEQ_NEXT, 33, 31, 65, 32, 32, 32 },
		{ RA_CASE_SEQ_NEXT, 65, 63, 97, 32, 32, 32 },
		{ RA_CASE_SEQ_NEXT, 97, 31, 129, 32, 32, 32 },
	};
	static const struct rah_io io[] = {
		RP(0, 32), RP(32, 1), RP(33, 32), RP(65, 32), RP(97, 32), RP(129, 32),
	};

	KT_ASSERT_EQ(t, rah_open(&h, "/oversize", 256 * PAGE_SIZE, &ra_algo_ondemand, 32), 0);
	KT_ASSERT_EQ(t, rah_read(&h, 0, 64), 64 * PAGE_SIZE);
	KT_ASSERT_EQ(t, rah_read(&h, 64, 64), 64 * PAGE_SIZE);
	rah_expect_events(t, 0, ev, ARRAY_SIZE(ev));
	rah_expect_io(t, &h, io, ARRAY_SIZE(io));
	KT_EXPECT_TRUE(t, !rah_marked(&h, 1));
	KT_EXPECT_TRUE(t, rah_marked(&h, 129));
	KT_EXPECT_EQ(t, h.bad_words, 0);
	rah_close(&h);
}

/* A small random read is read as is and leaves the stream's state alone. */
static void test_random_small(struct ktest *t)
{
	/*
	 * pages 0..4 one by one: [0,4) mark 1, [4,12) mark 4, [12,28) mark 12:
	 *    state la_index 4, ra_index 12, lookahead_index 12, readahead_index 28
	 * 2 pages at 500: miss, 500 - 4 > 1 and 2 <= 32: random, [500, 502), no
	 *    mark, state untouched
	 * pages 5..12: cached, until the mark at 12 == lookahead_index: case 1,
	 *    [28, 60)
	 */
	static const struct rah_event ev[] = {
		{ RA_CASE_SEQ_FIRST, 0, 1, 0, 4, 3, 4 },
		{ RA_CASE_SEQ_NEXT, 1, 1, 4, 8, 8, 8 },
		{ RA_CASE_SEQ_NEXT, 4, 1, 12, 16, 16, 16 },
		{ RA_CASE_RANDOM, 500, 2, 500, 2, 0, 2 },
		{ RA_CASE_SEQ_NEXT, 12, 1, 28, 32, 32, 32 },
	};
	static const struct rah_io io[] = {
		RP(0, 4), RP(4, 8), RP(12, 16), RP(500, 2), RP(28, 32),
	};
	struct file_ra_state before;
	struct file_ra_state *ra = &h.file.f_ra;

	KT_ASSERT_EQ(t, rah_open(&h, "/random", 1024 * PAGE_SIZE, &ra_algo_ondemand, 32), 0);
	rah_read_one_by_one(t, &h, 0, 4);
	before = *ra;
	KT_ASSERT_EQ(t, rah_read(&h, 500, 2), 2 * PAGE_SIZE);
	KT_EXPECT_EQ(t, ra->la_index, before.la_index);
	KT_EXPECT_EQ(t, ra->ra_index, before.ra_index);
	KT_EXPECT_EQ(t, ra->lookahead_index, before.lookahead_index);
	KT_EXPECT_EQ(t, ra->readahead_index, before.readahead_index);
	KT_EXPECT_EQ(t, ra->la_index, 4);
	KT_EXPECT_EQ(t, ra->readahead_index, 28);
	KT_EXPECT_EQ(t, ra->prev_index, 501);
	KT_EXPECT_TRUE(t, !rah_marked(&h, 500) && !rah_marked(&h, 501));
	KT_EXPECT_EQ(t, rah_page_flags(&h, 502), -1);
	rah_read_one_by_one(t, &h, 5, 12);
	rah_expect_events(t, 0, ev, ARRAY_SIZE(ev));
	rah_expect_io(t, &h, io, ARRAY_SIZE(io));
	rah_close(&h);
}

static void mark_page(pgoff_t index)
{
	struct page *page = find_get_page(&h.inode.i_data, index);

	if (page) {
		SetPageReadahead(page);
		put_page(page);
	}
}

/* A look-ahead hit with unrelated state: ra_index + 1, size min(4 * ra_size, max). */
static void test_clueless(struct ktest *t)
{
	/*
	 * page 0: case 3, [0, 4) mark 1: lookahead_index 1, readahead_index 4
	 * page 300 (cached, marked by "another stream"): 300 is neither 1 nor 4,
	 *    page != NULL: init(1, 32) = 4, la 3, then ra_index 301, min(16, 32)
	 *    = 16: [301, 317), mark at 301 + 16 - 3 = 314
	 * 4 pages at 600 (600..603 cached, 600 marked): init(4, 32): 4 <= 8 ->
	 *    8, la = 8 - 4 = 4; clueless: ra_index 601, min(32, 32) = 32:
	 *    [601, 633), 601..603 cached so 29 new pages, mark 633 - 4 = 629
	 */
	static const struct rah_event ev[] = {
		{ RA_CASE_SEQ_FIRST, 0, 1, 0, 4, 3, 4 },
		{ RA_CASE_CLUELESS, 300, 1, 301, 16, 3, 16 },
		{ RA_CASE_CLUELESS, 600, 4, 601, 32, 4, 29 },
	};
	static const struct rah_io io[] = { RP(0, 4), RP(301, 16), RP(604, 29) };

	KT_ASSERT_EQ(t, rah_open(&h, "/clueless", 1024 * PAGE_SIZE, &ra_algo_ondemand, 32), 0);
	KT_ASSERT_EQ(t, rah_read(&h, 0, 1), PAGE_SIZE);
	KT_ASSERT_EQ(t, rah_populate(&h, 300, 1), 0);
	mark_page(300);
	KT_ASSERT_EQ(t, rah_read(&h, 300, 1), PAGE_SIZE);
	KT_EXPECT_TRUE(t, !rah_marked(&h, 300));
	KT_EXPECT_TRUE(t, rah_marked(&h, 314));
	KT_EXPECT_EQ(t, h.file.f_ra.ra_index, 301);
	KT_EXPECT_EQ(t, h.file.f_ra.readahead_index, 317);
	KT_EXPECT_EQ(t, h.file.f_ra.lookahead_index, 314);
	KT_ASSERT_EQ(t, rah_populate(&h, 600, 4), 0);
	mark_page(600);
	KT_ASSERT_EQ(t, rah_read(&h, 600, 4), 4 * PAGE_SIZE);
	KT_EXPECT_TRUE(t, rah_marked(&h, 629));
	rah_expect_events(t, 0, ev, ARRAY_SIZE(ev));
	rah_expect_io(t, &h, io, ARRAY_SIZE(io));
	KT_EXPECT_EQ(t, h.bad_words, 0);
	rah_close(&h);
}

/* Streams A (from 0) and B (from 1000) on one file, in bursts of two 1-page reads. */
static void interleave(struct ktest *t, int bursts)
{
	for (int k = 0; k < bursts; k++) {
		KT_ASSERT_EQ(t, rah_read(&h, (pgoff_t)(2 * k), 1), PAGE_SIZE);
		KT_ASSERT_EQ(t, rah_read(&h, (pgoff_t)(2 * k + 1), 1), PAGE_SIZE);
		KT_ASSERT_EQ(t, rah_read(&h, (pgoff_t)(1000 + 2 * k), 1), PAGE_SIZE);
		KT_ASSERT_EQ(t, rah_read(&h, (pgoff_t)(1000 + 2 * k + 1), 1), PAGE_SIZE);
	}
}

static void test_interleaved(struct ktest *t)
{
	/*
	 * A0: case 3 [0,4) mark 1.  A1: case 1 [4,12) mark 4.
	 * B1000: 1000 - 1 > 1: random, 1 page.  B1001: 1001 - 1000 = 1: case 3
	 *    [1001,1005) mark 1002.  A2, A3: cached.  B1002: mark == lookahead
	 *    1002: case 1, cur 4 -> 8: [1005,1013) mark 1005.
	 * A4: mark, but the state is B's: clueless, init 4 la 3 -> [5,21): 5..11
	 *    cached, 9 new, mark 5 + 13 = 18.  B1005: clueless [1006,1022): 9 new,
	 *    mark 1019.  Then no call until A18: clueless [19,35): 14 new, mark
	 *    32; and B1019: [1020,1036): 14 new.
	 * The marks keep both streams read ahead although they share one state.
	 */
	static const struct rah_event ev[] = {
		{ RA_CASE_SEQ_FIRST, 0, 1, 0, 4, 3, 4 },
		{ RA_CASE_SEQ_NEXT, 1, 1, 4, 8, 8, 8 },
		{ RA_CASE_RANDOM, 1000, 1, 1000, 1, 0, 1 },
		{ RA_CASE_SEQ_FIRST, 1001, 1, 1001, 4, 3, 4 },
		{ RA_CASE_SEQ_NEXT, 1002, 1, 1005, 8, 8, 8 },
		{ RA_CASE_CLUELESS, 4, 1, 5, 16, 3, 9 },
		{ RA_CASE_CLUELESS, 1005, 1, 1006, 16, 3, 9 },
		{ RA_CASE_CLUELESS, 18, 1, 19, 16, 3, 14 },
		{ RA_CASE_CLUELESS, 1019, 1, 1020, 16, 3, 14 },
	};
	static const struct rah_io io[] = {
		RP(0, 4), RP(4, 8), RP(1000, 1), RP(1001, 4), RP(1005, 8),
		RP(12, 9), RP(1013, 9), RP(21, 14), RP(1022, 14),
	};

	KT_ASSERT_EQ(t, rah_open(&h, "/interleaved", 2048 * PAGE_SIZE, &ra_algo_ondemand, 32), 0);
	interleave(t, 10);
	rah_expect_events(t, 0, ev, ARRAY_SIZE(ev));
	rah_expect_io(t, &h, io, ARRAY_SIZE(io));
	KT_EXPECT_EQ(t, h.bad_words, 0);
	rah_close(&h);
}

/* A cache-hot file: no I/O and not a single readahead call. */
static void test_cache_hot(struct ktest *t)
{
	struct ra_stats st;

	KT_ASSERT_EQ(t, rah_open(&h, "/hot", 512 * PAGE_SIZE, &ra_algo_ondemand, 32), 0);
	KT_ASSERT_EQ(t, rah_populate(&h, 0, 512), 0);
	rah_read_one_by_one(t, &h, 0, 511);
	KT_EXPECT_EQ(t, ra_trace_count(), 0);
	KT_EXPECT_EQ(t, h.nr_io, 0);
	ra_file_stats(&h.file.f_ra, &st);
	KT_EXPECT_EQ(t, ra_stats_calls(&st), 0);
	KT_EXPECT_EQ(t, h.bad_words, 0);
	rah_close(&h);
}

/* Pages evicted before use are read again by readahead, in ramping windows. */
static void test_thrash(struct ktest *t)
{
	/*
	 * pages 0..40: [0,4) [4,12) [12,28) [28,60) [60,92): state ra_index 60,
	 *    lookahead_index 60, readahead_index 92; prev_index 40
	 * evict 41..91 (51 pages, all read ahead and unread: thrashed)
	 * page 41: miss, 41 - 40 = 1: sequential, not 60/92: case 3, [41,45)
	 *    mark 42;  42: case 1, cur 4 -> 8 [45,53);  45: 16 [53,69);
	 *    53: 32 [69,101);  69: [101,133)
	 */
	static const struct rah_event ev[] = {
		{ RA_CASE_SEQ_FIRST, 41, 1, 41, 4, 3, 4 },
		{ RA_CASE_SEQ_NEXT, 42, 1, 45, 8, 8, 8 },
		{ RA_CASE_SEQ_NEXT, 45, 1, 53, 16, 16, 16 },
		{ RA_CASE_SEQ_NEXT, 53, 1, 69, 32, 32, 32 },
		{ RA_CASE_SEQ_NEXT, 69, 1, 101, 32, 32, 32 },
	};
	static const struct rah_io io[] = {
		RP(41, 4), RP(45, 8), RP(53, 16), RP(69, 32), RP(101, 32),
	};
	struct ra_stats st;

	KT_ASSERT_EQ(t, rah_open(&h, "/thrash", 256 * PAGE_SIZE, &ra_algo_ondemand, 32), 0);
	rah_read_one_by_one(t, &h, 0, 40);
	KT_ASSERT_EQ(t, ra_trace_count(), 5);
	/*
	 * Two windows lose pages: [28,60) its unread tail, [60,92) all of
	 * it, in two evictions: each window counts once.
	 */
	KT_EXPECT_EQ(t, rah_evict(&h, 41, 30), 30);
	KT_EXPECT_EQ(t, rah_evict(&h, 71, 21), 21);
	rah_clear_log(&h);
	rah_read_one_by_one(t, &h, 41, 100);
	rah_expect_events(t, 5, ev, ARRAY_SIZE(ev));
	rah_expect_io(t, &h, io, ARRAY_SIZE(io));
	ra_file_stats(&h.file.f_ra, &st);
	KT_EXPECT_EQ(t, st.thrashed_pages, 51);
	KT_EXPECT_EQ(t, ra_global_stats.thrashed_pages, 51);
	KT_EXPECT_EQ(t, st.windows, 10);
	KT_EXPECT_EQ(t, st.thrashed_windows, 2);
	KT_EXPECT_EQ(t, ra_global_stats.thrashed_windows, 2);
	/* "the on-demand readahead will redo readahead for them" (patch 006) */
	KT_EXPECT_EQ(t, st.readpage_ios, 0);
	KT_EXPECT_EQ(t, st.hit_pages, 101);	/* pages 0..100, each read once */
	KT_EXPECT_EQ(t, h.bad_words, 0);
	rah_close(&h);
}

/* ra=off: every missing page is read alone, exactly what was asked. */
static void test_off(struct ktest *t)
{
	struct rah_event ev[16];
	struct rah_io io[16];

	KT_ASSERT_EQ(t, rah_open(&h, "/off", 64 * PAGE_SIZE, &ra_algo_off, 32), 0);
	KT_EXPECT_EQ(t, h.file.f_ra.ra_pages, 0);
	KT_ASSERT_EQ(t, rah_read(&h, 0, 16), 16 * PAGE_SIZE);
	for (unsigned int i = 0; i < 16; i++) {
		/* each miss calls readahead, which returns at once: req 16 - i */
		ev[i] = (struct rah_event){ RA_CASE_OFF, i, 16 - i, i, 0, 0, 0 };
		io[i] = (struct rah_io){ RAH_READPAGE, i, 1, true };
	}
	rah_expect_events(t, 0, ev, 16);
	rah_expect_io(t, &h, io, 16);
	/* cached now: no call at all */
	KT_ASSERT_EQ(t, rah_read(&h, 0, 16), 16 * PAGE_SIZE);
	KT_EXPECT_EQ(t, ra_trace_count(), 16);
	KT_EXPECT_EQ(t, h.bad_words, 0);
	rah_close(&h);
}

/* No look-ahead mark past end of file, and reads stop at the last byte. */
static void test_eof(struct ktest *t)
{
	/* 16 pages at 0 of a 10-page + 100-byte file: init(16, 32) = 32, la 16:
	 * the mark would be page 16, past the end (page 10 is the last) */
	static const struct rah_event ev[] = { { RA_CASE_SEQ_FIRST, 0, 16, 0, 32, 16, 11 } };
	static const struct rah_io io[] = { RP(0, 11) };
	loff_t size = 10 * PAGE_SIZE + 100;

	KT_ASSERT_EQ(t, rah_open(&h, "/eof", size, &ra_algo_ondemand, 32), 0);
	KT_EXPECT_EQ(t, rah_read(&h, 0, 16), size);
	for (pgoff_t i = 0; i <= 10; i++)
		KT_EXPECT_TRUE(t, !rah_marked(&h, i));
	KT_EXPECT_EQ(t, rah_read(&h, 11, 1), 0);
	KT_EXPECT_EQ(t, rah_read(&h, 10, 1), 100);
	rah_expect_events(t, 0, ev, ARRAY_SIZE(ev));
	rah_expect_io(t, &h, io, ARRAY_SIZE(io));
	KT_EXPECT_EQ(t, h.bad_words, 0);
	rah_close(&h);
}

/* Async readahead is deferred while congested; the misses then read synchronously. */
static void test_congested(struct ktest *t)
{
	/*
	 * 0: case 3 [0,4) mark 1 (sync: not deferred).  1: mark, congested:
	 *    deferred, mark cleared.  4: miss == readahead_index 4: case 1,
	 *    ra_index 4, cur 4 -> 8 [4,12) mark 4, found marked: deferred.
	 * 12: miss == readahead_index: case 1, cur 8 -> 16 [12,28); deferred.
	 */
	static const struct rah_event ev[] = {
		{ RA_CASE_SEQ_FIRST, 0, 1, 0, 4, 3, 4 },
		{ RA_CASE_CONGESTED, 1, 1, 1, 0, 0, 0 },
		{ RA_CASE_SEQ_NEXT, 4, 1, 4, 8, 8, 8 },
		{ RA_CASE_CONGESTED, 4, 1, 4, 0, 0, 0 },
		{ RA_CASE_SEQ_NEXT, 12, 1, 12, 16, 16, 16 },
		{ RA_CASE_CONGESTED, 12, 1, 12, 0, 0, 0 },
	};
	struct ra_stats st;

	KT_ASSERT_EQ(t, rah_open(&h, "/congested", 128 * PAGE_SIZE, &ra_algo_ondemand, 32), 0);
	h.congested = true;
	rah_read_one_by_one(t, &h, 0, 12);
	rah_expect_events(t, 0, ev, ARRAY_SIZE(ev));
	KT_EXPECT_TRUE(t, ra_trace_get(1)->congested);
	KT_EXPECT_TRUE(t, ra_trace_get(1)->async);
	KT_EXPECT_TRUE(t, !ra_trace_get(2)->async);
	ra_file_stats(&h.file.f_ra, &st);
	KT_EXPECT_EQ(t, st.sync_ios, 3);
	KT_EXPECT_EQ(t, st.async_ios, 0);
	KT_EXPECT_EQ(t, st.deferred, 3);
	rah_close(&h);
}

KTEST_SUITE(ra_ondemand, rah_suite_ready,
	    KTEST_CASE(test_seq1_max32), KTEST_CASE(test_seq1_max256),
	    KTEST_CASE(test_seq16_max32), KTEST_CASE(test_oversize),
	    KTEST_CASE(test_random_small), KTEST_CASE(test_clueless),
	    KTEST_CASE(test_interleaved), KTEST_CASE(test_cache_hot),
	    KTEST_CASE(test_thrash), KTEST_CASE(test_off), KTEST_CASE(test_eof),
	    KTEST_CASE(test_congested));
