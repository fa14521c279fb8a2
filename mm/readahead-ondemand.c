/*
 * On-demand readahead, the algorithm of the seeds (patches 002-009, merged
 * in 2.6.23): one window per file and a PG_readahead mark on its look-ahead
 * page; the policy runs only on a cache miss (synchronous readahead) and
 * when the reader reaches the marked page (asynchronous readahead). It
 * decides where the next window starts, how big it is and where its mark
 * goes; ra_submit() does the I/O. Host-buildable.
 */
#include "mm/backing-dev.h"
#include "mm/file.h"
#include "mm/readahead.h"

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

/*
 * page_cache_readahead_ondemand - the entry point of the on-demand logic.
 * Call it when it is time to read ahead:
 *  1) @page == NULL: a cache miss at @offset, time for synchronous readahead;
 *  2) @page != NULL && PageReadahead(@page): a look-ahead hit, time for
 *     asynchronous readahead (the mark is cleared; deferred when the
 *     queue is read-congested).
 * @req_size is the rest of the caller's request in pages. Returns the
 * number of pages submitted for I/O.
 */
static unsigned long page_cache_readahead_ondemand(struct address_space *mapping,
						   struct file_ra_state *ra, struct file *filp,
						   struct page *page, pgoff_t offset,
						   unsigned long req_size)
{
	struct ra_call call;

	if (!ra_ondemand_entry(mapping, ra, page, offset, req_size, &call))
		return 0;
	return ondemand_readahead(mapping, ra, filp, page, offset, req_size, &call);
}

static bool ondemand_sync(struct address_space *mapping, struct file_ra_state *ra,
			  struct file *filp, pgoff_t offset, unsigned long req_size)
{
	page_cache_readahead_ondemand(mapping, ra, filp, NULL, offset, req_size);
	return true;
}

static void ondemand_async(struct address_space *mapping, struct file_ra_state *ra,
			   struct file *filp, struct page *page, pgoff_t offset,
			   unsigned long req_size)
{
	page_cache_readahead_ondemand(mapping, ra, filp, page, offset, req_size);
}

const struct ra_algorithm ra_algo_ondemand = {
	.name = "ondemand",
	.title = "on-demand",
	.help = "on-demand readahead, the seeds' (2.6.23): one window, a PG_readahead mark",
	.flags = RA_ALGO_MARKS | RA_ALGO_DEFAULT,
	.order = 2,
	.sync = ondemand_sync,
	.async = ondemand_async,
};
RA_ALGORITHM(ra_algo_ondemand);
