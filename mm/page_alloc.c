/*
 * Physical frames: the memmap (one struct page per 4 KiB frame) and a
 * binary buddy allocator over it, after Linux 2.6's mm/page_alloc.c.
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
 * kernel's memory never moves what the page cache can hold.
 *
 * The free lists are shared with interrupt handlers (I/O completion drops
 * the last reference of pages), so they are touched with interrupts masked.
 */
#include <limits.h>
#include <string.h>

#include "kernel/log.h"
#include "kernel/memory.h"
#include "kernel/sched.h"
#include "kernel/sync.h"
#include "mm/internal.h"

#ifdef HOST_BUILD
#include <sys/mman.h>
#endif

struct page *mem_map;
unsigned long mem_min_pfn, mem_max_pfn;
uintptr_t mem_virt_offset;

struct free_area {
	struct list_head free_list;
	unsigned long nr_free; /* blocks of this order */
};

static struct free_area free_area[MAX_ORDER];
static unsigned long nr_free_pages; /* sum of nr_free << order */
static unsigned long nr_managed;    /* frames given to the buddy lists at boot */
static unsigned long nr_reserved;   /* usable frames held back */
static unsigned long nr_bad_pages;  /* frames found corrupt on allocation and dropped */
static unsigned long nr_outside;    /* usable frames outside mm_init_window()'s window, unused */
/* Runs of those frames [start, end), handed out by mm_spare_alloc() from the top down. */
struct spare_run {
	unsigned long start, end;
};
static struct spare_run spare[MM_MAX_REGIONS];
static int nr_spare;
static unsigned long nr_spare_used;
static bool mm_up;

static struct mem_region reserved_copy[MM_MAX_REGIONS];
static int nr_reserved_copy;
static struct mem_region memmap_region;

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

void *mm_spare_alloc(size_t bytes)
{
	unsigned long pages = (unsigned long)((bytes + PAGE_SIZE - 1) >> PAGE_SHIFT);

	/* the highest run that holds it: RAM above mem= first, then the top's slack */
	for (int i = nr_spare - 1; i >= 0 && pages; i--) {
		if (spare[i].end - spare[i].start < pages)
			continue;
		spare[i].end -= pages;
		nr_spare_used += pages;
		return page_address(pfn_to_page(spare[i].end));
	}
	return NULL;
}

