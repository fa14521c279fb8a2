/*
 * Readahead tracing and counters. Every decision of either algorithm is
 * recorded by ra_trace_record() into a ring buffer of RA_TRACE_EVENTS
 * events (older ones are overwritten) and counted per file (f_ra.stats)
 * and globally (ra_global_stats). Hits are counted by the read paths
 * (ra_page_used), thrashed pages by mm's eviction hook (ra_page_thrashed).
 * The `ratrace` and `rastat` commands (mm/racmd.c) print them; commands
 * that read files add the keys of ra_result_keys() to their RESULT.
 * Host-buildable.
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

int ra_apply_args(const char *cmd, struct file *filp, const struct kv_value *ra,
		  const struct kv_value *ra_kb)
{
	struct file_ra_state *st = &filp->f_ra;

	if (ra && ra->present) {
		const struct ra_algorithm *algo = ra_algo_find(ra->s);
		char list[160];

		if (!algo) {
			printf("%s: ra=%s: expected one of %s\n", cmd, ra->s,
			       ra_algo_list(list, sizeof(list)));
			return -EINVAL;
		}
		file_ra_set_algo(st, algo);
	}
	if (ra_kb && ra_kb->present) {
		if (st->algo->flags & RA_ALGO_NO_WINDOW) {
			printf("%s: ra_kb=%s makes no sense with ra=%s (no readahead)\n", cmd,
			       ra_kb->raw, st->algo->name);
			return -EINVAL;
		}
		if (!ra_kb_valid(ra_kb->u)) {
			printf("%s: ra_kb=%s: expected a multiple of %lu up to %u\n", cmd,
			       ra_kb->raw, PAGE_CACHE_SIZE / 1024, RA_MAX_KB);
			return -EINVAL;
		}
		file_ra_set_max_pages(st, ra_kb->u * 1024 / PAGE_CACHE_SIZE);
	}
	return 0;
}

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
