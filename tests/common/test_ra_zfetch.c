/*
 * ZFS's prefetcher (mm/readahead-zfetch.c, zfs-2.2.6) through the read(2)
 * and fault paths, worked out by hand. Blocks are 128 KiB records (32
 * pages): every request is matched against the streams by the records it
 * touches (at the next record, or one before it, or across it); a hit
 * moves the stream on, sets the distance (the request's records at first,
 * then doubling, capped by the maximum window in records) and prefetches
 * the new part of [next record, next record + distance), once the stream
 * has seen a demand miss; a request nobody expects starts a stream and
 * prefetches nothing. The demand records of a request are read first, whole.
 *
 * Events are {case, offset, req, ra_index, ra_size, la_size, pages submitted},
 * in pages; the demand reads are "random" events.
 */
#include "tests/common/test_ra_harness.h"

static struct ra_harness h;

#define ZFETCH ra_algo_find("zfetch")

/*
 * 128 KiB reads from 0, max 256 pages (8 records), a 2 MiB file (16 records,
 * one stream):
 *	0: no stream: a new one expecting record 1; demand record 0 [0,32)
 *	32: hit (missed): next 2, distance 1: demand [32,64), prefetch record 2
 *	64: next 3, distance 2: records 3-4 [96,160);  96: 4: records 5-7 [160,256)
 *	128: 8: records 8-12 [256,416);  160: 16 capped 8: record 13;  192: 14
 *	224: record 15, the last
 */
static void test_zfetch_sequential(struct ktest *t)
{
	const struct rah_event ev[] = {
		{ rah_case("stream-new"), 0, 32, 32, 0, 0, 0 },
		{ RA_CASE_RANDOM, 0, 32, 0, 32, 0, 32 },
		{ RA_CASE_RANDOM, 32, 32, 32, 32, 0, 32 },
		{ rah_case("stream-hit"), 32, 32, 64, 32, 0, 32 },
		{ rah_case("stream-hit"), 64, 32, 96, 64, 0, 64 },
		{ rah_case("stream-hit"), 96, 32, 160, 96, 0, 96 },
		{ rah_case("stream-hit"), 128, 32, 256, 160, 0, 160 },
		{ rah_case("stream-hit"), 160, 32, 416, 32, 0, 32 },
		{ rah_case("stream-hit"), 192, 32, 448, 32, 0, 32 },
		{ rah_case("stream-hit"), 224, 32, 480, 32, 0, 32 },
	};

	KT_ASSERT_TRUE(t, ZFETCH != NULL);
	KT_ASSERT_EQ(t, rah_open(&h, "/zf-seq", 512 * PAGE_SIZE, ZFETCH, 256), 0);
	for (pgoff_t i = 0; i < 256; i += 32)
		KT_ASSERT_EQ(t, rah_read(&h, i, 32), 32 * PAGE_SIZE);
	rah_expect_events(t, 0, ev, ARRAY_SIZE(ev));
	KT_EXPECT_EQ(t, h.bad_words, 0);
	rah_close(&h);

	/* 4 KiB reads: the stream moves once a record, so one prefetch per 32 reads */
	KT_ASSERT_EQ(t, rah_open(&h, "/zf-seq4", 512 * PAGE_SIZE, ZFETCH, 256), 0);
	for (pgoff_t i = 0; i < 256; i++)
		KT_ASSERT_EQ(t, rah_read(&h, i, 1), PAGE_SIZE);
	KT_EXPECT_EQ(t, rah_count_case(rah_case("stream-new")), 1);
	KT_EXPECT_EQ(t, rah_count_case(RA_CASE_RANDOM), 2);	/* demand: records 0 and 1 */
	KT_EXPECT_EQ(t, h.file.f_ra.stats.windows, 2 + 7);	/* and 7 prefetches */
	rah_close(&h);

	/* a page in the middle of a record: the whole record is read */
	KT_ASSERT_EQ(t, rah_open(&h, "/zf-record", 512 * PAGE_SIZE, ZFETCH, 256), 0);
	KT_ASSERT_EQ(t, rah_read(&h, 40, 1), PAGE_SIZE);
	KT_EXPECT_EQ(t, ra_trace_get(1)->rcase, RA_CASE_RANDOM);
	KT_EXPECT_EQ(t, ra_trace_get(1)->ra_index, 32);
	KT_EXPECT_EQ(t, ra_trace_get(1)->actual, 32);
	rah_close(&h);
}

