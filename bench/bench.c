/*
 * The benchmark framework's measurement (see bench/bench.h): timed and
 * checked reads, phases and their reports, and one run of a workload.
 *
 * What a phase reports: throughput (MB/s and KB/s, as iozone prints), read
 * calls per second, read-call latency p50/p99/p99.9/max, disk requests and
 * their average size, the file's readahead counters (calls by
 * synchronous/asynchronous submission, pages, pages used, pages thrashed),
 * the reader's stall time, the time spent in readahead calls, the disk
 * model's counters when there is one, the clock and the disk. One human
 * line and one RESULT line whose keys scripts depend on:
 *	cmd workload test ra secs mbps kbps disk_reads avg_req_kb stall_secs
 *	clock disk cold verified harness_secs
 * stall_frac is the readers' stall over their time: stall_secs (summed over
 * the phase's reader threads, b->readers) / (secs x readers).
 * The framework's own work per read (latency histogram, pattern check,
 * progress lines) is the harness, not the workload: under the virtual
 * clock it runs with the clock stopped (bench_harness_begin()).
 *
 * The rest of the framework: the registry, the parameters and the command
 * line a run parses are bench/bench-params.c's; the memory, threads and
 * files a workload takes, bench/bench-env.c's. The reads, the phases and the
 * report stay in this one file because the compiler inlines the harness
 * (bench_harness_begin/end) into each of them: from another file it would be
 * a call, and the call's instructions outside the clock's hold would count
 * under the virtual clock, in a phase's time and before it.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench-internal.h"
#include "bench/bench.h"
#include "bench/pattern-check.h"
#include "drivers/diskmodel.h"
#include "drivers/elevator.h"
#include "kernel/crc32.h"
#include "kernel/log.h"
#include "kernel/sync.h"
#include "kernel/time.h"
#include "mm/filemap.h"
#include "mm/kobj.h"
#include "mm/mm.h"

/* --- timed and checked reads ----------------------------------------------------------- */

/* 8 buckets per power of two: bucket of @ns. */
static unsigned int lat_bucket(uint64_t ns)
{
	unsigned int lg;

	if (ns < 8)
		return (unsigned int)ns;
	lg = 63 - (unsigned int)__builtin_clzll(ns);
	return min_t(unsigned int, (lg - 2) * 8 + (unsigned int)((ns >> (lg - 3)) & 7),
		     BENCH_LAT_BUCKETS - 1);
}

/* The upper end of bucket @i, in ns. */
static uint64_t lat_bucket_top(unsigned int i)
{
	unsigned int lg = i / 8 + 2, sub = i % 8;

	if (i < 8)
		return i;
	return ((8ULL + sub + 1) << (lg - 3)) - 1;
}

void bench_lat_add(struct bench_lat *l, uint64_t ns)
{
	l->count++;
	l->buckets[lat_bucket(ns)]++;
	l->max_ns = max(l->max_ns, ns);
}

uint64_t bench_lat_percentile(const struct bench_lat *l, double pct)
{
	uint64_t want = (uint64_t)((double)l->count * pct / 100.0), seen = 0;

	for (unsigned int i = 0; i < BENCH_LAT_BUCKETS; i++) {
		seen += l->buckets[i];
		if (seen > want)
			return min(lat_bucket_top(i), l->max_ns);
	}
	return l->max_ns;
}

enum { CHECK_OTHER, CHECK_ZERO, CHECK_PATTERN };

/*
 * Bytes at @bad of @f did not hold the pattern: one error line for the first,
 * and counted. Unless a mapping's fault could not read the page (out of memory:
 * the zero page stands in for it, mm/filemap-mmap.c): that is no wrong data but
 * a failed read, which its caller says (one error line, not two). Out of line:
 * the rare case stays out of the inlined checks.
 */
static __attribute__((noinline)) void bad_data(struct bench *b, struct file *f, int64_t bad)
{
	if (filemap_mmap_unread(f, (loff_t)bad))
		return;
	if (!b->bad_bytes) {
		b->first_bad = bad;
		pr_err("bench %s: %s: wrong data at offset %lld\n", b->w->name, f->f_path,
		       (long long)bad);
	}
	b->bad_bytes++;
}

