/*
 * The kernel's objects in the page cache's RAM, as Linux's: what a
 * workload creates (its threads' stacks, open files and inodes, readahead
 * state, a replay's tables) comes out of the frames the page cache uses,
 * and the page cache gives way to it (reclaim below the pool's low
 * watermark, mm/cache-pool.c), as Linux 2.6's slab and task stacks come
 * from the zone its page cache uses and its allocator's watermarks make
 * try_to_free_pages() run. So what a workload may create is bounded by
 * RAM, not by a heap, and what it holds is memory the page cache cannot
 * have, as in Linux. Instruments (trace rings, sample arrays, results)
 * stay on the kernel's heap, outside that RAM: they never move a figure.
 *
 *	small objects	kmalloc(size, GFP_WORKLOAD): size classes whose slabs
 *			are pool frames (mm/slab.c)
 *	kvmalloc()	any size: larger ones are pool frames mapped one after
 *			another in the VM region (kernel/vm.c), as vmalloc()
 *	thread stacks	the same, THREAD_STACK_SIZE bytes; mm registers them
 *			with the kernel floor (kernel/memory.h) with the heap's
 *			pages for page tables, so kernel/ never calls up into mm/
 *
 * Deterministic: the pool is a LIFO list of numbered frames, so the same
 * run takes the same frames in the same order; an object's frames need
 * not be neighbours, so no fragmentation of RAM can make one fail while
 * the page cache holds enough. The VM region's addresses are handed out
 * once (a bump pointer): a range is unmapped when freed, never reused, and
 * its page tables (4 KiB per 2 MiB of addresses) stay on the heap.
 */
#include <stdio.h>
#include <string.h>

#include "kernel/io.h"
#include "kernel/log.h"
#include "kernel/memory.h"
#include "kernel/sync.h"
#include "kernel/vm.h"
#include "mm/internal.h"
#include "mm/kobj.h"

#define KOBJ_AREA_MAGIC 0x6b6f626a61726561UL /* "kobjarea": the first frame of an area */
#define KOBJ_SLAB_MAX	2048		     /* the largest size class (mm/slab.c) */

static unsigned long nr_areas, nr_area_pages, nr_stacks, nr_stack_pages, nr_failures;

static bool in_vm_region(const void *p)
{
	uintptr_t va = (uintptr_t)p;

	return va >= VM_REGION_START && va < VM_REGION_START + VM_REGION_SIZE;
}

static struct page *mapped_page(uintptr_t va)
{
	phys_addr_t pa = vm_page_phys(va);

	return pa ? pfn_to_page((unsigned long)(pa >> PAGE_SHIFT)) : NULL;
}

/* Unmap the @n pages at @va and give their frames back to the pool. */
static void pool_vunmap(uintptr_t va, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		struct page *page = mapped_page(va + i * PAGE_SIZE);

		vm_unmap_page(va + i * PAGE_SIZE);
		if (page)
			cache_pool_free_kernel(page);
	}
}

/* @n frames of the pool at consecutive addresses of the VM region, or NULL. */
static void *pool_vmap(unsigned long n)
{
	uintptr_t va = vm_alloc_range(n * PAGE_SIZE);

	if (!va)
		return NULL;
	for (unsigned long i = 0; i < n; i++) {
		struct page *page = cache_pool_alloc_kernel();

		if (!page || vm_map_page(va + i * PAGE_SIZE,
					 (phys_addr_t)page_to_pfn(page) << PAGE_SHIFT, true)) {
			if (page)
				cache_pool_free_kernel(page);
			pool_vunmap(va, i);
			return NULL;
		}
		if (i == 0) {
			page->index = KOBJ_AREA_MAGIC;
			page->private = n;
		}
	}
	return (void *)va;
}

/* The pages of the area starting at @p, or 0 (reported) if @p starts none. */
static unsigned long area_pages(const void *p, const char *who)
{
	struct page *page = ((uintptr_t)p & (PAGE_SIZE - 1)) ? NULL : mapped_page((uintptr_t)p);

	if (!page || page->index != KOBJ_AREA_MAGIC || !page->private) {
		pr_err("%s: %p is not the start of memory kvmalloc() gave\n", who, p);
		return 0;
	}
	return page->private;
}

