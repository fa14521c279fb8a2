/*
 * Readahead thrashing, the seeds' benchmark (patch 006: "performance on
 * readahead thrashing gains up to 3 times"): a new reader every interval=
 * (1 s), up to streams= (200), each reading its own part of the file
 * sequentially at a paced rate= (100 KiB/s) in bs= reads, in little memory
 * (boot with mem=128M), until the last reader has read for tail= seconds.
 * The seeds do not say what their streams did when they fell behind. A
 * "100KB/s stream" is read as one that never goes faster (the default,
 * catchup=0: a pause of bs/rate between two reads' starts, so a reader that
 * stalled stays late); with catchup=1 a late reader reads without pause
 * until it is back on its schedule, and 200 readers can ask for more than
 * 20 MB/s.
 * Once the readers' windows together exceed free memory, pages read ahead
 * are evicted before their reader gets to them.
 *
 * Each reader is a kernel thread blocking on its own I/O, so the elevator
 * and the drive see real concurrency. Every second the main thread prints
 * a sample (a RESULT "bench-sample" line): aggregate throughput, average
 * disk request, pages thrashed; the phase's RESULT adds the seeds' two
 * columns, the maximum throughput and the minimum average request size.
 */
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "kernel/log.h"
#include "kernel/sched.h"
#include "kernel/time.h"
#include "mm/mm.h"

static const struct bench_param thrash_params[] = {
	{"path", KV_STRING, NULL, (uintptr_t) "/bench/big.pat", 0, 0, "the file the readers share"},
	{"streams", KV_UINT, NULL, 200, 1, 1024, "readers"},
	{"rate", KV_SIZE, NULL, 100 << 10, 1024, 1ULL << 30, "bytes per second per reader"},
	{"interval", KV_UINT, NULL, 1000, 1, 60000, "ms between two readers' starts"},
	{"bs", KV_SIZE, NULL, 4096, 512, 1 << 20, "bytes per read"},
	{"tail", KV_UINT, NULL, 30, 0, 3600, "seconds the run goes on after the last start"},
	{"catchup", KV_BOOL, NULL, 0, 0, 1,
	 "1: a reader behind its pace reads without pause until it is back on it; "
	 "0: never faster than rate= (a pause of bs/rate between two reads' starts)"},
	{"trace", KV_UINT, NULL, 0, 0, 1024,
	 "follow reader N (1 = the first): its decisions and a line a second (0: none)"},
};

struct reader {
	struct bench *b;
	struct file *f;
	uint64_t start_ns; /* when it begins to read */
	loff_t start, end;
	uint64_t rate, bs;
	uint64_t t0, n;	/* when it began, reads done: read n is due at t0 + n * bs / rate */
	bool catchup;	/* else read n is due bs / rate after read n - 1 began */
	void *buf;
	volatile bool *stop;
	int err;
	struct thread *t;
};

/* When read n is due on @r's schedule: n * bs / rate after its start. */
static uint64_t schedule_due(const struct reader *r)
{
	return r->t0 + r->n * r->bs * NSEC_PER_SEC / r->rate;
}

static int reader_fn(void *arg)
{
	struct reader *r = arg;
	uint64_t last = 0; /* when the last read began */

	if (r->start_ns > ktime_ns())
		sleep_ns(r->start_ns - ktime_ns());
	r->t0 = ktime_ns();
	while (!*r->stop && r->f->f_pos < r->end) {
		uint64_t due = schedule_due(r), now = ktime_ns();
		ssize_t got;

		if (!r->catchup && r->n)
			due = last + r->bs * NSEC_PER_SEC / r->rate;
		if (due > now)
			sleep_ns(due - now);
		if (*r->stop)
			break;
		last = ktime_ns();
		got = bench_read(r->b, r->f, r->buf, (size_t)r->bs);
		if (got <= 0) {
			r->err = got < 0 ? (int)got : -EIO;
			break;
		}
		r->n++;
		/*
		 * Threads are cooperative: a reader catching up on cached pages
		 * would keep the CPU from the others and from the sampler.
		 */
		thread_yield();
	}
	return 0;
}

/* The traced reader: what it was at the last sample, to print what changed since. */
struct trace_state {
	struct reader *r;
	unsigned int nr; /* 1-based, as trace= names it */
	struct ra_trace_watch watch, prev_watch;
	struct ra_stats prev;
	uint64_t prev_n, events; /* reads done, ring events printed */
};

/* Print the decisions still held in the ring since the last call, as "ratrace:" lines. */
static void trace_print_events(struct trace_state *ts)
{
	uint64_t total = ra_trace_total(), held = ra_trace_count(), first = total - held;

	if (ts->events < first) {
		printf("bench thrash: trace: %llu decisions of reader %u overwritten\n",
		       (unsigned long long)(first - ts->events), ts->nr);
		ts->events = first;
	}
	for (; ts->events < total; ts->events++) {
		const struct ra_trace_event *e = ra_trace_get((unsigned int)(ts->events - first));

		ra_trace_print(e);
	}
}

