/*
 * Memory management entry points: bringing physical memory up at boot
 * (mm_init, mm/mm_init.c) and the kernel heap (kmalloc, mm/slab.c).
 *
 * Boot: mem_setup() (mm/mem-setup.c, called by kmain) calls mm_init() once,
 * before any init call, with the usable RAM from the multiboot memory map (already capped by mem=) and every
 * range that must never be handed out (kernel image, multiboot info and
 * modules, boot page tables). mm_init places the memmap (one struct page
 * per frame) inside usable RAM and gives every other free frame, except
 * frame 0, to the buddy allocator.
 *
 *	struct mem_region usable[] = { { 0x100000, 0x3f00000 } };
 *	struct mem_region rsv[] = { { kernel_start, kernel_len }, ... };
 *	if (mm_init(usable, 1, rsv, ARRAY_SIZE(rsv)) < 0) panic(...);
 *
 * Heap: kmalloc(size) or kmalloc(size, GFP_KERNEL) (both spellings work),
 * kzalloc, kcalloc, krealloc, kfree. Objects up to 2 KiB come from size
 * classes on slab pages, bigger ones are whole buddy blocks (at most
 * 4 MiB). NULL on failure; the caller reports it. GFP_ATOMIC never
 * reclaims page cache, for callers with interrupts masked.
 */
#ifndef MM_MM_H
#define MM_MM_H

#include "mm/page.h"

struct mem_region {
	uint64_t base, len; /* physical bytes */
};

#define MM_MAX_REGIONS 64 /* per list passed to mm_init() */

/*
 * Bring up the frame allocator. Returns 0, -EINVAL for a malformed list
 * (printing which region is wrong), -ENOMEM when no usable range can hold
 * the memmap, -EBUSY when called twice in the kernel. Prints one line:
 * managed MiB, sizeof(struct page) and the memmap overhead.
 */
int mm_init(const struct mem_region *usable, int nr_usable, const struct mem_region *reserved,
	    int nr_reserved);
/*
 * Physical memory at boot (mm/mem-setup.c): the memory map capped by mem=,
 * the heap and the page cache's pool, once, before the threads; kmain
 * (init/main.c) calls it. 0, or -errno with a message.
 */
int mem_setup(void);
/*
 * The page cache's pool (mm/cache-pool.c): take @pages frames from the
 * allocator for the page cache alone (again on a re-init, when none is in
 * use). -ENOMEM, with a message, when they are not free.
 */
int cache_pool_init(unsigned long pages);
/* The pool's size for @ram bytes of RAM (mem=): see mm/cache-pool.c. */
unsigned long cache_pool_default_pages(uint64_t ram);

/* Where the kernel's heap and the page cache's pool lie for @ram bytes (mm/cache-pool.c). */
#define MM_LAYOUT_HEAP_BASE (12ULL << 20)
struct mm_layout {
	uint64_t heap_base, heap_bytes;	/* the kernel's heap: [base, base + bytes) */
	unsigned long pool_pages;	/* the pool, right above the heap */
	bool canonical;			/* false below 64 MiB: no fixed layout */
};
void mm_layout_for(uint64_t ram, struct mm_layout *lay);
/* Frames in the pool (0 before cache_pool_init()). */
unsigned long cache_pool_pages(void);

/*
 * mm_init(), but only the usable frames inside @window go to the allocator
 * (and the memmap is placed outside it): a layout that is a function of
 * the run's keys, whatever the kernel image's size (mm/mem-setup.c).
 */
int mm_init_window(const struct mem_region *usable, int nr_usable,
		   const struct mem_region *reserved, int nr_reserved,
		   const struct mem_region *window);

/*
 * Memory for an instrument (the readahead trace's ring), from usable RAM
 * outside mm_init_window()'s window: neither the page cache nor the
 * kernel's heap, so an instrument's size moves no figure. Contiguous,
 * page-aligned, never freed; NULL when no run of free frames holds
 * @bytes. mm_spare_largest(): the longest run left, in frames.
 */
