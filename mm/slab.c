/*
 * The kernel heap: kmalloc/kfree over the buddy allocator.
 *
 * Requests up to 2 KiB are rounded up to a size class (8 ... 2048 bytes)
 * and served from slabs: one buddy page cut into objects of that class,
 * its free objects linked through their first word. The slab's state
 * lives in its struct page (PG_slab, private = the class, slab_freelist,
 * slab_inuse), so objects need no header and a 2 KiB class wastes
 * nothing. Bigger requests get a whole buddy block of 2^order pages,
 * marked PG_slab with private = 0; kfree() tells the two apart from the
 * struct page of the address.
 *
 * Each class keeps at most one empty slab; the other empty ones go back
 * to the buddy allocator, so the page cache can have the memory.
 *
 * A workload's small objects (GFP_WORKLOAD: open files, inodes, a reader's
 * state) have size classes of their own whose slabs are frames of the page
 * cache's pool (cache_pool_alloc_kernel(): the page cache gives way, as
 * Linux's slab takes pages from the zone its page cache uses), so that what
 * a workload creates is bounded by RAM, not by the heap; an empty one goes
 * back to the pool at once, kept by no class; an object up to a page is a
 * pool frame of its own. The heap's classes keep the instruments' objects,
 * which never move what the page cache holds. Larger workload objects:
 * kvmalloc() (mm/kobj.c).
 *
 * kfree() may run in interrupt handlers (bio completion), so the lists
 * are changed with interrupts masked; new pages are allocated with
 * interrupts enabled, which lets the allocator reclaim.
 */
#include <string.h>

#include "kernel/log.h"
#include "kernel/sync.h"
#include "mm/internal.h"
#ifndef HOST_BUILD
#include "kernel/vm.h"
#include "mm/kobj.h"
#endif

/* kvmalloc()'s larger objects (mm/kobj.c, kernel only): kfree() and ksize() take them too. */
static inline bool kvmalloc_area(const void *p)
{
#ifdef HOST_BUILD
	(void)p;
	return false;
#else
	return (uintptr_t)p >= VM_REGION_START && (uintptr_t)p < VM_REGION_START + VM_REGION_SIZE;
#endif
}

#define KMALLOC_MAX_CLASS 2048

struct kmem_cache {
	unsigned int size;	  /* object size: the class */
	unsigned int per_slab;	  /* objects in one page */
	struct list_head partial; /* slabs with a free object; empty ones at the tail */
	struct list_head full;
	unsigned long nr_slabs, nr_empty, inuse;
	bool workload; /* slabs from the page cache's pool (GFP_WORKLOAD) */
};

static const unsigned int class_sizes[] = {8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048};
static struct kmem_cache caches[ARRAY_SIZE(class_sizes)];
static struct kmem_cache workload_caches[ARRAY_SIZE(class_sizes)];
static unsigned long nr_large_pages, nr_failures;
static unsigned long nr_workload_pages; /* GFP_WORKLOAD's page-sized objects: pool frames */

void slab_init(void)
{
	unsigned int i;

	for (i = 0; i < 2 * ARRAY_SIZE(caches); i++) {
		bool workload = i >= ARRAY_SIZE(caches);
		struct kmem_cache *c = workload ? &workload_caches[i - ARRAY_SIZE(caches)]
						: &caches[i];

		c->size = class_sizes[i % ARRAY_SIZE(caches)];
		c->per_slab = PAGE_SIZE / c->size;
		INIT_LIST_HEAD(&c->partial);
		INIT_LIST_HEAD(&c->full);
		c->nr_slabs = c->nr_empty = c->inuse = 0;
		c->workload = workload;
	}
	nr_large_pages = nr_failures = 0;
}

static struct kmem_cache *size_to_cache(size_t size, gfp_t gfp)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(caches); i++)
		if (size <= caches[i].size)
			return gfp & __GFP_WORKLOAD ? &workload_caches[i] : &caches[i];
	return NULL;
}

static struct page *new_slab(struct kmem_cache *c, gfp_t gfp)
{
	struct page *page = c->workload ? cache_pool_alloc_kernel() : alloc_pages_gfp(0, gfp);
	char *base;
	unsigned int i;

