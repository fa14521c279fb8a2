/*
 * The benchmark layer: workloads are applications. A workload uses only the
 * file API (fs/vfs.h: open, read, pread, readdir, close, the readahead
 * choice made at open) through the bench_* wrappers below, and the clock;
 * the framework measures around it (time, latency of each read call, the
 * disk's and the file's readahead counters, reader stall) and checks every
 * byte read from a pattern file (bench/pattern.h). The framework is
 * bench/bench.c (the reads, the phases and their report), bench-params.c
 * (the registry and the keys) and bench-env.c (memory, threads, files).
 *
 * A workload is one struct, registered through a linker section as the
 * tests are, so adding one is adding one file:
 *
 *	static const struct bench_param p[] = {
 *		{"s", KV_SIZE, NULL, 64 << 20, 4096, 1ULL << 40, "file size"},
 *	};
 *	static int run(struct bench *b)
 *	{
 *		struct file *f = bench_open(b, bench_path(b));
 *		bench_phase_begin(b, "read", f, bytes);
 *		while (bench_read(b, f, buf, n) > 0) ...
 *		return bench_phase_end(b);	// one human line, one RESULT line
 *	}
 *	BENCH_WORKLOAD(mine, "what it measures", p, run, false);
 *
 * `bench NAME key=value...` runs one; `bench suite=NAME ra=A,B` runs a
 * suite (bench/suites.c) with each algorithm, caches dropped before each
 * run, and prints the suite's table.
 */
#ifndef BENCH_BENCH_H
#define BENCH_BENCH_H

#include "drivers/blkdev.h"
#include "fs/vfs.h"
#include "kernel/kv.h"
#include "kernel/prandom.h"
#include "kernel/result.h"
#include "kernel/sched.h"
#include "kernel/time.h"

#define BENCH_MAX_PARAMS  12
#define BENCH_LAT_BUCKETS 512 /* 8 per power of two of nanoseconds */

/* A typed parameter with its default and range (sizes and counts: [min, max]). */
struct bench_param {
	const char *key;
	enum kv_type type;
	const char *const *choices; /* KV_ENUM */
	uint64_t def, min, max;	    /* KV_STRING: def is a const char * */
	const char *help;
};

struct bench;

/* A phase as one row of a suite's table (bench/suites.c): its label, unit and figure. */
struct bench_row {
	char label[48];
	const char *unit; /* "KB/s" (higher is better), "s", "stall" (lower is better) */
	double v;
};

struct bench_workload {
	const char *name;
	const char *help;
	const struct bench_param *params;
	unsigned int nr_params;
	int (*run)(struct bench *b);
	bool warm; /* in a suite, runs on the cache the previous run left */
	/*
	 * Its phase's row in a suite's table, which the workload knows best;
	 * NULL: bench_row_secs(), "NAME TEST" (" ra=off" without readahead) in
	 * seconds. tools/bench-report reads the rows the kernel made.
	 */
	void (*row)(const struct bench *b, struct bench_row *r);
};

#define BENCH_WORKLOAD(wname, whelp, wparams, wrun, wwarm) \
	BENCH_WORKLOAD_ROW(wname, whelp, wparams, wrun, wwarm, NULL)
