/*
 * walk, a file command (bench/filecmds.h): ls -R through the readdir path,
 * every directory below PATH opened and read with the command's ra= and
 * ra_kb=, and the readahead that makes on the disk (a directory's blocks are
 * read through the disk's mapping, not the directory's). The listing's
 * crc32 is in the RESULT, printed or not.
 *
 *	walk PATH [quiet=1]		ls -R: the readdir path's readahead on the disk
 */
#include <stdio.h>
#include <string.h>

#include "bench/filecmds.h"
#include "drivers/blkdev.h"
#include "fs/vfs.h"
#include "kernel/cmd.h"
#include "kernel/crc32.h"
#include "kernel/log.h"
#include "kernel/result.h"
#include "mm/mm.h"

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