void *kvmalloc(size_t size, gfp_t gfp)
{
	unsigned long n;
	void *p;

	if (size <= KOBJ_SLAB_MAX)
		return __kmalloc(size, gfp | __GFP_WORKLOAD);
	if (mm_should_fail(size, "kvmalloc", __builtin_return_address(0))) {
		mm_note_failure(size);
		return NULL;
	}
	n = (unsigned long)DIV_ROUND_UP(size, PAGE_SIZE);
	p = n <= cache_pool_pages() ? pool_vmap(n) : NULL;
	if (!p) {
		nr_failures++;
		mm_note_failure(size);
		return NULL;
	}
	nr_areas++;
	nr_area_pages += n;
	if (gfp & __GFP_ZERO)
		memset(p, 0, size);
	return p;
}

void kvfree(const void *p)
{
	unsigned long n;

	if (!p)
		return;
	if (!in_vm_region(p)) {
		kfree(p);
		return;
	}
	n = area_pages(p, "kvfree");
	if (!n)
		return;
	pool_vunmap((uintptr_t)p, n);
	nr_areas--;
	nr_area_pages -= n;
}

size_t kvsize(const void *p)
{
	if (!p)
		return 0;
	if (!in_vm_region(p))
		return ksize(p);
	return area_pages(p, "kvsize") * PAGE_SIZE;
}

/* kernel/memory.h's providers */

static void *heap_pages_alloc(unsigned int order)
{
	return (void *)__get_free_pages(order);
}

static void heap_pages_free(void *addr, unsigned int order)
{
	free_pages(virt_to_page(addr), order);
}

static void *stack_alloc(size_t bytes)
{
	unsigned long n = (unsigned long)DIV_ROUND_UP(bytes, PAGE_SIZE);
	void *p;

	if (mm_should_fail(bytes, "thread stack", __builtin_return_address(0))) {
		mm_note_failure(bytes);
		return NULL;
	}
	p = pool_vmap(n);
	if (!p) {
		nr_failures++;
		mm_note_failure(bytes);
		return NULL;
	}
	nr_stacks++;
	nr_stack_pages += n;
	return p;
}

static void stack_free(void *stack, size_t bytes)
{
	unsigned long n = area_pages(stack, "thread_stack_free");

	if (!n)
		return;
	if (n != DIV_ROUND_UP(bytes, PAGE_SIZE))
		pr_err("thread_stack_free: %p holds %lu pages, not the %zu bytes freed\n", stack,
		       n, bytes);
	pool_vunmap((uintptr_t)stack, n);
	nr_stacks--;
	nr_stack_pages -= n;
}

static const struct kernel_memory_ops kobj_memory_ops = {
	.pages_alloc = heap_pages_alloc,
	.pages_free = heap_pages_free,
	.stack_alloc = stack_alloc,
	.stack_free = stack_free,
};

void kobj_init(void)
{
	kernel_memory_register(&kobj_memory_ops);
}

void kobj_get_stats(struct kobj_stats *st)
{
	struct kmalloc_stats ks;
	struct mm_stats ms;

	kmalloc_get_stats(&ks);
	mm_get_stats(&ms);
	st->stacks = nr_stacks;
	st->stack_pages = nr_stack_pages;
	st->areas = nr_areas;
	st->area_pages = nr_area_pages;
	st->slab_pages = ks.workload_slab_pages;
	st->objects = ks.workload_objects;
	st->pool_pages = ms.cache_pool;
	st->held_pages = ms.kernel_objs;
	st->cached_pages = ms.cached;
	st->failures = nr_failures + ms.kernel_obj_failures;
}

int kobj_room_hint(char *buf, size_t len)
{
	struct kobj_stats st;

	kobj_get_stats(&st);
	return snprintf(buf, len,
			"the page cache's RAM is %lu MiB, of which kernel objects hold %lu MiB "
			"(%lu stacks) and the page cache %lu MiB; a larger mem= (or pagecache=) "
			"makes room",
			st.pool_pages >> (20 - PAGE_SHIFT), st.held_pages >> (20 - PAGE_SHIFT),
			st.stacks, st.cached_pages >> (20 - PAGE_SHIFT));
}
