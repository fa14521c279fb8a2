/*
 * The page cache's frames: a pool of a fixed number of 4 KiB frames, set
 * by the run's keys (mem=, pagecache=), never by what the kernel image or
 * its heap happen to leave.
 *
 *	boot:   buddy lists --cache_pool_init(N)--> [pool: N frames]
 *	read:   page_cache_alloc() pops a frame; below the low watermark it
 *	        first reclaims page cache back up to the high one (vmscan.c)
 *	object: cache_pool_alloc_kernel() the same, for a workload's object
 *	evict:  the last put_page() of a pool frame pushes it back
 *
 * Why a pool: with one allocator for everything, the page cache held
 * whatever the kernel left free, so a larger kernel image, a trace ring or
 * a benchmark's sample arrays evicted pages earlier and moved every
 * figure that thrashes the cache (adding a 40 KB array moved 94 of 158
 * RESULT fields of the quick suite). Now the kernel's own allocations and
 * the instruments' come from the buddy lists beside the pool and cannot
 * touch it, while what a workload creates (its threads' stacks, open files,
 * buffers: mm/kobj.c, GFP_WORKLOAD) takes pool frames through
 * cache_pool_alloc_kernel(), the page cache giving way to it as Linux's
 * does (the same watermarks and reclaim); and the
 * pool is a LIFO list, so taking or giving back a frame costs the same
 * instructions whatever the physical layout (on the virtual clock an
 * instruction is a nanosecond), and each frame has a number of its own in
 * the pool (page->pool_nr) that code hashing pages uses instead of their
 * address (the page lock's wait queues): a run's instruction count does not
 * depend on where in RAM the kernel put the memmap or the pool.
 *
 * Where it lies (mm_layout_for(), a function of RAM alone: RAM is mem=, or
 * the top of usable RAM rounded up to 2 MiB):
 *
 *   0   1M            12M             12M+K             12M+K+P       RAM
 *   |BIOS|image, memmap |  kernel heap  |  page cache pool  | firmware, |
 *   |    |  (unused)    |  K = 8 MiB +  |  P: the rest      | big memmap|
 *   |    |              |     RAM/64    |                   | 4 MiB     |
 *
 * The kernel's own allocations come from the heap, a buddy allocator over
 * [12 MiB, 12 MiB + K) alone (mm_init_window()): its blocks, and so the
 * instructions every allocation and free take, are the same whatever the
 * image's size or the firmware's memory map; the rest of usable RAM is left
 * unused. Below 64 MiB of RAM there is no such layout: the pool is a
 * quarter of RAM and the heap all the rest. pagecache=SIZE sets the pool
 * outright. The watermarks are Linux 2.6's rule over the pool:
 * min = sqrt(16 * pool KiB) KiB, low = 5/4 min, high = 3/2 min. Only a
 * readahead folio of an algorithm that allocates them (RA_ALGO_FOLIOS:
 * page_cache_alloc_folio()) tests the min watermark; it is Linux's
 * __GFP_NORETRY, failing where every other allocation reclaims.
 */
#include <limits.h>
#include <string.h>

#include "kernel/log.h"
#include "kernel/sync.h"
#include "mm/internal.h"

static struct list_head pool_list;
static unsigned long pool_pages, pool_free, pool_wmark_min, pool_wmark_low, pool_wmark_high;
static unsigned long pool_allocs, pool_failures;
/* __GFP_NORETRY folio allocations (page_cache_alloc_folio()) that failed, by order */
static unsigned long pool_noretry_failures[MAX_ORDER];
/* frames the kernel's objects hold (cache_pool_alloc_kernel()), and its failures */
static unsigned long pool_kernel, pool_kernel_failures;
static bool pool_up;

/* A frame's nominal memmap cost, fixed so that the layout does not move with struct page. */
#define NOMINAL_PAGE_STRUCT 64ULL
#define MIB		    (1ULL << 20)