	if (!page)
		return NULL;
	base = page_address(page);
	for (i = 0; i + 1 < c->per_slab; i++)
		*(void **)(base + i * c->size) = base + (i + 1) * c->size;
	*(void **)(base + i * c->size) = NULL;
	page->slab_freelist = base;
	page->slab_inuse = 0;
	page->private = (unsigned long)c;
	SetPageSlab(page);
	return page;
}

static void *slab_alloc(struct kmem_cache *c, gfp_t gfp)
{
	unsigned long flags = local_irq_save();
	struct page *page;
	void *obj;

	if (list_empty(&c->partial)) {
		local_irq_restore(flags);
		page = new_slab(c, gfp);
		if (!page)
			return NULL;
		flags = local_irq_save();
		list_add(&page->lru, &c->partial);
		c->nr_slabs++;
		c->nr_empty++;
	}
	page = list_first_entry(&c->partial, struct page, lru);
	obj = page->slab_freelist;
	page->slab_freelist = *(void **)obj;
	if (page->slab_inuse++ == 0)
		c->nr_empty--;
	if (!page->slab_freelist)
		list_move(&page->lru, &c->full);
	c->inuse++;
	local_irq_restore(flags);
	return obj;
}

static void slab_free(struct kmem_cache *c, struct page *page, void *obj)
{
	unsigned long flags = local_irq_save();

	if (page->slab_inuse == 0) {
		local_irq_restore(flags);
		pr_err("kfree: %p: its slab (%u-byte objects) has none in use (double free)\n", obj,
		       c->size);
		return;
	}
	if (!page->slab_freelist)
		list_move(&page->lru, &c->partial); /* was full */
	*(void **)obj = page->slab_freelist;
	page->slab_freelist = obj;
	c->inuse--;
	if (--page->slab_inuse == 0) {
		/* a workload's empty slab goes back to the page cache at once */
		if (c->nr_empty >= 1 || c->workload) {
			list_del(&page->lru);
			c->nr_slabs--;
			ClearPageSlab(page);
			page->private = 0;
			local_irq_restore(flags);
			if (c->workload)
				cache_pool_free_kernel(page);
			else
				free_pages(page, 0);
			return;
		}
		c->nr_empty++;
		list_move_tail(&page->lru, &c->partial);
	}
	local_irq_restore(flags);
}

void *__kmalloc(size_t size, gfp_t gfp)
{
	struct kmem_cache *c;
	void *obj;

	if (size == 0)
		size = 1; /* as malloc(0): a unique pointer kfree() accepts */
	if (mm_should_fail(size, "kmalloc", __builtin_return_address(0))) {
		nr_failures++;
		mm_note_failure(size);
		return NULL;
	}
	c = size_to_cache(size, gfp);
	if (c) {
		obj = slab_alloc(c, gfp);
	} else {
		unsigned int order;
		struct page *page;

		/* more than the largest block: NULL, and the caller says what it wanted */
		if (size > KMALLOC_MAX_SIZE) {
			nr_failures++;
			mm_note_failure(size);
			return NULL;
		}
		order = ilog2(roundup_pow_of_two(DIV_ROUND_UP(size, PAGE_SIZE)));
		/* a workload's page-sized object: one frame of the pool */
		if (gfp & __GFP_WORKLOAD && order == 0)
			page = cache_pool_alloc_kernel();
		else
			page = alloc_pages_gfp(order, gfp);
		obj = NULL;
		if (page) {
			SetPageSlab(page);
			page->private = 0;
			if (PageCachePool(page))
				__atomic_fetch_add(&nr_workload_pages, 1UL, __ATOMIC_RELAXED);
			else
				__atomic_fetch_add(&nr_large_pages, 1UL << order,
						   __ATOMIC_RELAXED);
			obj = page_address(page);
		}
	}
	if (!obj) {
		nr_failures++;
		mm_note_failure(size);
		return NULL;
	}
	if (gfp & __GFP_ZERO)
		memset(obj, 0, size);
	return obj;
}

