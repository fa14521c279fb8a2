/*
 * Readahead at boot and in the shell (kernel only):
 *
 *	ra=ondemand|legacy|off	the algorithm of every file opened (default ondemand)
 *	ra_kb=N			the default maximum window (default 128 KiB)
 *
 *	ratrace [last=N] [clear=1]	the trace ring buffer, a "ratrace:" line each
 *	rastat [reset=1]		global readahead counters
 *	mmapcat PATH [advice=normal|sequential|random]	read a file through page faults
 *	splicecat PATH			read a file the splice way, 16 pages by reference
 *	walk PATH [quiet=1]		ls -R: the readdir path's readahead on the disk
 *	rastreams PATH streams=N [bs=B]	N interleaved readers: readahead thrashing
 *	readahead PATH [offset=B] [len=B]	readahead(2): force_page_cache_readahead
 *
 * The file commands take ra= and ra_kb= for the file (RA_KV_SPECS), and
 * print the keys cat prints (path, bytes, secs, mbps, crc32, disk_reads,
 * avg_req_kb) and the readahead counters of ra_result_keys().
 */
#include <string.h>

#include "drivers/blkdev.h"
#include "kernel/cmd.h"
#include "kernel/crc32.h"
#include "kernel/init.h"
#include "kernel/log.h"
#include "kernel/param.h"
#include "kernel/result.h"
#include "kernel/time.h"
#include "mm/filemap.h"
#include "mm/mm.h"

KPARAM(ra, KV_ENUM, ra_algo_names, "readahead algorithm: ondemand (default), legacy or off");
KPARAM(ra_kb, KV_UINT, NULL, "default maximum readahead window in KiB (default 128)");

/* kernel/main.c: a failed boot-time set-up that must fail the whole run */

static int ra_boot_init(void)
{
	enum ra_algo algo = RA_ONDEMAND;
	unsigned long pages = MAX_RA_PAGES;
	uint64_t kb;
	int idx = param_get_enum("ra");

	if (idx >= 0)
		algo = (enum ra_algo)idx;
	if (param_get_u64("ra_kb", &kb) == 0) {
		if (kb > RA_MAX_KB || kb % (PAGE_SIZE / 1024)) {
			init_fail("readahead: ra_kb= must be a multiple of 4 up to 16384 (KiB)");
			return -EINVAL;
		}
		if (algo == RA_OFF && kb) {
			init_fail("readahead: ra_kb= contradicts ra=off (no readahead)");
			return -EINVAL;
		}
		pages = (unsigned long)(kb * 1024 / PAGE_SIZE);
	}
	readahead_init(algo, pages);
	pr_info("readahead: %s, max %lu KiB\n", ra_algo_name(algo), pages * PAGE_SIZE / 1024);
	return 0;
}
INITCALL(INIT_MM, ra_boot_init);

/* --- ratrace, rastat ---------------------------------------------------------------- */

static void result_cases(struct result *r, const struct ra_stats *st)
{
	char buf[640];
	size_t len = 0;

	len += (size_t)snprintf(buf + len, sizeof(buf) - len, "{");
	for (int c = 0; c < RA_NR_CASES && len < sizeof(buf); c++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s\"%s\":%lu",
					c ? "," : "", ra_case_name((enum ra_case)c), st->calls[c]);
	if (len < sizeof(buf))
		snprintf(buf + len, sizeof(buf) - len, "}");
	result_raw(r, "cases", buf);
}

static int cmd_ratrace(int argc, char **argv)
{
	static const struct kv_spec specs[] = {
		{ "last", KV_UINT, NULL, "print only the last N events" },
		{ "clear", KV_BOOL, NULL, "forget the events after printing them" },
	};
	struct kv_value v[ARRAY_SIZE(specs)];
	unsigned int held = ra_trace_count(), from = 0, n;
	uint64_t total = ra_trace_total();
	struct result r;

	if (kcmd_args(argc, argv, specs, ARRAY_SIZE(specs), v, NULL))
		return -EINVAL;
	if (v[0].present && v[0].u < held)
		from = held - (unsigned int)v[0].u;
	for (n = from; n < held; n++)
		ra_trace_print(ra_trace_get(n));
	result_begin(&r, "ratrace");
	result_u64(&r, "events", total);
	result_u64(&r, "held", held);
	result_u64(&r, "printed", held - from);
	result_u64(&r, "overwritten", total - held);
	result_cases(&r, &ra_global_stats);
	result_end(&r);
	if (v[1].present && v[1].u)
		ra_trace_reset();
	return 0;
}
KCMD(ratrace, cmd_ratrace, "ratrace [last=N] [clear=1]",
     "print the readahead decisions recorded since boot or the last clear");

