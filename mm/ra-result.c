/*
 * The readahead counters as RESULT keys (ra_result_keys(): the algorithm,
 * its window, the counters and readahead(8)'s lead times), for every
 * command that reads files. Host-buildable.
 */
#include <stdio.h>
#include <string.h>

#include "kernel/log.h"
#include "kernel/result.h"
#include "kernel/sync.h"
#include "kernel/time.h"
#include "mm/file.h"
#include "mm/readahead.h"

void ra_result_stats(struct result *r, const struct ra_algorithm *algo, unsigned long max_pages,
		     const struct ra_stats *st)
{
	result_str(r, "ra", algo->name);
	result_u64(r, "ra_kb", max_pages * PAGE_CACHE_SIZE / 1024);
	ra_result_counters(r, st);
}

void ra_result_counters(struct result *r, const struct ra_stats *st)
{
	result_u64(r, "ra_calls", ra_stats_calls(st));
	result_u64(r, "ra_sync", st->sync_ios);
	result_u64(r, "ra_async", st->async_ios);
	result_u64(r, "ra_pages", st->pages);
	result_u64(r, "ra_hit_pages", st->hit_pages);
	result_u64(r, "ra_thrashed_pages", st->thrashed_pages);
	result_u64(r, "ra_windows", st->windows);
	result_u64(r, "ra_thrashed_windows", st->thrashed_windows);
	result_u64(r, "readpage_ios", st->readpage_ios);
	result_u64(r, "ra_deferred", st->deferred);
	/* readahead(8)'s two figures: pages never used, and the used ones' lead times */
	result_u64(r, "ra_unused_pages", ra_stats_unused(st));
	{
		char json[RA_LEAD_BUCKETS * 24];
		size_t n = 0;

		json[n++] = '{';
		for (int i = 0; i < RA_LEAD_BUCKETS; i++)
			if (st->lead[i])
				n += (size_t)snprintf(json + n, sizeof(json) - n, "%s\"%lu\":%lu",
						      n > 1 ? "," : "", i ? 1UL << i : 0UL,
						      st->lead[i]);
		json[n++] = '}';
		json[n] = '\0';
		result_raw(r, "ra_lead_us", json);
	}
}

void ra_result_keys(struct result *r, const struct file *filp)
{
	struct ra_stats st;

	ra_file_stats(&filp->f_ra, &st);
	ra_result_stats(r, filp->f_ra.algo, filp->f_ra.ra_pages, &st);
}