/*
 * One line a second about the traced reader, after its decisions: where it
 * is, how late, what its readahead did (deferred: windows put off because
 * the queue was congested, legacy's ahead windows or on-demand's async
 * readahead) and what reclaim took from it.
 */
static void trace_sample(struct bench *b, struct trace_state *ts, unsigned int sec)
{
	struct reader *r = ts->r;
	struct ra_stats now = r->f->f_ra.stats, d;
	uint64_t t = ktime_ns(), due = schedule_due(r);
	const struct ra_trace_watch *w = &ts->watch, *pw = &ts->prev_watch;
	char cases[160];
	size_t len = 0;

	trace_print_events(ts);
	ra_stats_sub(&d, &now, &ts->prev);
	cases[0] = 0;
	for (int c = 0; c < RA_NR_CASES; c++) {
		if (d.calls[c] && len < sizeof(cases))
			len += (size_t)snprintf(cases + len, sizeof(cases) - len, "%s%s:%lu",
						len ? "," : "", ra_case_name((enum ra_case)c),
						d.calls[c]);
	}
	printf("RESULT {\"cmd\":\"bench-trace\",\"workload\":\"thrash\",\"ra\":\"%s\","
	       "\"t\":%u,\"stream\":%u,\"pos_kb\":%llu,\"lag_ms\":%.1f,\"reads\":%llu,"
	       "\"stall_ms\":%.1f,\"windows\":%lu,\"ra_pages\":%lu,\"hit_pages\":%lu,"
	       "\"readpage_ios\":%lu,\"thrashed_pages\":%lu,\"thrashed_marks\":%lu,"
	       "\"thrashed_windows\":%lu,\"deferred\":%lu,\"cases\":\"%s\"}\n",
	       ra_algo_name(b->ra), sec, ts->nr,
	       (unsigned long long)((uint64_t)(r->f->f_pos - r->start) >> 10),
	       r->t0 && t > due ? (double)(t - due) / 1e6 : 0.0,
	       (unsigned long long)(r->n - ts->prev_n), (double)d.stall_ns / 1e6, d.windows,
	       d.pages, d.hit_pages, d.readpage_ios, w->thrashed_pages - pw->thrashed_pages,
	       w->thrashed_marks - pw->thrashed_marks, w->thrashed_windows - pw->thrashed_windows,
	       d.deferred, cases);
	ts->prev = now;
	ts->prev_n = r->n;
	ts->prev_watch = ts->watch;
}

