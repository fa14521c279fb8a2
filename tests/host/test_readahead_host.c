/*
 * Readahead tests that need the fake mm of test_readahead_fake.c: page-cache
 * lookups counted (the overhead patch 006 removes), I/O that completes
 * later (readers wait on locked pages) and I/O that never completes (the
 * bounded wait fails with -ETIMEDOUT instead of hanging).
 */
#include "tests/common/test_ra_harness.h"

extern unsigned long fake_mm_lookups;

static struct ra_harness h;

/*
 * A cache-hot file read one page at a time: on-demand looks each page up
 * once (the read path); legacy also looks up every window it tries:
 * 4 + 8 + 16 + 8 * 32 = 284 pages before it turns itself off.
 */
static void test_lookups_cache_hot(struct ktest *t)
{
	static const struct {
		const struct ra_algorithm *algo;
		unsigned long lookups;
	} want[] = { { &ra_algo_ondemand, 512 }, { &ra_algo_legacy, 512 + 284 } };

	for (unsigned int i = 0; i < ARRAY_SIZE(want); i++) {
		KT_ASSERT_EQ(t, rah_open(&h, "/hot", 512 * PAGE_SIZE, want[i].algo, 32), 0);
		KT_ASSERT_EQ(t, rah_populate(&h, 0, 512), 0);
		fake_mm_lookups = 0;
		for (pgoff_t p = 0; p < 512; p++)
			KT_ASSERT_EQ(t, rah_read(&h, p, 1), PAGE_SIZE);
		KT_EXPECT_EQ(t, fake_mm_lookups, want[i].lookups);
		rah_close(&h);
	}
}

static bool complete_deferred(void)
{
	return rah_complete(&h) > 0;
}

/* Readers wait for readahead I/O in flight, including on the marked page. */
static void test_deferred_io(struct ktest *t)
{
	/*
	 * read 0-15: [0,32) is submitted and stays locked: page 0 waits until
	 * the hook completes it. read 16-31: the mark at 16 submits [32,64),
	 * which this read does not need: still in flight afterwards. read
	 * 32-47: the mark at 32 (locked, under I/O) submits [64,96) before the
	 * reader waits on 32.
	 */
	static const struct rah_event ev[] = {
		{ RA_CASE_SEQ_FIRST, 0, 16, 0, 32, 16, 32 },
		{ RA_CASE_SEQ_NEXT, 16, 16, 32, 32, 32, 32 },
		{ RA_CASE_SEQ_NEXT, 32, 16, 64, 32, 32, 32 },
	};

	KT_ASSERT_EQ(t, rah_open(&h, "/deferred", 128 * PAGE_SIZE, &ra_algo_ondemand, 32), 0);
	h.defer = true;
	host_wait_hook = complete_deferred;
	KT_EXPECT_EQ(t, rah_read(&h, 0, 16), 16 * PAGE_SIZE);
	KT_EXPECT_EQ(t, rah_read(&h, 16, 16), 16 * PAGE_SIZE);
	KT_EXPECT_EQ(t, h.nr_deferred, 32);
	KT_EXPECT_EQ(t, rah_read(&h, 32, 16), 16 * PAGE_SIZE);
	KT_EXPECT_EQ(t, h.nr_deferred, 0);
	host_wait_hook = NULL;
	rah_expect_events(t, 0, ev, ARRAY_SIZE(ev));
	KT_EXPECT_EQ(t, h.bad_words, 0);
	rah_close(&h);
}

extern bool host_clock_set;
extern uint64_t host_clock_ns;

/* Nothing completes: a second passes on the test's clock at each wait. */
static bool stall_one_second(void)
{
	host_clock_ns += NSEC_PER_SEC;
	return false;
}

/*
 * I/O that never completes: the read fails after its bounded wait, 60 s
 * without a completion (FILEMAP_IO_STALL_NS), on a clock the test moves, so
 * that the test does not spin out 60 s of the host's own time.
 */
static void test_io_timeout(struct ktest *t)
{
	int err = 0;

	KT_ASSERT_EQ(t, rah_open(&h, "/stuck", 64 * PAGE_SIZE, &ra_algo_ondemand, 32), 0);
	h.defer = true;
	host_clock_ns = ktime_ns();
	host_clock_set = true;
	host_wait_hook = stall_one_second;
	KT_EXPECT_EQ(t, rah_read(&h, 0, 4), -ETIMEDOUT);
	KT_EXPECT_TRUE(t, filemap_fault(&h.file, 1, FAULT_ADV_NORMAL, &err) == NULL);
	KT_EXPECT_EQ(t, err, -ETIMEDOUT);
	host_wait_hook = NULL;
	host_clock_set = false;
	KT_EXPECT_EQ(t, rah_complete(&h), 8);	/* init(4, 32) = 8 pages were submitted */
	h.defer = false;
	KT_EXPECT_EQ(t, rah_read(&h, 0, 4), 4 * PAGE_SIZE);
	KT_EXPECT_EQ(t, h.bad_words, 0);
	rah_close(&h);
}

/*
 * zfetch past zfetch_min_distance (4 MiB = 1024 pages; max 8 MiB here): the
 * distance grows by an eighth only at a hit where the reader found
 * prefetched pages still under I/O (zs_more). With I/O that completes at
 * once it stays at 1024 pages; with I/O completed only when a reader waits
 * (64-page reads that miss nothing never wait), it grows.
 */
static unsigned long zfetch_distance_after(bool defer)
{
	const struct ra_trace_event *last = NULL;

	if (rah_open(&h, "/zf-more", 8192 * PAGE_SIZE, ra_algo_find("zfetch"), 2048))
		return 0;
	h.defer = defer;
	host_wait_hook = complete_deferred;
	for (pgoff_t i = 0; i < 64 * 64; i += 64)
		if (rah_read(&h, i, 64) != 64 * PAGE_SIZE)
			return 0;
	for (unsigned int i = 0; i < ra_trace_count(); i++)
		if (ra_trace_get(i)->rcase == rah_case("stream-hit") && ra_trace_get(i)->ra_size)
			last = ra_trace_get(i);
	host_wait_hook = NULL;
	rah_close(&h);
	/* the front of the prefetch less the stream's next block */
	return last ? last->ra_index + last->ra_size - (last->offset + last->req_size) : 0;
}

static void test_zfetch_more(struct ktest *t)
{
	KT_EXPECT_EQ(t, zfetch_distance_after(false), 1024);
	KT_EXPECT_TRUE(t, zfetch_distance_after(true) > 1024);
}

KTEST_SUITE(ra_host, rah_suite_ready,
	    KTEST_CASE(test_lookups_cache_hot), KTEST_CASE(test_deferred_io),
	    KTEST_CASE(test_io_timeout), KTEST_CASE(test_zfetch_more));
