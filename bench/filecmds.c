/*
 * The applications that read files, as a user would from the shell (kernel
 * only); the benchmark workloads are in the other bench/ files.
 *
 *	cat PATH [bs=SIZE] [verify=0]		read a file: MB/s, crc32, disk requests
 *	mmapcat PATH [advice=normal|sequential|random]	read a file through page faults
 *	splicecat PATH			read a file the splice way, 16 pages by reference
 *	walk PATH [quiet=1]		ls -R: the readdir path's readahead on the disk
 *	rastreams PATH streams=N [bs=B]	N interleaved readers: readahead thrashing
 *	readahead PATH [offset=B] [len=B]	readahead(2): force_page_cache_readahead
 *
 * Each takes ra= and ra_kb= for the file (RA_KV_SPECS, the readahead advice)
 * and prints the keys cat prints (path, bytes, secs, mbps, crc32, disk_reads,
 * avg_req_kb) and the readahead counters of ra_result_keys(). cat checks a
 * bench pattern file (bench/pattern.h) word by word instead of a crc32;
 * verify=0 skips both, to measure the read path alone.
 */
#include <stdio.h>
#include <string.h>

#include "bench/pattern-check.h"
#include "drivers/blkdev.h"
#include "fs/vfs.h"
#include "kernel/cmd.h"
#include "kernel/crc32.h"
#include "kernel/log.h"
#include "kernel/result.h"
#include "kernel/time.h"
#include "mm/filemap.h"
#include "mm/mm.h"

#define CAT_DEFAULT_BS (64 * 1024)
#define CAT_MAX_BS     KMALLOC_MAX_SIZE

/* --- the file commands ---------------------------------------------------------------- */

/* Disk counters and time around one command. */
struct ra_measure {
	struct block_device *bdev;
	struct disk_stats before;
	uint64_t hits0; /* the disk model's buffer hits at the start */
	uint64_t t0;
};

