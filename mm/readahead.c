/*
 * On-demand readahead (the seeds, patches 002-009) and the mechanism both
 * algorithms share: __do_page_cache_readahead() allocates a window's
 * missing pages and hands them to ->readpages in one call. Host-buildable.
 *
 * The read paths (mm/filemap.c) call page_cache_readahead_ondemand() only
 * when it is time to read ahead: on a missing page (synchronous readahead)
 * and on a page marked PG_readahead (asynchronous readahead). The policy
 * (ondemand_readahead) decides where the next window starts, how big it is
 * and where its look-ahead mark goes; ra_submit() does the I/O.
 *
 * Boot: mm/racmd.c calls readahead_init() with the ra= and ra_kb= values.
 */
#include <string.h>

#include "drivers/blkdev.h"
#include "kernel/log.h"
#include "fs/vfs.h"
#include "mm/readahead.h"

enum ra_algo ra_default_algo = RA_ONDEMAND;
unsigned long ra_default_pages = MAX_RA_PAGES;

const char *const ra_algo_names[] = { "ondemand", "legacy", "off", NULL };

const char *ra_algo_name(enum ra_algo algo)
{
	return (unsigned int)algo < RA_NR_ALGOS ? ra_algo_names[algo] : "?";
}

int ra_algo_parse(const char *s, enum ra_algo *algo)
{
	for (int i = 0; i < RA_NR_ALGOS; i++) {
		if (strcmp(s, ra_algo_names[i]) == 0) {
			*algo = (enum ra_algo)i;
			return 0;
		}
	}
	return -EINVAL;
}

int readahead_init(enum ra_algo algo, unsigned long max_pages)
{
	if ((unsigned int)algo >= RA_NR_ALGOS || max_pages > RA_MAX_WINDOW)
		return -EINVAL;
	ra_default_algo = algo;
	ra_default_pages = max_pages;
	readahead_thrashed_hook = ra_page_thrashed;
	return 0;
}

static void ra_reset_window(struct file_ra_state *ra)
{
	ra->la_index = ra->ra_index = ra->lookahead_index = ra->readahead_index = 0;
	ra->start = ra->size = ra->flags = ra->cache_hit = 0;
	ra->ahead_start = ra->ahead_size = 0;
	ra->mmap_hit = ra->mmap_miss = 0;
	/* -1: the first read, at offset 0, looks sequential to both algorithms */
	ra->prev_index = -1UL;
	ra->prev_offset = 0;
}

void file_ra_state_init(struct file_ra_state *ra, struct address_space *mapping)
{
	memset(ra, 0, sizeof(*ra));
	ra_reset_window(ra);
	ra->mapping = mapping;
	ra->thrashed_base = mapping ? mapping->ra_thrashed : 0;
	ra->thrashed_windows_base = mapping ? mapping->ra_thrashed_windows : 0;
	/* 2.6.22: the maximum window is the device's (bdi.ra_pages, blockdev --setra) */
	if (mapping && mapping->backing_dev_info)
		ra->ra_pages = mapping->backing_dev_info->ra_pages;
	else
		ra->ra_pages = ra_default_pages;
	file_ra_set_algo(ra, ra_default_algo);
}

void file_ra_set_algo(struct file_ra_state *ra, enum ra_algo algo)
{
	ra_reset_window(ra);
	ra->algo = algo;
	if (algo == RA_OFF)
		ra->ra_pages = 0;
	else if (ra->ra_pages == 0)
		ra->ra_pages = ra->mapping && ra->mapping->backing_dev_info
				       ? ra->mapping->backing_dev_info->ra_pages
				       : ra_default_pages;
}

int file_ra_set_max_pages(struct file_ra_state *ra, unsigned long pages)
{
	if (pages > RA_MAX_WINDOW || (ra->algo == RA_OFF && pages))
		return -EINVAL;
	ra->ra_pages = pages;
	return 0;
}

/*
 * Given a desired number of readahead pages, return a sensible upper
 * limit: half of what is free or could be reclaimed cheaply.
 */
unsigned long max_sane_readahead(unsigned long nr)
{
	struct mm_stats st;

	mm_get_stats(&st);
	return min(nr, (st.inactive + st.free) / 2);
}

