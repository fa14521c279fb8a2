/*
 * Glue between the files of mm/ only: the buddy allocator's state that its
 * set-up at boot fills, set-up calls mm_init() makes, the allocator entry
 * that takes gfp flags, and the LRU/page-cache hooks the free and reclaim
 * paths share. Nothing outside mm/ includes this.
 */
#ifndef MM_INTERNAL_H
#define MM_INTERNAL_H

#include "mm/mm.h"
#include "mm/pagemap.h"

/* Are interrupts masked here? (Reclaim walks structures only threads change.) */
static inline bool irqs_masked(void)
{
#ifdef HOST_BUILD
	return false;
#else
	unsigned long rflags;

	__asm__ __volatile__("pushfq; popq %0" : "=r"(rflags));
	return !(rflags & (1UL << 9));
#endif
}

/* Linux's batch size for one round of reclaim. */
#define SWAP_CLUSTER_MAX 32UL

/*
 * The buddy allocator's free lists and counters (mm/page_alloc.c), which
 * its set-up at boot (mm_init_window(), mm/mm_init.c) resets and fills;
 * mm_up: that set-up is done.
 */
struct free_area {
	struct list_head free_list;
	unsigned long nr_free; /* blocks of this order */
};
extern struct free_area free_area[MAX_ORDER];
extern unsigned long nr_free_pages, nr_bad_pages, nr_managed;
extern bool mm_up;
/* Boot: the free frames [@spfn, @epfn) to the free lists, in the largest aligned blocks. */
void free_range(unsigned long spfn, unsigned long epfn);

/* alloc_pages() with flags (GFP_ATOMIC: never sleeps). */
struct page *alloc_pages_gfp(unsigned int order, gfp_t gfp);
/* The frame @pfn, taken out of the free lists (splitting its block); NULL if it is not free. */
struct page *alloc_frame_at(unsigned long pfn);

/*
 * Fault injection (mm_fail_nth): true if this allocation of @bytes, by
 * @what on behalf of @caller, is the one to fail. Called once per
 * allocation at the API (kmalloc, alloc_pages), never for the pages a
 * kmalloc takes for itself.
 */
bool mm_should_fail(size_t bytes, const char *what, const void *caller);
/* An allocation of @bytes returned NULL (mm_last_failure). */
void mm_note_failure(size_t bytes);

/* Reset each part's state; mm_init() calls them (again on every host re-init). */
void slab_init(void);
void lru_init(void);
void page_cache_init(void);
void page_lock_init(void);
/* Forget the pool without freeing its frames (the host arena they lived in is gone). */
void cache_pool_forget(void);
/* The last put_page() of a pool frame (mm/cache-pool.c): back to the pool. */
void cache_pool_free(struct page *page);
void cache_pool_get_stats(struct mm_stats *st);
/*
 * A frame of the pool for a kernel object (a slab of small workload
 * objects, a page of kvmalloc() or of a thread's stack): the page cache
 * gives way to it as to its own pages (reclaim below the low watermark).
 * Reference count 1; NULL when even reclaim found none. It goes back with
 * cache_pool_free_kernel(), never free_pages().
 */
struct page *cache_pool_alloc_kernel(void);
void cache_pool_free_kernel(struct page *page);

/* Take @page off its LRU list if it is on one (free path; interrupt-safe). */
void lru_del_page(struct page *page);
/* Unhash @page from its mapping without dropping the cache's reference. */
void __remove_from_page_cache(struct page *page);

/*
 * Large folios as units (RA_ALGO_FOLIOS, mm/readahead.c): a page of folio
 * order k > 0 is one of the 2^k pages of a folio whose first page, the
 * head, stands for all of them on the LRU (its one entry, its accessed
 * state); the others, the tails, are never on a list. Reclaim and
 * invalidation take a folio out whole. Pages of order 0 are their own
 * folio, as every page of the 2.6-era algorithms is.
 */
static inline unsigned long folio_nr_pages(const struct page *page)
{
	return 1UL << page_folio_order(page);
}

static inline bool PageTail(const struct page *page)
{
	return page->index & (folio_nr_pages(page) - 1);
}

/* Page @index of @mapping, no reference taken; NULL if it is not cached. */
struct page *__find_page(struct address_space *mapping, pgoff_t index);
/* The head of @page's folio (no reference), @page itself if it is one; NULL if gone. */
struct page *folio_head(struct page *page);

/* Reclaim for an allocation: 0 when reclaim is already running. */
unsigned long reclaim_pages(unsigned long nr);

/*
 * Workingset shadows (mm/workingset.c), an instrument: reclaim leaves one
 * per evicted page, an activation ages them, a page added over one is a
 * refault. workingset_init(0) forgets the table (a host arena gone).
 */
extern unsigned long workingset_nr_shadows;
uint32_t workingset_new_id(void);
void workingset_eviction(struct address_space *mapping, pgoff_t index);
void workingset_activation(unsigned long nr);
void workingset_refault(struct address_space *mapping, pgoff_t index);
void workingset_get_stats(struct mm_stats *st);

/* Each part adds its numbers to mm_get_stats(). */
void lru_get_stats(struct mm_stats *st);
void page_cache_get_stats(struct mm_stats *st);

#endif
