/*
 * Host-only allocator suite: each case rebuilds mm on a small arena whose
 * layout it chooses, so free counts are exact. Split and coalesce counts,
 * exhaustion, holes, frame 0 and unaligned reserved ranges never handed
 * out, flags cleared on every reused frame, mm_init's refusals, and the
 * page cache's pool beside the buddy lists: the page cache reclaims its
 * own frames, the kernel's allocations never touch them.
 */
#include "tests/common/test_mm_helpers.h"

#define B	      MM_HOST_PHYS_BASE
#define MIB	      (1ULL << 20)
#define KIB	      (1ULL << 10)
/* An allocation below the low watermark reclaims up to high, at least this many. */
#define RECLAIM_BATCH 32
/* The pool the page-cache cases give the page cache: a quarter of one_block_layout()'s block. */
#define POOL_PAGES    256

/*
 * [B, B+128K) holds exactly the memmap of the 2048-frame span; [B+4M,
 * B+8M) is one aligned order-10 block; in between is a hole.
 */
static bool one_block_layout(void)
{
	struct mem_region usable[] = {{B, 128 * KIB}, {B + 4 * MIB, 4 * MIB}};

	return mm_host_arena(B, 8 * MIB) && mm_init(usable, 2, NULL, 0) == 0;
}

static void expect_orders(struct ktest *t, const unsigned long *want)
{
	struct mm_stats st;
	int o;

	mm_get_stats(&st);
	for (o = 0; o < MAX_ORDER; o++)
		if (st.free_per_order[o] != want[o])
			KT_FAIL(t, "order %d: %lu free blocks, expected %lu", o,
				st.free_per_order[o], want[o]);
}

static void test_split_exact(struct ktest *t)
{
	unsigned long want[MAX_ORDER] = {0};
	struct page *a, *b, *c;
	unsigned long base_pfn = (B + 4 * MIB) >> PAGE_SHIFT;
	struct mm_stats st;
	int o;

	KT_ASSERT_TRUE(t, one_block_layout());
	mm_get_stats(&st);
	KT_EXPECT_EQ(t, st.total, 1024);
	KT_EXPECT_EQ(t, st.reserved, 32); /* the memmap */
	want[10] = 1;
	expect_orders(t, want);

	a = alloc_page();
	KT_ASSERT_TRUE(t, a != NULL);
	KT_EXPECT_EQ(t, page_to_pfn(a), base_pfn);
	for (o = 0; o < 10; o++)
		want[o] = 1; /* 1 + 1 + 2 + 4 + ... + 512 = 1023 */
	want[10] = 0;
	expect_orders(t, want);

	b = alloc_page(); /* the order-0 buddy */
	KT_ASSERT_TRUE(t, b != NULL);
	KT_EXPECT_EQ(t, page_to_pfn(b), base_pfn + 1);
	want[0] = 0;
	expect_orders(t, want);

	c = alloc_pages(3); /* the free order-3 block at +8, taken whole */
	KT_ASSERT_TRUE(t, c != NULL);
	KT_EXPECT_EQ(t, page_to_pfn(c), base_pfn + 8);
	want[3] = 0;
	expect_orders(t, want);
	put_page(c);
	put_page(b);
	put_page(a);
	for (o = 0; o < 10; o++)
		want[o] = 0;
	want[10] = 1;
	expect_orders(t, want);
}

static void test_coalesce_any_free_order(struct ktest *t)
{
	static struct page *pages[1024];
	unsigned long want[MAX_ORDER] = {0};
	unsigned int i;

	KT_ASSERT_TRUE(t, one_block_layout());
	for (i = 0; i < 1024; i++) {
		pages[i] = alloc_page();
		KT_ASSERT_TRUE(t, pages[i] != NULL);
	}
	expect_orders(t, want);
	/* Even frames first: no buddy is free, nothing merges. */
	for (i = 0; i < 1024; i++)
		if ((page_to_pfn(pages[i]) & 1) == 0)
			put_page(pages[i]);
	want[0] = 512;
	expect_orders(t, want);
	for (i = 0; i < 1024; i++)
		if (page_to_pfn(pages[i]) & 1)
			put_page(pages[i]);
	want[0] = 0;
	want[10] = 1;
	expect_orders(t, want);
}