/*
 * Hand the pages on @pages (linked by page->lru in increasing index order,
 * each already in @mapping, locked, with an I/O reference) to ->readpages
 * and make sure each one ends up on the LRU list. The implementations in
 * this tree take every page off @pages and lru_cache_add() it themselves;
 * any page still on the list afterwards is put there here, so a
 * ->readpages that leaves the list alone cannot leak unreclaimable pages.
 */
static int read_pages(struct address_space *mapping, struct file *filp,
		      struct list_head *pages, unsigned int nr_pages)
{
	int err = 0;

	if (mapping->a_ops->readpages) {
		err = mapping->a_ops->readpages(mapping, filp, pages, nr_pages);
	} else {
		/* Only ->readpage: the window is still read, a page at a time (as the seed). */
		while (!list_empty(pages)) {
			struct page *page = list_first_entry(pages, struct page, lru);
			int e;

			list_del(&page->lru);
			lru_cache_add(page);
			e = mapping->a_ops->readpage(filp, page);
			if (e && !err)
				err = e;
		}
	}
	while (!list_empty(pages)) {
		struct page *page = list_first_entry(pages, struct page, lru);

		list_del(&page->lru);
		if (!PageLRU(page))
			lru_cache_add(page);
	}
	return err;
}

int __do_page_cache_readahead(struct address_space *mapping, struct file *filp,
			      pgoff_t offset, unsigned long nr_to_read,
			      unsigned long lookahead_size)
{
	LIST_HEAD(page_pool);
	pgoff_t end_index;
	unsigned long i;
	uint32_t window = 0;
	int ret = 0;

	if (!mapping->a_ops || (!mapping->a_ops->readpages && !mapping->a_ops->readpage))
		return -EINVAL;
	if (mapping->size <= 0 || nr_to_read == 0)
		return 0;
	end_index = (pgoff_t)((mapping->size - 1) >> PAGE_CACHE_SHIFT);

	/*
	 * Allocate every missing page first and submit them together, so the
	 * filesystem sees the whole window and can build the fewest bios.
	 */
	for (i = 0; i < nr_to_read; i++) {
		pgoff_t index = offset + i;
		struct page *page;
		int err;

		if (index > end_index || index < offset)
			break;
		page = find_get_page(mapping, index);
		if (page) {
			page_cache_release(page);
			continue;
		}
		page = page_cache_alloc(mapping);
		if (!page)
			break;
		if (!window)
			window = ra_window_number(nr_to_read);
		/*
		 * Flags first: once the page is in the cache a reader can find
		 * it, and must then see the look-ahead mark. Only new pages get
		 * the mark, so a cached file never triggers readahead-for-nothing.
		 */
		set_page_ra_window(page, window);
		if (i == nr_to_read - lookahead_size)
			SetPageReadahead(page);
		SetPageReadaheadIO(page);
		err = add_to_page_cache(page, mapping, index);
		if (err) {
			/* -EEXIST: someone added it while we allocated; else no memory */
			ClearPageReadahead(page);
			ClearPageReadaheadIO(page);
			page_cache_release(page);
			if (err == -EEXIST)
				continue;
			break;
		}
		/* The allocation's reference becomes the I/O's reference. */
		list_add_tail(&page->lru, &page_pool);
		ret++;
	}
	if (ret) {
		ra_window_submitted(filp ? &filp->f_ra : NULL);
		read_pages(mapping, filp, &page_pool, (unsigned int)ret);
	}
	return ret;
}

int do_page_cache_readahead(struct address_space *mapping, struct file *filp,
			    pgoff_t offset, unsigned long nr_to_read)
{
	if (bdi_read_congested(mapping->backing_dev_info))
		return -EAGAIN;
	return __do_page_cache_readahead(mapping, filp, offset, nr_to_read, 0);
}

/* Chunk size of forced readahead: bounds the pages pinned by one ->readpages. */
#define FORCE_CHUNK_PAGES	(2 * 1024 * 1024 / PAGE_CACHE_SIZE)