/* A workload whose phases have a row of their own in a suite's table (struct bench_row). */
#define BENCH_WORKLOAD_ROW(wname, whelp, wparams, wrun, wwarm, wrow)       \
	static const struct bench_workload __bench_##wname __attribute__(( \
		used, section("bench_workloads"), aligned(8))) = {         \
		#wname, whelp, wparams, sizeof(wparams) / sizeof((wparams)[0]), wrun, wwarm, wrow}
/* The default row: "NAME TEST", and " ra=off" without readahead; seconds. */
void bench_row_secs(const struct bench *b, struct bench_row *r);

/* Latencies as a histogram, 8 buckets per power of two of ns (bench.c, rawread.c). */
struct bench_lat {
	uint64_t count, max_ns;
	uint32_t buckets[BENCH_LAT_BUCKETS];
};
void bench_lat_add(struct bench_lat *l, uint64_t ns);
/* The @pct percentile: the top of its bucket (at most the largest seen). */
uint64_t bench_lat_percentile(const struct bench_lat *l, double pct);

/* One run of a workload, and its current phase (one "test": one RESULT line). */
struct bench {
	const struct bench_workload *w;
	struct kv_value v[BENCH_MAX_PARAMS];
	/* common keys: ra=, ra_kb=, ra_async=, verify=, advice= */
	const struct ra_algorithm *ra;
	bool ra_given;
	unsigned long ra_pages; /* 0 with !ra_pages_given: the device's */
	bool ra_pages_given;
	bool ra_async;
	bool verify;
	bool cold;		/* the phase began on a disk made cold (drop_caches disk=cold) */
	enum ra_fadvise advice; /* advice=: fadvise()d on every file the run opens */
	const char *suite;	/* set when run by a suite */
	/* what prepared the next phase's page cache untimed (bench_set_pass()), or NULL */
	const char *pass;

	/* the phase */
	char test[24];
	struct file *file;
	uint64_t t0, bytes, expect_bytes, next_progress;
	uint64_t checked_bytes, bad_bytes;
	int64_t first_bad;
	uint32_t crc;
	bool crc_valid; /* non-pattern file read once, in order: the crc32 means something */
	loff_t crc_pos;
	/* the file check_data() last checked: what kind it is and its pattern seed */
	const struct file *check_file;
	int check_kind;
	uint64_t check_seed;
	struct bench_lat lat;
	struct disk_stats disk0;
	struct ra_stats ra0, ra_end; /* ra_end: taken when the phase's file is closed in it */
	bool ra_end_valid;
	bool ra_collect;	 /* a phase over many files: their counters add up at close */
	struct ra_stats global0; /* all files' counters when the phase began */
	unsigned long ra_pages_end;
	char file_path[64];
	struct block_device *bdev;
	uint64_t model0[8];
	uint64_t harness_ns; /* the harness's own time in the phase (real clock only) */
	char extra[1024];    /* extra keys a workload adds with bench_result_*(), as JSON */
	size_t extra_len;
	/* what the phase measured, for suites */
	double secs, mbps;
	double stall_frac;   /* stall_secs / (secs x readers): within [0, 1] */
	uint64_t disk_reads; /* 0: the phase never touched the disk (served from the cache) */
	int errors;
	/* the workload's threads wait here for its first phase (bench_thread_start) */
	struct wait_queue_head gate;
	int gate_state;	     /* 0: closed, 1: the phase began, -1: the workload gave up */
	int open_err;	     /* why the last bench_open() failed */
	unsigned int phases; /* begun so far in this run */
	/*
	 * The phase's reader threads, set by the workload before it begins (0:
	 * this thread alone). Last, in what was the struct's padding: a larger
	 * struct bench would take its zeroing longer before every phase, which
	 * moves the phases' start against the modelled disk under the virtual clock.
	 */
	unsigned int readers;
};

/*
 * The errno of the phase's first failed read (0: none failed) and, for
 * -ENOMEM, in *@room what held the page cache's RAM when it failed: for a
 * workload whose threads only note a failure, to name it in one error line.
 */
int bench_first_error(const struct bench *b, const char **room);

/* A parameter's value (KV_UINT, KV_SIZE, KV_BOOL, KV_ENUM index, KV_TIME_* in its unit). */
uint64_t bench_u(struct bench *b, const char *key);
const char *bench_s(struct bench *b, const char *key);

/*
 * Running out of memory: a workload that cannot have all it needs stops
 * before its phase begins, after one error line saying what had no memory
 * and how many bytes were asked, and frees what it took (tests/qemu/oom.t
 * checks every allocation of every workload with the failnth command).
 *
 * bench_no_memory() prints "error: bench NAME: no memory for WHAT (N bytes)"
 * and returns -ENOMEM; bench_alloc()/bench_zalloc() are kmalloc/kzalloc
 * that say so when they fail (@n items of @size: the product is checked).
 */
__printf(3, 4) int bench_no_memory(struct bench *b, size_t bytes, const char *fmt, ...);
void *bench_alloc(struct bench *b, size_t n, size_t size, const char *what);
void *bench_zalloc(struct bench *b, size_t n, size_t size, const char *what);
/*
 * One error line for an operation on @path that failed with @err: "no memory
 * to DOING it (a N-byte allocation failed)" for -ENOMEM (the size from
 * mm_last_failure()), "cannot DOING it (the error)" otherwise. Returns @err.
 */
int bench_error(struct bench *b, const char *path, const char *doing, int err);

/*
 * The threads a workload runs in a phase are all created before it: each
 * one's function first calls bench_thread_start(), which waits until the
 * phase begins (true: go on) or the workload gave up (false: return at
 * once). bench_thread_create() prints the error if the thread's stack
 * cannot be had; bench_threads_cancel() lets the waiting ones go.
 */
struct thread *bench_thread_create(struct bench *b, int (*fn)(void *), void *arg, const char *what);
bool bench_thread_start(struct bench *b);
void bench_threads_cancel(struct bench *b);

/*
 * Open @path with the run's readahead choice applied; NULL after one error
 * line naming it (and, out of memory, how much was asked), the errno in
 * b->open_err.
 */
struct file *bench_open(struct bench *b, const char *path);
/* Close @f; inside a phase on its file, the phase keeps the file's final counters. */
void bench_close(struct bench *b, struct file *f);
/* read(2) / pread(2), timed and checked; a failed or wrong read counts as an error. */
ssize_t bench_read(struct bench *b, struct file *f, void *buf, size_t len);
ssize_t bench_pread(struct bench *b, struct file *f, void *buf, size_t len, loff_t pos);
/*
 * A load through a mapping of @f at @va (file offset @pos): the page fault
 * path reads what it needs, as a program touching a mapped file. Timed and
 * checked like a read of the 8-byte word holding the byte, of its bytes
 * inside the file (bench/pattern.h: pattern_word_in_file()); returns it.
 */
uint64_t bench_touch(struct bench *b, struct file *f, uintptr_t va, loff_t pos);
/*
 * pread(2) of @len bytes at @pos, larger than the @buf_len bytes of @buf:
 * one request as the kernel sees it (one call into the read path with the
 * whole length: readahead's req_size is all of it), its data copied into
 * @buf a piece at a time and checked each time @buf fills. Timed and
 * counted as one read call.
 */
ssize_t bench_pread_through(struct bench *b, struct file *f, void *buf, size_t buf_len, size_t len,
			    loff_t pos);
/* The size of the open file. */
loff_t bench_size(struct file *f);
/*
 * Measure CPU costs exactly: no clock reads inside the read path (the
 * readahead decision timing is off until bench_exact_cpu(false)).
 */
void bench_exact_cpu(bool on);
/* echo 3 > /proc/sys/vm/drop_caches: evict every clean, unused page. */
void bench_drop_caches(void);
/*
 * Before each run of a suite: the page cache dropped and every disk made
 * cold (drop_caches disk=cold), so each algorithm starts from the same disk.
 */
int bench_cold_start(void);
/* Spin for @ns of compute, on the run's clock (virtual under QEMU -icount). */
void bench_think(uint64_t ns);
/* A kmalloc'd read buffer, or NULL after bench_no_memory(). */
void *bench_buffer(struct bench *b, size_t len);

/*
 * For the failnth command (bench/failnth.c): set to ULONG_MAX, the next
 * phase to begin stores mm_fail_nth_calls() there, telling whether an
 * injected allocation failure came before the run's first phase or in it.
 */
extern unsigned long bench_phase_calls;
/*
 * The reads begin outside a phase (overhead's timed pass): from here an
 * allocation failure belongs to the reads, as in a phase, where readahead
 * gives up a window's pages it cannot allocate without an error.
 */
void bench_reads_begin(void);

/*
 * The harness's own work (the latency histogram, the pattern check,
 * progress and trace lines) goes between these. Under the virtual clock it
 * runs with the kernel's clock stopped (and interrupts off), so what the
 * harness does never moves what it measures: verify=0 and verify=1 give the
 * same times. On a real clock it costs real time, summed in harness_secs.
 */
struct bench_harness {
	struct ktime_hold hold;
	uint64_t t0;
};
void bench_harness_begin(struct bench *b, struct bench_harness *h);
void bench_harness_end(struct bench *b, struct bench_harness *h);

/*
 * Start measuring a phase reading @expect bytes (for progress lines) of @f;
 * the first phase lets the workload's threads go (bench_thread_start).
 */
void bench_phase_begin(struct bench *b, const char *test, struct file *f, uint64_t expect);
/*
 * The next phase starts from a page cache an untimed pass of the workload
 * prepared, standing for @what (a static string): its settings line and
 * RESULT say pass=@what, so a row is never read as a cold-cache figure.
 */
void bench_set_pass(struct bench *b, const char *what);
/* Extra RESULT keys for the phase (before bench_phase_end). */
void bench_result_u64(struct bench *b, const char *key, uint64_t v);
void bench_result_double(struct bench *b, const char *key, double v, int decimals);
/* End the phase: print its line and RESULT; 0, or -EIO if a read failed or was wrong. */
int bench_phase_end(struct bench *b);

/* What a phase has done so far, for workloads that print samples as they go. */
struct bench_sample {
	uint64_t ns;			   /* since the phase began */
	uint64_t bytes;			   /* read by the workload */
	uint64_t disk_reads, disk_sectors; /* the disk's read requests */
	/* the elevator's and the modelled drive's counters (since boot: take differences) */
	uint64_t dispatched, dist_sectors, buffer_hits, seeks, seek_ns;
	struct ra_stats ra;		   /* all files' readahead counters */
};
void bench_sample(struct bench *b, struct bench_sample *s);

/* A fixed-seed generator for workloads' random orders. */
/* @a[0..n) = 0..n-1, shuffled (Fisher-Yates) from @seed, or in order when @seed is 0. */
void bench_permutation(uint32_t *a, uint64_t n, uint64_t seed);

/*
 * bench thrash's pacing (bench/thrash.c): when read @n of a reader that began
 * at @t0, and began its last read at @last, may start. On its schedule, n *
 * bs / rate after t0, with @catchup (a late reader reads at once until it is
 * back on it); else bs / rate after the last read began (never faster).
 */
uint64_t thrash_read_due(uint64_t t0, uint64_t n, uint64_t last, uint64_t bs, uint64_t rate,
			 bool catchup);

/* Suites (bench/suites.c): the column a run's phases go to, and recording one. */
int bench_suite_column(void);
void bench_suite_record(const struct bench *b, int col);

/* The registered workloads. */
const struct bench_workload *bench_find(const char *name);
extern const struct bench_workload __start_bench_workloads[], __stop_bench_workloads[];

/* Run workload @w with the key=value words @argv; the framework's command. */
int bench_run_argv(const struct bench_workload *w, int argc, char **argv, const char *suite);

#endif
