/*
 * The page cache: an address_space per file and per block device holding
 * the pages of its contents by index (mm/filemap-cache.c), and the page
 * lock (mm/page-lock.c). Pages enter locked and not uptodate; whoever
 * completes their I/O sets PG_uptodate (or PG_error) and unlock_page()s
 * them, which wakes readers sleeping in wait_on_page_locked().
 *
 * Reference counting follows Linux: find_get_page() returns the page with
 * a reference the caller drops with page_cache_release(); the cache holds
 * its own reference while the page is in it.
 */
#ifndef MM_PAGEMAP_H
#define MM_PAGEMAP_H

#include "kernel/time.h"
#include "mm/backing-dev.h"
#include "mm/page.h"

struct file;
struct address_space;
struct backing_dev_info;

struct address_space_operations {
	/*
	 * Start reads for @nr_pages pages on @pages (linked by page->lru, in
	 * increasing index order). Each page is already in @mapping, locked,
	 * not uptodate, with an extra reference held for the I/O; on
	 * completion the implementation sets PG_uptodate or PG_error,
	 * unlocks the page and drops that reference. Returns 0 or -errno
	 * (pages not submitted are completed with PG_error).
	 */
	int (*readpages)(struct address_space *mapping, struct file *filp,
			 struct list_head *pages, unsigned int nr_pages);
	/* Same for one page (the retry path after an error). */
	int (*readpage)(struct file *filp, struct page *page);
};

struct address_space {
	void *host;				/* the inode or block device */
	const struct address_space_operations *a_ops;
	struct backing_dev_info *backing_dev_info;
	loff_t size;				/* bytes: the file or device size */
	unsigned long nrpages;
	/*
	 * Hash table of cached pages, 2^hash_bits buckets in page-sized
	 * chunks (mm/filemap-cache.c owns these, and the list link).
	 */
	struct page ***hash;
	unsigned int hash_bits;
	const char *name;			/* for traces: a path or a disk name */
	uint64_t trace_ino;			/* for Linux-style traces: the inode number */
	uint32_t trace_dev;			/*   and the disk, major << 20 | minor */
	/* Readahead pages evicted before anyone read them (mm/ratrace.c counts). */
	unsigned long ra_thrashed;
	unsigned long ra_thrashed_windows;	/* windows with at least one of those */
	uint32_t ws_id;				/* names its shadows (mm/workingset.c) */
	struct list_head mappings_link;		/* on the list drop_pagecache() walks */
};

/* Set up @mapping; returns -ENOMEM if its index cannot be allocated. */
int address_space_init(struct address_space *mapping, const char *name,
		       const struct address_space_operations *a_ops,
		       struct backing_dev_info *bdi, loff_t size);
/* Remove every page (they must be unlocked and unused) and free the index. */
void address_space_release(struct address_space *mapping);

struct page *find_get_page(struct address_space *mapping, pgoff_t index);
/* find_get_page(), then lock the page (sleeping); NULL if absent. */
struct page *find_lock_page(struct address_space *mapping, pgoff_t index);
/* Insert locked with a cache reference; -EEXIST if @index is present. */
int add_to_page_cache(struct page *page, struct address_space *mapping, pgoff_t index);
/* add_to_page_cache() and put the page on the inactive LRU list. */
int add_to_page_cache_lru(struct page *page, struct address_space *mapping, pgoff_t index);
/*
 * Take @page out of its mapping and drop the cache's reference: a caller
 * that goes on using the page must hold a reference of its own (e.g. from
 * find_get_page(), released afterwards with page_cache_release()).
 */
void remove_from_page_cache(struct page *page);
/*
 * A frame for @mapping's page cache, from the page cache's pool
 * (mm/cache-pool.c), reclaiming first when the pool is low; NULL when
 * reclaim finds nothing to evict.
 */
struct page *page_cache_alloc(struct address_space *mapping);
/*
 * A readahead folio's 2^@order frames onto @pages (page->lru), each with a
 * reference, or none: -ENOMEM at once where page_cache_alloc() would go on
 * reclaiming (Linux's __GFP_NORETRY, mm/cache-pool.c).
 */
int page_cache_alloc_folio(struct address_space *mapping, unsigned int order,
			   struct list_head *pages);
static inline void page_cache_release(struct page *page) { put_page(page); }

/*
 * First index in [index, index + max_scan) that is not cached, or
 * index + max_scan if all are; prev_miss scans down to index - max_scan
 * (stopping at 0) and returns the first absent index found, or
 * index - max_scan (or ULONG_MAX when it hit 0 without a miss).
 */
