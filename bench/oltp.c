/*
 * A synthetic stand-in for the seeds' sysbench OLTP on MySQL, built from
 * patch 006's own analysis of that workload: MySQL "is accessing the db
 * file non-uniformly: some parts are more hot than others", "mostly doing
 * 4-page random reads, and sometimes doing two reads in a row".
 *
 * The database is the first s= bytes of the file (2 GiB), in 1 MiB
 * regions whose popularity follows a Zipf distribution (region k with
 * weight 1/k^theta, theta = 1.0, regions shuffled over the file by a fixed
 * seed). A transaction is reads= 16 KiB (4-page) reads, each in a region
 * drawn from that distribution at a random 16 KiB-aligned offset, and with
 * probability pairs= percent followed by the next 16 KiB ("two in a row").
 * threads= threads share one open file and take transactions= in all
 * from a common counter; transaction k's choices depend only on k.
 * Reports transactions per second ("tps").
 */
#include <math.h>
#include <stdio.h>

#include "bench/bench.h"
#include "bench/pattern.h"
#include "fs/vfs.h"
#include "kernel/log.h"
#include "kernel/sched.h"
#include "mm/mm.h"

#define OLTP_READ   (16 << 10)
#define OLTP_REGION (1 << 20)

static const struct bench_param oltp_params[] = {
	{"path", KV_STRING, NULL, (uintptr_t) "/bench/big.pat", 0, 0, "the database file"},
	{"s", KV_SIZE, NULL, 2ULL << 30, 16 << 20, 1ULL << 42, "database size"},
	{"threads", KV_UINT, NULL, 1, 1, 65536, "client threads (as many as memory holds)"},
	{"transactions", KV_UINT, NULL, 2000, 1, 10000000, "transactions in all"},
	{"reads", KV_UINT, NULL, 10, 1, 1000, "16 KiB reads per transaction"},
	{"pairs", KV_UINT, NULL, 20, 0, 100, "percent of reads followed by the next 16 KiB"},
};

struct oltp {
	struct bench *b;
	struct file *f;
	uint64_t regions, transactions, next, reads, pairs;
	double *cdf;	  /* Zipf over the regions, by popularity rank */
	uint32_t *region; /* rank -> region of the file */
	int err;
};

struct oltp_thread {
	struct oltp *o;
	void *buf;
	struct thread *t;
};

/* The @j-th read of transaction @k: its byte offset, and whether a neighbour follows. */
static uint64_t oltp_offset(const struct oltp *o, uint64_t k, uint64_t j, bool *pair)
{
	uint64_t h = mix64(k * 0x9e3779b97f4a7c15ULL + j * 0xd1b54a32d192ed03ULL + 1);
	double u = (double)(h >> 11) / 9007199254740992.0;
	uint64_t lo = 0, hi = o->regions - 1, h2 = mix64(h);

	while (lo < hi) { /* the first rank whose cumulative weight reaches u */
		uint64_t mid = (lo + hi) / 2;

		if (o->cdf[mid] < u)
			lo = mid + 1;
		else
			hi = mid;
	}
	*pair = h2 % 100 < o->pairs;
	/* the last 16 KiB of a region has no neighbour inside it */
	return (uint64_t)o->region[lo] * OLTP_REGION +
	       (h2 >> 8) % (OLTP_REGION / OLTP_READ - 1) * OLTP_READ;
}

static int oltp_fn(void *arg)
{
	struct oltp_thread *t = arg;
	struct oltp *o = t->o;

	if (!bench_thread_start(o->b))
		return 0;
	while (o->next < o->transactions && !o->err) {
		uint64_t k = o->next++;

		for (uint64_t j = 0; j < o->reads && !o->err; j++) {
			bool pair;
			uint64_t off = oltp_offset(o, k, j, &pair);

			if (bench_pread(o->b, o->f, t->buf, OLTP_READ, (loff_t)off) != OLTP_READ ||
			    (pair && bench_pread(o->b, o->f, t->buf, OLTP_READ,
						 (loff_t)(off + OLTP_READ)) != OLTP_READ))
				o->err = -EIO;
		}
	}
	return 0;
}

