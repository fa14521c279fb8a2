/*
 * LRU and reclaim suite: mark_page_accessed promotion (referenced once,
 * twice: active), eviction order (oldest inactive first; active pages aged
 * in proportion, with no second chance), pages that must never be
 * reclaimed (locked, in use, dirty), thrashed counting and its hook,
 * drop_pagecache accounting.
 *
 * Each reclaim test first drops the page cache, so the only reclaimable
 * pages are the test's own; pages others hold stay where they are.
 */
#include "tests/common/test_mm_helpers.h"

static void test_mark_page_accessed_promotes(struct ktest *t)
{
	struct fake_file ff;
	struct page *p;
	struct mm_stats st0, st1;

	KT_ASSERT_EQ(t, fake_file_init(&ff, "lru-promote", 1, 0), 0);
	mm_get_stats(&st0);
	p = cache_new_page(&ff.mapping, 0, true);
	KT_ASSERT_TRUE(t, p != NULL);
	KT_EXPECT_TRUE(t, PageLRU(p) && !PageActive(p) && !PageReferenced(p));
	mm_get_stats(&st1);
	KT_EXPECT_EQ(t, st1.inactive, st0.inactive + 1);

	mark_page_accessed(p);
	KT_EXPECT_TRUE(t, PageReferenced(p) && !PageActive(p));
	mm_get_stats(&st1);
	KT_EXPECT_EQ(t, st1.active, st0.active);

	mark_page_accessed(p);
	KT_EXPECT_TRUE(t, PageActive(p) && !PageReferenced(p));
	mm_get_stats(&st1);
	KT_EXPECT_EQ(t, st1.active, st0.active + 1);
	KT_EXPECT_EQ(t, st1.inactive, st0.inactive);

	mark_page_accessed(p);
	KT_EXPECT_TRUE(t, PageActive(p) && PageReferenced(p));
	mark_page_accessed(p);
	KT_EXPECT_TRUE(t, PageActive(p) && PageReferenced(p));

	address_space_release(&ff.mapping);
	mm_get_stats(&st1);
	KT_EXPECT_EQ(t, st1.active, st0.active);
	KT_EXPECT_EQ(t, st1.inactive, st0.inactive);
}

/* Reclaim one page at a time; record the order in which pages 0..n-1 of @m leave. */
static unsigned int eviction_order(struct address_space *m, unsigned int n, pgoff_t *order)
{
	unsigned int gone = 0, rounds;
	bool present[16];
	pgoff_t i;

	for (i = 0; i < n; i++)
		present[i] = true;
	for (rounds = 0; gone < n && rounds < 4 * n; rounds++) {
		shrink_page_cache(1);
		for (i = 0; i < n; i++) {
			if (present[i] && !is_cached(m, i)) {
				present[i] = false;
				order[gone++] = i;
			}
		}
	}
	return gone;
}

static void test_reclaim_oldest_inactive_first(struct ktest *t)
{
	static const pgoff_t expect[10] = {0, 1, 2, 3, 4, 6, 7, 8, 9, 5};
	struct fake_file ff;
	pgoff_t order[10], i;
	struct page *p5 = NULL;

	drop_pagecache();
	KT_ASSERT_EQ(t, fake_file_init(&ff, "lru-order", 2, 0), 0);
	for (i = 0; i < 10; i++) {
		struct page *p = cache_new_page(&ff.mapping, i, true);

		KT_ASSERT_TRUE(t, p != NULL);
		if (i == 2)
			mark_page_accessed(p); /* once: still inactive, not saved */
		if (i == 5) {
			mark_page_accessed(p); /* twice: active */
			mark_page_accessed(p);
			p5 = p;
		}
	}
	KT_EXPECT_TRUE(t, p5 && PageActive(p5));
	KT_ASSERT_EQ(t, eviction_order(&ff.mapping, 10, order), 10);
	for (i = 0; i < 10; i++)
		KT_EXPECT_EQ(t, order[i], expect[i]);
	address_space_release(&ff.mapping);
}

/*
 * 2.6.20's shrink_active_list(): page cache nobody mmaps leaves the active
 * list in LRU order whether referenced or not; a page used while active
 * keeps PG_referenced, so one more access activates it again.
 */
