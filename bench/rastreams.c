/*
 * rastreams, a file command (bench/filecmds.h): many sequential readers of
 * one file at once, each through its own open file, served in turn; once
 * their readahead windows together exceed free memory, pages read ahead are
 * evicted before use (readahead thrashing).
 *
 *	rastreams PATH streams=N [bs=B]	N interleaved readers: readahead thrashing
 */
#include <stdio.h>

#include "bench/filecmds.h"
#include "fs/vfs.h"
#include "kernel/cmd.h"
#include "kernel/crc32.h"
#include "kernel/log.h"
#include "kernel/result.h"
#include "mm/mm.h"

#define RASTREAMS_MAX 1024

struct ra_stream {
	struct file *f;
	loff_t end;
	uint32_t crc;
};

/*
 * The seeds' thrashing benchmark in miniature: @streams readers of one file,
 * each with its own open file (and readahead state) over its own segment,
 * served round-robin @bs bytes at a time. Once their readahead windows
 * together exceed free memory, pages read ahead are evicted before use.
 * crc32 is the xor of the segments' crc32s; segment i starts at i * per,
 * per = the file size / streams rounded down to pages (the last one takes
 * the rest).
 */
static int cmd_rastreams(int argc, char **argv)
{
	static const struct kv_spec specs[] = {
		RA_KV_SPECS,
		{"streams", KV_UINT, NULL, "number of readers (1-1024)"},
		{"bs", KV_SIZE, NULL, "bytes per read (default 4K, at most 1M)"},
	};
	struct kv_value v[ARRAY_SIZE(specs)];
	const char *path = NULL;
	struct ra_stream *st = NULL;
	struct ra_stats sum = {0};
	struct ra_measure ms;
	struct result r;
	unsigned long nstreams, thrashed0, active;
	uint64_t bytes = 0, bs = 4096;
	uint32_t crc = 0;
	loff_t size, per;
	char *buf = NULL;
	int err = 0;

	if (kcmd_args(argc, argv, specs, ARRAY_SIZE(specs), v, &path))
		return -EINVAL;
	if (!v[2].present || v[2].u < 1 || v[2].u > RASTREAMS_MAX) {
		pr_err("rastreams: streams=N is required, 1 to %d\n", RASTREAMS_MAX);
		return -EINVAL;
	}
	nstreams = (unsigned long)v[2].u;
	if (v[3].present)
		bs = v[3].u;
	if (bs < 1 || bs > (1 << 20)) {
		pr_err("rastreams: bs=%s: must be 1 byte to 1 MiB\n", v[3].raw);
		return -EINVAL;
	}
	st = kcalloc(nstreams, sizeof(*st));
	buf = kmalloc((size_t)bs);
	if (!st || !buf) {
		pr_err("rastreams: out of memory for %lu streams\n", nstreams);
		err = -ENOMEM;
		goto out;
	}
	for (unsigned long i = 0; i < nstreams; i++) {
		st[i].f = open_regular("rastreams", path, v);
		if (!st[i].f) {
			err = -EINVAL;
			goto out;
		}
	}
	size = st[0].f->f_mapping->size;
	per = (size / (loff_t)nstreams) & ~(loff_t)(PAGE_SIZE - 1);
	if (per == 0) {
		pr_err("rastreams: %s: %lld bytes is too small for %lu page-aligned segments\n",
		       path, (long long)size, nstreams);
		err = -EINVAL;
		goto out;
	}
	for (unsigned long i = 0; i < nstreams; i++) {
		st[i].f->f_pos = (loff_t)i * per;
		st[i].end = i + 1 == nstreams ? size : (loff_t)(i + 1) * per;
	}
	measure_start(&ms, st[0].f);
	thrashed0 = st[0].f->f_mapping->ra_thrashed;
	do {
		active = 0;
		for (unsigned long i = 0; i < nstreams && !err; i++) {
			struct ra_stream *s = &st[i];
			size_t want;
			ssize_t n;

			if (s->f->f_pos >= s->end)
				continue;
			active++;
			want = (size_t)min_t(uint64_t, bs, (uint64_t)(s->end - s->f->f_pos));
			n = vfs_read(s->f, buf, want);
			if (n <= 0) {
				pr_err("rastreams: %s: stream %lu: read at %lld failed (%zd)\n",
				       path, i, (long long)s->f->f_pos, n);
				err = n < 0 ? (int)n : -EIO;
				break;
			}
			s->crc = crc32(s->crc, buf, (size_t)n);
			bytes += (uint64_t)n;
		}
	} while (active && !err);
	for (unsigned long i = 0; i < nstreams; i++) {
		struct ra_stats one;

		crc ^= st[i].crc;
		ra_file_stats(&st[i].f->f_ra, &one);
		one.thrashed_pages = 0; /* one mapping: counted once below */
		ra_stats_add(&sum, &one);
	}
	sum.thrashed_pages = st[0].f->f_mapping->ra_thrashed - thrashed0;
	printf("rastreams: %s: %lu streams, %llu bytes; readahead %s: %lu calls, %lu pages, "
	       "%lu used, %lu thrashed, %lu sync + %lu async I/Os\n",
	       path, nstreams, (unsigned long long)bytes, st[0].f->f_ra.algo->name,
	       ra_stats_calls(&sum), sum.pages, sum.hit_pages, sum.thrashed_pages, sum.sync_ios,
	       sum.async_ios);
	result_begin(&r, "rastreams");
	measure_result(&r, &ms, path, bytes, crc);
	result_u64(&r, "streams", nstreams);
	result_u64(&r, "bs", bs);
	ra_result_stats(&r, st[0].f->f_ra.algo, st[0].f->f_ra.ra_pages, &sum);
	if (err)
		result_i64(&r, "error", err);
	result_end(&r);
out:
	if (st)
		for (unsigned long i = 0; i < nstreams; i++)
			vfs_close(st[i].f);
	kfree(st);
	kfree(buf);
	return err;
}
KCMD(rastreams, cmd_rastreams, "rastreams PATH streams=N [bs=SIZE] [ra=A] [ra_kb=N]",
     "N interleaved sequential readers of one file (readahead thrashing under memory pressure)");
