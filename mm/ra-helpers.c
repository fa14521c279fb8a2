/*
 * Helpers the readahead algorithms share, from the seeds and the kernels
 * around them: ra_submit() reads the window a file_ra_state holds (patch
 * 005); get_init_ra_size() sizes a first window (2.6.20's, which patch 010
 * keeps) and get_next_ra_size() the next one (patch 006's
 * get_next_ra_size2()), ra_next_size() being its ramp alone; and
 * ra_ondemand_entry() is the checks the on-demand family makes on entry
 * (2.6.23 to 2.6.33's page_cache_sync/async_readahead()). They read through
 * the core's mechanism (mm/readahead.c). Host-buildable.
 */
#include "mm/backing-dev.h"
#include "mm/readahead.h"

unsigned long ra_submit(struct file_ra_state *ra, struct address_space *mapping, struct file *filp)
{
	int actual = __do_page_cache_readahead(mapping, filp, ra->ra_index, ra_readahead_size(ra),
					       ra_lookahead_size(ra));

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
	return ra_next_size(ra->readahead_index - ra->ra_index, max);
}

unsigned long ra_next_size(unsigned long cur, unsigned long max)
{
	unsigned long newsize;

	if (cur < max / 16)
		newsize = 4 * cur;
	else
		newsize = 2 * cur;
	return min(newsize, max);
}

bool ra_ondemand_entry(struct address_space *mapping, struct file_ra_state *ra, struct page *page,
		       pgoff_t offset, unsigned long req_size, struct ra_call *call)
{
	*call = (struct ra_call){.async = page != NULL};
	call->congested = bdi_read_congested(mapping->backing_dev_info);
	if (!ra->ra_pages) {
		/* no readahead: another reader's look-ahead mark stays where it is */
		call->rcase = RA_CASE_OFF;
		ra_trace_record(mapping, ra, offset, req_size, call, offset, 0, 0);
		return false;
	}
	if (page) {
		ClearPageReadahead(page);
		/*
		 * Defer asynchronous readahead while the queue is congested:
		 * the reader is not waiting yet, and the pages it will miss
		 * are read then, synchronously.
		 */
		if (call->congested) {
			call->rcase = RA_CASE_CONGESTED;
			call->deferred = true;
			ra_trace_record(mapping, ra, offset, req_size, call, offset, 0, 0);
			return false;
		}
	}
	return true;
}