/* The slab page of a kmalloc'd pointer, or NULL (reported) if it is not one. */
static struct page *kmalloc_page(const void *p, const char *who)
{
	uintptr_t pa = (uintptr_t)p - mem_virt_offset;
	unsigned long pfn = pa >> PAGE_SHIFT;
	struct page *page;

	if (!mem_map || pfn < mem_min_pfn || pfn >= mem_max_pfn) {
		pr_err("%s: %p is not in memory the allocator manages\n", who, p);
		return NULL;
	}
	page = pfn_to_page(pfn);
	if (!PageSlab(page)) {
		pr_err("%s: %p was not allocated by kmalloc (frame %#lx)\n", who, p, pfn);
		return NULL;
	}
	if (page->private) {
		const struct kmem_cache *c = (const struct kmem_cache *)page->private;

		if (((uintptr_t)p & (PAGE_SIZE - 1)) % c->size) {
			pr_err("%s: %p is inside a %u-byte object, not at its start\n", who, p,
			       c->size);
			return NULL;
		}
	} else if ((uintptr_t)p & (PAGE_SIZE - 1)) {
		pr_err("%s: %p is inside a large allocation, not at its start\n", who, p);
		return NULL;
	}
	return page;
}

void kfree(const void *p)
{
	struct page *page;

	if (!p)
		return;
#ifndef HOST_BUILD
	if (kvmalloc_area(p)) {
		kvfree(p);
		return;
	}
#endif
	page = kmalloc_page(p, "kfree");
	if (!page)
		return;
	if (page->private) {
		slab_free((struct kmem_cache *)page->private, page, (void *)p);
		return;
	}
	ClearPageSlab(page);
	if (PageCachePool(page)) {
		__atomic_fetch_sub(&nr_workload_pages, 1UL, __ATOMIC_RELAXED);
		cache_pool_free_kernel(page);
		return;
	}
	__atomic_fetch_sub(&nr_large_pages, 1UL << page->order, __ATOMIC_RELAXED);
	free_pages(page, page->order);
}

size_t ksize(const void *p)
{
	struct page *page;

	if (!p)
		return 0;
#ifndef HOST_BUILD
	if (kvmalloc_area(p))
		return kvsize(p);
#endif
	page = kmalloc_page(p, "ksize");
	if (!page)
		return 0;
	if (page->private)
		return ((const struct kmem_cache *)page->private)->size;
	/* a pool frame keeps its pool number where a block keeps its order */
	return PageCachePool(page) ? PAGE_SIZE : PAGE_SIZE << page->order;
}

void *__krealloc(void *p, size_t size, gfp_t gfp)
{
	size_t old;
	void *n;

	if (!p)
		return __kmalloc(size, gfp);
	old = ksize(p);
	if (old == 0)
		return NULL; /* not a kmalloc pointer: reported by ksize() */
	if (size <= old && size > old / 2)
		return p;
	n = __kmalloc(size, gfp & ~__GFP_ZERO);
	if (!n)
		return NULL;
	memcpy(n, p, min(old, size));
	kfree(p);
	return n;
}

char *kstrdup_gfp(const char *s, gfp_t gfp)
{
	size_t n = strlen(s) + 1;
	char *d = __kmalloc(n, gfp);

	if (d)
		memcpy(d, s, n);
	return d;
}

void kmalloc_get_stats(struct kmalloc_stats *st)
{
	unsigned long flags = local_irq_save();
	unsigned int i;

	memset(st, 0, sizeof(*st));
	for (i = 0; i < ARRAY_SIZE(caches); i++) {
		st->slab_pages += caches[i].nr_slabs;
		st->objects += caches[i].inuse;
		st->workload_slab_pages += workload_caches[i].nr_slabs;
		st->workload_objects += workload_caches[i].inuse;
	}
	st->large_pages = nr_large_pages;
	st->workload_slab_pages += nr_workload_pages;
	st->failures = nr_failures;
	local_irq_restore(flags);
}

char *kstrdup(const char *s)
{
	return kstrdup_gfp(s, GFP_KERNEL);
}
