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
 * The readers share one file (path=, each reading a part of it 1/streams
 * long: short seeks between them), or with files=1 each reads a file of its
 * own from offset 0: the regular files under the directory path=, in name
 * order. Where those files lie on the disk is the image's doing
 * (tools/mkbench streams-onedir, streams-spread).
 *
 * Each reader is a kernel thread blocking on its own I/O, so the elevator
 * and the drive see real concurrency. Every second the main thread prints
 * a sample (a RESULT "bench-sample" line): aggregate throughput, average
 * disk request, pages thrashed; the phase's RESULT adds the seeds' two
 * columns, the maximum throughput and the minimum average request size.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "kernel/log.h"
#include "kernel/sched.h"
#include "kernel/time.h"
#include "mm/kobj.h"
#include "mm/mm.h"

static const struct bench_param thrash_params[] = {
	{"path", KV_STRING, NULL, (uintptr_t) "/bench/big.pat", 0, 0,
	 "the file the readers share; with files=1, the directory holding their files"},
	{"files", KV_BOOL, NULL, 0, 0, 1,
	 "1: each reader reads a file of its own from offset 0, the regular files under "
	 "path= (searched to any depth) in name order"},
	{"streams", KV_UINT, NULL, 200, 1, 65536, "readers (as many as memory holds)"},
	{"rate", KV_SIZE, NULL, 100 << 10, 1024, 1ULL << 30, "bytes per second per reader"},
	{"interval", KV_TIME_MS, NULL, 1000, 1, 60000, "ms between two readers' starts"},
	{"bs", KV_SIZE, NULL, 4096, 512, 1 << 20, "bytes per read"},
	{"tail", KV_TIME_S, NULL, 30, 0, 3600, "seconds the run goes on after the last start"},
	{"catchup", KV_BOOL, NULL, 0, 0, 1,
	 "1: a reader behind its pace reads without pause until it is back on it; "
	 "0: never faster than rate= (a pause of bs/rate between two reads' starts)"},
	{"trace", KV_UINT, NULL, 0, 0, 65536,
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

/*
 * What held the page cache's RAM when the first read failed (threads are
 * cooperative: the first to fail writes it, before the others give theirs
 * back), for reader_failed().
 */
static char fail_room[200];

/* When read n is due on @r's schedule: n * bs / rate after its start. */
uint64_t thrash_read_due(uint64_t t0, uint64_t n, uint64_t last, uint64_t bs, uint64_t rate,
			 bool catchup)
{
	if (!catchup && n)
		return last + bs * NSEC_PER_SEC / rate;
	return t0 + n * bs * NSEC_PER_SEC / rate;
}

static int reader_fn(void *arg)
{
	struct reader *r = arg;
	uint64_t last = 0; /* when the last read began */

	if (!bench_thread_start(r->b))
		return 0;
	if (r->start_ns > ktime_ns())
		sleep_ns(r->start_ns - ktime_ns());
	r->t0 = ktime_ns();
	while (!*r->stop && r->f->f_pos < r->end) {
		uint64_t now = ktime_ns();
		uint64_t due = thrash_read_due(r->t0, r->n, last, r->bs, r->rate, r->catchup);
		ssize_t got;

		if (due > now)
			sleep_ns(due - now);
		if (*r->stop)
			break;
		last = ktime_ns();
		got = bench_read(r->b, r->f, r->buf, (size_t)r->bs);
		if (got <= 0) {
			r->err = got < 0 ? (int)got : -EIO;
			if (!*r->stop && r->err == -ENOMEM)
				kobj_room_hint(fail_room, sizeof(fail_room));
			*r->stop = true; /* the run has failed: the others stop too, one error line */
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

/* That reader's error line. */
static void reader_failed(const struct reader *r, unsigned int nr)
{
	const char *room = r->err == -ENOMEM ? fail_room : "";

	pr_err("bench thrash: reader %u: a %llu-byte read at offset %lld failed (%s)%s%s\n", nr,
	       (unsigned long long)r->bs, (long long)r->f->f_pos, vfs_errname(r->err),
	       room[0] ? ": " : "", room);
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
	uint64_t t = ktime_ns(), due = thrash_read_due(r->t0, r->n, 0, r->bs, r->rate, true);
	const struct ra_trace_watch *w = &ts->watch, *pw = &ts->prev_watch;
	char cases[160];
	size_t len = 0;

	trace_print_events(ts);
	ra_stats_sub(&d, &now, &ts->prev);
	cases[0] = 0;
	for (unsigned int c = 0; c < ra_case_count(); c++) {
		if (d.calls[c] && len < sizeof(cases))
			len += (size_t)snprintf(cases + len, sizeof(cases) - len, "%s%s:%lu",
						len ? "," : "", ra_case_name(c),
						d.calls[c]);
	}
	printf("RESULT {\"cmd\":\"bench-trace\",\"workload\":\"thrash\",\"ra\":\"%s\","
	       "\"t\":%u,\"stream\":%u,\"pos_kb\":%llu,\"lag_ms\":%.1f,\"reads\":%llu,"
	       "\"stall_ms\":%.1f,\"windows\":%lu,\"ra_pages\":%lu,\"hit_pages\":%lu,"
	       "\"readpage_ios\":%lu,\"thrashed_pages\":%lu,\"thrashed_marks\":%lu,"
	       "\"thrashed_windows\":%lu,\"deferred\":%lu,\"cases\":\"%s\"}\n",
	       b->ra->name, sec, ts->nr,
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

/* files=1: the regular files under a directory, collected breadth first. */
struct stream_files {
	char **paths;
	unsigned int n, cap;
	int err;
};

struct stream_dir {
	struct stream_files *sf;
	char **dirs; /* the queue of directories still to read */
	unsigned int ndirs, cap;
	const char *parent;
};

/* Append the kmalloc'd string @p to the array @v (freeing @p if it cannot). */
static int add_path(char ***v, unsigned int *n, unsigned int *cap, char *p)
{
	if (!p)
		return -ENOMEM;
	if (*n == *cap) {
		unsigned int ncap = *cap ? *cap * 2 : 64;
		char **nv = krealloc(*v, ncap * sizeof(*nv));

		if (!nv) {
			kfree(p);
			return -ENOMEM;
		}
		*v = nv;
		*cap = ncap;
	}
	(*v)[(*n)++] = p;
	return 0;
}

/* Append "@dir/@name" to @v. */
static int push_path(char ***v, unsigned int *n, unsigned int *cap, const char *dir,
		     const char *name, unsigned int namelen)
{
	size_t dlen = strlen(dir);
	char *p;

	if (dlen + 1 + namelen + 1 > VFS_PATH_MAX)
		return -ENAMETOOLONG;
	p = kmalloc(dlen + 1 + namelen + 1);
	if (p) {
		memcpy(p, dir, dlen);
		if (!dlen || dir[dlen - 1] != '/')
			p[dlen++] = '/';
		memcpy(p + dlen, name, namelen);
		p[dlen + namelen] = 0;
	}
	return add_path(v, n, cap, p);
}

static int stream_entry(void *ctx, const char *name, unsigned int namelen, uint32_t ino,
			unsigned int ftype)
{
	struct stream_dir *d = ctx;

	(void)ino;
	if ((namelen == 1 && name[0] == '.') || (namelen == 2 && !memcmp(name, "..", 2)))
		return 0;
	if (ftype == VFS_FT_DIR)
		d->sf->err = push_path(&d->dirs, &d->ndirs, &d->cap, d->parent, name, namelen);
	else if (ftype == VFS_FT_REG)
		d->sf->err = push_path(&d->sf->paths, &d->sf->n, &d->sf->cap, d->parent, name,
				       namelen);
	return d->sf->err;
}

static int cmp_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_paths(char **v, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		kfree(v[i]);
	kfree(v);
}

/* The regular files under @top in name order, into @sf; 0 or -errno after a message. */
static int collect_files(const char *top, struct stream_files *sf)
{
	struct stream_dir d = {.sf = sf};
	unsigned int next = 0;
	int err = add_path(&d.dirs, &d.ndirs, &d.cap, kstrdup(top));

	if (err)
		pr_err("bench thrash: files=1: no memory to list %s\n", top);
	while (!err && next < d.ndirs) {
		struct file *dir;

		d.parent = d.dirs[next++];
		dir = vfs_open(d.parent, &err);
		if (!dir) {
			pr_err("bench thrash: files=1: %s: %s\n", d.parent, vfs_errname(err));
			break;
		}
		if (vfs_mode_ftype(dir->f_inode->i_mode) != VFS_FT_DIR) {
			pr_err("bench thrash: files=1: path=%s is not a directory\n", d.parent);
			err = -ENOTDIR;
		} else {
			err = vfs_readdir(dir, stream_entry, &d);
			if (!err)
				err = sf->err;
			if (err)
				pr_err("bench thrash: files=1: reading %s: %s\n", d.parent,
				       vfs_errname(err));
		}
		vfs_close(dir);
	}
	free_paths(d.dirs, d.ndirs);
	if (!err)
		qsort(sf->paths, sf->n, sizeof(*sf->paths), cmp_path);
	return err;
}

/*
 * files=1: the @nstreams files the readers read, into @sf, each at least one
 * @bs read long. 0, or -errno after a message (and @sf freed).
 */
static int stream_files_check(struct bench *b, uint64_t nstreams, uint64_t bs,
			      struct stream_files *sf)
{
	int err = collect_files(bench_s(b, "path"), sf);

	if (!err && sf->n < nstreams) {
		pr_err("bench thrash: files=1: %s holds %u files for %llu readers\n",
		       bench_s(b, "path"), sf->n, (unsigned long long)nstreams);
		err = -EINVAL;
	}
	for (unsigned int i = 0; i < nstreams && !err; i++) {
		struct kstat st;

		err = vfs_stat(sf->paths[i], &st);
		if (err) {
			pr_err("bench thrash: files=1: %s: %s\n", sf->paths[i], vfs_errname(err));
		} else if ((uint64_t)st.size < bs) {
			pr_err("bench thrash: files=1: %s is %llu bytes, less than one "
			       "%llu-byte read\n", sf->paths[i],
			       (unsigned long long)st.size, (unsigned long long)bs);
			err = -EINVAL;
		}
	}
	if (err)
		free_paths(sf->paths, sf->n);
	return err;
}

/*
 * One shared file: the bytes of it each of @nstreams readers reads (its
 * part, whole pages), into *@per. 0, or -errno after a message.
 */
static int shared_file_part(struct bench *b, uint64_t nstreams, uint64_t bs, uint64_t *per)
{
	struct file *probe = bench_open(b, bench_s(b, "path"));
	uint64_t size;

	if (!probe)
		return b->open_err;
	size = (uint64_t)bench_size(probe);
	bench_close(b, probe);
	*per = size / nstreams / 4096 * 4096;
	if (*per < bs) {
		pr_err("bench thrash: %s is too small for %llu readers of %llu-byte reads\n",
		       bench_s(b, "path"), (unsigned long long)nstreams, (unsigned long long)bs);
		return -EINVAL;
	}
	return 0;
}

/*
 * Every reader's state, buffer, open file and thread, in @rd: each as
 * @proto says (its bench, pace and stop flag), reader i reading @sf's file i
 * whole (files=1, @sf non-NULL) or bytes [i * @per, (i + 1) * @per) of
 * path=. Set up before the phase and before memory is short (a
 * thread stack is an order-3 allocation, which a fragmented, thrashing page
 * cache may not give for a long time): the run starts with all its readers
 * or not at all. 0 or -errno (the readers made so far are left in @rd).
 */
static int readers_create(struct reader *rd, uint64_t nstreams, const struct reader *proto,
			  const struct stream_files *sf, uint64_t per)
{
	struct bench *b = proto->b;
	int err = 0;

	for (unsigned int i = 0; i < nstreams && !err; i++) {
		struct reader *r = &rd[i];
		char what[24];

		r->b = b;
		r->rate = proto->rate;
		r->bs = proto->bs;
		r->catchup = bench_u(b, "catchup");
		r->stop = proto->stop;
		r->start = (loff_t)(i * per);
		r->end = r->start + (loff_t)per;
		r->buf = bench_buffer(b, r->bs);
		r->f = r->buf ? bench_open(b, sf ? sf->paths[i] : bench_s(b, "path")) : NULL;
		if (r->f)
			r->f->f_pos = r->start;
		if (r->f && sf)
			r->end = bench_size(r->f);
		snprintf(what, sizeof(what), "reader %u", i + 1);
		r->t = r->f ? bench_thread_create(b, reader_fn, r, what) : NULL;
		if (!r->t)
			err = r->buf && !r->f ? b->open_err : -ENOMEM;
	}
	return err;
}

/* trace=N: follow reader @r, number @nr, from now on (ra_trace_watch). */
static void trace_begin(struct trace_state *ts, struct reader *r, unsigned int nr)
{
	ts->r = r;
	ts->nr = nr;
	ts->watch.ra = &r->f->f_ra;
	ts->watch.mapping = r->f->f_mapping;
	ts->watch.first = (pgoff_t)(r->start >> PAGE_CACHE_SHIFT);
	ts->watch.last = (pgoff_t)((r->end - 1) >> PAGE_CACHE_SHIFT);
	ts->prev = r->f->f_ra.stats;
	ts->events = ra_trace_total();
	ra_trace_watch = &ts->watch;
}

/* The run's figures over its samples: the seeds' two columns and ours. */
struct thrash_peaks {
	double max_mbps, ramp_max_mbps, min_req;
	double max_disk_mbps, ramp_max_disk_mbps; /* what the disk read, thrashed or not */
	unsigned long max_cached;		  /* pages */
};

/*
 * Second @sec's sample, over the time since @prev (the last one, made the
 * current one on return), with @started of @nstreams readers started: its
 * RESULT "bench-sample" line, and the peaks it reaches. Under the harness's
 * hold (the caller's).
 */
static void thrash_sample(struct bench *b, struct bench_sample *prev, struct thrash_peaks *pk,
			  unsigned int sec, unsigned int started, uint64_t nstreams)
{
	struct bench_sample cur;
	double mbps, disk_mbps, req, dt;
	struct mm_stats mm;
	struct ra_stats d;

	bench_sample(b, &cur);
	mm_get_stats(&mm);
	ra_stats_sub(&d, &cur.ra, &prev->ra);
	dt = (double)(cur.ns - prev->ns) / 1e9;
	mbps = (double)(cur.bytes - prev->bytes) / 1e6 / dt;
	disk_mbps = (double)(cur.disk_sectors - prev->disk_sectors) * 512 / 1e6 / dt;
	req = cur.disk_reads > prev->disk_reads
		      ? (double)(cur.disk_sectors - prev->disk_sectors) / 2.0 /
				(double)(cur.disk_reads - prev->disk_reads)
		      : 0;
	printf("RESULT "
	       "{\"cmd\":\"bench-sample\",\"workload\":\"thrash\",\"ra\":\"%s\","
	       "\"t\":%u,\"streams\":%u,\"mbps\":%.3f,\"disk_mbps\":%.3f,"
	       "\"avg_req_kb\":%.1f,\"thrashed_pages\":%lu,"
	       "\"thrashed_windows\":%lu,\"windows\":%lu,\"sync_windows\":%lu,"
	       "\"readpage_ios\":%lu,\"deferred\":%lu,\"cached_kb\":%lu,"
	       "\"iops\":%.1f,\"buffer_hits\":%llu,\"seeks\":%llu,\"seek_ms\":%.1f,"
	       "\"dist_kb\":%.0f}\n",
	       b->ra->name, sec, started, mbps, disk_mbps, req, d.thrashed_pages,
	       d.thrashed_windows, d.windows, d.sync_ios, d.readpage_ios, d.deferred,
	       mm.cached * (PAGE_SIZE / 1024), (double)(cur.disk_reads - prev->disk_reads) / dt,
	       (unsigned long long)(cur.buffer_hits - prev->buffer_hits),
	       (unsigned long long)(cur.seeks - prev->seeks),
	       (double)(cur.seek_ns - prev->seek_ns) / 1e6,
	       cur.dispatched > prev->dispatched
		       ? (double)(cur.dist_sectors - prev->dist_sectors) / 2.0 /
				 (double)(cur.dispatched - prev->dispatched)
		       : 0.0);
	if (mbps > pk->max_mbps)
		pk->max_mbps = mbps;
	if (disk_mbps > pk->max_disk_mbps)
		pk->max_disk_mbps = disk_mbps;
	if (mm.cached > pk->max_cached)
		pk->max_cached = mm.cached;
	/*
	 * The seeds measured "until reaching 200 streams"; the tail after it is
	 * ours, and 2.6.20 changes its ways there.
	 */
	if (started < nstreams && mbps > pk->ramp_max_mbps)
		pk->ramp_max_mbps = mbps;
	if (started < nstreams && disk_mbps > pk->ramp_max_disk_mbps)
		pk->ramp_max_disk_mbps = disk_mbps;
	/* the seeds' minimum: over the seconds with every reader running */
	if (started == nstreams && req > 0 && (pk->min_req == 0 || req < pk->min_req))
		pk->min_req = req;
	*prev = cur;
}

/*
 * Wait for every reader to end and close its file (inside the phase: their
 * counters add up into it). The first reader's error, after its line, or 0.
 */
static int readers_join(struct bench *b, struct reader *rd, uint64_t nstreams)
{
	int err = 0;

	for (unsigned int i = 0; i < nstreams; i++) {
		thread_join(rd[i].t);
		rd[i].t = NULL;
		if (rd[i].err && !err) {
			err = rd[i].err;
			reader_failed(&rd[i], i + 1);
		}
		bench_close(b, rd[i].f);
		rd[i].f = NULL;
		kfree(rd[i].buf);
		rd[i].buf = NULL;
	}
	return err;
}

/*
 * The phase's RESULT keys: the peaks, what @started readers took of the page
 * cache's RAM (@mm0, @mm1: before and after they were set up) and thrashed.
 */
static void thrash_results(struct bench *b, const struct thrash_peaks *pk, unsigned int started,
			   uint64_t nstreams, const struct mm_stats *mm0, const struct mm_stats *mm1)
{
	struct bench_sample cur;

	bench_sample(b, &cur);
	bench_result_double(b, "max_mbps", pk->max_mbps, 3);
	bench_result_double(b, "min_avg_req_kb", pk->min_req, 1);
	bench_result_double(b, "ramp_max_mbps", pk->ramp_max_mbps, 3);
	bench_result_double(b, "max_disk_mbps", pk->max_disk_mbps, 3);
	bench_result_double(b, "ramp_max_disk_mbps", pk->ramp_max_disk_mbps, 3);
	bench_result_u64(b, "max_cached_kb", pk->max_cached * (PAGE_SIZE / 1024));
	bench_result_u64(b, "catchup", bench_u(b, "catchup"));
	bench_result_u64(b, "files", bench_u(b, "files"));
	bench_result_u64(b, "streams", started);
	/* the page cache's RAM the readers' threads, files, buffers and state took */
	bench_result_u64(b, "readers_kb",
			 (mm1->kernel_objs - mm0->kernel_objs) * (PAGE_SIZE / 1024));
	bench_result_u64(b, "reader_bytes",
			 (mm1->kernel_objs - mm0->kernel_objs) * PAGE_SIZE / nstreams);
	bench_result_u64(b, "thrashed_pages", cur.ra.thrashed_pages);
	bench_result_u64(b, "thrashed_windows", cur.ra.thrashed_windows);
	/* always, so that a traced run takes the same path as an untraced one */
	bench_result_u64(b, "trace", bench_u(b, "trace"));
}

static int thrash_run(struct bench *b)
{
	uint64_t nstreams = bench_u(b, "streams"), bs = bench_u(b, "bs");
	uint64_t interval = bench_u(b, "interval") * NSEC_PER_MSEC;
	uint64_t tail = bench_u(b, "tail") * NSEC_PER_SEC, t0, end_ns, next, per = 0;
	unsigned int trace = (unsigned int)bench_u(b, "trace");
	bool files = bench_u(b, "files");
	struct stream_files sf = {0};
	struct trace_state ts = {0};
	struct thrash_peaks peaks = {0};
	struct bench_harness hold;
	struct bench_sample prev;
	struct mm_stats mm0, mm1; /* before and after the readers were set up */
	volatile bool stop = false;
	struct reader *rd, proto = {.b = b, .rate = bench_u(b, "rate"), .bs = bs, .stop = &stop};
	unsigned int started = 0, sec = 0;
	int err;

	if (trace > nstreams) {
		pr_err("bench thrash: trace=%u: there are only %llu readers\n", trace,
		       (unsigned long long)nstreams);
		return -EINVAL;
	}
	/* files=1: each reader its whole file (per stays 0) */
	err = files ? stream_files_check(b, nstreams, bs, &sf)
		    : shared_file_part(b, nstreams, bs, &per);
	if (err)
		return err;
	mm_get_stats(&mm0); /* what the readers will hold of the page cache's RAM */
	rd = bench_zalloc(b, nstreams, sizeof(*rd), "the readers' state");
	if (!rd) {
		free_paths(sf.paths, sf.n);
		return -ENOMEM;
	}
	err = readers_create(rd, nstreams, &proto, files ? &sf : NULL, per);
	free_paths(sf.paths, sf.n);
	if (err) {
		bench_threads_cancel(b);
		goto out;
	}
	mm_get_stats(&mm1);
	/* following a reader is an instrument: setting it up costs no time (bench.h) */
	bench_harness_begin(b, &hold);
	if (trace)
		trace_begin(&ts, &rd[trace - 1], trace);
	b->readers = (unsigned int)nstreams; /* their stall adds up (stall_frac) */
	bench_harness_end(b, &hold);
	/*
	 * The readers go once the phase begins, but run only when this thread
	 * first sleeps (threads are cooperative): their start times, set before
	 * that, count from the phase's start.
	 */
	bench_phase_begin(b, "thrash", NULL, 0);
	bench_sample(b, &prev);
	t0 = ktime_ns();
	next = t0;
	end_ns = t0 + (nstreams - 1) * interval + tail;
	for (unsigned int i = 0; i < nstreams; i++)
		rd[i].start_ns = t0 + i * interval;
	while (ktime_ns() < end_ns && !err && !stop) {
		uint64_t now = ktime_ns();

		while (started < nstreams && now >= t0 + started * interval)
			started++;
		/* a sample a second (over the time since the last one, if the sampler ran late) */
		if (now >= next + NSEC_PER_SEC) {
			struct bench_harness h;

			bench_harness_begin(b, &h);
			next += NSEC_PER_SEC;
			thrash_sample(b, &prev, &peaks, ++sec, started, nstreams);
			if (ts.r)
				trace_sample(b, &ts, sec);
			bench_harness_end(b, &h);
		}
		sleep_ns(next + NSEC_PER_SEC - now < 100 * NSEC_PER_MSEC ? next + NSEC_PER_SEC - now
									 : 100 * NSEC_PER_MSEC);
	}
	stop = true;
	bench_harness_begin(b, &hold);
	ra_trace_watch = NULL;
	/* the pacing, for the plots' titles: said in this hold, where it costs no time */
	bench_result_u64(b, "interval_ms", bench_u(b, "interval"));
	bench_result_u64(b, "rate", bench_u(b, "rate"));
	bench_harness_end(b, &hold);
	err = readers_join(b, rd, nstreams);
	thrash_results(b, &peaks, started, nstreams, &mm0, &mm1);
	if (bench_phase_end(b))
		err = -EIO;
out:
	for (unsigned int i = 0; i < nstreams; i++) {
		if (rd[i].t)
			thread_join(rd[i].t);
		if (rd[i].f)
			bench_close(b, rd[i].f);
		kfree(rd[i].buf);
	}
	kfree(rd);
	return err;
}

BENCH_WORKLOAD(thrash, "readahead thrashing: paced sequential readers added one a second",
	       thrash_params, thrash_run, false);
