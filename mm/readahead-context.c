/*
 * Context readahead (ra=context): on-demand readahead as 2.6.31 left it,
 * with Wu Fengguang's context readahead as its last resort. Host-buildable.
 *
 * Sources (Linux commits, read on git.kernel.org / torvalds/linux):
 *   10be0b372cac "readahead: introduce context readahead algorithm" (2.6.31):
 *	when nothing else matches, count the cached pages just behind the
 *	request (the history a sequential stream leaves, even one whose
 *	state another reader of the file overwrote); none means a random
 *	read; if they reach back to page 0, double them; size the window
 *	from history + request.
 *   the same series: on a mark hit without matching state (interleaved
 *	readers), find the next hole after the mark within the maximum and
 *	start there, sizing from (hole - offset) + request; and the
 *	"piggy-back": a read that starts a window whose whole size is async
 *	(it would hit its own mark at once) merges the next window into it.
 *   6df8ba4f8a4c "radixtree: introduce radix_tree_next_hole()" (2.6.23
 *	on-demand series): the scan the mark-hit hole search uses.
 *
 * The state is on-demand's, named as 2.6.24 on names it: start = ra_index,
 * size = readahead_index - ra_index, async_size = readahead_index -
 * lookahead_index (ra_set_window()). The fault path is 2.6.23's
 * (ra_fault_*_generic): 2.6.31's do_sync_mmap_readahead() is not modelled,
 * so that this algorithm differs from ondemand in the read paths only.
 */
#include "mm/backing-dev.h"
#include "mm/file.h"
#include "mm/readahead.h"

/*
 * Cached pages just behind @offset, counted back at most @max (the
 * history of a stream reading towards @offset). If they reach page 0 the
 * count is @offset itself.
 */
static unsigned long count_history_pages(struct address_space *mapping, pgoff_t offset,
					 unsigned long max)
{
	pgoff_t head;

	if (!offset)
		return 0;
	head = page_cache_prev_miss(mapping, offset - 1, max);
	return offset - 1 - head;	/* head == ULONG_MAX: offset pages */
}

/*
 * The last resort: a window from the cached history behind @offset.
 * Returns false when there is none (a random read).
 */
static bool try_context_readahead(struct address_space *mapping, struct file_ra_state *ra,
				  pgoff_t offset, unsigned long req_size, unsigned long max)
{
	unsigned long size = count_history_pages(mapping, offset, max);

	if (!size)
		return false;
	/* from the start of the file: a long-run stream, or a whole-file read */
	if (size >= offset)
		size *= 2;
	size = get_init_ra_size(size + req_size, max);
	ra_set_window(ra, offset, offset, size, size);
	return true;
}

/*
 * 2.6.31's ondemand_readahead(), case by case in its order. @hit_marker:
 * called on a page marked PG_readahead (asynchronous), not on a miss.
 */
static void context_readahead(struct address_space *mapping, struct file_ra_state *ra,
			      struct file *filp, bool hit_marker, pgoff_t offset,
			      unsigned long req_size, struct ra_call *call)
{
	unsigned long max = max_sane_readahead(ra->ra_pages);
	pgoff_t start = ra->ra_index;
	unsigned long size = ra_readahead_size(ra), async = ra_lookahead_size(ra);

	/* start of file */
	if (!offset)
		goto initial_readahead;

	/* The expected callback offset: assume sequential, ramp up and push on. */
	if (offset == start + size - async || offset == start + size) {
		call->rcase = RA_CASE_SEQ_NEXT;
		start += size;
		size = ra_next_size(size, max);
		async = size;
		goto readit;
	}

	/*
	 * A marked page without valid state, e.g. interleaved reads: the
	 * stream's async size is the distance to the next hole. Ramp it up
	 * and use it as the new window.
	 */
	if (hit_marker) {
		pgoff_t hole = page_cache_next_miss(mapping, offset + 1, max);

		if (!hole || hole - offset > max) {
			call->rcase = RA_CASE_HOLE_SCAN;
			ra_trace_record(mapping, ra, offset, req_size, call, offset, 0, 0);
			return;
		}
		call->rcase = RA_CASE_HOLE_SCAN;
		start = hole;
		size = ra_next_size(hole - offset + req_size, max);
		async = size;
		goto readit;
	}

	/* oversize read, or a sequential cache miss */
	if (req_size > max || offset - ra->prev_index <= 1UL)
		goto initial_readahead;

	/* the traces (cached history pages) a sequential stream leaves behind */
	if (try_context_readahead(mapping, ra, offset, req_size, max)) {
		call->rcase = RA_CASE_CONTEXT;
		start = ra->ra_index;
		size = ra_readahead_size(ra);
		async = ra_lookahead_size(ra);
		goto readit;
	}

	/* A standalone, small random read: as is, and do not pollute the state. */
	{
		int actual = __do_page_cache_readahead(mapping, filp, offset, req_size, 0);

		call->rcase = RA_CASE_RANDOM;
		ra_call_note_io(call, actual > 0 ? (unsigned long)actual : 0, call->async);
		ra_trace_record(mapping, ra, offset, req_size, call, offset, req_size, 0);
		return;
	}

initial_readahead:
	call->rcase = RA_CASE_SEQ_FIRST;
	start = offset;
	size = get_init_ra_size(req_size, max);
	async = size > req_size ? size - req_size : size;

readit:
	ra_readit(mapping, ra, filp, offset, req_size, start, size, async, max, call);
}

RA_ONDEMAND_HOOKS(context, context_readahead)

const struct ra_algorithm ra_algo_context = {
	.name = "context",
	.title = "context",
	.help = "2.6.31: on-demand plus context readahead from the cached history (10be0b372cac)",
	.flags = RA_ALGO_MARKS,
	.sync = context_sync,
	.async = context_async,
};
RA_ALGORITHM(ra_algo_context);