static void measure_start(struct ra_measure *m, struct file *f)
{
	struct super_block *sb = f->f_inode->i_sb;

	m->bdev = sb ? sb->s_bdev : NULL;
	if (m->bdev)
		m->before = m->bdev->stats;
	blk_run_start(m->bdev);
	m->hits0 = blk_model_buffer_hits(m->bdev);
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
	if (m->bdev && m->bdev->dmodel)
		result_u64(r, "dm_buffer_hits", blk_model_buffer_hits(m->bdev) - m->hits0);
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
		pr_err("%s: %s: cannot open: %s\n", cmd, path, vfs_errname(err));
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

static void print_summary(const char *cmd, struct file *f, const struct ra_measure *m,
			  uint64_t bytes, uint32_t crc)
{
	uint64_t reads = m->bdev ? m->bdev->stats.ios[0] - m->before.ios[0] : 0;
	struct ra_stats st;

	int lead;

	ra_file_stats(&f->f_ra, &st);
	lead = ra_lead_median_bucket(&st);
	printf("%s: %s: %llu bytes, crc32 %08x; %llu disk reads, %llu buffer hits (%s disk); "
	       "readahead %s: "
	       "%lu calls, %lu windows, %lu pages, %lu used, %lu unused, %lu thrashed, %lu sync + "
	       "%lu async I/Os; median lead ",
	       cmd, f->f_path, (unsigned long long)bytes, crc, (unsigned long long)reads,
	       (unsigned long long)(blk_model_buffer_hits(m->bdev) - m->hits0),
	       m->bdev && m->bdev->run_cold ? "cold" : "warm", f->f_ra.algo->name,
	       ra_stats_calls(&st), st.windows, st.pages, st.hit_pages, ra_stats_unused(&st),
	       st.thrashed_pages, st.sync_ios, st.async_ios);
	if (lead < 0)
		printf("- (no page used)\n");
	else
		printf("%lu-%lu us\n", lead ? 1UL << lead : 0UL, (2UL << lead) - 1);
}

static int cmd_mmapcat(int argc, char **argv)
{
	static const struct kv_spec specs[] = {
		RA_KV_SPECS,
		{"advice", KV_ENUM, filemap_advice_names, "madvise hint for the mapping"},
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
		pr_err("mmapcat: %s: cannot map: %s\n", path, errname(err));
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
		pr_err("mmapcat: %s: the fault at page %lu (offset %llu) failed: %s\n", path,
		       m.error_index, (unsigned long long)m.error_index << PAGE_SHIFT, errname(err));
	else
		print_summary("mmapcat", f, &ms, (uint64_t)m.size, crc);
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
#define SPLICE_MAX_RETRIES 8

static int cmd_splicecat(int argc, char **argv)
{
	static const struct kv_spec specs[] = {RA_KV_SPECS};
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
				crc = crc32(crc,
					    (const char *)page_address(spd.pages[i]) +
						    spd.partial[i].offset,
					    spd.partial[i].len);
			if (!err)
				bytes += spd.partial[i].len;
		}
		splice_release(&spd);
		if (err)
			break;
	}
	if (err)
		pr_err("splicecat: %s: failed at byte %llu: %s\n", path, (unsigned long long)bytes,
		       errname(err));
	else
		print_summary("splicecat", f, &ms, bytes, crc);
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
		{"offset", KV_SIZE, NULL, "first byte (default 0)"},
		{"len", KV_SIZE, NULL, "bytes (default: to the end of the file)"},
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
	n = force_page_cache_readahead(
		f->f_mapping, f, (pgoff_t)(off >> PAGE_SHIFT),
		(unsigned long)(DIV_ROUND_UP(off + len, PAGE_SIZE) - (off >> PAGE_SHIFT)));
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

/* --- walk: the readdir path ------------------------------------------------------------ */

#define WALK_MAX_DEPTH 32

struct walk {
	const struct kv_value *ra_args;
	bool quiet;
	char path[VFS_PATH_MAX];
	uint64_t dirs, entries, files, bytes;
	uint32_t crc; /* of the listing, printed or not */
	struct ra_stats st;
	const struct ra_algorithm *algo;
	unsigned long ra_pages;
	int err;
};

/* Names of one directory's subdirectories, gathered before descending. */
struct walk_dir {
	char *names;
	size_t len, cap;
	struct walk *w;
	size_t base; /* strlen of the directory's path */
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
	struct walk_dir d = {.w = w, .base = strlen(w->path)};
	struct ra_stats st;
	struct file *dir;
	int err;

	if (depth > WALK_MAX_DEPTH) {
		pr_err("walk: %s: deeper than %d levels\n", w->path, WALK_MAX_DEPTH);
		return -ELOOP;
	}
	dir = vfs_open(w->path, &err);
	if (!dir) {
		pr_err("walk: %s: cannot open: %s\n", w->path, vfs_errname(err));
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
		snprintf(w->path + d.base, sizeof(w->path) - d.base, "%s%s", d.base > 1 ? "/" : "",
			 d.names + off);
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
		{"quiet", KV_BOOL, NULL, "do not print the entries"},
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
		pr_err("walk: %s: cannot open: %s\n", path, vfs_errname(err));
		return err;
	}
	measure_start(&ms, root);
	thrashed0 = ms.bdev ? ms.bdev->bd_mapping.ra_thrashed : 0;
	vfs_close(root);
	err = walk_dir(&w, 0);
	w.st.thrashed_pages = ms.bdev ? ms.bdev->bd_mapping.ra_thrashed - thrashed0 : 0;
	printf("walk: %s: %llu directories, %llu entries (%llu files); readahead %s: %lu calls, "
	       "%lu pages, %lu sync + %lu async I/Os\n",
	       path, (unsigned long long)w.dirs, (unsigned long long)w.entries,
	       (unsigned long long)w.files, w.algo->name, ra_stats_calls(&w.st), w.st.pages,
	       w.st.sync_ios, w.st.async_ios);
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

static int cmd_cat(int argc, char **argv)
{
	static const struct kv_spec specs[] = {
		{"bs", KV_SIZE, NULL, "bytes per read (default 64K)"},
		RA_KV_SPECS,
		{"verify", KV_BOOL, NULL, "0: no crc32 or pattern check (default 1)"},
	};
	struct kv_value v[ARRAY_SIZE(specs)];
	struct disk_stats before, after;
	struct block_device *bdev;
	bool verify, pattern;
	int64_t bad = -1;
	uint64_t seed;
	const char *path = NULL;
	uint64_t bytes = 0, t0, t1, reads, sectors, hits0;
	uint32_t crc = 0;
	size_t bs = CAT_DEFAULT_BS;
	struct result r;
	struct file *f;
	double secs;
	ssize_t n;
	void *buf;
	int err;

	if (kcmd_args(argc, argv, specs, ARRAY_SIZE(specs), v, &path))
		return -EINVAL;
	if (!path) {
		pr_err("cat: which PATH?\n");
		return -EINVAL;
	}
	if (v[0].present) {
		if (v[0].u == 0 || v[0].u > CAT_MAX_BS) {
			pr_err("cat: bs=%s: must be 1 byte to %lu KiB\n", v[0].raw,
			       CAT_MAX_BS >> 10);
			return -EINVAL;
		}
		bs = (size_t)v[0].u;
	}
	err = vfs_need_root("cat");
	if (err)
		return err;
	f = vfs_open(path, &err);
	if (!f) {
		pr_err("cat: %s: %s\n", path, vfs_errname(err));
		return err;
	}
	if (vfs_mode_ftype(f->f_inode->i_mode) != VFS_FT_REG) {
		pr_err("cat: %s: not a regular file\n", path);
		vfs_close(f);
		return -EINVAL;
	}
	/* the file's readahead: one call, owned by mm/ratrace.c */
	err = ra_apply_args("cat", f, &v[1], &v[2]);
	if (err) {
		vfs_close(f);
		return err;
	}
	buf = kmalloc(bs);
	if (!buf) {
		pr_err("cat: no memory for a %zu-byte buffer\n", bs);
		vfs_close(f);
		return -ENOMEM;
	}
	verify = !v[3].present || v[3].u;
	pattern = verify && pattern_file(path);
	seed = pattern_seed(path);
	bdev = f->f_inode->i_sb->s_bdev;
	before = bdev->stats;
	blk_run_start(bdev);
	hits0 = blk_model_buffer_hits(bdev);
	t0 = ktime_ns();
	while ((n = vfs_read(f, buf, bs)) > 0) {
		if (pattern && bad < 0)
			bad = pattern_check_fast(seed, buf, (size_t)n, bytes);
		else if (!pattern && verify)
			crc = crc32(crc, buf, (size_t)n);
		bytes += (uint64_t)n;
	}
	t1 = ktime_ns();
	after = bdev->stats;
	kfree(buf);
	if (n < 0) {
		pr_err("cat: %s: read failed at offset %llu: %s\n", path, (unsigned long long)bytes,
		       vfs_errname((int)n));
		vfs_close(f);
		return (int)n;
	}
	secs = (double)(t1 - t0) / 1e9;
	reads = after.ios[0] - before.ios[0];
	sectors = after.sectors[0] - before.sectors[0];
	{
		char check[48];

		if (pattern)
			snprintf(check, sizeof(check),
				 bad < 0 ? "every byte verified" : "WRONG DATA at %lld",
				 (long long)bad);
		else if (verify)
			snprintf(check, sizeof(check), "crc32 %08x", crc);
		else
			snprintf(check, sizeof(check), "not checked");
		struct ra_stats st;

		ra_file_stats(&f->f_ra, &st);
		printf("cat: %s: %llu bytes in %.3f s (%.2f MB/s), %s, %llu disk reads, "
		       "average %.1f KiB, %llu buffer hits (%s disk); readahead %s: %lu calls, "
		       "%lu windows\n",
		       path, (unsigned long long)bytes, secs,
		       secs > 0 ? (double)bytes / 1e6 / secs : 0.0, check,
		       (unsigned long long)reads,
		       reads ? (double)sectors * SECTOR_SIZE / 1024 / (double)reads : 0.0,
		       (unsigned long long)(blk_model_buffer_hits(bdev) - hits0),
		       bdev->run_cold ? "cold" : "warm", f->f_ra.algo->name,
		       ra_stats_calls(&st), st.windows);
	}
	result_begin(&r, "cat");
	result_str(&r, "path", path);
	result_u64(&r, "bytes", bytes);
	result_double(&r, "secs", secs, 6);
	result_double(&r, "mbps", secs > 0 ? (double)bytes / 1e6 / secs : 0.0, 2);
	if (verify && !pattern) {
		char hex[9];

		snprintf(hex, sizeof(hex), "%08x", crc);
		result_str(&r, "crc32", hex);
	}
	result_bool(&r, "verified", pattern && bad < 0);
	result_u64(&r, "disk_reads", reads);
	result_double(&r, "avg_req_kb",
		      reads ? (double)sectors * SECTOR_SIZE / 1024 / (double)reads : 0.0, 1);
	if (bdev->dmodel)
		result_u64(&r, "dm_buffer_hits", blk_model_buffer_hits(bdev) - hits0);
	ra_result_keys(&r, f);
	result_timing(&r, bdev);
	result_end(&r);
	vfs_close(f);
	if (pattern && bad >= 0) {
		pr_err("cat: %s: wrong data at offset %lld\n", path, (long long)bad);
		return -EIO;
	}
	return 0;
}
KCMD(cat, cmd_cat, "cat PATH [bs=SIZE] [ra=ALGO] [ra_kb=N] [verify=0]",
     "read a file: MB/s, crc32, disk requests");
