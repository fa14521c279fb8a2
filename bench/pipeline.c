/*
 * The raw cost of readahead pipelining: one sequential reader that spends
 * think= nanoseconds of compute per 4 KiB page read. With the look-ahead
 * mark (on-demand, ra_async=1) the next window's I/O overlaps the reader's
 * compute; without it (ra_async=0: the same windows, each read only when
 * the reader misses its first page) the reader waits for every window.
 * Reports the reader's stall time (blocked on pages not yet read) as a
 * fraction of the run ("stall_frac").
 */
#include "bench/bench.h"
#include "mm/mm.h"
#include <stdio.h>

static const struct bench_param pipe_params[] = {
	{"path", KV_STRING, NULL, (uintptr_t) "/bench/pipe.pat", 0, 0, "the file to read"},
	{"s", KV_SIZE, NULL, 0, 0, 1ULL << 42, "bytes to read (default: the whole file)"},
	{"think", KV_TIME_NS, NULL, 0, 0, 100000000, "compute per 4 KiB page, ns"},
};

static int pipe_run(struct bench *b)
{
	uint64_t size = bench_u(b, "s"), think = bench_u(b, "think"), done = 0;
	char name[24];
	struct file *f = bench_open(b, bench_s(b, "path"));
	void *buf;
	int err = 0;

	if (!f)
		return b->open_err;
	if (!size || size > (uint64_t)bench_size(f))
		size = (uint64_t)bench_size(f);
	buf = bench_buffer(b, 4096);
	if (!buf) {
		bench_close(b, f);
		return -ENOMEM;
	}
	snprintf(name, sizeof(name), "think%llu", (unsigned long long)think);
	bench_phase_begin(b, name, f, size);
	while (done < size) {
		ssize_t n = bench_read(b, f, buf, 4096);

		if (n <= 0) {
			err = -EIO;
			break;
		}
		done += (uint64_t)n;
		bench_think(think);
	}
	bench_result_u64(b, "think_ns", think);
	if (bench_phase_end(b))
		err = -EIO;
	bench_close(b, f);
	kfree(buf);
	return err;
}

/* A phase in a suite's table: its stall fraction, and whether the look-ahead marks were on. */
static void pipe_row(const struct bench *b, struct bench_row *r)
{
	snprintf(r->label, sizeof(r->label), "pipeline %s%s", b->test,
		 b->ra_async ? "" : " no-lookahead");
	r->unit = "stall";
	r->v = b->stall_frac;
}

BENCH_WORKLOAD_ROW(pipeline, "a sequential reader computing think= ns per page: its stall fraction",
		   pipe_params, pipe_run, false, pipe_row);
