/*
 * Large folios as units in the page cache (RA_ALGO_FOLIOS, ra=linux) on the
 * real mm, in a 16 MiB arena whose pool (1024 frames, min watermark 64,
 * low 80, high 96) fills in a few reads: a folio is one LRU entry and goes
 * whole; a read marks its folio accessed once, as 7.2's filemap_read(); a
 * readahead folio's allocation is __GFP_NORETRY, failing where an ordinary
 * page's reclaims, and page_cache_ra_order() then reads the window's rest a
 * page at a time, where an order-0 failure cuts it short; an evicted page
 * leaves a shadow whose refault is counted (mm/workingset.c).
 */
#include "kernel/sched.h"
#include "mm/readahead.h"
#include "tests/common/test_mm_helpers.h"
#include "tests/common/test_ra_harness.h"

static struct ra_harness h;

#define LINUX ra_algo_find("linux")

static const char *folio_suite_ready(void)
{
	if (mm_host_init(16ULL << 20) < 0)
		return "cannot set up a 16 MiB host memory arena";
	return LINUX ? NULL : "no ra=linux";
}

/* A folio of 2^@order pages at @index of the harness's file, read (uptodate) at once. */
static int add_folio(pgoff_t index, unsigned int order)
{
	struct address_space *m = h.file.f_mapping;
	struct ra_batch b;
	int err;

	ra_batch_begin(&b, &h.file.f_ra, 1UL << order);
	err = ra_batch_add_folio(m, &b, index, order, false);
	ra_batch_read(m, &h.file, &b);
	ra_batch_end(&h.file, &b);
	return err;
}

static bool cached(pgoff_t index)
{
	return rah_page_flags(&h, index) >= 0;
}

static unsigned long cached_of(pgoff_t first, unsigned long n)
{
	unsigned long c = 0;

	for (pgoff_t i = first; i < first + n; i++)
		c += cached(i);
	return c;
}

/*
 * A 16-page folio is one entry of the inactive list, counted as 16 pages;
 * reclaim of one page takes all 16, and a reader holding any one of them
 * keeps all 16.
 */
static void test_folio_evicted_whole(struct ktest *t)
{
	struct mm_stats st0, st1;
	struct page *tail;

	KT_ASSERT_EQ(t, rah_open(&h, "/folio-whole", 64 * PAGE_SIZE, LINUX, 32), 0);
	drop_pagecache();
	mm_get_stats(&st0);
	KT_ASSERT_EQ(t, add_folio(16, 4), 0);
	mm_get_stats(&st1);
	KT_EXPECT_EQ(t, st1.inactive, st0.inactive + 16);
	KT_EXPECT_TRUE(t, rah_page_flags(&h, 16) & BIT(PG_lru));
	KT_EXPECT_TRUE(t, !(rah_page_flags(&h, 17) & BIT(PG_lru)));
	KT_EXPECT_TRUE(t, !(rah_page_flags(&h, 31) & BIT(PG_lru)));

	/* a reader holds page 21: the folio stays whole */
	tail = find_get_page(h.file.f_mapping, 21);
	KT_ASSERT_TRUE(t, tail != NULL);
	KT_EXPECT_EQ(t, shrink_page_cache(1), 0);
	KT_EXPECT_EQ(t, cached_of(16, 16), 16);
	page_cache_release(tail);

	/* one page asked, the folio's 16 go */
	mm_get_stats(&st0);
	KT_EXPECT_EQ(t, shrink_page_cache(1), 16);
	mm_get_stats(&st1);
	KT_EXPECT_EQ(t, cached_of(16, 16), 0);
	KT_EXPECT_EQ(t, st1.reclaimed, st0.reclaimed + 16);
	KT_EXPECT_EQ(t, st1.inactive + 16, st0.inactive);
	/* read ahead and never read: each page counts as thrashed */
	KT_EXPECT_EQ(t, st1.thrashed, st0.thrashed + 16);
	rah_close(&h);
}

