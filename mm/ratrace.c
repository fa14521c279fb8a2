/*
 * The readahead trace ring. Every decision of every algorithm is recorded
 * by ra_trace_record() into a ring buffer of RA_TRACE_EVENTS events (older
 * ones are overwritten; ratrace_events= a larger ring) and counted per file
 * (f_ra.stats) and globally (ra_global_stats); the cases' names; the
 * `ratrace` line of a decision (ra_trace_print()). The other instruments
 * have a file each (mm/ratrace.h):
 *
 *	mm/ratrace-linux.c	the ring's events as Linux's tracepoints print them
 *	mm/ra-thrashed.c	window numbers and pages evicted unread
 *	mm/ra-stats.c		the counters' arithmetic (and lead times)
 *	mm/ra-result.c		the counters as RESULT keys
 *
 * and a command's ra=/ra_kb= are mm/ra-registry.c's (ra_apply_args()). Hits are
 * counted by the read paths (ra_page_used). Host-buildable.
 */
#include <stdio.h>
#include <string.h>

#include "kernel/kv.h"
#include "kernel/log.h"
#include "kernel/result.h"
#include "kernel/sync.h"
#include "kernel/time.h"
#include "mm/file.h"
#include "mm/readahead.h"

struct ra_stats ra_global_stats;
struct ra_trace_watch *ra_trace_watch;

static struct ra_trace_event ra_ring_default[RA_TRACE_EVENTS];
/* The ring: the default one, or a larger one from ra_trace_resize() (ratrace_events=). */
static struct ra_trace_event *ra_ring = ra_ring_default;
static unsigned int ra_ring_size = RA_TRACE_EVENTS;
/* Events ever recorded; the next one goes to slot ra_ring_total % ra_ring_size. */
static uint64_t ra_ring_total;

static const struct ra_case_desc ra_shared_cases[RA_NR_SHARED_CASES] = {
	[RA_CASE_SEQ_NEXT] = { "sequential-next", RA_KIND_NEXT },
	[RA_CASE_RANDOM] = { "random", RA_KIND_RANDOM },
	[RA_CASE_SEQ_FIRST] = { "sequential-first", RA_KIND_FIRST },
	[RA_CASE_CLUELESS] = { "lookahead-clueless", RA_KIND_OTHER },
	[RA_CASE_CONGESTED] = { "congested", RA_KIND_OTHER },
	[RA_CASE_OFF] = { "off", RA_KIND_OTHER },
	[RA_CASE_AROUND] = { "mmap-around", RA_KIND_OTHER },
	[RA_CASE_FORCED] = { "forced", RA_KIND_OTHER },
	[RA_CASE_CONTEXT] = { "context", RA_KIND_OTHER },
	[RA_CASE_HOLE_SCAN] = { "hole-scan", RA_KIND_OTHER },
	[RA_CASE_FADV_RANDOM] = { "fadvise-random", RA_KIND_OTHER },
};

/* Case @c's description: shared, or the algorithm's whose range holds it; NULL if none. */
static const struct ra_case_desc *ra_case_desc(unsigned int c)
{
	const struct ra_algorithm *a;

	if (c < RA_NR_SHARED_CASES)
		return &ra_shared_cases[c];
	for (unsigned int i = 0; (a = ra_algo_at(i)); i++)
		if (a->nr_cases && c >= *a->case_base && c - *a->case_base < a->nr_cases)
			return &a->cases[c - *a->case_base];
	return NULL;
}

const char *ra_case_name(unsigned int c)
{
	const struct ra_case_desc *d = ra_case_desc(c);

	return d ? d->name : "?";
}

enum ra_case_kind ra_case_kind(unsigned int c)
{
	const struct ra_case_desc *d = ra_case_desc(c);

	return d ? d->kind : RA_KIND_OTHER;
}

unsigned int ra_case_count(void)
{
	const struct ra_algorithm *a;
	unsigned int n = RA_NR_SHARED_CASES;

	for (unsigned int i = 0; (a = ra_algo_at(i)); i++)
		if (a->nr_cases && *a->case_base + a->nr_cases > n)
			n = *a->case_base + a->nr_cases;
	return n;
}

int ra_case_find(const char *name)
{
	for (unsigned int c = 0; c < ra_case_count(); c++) {
		const struct ra_case_desc *d = ra_case_desc(c);

		if (d && !strcmp(d->name, name))
			return (int)c;
	}
	return -1;
}

void ra_call_note_io(struct ra_call *call, unsigned long actual, bool async)
{
	call->actual += actual;
	if (!actual)
		return;
	if (async)
		call->async_ios++;
	else
		call->sync_ios++;
}