unsigned long mm_spare_largest(void)
{
	unsigned long best = 0;

	for (int i = 0; i < nr_spare; i++)
		best = max(best, spare[i].end - spare[i].start);
	return best;
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

/* kernel/memory.h: the core's pages (threads' stacks, page tables) */
void *kernel_pages_alloc(unsigned int order)
{
	return (void *)__get_free_pages(order);
}

void kernel_pages_free(void *addr, unsigned int order)
{
	if (addr)
		free_pages(virt_to_page(addr), order);
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

void mm_get_stats(struct mm_stats *st)
{
	unsigned long flags;
	struct kmalloc_stats ks;
	int o;

	memset(st, 0, sizeof(*st));
	flags = local_irq_save();
	st->total = nr_managed;
	st->free = nr_free_pages;
	for (o = 0; o < MAX_ORDER; o++)
		st->free_per_order[o] = free_area[o].nr_free;
	local_irq_restore(flags);
	st->reserved = nr_reserved;
	st->outside = nr_outside;
	st->spare_used = nr_spare_used;
	cache_pool_get_stats(st);
	kmalloc_get_stats(&ks);
	st->slab = ks.slab_pages + ks.large_pages;
	lru_get_stats(st);
	page_cache_get_stats(st);
}

bool mm_ready(void)
{
	return mm_up;
}

int mm_reserved_regions(const struct mem_region **regions)
{
	*regions = reserved_copy;
	return nr_reserved_copy;
}

struct mem_region mm_memmap_region(void)
{
	return memmap_region;
}

/* --- boot-time set-up ------------------------------------------------------ */

static bool check_regions(const char *what, const struct mem_region *r, int n)
{
	int i;

	if (n < 0 || n > MM_MAX_REGIONS || (n > 0 && !r)) {
		pr_err("mm_init: %d %s regions: expected 0..%d and a list\n", n, what,
		       MM_MAX_REGIONS);
		return false;
	}
	/* An empty region is an empty set (boot code trims regions to nothing), not an error. */
	for (i = 0; i < n; i++) {
		if (r[i].base + r[i].len < r[i].base) {
			pr_err("mm_init: %s region %d [%#llx +%#llx] wraps around\n", what, i,
			       (unsigned long long)r[i].base, (unsigned long long)r[i].len);
			return false;
		}
	}
	return true;
}

static unsigned long pfn_up(uint64_t addr)
{
	return (unsigned long)(addr >> PAGE_SHIFT) + ((addr & (PAGE_SIZE - 1)) != 0);
}

static bool overlaps(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
	return a < b + blen && b < a + alen;
}

/*
 * Lowest page-aligned range of @bytes inside usable RAM that touches no
 * reserved range and not frame 0; 0 (never a valid answer) if none.
 */
static uint64_t place_memmap(const struct mem_region *usable, int nr_usable,
			     const struct mem_region *reserved, int nr_reserved,
			     const struct mem_region *window, uint64_t bytes)
{
	uint64_t best = 0;
	int i, j;

	for (i = 0; i < nr_usable; i++) {
		uint64_t start = ALIGN_UP(usable[i].base, PAGE_SIZE);
		uint64_t end = ALIGN_DOWN(usable[i].base + usable[i].len, PAGE_SIZE);
		uint64_t cand = max(start, (uint64_t)PAGE_SIZE);
		bool moved = true;

		while (moved && cand < end && end - cand >= bytes) {
			moved = false;
			for (j = 0; j < nr_reserved; j++) {
				if (overlaps(cand, bytes, reserved[j].base, reserved[j].len)) {
					cand = ALIGN_UP(reserved[j].base + reserved[j].len,
							PAGE_SIZE);
					moved = true;
				}
			}
			/* not inside the managed window: it is the allocator's alone */
			if (window && overlaps(cand, bytes, window->base, window->len)) {
				cand = ALIGN_UP(window->base + window->len, PAGE_SIZE);
				moved = true;
			}
		}
		if (!moved && cand < end && end - cand >= bytes && (!best || cand < best))
			best = cand;
	}
	return best;
}

static void mark_range(unsigned long spfn, unsigned long epfn, bool reserve)
{
	unsigned long pfn;

	spfn = max(spfn, mem_min_pfn);
	epfn = min(epfn, mem_max_pfn);
	for (pfn = spfn; pfn < epfn; pfn++) {
		struct page *page = pfn_to_page(pfn);

		if (reserve && !page->flags)
			nr_reserved++;
		page->flags = reserve ? BIT(PG_reserved) : 0;
	}
}

static void free_range(unsigned long spfn, unsigned long epfn)
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

int mm_init(const struct mem_region *usable, int nr_usable, const struct mem_region *reserved,
	    int nr_reserved_in)
{
	return mm_init_window(usable, nr_usable, reserved, nr_reserved_in, NULL);
}

int mm_init_window(const struct mem_region *usable, int nr_usable,
		   const struct mem_region *reserved, int nr_reserved_in,
		   const struct mem_region *window)
{
	unsigned long lo = ULONG_MAX, hi = 0, pfn, frames;
	uint64_t bytes, where, ram;
	int i, o;

#ifndef HOST_BUILD
	if (mm_up) {
		pr_err("mm_init: called twice\n");
		return -EBUSY;
	}
#endif
	if (!check_regions("usable", usable, nr_usable) ||
	    !check_regions("reserved", reserved, nr_reserved_in))
		return -EINVAL;
	if (nr_usable == 0) {
		pr_err("mm_init: no usable memory region\n");
		return -EINVAL;
	}
	for (i = 0; i < nr_usable; i++) {
		uint64_t s = ALIGN_UP(usable[i].base, PAGE_SIZE);
		uint64_t e = ALIGN_DOWN(usable[i].base + usable[i].len, PAGE_SIZE);

		if (s >= e)
			continue; /* less than one whole frame */
		lo = min(lo, (unsigned long)(s >> PAGE_SHIFT));
		hi = max(hi, (unsigned long)(e >> PAGE_SHIFT));
	}
	if (hi == 0) {
		pr_err("mm_init: no usable region holds a whole 4 KiB frame\n");
		return -EINVAL;
	}
	frames = hi - lo;
	bytes = ALIGN_UP((uint64_t)frames * sizeof(struct page), PAGE_SIZE);
	where = place_memmap(usable, nr_usable, reserved, nr_reserved_in, window, bytes);
	if (!where) {
		pr_err("mm_init: no free usable range holds the memmap (%llu KiB for %lu frames)\n",
		       (unsigned long long)(bytes >> 10), frames);
		return -ENOMEM;
	}

	mm_up = false;
	for (o = 0; o < MAX_ORDER; o++) {
		INIT_LIST_HEAD(&free_area[o].free_list);
		free_area[o].nr_free = 0;
	}
	nr_free_pages = nr_managed = nr_reserved = nr_bad_pages = nr_outside = 0;
	if (nr_reserved_in)
		memcpy(reserved_copy, reserved, sizeof(*reserved) * (size_t)nr_reserved_in);
	nr_reserved_copy = nr_reserved_in;
	memmap_region = (struct mem_region){where, bytes};

	mem_map = (struct page *)(mem_virt_offset + (uintptr_t)where);
	mem_min_pfn = lo;
	mem_max_pfn = hi;
	memset(mem_map, 0, frames * sizeof(struct page));
	/* Holes stay reserved; usable frames are cleared, then reserved ranges set again. */
	for (pfn = lo; pfn < hi; pfn++)
		pfn_to_page(pfn)->flags = BIT(PG_reserved);
	for (i = 0; i < nr_usable; i++)
		mark_range(ALIGN_UP(usable[i].base, PAGE_SIZE) >> PAGE_SHIFT,
			   ALIGN_DOWN(usable[i].base + usable[i].len, PAGE_SIZE) >> PAGE_SHIFT,
			   false);
	for (i = 0; i < nr_reserved_in; i++)
		mark_range(ALIGN_DOWN(reserved[i].base, PAGE_SIZE) >> PAGE_SHIFT,
			   pfn_up(reserved[i].base + reserved[i].len), true);
	mark_range(where >> PAGE_SHIFT, (where + bytes) >> PAGE_SHIFT, true);
	mark_range(0, 1, true); /* frame 0: real-mode IVT and BIOS data */
	/*
	 * With a window, usable RAM outside it is left to the instruments
	 * (mm_spare_alloc()): counted apart, in runs of whole frames.
	 */
	nr_spare = 0;
	for (pfn = lo; window && pfn < hi; pfn++) {
		uint64_t pa = (uint64_t)pfn << PAGE_SHIFT;
		struct page *page = pfn_to_page(pfn);

		if ((pa >= window->base && pa < window->base + window->len) || PageReserved(page))
			continue;
		page->flags = BIT(PG_reserved);
		nr_outside++;
		if (nr_spare && spare[nr_spare - 1].end == pfn)
			spare[nr_spare - 1].end = pfn + 1;
		else if (nr_spare < MM_MAX_REGIONS)
			spare[nr_spare++] = (struct spare_run){ pfn, pfn + 1 };
	}

	for (pfn = lo; pfn < hi;) {
		unsigned long end;

		if (PageReserved(pfn_to_page(pfn))) {
			pfn++;
			continue;
		}
		for (end = pfn; end < hi && !PageReserved(pfn_to_page(end)); end++)
			;
		free_range(pfn, end);
		pfn = end;
	}
	page_lock_init();
	lru_init();
	page_cache_init();
	slab_init();
	cache_pool_forget();
	mm_up = true;

	ram = (uint64_t)(nr_managed + nr_reserved) << PAGE_SHIFT; /* usable RAM, memmap included */
	pr_info("mm: %lu MiB managed (%lu frames, %lu reserved), struct page %zu bytes, "
		"memmap %llu KiB at %#llx (%lu.%02lu%% of RAM)\n",
		nr_managed >> (20 - PAGE_SHIFT), nr_managed, nr_reserved, sizeof(struct page),
		(unsigned long long)(bytes >> 10), (unsigned long long)where,
		(unsigned long)(bytes * 100 / ram), (unsigned long)(bytes * 10000 / ram % 100));
	return 0;
}

#ifdef HOST_BUILD
static void *host_arena;
static size_t host_arena_len;

void *mm_host_arena(uint64_t phys_base, uint64_t len)
{
	void *va;

	/* Forget everything that lived in the old arena before unmapping it. */
	mm_up = false;
	mem_map = NULL;
	cache_pool_forget();
	slab_init();
	lru_init();
	page_cache_init();
	if (host_arena)
		munmap(host_arena, host_arena_len);
	host_arena = NULL;
	if ((phys_base | len) & (PAGE_SIZE - 1) || len == 0) {
		pr_err("mm_host_arena: base %#llx and length %#llx must be whole frames\n",
		       (unsigned long long)phys_base, (unsigned long long)len);
		return NULL;
	}
	va = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		  -1, 0);
	if (va == MAP_FAILED) {
		pr_err("mm_host_arena: cannot map %llu MiB\n", (unsigned long long)(len >> 20));
		return NULL;
	}
	host_arena = va;
	host_arena_len = len;
	mem_virt_offset = (uintptr_t)va - (uintptr_t)phys_base;
	return va;
}

int mm_host_init(uint64_t bytes)
{
	struct mem_region ram = {MM_HOST_PHYS_BASE, bytes};

	int err;

	if (!mm_host_arena(MM_HOST_PHYS_BASE, bytes))
		return -ENOMEM;
	err = mm_init(&ram, 1, NULL, 0);
	return err ? err : cache_pool_init(cache_pool_default_pages(bytes));
}
#endif
