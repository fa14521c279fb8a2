/*
 * Physical frames: a binary buddy allocator over the memmap (one struct
 * page per 4 KiB frame), after Linux 2.6's mm/page_alloc.c. mm_init()
 * (mm/mm_init.c) lays out the memmap at boot and gives the free frames to
 * the lists through free_range(); this file hands out and takes back
 * blocks, and fails allocations on purpose (fail_nth; Linux's
 * fail_page_alloc is in its page_alloc.c too).
 *
 * Free memory is kept as blocks of 2^order frames, order 0..MAX_ORDER-1,
 * each aligned to its size in pfn terms; the head page of a free block has
 * PG_buddy set and page->order = its order. Allocation takes the smallest
 * block that fits and splits it, putting the upper halves back:
 *
 *	order 3 block:   [0 1 2 3 4 5 6 7]      alloc_pages(0)
 *	            ->   [0] [1] [2 3] [4 5 6 7]
 *	                 you  o0   o1     o2     (free lists gain one each)
 *
 * Freeing merges a block with its buddy (pfn ^ 2^order) while the buddy is
 * a free block of the same order. Holes and reserved frames are never
 * PG_buddy, so blocks never grow across them.
 *
 * The page cache does not allocate here: it has a pool of frames of its
 * own, taken from these lists at boot (mm/cache-pool.c), and reclaim gives
 * frames back to that pool, never to these lists. So an allocation here
 * that finds no block fails (NULL) rather than evicting page cache: the
 * kernel's own memory and the instruments' never move what the page cache
 * can hold. (A workload's objects are the pool's: mm/kobj.c.)
 *
 * The free lists are shared with interrupt handlers (I/O completion drops
 * the last reference of pages), so they are touched with interrupts masked.
 */
#include <string.h>

#include "kernel/log.h"
#include "kernel/sched.h"
#include "kernel/sync.h"
#include "mm/internal.h"

struct free_area free_area[MAX_ORDER];
unsigned long nr_free_pages; /* sum of nr_free << order */
unsigned long nr_managed;    /* frames given to the buddy lists at boot */
unsigned long nr_bad_pages;  /* frames found corrupt on allocation and dropped */

static bool pfn_valid(unsigned long pfn)
{
	return pfn >= mem_min_pfn && pfn < mem_max_pfn;
}

static bool page_in_memmap(const struct page *page)
{
	return mem_map && page >= mem_map && page < mem_map + (mem_max_pfn - mem_min_pfn);
}

/* Put the block at @pfn of 2^@order frames on the free lists, merging. */
static void __free_one_page(unsigned long pfn, unsigned int order)
{
	struct page *page;

	while (order < MAX_ORDER - 1) {
		unsigned long buddy_pfn = pfn ^ (1UL << order);
		struct page *buddy;

		if (!pfn_valid(buddy_pfn))
			break;
		buddy = pfn_to_page(buddy_pfn);
		if (!PageBuddy(buddy) || buddy->order != order)
			break;
		list_del(&buddy->lru);
		free_area[order].nr_free--;
		ClearPageBuddy(buddy);
		pfn &= ~(1UL << order);
		order++;
	}
	page = pfn_to_page(pfn);
	page->order = order;
	SetPageBuddy(page);
	list_add(&page->lru, &free_area[order].free_list);
	free_area[order].nr_free++;
}

void free_range(unsigned long spfn, unsigned long epfn)
{
	while (spfn < epfn) {
		unsigned int order = MAX_ORDER - 1;

		while ((spfn & ((1UL << order) - 1)) || spfn + (1UL << order) > epfn)
			order--;
		pfn_to_page(spfn)->order = order;
		__free_one_page(spfn, order);
		nr_free_pages += 1UL << order;
		nr_managed += 1UL << order;
		spfn += 1UL << order;
	}
}

/* Split a free block of order @high down to @low, freeing the upper halves. */
static void expand(struct page *page, unsigned int low, unsigned int high)
{
	unsigned long size = 1UL << high;

	while (high > low) {
		struct page *half;

		high--;
		size >>= 1;
		half = page + size;
		half->order = high;
		SetPageBuddy(half);
		list_add(&half->lru, &free_area[high].free_list);
		free_area[high].nr_free++;
	}
}

static struct page *rmqueue(unsigned int order)
{
	unsigned int o;

