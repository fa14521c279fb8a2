/*
 * The readahead trace ring's events as Linux's tracepoints print them
 * (ratrace format=linux): today's readahead (page_cache_ra_order,
 * page_cache_sync_ra/async_ra) and, with ratrace_block=1, block_rq_issue,
 * so that tools/linux-ref compares them with a real kernel's trace line by
 * line. Host-buildable.
 */
#include <stdio.h>
#include <string.h>

#include "kernel/log.h"
#include "kernel/result.h"
#include "kernel/sync.h"
#include "kernel/time.h"
#include "mm/file.h"
#include "mm/readahead.h"

/* Linux's "dev=%d:%d": MAJOR and MINOR of the (20-bit minor) dev_t. */
static void print_linux_head(const char *event, const struct ra_trace_event *e)
{
	printf("%s: dev=%u:%u ino=%llx", event, e->dev >> 20, e->dev & 0xfffff,
	       (unsigned long long)e->ino);
}

static void print_linux_op(const char *event, const struct ra_trace_event *e, pgoff_t index,
			   unsigned long req, unsigned int order, unsigned long size,
			   unsigned long async, unsigned int ra_pages, unsigned int mmap_miss,
			   long long prev_pos)
{
	print_linux_head(event, e);
	printf(" index=%lu req_count=%lu order=%u size=%lu async_size=%lu ra_pages=%u "
	       "mmap_miss=%u prev_pos=%lld\n",
	       index, req, order, size, async, ra_pages, mmap_miss, prev_pos);
}

static void print_linux_unbounded(const struct ra_trace_event *e, pgoff_t index,
				  unsigned long nr, unsigned long lookahead)
{
	print_linux_head("page_cache_ra_unbounded", e);
	printf(" index=%lu nr_to_read=%lu lookahead_size=%lu\n", index, nr, lookahead);
}

int ra_trace_print_linux(const struct ra_trace_event *e)
{
	switch (e->kind) {
	case RA_EV_SYNC_RA:
	case RA_EV_ASYNC_RA:
		print_linux_op(e->kind == RA_EV_SYNC_RA ? "page_cache_sync_ra"
							: "page_cache_async_ra",
			       e, e->offset, e->req_size, e->order, e->ra_size, e->la_size,
			       e->ra_pages, e->mmap_miss, (long long)e->prev_pos);
		return 1;
	case RA_EV_RA_ORDER:
		print_linux_head("page_cache_ra_order", e);
		printf(" index=%lu order=%u size=%lu async_size=%lu ra_pages=%u\n", e->offset,
		       e->order, e->ra_size, e->la_size, e->ra_pages);
		return 1;
	case RA_EV_RA_UNBOUNDED:
		print_linux_unbounded(e, e->offset, e->req_size, e->la_size);
		return 1;
	case RA_EV_BLOCK_RQ:
		/* block_rq_issue's "%d,%d %s %u (%s) %llu + %u %s [%s]": no ioprio, no task here */
		printf("block_rq_issue: %u,%u %s %lu () %lu + %lu [%s]\n", e->dev >> 20,
		       e->dev & 0xfffff, e->async ? "W" : "R", e->req_size * 512, e->offset,
		       e->req_size, e->file);
		return 1;
	default:
		break;
	}
	/* an algorithm that records Linux's events itself has printed them already */
	if (e->algo->flags & RA_ALGO_LINUX_EVENTS)
		return 0;
	/*
	 * Another algorithm's decision, as Linux's tracepoints would say it: the
	 * call (sync on a miss, async on a mark), then what it read. Its own
	 * state before the call is not kept: the window decided stands in.
	 */
	print_linux_op(e->async ? "page_cache_async_ra" : "page_cache_sync_ra", e, e->offset,
		       e->req_size, 0, e->ra_size, e->la_size, 0, 0, -1);
	if (!e->actual)
		return 1;
	print_linux_unbounded(e, e->ra_index, e->ra_size, e->la_size);
	return 2;
}