/*
 * check_data() and account_read() are inlined wherever they are called, as
 * they were in after_read() when it was their one caller: a second caller
 * (bench_pread_through()) must not change how bench_read() compiles, whose
 * instructions outside the harness are its time under the virtual clock.
 */
static __always_inline void check_data(struct bench *b, struct file *f, const void *buf, size_t n,
				       loff_t pos)
{
	/*
	 * The name decides the check: look at it once per file, not once per read.
	 * Also with verify=0, so that bench_close() (timed) finds the same state.
	 */
	if (b->check_file != f) {
		b->check_file = f;
		b->check_kind = zero_file(f->f_path)	  ? CHECK_ZERO
				: pattern_file(f->f_path) ? CHECK_PATTERN
							  : CHECK_OTHER;
		b->check_seed = pattern_seed(f->f_path);
	}
	if (!b->verify)
		return;
	if (b->check_kind == CHECK_ZERO) {
		/* a sparse file: every byte reads as zero */
		const uint8_t *p = buf;

		b->checked_bytes += n;
		for (size_t i = 0; i < n; i++)
			if (p[i]) {
				if (!b->bad_bytes)
					pr_err("bench %s: %s: nonzero byte at offset %lld\n",
					       b->w->name, f->f_path, (long long)(pos + (loff_t)i));
				b->bad_bytes++;
				break;
			}
		return;
	}
	if (b->check_kind == CHECK_PATTERN) {
		int64_t bad = pattern_check_fast(b->check_seed, buf, n, (uint64_t)pos);

		b->checked_bytes += n;
		if (bad >= 0)
			bad_data(b, f, bad);
		return;
	}
	/* other files: a crc32 while they are read once, in order */
	if (b->crc_valid && pos == b->crc_pos) {
		b->crc = crc32(b->crc, buf, n);
		b->crc_pos += (loff_t)n;
	} else {
		b->crc_valid = false;
	}
}

void bench_harness_begin(struct bench *b, struct bench_harness *h)
{
	(void)b;
	ktime_hold_begin(&h->hold);
	h->t0 = ktime_ns();
}

void bench_harness_end(struct bench *b, struct bench_harness *h)
{
	if (!h->hold.stop)
		b->harness_ns += ktime_ns() - h->t0;
	ktime_hold_end(&h->hold);
}

/*
 * The phase's first failed read: its errno, and with -ENOMEM what held the
 * page cache's RAM at that moment (kobj_room_hint()), for a workload whose
 * threads only note that a read failed (bench_first_error()). Out of line and
 * cold, and kept outside struct bench, whose zeroing before every phase is
 * timed: a phase without errors runs the same instructions as before.
 */
static int first_err;
static char first_room[200];

static __attribute__((noinline, cold)) void read_failed(struct bench *b, ssize_t n)
{
	if (b->errors++)
		return;
	first_err = (int)n;
	first_room[0] = '\0';
	if (n == -ENOMEM)
		kobj_room_hint(first_room, sizeof(first_room));
}

int bench_first_error(const struct bench *b, const char **room)
{
	*room = first_room;
	return b->errors ? first_err : 0;
}

static __always_inline void account_read(struct bench *b, uint64_t ns, ssize_t n)
{
	b->lat.count++;
	b->lat.buckets[lat_bucket(ns)]++;
	b->lat.max_ns = max(b->lat.max_ns, ns);
	if (n > 0)
		b->bytes += (uint64_t)n;
	if (n < 0)
		read_failed(b, n);
	if (b->expect_bytes >= (64ULL << 20) && b->bytes >= b->next_progress) {
		uint64_t el = max_t(uint64_t, ktime_ns() - b->t0, 1);

		printf("bench: %s %s: %llu%% (%llu MiB, %.1f MB/s so far)\n", b->w->name, b->test,
		       (unsigned long long)(b->bytes * 100 / b->expect_bytes),
		       (unsigned long long)(b->bytes >> 20), (double)b->bytes * 1e3 / (double)el);
		b->next_progress += b->expect_bytes / 10;
	}
}

