/*
 * iozone's read tests (iozone -i 1 -i 2 -i 3 -i 5 -i 10 semantics), in
 * iozone's order on one file, the cache carried over from test to test as
 * it is for iozone:
 *	read	records in order from the start
 *	reread	the same again
 *	reverse	records from the last to the first (iozone -i 3, read backwards)
 *	stride	iozone's default stride of 17 records: read one, skip 16, and on
 *		reaching the end wrap around one record later, until every record
 *		is read once
 *	random	as iozone's throughput mode (iozone -t, the seeds' run) reads: as many
 *		records as the file holds, each drawn with replacement by
 *		lrand48() % records after srand48(0), so some are read twice and
 *		some never (rand=iozone, the default); rand=perm reads a
 *		permutation of all records instead, each once
 *	pread	records in order with pread(2)
 * Throughput in KB/s (1024 bytes), as iozone prints it; the file is closed
 * inside the timing, as with iozone -c.
 *
 * iozone run without -i (the seeds' `iozone -c -t1 -s 4096m -r 64k`) runs
 * its write tests too, and each read test starts from the page cache the
 * test before it left. Two read tests follow whole-file sequential writes:
 * read follows the initial write and rewrite, pread follows pwrite. The
 * initial write and pwrite each begin with creat() of the file
 * (thread_write_test() and thread_pwrite_test(), in iozone 3.262, 3.283 and
 * 3.471 alike; -+N, since 3.329, turns it off), which truncates it: every
 * cached page of the old file goes, however hot, and the writes' own pages
 * take their place. Both reads then start with the file's tail cached, the
 * rest gone. writes=pass stands for those writes: it drops the file's pages
 * as the creat() does (truncate_inode_pages()), then reads the whole file
 * in order, untimed, once for each write (twice before read, once before
 * pread). That leaves the same pages cached in the same order: a written
 * page, like a read one, enters the inactive list referenced once. What it
 * cannot leave is dirty pages still being written back as the test begins:
 * this testbed never writes. The phase's settings line and RESULT say
 * pass=creat+write+rewrite or pass=creat+pwrite, and creat_dropped_pages;
 * the passes' disk time is their own, so the test begins where the writes
 * would have left the heads (a warm disk).
 *
 * The creat() is also why the mixed workload and random write, which iozone
 * -t1 runs between random read and pwrite, do not matter to pread: what
 * they leave cached goes with the truncation.
 */
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "kernel/log.h"
#include "mm/filemap.h"
#include "mm/mm.h"
#include "mm/pagemap.h"

static const char *const tests_names[] = {"all",    "read",   "reread", "reverse",
					  "stride", "random", "pread",	NULL};
#define ALL_TESTS 0x7e /* bits T_READ..T_PREAD */
static const char *const rand_names[] = {"iozone", "perm", NULL};
static const char *const writes_names[] = {"none", "pass", NULL};
enum { WRITES_NONE, WRITES_PASS };

static const struct bench_param iozone_params[] = {
	{"path", KV_STRING, NULL, (uintptr_t) "/bench/big.pat", 0, 0, "the file to read"},
	{"s", KV_SIZE, NULL, 0, 0, 1ULL << 42, "bytes of the file to use (default: all of it)"},
	{"r", KV_SIZE, NULL, 64 << 10, 4096, 16 << 20, "record size"},
	{"i", KV_STRING, NULL, (uintptr_t) "all", 0, 0,
	 "which tests: all, or a list such as read,reverse (run in iozone's order)"},
	{"rand", KV_ENUM, rand_names, 0, 0, 0,
	 "random's records: iozone (lrand48 with replacement, as iozone) or perm (each once)"},
	{"writes", KV_ENUM, writes_names, 0, 0, 0,
	 "none, or pass: the file's cache emptied as by creat(), then an untimed sequential "
	 "read for each whole-file write iozone runs before read (initial write, rewrite) and "
	 "pread (pwrite), leaving the cache as they would"},
};

#define IOZONE_STRIDE 17

/*
 * POSIX drand48's generator (48-bit LCG: X = X * 0x5DEECE66D + 0xB mod 2^48),
 * as iozone's random read calls it: srand48(0), then lrand48() % records.
 */