void *mm_spare_alloc(size_t bytes);
unsigned long mm_spare_largest(void);

/* True once mm_init() succeeded. */
bool mm_ready(void);
/* The reserved list mm_init() was given (for tests checking it is honoured). */
int mm_reserved_regions(const struct mem_region **regions);
/* Where mm_init() put the memmap, in physical bytes. */
struct mem_region mm_memmap_region(void);

typedef unsigned int gfp_t;
#define GFP_KERNEL 0u	      /* may reclaim page cache */
#define GFP_ATOMIC 1u	      /* never reclaims: safe with interrupts masked */
#define GFP_NOFS   GFP_KERNEL /* reclaim never calls into a filesystem here */
#define __GFP_ZERO 2u	      /* clear the object */
/*
 * A workload's object (an open file, an inode, a reader's state): from the
 * page cache's RAM, as Linux's slab caches share the zone with the page
 * cache, which gives way to it. Objects up to 2 KiB; kvmalloc() (mm/kobj.c)
 * takes larger ones from there too. Instruments (trace rings, samples,
 * results) stay on the kernel's heap and so never move what the page
 * cache holds.
 */
#define __GFP_WORKLOAD 4u
#define GFP_WORKLOAD   (GFP_KERNEL | __GFP_WORKLOAD)

#define KMALLOC_MAX_SIZE (PAGE_SIZE << (MAX_ORDER - 1)) /* 4 MiB */

void *__kmalloc(size_t size, gfp_t flags);
void *__krealloc(void *p, size_t size, gfp_t flags);
void kfree(const void *p);
/* Usable size of a kmalloc'd object (its size class). */
size_t ksize(const void *p);
char *kstrdup(const char *s);
char *kstrdup_gfp(const char *s, gfp_t gfp);

/* kmalloc(size) and kmalloc(size, gfp) both work: the flags default to GFP_KERNEL. */
#define __kmalloc_gfp(size, gfp, ...)	  __kmalloc((size), (gfp))
#define kmalloc(...)			  __kmalloc_gfp(__VA_ARGS__, GFP_KERNEL, 0)
#define __kzalloc_gfp(size, gfp, ...)	  __kmalloc((size), (gfp) | __GFP_ZERO)
#define kzalloc(...)			  __kzalloc_gfp(__VA_ARGS__, GFP_KERNEL, 0)
#define __krealloc_gfp(p, size, gfp, ...) __krealloc((p), (size), (gfp))
#define krealloc(...)			  __krealloc_gfp(__VA_ARGS__, GFP_KERNEL, 0)
/* n * size bytes, zeroed; NULL if the product overflows. */
#define __kcalloc_gfp(n, size, gfp, ...)  __kcalloc((n), (size), (gfp))
#define kcalloc(...)			  __kcalloc_gfp(__VA_ARGS__, GFP_KERNEL, 0)
static inline void *__kcalloc(size_t n, size_t size, gfp_t flags)
{
	size_t bytes;

	if (__builtin_mul_overflow(n, size, &bytes))
		return NULL;
	return __kmalloc(bytes, flags | __GFP_ZERO);
}

/*
 * Running out of memory, on purpose and for real (mm/page_alloc.c).
 *
 * Fault injection, as Linux's /proc/<pid>/fail-nth: after mm_fail_nth(n)
 * the n-th allocation from then on by the calling thread fails as if
 * memory had run out (0 disarms; it disarms itself once it fired). An
 * allocation is one call of kmalloc, kzalloc, kcalloc, krealloc (when it
 * must move), kstrdup or alloc_pages; the pages a kmalloc takes for itself
 * are not counted again. Other threads' allocations, and any made with
 * interrupts masked (as an interrupt handler's are), are not counted. It
 * prints one "fail_nth:" line (not an error) naming the allocation it fails.
 * The shell's failnth command (bench/failnth.c) drives it.
 */
