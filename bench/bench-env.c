/*
 * What a benchmark workload uses besides its timed reads (see bench/bench.h):
 * memory and threads that say why they could not be had, in one error line
 * (tests/qemu/oom.t fails every allocation in turn), files opened with the
 * run's readahead choice (ra=, ra_kb=, ra_async=, advice=) and closed keeping
 * the phase's counters, read buffers, random orders, the page cache dropped
 * and the disks made cold, and compute on the run's clock. The reads and the
 * phases are bench/bench.c's.
 */
#include <stdarg.h>
#include <stdio.h>

#include "bench/bench.h"
#include "kernel/io.h"
#include "kernel/log.h"
#include "kernel/time.h"
#include "mm/kobj.h"
#include "mm/mm.h"

int bench_no_memory(struct bench *b, size_t bytes, const char *fmt, ...)
{
	char what[128];
	va_list ap;

	char room[200];

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	kobj_room_hint(room, sizeof(room));
	pr_err("bench %s: no memory for %s (%zu bytes): %s\n", b->w->name, what, bytes, room);
	return -ENOMEM;
}

static void *alloc_checked(struct bench *b, size_t n, size_t size, const char *what, gfp_t gfp)
{
	size_t bytes;
	void *p = NULL;

	/* a workload's memory: from the page cache's RAM (mm/kobj.c), freed by kfree() */
	if (!__builtin_mul_overflow(n, size, &bytes))
		p = kvmalloc(bytes, gfp | __GFP_WORKLOAD);
	else
		bytes = SIZE_MAX;
	if (!p)
		bench_no_memory(b, bytes, "%s", what);
	return p;
}

void *bench_alloc(struct bench *b, size_t n, size_t size, const char *what)
{
	return alloc_checked(b, n, size, what, GFP_KERNEL);
}

void *bench_zalloc(struct bench *b, size_t n, size_t size, const char *what)
{
	return alloc_checked(b, n, size, what, GFP_KERNEL | __GFP_ZERO);
}

int bench_error(struct bench *b, const char *path, const char *doing, int err)
{
	char room[200];

	if (err == -ENOMEM) {
		kobj_room_hint(room, sizeof(room));
		pr_err("bench %s: %s: no memory to %s it (a %zu-byte allocation failed): %s\n",
		       b->w->name, path, doing, mm_last_failure(), room);
	} else {
		pr_err("bench %s: %s: cannot %s it (%s)\n", b->w->name, path, doing,
		       vfs_errname(err));
	}
	return err;
}

struct thread *bench_thread_create(struct bench *b, int (*fn)(void *), void *arg, const char *what)
{
	struct thread *t = thread_create(b->w->name, fn, arg);
	char room[200];

	if (!t) {
		kobj_room_hint(room, sizeof(room));
		pr_err("bench %s: no memory for %s's thread (a %lu-byte stack): %s\n", b->w->name,
		       what, (unsigned long)THREAD_STACK_SIZE, room);
	}
	return t;
}

bool bench_thread_start(struct bench *b)
{
	wait_event(b->gate, b->gate_state != 0);
	return b->gate_state > 0;
}

void bench_threads_cancel(struct bench *b)
{
	b->gate_state = -1;
	wake_up_all(&b->gate);
}

struct file *bench_open(struct bench *b, const char *path)
{
	int err;
	struct file *f = vfs_open(path, &err);

	if (!f) {
		b->open_err = bench_error(b, path, "open", err);
		return NULL;
	}
	if (vfs_mode_ftype(f->f_inode->i_mode) != VFS_FT_REG) {
		pr_err("bench %s: %s: not a regular file\n", b->w->name, path);
		vfs_close(f);
		b->open_err = -EINVAL;
		return NULL;
	}
	file_ra_set_algo(&f->f_ra, b->ra);
	if (b->ra_pages_given)
		file_ra_set_max_pages(&f->f_ra, b->ra_pages);
	f->f_ra.no_lookahead = !b->ra_async;
	if (b->advice != FADV_NORMAL && file_ra_fadvise(f, 0, 0, b->advice) < 0) {
		pr_err("bench %s: %s: fadvise %s failed\n", b->w->name, path,
		       ra_fadvise_names[b->advice]);
		vfs_close(f);
		return NULL;
	}
	return f;
}

void bench_close(struct bench *b, struct file *f)
{
	if (b->ra_collect) {
		struct ra_stats st;

		ra_file_stats(&f->f_ra, &st);
		ra_stats_add(&b->ra_end, &st);
		b->ra_pages_end = f->f_ra.ra_pages;
	} else if (b->file == f) {
		ra_file_stats(&f->f_ra, &b->ra_end);
		b->ra_pages_end = f->f_ra.ra_pages;
		b->ra_end_valid = true;
		b->file = NULL;
	}
	if (b->check_file == f)
		b->check_file = NULL;
	vfs_close(f);
}

loff_t bench_size(struct file *f)
{
	return f->f_inode->i_size;
}

void *bench_buffer(struct bench *b, size_t len)
{
	return bench_alloc(b, 1, len, "a read buffer");
}

void bench_permutation(uint32_t *a, uint64_t n, uint64_t seed)
{
	for (uint64_t i = 0; i < n; i++)
		a[i] = (uint32_t)i;
	for (uint64_t i = n - 1; seed && i > 0 && i < n; i--) {
		uint64_t j = prandom_u64(&seed) % (i + 1);
		uint32_t t = a[i];

		a[i] = a[j];
		a[j] = t;
	}
}

void bench_drop_caches(void)
{
	drop_pagecache();
}

int bench_cold_start(void)
{
	/* the reads in flight first: their pages are locked, and the drop would pass them by */
	int err = blk_wait_idle_all();

	drop_pagecache();
	return err ? err : blk_make_cold_all(NULL);
}

void bench_exact_cpu(bool on)
{
	ra_decision_timing = !on;
}

void bench_think(uint64_t ns)
{
	uint64_t end = ktime_ns() + ns;

	/* plain instructions between clock reads: cheap under QEMU -icount */
	while (ktime_ns() < end)
		cpu_spin(256);
}