	for (o = order; o < MAX_ORDER; o++) {
		struct page *page;

		if (list_empty(&free_area[o].free_list))
			continue;
		page = list_first_entry(&free_area[o].free_list, struct page, lru);
		list_del(&page->lru);
		free_area[o].nr_free--;
		ClearPageBuddy(page);
		expand(page, order, o);
		nr_free_pages -= 1UL << order;
		return page;
	}
	return NULL;
}

static void report_bad_page(const char *where, struct page *page)
{
	pr_err("%s: frame %#lx is corrupt: flags %#lx count %d mapping %p\n", where,
	       page_to_pfn(page), page->flags, page_count(page), (void *)page->mapping);
}

/*
 * Ready a block for its new owner: reference count 1 on the head, no
 * stale state from the previous owner (patch 002 adds PG_readahead to
 * the flags cleared here). Returns false for a corrupt block, which is
 * dropped rather than handed out.
 */
static bool prep_new_page(struct page *page, unsigned int order)
{
	unsigned long i, n = 1UL << order;

	for (i = 0; i < n; i++) {
		struct page *p = page + i;

		if (unlikely(p->flags & (BIT(PG_reserved) | BIT(PG_buddy) | BIT(PG_lru) |
					 BIT(PG_slab) | BIT(PG_locked)) ||
			     p->_refcount != 0 || p->mapping)) {
			report_bad_page("alloc_pages", p);
			return false;
		}
	}
	for (i = 0; i < n; i++) {
		struct page *p = page + i;

		p->flags &= ~PAGE_FLAGS_CLEAR_ON_ALLOC;
		p->private = 0;
		p->index = 0;
		p->cache_next = NULL;
		p->order = 0;
	}
	page->order = order;
	page->_refcount = 1;
	return true;
}

struct page *alloc_pages_gfp(unsigned int order, gfp_t gfp)
{
	(void)gfp;
	if (order >= MAX_ORDER) {
		pr_err("alloc_pages: order %u is above the largest, %d\n", order, MAX_ORDER - 1);
		return NULL;
	}
	if (!mm_up) {
		pr_err("alloc_pages: called before mm_init\n");
		return NULL;
	}
	for (;;) {
		unsigned long flags = local_irq_save();
		struct page *page = rmqueue(order);

		local_irq_restore(flags);
		if (!page)
			return NULL;
		if (prep_new_page(page, order))
			return page;
		nr_bad_pages += 1UL << order;
	}
}

struct page *alloc_frame_at(unsigned long pfn)
{
	unsigned long head = pfn, flags;
	unsigned int o;
	struct page *page = NULL;

	if (!mm_up || !pfn_valid(pfn))
		return NULL;
	flags = local_irq_save();
	/* the free block holding @pfn: its head is @pfn rounded down to the block's order */
	for (o = 0; o < MAX_ORDER; o++) {
		head = pfn & ~((1UL << o) - 1);
		if (!pfn_valid(head))
			break;
		page = pfn_to_page(head);
		if (PageBuddy(page) && page->order == o)
			break;
		page = NULL;
	}
	if (!page) {
		local_irq_restore(flags);
		return NULL;
	}
	list_del(&page->lru);
	free_area[o].nr_free--;
	ClearPageBuddy(page);
	/* split it, giving back every half that does not hold @pfn */
	while (o > 0) {
		unsigned long half;
		struct page *back;

		o--;
		half = head + (1UL << o);
		if (pfn >= half) {
			back = pfn_to_page(head);
			head = half;
		} else {
			back = pfn_to_page(half);
		}
		back->order = o;
		SetPageBuddy(back);
		list_add(&back->lru, &free_area[o].free_list);
		free_area[o].nr_free++;
	}
	nr_free_pages--;
	local_irq_restore(flags);
	page = pfn_to_page(pfn);
	if (!prep_new_page(page, 0)) {
		nr_bad_pages++;
		return NULL;
	}
	return page;
}

struct page *alloc_pages(unsigned int order)
{
	/* an order too large fails below; its size here must not overflow */
	size_t bytes = order < MAX_ORDER ? PAGE_SIZE << order : SIZE_MAX;
	struct page *page = NULL;

	if (!mm_should_fail(bytes, "alloc_pages", __builtin_return_address(0)))
		page = alloc_pages_gfp(order, GFP_KERNEL);
	if (!page)
		mm_note_failure(bytes);
	return page;
}

/* --- fault injection and the last failure ----------------------------------- */