/*
 * Accessed once per read: a read across the whole folio references it once
 * (2.6.20's rule, a page at a time, would have activated it at its second
 * page); a read that starts in the folio the previous read ended in does
 * not touch it (pos_same_folio()); one after a read elsewhere activates it.
 */
static void test_folio_accessed_once_per_read(struct ktest *t)
{
	KT_ASSERT_EQ(t, rah_open(&h, "/folio-accessed", 64 * PAGE_SIZE, LINUX, 32), 0);
	KT_ASSERT_EQ(t, add_folio(0, 4), 0);
	KT_ASSERT_EQ(t, rah_populate(&h, 32, 4), 0);

	KT_ASSERT_EQ(t, rah_read(&h, 0, 8), 8 * PAGE_SIZE);
	KT_EXPECT_TRUE(t, rah_page_flags(&h, 0) & BIT(PG_referenced));
	KT_EXPECT_TRUE(t, !(rah_page_flags(&h, 0) & BIT(PG_active)));
	/* the next read starts where the last ended, in the same folio */
	KT_ASSERT_EQ(t, rah_read(&h, 8, 8), 8 * PAGE_SIZE);
	KT_EXPECT_TRUE(t, !(rah_page_flags(&h, 0) & BIT(PG_active)));
	/* a read elsewhere, then the folio again: its second access */
	KT_ASSERT_EQ(t, rah_read(&h, 32, 1), PAGE_SIZE);
	KT_ASSERT_EQ(t, rah_read(&h, 4, 1), PAGE_SIZE);
	KT_EXPECT_TRUE(t, rah_page_flags(&h, 0) & BIT(PG_active));
	/* no tail carries state of its own */
	for (pgoff_t i = 1; i < 16; i++)
		KT_EXPECT_EQ(t, rah_page_flags(&h, i) & (BIT(PG_active) | BIT(PG_lru)), 0);
	rah_close(&h);
}

/*
 * Fill the pool with another file's clean pages: an order-7 folio (128
 * frames) fails, since what kswapd frees (up to the high watermark, 96)
 * and one round of direct reclaim (32) leave less than 128 above the min
 * watermark (64), where page_cache_alloc() goes on reclaiming and
 * succeeds; an order-5 folio fits after kswapd's reclaim.
 */
static void test_noretry_fails_where_reclaim_succeeds(struct ktest *t)
{
	struct mm_stats st0, st1;
	struct fake_file ff;
	LIST_HEAD(pages);
	unsigned long i;

	KT_ASSERT_EQ(t, fake_file_init(&ff, "filler", 9, 0), 0);
	mm_get_stats(&st0);
	for (i = 0; st0.cache_free > 0 && i < cache_pool_pages(); i++) {
		KT_ASSERT_TRUE(t, cache_new_page(&ff.mapping, i, true) != NULL);
		mm_get_stats(&st0);
		if (st0.cache_free <= st0.wmark_low)
			break;
	}
	KT_EXPECT_EQ(t, page_cache_alloc_folio(&ff.mapping, 7, &pages), -ENOMEM);
	KT_EXPECT_TRUE(t, list_empty(&pages));
	mm_get_stats(&st1);
	KT_EXPECT_EQ(t, st1.noretry_failures[7], st0.noretry_failures[7] + 1);
	KT_EXPECT_GE(t, st1.cache_free, st1.wmark_high);

	KT_EXPECT_EQ(t, page_cache_alloc_folio(&ff.mapping, 5, &pages), 0);
	for (i = 0; i < 32; i++) {
		struct page *p = list_first_entry(&pages, struct page, lru);

		list_del(&p->lru);
		page_cache_release(p);
	}
	/* ordinary allocations: 128 frames, reclaiming as they go */
	for (i = 0; i < 128; i++) {
		struct page *p = page_cache_alloc(&ff.mapping);

		KT_ASSERT_TRUE(t, p != NULL);
		list_add(&p->lru, &pages);
	}
	while (!list_empty(&pages)) {
		struct page *p = list_first_entry(&pages, struct page, lru);

		list_del(&p->lru);
		page_cache_release(p);
	}
	address_space_release(&ff.mapping);
}

