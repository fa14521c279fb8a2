/*
 * The memmap and the frame allocator's set-up at boot, after Linux's
 * mm/mm_init.c (where today's Linux keeps free_area_init() and
 * memmap_init(); 2.6 had them in mm/page_alloc.c). mem_setup()
 * (mm/mem-setup.c) calls mm_init_window() once with the usable RAM, the
 * ranges never to hand out and the window the allocator is to manage
 * (mm_init(): none):
 *
 *	1. the memmap, one struct page per frame from the lowest usable
 *	   frame to the highest, goes in the lowest usable range that
 *	   touches no reserved range, not frame 0 and not the window;
 *	2. holes, reserved ranges, the memmap and frame 0 are PG_reserved;
 *	3. with a window, the usable frames outside it are left to the
 *	   instruments, in runs mm_spare_alloc() hands out from the top down;
 *	4. every run of the other frames goes to the buddy lists
 *	   (free_range(), mm/page_alloc.c), and each part of mm (page lock,
 *	   LRU, page cache, heap, the pool's bookkeeping) starts anew.
 *
 * What the set-up counts (reserved frames, frames outside the window, the
 * spare ones handed out) stays private to this file, so mm_get_stats(),
 * which reports it with the free lists' and every other part's numbers,
 * is here too. On the host, mm_host_arena() maps the "physical memory"
 * first and mm_host_init() is the whole boot.
 */
#include <limits.h>
#include <string.h>

#include "kernel/log.h"
#include "kernel/sync.h"
#include "mm/internal.h"

#ifdef HOST_BUILD
#include <sys/mman.h>
#endif

struct page *mem_map;
unsigned long mem_min_pfn, mem_max_pfn;
uintptr_t mem_virt_offset;

static unsigned long nr_reserved; /* usable frames held back */
static unsigned long nr_outside;  /* usable frames outside mm_init_window()'s window, unused */
/* Runs of those frames [start, end), handed out by mm_spare_alloc() from the top down. */
struct spare_run {
	unsigned long start, end;
};
static struct spare_run spare[MM_MAX_REGIONS];
static int nr_spare;
static unsigned long nr_spare_used;
bool mm_up;

static struct mem_region reserved_copy[MM_MAX_REGIONS];
static int nr_reserved_copy;
static struct mem_region memmap_region;

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
	st->kernel_obj_slab = ks.workload_slab_pages;
	lru_get_stats(st);
	workingset_get_stats(st);
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
			spare[nr_spare++] = (struct spare_run){pfn, pfn + 1};
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
	workingset_init(0);
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
	workingset_init(0);
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