static uint64_t lrand48_state;

static void srand48_iozone(long seed)
{
	lrand48_state = ((uint64_t)(uint32_t)seed << 16) | 0x330E;
}

static uint32_t lrand48_iozone(void)
{
	lrand48_state = (lrand48_state * 0x5DEECE66DULL + 0xB) & ((1ULL << 48) - 1);
	return (uint32_t)(lrand48_state >> 17);
}

enum { T_READ = 1, T_REREAD, T_REVERSE, T_STRIDE, T_RANDOM, T_PREAD };

/* The record read @k-th by test @t, of @n records; @perm for random. */
static uint64_t record_of(int t, uint64_t k, uint64_t n, const uint32_t *perm)
{
	switch (t) {
	case T_REVERSE:
		return n - 1 - k;
	case T_STRIDE: {
		/* pass p reads records p, p + 17, p + 34, ... */
		uint64_t per = n / IOZONE_STRIDE, extra = n % IOZONE_STRIDE, p = 0;

		while (k >= per + (p < extra)) {
			k -= per + (p < extra);
			p++;
		}
		return p + k * IOZONE_STRIDE;
	}
	case T_RANDOM:
		return perm[k];
	default:
		return k;
	}
}

/*
 * The untimed passes standing for iozone's whole-file writes before a read
 * test (@what): first the file's cached pages dropped, as the creat() the
 * first of those writes begins with truncates the file (*@dropped: how
 * many), then @passes sequential reads of @size bytes in @rec records,
 * unchecked, each opening the file anew as each iozone test does. Each is
 * a run on the disk of its own (blk_run_start()), so a disk made cold
 * before the workload is cold for the first, and the test after them
 * starts warm.
 */
static int write_passes(struct bench *b, const char *what, int passes, uint64_t size, uint64_t rec,
			void *buf, long *dropped)
{
	int err = 0;

	for (int p = 0; p < passes && !err; p++) {
		struct file *f = bench_open(b, bench_s(b, "path"));

		if (!f)
			return b->open_err;
		if (!p) {
			*dropped = truncate_inode_pages(f->f_mapping, FILEMAP_IO_STALL_NS);
			if (*dropped < 0) {
				pr_err("bench iozone: %s: the creat() before the passes standing for "
				       "%s could not empty the file's cache: %s\n",
				       bench_s(b, "path"), what, errname((int)*dropped));
				bench_close(b, f);
				return (int)*dropped;
			}
		}
		blk_run_start(f->f_inode->i_sb ? f->f_inode->i_sb->s_bdev : NULL);
		for (uint64_t done = 0; done < size && !err; done += rec)
			if (vfs_read(f, buf, rec) != (ssize_t)rec)
				err = -EIO;
		bench_close(b, f);
	}
	if (err)
		pr_err("bench iozone: %s: a pass standing for %s could not read it whole\n",
		       bench_s(b, "path"), what);
	else
		bench_set_pass(b, what);
	return err;
}

/* One test; *@started false if it could not begin (its file would not open). */
static int one_test(struct bench *b, int t, uint64_t size, uint64_t rec, void *buf,
		    const uint32_t *perm, bool *started)
{
	uint64_t n = size / rec;
	/* iozone -t: initial write (creat) and rewrite before read; pwrite (creat) before pread */
	const char *pass = t == T_READ ? "creat+write+rewrite" : t == T_PREAD ? "creat+pwrite" : NULL;
	long dropped = -1;
	struct file *f;
	int err = 0;

	*started = false;
	if (pass && bench_u(b, "writes") == WRITES_PASS) {
		err = write_passes(b, pass, t == T_READ ? 2 : 1, n * rec, rec, buf, &dropped);
		if (err)
			return err;
	}
	f = bench_open(b, bench_s(b, "path"));
	*started = f != NULL;
	if (!f)
		return b->open_err;
	bench_phase_begin(b, tests_names[t], f, n * rec);
	for (uint64_t k = 0; k < n && !err; k++) {
		loff_t pos = (loff_t)(record_of(t, k, n, perm) * rec);
		ssize_t got;

		if (t == T_READ || t == T_REREAD) {
			got = bench_read(b, f, buf, rec);
		} else {
			got = bench_pread(b, f, buf, rec, pos);
		}
		if (got != (ssize_t)rec)
			err = -EIO;
	}
	bench_close(b, f); /* iozone -c: close inside the timing */
	bench_result_u64(b, "record_kb", rec >> 10);
	if (t == T_RANDOM)
		bench_result_u64(b, "rand_perm", bench_u(b, "rand"));
	if (dropped >= 0)
		bench_result_u64(b, "creat_dropped_pages", (uint64_t)dropped);
	bench_result_u64(b, "file_kb", (n * rec) >> 10);
	return bench_phase_end(b) ? -EIO : err;
}