/*
 * The async window [4,12) of a sequential reader (max 32) is two order-2
 * folios; the first one's allocation fails: no smaller order is tried,
 * page_cache_ra_order() falls back to do_page_cache_ra(), which reads the
 * 8 pages singly, the mark (async_size 8) on page 4.
 */
static void test_noretry_failure_falls_back_page_by_page(struct ktest *t)
{
	static const struct rah_linux_event lx[] = {
		{ RA_EV_SYNC_RA, 0, 1, 0, 0, 0 },
		{ RA_EV_RA_ORDER, 0, 0, 0, 4, 3 },
		{ RA_EV_ASYNC_RA, 1, 1, 0, 4, 3 },
		{ RA_EV_RA_ORDER, 4, 0, 2, 8, 8 },
		{ RA_EV_RA_UNBOUNDED, 4, 8, 0, 0, 8 },
	};
	static const struct rah_io io[] = { RP(0, 4), RP(4, 8) };
	struct mm_fail_report rep;

	KT_ASSERT_EQ(t, rah_open(&h, "/folio-fallback", 64 * PAGE_SIZE, LINUX, 32), 0);
	KT_ASSERT_EQ(t, rah_read(&h, 0, 1), PAGE_SIZE);
	mm_fail_nth(1);
	KT_ASSERT_EQ(t, rah_read(&h, 1, 1), PAGE_SIZE);
	mm_fail_nth_report(&rep);
	mm_fail_nth(0);
	KT_EXPECT_TRUE(t, rep.fired);
	KT_EXPECT_EQ(t, rep.bytes, 4 * PAGE_SIZE);
	rah_expect_linux(t, lx, ARRAY_SIZE(lx));
	rah_expect_io(t, &h, io, ARRAY_SIZE(io));
	for (pgoff_t i = 4; i < 12; i++) {
		long f = rah_page_flags(&h, i);

		KT_EXPECT_TRUE(t, f >= 0 && !((unsigned long)f & PG_FOLIO_ORDER_MASK));
	}
	KT_EXPECT_TRUE(t, rah_marked(&h, 4));
	KT_EXPECT_EQ(t, rah_marked(&h, 5) + rah_marked(&h, 11), 0);
	rah_close(&h);
}

/*
 * WILLNEED over 16 pages is force_page_cache_ra() through
 * page_cache_ra_unbounded(): its fifth page's allocation fails, and the
 * window ends there (0fd44ab213bc): pages 0-3 read, 4-15 not.
 */
static void test_order0_failure_cuts_window(struct ktest *t)
{
	static const struct rah_linux_event lx[] = {
		{ RA_EV_RA_UNBOUNDED, 0, 16, 0, 0, 0 },
	};
	static const struct rah_io io[] = { RP(0, 4) };
	struct mm_fail_report rep;

	KT_ASSERT_EQ(t, rah_open(&h, "/folio-cut", 64 * PAGE_SIZE, LINUX, 32), 0);
	mm_fail_nth(5);
	/* the pages it submitted */
	KT_EXPECT_EQ(t, file_ra_fadvise(&h.file, 0, 16 * PAGE_SIZE, FADV_WILLNEED), 4);
	mm_fail_nth_report(&rep);
	mm_fail_nth(0);
	KT_EXPECT_TRUE(t, rep.fired);
	KT_EXPECT_EQ(t, rep.bytes, PAGE_SIZE);
	rah_expect_linux(t, lx, ARRAY_SIZE(lx));
	rah_expect_io(t, &h, io, ARRAY_SIZE(io));
	KT_EXPECT_EQ(t, cached_of(0, 4), 4);
	KT_EXPECT_EQ(t, cached_of(4, 12), 0);
	rah_close(&h);
}