static int cmd_rastat(int argc, char **argv)
{
	static const struct kv_spec specs[] = {
		{ "reset", KV_BOOL, NULL, "zero the counters (and the trace) afterwards" },
	};
	struct kv_value v[ARRAY_SIZE(specs)];
	const struct ra_stats *st = &ra_global_stats;
	struct mm_stats ms;
	struct result r;

	if (kcmd_args(argc, argv, specs, ARRAY_SIZE(specs), v, NULL))
		return -EINVAL;
	mm_get_stats(&ms);
	printf("rastat: default %s, max %lu KiB\n", ra_algo_name(ra_default_algo),
	       ra_default_pages * PAGE_SIZE / 1024);
	for (int c = 0; c < RA_NR_CASES; c++)
		if (st->calls[c])
			printf("rastat: %-20s %lu calls\n", ra_case_name((enum ra_case)c),
			       st->calls[c]);
	printf("rastat: %lu calls, %lu pages read ahead, %lu used, %lu thrashed, "
	       "%lu sync and %lu async I/Os\n", ra_stats_calls(st), st->pages, st->hit_pages,
	       st->thrashed_pages, st->sync_ios, st->async_ios);
	result_begin(&r, "rastat");
	ra_result_stats(&r, ra_default_algo, ra_default_pages, st);
	result_u64(&r, "mm_thrashed", ms.thrashed);
	result_cases(&r, st);
	result_end(&r);
	if (v[0].present && v[0].u)
		ra_trace_reset();
	return 0;
}
KCMD(rastat, cmd_rastat, "rastat [reset=1]", "global readahead counters");

/* --- the file commands ---------------------------------------------------------------- */

/* Disk counters and time around one command. */
struct ra_measure {
	struct block_device *bdev;
	struct disk_stats before;
	uint64_t t0;
};

static void measure_start(struct ra_measure *m, struct file *f)
{
	struct super_block *sb = f->f_inode->i_sb;

	m->bdev = sb ? sb->s_bdev : NULL;
	if (m->bdev)
		m->before = m->bdev->stats;
	m->t0 = ktime_ns();
}

static void measure_result(struct result *r, const struct ra_measure *m, const char *path,
			   uint64_t bytes, uint32_t crc)
{
	uint64_t ns = max_t(uint64_t, ktime_ns() - m->t0, 1);
	uint64_t reads = 0, sectors = 0;
	double secs = (double)ns / 1e9;
	char crcs[12];

	if (m->bdev) {
		reads = m->bdev->stats.ios[0] - m->before.ios[0];
		sectors = m->bdev->stats.sectors[0] - m->before.sectors[0];
	}
	snprintf(crcs, sizeof(crcs), "%08x", crc);
	result_str(r, "path", path);
	result_u64(r, "bytes", bytes);
	result_double(r, "secs", secs, 6);
	result_double(r, "mbps", (double)bytes / 1e6 / secs, 2);
	result_str(r, "crc32", crcs);
	result_u64(r, "disk_reads", reads);
	result_double(r, "avg_req_kb", reads ? (double)sectors / 2.0 / (double)reads : 0.0, 1);
	result_timing(r, m->bdev);
}

/* Open @path as a regular file and apply ra=/ra_kb= from @v (RA_KV_SPECS at @v[0..1]). */
static struct file *open_regular(const char *cmd, const char *path, const struct kv_value *v)
{
	struct file *f;
	int err;

