/*
 * The 2.6.20 readahead algorithm, as patch 010 of the seeds removes it:
 * a current window and an ahead window, moved by page_cache_readahead(),
 * which the read paths call for every read request. It is the baseline
 * the on-demand algorithm (mm/readahead-ondemand.c) is measured against
 * (ra=legacy). Host-buildable.
 *
 * Hooks: ->request is page_cache_readahead(), which the read paths call
 * when the reader gets to the index it returned last (next_index); ->sync
 * is handle_ra_miss(), for a page it expected in the cache; the window I/O
 * goes through the same __do_page_cache_readahead() as on-demand, without
 * look-ahead marks. The fault path calls page_cache_readahead() for every
 * MADV_SEQUENTIAL fault, as 2.6.20's filemap_nopage() did.
 */
#include "mm/backing-dev.h"
#include "mm/file.h"
#include "mm/readahead.h"

/* Turn readahead off after this many pages were found cached (2.6.20's mm.h). */
#define VM_MAX_CACHE_HIT	256
#define RA_FLAG_MISS	0x01	/* a cache miss occurred against this file */
#define RA_FLAG_INCACHE	0x02	/* file is already in cache */

/*
 * 2.6.20's part of struct file_ra_state, in the algorithm's own area
 * (ra_priv(), zeroed at open: readahead off, no window).
 */
struct legacy_ra {
	unsigned long start;		/* current window */
	unsigned long size;
	unsigned long flags;		/* RA_FLAG_* */
	unsigned long cache_hit;	/* cache hit count */
	unsigned long ahead_start;	/* ahead window */
	unsigned long ahead_size;
};

static struct legacy_ra *lg(struct file_ra_state *ra)
{
	return ra_priv(ra, struct legacy_ra);
}

/* Its trace cases (the shared ones are on-demand's vocabulary, not 2.6.20's). */
enum {
	LEGACY_FIRST,	/* first sequential access, new current window */
	LEGACY_RANDOM,	/* random access, ra_off() and read as is */
	LEGACY_AHEAD,	/* built a new ahead window */
	LEGACY_WINDOW,	/* inside the current window, nothing to do */
	LEGACY_INCACHE,	/* turned off by RA_FLAG_INCACHE, return */
	LEGACY_MISS,	/* handle_ra_miss() */
	LEGACY_NR_CASES
};

static const struct ra_case_desc legacy_cases[LEGACY_NR_CASES] = {
	[LEGACY_FIRST] = { "legacy-first", RA_KIND_FIRST },
	[LEGACY_RANDOM] = { "legacy-random", RA_KIND_RANDOM },
	[LEGACY_AHEAD] = { "legacy-ahead", RA_KIND_NEXT },
	[LEGACY_WINDOW] = { "legacy-window", RA_KIND_OTHER },
	[LEGACY_INCACHE] = { "legacy-incache", RA_KIND_OTHER },
	[LEGACY_MISS] = { "legacy-miss", RA_KIND_OTHER },
};

static unsigned int legacy_case_base;
#define LEGACY_CASE(c)	RA_OWN_CASE(legacy_case_base, c)

/*
 * Readahead design (2.6.20).
 *
 * The fields in struct file_ra_state represent the most-recently-executed
 * readahead attempt:
 *
 * start:	page index at which the current window starts
 * size:	pages in the current window (0: readahead is off, and
 *		prev_index is used to notice sequential I/O resuming)
 * prev_index:	the page the algorithm most recently looked at; mainly
 *		for detecting sequential reads, and for returning at once
 *		when called again for the page it just saw
 * ahead_start,
 * ahead_size:	the ahead window
 * ra_pages:	the maximum readahead for this file
 *
 * While the application walks the current window, I/O is underway on the
 * ahead window. When the application crosses into the ahead window, it
 * becomes the current window and a new ahead window is submitted at once
 * (its pages are probably still locked under I/O, so the reader would
 * otherwise stall):
 *
 *   ----|----------------|----------------|-----
 *       ^start           ^start+size
 *                        ^ahead_start     ^ahead_start+ahead_size
 *
 *         ^ when this page is read, I/O for the ahead window is submitted
 *
 * Window sizes are computed only when I/O is to be submitted; they ramp up
 * fast at first, then more slowly near the maximum. Any seek turns
 * readahead off until the next sequential access. A first read at the
 * start of the file is assumed to be the start of a whole-file read.
 *
 * page_cache_readahead() must see every read request, not only the ones
 * that miss: it is called once per request, and again only when the
 * request is larger than what it could start (a request > max readahead).
 * That is what makes it look up every page of a cached file until 256
 * lookups found nothing to read (RA_FLAG_INCACHE).
 */