/*
 * Two streams through one open of a 128 MiB file (two streams allowed):
 * each keeps its own; in a 2 MiB file (one stream) a new stream takes over
 * the one just made (created a second in the past, so that it can be), and
 * the readers (almost) never prefetch.
 */
static void test_zfetch_interleaved(struct ktest *t)
{
	KT_ASSERT_EQ(t, rah_open(&h, "/zf-inter", 32768 * PAGE_SIZE, ZFETCH, 256), 0);
	for (pgoff_t i = 0; i < 256; i += 32) {
		KT_ASSERT_EQ(t, rah_read(&h, i, 32), 32 * PAGE_SIZE);
		KT_ASSERT_EQ(t, rah_read(&h, 4096 + i, 32), 32 * PAGE_SIZE);
	}
	KT_EXPECT_EQ(t, rah_count_case(rah_case("stream-new")), 2);
	KT_EXPECT_EQ(t, rah_count_case(rah_case("stream-hit")), 14);
	/* demand reads for each stream's first two records, then all prefetched */
	KT_EXPECT_EQ(t, rah_count_case(RA_CASE_RANDOM), 4);
	rah_close(&h);

	KT_ASSERT_EQ(t, rah_open(&h, "/zf-inter-small", 512 * PAGE_SIZE, ZFETCH, 256), 0);
	for (pgoff_t i = 0; i < 256; i += 32) {
		KT_ASSERT_EQ(t, rah_read(&h, i, 32), 32 * PAGE_SIZE);
		KT_ASSERT_EQ(t, rah_read(&h, 256 + i, 32), 32 * PAGE_SIZE);
	}
	/*
	 * B's last two reads end at the last record: no stream is made for
	 * them (end < maxblkid), so A's last read finds the stream it made
	 * before still there: 13 new streams and one hit (whose prefetch, B's
	 * record 8, is cached).
	 */
	KT_EXPECT_EQ(t, rah_count_case(rah_case("stream-new")), 13);
	KT_EXPECT_EQ(t, rah_count_case(rah_case("stream-hit")), 1);
	KT_EXPECT_EQ(t, h.bad_words, 0);
	rah_close(&h);
}

/*
 * Thrashing: the prefetched records are evicted before the reader gets
 * there. zfetch prefetches only the new part past what it prefetched
 * before, so the lost records come back as demand reads while the
 * prefetch front moves on (a 4 MiB file, 32 records).
 */
static void test_zfetch_thrashed(struct ktest *t)
{
	const struct rah_event ev[] = {
		{ RA_CASE_RANDOM, 256, 32, 256, 32, 0, 32 },
		{ rah_case("stream-hit"), 256, 32, 512, 32, 0, 32 },
		{ RA_CASE_RANDOM, 288, 32, 288, 32, 0, 32 },
		{ rah_case("stream-hit"), 288, 32, 544, 32, 0, 32 },
	};

	KT_ASSERT_EQ(t, rah_open(&h, "/zf-thrash", 1024 * PAGE_SIZE, ZFETCH, 256), 0);
	for (pgoff_t i = 0; i < 256; i += 32)
		KT_ASSERT_EQ(t, rah_read(&h, i, 32), 32 * PAGE_SIZE);
	KT_EXPECT_EQ(t, rah_evict(&h, 256, 256), 256);
	ra_trace_reset();
	KT_ASSERT_EQ(t, rah_read(&h, 256, 32), 32 * PAGE_SIZE);
	KT_ASSERT_EQ(t, rah_read(&h, 288, 32), 32 * PAGE_SIZE);
	rah_expect_events(t, 0, ev, ARRAY_SIZE(ev));
	KT_EXPECT_EQ(t, h.bad_words, 0);
	rah_close(&h);
}