	if (!path) {
		pr_err("%s: which file? (a path argument)\n", cmd);
		return NULL;
	}
	f = vfs_open(path, &err);
	if (!f) {
		pr_err("%s: %s: cannot open (%d)\n", cmd, path, err);
		return NULL;
	}
	if (vfs_mode_ftype(f->f_inode->i_mode) != VFS_FT_REG) {
		pr_err("%s: %s: not a regular file\n", cmd, path);
		vfs_close(f);
		return NULL;
	}
	if (ra_apply_args(cmd, f, &v[0], &v[1])) {
		vfs_close(f);
		return NULL;
	}
	return f;
}

static void print_summary(const char *cmd, struct file *f, uint64_t bytes, uint32_t crc)
{
	struct ra_stats st;

	ra_file_stats(&f->f_ra, &st);
	printf("%s: %s: %llu bytes, crc32 %08x; readahead %s: %lu calls, %lu pages, %lu used, "
	       "%lu thrashed, %lu sync + %lu async I/Os\n", cmd, f->f_path,
	       (unsigned long long)bytes, crc, ra_algo_name(f->f_ra.algo), ra_stats_calls(&st),
	       st.pages, st.hit_pages, st.thrashed_pages, st.sync_ios, st.async_ios);
}

static int cmd_mmapcat(int argc, char **argv)
{
	static const struct kv_spec specs[] = {
		RA_KV_SPECS,
		{ "advice", KV_ENUM, filemap_advice_names, "madvise hint for the mapping" },
	};
	struct kv_value v[ARRAY_SIZE(specs)];
	enum filemap_advice adv = FAULT_ADV_NORMAL;
	const char *path = NULL;
	struct ra_measure ms;
	struct file_mmap m;
	struct result r;
	uint64_t off;
	uint32_t crc = 0;
	struct file *f;
	int err;

	if (kcmd_args(argc, argv, specs, ARRAY_SIZE(specs), v, &path))
		return -EINVAL;
	if (v[2].present)
		adv = (enum filemap_advice)v[2].u;
	f = open_regular("mmapcat", path, v);
	if (!f)
		return -EINVAL;
	measure_start(&ms, f);
	err = filemap_mmap(f, adv, &m);
	if (err) {
		pr_err("mmapcat: %s: cannot map (%d)\n", path, err);
		vfs_close(f);
		return err;
	}
	/* Each first touch of a page below is a page fault served by filemap_fault(). */
	for (off = 0; off < (uint64_t)m.size && !m.error; off += 64 * 1024) {
		size_t n = (size_t)min_t(uint64_t, 64 * 1024, (uint64_t)m.size - off);

		crc = crc32(crc, (const void *)(m.va + off), n);
	}
	err = m.error;
	if (err)
		pr_err("mmapcat: %s: the fault at page %lu (offset %llu) failed (%d)\n", path,
		       m.error_index, (unsigned long long)m.error_index << PAGE_SHIFT, err);
	else
		print_summary("mmapcat", f, (uint64_t)m.size, crc);
	result_begin(&r, "mmapcat");
	measure_result(&r, &ms, path, err ? 0 : (uint64_t)m.size, crc);
	result_str(&r, "advice", filemap_advice_names[adv]);
	result_u64(&r, "faults", m.faults);
	result_u64(&r, "mmap_hit", f->f_ra.mmap_hit);
	result_u64(&r, "mmap_miss", f->f_ra.mmap_miss);
	ra_result_keys(&r, f);
	if (err)
		result_i64(&r, "error", err);
	result_end(&r);
	filemap_munmap(&m);
	vfs_close(f);
	return err;
}
KCMD(mmapcat, cmd_mmapcat, "mmapcat PATH [advice=normal|sequential|random] [ra=A] [ra_kb=N]",
     "read a file through a mapping and page faults (filemap_fault): MB/s, crc32, readahead");

/* Bounded retries of a splice whose first page left the cache while it waited. */
#define SPLICE_MAX_RETRIES	8

