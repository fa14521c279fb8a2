/*
 * Readahead thrashing, counted: each window gets a number
 * (ra_window_number()), and mm's eviction hook (ra_page_thrashed()) counts
 * a page evicted unread, per file, globally and for the watched reader,
 * and a window once, at its first such page. An instrument: the counting
 * runs with the virtual clock held. Host-buildable.
 */
#include <stdio.h>
#include <string.h>

#include "kernel/log.h"
#include "kernel/result.h"
#include "kernel/sync.h"
#include "kernel/time.h"
#include "mm/file.h"
#include "mm/readahead.h"

/* The last window number handed out (0 is "no window"), and the largest window so far. */
static uint32_t ra_window_last;
static unsigned long ra_window_span;

uint32_t ra_window_number(unsigned long nr_pages)
{
	if (++ra_window_last == 0)
		ra_window_last = 1;
	if (nr_pages > ra_window_span)
		ra_window_span = nr_pages;
	return ra_window_last;
}

void ra_window_submitted(struct file_ra_state *ra)
{
	if (ra)
		ra->stats.windows++;
	ra_global_stats.windows++;
}

/* The counting part of ra_page_thrashed(), under its hold. */
static __attribute__((noinline)) void count_thrashed(struct address_space *mapping,
						     struct page *page)
{
	uint32_t window = page_ra_window(page);
	struct ra_trace_watch *w = ra_trace_watch;
	bool watched = w && mapping && w->mapping == mapping && page->index >= w->first &&
		       page->index <= w->last;
	pgoff_t first, last;

	if (watched) {
		w->thrashed_pages++;
		if (PageReadahead(page))
			w->thrashed_marks++;
	}
	if (!mapping || !window || PageWindowThrashed(page))
		return;
	if (watched)
		w->thrashed_windows++;
	/*
	 * The window's first page to go unread: count the window, and mark the
	 * pages of it still cached so that their eviction does not count it
	 * again. A window is contiguous and at most ra_window_span pages long,
	 * so its other pages lie within that distance of this one.
	 */
	mapping->ra_thrashed_windows++;
	ra_global_stats.thrashed_windows++;
	first = page->index >= ra_window_span ? page->index - ra_window_span + 1 : 0;
	last = page->index + ra_window_span - 1;
	for (pgoff_t index = first; index <= last && index >= first; index++) {
		struct page *p = find_get_page(mapping, index);

		if (!p)
			continue;
		if (page_ra_window(p) == window)
			SetPageWindowThrashed(p);
		page_cache_release(p);
	}
}

void ra_page_thrashed(struct address_space *mapping, struct page *page)
{
	struct ktime_hold hold;

	/* Called from reclaim, possibly with interrupts masked: no sleeping, no allocation. */
	if (mapping)
		mapping->ra_thrashed++;
	ra_global_stats.thrashed_pages++;
	/*
	 * What follows only counts (windows, the watched reader's pages): an
	 * instrument, so it costs no time, traced or not; one path out.
	 */
	ktime_hold_begin(&hold);
	count_thrashed(mapping, page);
	ktime_hold_end(&hold);
}