pgoff_t page_cache_next_miss(struct address_space *mapping, pgoff_t index, unsigned long max_scan);
pgoff_t page_cache_prev_miss(struct address_space *mapping, pgoff_t index, unsigned long max_scan);

/*
 * Call @fn(@arg, page) for every page of @mapping, in no particular order,
 * taking no reference: for checkers, one pass over the index instead of a
 * lookup per page index. Returns how many pages it visited, or -EBADMSG
 * (stopping there) at a page no lookup would find: in another index's
 * chain, or of another mapping.
 */
long page_cache_walk(struct address_space *mapping, void (*fn)(void *arg, struct page *page),
		     void *arg);

/* Page lock (mm/page-lock.c). */
void lock_page(struct page *page);
static inline bool trylock_page(struct page *page) { return !TestSetPageLocked(page); }
void unlock_page(struct page *page);
void wait_on_page_locked(struct page *page);
/* Wait with a bound; false on timeout (the I/O path has its own timeouts). */
bool wait_on_page_locked_timeout(struct page *page, uint64_t timeout_ns);
/*
 * Wait for @page's I/O on device @bdi (NULL: none known) while the device
 * makes progress: false once @stall_ns passed since the wait began and
 * since the device last completed a request, with @page still locked.
 * Not a fixed time: a read queued fairly behind many others (cfq's 256
 * readers, 100 ms each a round) waits as long as requests complete, as
 * Linux's would (its hung-task detector only warns), while a lost
 * completion or a dead disk still ends the wait. *@waited_ns (if not
 * NULL) is how long it waited. (Inline, over the page lock's wait, so that
 * the readahead tests' fake page lock serves it too.)
 */
static inline bool wait_on_page_io(struct page *page, const struct backing_dev_info *bdi,
				   uint64_t stall_ns, uint64_t *waited_ns)
{
	uint64_t start = ktime_ns(), now = start;
	bool done = false;

	for (;;) {
		/* the stall is counted from the later of the wait's start and the last completion */
		uint64_t from = bdi && bdi->last_progress_ns > start ? bdi->last_progress_ns : start;

		if (!PageLocked(page)) {
			done = true;
			break;
		}
		if (now >= from + stall_ns)
			break;
		if (wait_on_page_locked_timeout(page, from + stall_ns - now)) {
			done = true;
			break;
		}
		now = ktime_ns();
	}
	if (waited_ns)
		*waited_ns = ktime_ns() - start;
	return done;
}

/*
 * LRU and reclaim (mm/vmscan.c). lru_cache_add() puts a page at the head
 * of the inactive list; page->lru must be free (not on a readpages list).
 * Safe from interrupt handlers, like put_page(). A cached page that never
 * reaches an LRU list is never reclaimed.
 */
void lru_cache_add(struct page *page);
void mark_page_accessed(struct page *page);
/*
 * An inactive page goes back to the head of the inactive list, the last to
 * be reclaimed (retain_inactive_pages() of thrashing-safe readahead).
 */
void lru_retain_inactive(struct page *page);
/* Reclaim up to @nr clean, unlocked, unreferenced inactive pages; returns how many. */
unsigned long shrink_page_cache(unsigned long nr);
/*
 * Evict every clean, unlocked, unused page from every page cache
 * (drop_caches), or from one mapping; returns the number dropped. These
 * are counted as dropped, not as reclaimed or thrashed.
 */
unsigned long drop_pagecache(void);
unsigned long invalidate_mapping_pages(struct address_space *mapping);
/*
 * Every page of @mapping out, waiting up to @timeout_ns for each one still
 * being read, as creat(2) of the file would: the pages dropped, or -ETIMEDOUT
 * or -EBUSY (a page still held) with the others gone (mm/filemap-cache.c).
 * Counted as dropped too.
 */
long truncate_inode_pages(struct address_space *mapping, uint64_t timeout_ns);
/*
 * Called by reclaim when it evicts a page still marked PG_readahead_io
 * (read ahead, never read: thrashing), before the page leaves @mapping.
 * Runs inside an allocation: must not sleep or allocate. Whoever reads a
 * page (the read paths) clears PG_readahead_io, so only unread pages count.
 */
extern void (*readahead_thrashed_hook)(struct address_space *mapping, struct page *page);

/*
 * Read page @index of @mapping through ->readpage if it is not cached and
 * wait for it. Returns the uptodate page with a reference, or ERR_PTR.
 */
struct page *read_cache_page(struct address_space *mapping, pgoff_t index, struct file *filp);

#endif
