/*
 * Interleaved sequential streams over one file: streams= readers, each
 * reading its own part of the file in order, bs= bytes at a time, either
 * in lockstep (round robin) or in a random order of streams (order=random,
 * a fixed seed), and either each through its own open (share=0: its own
 * readahead state) or all through one open file (share=1: one readahead
 * state for all, the case the seeds call "supported in a minimal way").
 * Single-threaded: the interleaving is exact and repeatable.
 */
#include <stdio.h>

#include "bench/bench.h"
#include "kernel/log.h"
#include "mm/mm.h"

static const char *const order_names[] = {"lockstep", "random", NULL};

static const struct bench_param interleave_params[] = {
	{"path", KV_STRING, NULL, (uintptr_t) "/bench/big.pat", 0, 0, "the file"},
	{"streams", KV_UINT, NULL, 8, 1, 1024, "interleaved streams"},
	{"bs", KV_SIZE, NULL, 64 << 10, 4096, 16 << 20, "bytes per read"},
	{"s", KV_SIZE, NULL, 0, 0, 1ULL << 42, "bytes of the file to use (default all)"},
	{"share", KV_BOOL, NULL, 0, 0, 1, "1: all streams through one open file"},
	{"order", KV_ENUM, order_names, 0, 0, 0, "lockstep or random"},
};

static int interleave_run(struct bench *b)
{
	uint64_t n = bench_u(b, "streams"), bs = bench_u(b, "bs"), size = bench_u(b, "s");
	bool share = bench_u(b, "share"), random = bench_u(b, "order") == 1;
	uint64_t per, left, rng = 0x1ea5e, step = 0;
	struct file **f;
	loff_t *pos;
	char name[40];
	void *buf;
	int err = 0;

	f = bench_zalloc(b, n, sizeof(*f), "the streams' files");
	pos = f ? bench_zalloc(b, n, sizeof(*pos), "the streams' positions") : NULL;
	buf = pos ? bench_buffer(b, bs) : NULL;
	if (!buf) {
		err = -ENOMEM;
		goto out;
	}
	for (uint64_t i = 0; i < n; i++) {
		f[i] = share && i ? f[0] : bench_open(b, bench_s(b, "path"));
		if (!f[i]) {
			err = b->open_err;
			goto out;
		}
	}
	if (!size || size > (uint64_t)bench_size(f[0]))
		size = (uint64_t)bench_size(f[0]);
	per = size / n / bs * bs;
	if (!per) {
		pr_err("bench interleave: the file is too small for %llu streams of %llu bytes\n",
		       (unsigned long long)n, (unsigned long long)bs);
		err = -EINVAL;
		goto out;
	}
	for (uint64_t i = 0; i < n; i++)
		pos[i] = (loff_t)(i * per);
	snprintf(name, sizeof(name), "%s-%s", order_names[random], share ? "shared" : "own");
	bench_phase_begin(b, name, share ? f[0] : NULL, per * n);
	for (left = n * (per / bs); left && !err; step++) {
		uint64_t i = random ? prandom_u64(&rng) % n : step % n;

		if (pos[i] >= (loff_t)((i + 1) * per))
			continue; /* this stream is done */
		if (bench_pread(b, f[i], buf, bs, pos[i]) != (ssize_t)bs)
			err = -EIO;
		pos[i] += (loff_t)bs;
		left--;
	}
	/* own opens: their counters add up into the phase as they close */
	for (uint64_t i = 0; i < n && !share; i++) {
		bench_close(b, f[i]);
		f[i] = NULL;
	}
	bench_result_u64(b, "streams", n);
	bench_result_u64(b, "shared", share);
	if (bench_phase_end(b))
		err = -EIO;
out:
	if (f)
		for (uint64_t i = 0; i < (share ? 1 : n); i++)
			if (f[i])
				bench_close(b, f[i]);
	kfree(f);
	kfree(pos);
	kfree(buf);
	return err;
}

BENCH_WORKLOAD(interleave, "interleaved sequential streams, each its own open or all one",
	       interleave_params, interleave_run, false);