/*
 * After a read call of @ns that returned @n: the harness's part, with the
 * clock stopped. Inlined into each caller, as it was with two of them: a
 * third must not turn it into a call in bench_read().
 */
static __always_inline void after_read(struct bench *b, struct file *f, const void *buf, ssize_t n, loff_t pos,
		       uint64_t ns)
{
	struct bench_harness h;

	bench_harness_begin(b, &h);
	account_read(b, ns, n);
	if (n > 0)
		check_data(b, f, buf, (size_t)n, pos);
	bench_harness_end(b, &h);
}

ssize_t bench_read(struct bench *b, struct file *f, void *buf, size_t len)
{
	loff_t pos = f->f_pos;
	uint64_t t0 = ktime_ns();
	ssize_t n = vfs_read(f, buf, len);

	after_read(b, f, buf, n, pos, ktime_ns() - t0);
	return n;
}

ssize_t bench_pread(struct bench *b, struct file *f, void *buf, size_t len, loff_t pos)
{
	uint64_t t0 = ktime_ns();
	ssize_t n = vfs_pread(f, buf, len, pos);

	after_read(b, f, buf, n, pos, ktime_ns() - t0);
	return n;
}

uint64_t bench_touch(struct bench *b, struct file *f, uintptr_t va, loff_t pos)
{
	uint64_t t0 = ktime_ns();
	/* the aligned word holding the byte: one load, in the same page */
	uint64_t word = *(const volatile uint64_t *)(va & ~7UL);
	uint64_t ns = ktime_ns() - t0, at;
	struct bench_harness h;
	size_t n;

	/* checked and counted: the word's bytes in the file (past its end a mapping is zeros) */
	bench_harness_begin(b, &h);
	n = pattern_word_in_file((uint64_t)pos, (uint64_t)f->f_mapping->size, &at);
	account_read(b, ns, (ssize_t)n);
	if (n)
		check_data(b, f, &word, n, (loff_t)at);
	bench_harness_end(b, &h);
	return word;
}

/* A read through an actor: where each piece goes, and what is yet to be checked. */
struct read_through {
	struct bench *b;
	struct file *f;
	char *buf;
	size_t buf_len, fill;
	loff_t pos; /* the file offset of buf[0] */
};

/* The buffer is full or the read over: check what it holds, as the harness. */
static void through_flush(struct read_through *rt)
{
	struct bench_harness h;

	if (!rt->fill)
		return;
	bench_harness_begin(rt->b, &h);
	check_data(rt->b, rt->f, rt->buf, rt->fill, rt->pos);
	bench_harness_end(rt->b, &h);
	rt->pos += (loff_t)rt->fill;
	rt->fill = 0;
}

/* The read path's actor: copy each piece into the buffer, as a read copies to the program's. */
static void through_piece(void *ctx, const void *data, size_t len)
{
	struct read_through *rt = ctx;

	while (len) {
		size_t n = min(len, rt->buf_len - rt->fill);

		memcpy(rt->buf + rt->fill, data, n);
		rt->fill += n;
		data = (const char *)data + n;
		len -= n;
		if (rt->fill == rt->buf_len)
			through_flush(rt);
	}
}

ssize_t bench_pread_through(struct bench *b, struct file *f, void *buf, size_t buf_len, size_t len,
			    loff_t pos)
{
	struct read_through rt = {.b = b, .f = f, .buf = buf, .buf_len = buf_len, .pos = pos};
	uint64_t harness0 = b->harness_ns, t0 = ktime_ns(), ns;
	struct bench_harness h;
	ssize_t n;

	n = vfs_pread_actor(f, len, pos, through_piece, &rt);
	/* the checks made as the buffer filled are the harness's (real clock: harness_ns) */
	ns = ktime_ns() - t0 - (b->harness_ns - harness0);
	bench_harness_begin(b, &h);
	account_read(b, ns, n);
	bench_harness_end(b, &h);
	if (n > 0)
		through_flush(&rt);
	return n;
}

/* --- phases ---------------------------------------------------------------------------- */