static void test_exhaustion_exact(struct ktest *t)
{
	static struct page *pages[1024];
	struct mm_stats st;
	unsigned int i;

	KT_ASSERT_TRUE(t, one_block_layout());
	for (i = 0; i < 1024; i++) {
		pages[i] = alloc_page();
		KT_ASSERT_TRUE(t, pages[i] != NULL);
	}
	KT_EXPECT_TRUE(t, alloc_page() == NULL);
	KT_EXPECT_TRUE(t, alloc_pages(10) == NULL);
	KT_EXPECT_EQ(t, __get_free_pages(0), 0);
	mm_get_stats(&st);
	KT_EXPECT_EQ(t, st.free, 0);
	for (i = 0; i < 1024; i++)
		put_page(pages[i]);
	KT_EXPECT_TRUE(t, (pages[0] = alloc_pages(10)) != NULL);
	free_pages(pages[0], 10);
}

/* Blocks never grow across a hole: a one-frame gap in the middle of a 4 MiB span. */
static void test_holes_split_blocks(struct ktest *t)
{
	struct mem_region usable[] = {{B, 2 * MIB}, {B + 2 * MIB + 4 * KIB, 2 * MIB - 4 * KIB}};
	unsigned long hole = (B + 2 * MIB) >> PAGE_SHIFT;
	struct page *a, *b;
	struct mm_stats st;

	KT_ASSERT_TRUE(t, mm_host_arena(B, 4 * MIB) != NULL);
	KT_ASSERT_EQ(t, mm_init(usable, 2, NULL, 0), 0);
	mm_get_stats(&st);
	KT_EXPECT_EQ(t, st.total, 1024 - 1 - 16); /* minus the hole and the memmap */
	KT_EXPECT_EQ(t, st.free_per_order[10], 0);
	KT_EXPECT_EQ(t, st.free_per_order[9], 0);
	KT_EXPECT_TRUE(t, alloc_pages(10) == NULL);
	KT_EXPECT_TRUE(t, alloc_pages(9) == NULL);
	a = alloc_pages(8);
	b = alloc_pages(8);
	KT_ASSERT_TRUE(t, a && b);
	KT_EXPECT_TRUE(t, hole < page_to_pfn(a) || hole >= page_to_pfn(a) + 256);
	KT_EXPECT_TRUE(t, hole < page_to_pfn(b) || hole >= page_to_pfn(b) + 256);
	KT_EXPECT_TRUE(t, alloc_pages(8) == NULL);
	KT_EXPECT_TRUE(t, PageReserved(pfn_to_page(hole)));
	free_pages(a, 8);
	free_pages(b, 8);
}

/*
 * Physical address 0 is in the arena: frame 0 and four unaligned reserved
 * ranges must never come back, whatever their byte boundaries.
 */
static void test_reserved_and_frame0_never_returned(struct ktest *t)
{
	static const struct mem_region rsv[] = {
		{0x1234, 0x10},	    /* inside frame 1 */
		{0x100000 - 1, 2},  /* straddles frames 0xff and 0x100 */
		{0x300800, 0x1800}, /* frames 0x300 and 0x301 */
		{0x7ff000, 0x1000}, /* the last frame */
	};
	struct mem_region usable[] = {{0, 8 * MIB}};
	static bool is_reserved[2048];
	struct mem_region mm;
	unsigned long got = 0, bad = 0, expect_reserved = 0, i;
	struct mm_stats st;
	struct page *p;
	LIST_HEAD(held);

	KT_ASSERT_TRUE(t, mm_host_arena(0, 8 * MIB) != NULL);
	KT_ASSERT_EQ(t, mm_init(usable, 1, rsv, ARRAY_SIZE(rsv)), 0);
	mm = mm_memmap_region();
	memset(is_reserved, 0, sizeof(is_reserved));
	is_reserved[0] = true;
	for (i = 0; i < ARRAY_SIZE(rsv); i++) {
		uint64_t a;

		for (a = rsv[i].base & ~(PAGE_SIZE - 1); a < rsv[i].base + rsv[i].len;
		     a += PAGE_SIZE)
			is_reserved[a >> PAGE_SHIFT] = true;
	}
	for (i = mm.base >> PAGE_SHIFT; i < (mm.base + mm.len) >> PAGE_SHIFT; i++)
		is_reserved[i] = true;
	KT_EXPECT_GE(t, mm.base, PAGE_SIZE);
	for (i = 0; i < 2048; i++)
		expect_reserved += is_reserved[i];
	KT_EXPECT_EQ(t, expect_reserved, 1 + 1 + 2 + 2 + 1 + 32);
	mm_get_stats(&st);
	KT_EXPECT_EQ(t, st.reserved, expect_reserved);
	KT_EXPECT_EQ(t, st.total, 2048 - expect_reserved);

	while ((p = alloc_page()) != NULL) {
		got++;
		bad += is_reserved[page_to_pfn(p)];
		list_add(&p->lru, &held);
	}
	KT_EXPECT_EQ(t, bad, 0);
	KT_EXPECT_EQ(t, got, 2048 - expect_reserved);
	while (!list_empty(&held)) {
		p = list_first_entry(&held, struct page, lru);
		list_del(&p->lru);
		put_page(p);
	}
}

