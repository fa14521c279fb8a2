/*
 * readahead(8)'s two figures on the real page cache, against a clock the
 * test sets: pages read ahead at a known time and used at known times give
 * exactly the lead-time buckets worked out by hand, wherever in its
 * microsecond the clock stood, and the pages never used are counted.
 */
#include "tests/common/test_mm_helpers.h"
#include "kernel/time.h"
#include "mm/readahead.h"

extern bool host_clock_set;
extern uint64_t host_clock_ns;

/* Read ahead 16 pages of @ff at @t0_ns, then use page k at t0 + k * 100 us, for k < 10. */
static void read_ahead_and_use(struct ktest *t, struct fake_file *ff, struct file_ra_state *ra,
			       uint64_t t0_ns)
{
	host_clock_set = true;
	host_clock_ns = t0_ns;
	KT_ASSERT_EQ(t, __do_page_cache_readahead(&ff->mapping, NULL, 0, 16, 0), 16);
	for (pgoff_t k = 0; k < 10; k++) {
		struct page *page = find_get_page(&ff->mapping, k);

		KT_ASSERT_TRUE(t, page != NULL);
		host_clock_ns = t0_ns + k * 100 * NSEC_PER_USEC;
		ra_page_used(ra, page);
		ra_page_used(ra, page);	/* a second use is not a first use */
		page_cache_release(page);
	}
	host_clock_set = false;
}

static void expect_leads(struct ktest *t, const struct file_ra_state *ra)
{
	/* leads 0, 100, ..., 900 us: [0,2) once, [64,128) once, [128,256) once,
	 * [256,512) for 300, 400, 500, [512,1024) for 600 to 900 */
	static const struct {
		int bucket;
		unsigned long n;
	} want[] = { {0, 1}, {6, 1}, {7, 1}, {8, 3}, {9, 4} };
	unsigned long total = 0;

	for (unsigned int i = 0; i < ARRAY_SIZE(want); i++)
		KT_EXPECT_EQ(t, ra->stats.lead[want[i].bucket], want[i].n);
	for (int b = 0; b < RA_LEAD_BUCKETS; b++)
		total += ra->stats.lead[b];
	KT_EXPECT_EQ(t, total, 10);
	KT_EXPECT_EQ(t, ra->stats.hit_pages, 10);
	KT_EXPECT_EQ(t, ra_lead_median_bucket(&ra->stats), 8);
}

static void test_lead_buckets(struct ktest *t)
{
	struct fake_file ff;
	struct file_ra_state ra;

	KT_ASSERT_EQ(t, mm_host_init(16ULL << 20), 0);
	KT_ASSERT_TRUE(t, ra_lead_init(cache_pool_pages()));
	KT_ASSERT_EQ(t, fake_file_init(&ff, "lead", 3, 64), 0);
	file_ra_state_init(&ra, &ff.mapping);
	read_ahead_and_use(t, &ff, &ra, 7 * NSEC_PER_MSEC);
	expect_leads(t, &ra);
	/* 16 read ahead, 10 used */
	ra.stats.pages = 16;
	KT_EXPECT_EQ(t, ra_stats_unused(&ra.stats), 6);
	address_space_release(&ff.mapping);
	ra_lead_init(0);
}

/* Born 50 us before 2^32 us, 123 ns into a microsecond: the leads read the same. */
static void test_lead_any_offset(struct ktest *t)
{
	struct fake_file ff;
	struct file_ra_state ra;

	KT_ASSERT_EQ(t, mm_host_init(16ULL << 20), 0);
	KT_ASSERT_TRUE(t, ra_lead_init(cache_pool_pages()));
	KT_ASSERT_EQ(t, fake_file_init(&ff, "lead-wrap", 4, 64), 0);
	file_ra_state_init(&ra, &ff.mapping);
	read_ahead_and_use(t, &ff, &ra, ((1ULL << 32) - 50) * NSEC_PER_USEC + 123);
	expect_leads(t, &ra);
	address_space_release(&ff.mapping);
	ra_lead_init(0);
}

KTEST_SUITE(ra_lead, NULL, KTEST_CASE(test_lead_buckets), KTEST_CASE(test_lead_any_offset));
