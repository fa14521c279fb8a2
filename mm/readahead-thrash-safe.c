/*
 * Thrashing-safe context readahead (ra=thrash-safe): Wu Fengguang's 2010
 * proposal, never merged. Host-buildable.
 *
 * Source: the LKML series "[PATCH 00/11] 512K readahead size with thrashing
 * safe readahead" (7 Feb 2010, <20100207041013.891441102@intel.com>), patch
 * 06/11 "readahead: thrashing safe context readahead"
 * (<20100207041043.584619057@intel.com>), with 04/11 (MIN_READAHEAD_PAGES,
 * 32 KiB) and 05/11 (ra_flags). It reports "300 200KB/s streams with
 * mem=128M. Only 2031/61325=3.3% readahead windows are thrashed".
 *
 * The idea: the cached pages just behind the reader (its history, counted
 * back up to 8x the maximum) are what survived reclaim so far, a lower
 * estimate of how much the reader may keep in memory. Size each window from
 * that history, less what is already read ahead; when a window was lost
 * before the reader got to it (no history left, the reader inside the
 * previous window), halve it and remember, for the rest of the file's life,
 * that this reader thrashes: from then on every window is sized from the
 * history, which settles it between half and all of the threshold.
 *
 * Cases of the patched ondemand_readahead(), in order (start, size, async
 * as 2.6.24 on name them; ra_set_window()):
 *	offset 0		initial (on-demand's)
 *	thrashed before		context sizing, whatever else matches
 *	the expected offset	start += size, size = next, async = size
 *	req > max, no mark	start = offset, size = async = max
 *	context			start = offset, or the next hole within the maximum
 *				on a mark hit (none: nothing); A = start - offset;
 *				H = history behind offset (<= 8 max), doubled back to
 *				page 0. H = 0 without a mark: random (size = req)
 *				or, inside [start - size, start + size) of the last
 *				window, thrashed: size = max(size / 2, 32 KiB),
 *				async = 0, the flag set. Else H <= A: nothing; else
 *				size = clamp(H - A, 32 KiB, max),
 *				async = min(size, 1 + (H - A) / 8)
 * then 2.6.31's piggy-back. The async size is the February patch's; the
 * v3 repost (1 Mar 2010, 08/16) uses 1 + H / 8.
 *
 * Departures: the thrashed window's size is also capped at the maximum
 * (the patch leaves max(size / 2, 32 KiB) unclamped, so a maximum below
 * 32 KiB could be exceeded). retain_inactive_pages() (RFC 05/11), which
 * moves the thrashed window's remaining inactive pages to the head of the
 * inactive list, is done here through lru_retain_inactive(); the RFC's
 * other caller, in __do_page_cache_readahead() for windows that find pages
 * already cached, is not (it would change every algorithm's mechanism).
 */
#include <limits.h>

#include "mm/backing-dev.h"
#include "mm/file.h"
#include "mm/readahead.h"

/* Its own trace case: the window was thrashed, shrink it. */
enum { TS_THRASHED, TS_NR_CASES };
static const struct ra_case_desc thrash_safe_cases[TS_NR_CASES] = {
	[TS_THRASHED] = { "thrashed", RA_KIND_OTHER },
};
static unsigned int thrash_safe_case_base;

#define MIN_READAHEAD_PAGES	DIV_ROUND_UP(32 * 1024, PAGE_CACHE_SIZE)
#define READAHEAD_ASYNC_RATIO	8
#define HISTORY_SCAN_RATIO	8	/* history is counted back up to 8 x max */

/* ra->ra_flags of the series, in the file's private state */
struct thrash_safe {
	bool thrashed;		/* READAHEAD_THRASHED: sticky for the open file */
};

/*
 * Was the last window thrashed? The reader is inside it, or permissively
 * just before it (unsigned, as in the patch: a window starting below its
 * own size never matches).
 */
static bool ra_thrashed(const struct file_ra_state *ra, pgoff_t index)
{
	pgoff_t start = ra->ra_index;
	unsigned long size = ra_readahead_size(ra);

	return start - size <= index && index < start + size;
}

