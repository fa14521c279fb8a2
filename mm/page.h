/*
 * Page frames: one struct page per 4 KiB physical frame (the memmap), with
 * Linux 2.6's page flags, and the buddy allocator's interface
 * (mm/page_alloc.c). Host-buildable: on the host the "physical memory" is a
 * mapped arena (mm_host_arena() in mm/mm.h) handed to the same mm_init().
 *
 * A page returned by alloc_pages() has a reference count of 1; put_page()
 * drops it and frees the page when it reaches zero.
 */
#ifndef MM_PAGE_H
#define MM_PAGE_H

#include "kernel/list.h"

struct address_space;

/* Bits of page->flags; names and meanings follow include/linux/page-flags.h. */
enum pageflags {
	PG_locked,	/* under I/O or being set up: do not touch the contents */
	PG_error,	/* the last I/O on this page failed */
	PG_referenced,	/* accessed once since it was last on the inactive list */
	PG_uptodate,	/* the contents are valid */
	PG_dirty,	/* contents differ from disk (unused: read-only fs) */
	PG_lru,		/* on one of the LRU lists */
	PG_active,	/* on the active LRU list */
	PG_reserved,	/* never handed out: kernel image, memmap, firmware */
	PG_buddy,	/* free, heading a block of 2^private pages in the buddy lists */
	PG_slab,	/* owned by the kernel heap (mm/slab.c) */
	PG_readahead,	/* look-ahead mark: reaching it triggers async readahead (patch 002) */
	PG_readahead_io, /* brought in by readahead and not yet read by anyone */
	PG_owner_priv_1, /* owner's use */
	PG_window_thrashed, /* a page of its readahead window was evicted unread (counted) */
	PG_cache_pool,	/* a frame of the page cache's pool (mm/cache-pool.c), free or not */
	__NR_PAGEFLAGS,
};

/*
 * The upper half of page->flags holds the number of the readahead window
 * that brought the page in (0: none), as Linux keeps a page's zone and node
 * there. Reclaim needs it to count thrashed windows, not only pages, and
 * struct page has no other room.
 */
#define PG_RA_WINDOW_SHIFT	32
#define PG_RA_WINDOW_MASK	(0xffffffffUL << PG_RA_WINDOW_SHIFT)

/*
 * Bits 24-27: the order of the folio this page belongs to, as a kernel
 * with large folios would have allocated it (ra=linux, mm/readahead-linux.c):
 * the page cache keeps 4 KiB pages, but Linux's decisions depend on which
 * pages form one folio (its look-ahead mark is the folio's, and an
 * asynchronous readahead names the folio's first page). A folio of order k
 * covers the 2^k pages from its index rounded down to 2^k. 0: a page alone.
 */
#define PG_FOLIO_ORDER_SHIFT	24
#define PG_FOLIO_ORDER_MASK	(0xfUL << PG_FOLIO_ORDER_SHIFT)
_Static_assert(__NR_PAGEFLAGS <= PG_FOLIO_ORDER_SHIFT, "page flags overlap the folio order");

struct page {
	unsigned long flags;		/* enum pageflags bits */
	int32_t _refcount;
	union {
		uint32_t order;		/* order of the free block, or of the allocated
					 * block at its head page (put_page frees that) */
		uint32_t pool_nr;	/* PG_cache_pool: the frame's number in the pool,
					 * 0..N-1, whatever its address (page-lock.c) */
	};
	struct list_head lru;		/* LRU list, buddy free list or slab list */
	struct address_space *mapping;	/* page cache owner, NULL if none */
	union {
		pgoff_t index;		/* offset in mapping, in pages */
		unsigned long slab_inuse; /* slab: objects handed out */
	};
	unsigned long private;		/* owner's use (slab: cache pointer) */
	union {
		struct page *cache_next; /* page cache hash chain (mm/filemap-cache.c) */
		void *slab_freelist;	/* slab: first free object */
	};
};
_Static_assert(sizeof(struct page) <= 64, "struct page must stay within 64 bytes");