/* Record @call with the current window, and the ahead window the trace prints. */
static void legacy_record(struct address_space *mapping, struct file_ra_state *ra,
			  pgoff_t offset, unsigned long req, struct ra_call *call)
{
	call->has_ahead = true;
	call->ahead_start = lg(ra)->ahead_start;
	call->ahead_size = lg(ra)->ahead_size;
	ra_trace_record(mapping, ra, offset, req, call, lg(ra)->start, lg(ra)->size, 0);
}

static unsigned long get_max_readahead(const struct file_ra_state *ra)
{
	return ra->ra_pages;
}

static unsigned long get_min_readahead(const struct file_ra_state *ra)
{
	(void)ra;
	return MIN_RA_PAGES;
}

static void reset_ahead_window(struct file_ra_state *ra)
{
	/*
	 * Keep ahead_start + ahead_size: page_cache_readahead() clamps
	 * prev_index to it after a failed ahead window. ahead_size is never
	 * used without checking ahead_start != 0 first.
	 */
	lg(ra)->ahead_size += lg(ra)->ahead_start;
	lg(ra)->ahead_start = 0;
}

static void ra_off(struct file_ra_state *ra)
{
	lg(ra)->start = 0;
	lg(ra)->flags = 0;
	lg(ra)->size = 0;
	reset_ahead_window(ra);
}

/*
 * The next window size, computed only when I/O is submitted: after a
 * cache miss shrink by two pages (not below the minimum), else grow x4
 * far below the maximum and x2 near it. As in 2.6.20, a current window of
 * fewer than two pages wraps cur - 2 around and gets the maximum.
 */
static unsigned long legacy_next_ra_size(struct file_ra_state *ra)
{
	unsigned long max = get_max_readahead(ra);
	unsigned long min = get_min_readahead(ra);
	unsigned long cur = lg(ra)->size;
	unsigned long newsize;

	if (lg(ra)->flags & RA_FLAG_MISS) {
		lg(ra)->flags &= ~RA_FLAG_MISS;
		newsize = max(cur - 2, min);
	} else if (cur < max / 16) {
		newsize = 4 * cur;
	} else {
		newsize = 2 * cur;
	}
	return min(newsize, max);
}

/*
 * How effective is readahead? When it started no I/O the pages were all
 * cached; after VM_MAX_CACHE_HIT such pages in a row, turn readahead off
 * for this file until a miss (handle_ra_miss) says otherwise.
 */
static int check_ra_success(struct file_ra_state *ra, unsigned long nr_to_read,
			    unsigned long actual)
{
	if (actual == 0) {
		lg(ra)->cache_hit += nr_to_read;
		if (lg(ra)->cache_hit >= VM_MAX_CACHE_HIT) {
			ra_off(ra);
			lg(ra)->flags |= RA_FLAG_INCACHE;
			return 0;
		}
	} else {
		lg(ra)->cache_hit = 0;
	}
	return 1;
}

/*
 * Read @nr_to_read pages at @offset; without @block, give up when the
 * queue is congested. Returns 1 on success without readahead being turned
 * off, 0 otherwise.
 */
static int blockable_page_cache_readahead(struct address_space *mapping, struct file *filp,
					  pgoff_t offset, unsigned long nr_to_read,
					  struct file_ra_state *ra, int block,
					  struct ra_call *call)
{
	int actual;

	if (!block && bdi_read_congested(mapping->backing_dev_info)) {
		call->congested = true;
		call->deferred = true;
		return 0;
	}
	actual = __do_page_cache_readahead(mapping, filp, offset, nr_to_read, 0);
	if (actual < 0)
		actual = 0;
	/* Non-blocking windows are the ones the reader is not waiting for yet. */
	call->async = !block;
	ra_call_note_io(call, (unsigned long)actual, !block);
	return check_ra_success(ra, nr_to_read, (unsigned long)actual);
}