/*
 * The clients only note that a read failed (their loop's instructions are
 * its time under the virtual clock): after the phase, one error line with
 * the first failure's cause, and that errno as the command's.
 */
static __attribute__((noinline)) int oltp_failed(struct bench *b)
{
	const char *room;
	int err = bench_first_error(b, &room);

	if (!err) {
		pr_err("bench oltp: a 16 KiB read came back short\n");
		return -EIO;
	}
	if (b->errors == 1)
		pr_err("bench oltp: a read failed with %s%s%s\n", vfs_errname(err),
		       room[0] ? ": " : "", room);
	else
		pr_err("bench oltp: %d reads failed, the first with %s%s%s\n", b->errors,
		       vfs_errname(err), room[0] ? ": " : "", room);
	return err;
}

static int oltp_run(struct bench *b)
{
	struct oltp o = {.b = b};
	uint64_t nthreads = bench_u(b, "threads"), size = bench_u(b, "s");
	struct oltp_thread *th = NULL;
	double sum = 0;
	char name[24];
	int err = 0;

	o.transactions = bench_u(b, "transactions");
	o.reads = bench_u(b, "reads");
	o.pairs = bench_u(b, "pairs");
	o.f = bench_open(b, bench_s(b, "path"));
	if (!o.f)
		return b->open_err;
	if (size > (uint64_t)bench_size(o.f))
		size = (uint64_t)bench_size(o.f);
	o.regions = size / OLTP_REGION;
	if (!o.regions) {
		pr_err("bench oltp: %s holds no 1 MiB region\n", bench_s(b, "path"));
		err = -EINVAL;
		goto out;
	}
	o.cdf = bench_alloc(b, o.regions, sizeof(*o.cdf), "the regions' Zipf distribution");
	o.region =
		o.cdf ? bench_alloc(b, o.regions, sizeof(*o.region), "the regions' order") : NULL;
	th = o.region ? bench_zalloc(b, nthreads, sizeof(*th), "the threads' state") : NULL;
	if (!th) {
		err = -ENOMEM;
		goto out;
	}
	for (uint64_t r = 0; r < o.regions; r++) {
		sum += 1.0 / (double)(r + 1);
		o.cdf[r] = sum;
	}
	for (uint64_t r = 0; r < o.regions; r++)
		o.cdf[r] /= sum;
	bench_permutation(o.region, o.regions, 0xdb); /* hot regions spread over the file */
	/* every thread and its buffer before the phase: it starts with all of them or not at all */
	for (uint64_t i = 0; i < nthreads && !err; i++) {
		char what[24];

		th[i].o = &o;
		th[i].buf = bench_buffer(b, OLTP_READ);
		snprintf(what, sizeof(what), "client %llu", (unsigned long long)i);
		th[i].t = th[i].buf ? bench_thread_create(b, oltp_fn, &th[i], what) : NULL;
		if (!th[i].t)
			err = -ENOMEM;
	}
	if (err) {
		bench_threads_cancel(b);
		goto out;
	}
	snprintf(name, sizeof(name), "t%llu", (unsigned long long)nthreads);
	b->readers = (unsigned int)nthreads; /* their stall adds up (stall_frac) */
	bench_phase_begin(b, name, o.f, 0);
	for (uint64_t i = 0; i < nthreads; i++) {
		thread_join(th[i].t);
		th[i].t = NULL;
	}
	err = o.err;
	bench_result_u64(b, "threads", nthreads);
	bench_result_u64(b, "transactions", o.transactions);
	bench_result_double(b, "tps", (double)o.transactions / ((double)(ktime_ns() - b->t0) / 1e9),
			    2);
	if (bench_phase_end(b))
		err = -EIO;
	if (o.err)
		err = oltp_failed(b);
out:
	for (uint64_t i = 0; th && i < nthreads; i++) {
		if (th[i].t)
			thread_join(th[i].t);
		kfree(th[i].buf);
	}
	kfree(th);
	kfree(o.cdf);
	kfree(o.region);
	bench_close(b, o.f);
	return err;
}

BENCH_WORKLOAD(oltp, "OLTP-like: skewed 16 KiB random reads, sometimes two in a row; tps",
	       oltp_params, oltp_run, false);