static void test_flags_cleared_on_every_frame(struct ktest *t)
{
	static struct page *pages[1024];
	unsigned int i, stale = 0;

	KT_ASSERT_TRUE(t, one_block_layout());
	for (i = 0; i < 1024; i++) {
		pages[i] = alloc_page();
		KT_ASSERT_TRUE(t, pages[i] != NULL);
		pages[i]->flags |= PAGE_FLAGS_CLEAR_ON_ALLOC;
		pages[i]->private = i + 1;
	}
	for (i = 0; i < 1024; i++)
		put_page(pages[i]);
	for (i = 0; i < 1024; i++) {
		pages[i] = alloc_page();
		KT_ASSERT_TRUE(t, pages[i] != NULL);
		stale += (pages[i]->flags & PAGE_FLAGS_CLEAR_ON_ALLOC) || pages[i]->private ||
			 page_count(pages[i]) != 1;
	}
	KT_EXPECT_EQ(t, stale, 0);
	for (i = 0; i < 1024; i++)
		put_page(pages[i]);
}

static void test_mm_init_refusals(struct ktest *t)
{
	struct mem_region ok[] = {{B, 4 * MIB}};
	struct mem_region zero[] = {{B, 0}};
	struct mem_region wrap[] = {{~0ULL - 4096, 8192}};
	struct mem_region tiny[] = {{B + 100, 4000}};
	struct mem_region all[] = {{B, 4 * MIB}};
	struct mem_region many[MM_MAX_REGIONS + 1];

	KT_ASSERT_TRUE(t, mm_host_arena(B, 4 * MIB) != NULL);
	pr_info("    # the next seven error lines are expected\n");
	KT_EXPECT_EQ(t, mm_init(ok, 0, NULL, 0), -EINVAL);
	KT_EXPECT_EQ(t, mm_init(zero, 1, NULL, 0), -EINVAL);
	KT_EXPECT_EQ(t, mm_init(wrap, 1, NULL, 0), -EINVAL);
	KT_EXPECT_EQ(t, mm_init(tiny, 1, NULL, 0), -EINVAL);
	KT_EXPECT_EQ(t, mm_init(ok, 1, all, 1), -ENOMEM); /* no room for the memmap */
	memset(many, 0, sizeof(many));
	KT_EXPECT_EQ(t, mm_init(many, MM_MAX_REGIONS + 1, NULL, 0), -EINVAL);
	KT_EXPECT_TRUE(t, !mm_ready());
	KT_EXPECT_TRUE(t, alloc_page() == NULL);
	KT_EXPECT_EQ(t, mm_init(ok, 1, NULL, 0), 0);
	KT_EXPECT_TRUE(t, mm_ready());
	/* Regions trimmed to nothing (as boot code does above the mapped RAM) are fine. */
	many[0] = ok[0];
	KT_EXPECT_EQ(t, mm_init(many, 3, zero, 1), 0);
	KT_EXPECT_TRUE(t, mm_ready());
}

/*
 * The page cache reclaims its own pool's pages instead of failing, and
 * stays within the pool; the kernel's allocations take the buddy lists'
 * frames only, fail when those are gone, and never evict the cache.
 */