struct mm_fail_report {
	bool fired;
	unsigned long nth;  /* the allocation that failed, counted from arming */
	size_t bytes;	    /* what it asked for */
	const char *what;   /* "kmalloc" or "alloc_pages" */
	const void *caller; /* its call site */
};
void mm_fail_nth(unsigned long n);
/*
 * The workingset shadows' table (mm/workingset.c): up to four slots a pool
 * frame from spare RAM, else from the heap as many as fit (at least
 * WORKINGSET_MIN_SLOTS); false if there was no memory for it (no refault is
 * counted then).
 */
bool workingset_init(unsigned long pool_pages);
/* The fewest shadow slots worth a table: with fewer, refaults are not counted at all. */
#define WORKINGSET_MIN_SLOTS 4096UL
/* Allocations counted since mm_fail_nth() armed it (frozen once it fired). */
unsigned long mm_fail_nth_calls(void);
void mm_fail_nth_report(struct mm_fail_report *rep);
/*
 * Bytes asked for by the most recent kmalloc or alloc_pages that returned
 * NULL, injected or not: for error messages saying how much was asked
 * when the failure happened below the caller (opening a file, say).
 */
size_t mm_last_failure(void);

/* Heap statistics (mm/slab.c). */
struct kmalloc_stats {
	unsigned long slab_pages;  /* pages holding size-class objects */
	unsigned long large_pages; /* pages of allocations above 2 KiB */
	unsigned long objects;	   /* size-class objects in use */
	unsigned long failures;	   /* allocations that returned NULL */
	/* GFP_WORKLOAD's: pool frames (slabs, page-sized objects), objects in slabs */
	unsigned long workload_slab_pages, workload_objects;
};
void kmalloc_get_stats(struct kmalloc_stats *st);

/*
 * Microbenchmarks (mm/mmbench.c), run by the mmbench command and by
 * build/host/bench_mm. Times are averages over @iters operations.
 */
struct mm_bench_alloc {
	unsigned long iters;
	double alloc_free_ns;  /* alloc_page + put_page, back to back */
	double batch_alloc_ns; /* alloc_page of batch pages in a row, per page */
	double batch_free_ns;  /* then put_page of each */
	unsigned long batch;
	double order3_ns;  /* alloc_pages(3) + free_pages */
	double kmalloc_ns; /* kmalloc(64) + kfree */
};
int mm_bench_alloc(unsigned long iters, struct mm_bench_alloc *r);

struct mm_bench_lookup {
	unsigned long pages; /* pages cached in the benchmark's mapping */
	unsigned long lookups;
	unsigned int hash_bits; /* index size reached */
	double insert_ns;	/* add_to_page_cache, per page, rehashes included */
	double hit_ns;		/* find_get_page + put_page, random cached index */
	double seq_ns;		/* same, in index order */
	double miss_ns;		/* find_get_page of an absent index */
	double next_miss_ns;	/* page_cache_next_miss over 32 cached pages, per page */
	pgoff_t sink;		/* keeps the scans from being optimised away */
};
/* Cache @pages real frames in a private mapping and time lookups; -ENOMEM if they do not fit. */
int mm_bench_lookup(unsigned long pages, unsigned long lookups, struct mm_bench_lookup *r);

#ifdef HOST_BUILD
/*
 * Host tests: map @len bytes that stand for physical [@phys_base,
 * @phys_base + @len) and point mem_virt_offset at them (an earlier arena is
 * unmapped, and every mm structure must be rebuilt with mm_init()). The
 * mapping is lazy, so a large arena costs only the pages touched. Returns
 * the virtual base or NULL.
 */
void *mm_host_arena(uint64_t phys_base, uint64_t len);
/* mm_host_arena() at MM_HOST_PHYS_BASE and mm_init() with all of it usable. */
int mm_host_init(uint64_t bytes);
#define MM_HOST_PHYS_BASE 0x40000000ULL /* 1 GiB: 4 MiB aligned, not frame 0 */
#endif

#endif