static int make_ahead_window(struct address_space *mapping, struct file *filp,
			     struct file_ra_state *ra, int force, struct ra_call *call)
{
	int block, ret;

	lg(ra)->ahead_size = legacy_next_ra_size(ra);
	lg(ra)->ahead_start = lg(ra)->start + lg(ra)->size;

	/* The reader is already in the ahead window: it waits for this I/O. */
	block = force || (ra->prev_index >= lg(ra)->ahead_start);
	ret = blockable_page_cache_readahead(mapping, filp, lg(ra)->ahead_start, lg(ra)->ahead_size,
					     ra, block, call);
	if (!ret && !force) {
		/*
		 * Failing while blocking means the pages were all cached; failing
		 * without blocking means we read further than this call needs.
		 * Either way the request is taken care of: just drop the ahead
		 * window (an INCACHE failure has closed it already).
		 */
		reset_ahead_window(ra);
	}
	return ret;
}

/*
 * page_cache_readahead - 2.6.20's adaptive readahead: call it for every
 * read request at @offset (and again when the reader reaches the returned
 * index). Manages the current and ahead windows and submits their I/O.
 * Returns the index at which it wants to be called next.
 */
static unsigned long page_cache_readahead(struct address_space *mapping,
					  struct file_ra_state *ra, struct file *filp,
					  pgoff_t offset, unsigned long req_size)
{
	struct ra_call call = { .rcase = LEGACY_CASE(LEGACY_WINDOW) };
	pgoff_t trace_offset = offset;
	unsigned long trace_req = req_size;
	unsigned long max, newsize;
	bool sequential, recheck = false;

	call.congested = bdi_read_congested(mapping->backing_dev_info);

	/*
	 * Called again for the page it just looked at (a read continuing in
	 * the same page): skip that page, so the window logic is not
	 * perturbed.
	 */
	if (offset == ra->prev_index && --req_size)
		++offset;

	/* prev_index is -1 before the first read */
	sequential = (offset == ra->prev_index + 1);
	ra->prev_index = offset;
	ra->prev_offset = 0;

	max = get_max_readahead(ra);
	newsize = min(req_size, max);

	/* No readahead, a read within the page just seen, or a file already cached. */
	if (newsize == 0 || (lg(ra)->flags & RA_FLAG_INCACHE)) {
		if (max == 0)
			call.rcase = RA_CASE_OFF;
		else if (lg(ra)->flags & RA_FLAG_INCACHE)
			call.rcase = LEGACY_CASE(LEGACY_INCACHE);
		goto out;
	}

	ra->prev_index += newsize - 1;

	/*
	 * A first read at the start of the file, or the first sequential
	 * access after readahead was off: assume a whole-file read and grow
	 * the window fast.
	 */
	if (sequential && lg(ra)->size == 0) {
		call.rcase = LEGACY_CASE(LEGACY_FIRST);
		lg(ra)->size = get_init_ra_size(newsize, max);
		lg(ra)->start = offset;
		if (!blockable_page_cache_readahead(mapping, filp, offset, lg(ra)->size, ra, 1, &call))
			goto out;
		/*
		 * A request larger than the maximum will need the next window
		 * too: submit the ahead window now, so two I/Os are in flight
		 * and later calls can overlap them.
		 */
		if (req_size >= max)
			make_ahead_window(mapping, filp, ra, 1, &call);
		goto out;
	}

	/* Not the next page (first accesses were handled above): random. */
	if (!sequential) {
		call.rcase = LEGACY_CASE(LEGACY_RANDOM);
		ra_off(ra);
		blockable_page_cache_readahead(mapping, filp, offset, newsize, ra, 1, &call);
		goto out;
	}

	/* Sequential with an existing current window. */
	if (lg(ra)->ahead_start == 0) {
		call.rcase = LEGACY_CASE(LEGACY_AHEAD);
		if (!make_ahead_window(mapping, filp, ra, 0, &call))
			recheck = true;
	}

	/*
	 * Crossed into the ahead window: it becomes the current window and a
	 * new ahead window is submitted. Only pages of the current window are
	 * reported as covered, so the caller comes back at the first page of
	 * the ahead window.
	 */
	if (recheck || ra->prev_index >= lg(ra)->ahead_start) {
		if (!recheck) {
			call.rcase = LEGACY_CASE(LEGACY_AHEAD);
			lg(ra)->start = lg(ra)->ahead_start;
			lg(ra)->size = lg(ra)->ahead_size;
			make_ahead_window(mapping, filp, ra, 0, &call);
		}
		/* prev_index must not overrun the ahead window */
		ra->prev_index = min(ra->prev_index, lg(ra)->ahead_start + lg(ra)->ahead_size - 1);
	}

out:
	legacy_record(mapping, ra, trace_offset, trace_req, &call);
	return ra->prev_index + 1;
}

