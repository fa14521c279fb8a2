/*
 * Buddy allocator suite on the live allocator (kernel: real RAM; host: a
 * 64 MiB arena): alignment and accounting of every order, disjoint blocks,
 * flags cleared on reuse, exhaustion without handing out a reserved frame,
 * refused bad frees. Every page taken is given back, so the free lists end
 * as they started.
 */
#include "tests/common/test_mm_helpers.h"

/* Pages the allocator got back from reclaim during a test: free counts move by that much. */
static unsigned long reclaimed_now(void)
{
	struct mm_stats st;

	mm_get_stats(&st);
	return st.reclaimed;
}

static void test_every_order_aligned_and_counted(struct ktest *t)
{
	unsigned int order;

	for (order = 0; order < MAX_ORDER; order++) {
		struct mm_stats before, mid, after;
		unsigned long i, pfn, r0 = reclaimed_now();
		struct page *page;
		bool clean = true;

		mm_get_stats(&before);
		page = alloc_pages(order);
		KT_ASSERT_TRUE(t, page != NULL);
		pfn = page_to_pfn(page);
		mm_get_stats(&mid);
		KT_EXPECT_EQ(t, pfn & ((1UL << order) - 1), 0);
		KT_EXPECT_EQ(t, page_count(page), 1);
		KT_EXPECT_EQ(t, mid.free + (1UL << order), before.free + (mid.reclaimed - r0));
		for (i = 0; i < (1UL << order); i++)
			clean &=
				!(page[i].flags & (BIT(PG_buddy) | BIT(PG_reserved) | BIT(PG_lru)));
		KT_EXPECT_TRUE(t, clean);
		free_pages(page, order);
		mm_get_stats(&after);
		if (after.reclaimed == r0) {
			/* Coalescing undoes the split exactly. */
			for (i = 0; i < MAX_ORDER; i++)
				KT_EXPECT_EQ(t, after.free_per_order[i], before.free_per_order[i]);
		}
		KT_EXPECT_EQ(t, after.free, before.free + (after.reclaimed - r0));
	}
}

static void test_free_counts_add_up(struct ktest *t)
{
	struct mm_stats st;
	unsigned long sum = 0;
	int o;

	mm_get_stats(&st);
	for (o = 0; o < MAX_ORDER; o++)
		sum += st.free_per_order[o] << o;
	KT_EXPECT_EQ(t, sum, st.free);
	KT_EXPECT_LE(t, st.free, st.total);
	KT_EXPECT_GT(t, st.total, 0);
}

#define NR_BLOCKS 256
#define TAG_MAGIC 0x6d6d7465737421ULL

static void test_blocks_disjoint(struct ktest *t)
{
	LIST_HEAD(held);
	struct page *page, *next;
	struct mm_stats before, after;
	unsigned long id, r0 = reclaimed_now(), bad = 0;

	mm_get_stats(&before);
	for (id = 0; id < NR_BLOCKS; id++) {
		unsigned int order = id % 5, i;

		page = alloc_pages(order);
		KT_ASSERT_TRUE(t, page != NULL);
		page->private = id; /* ours while we own the page */
		list_add_tail(&page->lru, &held);
		for (i = 0; i < (1U << order); i++) {
			uint64_t *tag = page_address(page + i);

			tag[0] = TAG_MAGIC;
			tag[1] = (id << 16) | i;
		}
	}
	/* Overlapping blocks would have overwritten each other's tags. */
	id = 0;
	list_for_each_entry (page, &held, lru) {
		unsigned int i;

		for (i = 0; i < (1U << page->order); i++) {
			uint64_t *tag = page_address(page + i);

			bad += tag[0] != TAG_MAGIC || tag[1] != ((page->private << 16) | i);
		}
		id++;
	}
	KT_EXPECT_EQ(t, bad, 0);
	KT_EXPECT_EQ(t, id, NR_BLOCKS);
	list_for_each_entry_safe (page, next, &held, lru) {
		list_del(&page->lru);
		page->private = 0;
		free_pages(page, page->order);
	}
	mm_get_stats(&after);
	KT_EXPECT_EQ(t, after.free, before.free + (after.reclaimed - r0));
}