static int thrash_run(struct bench *b)
{
	uint64_t nstreams = bench_u(b, "streams"), rate = bench_u(b, "rate");
	uint64_t interval = bench_u(b, "interval") * NSEC_PER_MSEC, bs = bench_u(b, "bs");
	uint64_t tail = bench_u(b, "tail") * NSEC_PER_SEC, t0, end_ns, next, size, per;
	unsigned int trace = (unsigned int)bench_u(b, "trace");
	struct trace_state ts = {0};
	struct bench_sample prev, cur;
	double max_mbps = 0, ramp_max_mbps = 0, min_req = 0;
	volatile bool stop = false;
	struct reader *rd;
	struct file *probe;
	unsigned int started = 0, sec = 0;
	int err = 0;

	probe = bench_open(b, bench_s(b, "path"));
	if (!probe)
		return -ENOENT;
	size = (uint64_t)bench_size(probe);
	bench_close(b, probe);
	per = size / nstreams / 4096 * 4096;
	if (per < bs) {
		printf("bench thrash: %s is too small for %llu readers of %llu-byte reads\n",
		       bench_s(b, "path"), (unsigned long long)nstreams, (unsigned long long)bs);
		return -EINVAL;
	}
	if (trace > nstreams) {
		pr_err("bench thrash: trace=%u: there are only %llu readers\n", trace,
		       (unsigned long long)nstreams);
		return -EINVAL;
	}
	rd = kzalloc(nstreams * sizeof(*rd));
	if (!rd)
		return -ENOMEM;
	/*
	 * Every reader's thread, file and buffer are set up now, before memory
	 * is short: a thread stack is an order-3 allocation, which a fragmented,
	 * thrashing page cache may not give for a long time.
	 */
	for (unsigned int i = 0; i < nstreams && !err; i++) {
		struct reader *r = &rd[i];

		r->b = b;
		r->rate = rate;
		r->bs = bs;
		r->catchup = bench_u(b, "catchup");
		r->stop = &stop;
		r->start = (loff_t)(i * per);
		r->end = r->start + (loff_t)per;
		r->buf = bench_buffer(b, bs);
		r->f = r->buf ? bench_open(b, bench_s(b, "path")) : NULL;
		if (!r->f) {
			err = -ENOMEM;
			break;
		}
		r->f->f_pos = r->start;
	}
	if (trace && !err) {
		struct reader *r = &rd[trace - 1];

		ts.r = r;
		ts.nr = trace;
		ts.watch.ra = &r->f->f_ra;
		ts.watch.mapping = r->f->f_mapping;
		ts.watch.first = (pgoff_t)(r->start >> PAGE_CACHE_SHIFT);
		ts.watch.last = (pgoff_t)((r->end - 1) >> PAGE_CACHE_SHIFT);
		ts.prev = r->f->f_ra.stats;
		ts.events = ra_trace_total();
		ra_trace_watch = &ts.watch;
	}
	bench_phase_begin(b, "thrash", NULL, 0);
	bench_sample(b, &prev);
	t0 = ktime_ns();
	next = t0;
	end_ns = t0 + (nstreams - 1) * interval + tail;
	for (unsigned int i = 0; i < nstreams && !err; i++) {
		rd[i].start_ns = t0 + i * interval;
		rd[i].t = thread_create("thrash", reader_fn, &rd[i]);
		if (!rd[i].t) {
			printf("bench thrash: no memory for reader %u's thread\n", i);
			err = -ENOMEM;
		}
	}
	while (ktime_ns() < end_ns && !err) {
		uint64_t now = ktime_ns();

		while (started < nstreams && now >= t0 + started * interval)
			started++;
		/* a sample a second (over the time since the last one, if the sampler ran late) */
		if (now >= next + NSEC_PER_SEC) {
			double mbps, req, dt;
			struct ra_stats d;
			struct bench_harness h;

			bench_harness_begin(b, &h);
			next += NSEC_PER_SEC;
			bench_sample(b, &cur);
			ra_stats_sub(&d, &cur.ra, &prev.ra);
			dt = (double)(cur.ns - prev.ns) / 1e9;
			mbps = (double)(cur.bytes - prev.bytes) / 1e6 / dt;
			req = cur.disk_reads > prev.disk_reads
				      ? (double)(cur.disk_sectors - prev.disk_sectors) / 2.0 /
						(double)(cur.disk_reads - prev.disk_reads)
				      : 0;
			printf("RESULT "
			       "{\"cmd\":\"bench-sample\",\"workload\":\"thrash\",\"ra\":\"%s\","
			       "\"t\":%u,\"streams\":%u,\"mbps\":%.3f,\"disk_mbps\":%.3f,"
			       "\"avg_req_kb\":%.1f,\"thrashed_pages\":%lu,"
			       "\"thrashed_windows\":%lu,\"windows\":%lu,\"sync_windows\":%lu,"
			       "\"readpage_ios\":%lu,\"deferred\":%lu}\n",
			       ra_algo_name(b->ra), ++sec, started, mbps,
			       (double)(cur.disk_sectors - prev.disk_sectors) * 512 / 1e6 / dt, req,
			       d.thrashed_pages, d.thrashed_windows, d.windows, d.sync_ios,
			       d.readpage_ios, d.deferred);
			if (ts.r)
				trace_sample(b, &ts, sec);
			if (mbps > max_mbps)
				max_mbps = mbps;
			/*
			 * The seeds measured "until reaching 200 streams"; the tail
			 * after it is ours, and 2.6.20 changes its ways there.
			 */
			if (started < nstreams && mbps > ramp_max_mbps)
				ramp_max_mbps = mbps;
			/* the seeds' minimum: over the seconds with every reader running */
			if (started == nstreams && req > 0 && (min_req == 0 || req < min_req))
				min_req = req;
			prev = cur;
			bench_harness_end(b, &h);
		}
		sleep_ns(next + NSEC_PER_SEC - now < 100 * NSEC_PER_MSEC ? next + NSEC_PER_SEC - now
									 : 100 * NSEC_PER_MSEC);
	}
	stop = true;
	ra_trace_watch = NULL;
	for (unsigned int i = 0; i < nstreams; i++) {
		if (rd[i].t) {
			thread_join(rd[i].t);
			if (rd[i].err && !err)
				err = rd[i].err;
		}
		if (rd[i].f)
			bench_close(b, rd[i].f);
		kfree(rd[i].buf);
	}
	bench_sample(b, &cur);
	bench_result_double(b, "max_mbps", max_mbps, 3);
	bench_result_double(b, "min_avg_req_kb", min_req, 1);
	bench_result_double(b, "ramp_max_mbps", ramp_max_mbps, 3);
	bench_result_u64(b, "catchup", bench_u(b, "catchup"));
	bench_result_u64(b, "streams", started);
	bench_result_u64(b, "thrashed_pages", cur.ra.thrashed_pages);
	bench_result_u64(b, "thrashed_windows", cur.ra.thrashed_windows);
	if (trace)
		bench_result_u64(b, "trace", trace);
	if (bench_phase_end(b))
		err = -EIO;
	kfree(rd);
	return err;
}

BENCH_WORKLOAD(thrash, "readahead thrashing: paced sequential readers added one a second",
	       thrash_params, thrash_run, false);