static void stats_count(struct ra_stats *st, const struct ra_call *call)
{
	st->calls[call->rcase]++;
	st->pages += call->actual;
	st->sync_ios += call->sync_ios;
	st->async_ios += call->async_ios;
	st->deferred += call->deferred;
}

void ra_trace_name_tail(char *dst, const char *name)
{
	size_t len;

	if (!name)
		name = "?";
	len = strlen(name);
	if (len >= RA_TRACE_NAME)
		name += len - (RA_TRACE_NAME - 1);
	strncpy(dst, name, RA_TRACE_NAME - 1);
	dst[RA_TRACE_NAME - 1] = '\0';
}

/*
 * The next slot of the ring for an event of @ra, or NULL while the tracer
 * watches another file (ratrace watch=); with interrupts masked, so that
 * the claim is atomic. The event's time, file name, inode and device filled.
 */
static struct ra_trace_event *ring_claim(struct address_space *mapping, struct file_ra_state *ra,
					 unsigned long flags)
{
	struct ra_trace_event *e;

	if (ra_trace_watch && ra_trace_watch->ra != ra) {
		local_irq_restore(flags);
		return NULL;
	}
	e = &ra_ring[ra_ring_total % ra_ring_size];
	ra_ring_total++;
	local_irq_restore(flags);
	memset(e, 0, sizeof(*e));
	e->time_ns = ktime_ns();
	ra_trace_name_tail(e->file, mapping ? mapping->name : NULL);
	e->ino = mapping ? mapping->trace_ino : 0;
	e->dev = mapping ? mapping->trace_dev : 0;
	return e;
}

/* The ring's part of ra_trace_record(), under its hold. */
static __attribute__((noinline)) void trace_ring_record(struct address_space *mapping,
							struct file_ra_state *ra, pgoff_t offset,
							unsigned long req_size,
							const struct ra_call *call, pgoff_t ra_index,
							unsigned long ra_size, unsigned long la_size)
{
	struct ra_trace_event *e;
	unsigned long flags;

	/* Completions never record, but keep the slot claim atomic anyway. */
	flags = local_irq_save();
	stats_count(&ra_global_stats, call);
	e = ring_claim(mapping, ra, flags);
	if (!e)
		return;
	e->kind = RA_EV_DECISION;
	e->offset = offset;
	e->req_size = req_size;
	e->algo = ra->algo;
	e->rcase = (uint8_t)call->rcase;
	e->async = call->async;
	e->congested = call->congested;
	e->ra_index = ra_index;
	e->ra_size = ra_size;
	e->la_size = la_size;
	e->has_ahead = call->has_ahead;
	e->ahead_start = call->ahead_start;
	e->ahead_size = call->ahead_size;
	e->actual = call->actual;
	e->order = 0;
	e->ra_pages = (unsigned int)ra->ra_pages;
	e->mmap_miss = 0;
	e->prev_pos = -1;
}

/* The ring's part of ra_trace_linux(), under its hold. */
static __attribute__((noinline)) void trace_ring_linux(struct address_space *mapping,
						       struct file_ra_state *ra,
						       enum ra_event_kind kind, pgoff_t index,
						       unsigned long count, unsigned int order,
						       unsigned long size, unsigned long async,
						       unsigned int ra_pages, unsigned int mmap_miss,
						       int64_t prev_pos)
{
	struct ra_trace_event *e = ring_claim(mapping, ra, local_irq_save());

	if (!e)
		return;
	e->kind = (uint8_t)kind;
	e->algo = ra->algo;
	e->offset = index;
	e->req_size = count;
	e->order = order;
	e->ra_size = size;
	e->la_size = async;
	e->ra_pages = ra_pages;
	e->mmap_miss = mmap_miss;
	e->prev_pos = prev_pos;
}

void ra_trace_linux(struct address_space *mapping, struct file_ra_state *ra,
		    enum ra_event_kind kind, pgoff_t index, unsigned long count,
		    unsigned int order, unsigned long size, unsigned long async,
		    unsigned int ra_pages, unsigned int mmap_miss, int64_t prev_pos)
{
	struct ktime_hold hold;

	/* an instrument, like the decisions' ring (ra_trace_record()) */
	ktime_hold_begin(&hold);
	trace_ring_linux(mapping, ra, kind, index, count, order, size, async, ra_pages,
			 mmap_miss, prev_pos);
	ktime_hold_end(&hold);
}

bool ra_trace_block;