static void test_allocation_reclaims(struct ktest *t)
{
	struct fake_file ff;
	struct mm_stats st0, st1;
	unsigned long i, n = 5000, kernel = 0;
	void *obj;
	LIST_HEAD(held);
	struct page *p;

	KT_ASSERT_TRUE(t, one_block_layout());
	KT_ASSERT_EQ(t, cache_pool_init(POOL_PAGES), 0);
	KT_ASSERT_EQ(t, fake_file_init(&ff, "reclaim", 1, n), 0);
	mm_get_stats(&st0);
	KT_EXPECT_EQ(t, st0.cache_pool, POOL_PAGES);
	/* the file's page index is a workload's object: pool frames, as Linux's radix nodes */
	KT_EXPECT_GT(t, st0.kernel_objs, 0);
	KT_EXPECT_EQ(t, st0.cache_free + st0.kernel_objs, POOL_PAGES);
	for (i = 0; i < n; i++)
		KT_ASSERT_TRUE(t, cache_new_page(&ff.mapping, i, true) != NULL);
	mm_get_stats(&st1);
	KT_EXPECT_GE(t, st1.reclaimed, n - POOL_PAGES);
	KT_EXPECT_LE(t, st1.cached, POOL_PAGES);
	KT_EXPECT_GE(t, st1.cache_free, st1.wmark_low - 1);
	KT_EXPECT_LE(t, st1.cache_free, st1.wmark_high + RECLAIM_BATCH);
	/* the buddy lists gave the pool its frames once and nothing since (the index: slab) */
	KT_EXPECT_LE(t, st1.free, st0.free);

	/* The kernel's allocations take only the buddy's frames, leaving the cache alone. */
	while ((obj = kmalloc(PAGE_SIZE)) != NULL) {
		p = virt_to_page(obj); /* a whole page: its lru link is free */
		list_add(&p->lru, &held);
		kernel++;
	}
	mm_get_stats(&st0);
	KT_EXPECT_EQ(t, st0.free, 0);
	KT_EXPECT_GT(t, kernel, 0);
	KT_EXPECT_EQ(t, st0.reclaimed, st1.reclaimed);
	KT_EXPECT_EQ(t, st0.cached, st1.cached);
	KT_EXPECT_TRUE(t, alloc_page() == NULL);
	/* The page cache still gets frames: from its pool, reclaiming. */
	for (i = 0; i < 2 * POOL_PAGES; i++)
		KT_EXPECT_TRUE(t, cache_new_page(&ff.mapping, n + i, true) != NULL);
	mm_get_stats(&st1);
	KT_EXPECT_GT(t, st1.reclaimed, st0.reclaimed);
	while (!list_empty(&held)) {
		p = list_first_entry(&held, struct page, lru);
		list_del(&p->lru);
		kfree(page_address(p));
	}
	address_space_release(&ff.mapping);
}

/* With every cached page in use there is nothing to reclaim: NULL, not a hang. */
static void test_oom_when_nothing_reclaimable(struct ktest *t)
{
	struct mm_stats st;
	struct fake_file ff;
	unsigned long i, cached = 0;
	struct page *p;

	KT_ASSERT_TRUE(t, one_block_layout());
	KT_ASSERT_EQ(t, cache_pool_init(POOL_PAGES), 0);
	KT_ASSERT_EQ(t, fake_file_init(&ff, "pinned", 1, 2000), 0);
	for (i = 0; i < 2000; i++) {
		p = page_cache_alloc(&ff.mapping);
		if (!p)
			break;
		KT_ASSERT_EQ(t, add_to_page_cache_lru(p, &ff.mapping, i), 0);
		unlock_page(p); /* keep our reference: pinned */
		cached++;
	}
	mm_get_stats(&st);
	/* every frame holds a pinned page or the file's page index (pool frames too) */
	KT_EXPECT_EQ(t, cached + st.kernel_objs, POOL_PAGES);
	KT_EXPECT_TRUE(t, page_cache_alloc(&ff.mapping) == NULL);
	for (i = 0; i < cached; i++) {
		p = find_get_page(&ff.mapping, i);
		KT_ASSERT_TRUE(t, p != NULL);
		put_page(p);
		put_page(p); /* the pin */
	}
	KT_EXPECT_EQ(t, shrink_page_cache(cached), cached);
	address_space_release(&ff.mapping);
}

/* Page-cache pressure never splits the kernel's large blocks: they stay whole. */
static void test_high_order_under_pressure(struct ktest *t)
{
	struct fake_file ff;
	struct mm_stats st0, st;
	struct page *big;
	unsigned long i, n;

	KT_ASSERT_EQ(t, mm_host_init(16 * MIB), 0);
	mm_get_stats(&st0);
	n = 2 * st0.cache_pool;
	KT_ASSERT_EQ(t, fake_file_init(&ff, "pressure", 1, n), 0);
	for (i = 0; i < n; i++)
		KT_ASSERT_TRUE(t, cache_new_page(&ff.mapping, i, true) != NULL);
	mm_get_stats(&st);
	KT_EXPECT_GE(t, st.reclaimed, n - st0.cache_pool);
	KT_EXPECT_EQ(t, st.free_per_order[10], st0.free_per_order[10]);
	big = alloc_pages(8);
	KT_EXPECT_TRUE(t, big != NULL);
	if (big)
		free_pages(big, 8);
	address_space_release(&ff.mapping);
}