/* i=: "all" or a comma-separated list of tests; a bit per test, 0 after an error line. */
static unsigned int parse_tests(const char *list)
{
	unsigned int mask = 0;
	const char *p = list;

	if (!strcmp(list, "all"))
		return ALL_TESTS;
	while (*p) {
		size_t len = strcspn(p, ",");
		int t = 0;

		for (int i = T_READ; i <= T_PREAD; i++)
			if (len && strlen(tests_names[i]) == len &&
			    !strncmp(tests_names[i], p, len))
				t = i;
		if (!t) {
			pr_err("bench iozone: i=%s: expected all, or tests separated by commas "
			       "(read,reread,reverse,stride,random,pread)\n",
			       list);
			return 0;
		}
		mask |= 1u << t;
		p += len + (p[len] == ',');
	}
	if (!mask)
		pr_err("bench iozone: i=: which tests? (all, or read,reverse, ...)\n");
	return mask;
}

static int iozone_run(struct bench *b)
{
	uint64_t rec = bench_u(b, "r"), size = bench_u(b, "s"), n;
	unsigned int tests = parse_tests(bench_s(b, "i"));
	int err = 0;
	uint32_t *perm = NULL;
	void *buf;
	struct file *f;

	if (!tests)
		return -EINVAL;
	f = bench_open(b, bench_s(b, "path"));
	if (!f)
		return b->open_err;
	if (!size || size > (uint64_t)bench_size(f))
		size = (uint64_t)bench_size(f);
	bench_close(b, f);
	n = size / rec;
	if (!n) {
		pr_err("bench iozone: the file holds less than one %llu-byte record\n",
		       (unsigned long long)rec);
		return -EINVAL;
	}
	buf = bench_buffer(b, rec);
	if (!buf)
		return -ENOMEM;
	if (tests & (1u << T_RANDOM)) {
		perm = bench_alloc(b, n, sizeof(*perm), "the random test's order of records");
		if (!perm) {
			kfree(buf);
			return -ENOMEM;
		}
		if (bench_u(b, "rand") == 1) {
			bench_permutation(perm, n, 0x10203040506ULL);
		} else {
			srand48_iozone(0);
			for (uint64_t k = 0; k < n; k++)
				perm[k] = (uint32_t)(lrand48_iozone() % n);
		}
	}
	for (int t = T_READ; t <= T_PREAD; t++) {
		bool started;
		int e;

		if (!(tests & (1u << t)))
			continue;
		e = one_test(b, t, size, rec, buf, perm, &started);
		if (e && !err)
			err = e;
		/* a test that could not begin stops the workload there */
		if (!started)
			break;
	}
	kfree(perm);
	kfree(buf);
	return err;
}

/* A phase in a suite's table: iozone's own name for the test, KB/s. */
static void iozone_row(const struct bench *b, struct bench_row *r)
{
	static const char *const names[][2] = {
		{"read", "Read"},	   {"reread", "Re-read"},     {"reverse", "Reverse Read"},
		{"stride", "Stride read"}, {"random", "Random read"}, {"pread", "Pread"},
	};
	const char *label = b->test;

	for (unsigned int i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(names[i][0], b->test))
			label = names[i][1];
	snprintf(r->label, sizeof(r->label), "%s", label);
	r->unit = "KB/s";
	r->v = b->secs > 0 ? (double)b->bytes / 1024 / b->secs : 0;
}

BENCH_WORKLOAD_ROW(iozone, "iozone's read tests: read, reread, reverse, stride, random, pread",
		   iozone_params, iozone_run, false, iozone_row);