static void test_active_aged_without_second_chance(struct ktest *t)
{
	struct fake_file ff;
	struct page *pages[4];
	pgoff_t order[4], i;

	drop_pagecache();
	KT_ASSERT_EQ(t, fake_file_init(&ff, "lru-active", 3, 0), 0);
	for (i = 0; i < 4; i++) {
		pages[i] = cache_new_page(&ff.mapping, i, true);
		KT_ASSERT_TRUE(t, pages[i] != NULL);
		mark_page_accessed(pages[i]);
		mark_page_accessed(pages[i]);
		KT_EXPECT_TRUE(t, PageActive(pages[i]));
	}
	/* Page 0 is the oldest active page; used again, it still goes first. */
	mark_page_accessed(pages[0]);
	KT_ASSERT_EQ(t, eviction_order(&ff.mapping, 4, order), 4);
	for (i = 0; i < 4; i++)
		KT_EXPECT_EQ(t, order[i], i);
	address_space_release(&ff.mapping);
}

/*
 * shrink_zone(): the active list is scanned in proportion to its length on
 * every round, so it ages even while the inactive list is seven times longer
 * (a refill only when the inactive list ran short never touched it).
 */
static void test_active_aged_in_proportion(struct ktest *t)
{
	enum { NR_ACT = 64, NR_ALL = 512 };
	struct fake_file ff;
	struct mm_stats st0, st1;
	struct page *first = NULL;
	pgoff_t i;

	drop_pagecache();
	KT_ASSERT_EQ(t, fake_file_init(&ff, "lru-aging", 7, NR_ALL), 0);
	for (i = 0; i < NR_ALL; i++) {
		struct page *p = cache_new_page(&ff.mapping, i, true);

		KT_ASSERT_TRUE(t, p != NULL);
		if (i < NR_ACT) {
			mark_page_accessed(p);
			mark_page_accessed(p);
			if (i == 0)
				first = p;
		}
	}
	mm_get_stats(&st0);
	KT_ASSERT_TRUE(t, st0.inactive >= NR_ALL - NR_ACT && st0.active >= NR_ACT);
	KT_EXPECT_EQ(t, shrink_page_cache((NR_ALL - NR_ACT) / 2), (NR_ALL - NR_ACT) / 2);
	mm_get_stats(&st1);
	KT_EXPECT_TRUE(t, st1.active < st0.active);
	KT_EXPECT_TRUE(t, is_cached(&ff.mapping, 0) && !PageActive(first));
	KT_EXPECT_TRUE(t, is_cached(&ff.mapping, NR_ACT - 1));
	address_space_release(&ff.mapping);
}

static void test_reclaim_skips_pages_in_use(struct ktest *t)
{
	struct fake_file ff;
	struct page *locked, *held, *dirty, *ref;
	struct mm_stats st0, st1;
	pgoff_t i;

	drop_pagecache();
	KT_ASSERT_EQ(t, fake_file_init(&ff, "lru-skip", 4, 0), 0);
	for (i = 0; i < 6; i++)
		KT_ASSERT_TRUE(t, cache_new_page(&ff.mapping, i, true) != NULL);
	locked = find_get_page(&ff.mapping, 0);
	KT_ASSERT_TRUE(t, locked && trylock_page(locked));
	put_page(locked);
	held = find_get_page(&ff.mapping, 1);
	dirty = find_get_page(&ff.mapping, 2);
	KT_ASSERT_TRUE(t, held && dirty);
	SetPageDirty(dirty);
	put_page(dirty);

	mm_get_stats(&st0);
	KT_EXPECT_EQ(t, shrink_page_cache(100), 3);
	mm_get_stats(&st1);
	KT_EXPECT_EQ(t, st1.reclaimed, st0.reclaimed + 3);
	KT_EXPECT_TRUE(t, is_cached(&ff.mapping, 0));
	KT_EXPECT_TRUE(t, is_cached(&ff.mapping, 1));
	KT_EXPECT_TRUE(t, is_cached(&ff.mapping, 2));
	KT_EXPECT_TRUE(t, !is_cached(&ff.mapping, 3));
	KT_EXPECT_EQ(t, drop_pagecache(), 0);

	unlock_page(locked);
	put_page(held);
	ClearPageDirty(dirty);
	ref = find_get_page(&ff.mapping, 2);
	KT_ASSERT_TRUE(t, ref != NULL);
	mark_page_accessed(ref); /* PG_referenced alone does not keep an inactive page */
	put_page(ref);
	KT_EXPECT_EQ(t, shrink_page_cache(100), 3);
	KT_EXPECT_EQ(t, ff.mapping.nrpages, 0);
	address_space_release(&ff.mapping);
}