#define NR_REUSE 64

static void test_flags_cleared_on_reuse(struct ktest *t)
{
	struct page *first[NR_REUSE], *again[NR_REUSE];
	unsigned long dirty = PAGE_FLAGS_CLEAR_ON_ALLOC, reused = 0, stale = 0;
	int i, j;

	for (i = 0; i < NR_REUSE; i++) {
		first[i] = alloc_page();
		KT_ASSERT_TRUE(t, first[i] != NULL);
		first[i]->flags |= dirty;
		first[i]->private = 0xdead;
		first[i]->index = 77;
	}
	for (i = 0; i < NR_REUSE; i++)
		put_page(first[i]);
	for (i = 0; i < NR_REUSE; i++) {
		again[i] = alloc_page();
		KT_ASSERT_TRUE(t, again[i] != NULL);
		stale += (again[i]->flags & dirty) != 0 || again[i]->private != 0 ||
			 again[i]->index != 0 || page_count(again[i]) != 1 ||
			 again[i]->mapping != NULL;
		for (j = 0; j < NR_REUSE; j++)
			reused += again[i] == first[j];
	}
	KT_EXPECT_EQ(t, stale, 0);
	/* Freed pages go to the head of the free lists: the test really saw reuse. */
	KT_EXPECT_GT(t, reused, NR_REUSE / 2);
	for (i = 0; i < NR_REUSE; i++)
		put_page(again[i]);
}

static bool phys_in(uint64_t pa, uint64_t base, uint64_t len)
{
	return pa + PAGE_SIZE > base && pa < base + len;
}

/*
 * Take every free frame (reclaim empties the page cache on the way): none
 * may be reserved, frame 0, inside the memmap or inside a range mm_init
 * was told to keep; then the allocator must say no, and take them all back.
 */
static void test_exhaustion_never_returns_reserved(struct ktest *t)
{
	const struct mem_region *rsv;
	struct mem_region mm = mm_memmap_region();
	int nr_rsv = mm_reserved_regions(&rsv), i;
	struct mm_stats before, empty, after;
	unsigned long got = 0, bad = 0, r0 = reclaimed_now();
	LIST_HEAD(held);
	struct page *page, *next;

	mm_get_stats(&before);
	while ((page = alloc_page()) != NULL) {
		uint64_t pa = (uint64_t)page_to_pfn(page) << PAGE_SHIFT;

		got++;
		list_add(&page->lru, &held);
		if (pa == 0 || PageReserved(page) || phys_in(pa, mm.base, mm.len)) {
			bad++;
			continue;
		}
		for (i = 0; i < nr_rsv; i++)
			bad += phys_in(pa, rsv[i].base, rsv[i].len);
	}
	mm_get_stats(&empty);
	KT_EXPECT_EQ(t, bad, 0);
	KT_EXPECT_EQ(t, empty.free, 0);
	KT_EXPECT_EQ(t, got, before.free + (empty.reclaimed - r0));
	KT_EXPECT_TRUE(t, alloc_pages(0) == NULL);
	KT_EXPECT_TRUE(t, alloc_pages(4) == NULL);
	KT_EXPECT_TRUE(t, kmalloc(PAGE_SIZE) == NULL);
	list_for_each_entry_safe (page, next, &held, lru) {
		list_del(&page->lru);
		put_page(page);
	}
	mm_get_stats(&after);
	KT_EXPECT_EQ(t, after.free, before.free + (after.reclaimed - r0));
	page = alloc_pages(MAX_ORDER - 1);
	KT_EXPECT_TRUE(t, page != NULL);
	free_pages(page, MAX_ORDER - 1);
}

