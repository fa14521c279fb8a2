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
 * kfree() may run in interrupt handlers (bio completion), so the lists
 * are changed with interrupts masked; new pages are allocated with
 * interrupts enabled, which lets the allocator reclaim.
 */
#include <string.h>

#include "kernel/log.h"
#include "kernel/sync.h"
#include "mm/internal.h"

#define KMALLOC_MAX_CLASS 2048

struct kmem_cache {
	unsigned int size;	  /* object size: the class */
	unsigned int per_slab;	  /* objects in one page */
	struct list_head partial; /* slabs with a free object; empty ones at the tail */
	struct list_head full;
	unsigned long nr_slabs, nr_empty, inuse;
};

static const unsigned int class_sizes[] = {8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048};
static struct kmem_cache caches[ARRAY_SIZE(class_sizes)];
static unsigned long nr_large_pages, nr_failures;

void slab_init(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(caches); i++) {
		struct kmem_cache *c = &caches[i];

		c->size = class_sizes[i];
		c->per_slab = PAGE_SIZE / c->size;
		INIT_LIST_HEAD(&c->partial);
		INIT_LIST_HEAD(&c->full);
		c->nr_slabs = c->nr_empty = c->inuse = 0;
	}
	nr_large_pages = nr_failures = 0;
}

static struct kmem_cache *size_to_cache(size_t size)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(caches); i++)
		if (size <= caches[i].size)
			return &caches[i];
	return NULL;
}

static struct page *new_slab(struct kmem_cache *c, gfp_t gfp)
{
	struct page *page = alloc_pages_gfp(0, gfp);
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
		if (c->nr_empty >= 1) {
			list_del(&page->lru);
			c->nr_slabs--;
			ClearPageSlab(page);
			page->private = 0;
			local_irq_restore(flags);
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
	c = size_to_cache(size);
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
		page = alloc_pages_gfp(order, gfp);
		obj = NULL;
		if (page) {
			SetPageSlab(page);
			page->private = 0;
			__atomic_fetch_add(&nr_large_pages, 1UL << order, __ATOMIC_RELAXED);
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
	page = kmalloc_page(p, "kfree");
	if (!page)
		return;
	if (page->private) {
		slab_free((struct kmem_cache *)page->private, page, (void *)p);
		return;
	}
	ClearPageSlab(page);
	__atomic_fetch_sub(&nr_large_pages, 1UL << page->order, __ATOMIC_RELAXED);
	free_pages(page, page->order);
}

size_t ksize(const void *p)
{
	struct page *page;

	if (!p)
		return 0;
	page = kmalloc_page(p, "ksize");
	if (!page)
		return 0;
	if (page->private)
		return ((const struct kmem_cache *)page->private)->size;
	return PAGE_SIZE << page->order;
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

char *kstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = kmalloc(n);

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
	}
	st->large_pages = nr_large_pages;
	st->failures = nr_failures;
	local_irq_restore(flags);
}
