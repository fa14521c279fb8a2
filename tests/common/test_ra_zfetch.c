/*
 * ZFS's prefetcher (mm/readahead-zfetch.c, zfs-2.2.6) through the read(2)
 * and fault paths, worked out by hand: every request is matched against the
 * streams (at the next block, one block before it, or across it); a hit
 * moves the stream on, sets the distance (the request's size at first,
 * then doubling, capped by the maximum window) and prefetches the new part
 * of [next block, next block + distance), once the stream has seen a
 * demand miss; a request nobody expects starts a stream and prefetches
 * nothing. The demand pages of a request are read first, as is.
 *
 * Events are {case, offset, req, ra_index, ra_size, la_size, pages submitted};
 * the demand reads are "random" events.
 */
#include "tests/common/test_ra_harness.h"

static struct ra_harness h;

#define ZFETCH ra_algo_find("zfetch")

/*
 * 4-page reads from 0, max 32, a 2 MiB file (one stream):
 *	0: no stream: a new one expecting 4; demand [0,4)
 *	4: hit (missed): next 8, distance 4: demand [4,8), prefetch [8,12)
 *	8: hit: next 12, distance 8: [12,20);  12: next 16, 16: [20,32)
 *	16: next 20, 32: [32,52);  20: next 24, 64 capped 32: [52,56)
 *	24: [56,60) and from then on 4 pages a read, 32 ahead of the reader
 */
static void test_zfetch_sequential(struct ktest *t)
{
	static const struct rah_event ev[] = {
		{ RA_CASE_STREAM_NEW, 0, 4, 4, 0, 0, 0 },
		{ RA_CASE_RANDOM, 0, 4, 0, 4, 0, 4 },
		{ RA_CASE_RANDOM, 4, 4, 4, 4, 0, 4 },
		{ RA_CASE_STREAM_HIT, 4, 4, 8, 4, 0, 4 },
		{ RA_CASE_STREAM_HIT, 8, 4, 12, 8, 0, 8 },
		{ RA_CASE_STREAM_HIT, 12, 4, 20, 12, 0, 12 },
		{ RA_CASE_STREAM_HIT, 16, 4, 32, 20, 0, 20 },
		{ RA_CASE_STREAM_HIT, 20, 4, 52, 4, 0, 4 },
		{ RA_CASE_STREAM_HIT, 24, 4, 56, 4, 0, 4 },
	};

	KT_ASSERT_TRUE(t, ZFETCH != NULL);
	KT_ASSERT_EQ(t, rah_open(&h, "/zf-seq", 512 * PAGE_SIZE, ZFETCH, 32), 0);
	for (pgoff_t i = 0; i < 28; i += 4)
		KT_ASSERT_EQ(t, rah_read(&h, i, 4), 4 * PAGE_SIZE);
	rah_expect_events(t, 0, ev, ARRAY_SIZE(ev));
	KT_EXPECT_EQ(t, h.bad_words, 0);
	rah_close(&h);
}

/*
 * Two streams through one open of a 128 MiB file (two streams allowed):
 * each keeps its own; in a 2 MiB file (one stream) a new stream takes over
 * the one just made (created a second in the past, so that it can be), and
 * neither reader ever prefetches.
 */
static void test_zfetch_interleaved(struct ktest *t)
{
	KT_ASSERT_EQ(t, rah_open(&h, "/zf-inter", 32768 * PAGE_SIZE, ZFETCH, 32), 0);
	for (pgoff_t i = 0; i < 32; i += 4) {
		KT_ASSERT_EQ(t, rah_read(&h, i, 4), 4 * PAGE_SIZE);
		KT_ASSERT_EQ(t, rah_read(&h, 1024 + i, 4), 4 * PAGE_SIZE);
	}
	KT_EXPECT_EQ(t, rah_count_case(RA_CASE_STREAM_NEW), 2);
	KT_EXPECT_EQ(t, rah_count_case(RA_CASE_STREAM_HIT), 14);
	/* demand reads for each stream's first two requests, then all prefetched */
	KT_EXPECT_EQ(t, rah_count_case(RA_CASE_RANDOM), 4);
	rah_close(&h);

	KT_ASSERT_EQ(t, rah_open(&h, "/zf-inter-small", 512 * PAGE_SIZE, ZFETCH, 32), 0);
	for (pgoff_t i = 0; i < 32; i += 4) {
		KT_ASSERT_EQ(t, rah_read(&h, i, 4), 4 * PAGE_SIZE);
		KT_ASSERT_EQ(t, rah_read(&h, 256 + i, 4), 4 * PAGE_SIZE);
	}
	KT_EXPECT_EQ(t, rah_count_case(RA_CASE_STREAM_NEW), 16);
	KT_EXPECT_EQ(t, rah_count_case(RA_CASE_STREAM_HIT), 0);
	KT_EXPECT_EQ(t, h.bad_words, 0);
	rah_close(&h);
}

/*
 * Thrashing: the prefetched pages are evicted before the reader gets
 * there. zfetch prefetches only the new part past what it prefetched
 * before, so the lost pages come back as demand reads, 4 at a time, while
 * the prefetch front moves on.
 */