/* The thrashed window's pages still cached: to the head of the inactive list. */
static void retain_inactive_pages(struct address_space *mapping, pgoff_t index,
				  unsigned long len)
{
	for (pgoff_t i = index; i < index + len; i++) {
		struct page *page = find_get_page(mapping, i);

		if (!page)
			continue;
		lru_retain_inactive(page);
		page_cache_release(page);
	}
}

/* Cached pages contiguous behind @offset, counted back at most @max. */
static unsigned long count_history_pages(struct address_space *mapping, pgoff_t offset,
					 unsigned long max)
{
	return offset - 1 - page_cache_prev_miss(mapping, offset - 1, max);
}

static void thrash_safe_readahead(struct address_space *mapping, struct file_ra_state *ra,
				  struct file *filp, bool hit_marker, pgoff_t offset,
				  unsigned long req_size, struct ra_call *call)
{
	struct thrash_safe *ts = ra_priv(ra, struct thrash_safe);
	unsigned long max = max_sane_readahead(ra->ra_pages);
	pgoff_t start = ra->ra_index;
	unsigned long size = ra_readahead_size(ra), async = ra_lookahead_size(ra);
	unsigned long history, ahead;

	if (!offset) {
		call->rcase = RA_CASE_SEQ_FIRST;
		start = 0;
		size = get_init_ra_size(req_size, max);
		async = size > req_size ? size - req_size : size;
		goto readit;
	}
	if (ts->thrashed)
		goto context;
	if (offset == start + size - async || offset == start + size) {
		call->rcase = RA_CASE_SEQ_NEXT;
		start += size;
		size = ra_next_size(size, max);
		async = size;
		goto readit;
	}
	if (req_size > max && !hit_marker) {
		call->rcase = RA_CASE_SEQ_FIRST;
		start = offset;
		size = async = max;
		goto readit;
	}

context:
	call->rcase = hit_marker ? RA_CASE_HOLE_SCAN : RA_CASE_CONTEXT;
	start = offset;
	if (hit_marker) {
		start = page_cache_next_miss(mapping, offset + 1, max);
		if (!start || start - offset > max)
			goto nothing;
	}
	ahead = start - offset;
	history = count_history_pages(mapping, offset, HISTORY_SCAN_RATIO * max);
	if (!history && !hit_marker) {
		if (!ra_thrashed(ra, offset)) {
			call->rcase = RA_CASE_RANDOM;
			size = min(req_size, max);
		} else {
			unsigned long left = ra->readahead_index - offset;

			call->rcase = RA_OWN_CASE(thrash_safe_case_base, TS_THRASHED);
			retain_inactive_pages(mapping, offset, min(2 * max, left));
			size = min(max(ra_readahead_size(ra) / 2, MIN_READAHEAD_PAGES), max);
			ts->thrashed = true;
		}
		async = 0;
		goto readit;
	}
	/* back to the start of the file: a long-run stream, or a whole-file read */
	if (history >= offset)
		history *= 2;
	if (history <= ahead)
		goto nothing;	/* what history allows is read ahead already */
	size = clamp(history - ahead, MIN_READAHEAD_PAGES, max);
	async = min(size, 1 + (history - ahead) / READAHEAD_ASYNC_RATIO);

readit:
	ra_readit(mapping, ra, filp, offset, req_size, start, size, async, max, call);
	return;
nothing:
	ra_trace_record(mapping, ra, offset, req_size, call, offset, 0, 0);
}

RA_ONDEMAND_HOOKS(thrash_safe, thrash_safe_readahead)

const struct ra_algorithm ra_algo_thrash_safe = {
	.name = "thrash-safe",
	.title = "thrash-safe",
	.help = "Wu 2010 (not merged): windows sized from the surviving history, halved on thrashing",
	.flags = RA_ALGO_MARKS,
	.cases = thrash_safe_cases,
	.nr_cases = TS_NR_CASES,
	.case_base = &thrash_safe_case_base,
	.sync = thrash_safe_sync,
	.async = thrash_safe_async,
};
RA_ALGORITHM(ra_algo_thrash_safe);