static struct address_space *hook_mapping;
static unsigned long hook_calls, hook_index_mask;
static void (*saved_hook)(struct address_space *, struct page *);

static void count_thrashed(struct address_space *mapping, struct page *page)
{
	if (mapping != hook_mapping) {
		if (saved_hook)
			saved_hook(mapping, page);
		return;
	}
	hook_calls++;
	if (page->index < 64)
		hook_index_mask |= 1UL << page->index;
}

static void test_thrashed_counted_with_hook(struct ktest *t)
{
	struct fake_file ff;
	struct mm_stats st0, st1;
	pgoff_t i;

	drop_pagecache();
	KT_ASSERT_EQ(t, fake_file_init(&ff, "lru-thrash", 5, 0), 0);
	for (i = 0; i < 8; i++) {
		struct page *p = cache_new_page(&ff.mapping, i, true);

		KT_ASSERT_TRUE(t, p != NULL);
		if (i < 4)
			SetPageReadaheadIO(p); /* read ahead, nobody read it */
	}
	saved_hook = readahead_thrashed_hook;
	hook_mapping = &ff.mapping;
	hook_calls = hook_index_mask = 0;
	readahead_thrashed_hook = count_thrashed;
	mm_get_stats(&st0);
	KT_EXPECT_EQ(t, shrink_page_cache(8), 8);
	mm_get_stats(&st1);
	readahead_thrashed_hook = saved_hook;
	KT_EXPECT_EQ(t, st1.thrashed, st0.thrashed + 4);
	KT_EXPECT_EQ(t, st1.reclaimed, st0.reclaimed + 8);
	KT_EXPECT_EQ(t, hook_calls, 4);
	KT_EXPECT_EQ(t, hook_index_mask, 0xf);
	address_space_release(&ff.mapping);
}

static void test_drop_pagecache_is_not_reclaim(struct ktest *t)
{
	struct fake_file ff;
	struct mm_stats st0, st1;
	pgoff_t i;

	drop_pagecache();
	KT_ASSERT_EQ(t, fake_file_init(&ff, "lru-drop", 6, 0), 0);
	for (i = 0; i < 5; i++) {
		struct page *p = cache_new_page(&ff.mapping, i, true);

		KT_ASSERT_TRUE(t, p != NULL);
		SetPageReadaheadIO(p);
	}
	mm_get_stats(&st0);
	KT_EXPECT_EQ(t, drop_pagecache(), 5);
	mm_get_stats(&st1);
	KT_EXPECT_EQ(t, st1.dropped, st0.dropped + 5);
	KT_EXPECT_EQ(t, st1.thrashed, st0.thrashed);
	KT_EXPECT_EQ(t, st1.reclaimed, st0.reclaimed);
	KT_EXPECT_EQ(t, st1.inactive, st0.inactive - 5);
	KT_EXPECT_EQ(t, st1.cached, st0.cached - 5);
	address_space_release(&ff.mapping);
}

KTEST_SUITE(mm_lru, mm_suite_ready, KTEST_CASE(test_mark_page_accessed_promotes),
	    KTEST_CASE(test_reclaim_oldest_inactive_first),
	    KTEST_CASE(test_active_aged_without_second_chance),
	    KTEST_CASE(test_active_aged_in_proportion),
	    KTEST_CASE(test_reclaim_skips_pages_in_use),
	    KTEST_CASE(test_thrashed_counted_with_hook),
	    KTEST_CASE(test_drop_pagecache_is_not_reclaim));