static int cmd_splicecat(int argc, char **argv)
{
	static const struct kv_spec specs[] = { RA_KV_SPECS };
	struct kv_value v[ARRAY_SIZE(specs)];
	const char *path = NULL;
	struct ra_measure ms;
	struct result r;
	uint64_t bytes = 0;
	uint32_t crc = 0;
	loff_t pos = 0;
	int err = 0, retries = 0;
	unsigned long calls = 0;
	struct file *f;

	if (kcmd_args(argc, argv, specs, ARRAY_SIZE(specs), v, &path))
		return -EINVAL;
	f = open_regular("splicecat", path, v);
	if (!f)
		return -EINVAL;
	measure_start(&ms, f);
	for (;;) {
		struct splice_pipe_desc spd;
		ssize_t n = generic_file_splice_read(f, &pos, PIPE_BUFFERS * PAGE_SIZE, &spd);

		if (n == -EAGAIN && ++retries <= SPLICE_MAX_RETRIES)
			continue;
		if (n <= 0) {
			err = (int)n;
			break;
		}
		calls++;
		/* The consumer side of the pipe: confirm each buffer, then use it. */
		for (unsigned int i = 0; i < spd.nr_pages && !err; i++) {
			err = splice_page_confirm(f, &spd, i);
			if (!err)
				crc = crc32(crc, (const char *)page_address(spd.pages[i]) +
						 spd.partial[i].offset, spd.partial[i].len);
			if (!err)
				bytes += spd.partial[i].len;
		}
		splice_release(&spd);
		if (err)
			break;
	}
	if (err)
		pr_err("splicecat: %s: failed at byte %llu (%d)\n", path,
		       (unsigned long long)bytes, err);
	else
		print_summary("splicecat", f, bytes, crc);
	result_begin(&r, "splicecat");
	measure_result(&r, &ms, path, bytes, crc);
	result_u64(&r, "splice_calls", calls);
	ra_result_keys(&r, f);
	if (err)
		result_i64(&r, "error", err);
	result_end(&r);
	vfs_close(f);
	return err;
}
KCMD(splicecat, cmd_splicecat, "splicecat PATH [ra=A] [ra_kb=N]",
     "read a file the splice way, PIPE_BUFFERS pages by reference: MB/s, crc32, readahead");

static int cmd_readahead(int argc, char **argv)
{
	static const struct kv_spec specs[] = {
		RA_KV_SPECS,
		{ "offset", KV_SIZE, NULL, "first byte (default 0)" },
		{ "len", KV_SIZE, NULL, "bytes (default: to the end of the file)" },
	};
	struct kv_value v[ARRAY_SIZE(specs)];
	const char *path = NULL;
	struct ra_measure ms;
	struct result r;
	uint64_t off = 0, len;
	struct file *f;
	loff_t size;
	int n;

	if (kcmd_args(argc, argv, specs, ARRAY_SIZE(specs), v, &path))
		return -EINVAL;
	f = open_regular("readahead", path, v);
	if (!f)
		return -EINVAL;
	size = f->f_mapping->size;
	if (v[2].present)
		off = v[2].u;
	len = v[3].present ? v[3].u : (off < (uint64_t)size ? (uint64_t)size - off : 0);
	if (off >= (uint64_t)size || len == 0) {
		pr_err("readahead: %s: offset=%llu len=%llu is outside the %lld-byte file\n", path,
		       (unsigned long long)off, (unsigned long long)len, (long long)size);
		vfs_close(f);
		return -EINVAL;
	}
	measure_start(&ms, f);
	n = force_page_cache_readahead(f->f_mapping, f, (pgoff_t)(off >> PAGE_SHIFT),
				       (unsigned long)(DIV_ROUND_UP(off + len, PAGE_SIZE) -
						       (off >> PAGE_SHIFT)));
	if (n < 0)
		pr_err("readahead: %s: %d\n", path, n);
	result_begin(&r, "readahead");
	measure_result(&r, &ms, path, 0, 0);
	result_u64(&r, "pages_submitted", n > 0 ? (uint64_t)n : 0);
	ra_result_keys(&r, f);
	result_end(&r);
	vfs_close(f);
	return n < 0 ? n : 0;
}
KCMD(readahead, cmd_readahead, "readahead PATH [offset=B] [len=B]",
     "readahead(2): start reading a range of a file into the page cache, no waiting");