/* The pool's default size is a function of RAM alone. */
static void test_pool_default(struct ktest *t)
{
	KT_EXPECT_EQ(t, cache_pool_default_pages(16 * MIB), 1024);
	/* 128 MiB: less 12 MiB below the heap, a heap of 8 + 2 MiB and 4 MiB at the top */
	KT_EXPECT_EQ(t, cache_pool_default_pages(128 * MIB), (128 - 12 - 10 - 4) * 256);
	/* 2 GiB: the heap 8 + 32 MiB, and the 32 MiB memmap at the top too */
	KT_EXPECT_EQ(t, cache_pool_default_pages(2048 * MIB), (2048 - 12 - 40 - 4 - 32) * 256);
	KT_EXPECT_EQ(t, cache_pool_init(63), -EINVAL);
}

/*
 * A workload's objects (GFP_WORKLOAD) come out of the page cache's pool, and
 * the page cache gives way to them: with the pool full of cached pages, the
 * objects still come, by reclaim; they are counted as kernel objects, not
 * page cache, and given back they leave the pool whole. Page-sized ones are
 * a frame each (ksize a page, whatever the frame's pool number).
 */
static void test_workload_objects_from_pool(struct ktest *t)
{
	struct fake_file ff;
	struct mm_stats st0, st1, st2;
	unsigned long i, n = 2000;
	void *small[600], *page[20];

	KT_ASSERT_TRUE(t, one_block_layout());
	KT_ASSERT_EQ(t, cache_pool_init(POOL_PAGES), 0);
	KT_ASSERT_EQ(t, fake_file_init(&ff, "giveway", 1, n), 0);
	for (i = 0; i < n; i++)
		KT_ASSERT_TRUE(t, cache_new_page(&ff.mapping, i, true) != NULL);
	mm_get_stats(&st0);
	for (i = 0; i < ARRAY_SIZE(small); i++)
		KT_ASSERT_TRUE(t, (small[i] = kmalloc(512, GFP_WORKLOAD)) != NULL);
	for (i = 0; i < ARRAY_SIZE(page); i++) {
		KT_ASSERT_TRUE(t, (page[i] = kmalloc(PAGE_SIZE, GFP_WORKLOAD)) != NULL);
		KT_EXPECT_EQ(t, ksize(page[i]), PAGE_SIZE);
	}
	mm_get_stats(&st1);
	/* 600 objects of 512 bytes: 75 slabs; 20 frames of their own */
	KT_EXPECT_EQ(t, st1.kernel_objs - st0.kernel_objs, 75 + 20);
	KT_EXPECT_EQ(t, st1.kernel_obj_slab - st0.kernel_obj_slab, 75 + 20);
	KT_EXPECT_GT(t, st1.reclaimed, st0.reclaimed); /* the page cache gave way */
	KT_EXPECT_EQ(t, st1.cached + st1.kernel_objs + st1.cache_free, POOL_PAGES);
	KT_EXPECT_EQ(t, st1.free, st0.free);		/* the heap untouched */
	for (i = 0; i < ARRAY_SIZE(small); i++)
		kfree(small[i]);
	for (i = 0; i < ARRAY_SIZE(page); i++)
		kfree(page[i]);
	mm_get_stats(&st2);
	KT_EXPECT_EQ(t, st2.kernel_objs, st0.kernel_objs); /* empty slabs back at once */
	KT_EXPECT_EQ(t, st2.cached + st2.kernel_objs + st2.cache_free, POOL_PAGES);
	address_space_release(&ff.mapping);
}

KTEST_SUITE(mm_buddy_host, NULL, KTEST_CASE(test_split_exact),
	    KTEST_CASE(test_coalesce_any_free_order), KTEST_CASE(test_exhaustion_exact),
	    KTEST_CASE(test_holes_split_blocks),
	    KTEST_CASE(test_reserved_and_frame0_never_returned),
	    KTEST_CASE(test_flags_cleared_on_every_frame), KTEST_CASE(test_mm_init_refusals),
	    KTEST_CASE(test_allocation_reclaims), KTEST_CASE(test_high_order_under_pressure),
	    KTEST_CASE(test_oom_when_nothing_reclaimable), KTEST_CASE(test_pool_default),
	    KTEST_CASE(test_workload_objects_from_pool));
