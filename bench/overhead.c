/*
 * The CPU cost of readahead itself: the seeds' OVERHEADS measurements
 * (patch 006). Each test reads without waiting for the disk, so its time
 * is the read path's and readahead's own, exact and repeatable under QEMU's
 * instruction-count clock:
 *	seq1-sparse	1-page sequential reads of a sparse file (holes: no I/O)
 *	seq1-hot	1-page sequential reads of a cache-hot file
 *	seq256-hot	256-page sequential reads of the same cache-hot file
 *	tree-hot	reading every file of a cache-hot tree (the seeds' `tar /lib`)
 *	rand1-sparse	1-page random reads of a sparse file
 * Hot tests read their files once, unmeasured, first; the sparse file's
 * tests start with the cache dropped. Reports the time and the readahead
 * calls; the seeds' "+0.3% ... -1%" compare these times between algorithms.
 * (T - T_off) / calls is not the cost of a decision: readahead changes
 * what the read path does (a window of pages in one call instead of a
 * call per page), so it can be negative. The time inside the calls comes
 * from a pass of its own with the calls timed (one()): ra_call_ns, what
 * a call slept inside (a synchronous read of ext2's) apart: ra_call_wait_ns.
 */
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "kernel/log.h"
#include "mm/mm.h"

static const char *const overhead_tests[] = {"all",	 "seq1-sparse",	 "seq1-hot", "seq256-hot",
					     "tree-hot", "rand1-sparse", NULL};

static const struct bench_param overhead_params[] = {
	{"sparse", KV_STRING, NULL, (uintptr_t) "/bench/sparse.zero", 0, 0, "a sparse file"},
	{"hot", KV_STRING, NULL, (uintptr_t) "/bench/hot.pat", 0, 0, "a file that fits in RAM"},
	{"tree", KV_STRING, NULL, (uintptr_t) "/bench/tree", 0, 0, "a tree of small files"},
	{"s", KV_SIZE, NULL, 0, 0, 1ULL << 42, "bytes of the sparse file to read (default all)"},
	{"t", KV_ENUM, overhead_tests, 0, 0, 0, "which test (default all)"},
};

enum { SEQ1_SPARSE = 1, SEQ1_HOT, SEQ256_HOT, TREE_HOT, RAND1_SPARSE };

/* Read @f from the start in @chunk-byte reads; false on a read error. */
static bool read_all(struct bench *b, struct file *f, void *buf, size_t chunk, uint64_t limit)
{
	uint64_t done = 0;
	ssize_t n;

	while (done < limit && (n = bench_read(b, f, buf, chunk)) > 0)
		done += (uint64_t)n;
	return done >= limit || n == 0;
}

struct walk {
	struct bench *b;
	void *buf;
	char path[VFS_PATH_MAX];
	size_t len;
	int files, errors, depth;
	int err; /* the first error's errno */
};

static void walk_error(struct walk *w, int err)
{
	w->errors++;
	if (!w->err)
		w->err = err;
}

static void walk_dir(struct walk *w);

static int walk_entry(void *ctx, const char *name, unsigned int namelen, uint32_t ino,
		      unsigned int ftype)
{
	struct walk *w = ctx;
	size_t old = w->len;

	(void)ino;
	if ((namelen == 1 && name[0] == '.') || (namelen == 2 && !memcmp(name, "..", 2)))
		return 0;
	if (ftype != VFS_FT_REG && ftype != VFS_FT_DIR)
		return 0;
	if (w->len + namelen + 2 >= sizeof(w->path)) {
		pr_err("bench overhead: %s/%.*s: a path longer than %zu bytes\n", w->path,
		       (int)namelen, name, sizeof(w->path) - 1);
		walk_error(w, -ENAMETOOLONG);
		return 0;
	}
	w->path[w->len++] = '/';
	memcpy(w->path + w->len, name, namelen);
	w->len += namelen;
	w->path[w->len] = 0;
	if (ftype == VFS_FT_DIR) {
		if (w->depth < 32) {
			w->depth++;
			walk_dir(w);
			w->depth--;
		}
	} else {
		struct file *f = bench_open(w->b, w->path);

		if (!f) {
			walk_error(w, w->b->open_err);
		} else {
			/* a failed read was reported by the read path */
			if (!read_all(w->b, f, w->buf, 64 << 10, UINT64_MAX))
				walk_error(w, -EIO);
			w->files++;
			bench_close(w->b, f);
		}
	}
	w->len = old;
	w->path[old] = 0;
	return 0;
}

static void walk_dir(struct walk *w)
{
	int err;
	struct file *d = vfs_open(w->path, &err);

	if (!d) {
		walk_error(w, bench_error(w->b, w->path, "open", err));
		return;
	}
	err = vfs_readdir(d, walk_entry, w);
	if (err < 0)
		walk_error(w, bench_error(w->b, w->path, "list", err));
	vfs_close(d);
}

/* The timed pass's readahead calls and the time inside them. */
struct pass_calls {
	uint64_t calls, ns, wait_ns; /* the calls' own time; what they slept inside */
};

static void report_calls(struct bench *b, const struct pass_calls *pc)
{
	if (!pc)
		return;
	bench_result_u64(b, "ra_timed_calls", pc->calls);
	bench_result_double(b, "ra_call_ns", pc->calls ? (double)pc->ns / (double)pc->calls : 0,
			    1);
	bench_result_double(b, "ra_call_wait_ns",
			    pc->calls ? (double)pc->wait_ns / (double)pc->calls : 0, 1);
}

