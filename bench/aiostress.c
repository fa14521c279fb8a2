/*
 * aio-stress -s SIZE -r 128 -o 1|3 semantics: 128 KiB records over the
 * file, in order (-o 1, sequential read) or in a random order (-o 3, random
 * read), reported as the time the whole file took, as the seeds' table
 * prints it. Buffered: 2.6.20's buffered AIO reads complete inside
 * io_submit, so one record is in flight at a time, which is what a
 * synchronous pread loop does.
 */
#include "bench/bench.h"
#include "kernel/log.h"
#include "mm/mm.h"
#include <stdio.h>

static const char *const op_names[] = {"", "seq", "", "rand", NULL};

static const struct bench_param aio_params[] = {
	{"path", KV_STRING, NULL, (uintptr_t) "/bench/big.pat", 0, 0, "the file to read"},
	{"s", KV_SIZE, NULL, 0, 0, 1ULL << 42, "bytes of the file to use (default: all of it)"},
	{"r", KV_SIZE, NULL, 128 << 10, 4096, 16 << 20, "record size (aio-stress -r)"},
	{"o", KV_UINT, NULL, 1, 1, 3, "1: sequential read, 3: random read (aio-stress -o)"},
};

static int aio_run(struct bench *b)
{
	uint64_t rec = bench_u(b, "r"), size = bench_u(b, "s"), op = bench_u(b, "o"), n;
	uint32_t *order;
	struct file *f;
	void *buf;
	int err = 0;

	if (op != 1 && op != 3) {
		pr_err("bench aiostress: o=%llu: 1 (sequential read) or 3 (random read)\n",
		       (unsigned long long)op);
		return -EINVAL;
	}
	f = bench_open(b, bench_s(b, "path"));
	if (!f)
		return b->open_err;
	if (!size || size > (uint64_t)bench_size(f))
		size = (uint64_t)bench_size(f);
	n = size / rec;
	if (!n) {
		pr_err("bench aiostress: %s holds less than one %llu-byte record\n",
		       bench_s(b, "path"), (unsigned long long)rec);
		bench_close(b, f);
		return -EINVAL;
	}
	buf = bench_buffer(b, rec);
	order = buf ? bench_alloc(b, n, sizeof(*order), "the order of records") : NULL;
	if (!order) {
		kfree(buf);
		bench_close(b, f);
		return -ENOMEM;
	}
	bench_permutation(order, n, op == 3 ? 0x5eed0003ULL : 0);
	bench_phase_begin(b, op_names[op], f, n * rec);
	for (uint64_t k = 0; k < n && !err; k++)
		if (bench_pread(b, f, buf, rec, (loff_t)(order[k] * rec)) != (ssize_t)rec)
			err = -EIO;
	bench_close(b, f);
	bench_result_u64(b, "record_kb", rec >> 10);
	if (bench_phase_end(b))
		err = -EIO;
	kfree(order);
	kfree(buf);
	return err;
}

BENCH_WORKLOAD(aiostress, "aio-stress -o1/-o3: 128 KiB records in order or at random; seconds",
	       aio_params, aio_run, false);