static const struct thread *fail_thread; /* armed for this thread; NULL: disarmed */
static unsigned long fail_left, fail_calls;
static struct mm_fail_report fail_report;
static size_t last_failed_bytes;

void mm_fail_nth(unsigned long n)
{
	fail_thread = n ? current_thread() : NULL;
	fail_left = n;
	fail_calls = 0;
	memset(&fail_report, 0, sizeof(fail_report));
}

unsigned long mm_fail_nth_calls(void)
{
	return fail_calls;
}

void mm_fail_nth_report(struct mm_fail_report *rep)
{
	*rep = fail_report;
}

bool mm_should_fail(size_t bytes, const char *what, const void *caller)
{
	/* interrupt handlers run on whichever thread they interrupt: never count them */
	if (!fail_thread || irqs_masked() || current_thread() != fail_thread)
		return false;
	fail_calls++;
	if (--fail_left)
		return false;
	fail_thread = NULL;
	fail_report = (struct mm_fail_report){true, fail_calls, bytes, what, caller};
	pr_info("fail_nth: allocation %lu of this thread, %s of %zu bytes (called from %p), "
		"fails by injection\n",
		fail_calls, what, bytes, caller);
	return true;
}

void mm_note_failure(size_t bytes)
{
	last_failed_bytes = bytes;
}

size_t mm_last_failure(void)
{
	return last_failed_bytes;
}

unsigned long __get_free_pages(unsigned int order)
{
	struct page *page = alloc_pages(order);

	return page ? (unsigned long)page_address(page) : 0;
}

/* Give an allocated block back; @who names the caller in reports. */
static void __free_block(struct page *page, unsigned int order, const char *who)
{
	unsigned long pfn = page_to_pfn(page), flags, i;

	/* a pool frame keeps its pool number where a block keeps its order */
	if (PageCachePool(page) && !PageBuddy(page) && !PageSlab(page) && !PageReserved(page)) {
		if (page->mapping) {
			pr_err("%s: frame %#lx is still in the page cache of %s (index %lu)\n",
			       who, pfn, page->mapping->name ? page->mapping->name : "?",
			       page->index);
			return;
		}
		cache_pool_free(page);
		return;
	}

	if (order >= MAX_ORDER || (pfn & ((1UL << order) - 1)) || page->order != order) {
		pr_err("%s: frame %#lx: order %u does not match the block (order %u)\n", who, pfn,
		       order, page->order);
		return;
	}
	if (PageReserved(page) || PageBuddy(page) || PageSlab(page)) {
		pr_err("%s: frame %#lx is %s\n", who, pfn,
		       PageReserved(page) ? "reserved"
		       : PageBuddy(page)  ? "already free (double free)"
					  : "owned by the kernel heap");
		return;
	}
	if (page->mapping) {
		/* Freeing it would leave a dangling entry in the page cache: leak instead. */
		pr_err("%s: frame %#lx is still in the page cache of %s (index %lu)\n", who, pfn,
		       page->mapping->name ? page->mapping->name : "?", page->index);
		return;
	}
	for (i = 0; i < (1UL << order); i++)
		if (PageLRU(page + i))
			lru_del_page(page + i);
	page->_refcount = 0;
	flags = local_irq_save();
	__free_one_page(pfn, order);
	nr_free_pages += 1UL << order;
	local_irq_restore(flags);
}

void free_pages(struct page *page, unsigned int order)
{
	if (!page)
		return;
	if (!page_in_memmap(page)) {
		pr_err("free_pages: %p is not a struct page of the memmap\n", (void *)page);
		return;
	}
	if (PageReserved(page)) {
		pr_err("free_pages: frame %#lx is reserved\n", page_to_pfn(page));
		return;
	}
	/* Free frames, and the tails of allocated blocks, all have a count of 0. */
	if (page_count(page) <= 0) {
		pr_err("free_pages: frame %#lx is not an allocated block (double free?)\n",
		       page_to_pfn(page));
		return;
	}
	__free_block(page, order, "free_pages");
}

void put_page(struct page *page)
{
	int count = __atomic_sub_fetch(&page->_refcount, 1, __ATOMIC_SEQ_CST);

	if (likely(count > 0))
		return;
	if (count < 0) {
		pr_err("put_page: frame %#lx: reference count went below zero (%d)\n",
		       page_to_pfn(page), count);
		page->_refcount = 0;
		return;
	}
	__free_block(page, page->order, "put_page");
}