static void model_snapshot(struct block_device *bdev, uint64_t *m)
{
	const struct dm_stats *st;

	memset(m, 0, 8 * sizeof(*m));
	if (!bdev || !bdev->dmodel)
		return;
	st = dm_stats(bdev->dmodel);
	m[0] = st->commands;
	m[1] = st->seek_ns;
	m[2] = st->rotate_ns;
	m[3] = st->media_ns;
	m[4] = st->buffer_hits;
	m[5] = st->stream_hits;
	m[6] = st->seeks;
	m[7] = st->busy_ns;
}

/*
 * The settings a phase runs with, as they take effect (when ra_kb= was not
 * given, the window the algorithm gives a file on the disk: the disk's, or
 * the algorithm's kernel's default, ra=linux's 8 MiB), so that a row of a
 * suite can be run again by hand.
 */
static void print_settings(const struct bench *b, const struct file *f)
{
	unsigned long pages = f ? f->f_ra.ra_pages : b->ra_pages_given ? b->ra_pages
						 : ra_algo_window(b->ra, b->bdev ? &b->bdev->bdi : NULL);

	printf("bench: %s %s: ra=%s ra_kb=%lu%s%s%s verify=%d disk=%s elevator=%s "
	       "cache_pages=%lu%s%s%s%s%s%s\n",
	       b->w->name, b->test, b->ra->name, pages * PAGE_SIZE / 1024,
	       b->ra_async ? "" : " ra_async=0", b->advice != FADV_NORMAL ? " advice=" : "",
	       b->advice != FADV_NORMAL ? ra_fadvise_names[b->advice] : "", b->verify,
	       b->cold ? "cold" : "warm",
	       b->bdev && b->bdev->queue ? b->bdev->queue->elevator->name : "none",
	       cache_pool_pages(), b->pass ? " pass=" : "",
	       b->pass ? b->pass : "", f && f->f_path ? " file=" : "",
	       f && f->f_path ? f->f_path : "", b->suite ? " suite=" : "",
	       b->suite ? b->suite : "");
}

unsigned long bench_phase_calls;

void bench_reads_begin(void)
{
	if (bench_phase_calls == ULONG_MAX)
		bench_phase_calls = mm_fail_nth_calls();
}

void bench_set_pass(struct bench *b, const char *what)
{
	b->pass = what;
}

void bench_phase_begin(struct bench *b, const char *test, struct file *f, uint64_t expect)
{
	struct bench_harness h;

	bench_reads_begin();
	b->phases++;
	if (!b->gate_state) {
		b->gate_state = 1;
		wake_up_all(&b->gate);
	}
	snprintf(b->test, sizeof(b->test), "%s", test);
	b->file = f;
	b->ra_end_valid = !f;
	b->ra_collect = !f;
	memset(&b->ra_end, 0, sizeof(b->ra_end));
	snprintf(b->file_path, sizeof(b->file_path), "%s", f && f->f_path ? f->f_path : "");
	b->bdev = f && f->f_inode->i_sb ? f->f_inode->i_sb->s_bdev
		  : vfs_root		? vfs_root->s_bdev
					: NULL;
	b->cold = blk_run_start(b->bdev);
	b->global0 = ra_global_stats;
	if (b->bdev)
		b->disk0 = b->bdev->stats;
	model_snapshot(b->bdev, b->model0);
	if (f)
		ra_file_stats(&f->f_ra, &b->ra0);
	else
		memset(&b->ra0, 0, sizeof(b->ra0));
	memset(&b->lat, 0, sizeof(b->lat));
	b->bytes = b->checked_bytes = b->bad_bytes = 0;
	b->first_bad = -1;
	b->errors = 0;
	b->crc = 0;
	b->crc_valid = true;
	b->crc_pos = f ? f->f_pos : 0;
	b->expect_bytes = expect;
	b->next_progress = expect / 10;
	b->extra_len = 0;
	b->extra[0] = 0;
	/* the settings line is the harness's: it must not move the disk's state */
	bench_harness_begin(b, &h);
	print_settings(b, f);
	bench_harness_end(b, &h);
	b->harness_ns = 0;
	b->t0 = ktime_ns();
}