/* --- rastreams: many sequential readers at once ----------------------------------------- */

#define RASTREAMS_MAX	1024

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
		{ "streams", KV_UINT, NULL, "number of readers (1-1024)" },
		{ "bs", KV_SIZE, NULL, "bytes per read (default 4K, at most 1M)" },
	};
	struct kv_value v[ARRAY_SIZE(specs)];
	const char *path = NULL;
	struct ra_stream *st = NULL;
	struct ra_stats sum = { 0 };
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
		one.thrashed_pages = 0;	/* one mapping: counted once below */
		ra_stats_add(&sum, &one);
	}
	sum.thrashed_pages = st[0].f->f_mapping->ra_thrashed - thrashed0;
	printf("rastreams: %s: %lu streams, %llu bytes; readahead %s: %lu calls, %lu pages, "
	       "%lu used, %lu thrashed, %lu sync + %lu async I/Os\n", path, nstreams,
	       (unsigned long long)bytes, ra_algo_name(st[0].f->f_ra.algo), ra_stats_calls(&sum),
	       sum.pages, sum.hit_pages, sum.thrashed_pages, sum.sync_ios, sum.async_ios);
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

/* --- walk: the readdir path ------------------------------------------------------------ */

#define WALK_MAX_DEPTH	32

struct walk {
	const struct kv_value *ra_args;
	bool quiet;
	char path[VFS_PATH_MAX];
	uint64_t dirs, entries, files, bytes;
	uint32_t crc;			/* of the listing, printed or not */
	struct ra_stats st;
	enum ra_algo algo;
	unsigned long ra_pages;
	int err;
};

/* Names of one directory's subdirectories, gathered before descending. */
struct walk_dir {
	char *names;
	size_t len, cap;
	struct walk *w;
	size_t base;			/* strlen of the directory's path */
};

static int walk_filldir(void *ctx, const char *name, unsigned int namelen, uint32_t ino,
			unsigned int ftype)
{
	struct walk_dir *d = ctx;
	struct walk *w = d->w;

	(void)ino;
	if ((namelen == 1 && name[0] == '.') || (namelen == 2 && name[0] == '.' && name[1] == '.'))
		return 0;
	w->entries++;
	{
		char line[VFS_PATH_MAX + 2];
		int n = snprintf(line, sizeof(line), "%.*s%s%.*s%s\n", (int)d->base, w->path,
				 d->base > 1 ? "/" : "", (int)namelen, name,
				 ftype == VFS_FT_DIR ? "/" : "");

		n = min_t(int, n, (int)sizeof(line) - 1);
		w->crc = crc32(w->crc, line, (size_t)n);
		if (!w->quiet)
			printf("%s", line);
	}
	if (ftype == VFS_FT_REG)
		w->files++;
	if (ftype != VFS_FT_DIR)
		return 0;
	if (d->len + namelen + 1 > d->cap) {
		size_t cap = max(d->cap * 2, d->len + namelen + 1 + 256);
		char *n = krealloc(d->names, cap);

		if (!n) {
			w->err = -ENOMEM;
			return 1;
		}
		d->names = n;
		d->cap = cap;
	}
	memcpy(d->names + d->len, name, namelen);
	d->names[d->len + namelen] = '\0';
	d->len += namelen + 1;
	return 0;
}