/* A pass over the tree: measured (a phase of its own), or not (warming, or timing the calls). */
static int tree(struct bench *b, void *buf, bool measured, const struct pass_calls *pc)
{
	struct walk *w = bench_zalloc(b, 1, sizeof(*w), "walking the tree");
	int err;

	if (!w)
		return -ENOMEM;
	w->b = b;
	w->buf = buf;
	w->len = strlen(bench_s(b, "tree"));
	if (w->len >= sizeof(w->path)) {
		kfree(w);
		return -EINVAL;
	}
	memcpy(w->path, bench_s(b, "tree"), w->len + 1);
	if (measured)
		bench_phase_begin(b, "tree-hot", NULL, 0);
	walk_dir(w);
	if (measured) {
		bench_result_u64(b, "files", (uint64_t)w->files);
		report_calls(b, pc);
	}
	err = w->err;
	if (w->errors)
		printf("bench overhead: %s: %d files or directories could not be read\n",
		       bench_s(b, "tree"), w->errors);
	if (measured && bench_phase_end(b))
		err = -EIO;
	kfree(w);
	return err;
}

/*
 * One pass of test @t: measured (a phase, its RESULT line carrying @pc's
 * figures), or not (the timed pass). Each pass sets up its own start: the
 * sparse file's tests start cold, every page a miss, as in the seeds; the
 * hot tests read their file once, unmeasured, first; the tree is walked
 * once first.
 */
static int pass(struct bench *b, int t, void *buf, bool measured, const struct pass_calls *pc)
{
	const char *path =
		t == SEQ1_HOT || t == SEQ256_HOT ? bench_s(b, "hot") : bench_s(b, "sparse");
	uint64_t size = bench_u(b, "s"), rng = 0x0fe7ULL;
	struct file *f;
	int err = 0;

	if (t == TREE_HOT) {
		int e = tree(b, buf, false, NULL); /* warm the cache */

		if (!measured) { /* the timed pass counts from here */
			memset(&b->ra_end, 0, sizeof(b->ra_end));
			bench_reads_begin();
		}
		return e ? e : tree(b, buf, measured, pc);
	}
	if (t == SEQ1_SPARSE || t == RAND1_SPARSE)
		bench_drop_caches();
	f = bench_open(b, path);
	if (!f)
		return b->open_err;
	if (!size || size > (uint64_t)bench_size(f) || t == SEQ1_HOT || t == SEQ256_HOT)
		size = (uint64_t)bench_size(f);
	if (t == SEQ1_HOT || t == SEQ256_HOT) {
		/* warm: read it once, unmeasured, then from the start again */
		struct file *w = bench_open(b, path);

		/* a failed read was reported by the read path; the test does not begin */
		err = !w ? b->open_err : !read_all(b, w, buf, 1 << 20, size) ? -EIO : 0;
		if (w)
			bench_close(b, w);
		if (err) {
			bench_close(b, f);
			return err;
		}
	}
	if (measured) {
		bench_phase_begin(b, overhead_tests[t], f, 0);
		report_calls(b, pc);
	} else {
		memset(&b->ra_end, 0, sizeof(b->ra_end)); /* the timed pass counts from here */
		bench_reads_begin();
	}
	if (t == RAND1_SPARSE) {
		uint64_t pages = size / 4096;

		for (uint64_t k = 0; k < pages && !err; k++)
			if (bench_pread(b, f, buf, 4096,
					(loff_t)(prandom_u64(&rng) % pages) * 4096) != 4096)
				err = -EIO;
	} else {
		if (!read_all(b, f, buf, t == SEQ256_HOT ? 256 * 4096 : 4096, size))
			err = -EIO;
	}
	if (measured && bench_phase_end(b))
		err = -EIO;
	bench_close(b, f);
	return err;
}

/*
 * The test twice: first with every readahead call timed (the time inside
 * them, decision and submission, per call: ra_call_ns), then measured with
 * the calls untimed (bench_exact_cpu()), so that its time is the read
 * path's alone: timing a call costs two clock reads, in every algorithm's
 * T but ra=off's fewer calls. Both passes start alike, so the calls are
 * the same ones (ra_timed_calls says how many the first made).
 */
static int one(struct bench *b, int t, void *buf)
{
	struct pass_calls pc = {0};
	int err;

	bench_exact_cpu(false);
	b->ra_collect = true; /* every file's readahead counters, as each closes */
	err = pass(b, t, buf, false, NULL);
	b->ra_collect = false;
	pc.calls = ra_stats_calls(&b->ra_end);
	pc.ns = b->ra_end.decide_ns;
	pc.wait_ns = b->ra_end.decide_wait_ns;
	bench_exact_cpu(true);
	return err ? err : pass(b, t, buf, true, &pc);
}

static int overhead_run(struct bench *b)
{
	int only = (int)bench_u(b, "t"), err = 0;
	void *buf = bench_buffer(b, 1 << 20);

	if (!buf)
		return -ENOMEM;
	for (int t = SEQ1_SPARSE; t <= RAND1_SPARSE; t++) {
		unsigned int phases = b->phases;
		int e;

		if (only && t != only)
			continue;
		e = one(b, t, buf);
		if (e && !err)
			err = e;
		/* a test that could not begin stops the workload there */
		if (e && b->phases == phases)
			break;
	}
	bench_exact_cpu(false);
	kfree(buf);
	return err;
}

BENCH_WORKLOAD(overhead, "the CPU cost of readahead: the seeds' OVERHEADS measurements",
	       overhead_params, overhead_run, false);