static void extra_append(struct bench *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The workload's own RESULT keys: the harness's report, costing the phase no time. */
static void extra_append(struct bench *b, const char *fmt, ...)
{
	struct bench_harness h;
	va_list ap;

	bench_harness_begin(b, &h);
	va_start(ap, fmt);
	if (b->extra_len < sizeof(b->extra))
		b->extra_len += (size_t)vsnprintf(b->extra + b->extra_len,
						  sizeof(b->extra) - b->extra_len, fmt, ap);
	va_end(ap);
	bench_harness_end(b, &h);
}

void bench_sample(struct bench *b, struct bench_sample *s)
{
	s->ns = ktime_ns() - b->t0;
	s->bytes = b->bytes;
	s->disk_reads = b->bdev ? b->bdev->stats.ios[0] - b->disk0.ios[0] : 0;
	s->disk_sectors = b->bdev ? b->bdev->stats.sectors[0] - b->disk0.sectors[0] : 0;
	s->dispatched = b->bdev && b->bdev->queue ? b->bdev->queue->elv.dispatched : 0;
	s->dist_sectors = b->bdev && b->bdev->queue ? b->bdev->queue->elv.dist_sectors : 0;
	if (b->bdev && b->bdev->dmodel) {
		const struct dm_stats *m = dm_stats(b->bdev->dmodel);

		s->buffer_hits = m->buffer_hits;
		s->seeks = m->seeks;
		s->seek_ns = m->seek_ns;
	} else {
		s->buffer_hits = s->seeks = s->seek_ns = 0;
	}
	ra_stats_sub(&s->ra, &ra_global_stats, &b->global0);
}

void bench_result_u64(struct bench *b, const char *key, uint64_t v)
{
	extra_append(b, ",\"%s\":%llu", key, (unsigned long long)v);
}

void bench_result_double(struct bench *b, const char *key, double v, int decimals)
{
	extra_append(b, ",\"%s\":%.*f", key, decimals, v);
}

/* The phase's readahead counters since its start: its file's, or its mapping's (many files). */
static __attribute__((noinline)) void phase_ra_stats(struct bench *b, struct ra_stats *ra)
{
	struct ra_stats ra1;

	if (b->file) {
		ra_file_stats(&b->file->f_ra, &ra1);
		b->ra_pages_end = b->file->f_ra.ra_pages;
	} else {
		/* many files of one mapping: each one's count would be the mapping's */
		ra1 = b->ra_end;
		ra1.thrashed_pages =
			ra_global_stats.thrashed_pages - b->global0.thrashed_pages;
		ra1.thrashed_windows =
			ra_global_stats.thrashed_windows - b->global0.thrashed_windows;
	}
	ra_stats_sub(ra, &ra1, &b->ra0);
}

/* The phase's console line. */
static __attribute__((noinline)) void phase_print(const struct bench *b, double secs,
						  const struct ra_stats *rap, uint64_t reads,
						  uint64_t sectors, const uint64_t *m1, bool verified)
{
	const struct ra_stats ra = *rap;
	char leadbuf[48];
	int lead;

	lead = ra_lead_median_bucket(&ra);
	if (lead < 0)
		snprintf(leadbuf, sizeof(leadbuf), "no page used");
	else
		snprintf(leadbuf, sizeof(leadbuf), "median lead %lu-%lu us",
			 lead ? 1UL << lead : 0UL, (2UL << lead) - 1);
	printf("bench: %s %s: %llu KiB in %.3f s: %.0f KB/s (%.2f MB/s), %llu calls, p50 %llu us "
	       "p99 %llu us; %s disk: %llu reads, avg %.1f KiB, %llu buffer hits; ra %s %lu calls, "
	       "%lu windows, %lu pages (%lu used, %lu unused, %lu thrashed; %s); stall %.3f s; "
	       "%s\n",
	       b->w->name, b->test, (unsigned long long)(b->bytes >> 10), secs,
	       (double)b->bytes / 1024 / secs, b->mbps, (unsigned long long)b->lat.count,
	       (unsigned long long)(bench_lat_percentile(&b->lat, 50) / 1000),
	       (unsigned long long)(bench_lat_percentile(&b->lat, 99) / 1000), b->cold ? "cold" : "warm",
	       (unsigned long long)reads,
	       reads ? (double)sectors / 2.0 / (double)reads : 0.0,
	       (unsigned long long)(m1[4] - b->model0[4]), b->ra->name, ra_stats_calls(&ra),
	       ra.windows, ra.pages, ra.hit_pages, ra_stats_unused(&ra), ra.thrashed_pages,
	       leadbuf, (double)ra.stall_ns / 1e9,
	       verified	      ? "verified"
	       : !b->verify   ? "not checked (verify=0)"
	       : b->bad_bytes ? "WRONG DATA"
	       : b->errors    ? "READ ERRORS"
			      : "not a pattern file");
}

/* The disk model's keys: what it did during the phase (@m1 its counters now). */
static void phase_result_model(const struct bench *b, struct result *r, const uint64_t *m1)
{
	if (!b->bdev || !b->bdev->dmodel)
		return;
	result_u64(r, "dm_commands", m1[0] - b->model0[0]);
	result_double(r, "dm_seek_secs", (double)(m1[1] - b->model0[1]) / 1e9, 4);
	result_double(r, "dm_rotate_secs", (double)(m1[2] - b->model0[2]) / 1e9, 4);
	result_double(r, "dm_media_secs", (double)(m1[3] - b->model0[3]) / 1e9, 4);
	result_u64(r, "dm_buffer_hits", m1[4] - b->model0[4]);
	result_u64(r, "dm_lookahead_hits", m1[5] - b->model0[5]);
	result_u64(r, "dm_seeks", m1[6] - b->model0[6]);
	result_double(r, "dm_busy_secs", (double)(m1[7] - b->model0[7]) / 1e9, 4);
}

/* The phase's RESULT line, with the workload's own keys. */
static __attribute__((noinline)) void phase_result(const struct bench *b, double secs,
						   const struct ra_stats *rap, uint64_t reads,
						   uint64_t sectors, const uint64_t *m1, bool verified)
{
	const struct ra_stats ra = *rap;
	struct result r;

	result_begin(&r, "bench");
	result_str(&r, "workload", b->w->name);
	result_str(&r, "test", b->test);
	if (b->suite)
		result_str(&r, "suite", b->suite);
	if (b->file_path[0])
		result_str(&r, "path", b->file_path);
	result_str(&r, "ra", b->ra->name);
	result_u64(&r, "ra_kb", b->ra_pages_end * PAGE_SIZE / 1024);
	if (!b->ra_async)
		result_bool(&r, "ra_async", false);
	if (b->advice != FADV_NORMAL)
		result_str(&r, "advice", ra_fadvise_names[b->advice]);
	result_u64(&r, "bytes", b->bytes);
	result_double(&r, "secs", secs, 6);
	result_double(&r, "mbps", b->mbps, 2);
	result_double(&r, "kbps", (double)b->bytes / 1024 / secs, 2);
	result_double(&r, "iops", (double)b->lat.count / secs, 1);
	result_u64(&r, "calls", b->lat.count);
	result_u64(&r, "p50_us", bench_lat_percentile(&b->lat, 50) / 1000);
	result_u64(&r, "p99_us", bench_lat_percentile(&b->lat, 99) / 1000);
	result_u64(&r, "p999_us", bench_lat_percentile(&b->lat, 99.9) / 1000);
	result_u64(&r, "max_us", b->lat.max_ns / 1000);
	result_u64(&r, "disk_reads", reads);
	result_double(&r, "avg_req_kb", reads ? (double)sectors / 2.0 / (double)reads : 0.0, 1);
	ra_result_counters(&r, &ra);
	result_u64(&r, "ra_seq_first", ra_calls_of_kind(&ra, RA_KIND_FIRST));
	result_u64(&r, "ra_seq_next", ra_calls_of_kind(&ra, RA_KIND_NEXT));
	result_u64(&r, "ra_random", ra_calls_of_kind(&ra, RA_KIND_RANDOM));
	result_double(&r, "stall_secs", (double)ra.stall_ns / 1e9, 6);
	result_double(&r, "stall_frac", b->stall_frac, 4);
	result_double(&r, "ra_decide_secs", (double)ra.decide_ns / 1e9, 6);
	result_double(&r, "ra_decide_wait_secs", (double)ra.decide_wait_ns / 1e9, 6);
	phase_result_model(b, &r, m1);
	result_str(&r, "clock", ktime_clock_name());
	result_str(&r, "disk", b->bdev ? blk_disk_kind(b->bdev) : "none");
	result_bool(&r, "cold", b->cold);
	if (b->pass)
		result_str(&r, "pass", b->pass);
	result_u64(&r, "cache_pages", cache_pool_pages());
	result_bool(&r, "verified", verified);
	result_double(&r, "harness_secs", (double)b->harness_ns / 1e9, 6);
	if (!verified && b->crc_valid && b->bytes && b->verify) {
		char crcs[12];

		snprintf(crcs, sizeof(crcs), "%08x", b->crc);
		result_str(&r, "crc32", crcs);
	}
	if (b->extra_len) {
		/* the workload's own keys, already JSON */
		if (r.len + b->extra_len + 2 < sizeof(r.buf)) {
			memcpy(r.buf + r.len, b->extra, b->extra_len);
			r.len += b->extra_len;
			r.buf[r.len] = 0;
		} else {
			r.overflow = true;
		}
	}
	result_end(&r);
}

int bench_phase_end(struct bench *b)
{
	uint64_t ns = max_t(uint64_t, ktime_ns() - b->t0, 1);
	struct bench_harness h;
	double secs;
	struct ra_stats ra = {0};
	uint64_t reads = 0, sectors = 0, m1[8];
	bool verified;

	/* the report is the harness too: verify=1 and verify=0 take different branches in it */
	bench_harness_begin(b, &h);
	secs = (double)ns / 1e9;
	verified = b->verify && b->bytes && b->checked_bytes == b->bytes && !b->bad_bytes &&
		   !b->errors;
	if (b->file || b->ra_end_valid)
		phase_ra_stats(b, &ra);
	if (b->bdev) {
		reads = b->bdev->stats.ios[0] - b->disk0.ios[0];
		sectors = b->bdev->stats.sectors[0] - b->disk0.sectors[0];
	}
	model_snapshot(b->bdev, m1);
	b->secs = secs;
	b->disk_reads = reads;
	b->mbps = (double)b->bytes / 1e6 / secs;
	/*
	 * The file's stall counter adds up every reader's: with N readers it
	 * reaches N times the run. A fraction of the readers' time, so that it
	 * stays within [0, 1] (one reader: of the run).
	 */
	b->stall_frac = (double)ra.stall_ns / ((double)ns * (double)max(b->readers, 1U));
	phase_print(b, secs, &ra, reads, sectors, m1, verified);
	phase_result(b, secs, &ra, reads, sectors, m1, verified);
	if (b->suite)
		bench_suite_record(b, bench_suite_column());
	b->ra_collect = false;
	b->pass = NULL;
	b->readers = 0; /* the next phase's workload says its own */
	bench_harness_end(b, &h);
	return b->errors || b->bad_bytes ? -EIO : 0;
}

int bench_run_argv(const struct bench_workload *w, int argc, char **argv, const char *suite)
{
	struct bench *b = kzalloc(sizeof(*b));
	struct bench_harness h;
	int err;

	if (!b) {
		pr_err("bench %s: no memory for its state (%zu bytes)\n", w->name, sizeof(*b));
		return -ENOMEM;
	}
	init_waitqueue_head(&b->gate);
	b->w = w;
	b->suite = suite;
	/* parsing is the harness too: verify=0 and verify=1 take different branches */
	bench_harness_begin(b, &h);
	err = parse_args(b, argc, argv);
	bench_harness_end(b, &h);
	if (!err)
		err = w->run(b);
	kfree(b);
	return err;
}