static void test_zfetch_thrashed(struct ktest *t)
{
	static const struct rah_event ev[] = {
		{ RA_CASE_RANDOM, 28, 4, 28, 4, 0, 4 },
		{ RA_CASE_STREAM_HIT, 28, 4, 60, 4, 0, 4 },
		{ RA_CASE_RANDOM, 32, 4, 32, 4, 0, 4 },
		{ RA_CASE_STREAM_HIT, 32, 4, 64, 4, 0, 4 },
	};

	KT_ASSERT_EQ(t, rah_open(&h, "/zf-thrash", 512 * PAGE_SIZE, ZFETCH, 32), 0);
	for (pgoff_t i = 0; i < 28; i += 4)
		KT_ASSERT_EQ(t, rah_read(&h, i, 4), 4 * PAGE_SIZE);
	KT_EXPECT_EQ(t, rah_evict(&h, 28, 32), 32);
	ra_trace_reset();
	KT_ASSERT_EQ(t, rah_read(&h, 28, 4), 4 * PAGE_SIZE);
	KT_ASSERT_EQ(t, rah_read(&h, 32, 4), 4 * PAGE_SIZE);
	rah_expect_events(t, 0, ev, ARRAY_SIZE(ev));
	KT_EXPECT_EQ(t, h.bad_words, 0);
	rah_close(&h);
}

/*
 * Faults are 1-page requests:
 *	0: new stream expecting 1; demand [0,1)
 *	1: hit (missed): next 2, distance 1: demand [1,2), prefetch [2,3)
 *	2: next 3, distance 2: [3,5);  3: next 4, 4: [5,8);  4: next 5, 8: [8,13)
 * and MADV_RANDOM none of it.
 */
static void test_zfetch_fault(struct ktest *t)
{
	static const struct rah_event ev[] = {
		{ RA_CASE_STREAM_NEW, 0, 1, 1, 0, 0, 0 },
		{ RA_CASE_RANDOM, 0, 1, 0, 1, 0, 1 },
		{ RA_CASE_RANDOM, 1, 1, 1, 1, 0, 1 },
		{ RA_CASE_STREAM_HIT, 1, 1, 2, 1, 0, 1 },
		{ RA_CASE_STREAM_HIT, 2, 1, 3, 2, 0, 2 },
		{ RA_CASE_STREAM_HIT, 3, 1, 5, 3, 0, 3 },
		{ RA_CASE_STREAM_HIT, 4, 1, 8, 5, 0, 5 },
	};

	KT_ASSERT_EQ(t, rah_open(&h, "/zf-mmap", 512 * PAGE_SIZE, ZFETCH, 32), 0);
	for (pgoff_t i = 0; i < 5; i++)
		KT_ASSERT_EQ(t, rah_fault(&h, i, FAULT_ADV_NORMAL), 0);
	rah_expect_events(t, 0, ev, ARRAY_SIZE(ev));
	rah_close(&h);

	KT_ASSERT_EQ(t, rah_open(&h, "/zf-mmap-rand", 512 * PAGE_SIZE, ZFETCH, 32), 0);
	for (pgoff_t i = 0; i < 5; i++)
		KT_ASSERT_EQ(t, rah_fault(&h, i, FAULT_ADV_RANDOM), 0);
	KT_EXPECT_EQ(t, ra_trace_count(), 0);
	rah_close(&h);
}

/*
 * A cached file: the stream follows the reader but, never having missed,
 * prefetches nothing; and an unaligned reader (6 KiB preads) re-touching
 * the page it ended in still hits its stream.
 */
static void test_zfetch_cached(struct ktest *t)
{
	static char buf[6 * 1024];

	KT_ASSERT_EQ(t, rah_open(&h, "/zf-hot", 512 * PAGE_SIZE, ZFETCH, 32), 0);
	KT_ASSERT_EQ(t, rah_populate(&h, 0, 512), 0);
	for (pgoff_t i = 0; i < 28; i += 4)
		KT_ASSERT_EQ(t, rah_read(&h, i, 4), 4 * PAGE_SIZE);
	KT_EXPECT_EQ(t, rah_count_case(RA_CASE_STREAM_NEW), 1);
	KT_EXPECT_EQ(t, rah_count_case(RA_CASE_STREAM_HIT), 6);
	for (unsigned int i = 0; i < ra_trace_count(); i++)
		KT_EXPECT_EQ(t, ra_trace_get(i)->ra_size, 0);
	rah_close(&h);

	KT_ASSERT_EQ(t, rah_open(&h, "/zf-unaligned", 512 * PAGE_SIZE, ZFETCH, 32), 0);
	for (loff_t pos = 0; pos < 10 * (loff_t)sizeof(buf); pos += sizeof(buf))
		KT_ASSERT_EQ(t, rah_pread(&h, pos, sizeof(buf), buf), (ssize_t)sizeof(buf));
	KT_EXPECT_EQ(t, rah_count_case(RA_CASE_STREAM_NEW), 1);
	KT_EXPECT_EQ(t, rah_count_case(RA_CASE_STREAM_HIT), 9);
	rah_close(&h);
}

KTEST_SUITE(ra_zfetch, rah_suite_ready, KTEST_CASE(test_zfetch_sequential),
	    KTEST_CASE(test_zfetch_interleaved), KTEST_CASE(test_zfetch_thrashed),
	    KTEST_CASE(test_zfetch_fault), KTEST_CASE(test_zfetch_cached));
