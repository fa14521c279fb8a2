/*
 * The kernel's objects in the page cache's RAM (mm/kobj.c): a workload's
 * memory of any size, taken from the frames the page cache uses, which
 * gives way to it.
 *
 *	p = kvmalloc(n * sizeof(*p), GFP_WORKLOAD | __GFP_ZERO);  // NULL: no room
 *	...
 *	kvfree(p);
 *
 * Up to 2 KiB it is kmalloc(size, GFP_WORKLOAD); larger, whole pool frames
 * mapped one after another. kvfree() takes either, and kmalloc'd pointers.
 */
#ifndef MM_KOBJ_H
#define MM_KOBJ_H

#include "mm/mm.h"

void *kvmalloc(size_t size, gfp_t gfp);
void kvfree(const void *p);
/* Usable bytes of @p: its size class, or its whole pages. */
size_t kvsize(const void *p);

/* Register the kernel floor's providers (kernel/memory.h); mem_setup() calls it. */
void kobj_init(void);

struct kobj_stats {
	unsigned long stacks, stack_pages;  /* thread stacks and their frames */
	unsigned long areas, area_pages;    /* kvmalloc()'s larger objects */
	unsigned long slab_pages, objects;  /* GFP_WORKLOAD's slabs, objects in use */
	unsigned long pool_pages;	    /* the pool: page cache and kernel objects */
	unsigned long held_pages;	    /* of it, frames kernel objects hold */
	unsigned long cached_pages;	    /* pages in the page cache */
	unsigned long failures;		    /* allocations no reclaim could serve */
};
void kobj_get_stats(struct kobj_stats *st);
/* What holds the page cache's RAM and what would make room, for an error line. */
int kobj_room_hint(char *buf, size_t len);

#endif