/* Atomic bit operations on page->flags (interrupt handlers complete I/O). */
static inline bool test_bit(int nr, const volatile unsigned long *addr)
{
	return (*addr >> nr) & 1UL;
}
static inline void set_bit(int nr, volatile unsigned long *addr)
{
	__atomic_fetch_or(addr, 1UL << nr, __ATOMIC_SEQ_CST);
}
static inline void clear_bit(int nr, volatile unsigned long *addr)
{
	__atomic_fetch_and(addr, ~(1UL << nr), __ATOMIC_SEQ_CST);
}
static inline bool test_and_set_bit(int nr, volatile unsigned long *addr)
{
	return (__atomic_fetch_or(addr, 1UL << nr, __ATOMIC_SEQ_CST) >> nr) & 1UL;
}
static inline bool test_and_clear_bit(int nr, volatile unsigned long *addr)
{
	return (__atomic_fetch_and(addr, ~(1UL << nr), __ATOMIC_SEQ_CST) >> nr) & 1UL;
}

#define PAGEFLAG(uname, lname)                                                   \
	static inline bool Page##uname(const struct page *p) { return test_bit(PG_##lname, &p->flags); } \
	static inline void SetPage##uname(struct page *p) { set_bit(PG_##lname, &p->flags); } \
	static inline void ClearPage##uname(struct page *p) { clear_bit(PG_##lname, &p->flags); } \
	static inline bool TestSetPage##uname(struct page *p) { return test_and_set_bit(PG_##lname, &p->flags); } \
	static inline bool TestClearPage##uname(struct page *p) { return test_and_clear_bit(PG_##lname, &p->flags); }

PAGEFLAG(Locked, locked)
PAGEFLAG(Error, error)
PAGEFLAG(Referenced, referenced)
PAGEFLAG(Uptodate, uptodate)
PAGEFLAG(Dirty, dirty)
PAGEFLAG(LRU, lru)
PAGEFLAG(Active, active)
PAGEFLAG(Reserved, reserved)
PAGEFLAG(Buddy, buddy)
PAGEFLAG(Slab, slab)
PAGEFLAG(Readahead, readahead)
PAGEFLAG(ReadaheadIO, readahead_io)
PAGEFLAG(WindowThrashed, window_thrashed)
PAGEFLAG(CachePool, cache_pool)

static inline uint32_t page_ra_window(const struct page *p)
{
	return (uint32_t)(p->flags >> PG_RA_WINDOW_SHIFT);
}

static inline unsigned int page_folio_order(const struct page *p)
{
	return (unsigned int)((p->flags & PG_FOLIO_ORDER_MASK) >> PG_FOLIO_ORDER_SHIFT);
}

/* The first page index of @p's (emulated) folio. */
static inline unsigned long page_folio_index(const struct page *p)
{
	return p->index & ~((1UL << page_folio_order(p)) - 1);
}

/* Only for a page nobody else can see yet (not in a page cache, not on an LRU). */
static inline void set_page_folio_order(struct page *p, unsigned int order)
{
	p->flags = (p->flags & ~PG_FOLIO_ORDER_MASK) |
		   ((unsigned long)(order & 0xf) << PG_FOLIO_ORDER_SHIFT);
}

/* Only for a page nobody else can see yet (not in a page cache, not on an LRU). */
static inline void set_page_ra_window(struct page *p, uint32_t window)
{
	p->flags = (p->flags & ~PG_RA_WINDOW_MASK) | ((unsigned long)window << PG_RA_WINDOW_SHIFT);
}

/* Flags cleared when a page is handed out (prep_new_page; patch 002 adds PG_readahead). */
#define PAGE_FLAGS_CLEAR_ON_ALLOC                                                \
	(BIT(PG_uptodate) | BIT(PG_error) | BIT(PG_readahead) | BIT(PG_referenced) | \
	 BIT(PG_readahead_io) | BIT(PG_owner_priv_1) | BIT(PG_dirty) | BIT(PG_active) |	\
	 BIT(PG_window_thrashed) | PG_RA_WINDOW_MASK | PG_FOLIO_ORDER_MASK)