/*
 * Faults are 1-page requests: the first reads record 0 and starts a stream;
 * faults inside it touch nothing new; the first in record 1 reads it and
 * prefetches record 2; the first in record 2 prefetches records 3-4. And
 * MADV_RANDOM none of it.
 */
static void test_zfetch_fault(struct ktest *t)
{
	KT_ASSERT_EQ(t, rah_open(&h, "/zf-mmap", 512 * PAGE_SIZE, ZFETCH, 256), 0);
	for (pgoff_t i = 0; i < 65; i++)
		KT_ASSERT_EQ(t, rah_fault(&h, i, FAULT_ADV_NORMAL), 0);
	KT_EXPECT_EQ(t, rah_count_case(rah_case("stream-new")), 1);
	KT_EXPECT_EQ(t, rah_count_case(RA_CASE_RANDOM), 2);
	KT_EXPECT_EQ(t, h.file.f_ra.ra_index, 96);	/* the last prefetch: records 3-4 */
	KT_EXPECT_EQ(t, ra_readahead_size(&h.file.f_ra), 64);
	rah_close(&h);

	KT_ASSERT_EQ(t, rah_open(&h, "/zf-mmap-rand", 512 * PAGE_SIZE, ZFETCH, 256), 0);
	for (pgoff_t i = 0; i < 5; i++)
		KT_ASSERT_EQ(t, rah_fault(&h, i * 40, FAULT_ADV_RANDOM), 0);
	KT_EXPECT_EQ(t, ra_trace_count(), 0);
	rah_close(&h);
}

/*
 * A cached file: the stream follows the reader but, never having missed,
 * prefetches nothing; and an unaligned reader (6 KiB preads) staying inside
 * the record it ended in still hits its stream.
 */
static void test_zfetch_cached(struct ktest *t)
{
	static char buf[6 * 1024];

	KT_ASSERT_EQ(t, rah_open(&h, "/zf-hot", 512 * PAGE_SIZE, ZFETCH, 256), 0);
	KT_ASSERT_EQ(t, rah_populate(&h, 0, 512), 0);
	for (pgoff_t i = 0; i < 256; i += 32)
		KT_ASSERT_EQ(t, rah_read(&h, i, 32), 32 * PAGE_SIZE);
	KT_EXPECT_EQ(t, rah_count_case(rah_case("stream-new")), 1);
	KT_EXPECT_EQ(t, rah_count_case(rah_case("stream-hit")), 7);
	for (unsigned int i = 0; i < ra_trace_count(); i++)
		KT_EXPECT_EQ(t, ra_trace_get(i)->ra_size, 0);
	rah_close(&h);

	KT_ASSERT_EQ(t, rah_open(&h, "/zf-unaligned", 512 * PAGE_SIZE, ZFETCH, 256), 0);
	for (loff_t pos = 0; pos < 10 * (loff_t)sizeof(buf); pos += sizeof(buf))
		KT_ASSERT_EQ(t, rah_pread(&h, pos, sizeof(buf), buf), (ssize_t)sizeof(buf));
	KT_EXPECT_EQ(t, rah_count_case(rah_case("stream-new")), 1);
	KT_EXPECT_EQ(t, rah_count_case(rah_case("stream-hit")), 9);
	rah_close(&h);
}

KTEST_SUITE(ra_zfetch, rah_suite_ready, KTEST_CASE(test_zfetch_sequential),
	    KTEST_CASE(test_zfetch_interleaved), KTEST_CASE(test_zfetch_thrashed),
	    KTEST_CASE(test_zfetch_fault), KTEST_CASE(test_zfetch_cached));