static void test_bad_requests_refused(struct ktest *t)
{
	unsigned long free0;
	struct mem_region mm = mm_memmap_region();
	struct page *memmap_frame = pfn_to_page(mm.base >> PAGE_SHIFT), *page, *other;
	struct mm_stats st;

	pr_info("    # the next six error lines are expected\n");
	KT_EXPECT_TRUE(t, alloc_pages(MAX_ORDER) == NULL);
	KT_EXPECT_TRUE(t, alloc_pages(1000) == NULL);

	mm_get_stats(&st);
	free0 = st.free;
	KT_EXPECT_TRUE(t, PageReserved(memmap_frame));
	free_pages(memmap_frame, 0); /* reserved: refused */
	page = alloc_page();
	KT_ASSERT_TRUE(t, page != NULL);
	free_pages(page, 1); /* wrong order: refused */
	mm_get_stats(&st);
	KT_EXPECT_EQ(t, st.free, free0 - 1);
	KT_EXPECT_EQ(t, page_count(page), 1);
	put_page(page);
	free_pages(page, 0); /* double free: refused */
	put_page(page);	     /* count below zero: refused */
	mm_get_stats(&st);
	KT_EXPECT_EQ(t, st.free, free0);
	KT_EXPECT_EQ(t, page_count(page), 0);
	/* The allocator is still sound: the page comes back exactly once. */
	page = alloc_pages(0);
	KT_ASSERT_TRUE(t, page != NULL);
	other = alloc_pages(0);
	KT_ASSERT_TRUE(t, other != NULL);
	KT_EXPECT_TRUE(t, other != page);
	put_page(other);
	put_page(page);
}

/*
 * Fault injection: the n-th allocation of this thread fails, once, and is
 * reported; a kmalloc's own pages do not count twice; the last failure's
 * size is kept for messages.
 */
static void test_fail_nth(struct ktest *t)
{
	struct mm_fail_report rep;
	void *a, *b, *c, *big;
	struct page *pg;

	mm_fail_nth(3);
	a = kmalloc(100);
	big = kmalloc(3 * PAGE_SIZE); /* one allocation, though it takes 4 pages */
	b = kmalloc(200);
	c = kmalloc(300);
	KT_EXPECT_TRUE(t, a && big && !b && c);
	mm_fail_nth_report(&rep);
	KT_EXPECT_TRUE(t, rep.fired);
	KT_EXPECT_EQ(t, rep.nth, 3);
	KT_EXPECT_EQ(t, rep.bytes, 200);
	KT_EXPECT_STREQ(t, rep.what, "kmalloc");
	KT_EXPECT_EQ(t, mm_last_failure(), 200);
	KT_EXPECT_EQ(t, mm_fail_nth_calls(), 3); /* disarmed once fired: c was not counted */
	kfree(a);
	kfree(big);
	kfree(c);

	mm_fail_nth(2);
	pg = alloc_pages(1);
	KT_EXPECT_TRUE(t, pg != NULL);
	KT_EXPECT_TRUE(t, alloc_pages(2) == NULL);
	mm_fail_nth_report(&rep);
	KT_EXPECT_STREQ(t, rep.what, "alloc_pages");
	KT_EXPECT_EQ(t, rep.bytes, 4 * PAGE_SIZE);
	free_pages(pg, 1);

	/* disarmed: nothing fails */
	mm_fail_nth(5);
	mm_fail_nth(0);
	a = kmalloc(64);
	KT_EXPECT_TRUE(t, a != NULL);
	mm_fail_nth_report(&rep);
	KT_EXPECT_TRUE(t, !rep.fired);
	kfree(a);
}

KTEST_SUITE(mm_alloc, mm_suite_ready, KTEST_CASE(test_every_order_aligned_and_counted),
	    KTEST_CASE(test_free_counts_add_up), KTEST_CASE(test_blocks_disjoint),
	    KTEST_CASE(test_flags_cleared_on_reuse),
	    KTEST_CASE(test_exhaustion_never_returns_reserved),
	    KTEST_CASE(test_bad_requests_refused), KTEST_CASE(test_fail_nth));