int force_page_cache_readahead(struct address_space *mapping, struct file *filp,
			       pgoff_t offset, unsigned long nr_to_read)
{
	struct file_ra_state *ra = filp ? &filp->f_ra : NULL;
	unsigned long requested = nr_to_read;
	pgoff_t start = offset;
	int ret = 0;

	if (!mapping->a_ops || (!mapping->a_ops->readpages && !mapping->a_ops->readpage))
		return -EINVAL;
	nr_to_read = max_sane_readahead(nr_to_read);
	while (nr_to_read) {
		unsigned long chunk = min_t(unsigned long, FORCE_CHUNK_PAGES, nr_to_read);
		int err = __do_page_cache_readahead(mapping, filp, offset, chunk, 0);

		if (err < 0) {
			ret = err;
			break;
		}
		ret += err;
		offset += chunk;
		nr_to_read -= chunk;
	}
	if (ra) {
		struct ra_call call = { .rcase = RA_CASE_FORCED, .async = true };

		ra_call_note_io(&call, ret > 0 ? (unsigned long)ret : 0, true);
		ra_trace_record(mapping, ra, start, requested, &call, start, requested, 0);
	}
	return ret;
}

unsigned long ra_submit(struct file_ra_state *ra, struct address_space *mapping,
			struct file *filp)
{
	int actual = __do_page_cache_readahead(mapping, filp, ra->ra_index,
					       ra_readahead_size(ra), ra_lookahead_size(ra));

	return actual > 0 ? (unsigned long)actual : 0;
}

/*
 * Set the initial window size: round the request up to a power of two,
 * then x4 for small requests, x2 for medium ones, and the maximum for
 * large ones. For a 128 KiB (32 page) maximum: a request of 1-2 pages gets
 * 4 pages, 3-4 get 8, 5-8 get 16, more get 32.
 */
unsigned long get_init_ra_size(unsigned long size, unsigned long max)
{
	unsigned long newsize = roundup_pow_of_two(size);

	if (newsize <= max / 32)
		newsize = newsize * 4;
	else if (newsize <= max / 4)
		newsize = newsize * 2;
	else
		newsize = max;
	return newsize;
}

/*
 * Get the previous window size, ramp it up (x4 while far below the
 * maximum, then x2) and return it as the new window size.
 */
unsigned long get_next_ra_size(const struct file_ra_state *ra, unsigned long max)
{
	unsigned long cur = ra->readahead_index - ra->ra_index;
	unsigned long newsize;

	if (cur < max / 16)
		newsize = 4 * cur;
	else
		newsize = 2 * cur;
	return min(newsize, max);
}

/*
 * On-demand readahead design.
 *
 * The fields in struct file_ra_state represent the most-recently-executed
 * readahead attempt:
 *
 *                    |-------- last readahead window -------->|
 *       |-- application walking here -->|
 * ======#============|==================#=====================|
 *       ^la_index    ^ra_index          ^lookahead_index      ^readahead_index
 *
 * [ra_index, readahead_index) is the last readahead window.
 *
 * [la_index, lookahead_index] is where the application is expected to walk
 * in the common case of cache-cold sequential reads: the last window was
 * started when the application was at la_index, and the next one starts
 * when it reaches lookahead_index.
 *
 * To overlap the application's thinking time with disk I/O, readahead is
 * pipelined: rather than waiting until the application stalls on the
 * missing page at readahead_index, an asynchronous readahead is submitted
 * as soon as it reads the page at lookahead_index. Normally lookahead_index
 * equals ra_index, for maximum pipelining.
 *
 * Interleaved streams on one file overwrite each other's state, so the page
 * at lookahead_index is marked PG_readahead and the mark, not the state,
 * says "read ahead now". Pages already cached are never marked, so a cached
 * file costs no readahead calls at all.
 *
 * prev_index is the last page of the _previous_ read request, kept by the
 * caller; it tells small random reads from sequential ones, loosely, so
 * interleaved reads may pass as sequential.
 *
 * Special case: a read starting at page 0 of the file is taken as the start
 * of a linear read (prev_index is -1 then), and gets an initial window
 * sized from the request and the maximum.
 *
 * Windows ramp up fast at first and more slowly near the maximum.
 */