#define MAX_ORDER	11		/* orders 0..10: blocks up to 1024 pages */

/* The memmap: struct page for every frame in [mem_min_pfn, mem_max_pfn). */
extern struct page *mem_map;
extern unsigned long mem_min_pfn, mem_max_pfn;

static inline struct page *pfn_to_page(unsigned long pfn) { return mem_map + (pfn - mem_min_pfn); }
static inline unsigned long page_to_pfn(const struct page *p) { return (unsigned long)(p - mem_map) + mem_min_pfn; }

/*
 * Kernel virtual address of a page's contents. In the kernel all RAM is
 * identity-mapped; on the host the arena's base stands for mem_min_pfn.
 */
extern uintptr_t mem_virt_offset;
static inline void *page_address(const struct page *p)
{
	return (void *)(mem_virt_offset + (page_to_pfn(p) << PAGE_SHIFT));
}
static inline struct page *virt_to_page(const void *addr)
{
	return pfn_to_page(((uintptr_t)addr - mem_virt_offset) >> PAGE_SHIFT);
}

struct page *alloc_pages(unsigned int order);
static inline struct page *alloc_page(void) { return alloc_pages(0); }
/* Return a block to the allocator regardless of its reference count. */
void free_pages(struct page *page, unsigned int order);
unsigned long __get_free_pages(unsigned int order); /* address, or 0 */

static inline void get_page(struct page *p) { __atomic_fetch_add(&p->_refcount, 1, __ATOMIC_SEQ_CST); }
static inline int page_count(const struct page *p) { return p->_refcount; }
/* Drop a reference; the last one frees the page (taking it off any LRU list). */
void put_page(struct page *p);

/* Memory statistics, in pages. */
struct mm_stats {
	unsigned long total;		/* frames managed by the allocator, the pool included */
	unsigned long free;		/* free in the buddy lists: the kernel's own memory */
	unsigned long free_per_order[MAX_ORDER];
	unsigned long cached;		/* pages in any page cache */
	unsigned long active, inactive;	/* LRU list lengths */
	unsigned long reclaimed;	/* pages reclaimed since boot */
	unsigned long thrashed;		/* read ahead, then reclaimed before anyone read them */
	unsigned long reserved;		/* frames of usable RAM held back (image, memmap...) */
	unsigned long outside;		/* usable frames left outside the managed window */
	unsigned long spare_used;	/* of those, taken by instruments (mm_spare_alloc()) */
	unsigned long slab;		/* pages owned by the kernel heap */
	unsigned long dropped;		/* pages evicted by drop_pagecache() */
	/* the page cache's pool (mm/cache-pool.c); free above counts only the buddy lists */
	unsigned long cache_pool;	/* frames in the pool: what the page cache can hold */
	unsigned long cache_free;	/* of those, free */
	unsigned long wmark_low, wmark_high; /* reclaim starts below low, stops at high (pool) */
	unsigned long cache_alloc_failures; /* page_cache_alloc() found no frame even after reclaim */
	/* readahead folios of each order that failed, __GFP_NORETRY (page_cache_alloc_folio()) */
	unsigned long noretry_failures[MAX_ORDER];
	/* of the pool's frames, those the kernel's objects hold (mm/kobj.c): not page cache */
	unsigned long kernel_objs;
	unsigned long kernel_obj_failures; /* a kernel object found no frame even after reclaim */
	unsigned long kernel_obj_slab;	   /* of kernel_objs, the slabs of small objects */
	/* workingset shadows (mm/workingset.c): an instrument, reclaim does not read them */
	unsigned long shadows;		/* evicted pages' shadows held */
	unsigned long refaults;		/* pages added over a shadow */
	unsigned long refault_activate;	/* of those, what 7.2's classic LRU would activate */
	unsigned long shadows_dropped;	/* shadows lost to another's slot */
};
void mm_get_stats(struct mm_stats *st);

#endif
