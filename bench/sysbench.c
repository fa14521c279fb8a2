/*
 * sysbench fileio rndrd/seqrd semantics: threads= threads share one open
 * file (sysbench opens its files once for all threads, so they share the
 * readahead state) and take requests= block-sized reads from a common
 * counter until all are done; rndrd reads blocks at random over the file,
 * seqrd the file in order. Reports the total time in seconds, as the
 * seeds' table prints it. Request k's offset depends only on k, so the set
 * of blocks read is the same whatever the threads' interleaving.
 */
#include <stdio.h>

#include "bench/bench.h"
#include "bench/pattern.h"
#include "kernel/log.h"
#include "kernel/sched.h"
#include "mm/kobj.h"
#include "mm/mm.h"

static const char *const mode_names[] = {"rndrd", "seqrd", NULL};

static const struct bench_param sysbench_params[] = {
	{"path", KV_STRING, NULL, (uintptr_t) "/bench/big.pat", 0, 0, "the file (4 GiB in seeds)"},
	{"mode", KV_ENUM, mode_names, 0, 0, 0, "rndrd (random) or seqrd (sequential)"},
	{"bs", KV_SIZE, NULL, 64 << 10, 4096, 16 << 20, "block size (file-block-size)"},
	{"threads", KV_UINT, NULL, 1, 1, 65536, "threads (num-threads; as many as memory holds)"},
	{"requests", KV_UINT, NULL, 10000, 1, 100000000, "reads in all (max-requests)"},
};

struct sb_shared {
	struct bench *b;
	struct file *f;
	uint64_t blocks, bs, requests, next;
	bool random;
	int err;
	char room[200]; /* what held the page cache's RAM when a read found no memory */
};

struct sb_thread {
	struct sb_shared *s;
	void *buf;
	struct thread *t;
};

static uint64_t block_of(const struct sb_shared *s, uint64_t k)
{
	if (!s->random)
		return k % s->blocks;
	return mix64(k * 0x9e3779b97f4a7c15ULL + 0x5eed) % s->blocks;
}

static int sb_fn(void *arg)
{
	struct sb_thread *t = arg;
	struct sb_shared *s = t->s;

	if (!bench_thread_start(s->b))
		return 0;
	while (s->next < s->requests && !s->err) {
		uint64_t k = s->next++;
		ssize_t n =
			bench_pread(s->b, s->f, t->buf, s->bs, (loff_t)(block_of(s, k) * s->bs));

		if (n != (ssize_t)s->bs && !s->err) {
			s->err = n < 0 ? (int)n : -EIO;
			/* the first failure: one error line, with what held the RAM then */
			if (s->err == -ENOMEM)
				kobj_room_hint(s->room, sizeof(s->room));
			pr_err("bench sysbench: a %llu-byte read of block %llu failed (%s)%s%s\n",
			       (unsigned long long)s->bs, (unsigned long long)block_of(s, k),
			       vfs_errname(s->err), s->room[0] ? ": " : "", s->room);
		}
	}
	return 0;
}

static int sysbench_run(struct bench *b)
{
	struct sb_shared s = {.b = b};
	uint64_t nthreads = bench_u(b, "threads");
	struct sb_thread *th = NULL;
	char name[24];
	int err = 0;

	s.bs = bench_u(b, "bs");
	s.requests = bench_u(b, "requests");
	s.random = bench_u(b, "mode") == 0;
	s.f = bench_open(b, bench_s(b, "path"));
	if (!s.f)
		return b->open_err;
	s.blocks = (uint64_t)bench_size(s.f) / s.bs;
	if (!s.blocks) {
		pr_err("bench sysbench: %s holds no whole %llu-byte block\n", bench_s(b, "path"),
		       (unsigned long long)s.bs);
		err = -EINVAL;
		goto out;
	}
	th = bench_zalloc(b, nthreads, sizeof(*th), "the threads' state");
	if (!th) {
		err = -ENOMEM;
		goto out;
	}
	/* every thread and its buffer before the phase: it starts with all of them or not at all */
	for (uint64_t i = 0; i < nthreads && !err; i++) {
		char what[24];

		th[i].s = &s;
		th[i].buf = bench_buffer(b, s.bs);
		snprintf(what, sizeof(what), "worker %llu", (unsigned long long)i);
		th[i].t = th[i].buf ? bench_thread_create(b, sb_fn, &th[i], what) : NULL;
		if (!th[i].t)
			err = -ENOMEM;
	}
	if (err) {
		bench_threads_cancel(b);
		goto out;
	}
	snprintf(name, sizeof(name), "%s-t%llu", mode_names[bench_u(b, "mode")],
		 (unsigned long long)nthreads);
	b->readers = (unsigned int)nthreads; /* their stall adds up (stall_frac) */
	bench_phase_begin(b, name, s.f, s.requests * s.bs);
	for (uint64_t i = 0; i < nthreads; i++) {
		thread_join(th[i].t);
		th[i].t = NULL;
	}
	err = s.err;
	bench_result_u64(b, "threads", nthreads);
	bench_result_u64(b, "requests", s.requests);
	if (bench_phase_end(b))
		err = -EIO;
out:
	for (uint64_t i = 0; th && i < nthreads; i++) {
		if (th[i].t)
			thread_join(th[i].t);
		kfree(th[i].buf);
	}
	kfree(th);
	bench_close(b, s.f);
	return err;
}

BENCH_WORKLOAD(sysbench, "sysbench fileio rndrd/seqrd: threads sharing one file, seconds",
	       sysbench_params, sysbench_run, false);