/* The ring's part of ra_trace_block_rq(), under its hold. */
static __attribute__((noinline)) void trace_ring_block(uint32_t dev, const char *disk,
						       uint64_t sector, uint32_t nr_sectors,
						       bool write)
{
	unsigned long flags = local_irq_save();
	struct ra_trace_event *e = &ra_ring[ra_ring_total % ra_ring_size];

	ra_ring_total++;
	local_irq_restore(flags);
	memset(e, 0, sizeof(*e));
	e->time_ns = ktime_ns();
	ra_trace_name_tail(e->file, disk);
	e->kind = RA_EV_BLOCK_RQ;
	e->dev = dev;
	e->offset = (pgoff_t)sector;
	e->req_size = nr_sectors;
	e->async = write;
}

void ra_trace_block_rq(uint32_t dev, const char *disk, uint64_t sector, uint32_t nr_sectors,
		       bool write)
{
	struct ktime_hold hold;

	ktime_hold_begin(&hold);
	trace_ring_block(dev, disk, sector, nr_sectors, write);
	ktime_hold_end(&hold);
}

void ra_trace_record(struct address_space *mapping, struct file_ra_state *ra,
		     pgoff_t offset, unsigned long req_size, const struct ra_call *call,
		     pgoff_t ra_index, unsigned long ra_size, unsigned long la_size)
{
	struct ktime_hold hold;

	if ((unsigned int)call->rcase >= RA_NR_CASES)
		return;
	stats_count(&ra->stats, call);
	/*
	 * The ring is an instrument: whether this event is kept (a watch
	 * keeps one reader's) must cost no time, so every call holds the
	 * clock the same way (kernel/time.h), and nothing but the return
	 * follows the hold's end on any path.
	 */
	ktime_hold_begin(&hold);
	trace_ring_record(mapping, ra, offset, req_size, call, ra_index, ra_size, la_size);
	ktime_hold_end(&hold);
}

unsigned int ra_trace_count(void)
{
	return ra_ring_total < ra_ring_size ? (unsigned int)ra_ring_total : ra_ring_size;
}

const struct ra_trace_event *ra_trace_get(unsigned int i)
{
	uint64_t first = ra_ring_total - ra_trace_count();

	if (i >= ra_trace_count())
		return NULL;
	return &ra_ring[(first + i) % ra_ring_size];
}

uint64_t ra_trace_total(void)
{
	return ra_ring_total;
}

unsigned int ra_trace_capacity(void)
{
	return ra_ring_size;
}

int ra_trace_resize(struct ra_trace_event *ring, unsigned int nr)
{
	unsigned long flags;

	if (!ring || nr < RA_TRACE_EVENTS)
		return -EINVAL;
	flags = local_irq_save();
	ra_ring = ring;
	ra_ring_size = nr;
	ra_ring_total = 0;
	local_irq_restore(flags);
	return 0;
}

void ra_trace_reset(void)
{
	unsigned long flags = local_irq_save();

	ra_ring_total = 0;
	memset(&ra_global_stats, 0, sizeof(ra_global_stats));
	local_irq_restore(flags);
}

void ra_trace_print(const struct ra_trace_event *e)
{
	if (e->kind != RA_EV_DECISION)
		return;	/* Linux's tracepoints print with ra_trace_print_linux() */
	printf("ratrace: t=%llu.%06llu file=%s algo=%s case=%s offset=%lu req=%lu "
	       "ra_index=%lu ra_size=%lu la_size=%lu",
	       (unsigned long long)(e->time_ns / NSEC_PER_SEC),
	       (unsigned long long)(e->time_ns % NSEC_PER_SEC / NSEC_PER_USEC), e->file,
	       e->algo->name, ra_case_name(e->rcase), e->offset, e->req_size,
	       e->ra_index, e->ra_size, e->la_size);
	/*
	 * 2.6.20's reset_ahead_window() closes the ahead window by setting
	 * ahead_start to 0 and adding it to ahead_size, which then holds where
	 * the old ahead window ended (page_cache_readahead() clamps prev_index
	 * to it): print it as that, not as a size.
	 */
	if (e->has_ahead && e->ahead_start)
		printf(" ahead_start=%lu ahead_size=%lu", e->ahead_start, e->ahead_size);
	else if (e->has_ahead)
		printf(" ahead=closed ahead_end=%lu", e->ahead_size);
	/* a call that read nothing was neither: the reader's wait is about I/O */
	printf(" actual=%lu io=%s%s\n", e->actual, !e->actual ? "none" : e->async ? "async" : "sync",
	       e->congested ? " congested" : "");
}