/*
 * Reclaim leaves a shadow per evicted page; the page read again over it is a
 * refault. With the active list empty (2.6.20's reclaim ages it as fast as
 * the inactive one) the classic LRU of 7.2 would activate none: the
 * distance is at least 1 (the eviction ages before the next). Invalidation
 * leaves no shadow.
 */
static void test_refault_counted(struct ktest *t)
{
	struct mm_stats st0, st1;
	struct fake_file ff;

	KT_ASSERT_TRUE(t, workingset_init(cache_pool_pages()));
	KT_ASSERT_EQ(t, rah_open(&h, "/folio-refault", 64 * PAGE_SIZE, LINUX, 32), 0);
	drop_pagecache();
	KT_ASSERT_EQ(t, rah_populate(&h, 0, 8), 0);
	mm_get_stats(&st0);
	KT_EXPECT_EQ(t, st0.shadows, 0);
	KT_EXPECT_EQ(t, shrink_page_cache(8), 8);
	mm_get_stats(&st1);
	KT_EXPECT_EQ(t, st1.shadows, 8);
	KT_EXPECT_EQ(t, st1.active, 0);
	KT_ASSERT_EQ(t, rah_populate(&h, 0, 8), 0);
	mm_get_stats(&st1);
	KT_EXPECT_EQ(t, st1.refaults, st0.refaults + 8);
	KT_EXPECT_EQ(t, st1.refault_activate, st0.refault_activate);
	KT_EXPECT_EQ(t, st1.shadows, 0);
	/* dropped, not reclaimed: no shadow, no refault */
	drop_pagecache();
	KT_ASSERT_EQ(t, rah_populate(&h, 0, 8), 0);
	mm_get_stats(&st0);
	KT_EXPECT_EQ(t, st0.refaults, st1.refaults);
	/*
	 * A refault at a distance the active list covers would be activated:
	 * behind 600 inactive pages, one eviction is a scan at priority 5 that
	 * leaves the 4 active pages alone (the owed active scan, 8, is below a
	 * batch), so the distance, 1, is within the active list's 4.
	 */
	drop_pagecache();
	KT_ASSERT_EQ(t, rah_populate(&h, 0, 1), 0);
	KT_ASSERT_EQ(t, fake_file_init(&ff, "refault-filler", 5, 0), 0);
	for (pgoff_t i = 0; i < 600; i++)
		KT_ASSERT_TRUE(t, cache_new_page(&ff.mapping, i, true) != NULL);
	KT_ASSERT_EQ(t, rah_populate(&h, 16, 4), 0);
	for (pgoff_t i = 16; i < 20; i++) {
		struct page *p = find_get_page(h.file.f_mapping, i);

		KT_ASSERT_TRUE(t, p != NULL);
		mark_page_accessed(p);
		mark_page_accessed(p);
		page_cache_release(p);
	}
	KT_ASSERT_EQ(t, shrink_page_cache(1), 1);
	KT_EXPECT_TRUE(t, !cached(0));
	mm_get_stats(&st0);
	KT_EXPECT_EQ(t, st0.active, 4);
	KT_ASSERT_EQ(t, rah_populate(&h, 0, 1), 0);
	mm_get_stats(&st1);
	KT_EXPECT_EQ(t, st1.refaults, st0.refaults + 1);
	KT_EXPECT_EQ(t, st1.refault_activate, st0.refault_activate + 1);
	address_space_release(&ff.mapping);
	rah_close(&h);
	workingset_init(0);
}

KTEST_SUITE(ra_folio, folio_suite_ready, KTEST_CASE(test_folio_evicted_whole),
	    KTEST_CASE(test_folio_accessed_once_per_read),
	    KTEST_CASE(test_noretry_fails_where_reclaim_succeeds),
	    KTEST_CASE(test_noretry_failure_falls_back_page_by_page),
	    KTEST_CASE(test_order0_failure_cuts_window), KTEST_CASE(test_refault_counted));