static int walk_dir(struct walk *w, int depth)
{
	struct walk_dir d = { .w = w, .base = strlen(w->path) };
	struct ra_stats st;
	struct file *dir;
	int err;

	if (depth > WALK_MAX_DEPTH) {
		pr_err("walk: %s: deeper than %d levels\n", w->path, WALK_MAX_DEPTH);
		return -ELOOP;
	}
	dir = vfs_open(w->path, &err);
	if (!dir) {
		pr_err("walk: %s: cannot open (%d)\n", w->path, err);
		return err;
	}
	if (vfs_mode_ftype(dir->f_inode->i_mode) != VFS_FT_DIR) {
		pr_err("walk: %s: not a directory\n", w->path);
		vfs_close(dir);
		return -ENOTDIR;
	}
	err = ra_apply_args("walk", dir, &w->ra_args[0], &w->ra_args[1]);
	if (err) {
		vfs_close(dir);
		return err;
	}
	w->algo = dir->f_ra.algo;
	w->ra_pages = dir->f_ra.ra_pages;
	w->dirs++;
	w->bytes += (uint64_t)dir->f_inode->i_size;
	err = vfs_readdir(dir, walk_filldir, &d);
	if (!err)
		err = w->err;
	/* The directory's readahead ran on the disk's mapping, not the directory's. */
	ra_file_stats(&dir->f_ra, &st);
	st.thrashed_pages = 0;
	ra_stats_add(&w->st, &st);
	vfs_close(dir);
	for (size_t off = 0; !err && off < d.len; off += strlen(d.names + off) + 1) {
		size_t nl = strlen(d.names + off);

		if (d.base + 1 + nl + 1 > sizeof(w->path)) {
			pr_err("walk: %s/%s: path too long\n", w->path, d.names + off);
			err = -ENAMETOOLONG;
			break;
		}
		snprintf(w->path + d.base, sizeof(w->path) - d.base, "%s%s",
			 d.base > 1 ? "/" : "", d.names + off);
		err = walk_dir(w, depth + 1);
		w->path[d.base] = '\0';
	}
	kfree(d.names);
	return err;
}

static int cmd_walk(int argc, char **argv)
{
	static const struct kv_spec specs[] = {
		RA_KV_SPECS,
		{ "quiet", KV_BOOL, NULL, "do not print the entries" },
	};
	static struct walk w;
	struct kv_value v[ARRAY_SIZE(specs)];
	const char *path = NULL;
	struct ra_measure ms;
	struct result r;
	struct file *root;
	unsigned long thrashed0;
	int err;

	if (kcmd_args(argc, argv, specs, ARRAY_SIZE(specs), v, &path))
		return -EINVAL;
	if (!path) {
		pr_err("walk: which directory? (a path argument)\n");
		return -EINVAL;
	}
	if (strlen(path) >= sizeof(w.path)) {
		pr_err("walk: path too long\n");
		return -ENAMETOOLONG;
	}
	memset(&w, 0, sizeof(w));
	w.ra_args = v;
	w.quiet = v[2].present && v[2].u;
	snprintf(w.path, sizeof(w.path), "%s", path);
	root = vfs_open(path, &err);
	if (!root) {
		pr_err("walk: %s: cannot open (%d)\n", path, err);
		return err;
	}
	measure_start(&ms, root);
	thrashed0 = ms.bdev ? ms.bdev->bd_mapping.ra_thrashed : 0;
	vfs_close(root);
	err = walk_dir(&w, 0);
	w.st.thrashed_pages = ms.bdev ? ms.bdev->bd_mapping.ra_thrashed - thrashed0 : 0;
	printf("walk: %s: %llu directories, %llu entries (%llu files); readahead %s: %lu calls, "
	       "%lu pages, %lu sync + %lu async I/Os\n", path, (unsigned long long)w.dirs,
	       (unsigned long long)w.entries, (unsigned long long)w.files,
	       ra_algo_name(w.algo), ra_stats_calls(&w.st), w.st.pages, w.st.sync_ios,
	       w.st.async_ios);
	result_begin(&r, "walk");
	/* bytes: directory data read; crc32: of the listing, one "path\n" per entry */
	measure_result(&r, &ms, path, w.bytes, w.crc);
	result_u64(&r, "dirs", w.dirs);
	result_u64(&r, "entries", w.entries);
	result_u64(&r, "files", w.files);
	ra_result_stats(&r, w.algo, w.ra_pages, &w.st);
	if (err)
		result_i64(&r, "error", err);
	result_end(&r);
	return err;
}
KCMD(walk, cmd_walk, "walk PATH [quiet=1] [ra=A] [ra_kb=N]",
     "list a directory tree (ls -R) through readdir and its readahead on the disk");