/*
 * A page that should have been in the cache (readahead was just there) was
 * not: it was evicted before use, i.e. readahead thrashing. Flag the miss
 * so the next window is smaller, and turn readahead back on.
 */
static void handle_ra_miss(struct address_space *mapping, struct file_ra_state *ra,
			   pgoff_t offset)
{
	struct ra_call call = { .rcase = LEGACY_CASE(LEGACY_MISS) };

	lg(ra)->flags |= RA_FLAG_MISS;
	lg(ra)->flags &= ~RA_FLAG_INCACHE;
	lg(ra)->cache_hit = 0;
	legacy_record(mapping, ra, offset, 1, &call);
}

static bool legacy_sync(struct address_space *mapping, struct file_ra_state *ra,
			struct file *filp, pgoff_t offset, unsigned long req_size)
{
	(void)filp;
	(void)req_size;
	handle_ra_miss(mapping, ra, offset);
	return false;	/* it reads nothing: the caller reads the page alone */
}

/* 2.6.20's filemap_nopage(): for sequential accesses, the generic readahead logic. */
static void legacy_fault_sync(struct file *file, pgoff_t pgoff, enum filemap_advice advice)
{
	struct address_space *mapping = file->f_mapping;
	struct file_ra_state *ra = &file->f_ra;
	struct page *page;

	if (advice != FAULT_ADV_SEQUENTIAL) {
		/* read-around, or with MADV_RANDOM nothing */
		ra_fault_sync_generic(file, pgoff, advice);
		return;
	}
	page_cache_readahead(mapping, ra, file, pgoff, 1);
	page = find_get_page(mapping, pgoff);
	if (page)
		page_cache_release(page);
	else
		handle_ra_miss(mapping, ra, pgoff);
	ra->mmap_hit++;
}

static void legacy_fault_async(struct file *file, struct page *page, pgoff_t pgoff,
			       enum filemap_advice advice)
{
	if (advice == FAULT_ADV_SEQUENTIAL) {
		page_cache_readahead(file->f_mapping, &file->f_ra, file, pgoff, 1);
		file->f_ra.mmap_hit++;
		return;
	}
	ra_fault_async_generic(file, page, pgoff, advice);
}

/* Every directory block goes to page_cache_readahead(), which keeps prev_index. */
static void legacy_readdir(struct file *filp, struct address_space *bd_mapping, pgoff_t index)
{
	page_cache_readahead(bd_mapping, &filp->f_ra, filp, index, 1);
}

/* page_cache_readahead() moves prev_index itself: the read and fault paths leave it. */
static void legacy_keeps_prev(struct file_ra_state *ra, pgoff_t index)
{
	(void)ra, (void)index;
}

const struct ra_algorithm ra_algo_legacy = {
	.name = "legacy",
	.title = "2.6.20",
	.help = "2.6.20's current and ahead windows, called on every read (patch 010 removes it)",
	.order = 1,
	.cases = legacy_cases,
	.nr_cases = LEGACY_NR_CASES,
	.case_base = &legacy_case_base,
	.read_end = legacy_keeps_prev,
	.fault_end = legacy_keeps_prev,
	.request = page_cache_readahead,
	.sync = legacy_sync,
	.fault_sync = legacy_fault_sync,
	.fault_async = legacy_fault_async,
	.readdir = legacy_readdir,
};
RA_ALGORITHM(ra_algo_legacy);
