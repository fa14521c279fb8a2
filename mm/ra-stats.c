/*
 * The readahead counters' arithmetic (struct ra_stats): calls by kind,
 * differences and sums of two snapshots, pages read ahead and never used,
 * the median lead time; and ra_decision_timing, whether the read path
 * times each decision. Host-buildable.
 */
#include <stdio.h>
#include <string.h>

#include "kernel/log.h"
#include "kernel/result.h"
#include "kernel/sync.h"
#include "kernel/time.h"
#include "mm/file.h"
#include "mm/readahead.h"

bool ra_decision_timing = true;

unsigned long ra_stats_calls(const struct ra_stats *st)
{
	unsigned long n = 0;

	for (int i = 0; i < RA_NR_CASES; i++)
		n += st->calls[i];
	return n;
}

unsigned long ra_calls_of_kind(const struct ra_stats *st, enum ra_case_kind kind)
{
	unsigned long n = 0;

	for (unsigned int c = 0; c < RA_NR_CASES; c++)
		if (st->calls[c] && ra_case_kind(c) == kind)
			n += st->calls[c];
	return n;
}

void ra_file_stats(const struct file_ra_state *ra, struct ra_stats *out)
{
	*out = ra->stats;
	out->thrashed_pages = ra->mapping ? ra->mapping->ra_thrashed - ra->thrashed_base : 0;
	out->thrashed_windows =
		ra->mapping ? ra->mapping->ra_thrashed_windows - ra->thrashed_windows_base : 0;
}

void ra_stats_sub(struct ra_stats *d, const struct ra_stats *a, const struct ra_stats *b)
{
	for (int i = 0; i < RA_NR_CASES; i++)
		d->calls[i] = a->calls[i] - b->calls[i];
	d->pages = a->pages - b->pages;
	d->hit_pages = a->hit_pages - b->hit_pages;
	d->thrashed_pages = a->thrashed_pages - b->thrashed_pages;
	d->windows = a->windows - b->windows;
	d->thrashed_windows = a->thrashed_windows - b->thrashed_windows;
	d->readpage_ios = a->readpage_ios - b->readpage_ios;
	d->deferred = a->deferred - b->deferred;
	d->sync_ios = a->sync_ios - b->sync_ios;
	d->async_ios = a->async_ios - b->async_ios;
	d->stall_ns = a->stall_ns - b->stall_ns;
	d->decide_ns = a->decide_ns - b->decide_ns;
	d->decide_wait_ns = a->decide_wait_ns - b->decide_wait_ns;
	for (int i = 0; i < RA_LEAD_BUCKETS; i++)
		d->lead[i] = a->lead[i] - b->lead[i];
}

void ra_stats_add(struct ra_stats *a, const struct ra_stats *b)
{
	for (int i = 0; i < RA_NR_CASES; i++)
		a->calls[i] += b->calls[i];
	a->pages += b->pages;
	a->hit_pages += b->hit_pages;
	a->thrashed_pages += b->thrashed_pages;
	a->windows += b->windows;
	a->thrashed_windows += b->thrashed_windows;
	a->readpage_ios += b->readpage_ios;
	a->deferred += b->deferred;
	a->sync_ios += b->sync_ios;
	a->async_ios += b->async_ios;
	a->stall_ns += b->stall_ns;
	a->decide_ns += b->decide_ns;
	a->decide_wait_ns += b->decide_wait_ns;
	for (int i = 0; i < RA_LEAD_BUCKETS; i++)
		a->lead[i] += b->lead[i];
}

unsigned long ra_stats_unused(const struct ra_stats *st)
{
	return st->pages > st->hit_pages ? st->pages - st->hit_pages : 0;
}

int ra_lead_median_bucket(const struct ra_stats *st)
{
	unsigned long n = 0, seen = 0;

	for (int i = 0; i < RA_LEAD_BUCKETS; i++)
		n += st->lead[i];
	for (int i = 0; i < RA_LEAD_BUCKETS && n; i++) {
		seen += st->lead[i];
		if (2 * seen >= n)
			return i;
	}
	return -1;
}