void mm_layout_for(uint64_t ram, struct mm_layout *lay)
{
	uint64_t memmap = ALIGN_UP(ram / PAGE_SIZE * NOMINAL_PAGE_STRUCT, PAGE_SIZE);
	/* firmware tables at the top of RAM (QEMU's: 132 KiB), and a memmap too big for below */
	uint64_t slack = 4 * MIB + (memmap > 4 * MIB ? memmap : 0);
	uint64_t pool;

	lay->heap_base = MM_LAYOUT_HEAP_BASE;
	lay->heap_bytes = ALIGN_UP(8 * MIB + ram / 64, PAGE_SIZE);
	lay->canonical = ram >= 64 * MIB;
	if (lay->canonical) {
		pool = ram - lay->heap_base - lay->heap_bytes - slack;
		lay->pool_pages = (unsigned long)(pool / PAGE_SIZE);
	} else {
		lay->pool_pages = (unsigned long)(ram / 4 / PAGE_SIZE);
	}
}

unsigned long cache_pool_default_pages(uint64_t ram)
{
	struct mm_layout lay;

	mm_layout_for(ram, &lay);
	return lay.pool_pages;
}

static unsigned long isqrt_ul(unsigned long n)
{
	unsigned long r = 0, bit = 1UL << 62;

	while (bit > n)
		bit >>= 2;
	while (bit) {
		if (n >= r + bit) {
			n -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return r;
}

/* Give every frame of the pool back to the buddy lists (host re-init, tests). */
static void pool_release(void)
{
	while (!list_empty(&pool_list)) {
		struct page *page = list_first_entry(&pool_list, struct page, lru);

		list_del(&page->lru);
		ClearPageCachePool(page);
		page->order = 0;
		page->_refcount = 1;
		free_pages(page, 0);
	}
}

int cache_pool_init(unsigned long pages)
{
	unsigned long i, min_kb, pfn;

	if (pool_up && pool_free != pool_pages) {
		pr_err("cache_pool_init: %lu of the pool's pages are still in use\n",
		       pool_pages - pool_free);
		return -EBUSY;
	}
	if (pool_up)
		pool_release();
	INIT_LIST_HEAD(&pool_list);
	pool_pages = pool_free = pool_allocs = pool_failures = 0;
	pool_kernel = pool_kernel_failures = 0;
	memset(pool_noretry_failures, 0, sizeof(pool_noretry_failures));
	pool_up = false;
	if (pages < 64) {
		pr_err("page cache: %lu pages is too few (at least 64)\n", pages);
		return -EINVAL;
	}
	/*
	 * From the top of RAM down, frame by frame: pool frame i is the i-th
	 * free frame below the top, so which frames are neighbours in RAM (the
	 * AHCI driver merges neighbours into one PRD entry, which counts
	 * instructions) is the same whatever the kernel's size, and the same
	 * for QEMU's -m 128M as for -m 256M with mem=128M.
	 */
	for (i = 0, pfn = mem_max_pfn; i < pages; i++) {
		struct page *page = NULL;

		while (!page && pfn > mem_min_pfn)
			page = alloc_frame_at(--pfn);
		if (!page) {
			unsigned long got = i;

			pool_up = true;
			pool_pages = pool_free = got;
			pool_release();
			pool_pages = pool_free = 0;
			pool_up = false;
			pr_err("page cache: %lu pages (%lu KiB) do not fit: the allocator had %lu "
			       "free\n", pages, pages * (PAGE_SIZE / 1024), got);
			return -ENOMEM;
		}
		page->_refcount = 0;
		page->pool_nr = (uint32_t)i;
		SetPageCachePool(page);
		/* tail insertion: frames go out in the order the buddy lists gave them */
		list_add_tail(&page->lru, &pool_list);
	}
	pool_pages = pool_free = pages;
	min_kb = clamp(isqrt_ul(pages * (PAGE_SIZE / 1024) * 16), 128UL, 65536UL);
	pool_wmark_min = min_kb / (PAGE_SIZE / 1024);
	pool_wmark_low = min_kb / (PAGE_SIZE / 1024) * 5 / 4;
	pool_wmark_high = min_kb / (PAGE_SIZE / 1024) * 3 / 2;
	pool_up = true;
	return 0;
}

void cache_pool_forget(void)
{
	INIT_LIST_HEAD(&pool_list);
	pool_pages = pool_free = pool_allocs = pool_failures = 0;
	pool_kernel = pool_kernel_failures = 0;
	pool_up = false;
}

unsigned long cache_pool_pages(void)
{
	return pool_pages;
}

/* The frame's state as a fresh allocation (prep_new_page()'s rules); false if corrupt. */
static bool pool_prep(struct page *page)
{
	if (unlikely(page->flags & (BIT(PG_reserved) | BIT(PG_buddy) | BIT(PG_lru) |
				    BIT(PG_slab) | BIT(PG_locked)) ||
		     page->_refcount != 0 || page->mapping)) {
		pr_err("page_cache_alloc: pool frame %#lx is corrupt: flags %#lx count %d\n",
		       page_to_pfn(page), page->flags, page_count(page));
		return false;
	}
	page->flags &= ~PAGE_FLAGS_CLEAR_ON_ALLOC;
	page->private = 0;
	page->index = 0;
	page->cache_next = NULL;
	page->_refcount = 1;
	return true;
}

static struct page *pool_pop(void)
{
	unsigned long flags = local_irq_save();
	struct page *page = NULL;

	if (!list_empty(&pool_list)) {
		page = list_first_entry(&pool_list, struct page, lru);
		list_del(&page->lru);
		pool_free--;
	}
	local_irq_restore(flags);
	return page;
}

/*
 * A frame of the pool: below the low watermark the page cache is first
 * reclaimed back up to the high one, and when the pool is empty it is
 * reclaimed again, a batch at a time, until a frame is free or nothing is
 * left to reclaim.
 */
static struct page *pool_alloc(void)
{
	bool may_reclaim = !irqs_masked();
	struct page *page;

	if (may_reclaim && READ_ONCE(pool_free) < pool_wmark_low + 1)
		reclaim_pages(max(pool_wmark_high + 1 - READ_ONCE(pool_free), SWAP_CLUSTER_MAX));
	for (;;) {
		page = pool_pop();
		if (page) {
			if (!pool_prep(page))
				continue;	/* dropped: the pool is one frame smaller */
			return page;
		}
		if (!may_reclaim || !reclaim_pages(SWAP_CLUSTER_MAX))
			return NULL;
	}
}

struct page *page_cache_alloc(struct address_space *mapping)
{
	struct page *page;

	(void)mapping;
	if (mm_should_fail(PAGE_SIZE, "page_cache_alloc", __builtin_return_address(0))) {
		mm_note_failure(PAGE_SIZE);
		return NULL;
	}
	if (!pool_up) {
		pr_err("page_cache_alloc: no page cache pool (cache_pool_init() not called)\n");
		return NULL;
	}
	page = pool_alloc();
	if (!page) {
		pool_failures++;
		mm_note_failure(PAGE_SIZE);
		return NULL;
	}
	pool_allocs++;
	return page;
}

/*
 * Take @n frames off the pool onto @pages if that leaves at least the min
 * watermark free (zone_watermark_ok() at ALLOC_WMARK_MIN, the slowpath's
 * test); false, taking none, otherwise.
 */
static bool pool_take(unsigned long n, struct list_head *pages)
{
	unsigned long got = 0;

	while (got < n) {
		struct page *page;

		if (READ_ONCE(pool_free) < n - got + pool_wmark_min)
			break;
		page = pool_pop();
		if (!page)
			break;
		if (!pool_prep(page))
			continue;	/* dropped: the pool is one frame smaller */
		list_add_tail(&page->lru, pages);
		got++;
	}
	if (got == n)
		return true;
	/* back in reverse, so the pool's order is as it was */
	while (!list_empty(pages)) {
		struct page *page = list_last_entry(pages, struct page, lru);

		list_del(&page->lru);
		page->_refcount = 0;
		cache_pool_free(page);
	}
	return false;
}

/*
 * A readahead folio of 2^@order frames, allocated as Linux 7.2's readahead
 * allocates (ractl_alloc_folio() with readahead_gfp_mask(): __GFP_NORETRY).
 * The slowpath's one try: kswapd is woken (below the low watermark the
 * pool is reclaimed up to the high one, as for every allocation here), the
 * frames are taken if the min watermark stays free, else one round of
 * direct reclaim (SWAP_CLUSTER_MAX pages, sc->nr_to_reclaim) and one more
 * look, then failure: no retry, no reclaim until it succeeds. Frames need
 * not be contiguous: the pool has no physical layout, so a large folio
 * fails on the amount free, never on fragmentation. The frames go on
 * @pages (page->lru) with a reference each; 0 or -ENOMEM.
 */
int page_cache_alloc_folio(struct address_space *mapping, unsigned int order,
			   struct list_head *pages)
{
	bool may_reclaim = !irqs_masked();
	unsigned long n = 1UL << order;

	(void)mapping;
	if (order >= MAX_ORDER) {
		pr_err("page_cache_alloc_folio: order %u is above the largest, %d\n", order,
		       MAX_ORDER - 1);
		return -EINVAL;
	}
	if (mm_should_fail(PAGE_SIZE << order, "page_cache_alloc_folio",
			   __builtin_return_address(0)))
		goto fail;
	if (!pool_up) {
		pr_err("page_cache_alloc_folio: no page cache pool (cache_pool_init() not called)\n");
		return -ENOMEM;
	}
	if (may_reclaim && READ_ONCE(pool_free) < pool_wmark_low + 1)
		reclaim_pages(max(pool_wmark_high + 1 - READ_ONCE(pool_free), SWAP_CLUSTER_MAX));
	if (pool_take(n, pages))
		goto got;
	if (may_reclaim && reclaim_pages(SWAP_CLUSTER_MAX) && pool_take(n, pages))
		goto got;
fail:
	pool_noretry_failures[order]++;
	mm_note_failure(PAGE_SIZE << order);
	return -ENOMEM;
got:
	pool_allocs += n;
	return 0;
}

struct page *cache_pool_alloc_kernel(void)
{
	struct page *page;

	if (!pool_up)
		return NULL;
	page = pool_alloc();
	if (!page) {
		pool_kernel_failures++;
		return NULL;
	}
	pool_kernel++;
	return page;
}

void cache_pool_free_kernel(struct page *page)
{
	if (!PageCachePool(page) || page_count(page) != 1 || page->mapping) {
		pr_err("cache_pool_free_kernel: frame %#lx is not a kernel object's pool frame "
		       "(flags %#lx count %d)\n", page_to_pfn(page), page->flags, page_count(page));
		return;
	}
	pool_kernel--;
	page->private = 0;
	page->index = 0;
	cache_pool_free(page);
}

void cache_pool_free(struct page *page)
{
	unsigned long flags;

	if (PageLRU(page))
		lru_del_page(page);
	page->_refcount = 0;
	flags = local_irq_save();
	list_add(&page->lru, &pool_list);
	pool_free++;
	local_irq_restore(flags);
}

void cache_pool_get_stats(struct mm_stats *st)
{
	st->cache_pool = pool_pages;
	st->cache_free = READ_ONCE(pool_free);
	st->wmark_low = pool_wmark_low;
	st->wmark_high = pool_wmark_high;
	st->cache_alloc_failures = pool_failures;
	memcpy(st->noretry_failures, pool_noretry_failures, sizeof(st->noretry_failures));
	st->kernel_objs = READ_ONCE(pool_kernel);
	st->kernel_obj_failures = pool_kernel_failures;
}