static unsigned long ondemand_readahead(struct address_space *mapping, struct file_ra_state *ra,
					struct file *filp, struct page *page, pgoff_t offset,
					unsigned long req_size, struct ra_call *call)
{
	unsigned long max = ra->ra_pages;
	pgoff_t ra_index;
	unsigned long ra_size, la_size;
	bool sequential = (offset - ra->prev_index <= 1UL) || req_size > max;

	/*
	 * Sequential-next: a look-ahead or readahead hit on the current
	 * window. Assume a sequential stream: ramp up and push the window on.
	 */
	if (offset && (offset == ra->lookahead_index || offset == ra->readahead_index)) {
		call->rcase = RA_CASE_SEQ_NEXT;
		ra_index = ra->readahead_index;
		ra_size = get_next_ra_size(ra, max);
		la_size = ra_size;
		goto fill_ra;
	}

	/*
	 * Random: a standalone small read. Read it as is, and keep the state
	 * for the stream it does not belong to.
	 */
	if (!page && !sequential) {
		int actual;

		call->rcase = RA_CASE_RANDOM;
		actual = __do_page_cache_readahead(mapping, filp, offset, req_size, 0);
		ra_call_note_io(call, actual > 0 ? (unsigned long)actual : 0, call->async);
		ra_trace_record(mapping, ra, offset, req_size, call, offset, req_size, 0);
		return call->actual;
	}

	/*
	 * Sequential-first: the first read at the start of the file, a
	 * sequential cache miss or an oversize random read. Start a window.
	 */
	call->rcase = RA_CASE_SEQ_FIRST;
	ra_index = offset;
	ra_size = get_init_ra_size(req_size, max);
	la_size = ra_size > req_size ? ra_size - req_size : ra_size;

	/*
	 * Lookahead-clueless: a look-ahead hit without a matching state
	 * (another stream moved it, e.g. interleaved reads). Not knowing the
	 * old window, bet on the smallest one that could have put the mark
	 * here, and ramp it up.
	 */
	if (page) {
		call->rcase = RA_CASE_CLUELESS;
		ra_index++;
		ra_size = min(4 * ra_size, max);
	}

fill_ra:
	if (ra->no_lookahead)
		la_size = 0;
	ra_set_index(ra, offset, ra_index);
	ra_set_size(ra, ra_size, la_size);
	ra_call_note_io(call, ra_submit(ra, mapping, filp), call->async);
	ra_trace_record(mapping, ra, offset, req_size, call, ra->ra_index,
			ra_readahead_size(ra), ra_lookahead_size(ra));
	return call->actual;
}

unsigned long page_cache_readahead_ondemand(struct address_space *mapping,
					    struct file_ra_state *ra, struct file *filp,
					    struct page *page, pgoff_t offset,
					    unsigned long req_size)
{
	struct ra_call call = { .async = page != NULL };

	call.congested = bdi_read_congested(mapping->backing_dev_info);
	if (!ra->ra_pages) {
		/* no readahead: another reader's look-ahead mark stays where it is */
		call.rcase = RA_CASE_OFF;
		ra_trace_record(mapping, ra, offset, req_size, &call, offset, 0, 0);
		return 0;
	}
	if (page) {
		ClearPageReadahead(page);
		/*
		 * Defer asynchronous readahead while the queue is congested:
		 * the reader is not waiting yet, and the pages it will miss
		 * are read then, synchronously.
		 */
		if (call.congested) {
			call.rcase = RA_CASE_CONGESTED;
			call.deferred = true;
			ra_trace_record(mapping, ra, offset, req_size, &call, offset, 0, 0);
			return 0;
		}
	}
	return ondemand_readahead(mapping, ra, filp, page, offset, req_size, &call);
}

void ra_dir_readahead(struct file *filp, struct address_space *bd_mapping, pgoff_t index)
{
	struct file_ra_state *ra = &filp->f_ra;

	/*
	 * Directory readahead works on the block device, not the directory:
	 * the blocks need not be contiguous. The read routine says nothing
	 * about the page's state, so readahead is called whenever the block
	 * falls outside the readahead window.
	 */
	if (ra->algo == RA_LEGACY) {
		/* 2.6.20: every block goes to page_cache_readahead(), which keeps prev_index */
		page_cache_readahead(bd_mapping, ra, filp, index, 1);
		return;
	}
	if (!ra_has_index(ra, index))
		page_cache_readahead_ondemand(bd_mapping, ra, filp, NULL, index, 1);
	ra->prev_index = index;
}

void ra_page_used(struct file_ra_state *ra, struct page *page)
{
	if (TestClearPageReadaheadIO(page)) {
		ra->stats.hit_pages++;
		ra_global_stats.hit_pages++;
	}
}
