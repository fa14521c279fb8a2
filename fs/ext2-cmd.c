/*
 * Shell commands over the mounted root filesystem:
 *
 *	ls [PATH]		entries: name, inode, type, size (symlinks: target)
 *	cksum [PATH]		size and crc32 of every regular file below PATH
 *	stat PATH		one inode (a symlink itself, not its target)
 *
 * cat and the other file reads are bench/'s file commands
 * (bench/filecmds.h), drop_caches is fs/drop_caches.c's.
 */
#include <stdio.h>
#include <string.h>

#include "drivers/blkdev.h"
#include "fs/ext2.h"
#include "kernel/cmd.h"
#include "kernel/crc32.h"
#include "kernel/log.h"
#include "kernel/result.h"
#include "kernel/time.h"
#include "mm/mm.h"

#define CAT_DEFAULT_BS (64 * 1024)

const char *vfs_errname(int err)
{
	switch (err) {
	case -ENODEV:
		return "no filesystem mounted";
	case -EINVAL:
		return "invalid argument (paths are absolute)";
	case -EFSCORRUPTED:
		return "the filesystem is corrupt (see the error above)";
	case -EOPNOTSUPP:
		return "uses a feature this reader does not support";
	default:
		return errname(err);
	}
}

int vfs_need_root(const char *cmd)
{
	if (vfs_root)
		return 0;
	pr_err("%s: no filesystem mounted (root= or a disk holding ext2)\n", cmd);
	return -ENODEV;
}

/*
 * The argument every file command takes: one PATH (or @dflt when it is
 * optional, NULL when it is required), on a mounted file system.
 */
static int path_arg(int argc, char **argv, const char *dflt, const char **path)
{
	if (kcmd_args(argc, argv, NULL, 0, NULL, path))
		return -EINVAL;
	if (!*path)
		*path = dflt;
	if (!*path) {
		pr_err("%s: which PATH?\n", argv[0]);
		return -EINVAL;
	}
	return vfs_need_root(argv[0]);
}

struct ls_ctx {
	const char *dir;
	unsigned long entries, dirs, files, links, others;
	uint64_t bytes;
	int err;
};

static void print_entry(const char *dir, const char *name, uint32_t ino, const struct kstat *st)
{
	char target[VFS_PATH_MAX + 1], path[VFS_PATH_MAX + 1];
	unsigned int ft = vfs_mode_ftype(st->mode);

	printf("  %-32s %8u %-8s %12lld", name, ino, vfs_ftype_name(ft), (long long)st->size);
	if (ft == VFS_FT_LNK) {
		snprintf(path, sizeof(path), "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/",
			 name);
		if (vfs_readlink(path, target, sizeof(target)) >= 0)
			printf(" -> %s", target);
	}
	printf("\n");
}

static void count_entry(struct ls_ctx *c, const struct kstat *st)
{
	unsigned int ft = vfs_mode_ftype(st->mode);

	c->entries++;
	c->bytes += (uint64_t)st->size;
	if (ft == VFS_FT_DIR)
		c->dirs++;
	else if (ft == VFS_FT_REG)
		c->files++;
	else if (ft == VFS_FT_LNK)
		c->links++;
	else
		c->others++;
}

static int ls_entry(void *ctx, const char *name, unsigned int len, uint32_t ino, unsigned int ftype)
{
	struct ls_ctx *c = ctx;
	char n[EXT2_NAME_LEN + 1];
	struct kstat st;
	int err;

	(void)ftype;
	memcpy(n, name, len);
	n[len] = '\0';
	err = vfs_stat_ino(ino, &st);
	if (err) {
		pr_err("ls: %s: entry '%s' (inode %u): %s\n", c->dir, n, ino, vfs_errname(err));
		c->err = err;
		return 1;
	}
	print_entry(c->dir, n, ino, &st);
	count_entry(c, &st);
	return 0;
}

static int cmd_ls(int argc, char **argv)
{
	const char *path = "/";
	struct ls_ctx c = {0};
	struct result r;
	struct kstat st;
	struct file *f;
	int err;

	err = path_arg(argc, argv, "/", &path);
	if (err)
		return err;
	c.dir = path;
	err = vfs_stat(path, &st);
	if (!err && !EXT2_ISDIR(st.mode)) {
		err = vfs_lstat(path, &st);
		if (!err) {
			const char *slash = strrchr(path, '/');

			print_entry(path, slash ? slash + 1 : path, st.ino, &st);
			count_entry(&c, &st);
		}
	} else if (!err) {
		f = vfs_open(path, &err);
		if (f) {
			err = vfs_readdir(f, ls_entry, &c);
			if (!err)
				err = c.err;
			vfs_close(f);
		}
	}
	if (err) {
		pr_err("ls: %s: %s\n", path, vfs_errname(err));
		return err;
	}
	result_begin(&r, "ls");
	result_str(&r, "path", path);
	result_u64(&r, "entries", c.entries);
	result_u64(&r, "dirs", c.dirs);
	result_u64(&r, "files", c.files);
	result_u64(&r, "symlinks", c.links);
	result_u64(&r, "others", c.others);
	result_u64(&r, "bytes", c.bytes);
	result_end(&r);
	return 0;
}
KCMD(ls, cmd_ls, "ls [PATH]", "list a directory: name, inode, type, size");

static int cmd_stat(int argc, char **argv)
{
	char target[VFS_PATH_MAX + 1] = "";
	const char *path = NULL;
	struct result r;
	struct kstat st;
	int err;

	err = path_arg(argc, argv, NULL, &path);
	if (err)
		return err;
	err = vfs_lstat(path, &st);
	if (!err && EXT2_ISLNK(st.mode)) {
		ssize_t n = vfs_readlink(path, target, sizeof(target));

		err = n < 0 ? (int)n : 0;
	}
	if (err) {
		pr_err("stat: %s: %s\n", path, vfs_errname(err));
		return err;
	}
	printf("  path %s%s%s\n  inode %u, %s, mode 0%o, links %u, uid %u, gid %u\n"
	       "  size %lld, %llu sectors allocated, flags 0x%x\n"
	       "  atime %u, mtime %u, ctime %u\n",
	       path, target[0] ? " -> " : "", target, st.ino,
	       vfs_ftype_name(vfs_mode_ftype(st.mode)), st.mode & 07777, st.nlink, st.uid, st.gid,
	       (long long)st.size, (unsigned long long)st.blocks, st.flags, st.atime, st.mtime,
	       st.ctime);
	result_begin(&r, "stat");
	result_str(&r, "path", path);
	result_u64(&r, "ino", st.ino);
	result_str(&r, "type", vfs_ftype_name(vfs_mode_ftype(st.mode)));
	result_u64(&r, "mode", st.mode & 07777);
	result_u64(&r, "links", st.nlink);
	result_i64(&r, "size", st.size);
	result_u64(&r, "blocks", st.blocks);
	result_u64(&r, "uid", st.uid);
	result_u64(&r, "gid", st.gid);
	result_u64(&r, "mtime", st.mtime);
	if (target[0])
		result_str(&r, "target", target);
	result_end(&r);
	return 0;
}
KCMD(stat, cmd_stat, "stat PATH", "show an inode (a symlink's own)");

/* --- cksum: every regular file under a directory --------------------------------- */

#define CKSUM_MAX_DEPTH 32

struct cksum_walk {
	char path[VFS_PATH_MAX + 1];
	uint8_t *buf;
	size_t bs;
	uint64_t files, dirs, bytes;
};

struct cksum_names {
	char *names; /* NUL-separated entry names */
	uint32_t *inos;
	size_t len, cap, n, ncap;
	int err;
};

static int cksum_collect(void *ctx, const char *name, unsigned int len, uint32_t ino,
			 unsigned int ftype)
{
	struct cksum_names *c = ctx;

	(void)ftype; /* unknown without the filetype feature: stat decides */
	if ((len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.'))
		return 0;
	if (c->len + len + 1 > c->cap || c->n == c->ncap) {
		size_t cap = max(c->cap * 2, c->len + len + 1 + 1024);
		size_t ncap = max(c->ncap * 2, (size_t)64);
		char *names = krealloc(c->names, cap);
		uint32_t *inos = names ? krealloc(c->inos, ncap * sizeof(*inos)) : NULL;

		if (names)
			c->names = names;
		if (inos)
			c->inos = inos;
		if (!names || !inos) {
			c->err = -ENOMEM;
			return 1;
		}
		c->cap = cap;
		c->ncap = ncap;
	}
	memcpy(c->names + c->len, name, len);
	c->names[c->len + len] = '\0';
	c->len += len + 1;
	c->inos[c->n++] = ino;
	return 0;
}

static int cksum_file(struct cksum_walk *w, loff_t size)
{
	uint64_t bytes = 0;
	uint32_t crc = 0;
	struct file *f;
	ssize_t n;
	int err;

	f = vfs_open(w->path, &err);
	if (!f) {
		pr_err("cksum: %s: %s\n", w->path, vfs_errname(err));
		return err;
	}
	while ((n = vfs_read(f, w->buf, w->bs)) > 0) {
		crc = crc32(crc, w->buf, (size_t)n);
		bytes += (uint64_t)n;
	}
	vfs_close(f);
	if (n < 0) {
		pr_err("cksum: %s: read failed at offset %llu: %s\n", w->path,
		       (unsigned long long)bytes, vfs_errname((int)n));
		return (int)n;
	}
	if (bytes != (uint64_t)size) {
		pr_err("cksum: %s: read %llu bytes of a %lld-byte file\n", w->path,
		       (unsigned long long)bytes, (long long)size);
		return -EIO;
	}
	/* the format of tools/mkimage's manifests, after "sum " */
	printf("sum %s %llu %08x\n", w->path, (unsigned long long)bytes, crc);
	w->files++;
	w->bytes += bytes;
	return 0;
}

static int cksum_dir(struct cksum_walk *w, int depth)
{
	struct cksum_names c = {0};
	size_t base = strlen(w->path), off = 0;
	struct file *dir;
	int err;

	if (depth > CKSUM_MAX_DEPTH) {
		pr_err("cksum: %s: deeper than %d directories\n", w->path, CKSUM_MAX_DEPTH);
		return -ELOOP;
	}
	dir = vfs_open(w->path, &err);
	if (!dir) {
		pr_err("cksum: %s: %s\n", w->path, vfs_errname(err));
		return err;
	}
	err = vfs_readdir(dir, cksum_collect, &c);
	vfs_close(dir);
	if (!err)
		err = c.err;
	if (err)
		pr_err("cksum: %s: %s\n", w->path, vfs_errname(err));
	w->dirs++;
	for (size_t i = 0; !err && i < c.n; off += strlen(c.names + off) + 1, i++) {
		struct kstat st;

		if (base + 1 + strlen(c.names + off) > VFS_PATH_MAX) {
			pr_err("cksum: %s/%s: path too long\n", w->path, c.names + off);
			err = -ENAMETOOLONG;
			break;
		}
		snprintf(w->path + base, sizeof(w->path) - base, "%s%s", base > 1 ? "/" : "",
			 c.names + off);
		err = vfs_stat_ino(c.inos[i], &st);
		if (err)
			pr_err("cksum: %s (inode %u): %s\n", w->path, c.inos[i], vfs_errname(err));
		else if (EXT2_ISDIR(st.mode))
			err = cksum_dir(w, depth + 1);
		else if (EXT2_ISREG(st.mode))
			err = cksum_file(w, st.size);
		w->path[base] = '\0';
	}
	kfree(c.names);
	kfree(c.inos);
	return err;
}

static int cmd_cksum(int argc, char **argv)
{
	static struct cksum_walk w;
	const char *path = NULL;
	struct result r;
	struct kstat st;
	int err;

	err = path_arg(argc, argv, "/", &path);
	if (err)
		return err;
	if (strlen(path) > VFS_PATH_MAX) {
		pr_err("cksum: path too long\n");
		return -ENAMETOOLONG;
	}
	memset(&w, 0, sizeof(w));
	snprintf(w.path, sizeof(w.path), "%s", path);
	w.bs = CAT_DEFAULT_BS;
	w.buf = kmalloc(w.bs);
	if (!w.buf)
		return -ENOMEM;
	err = vfs_stat(path, &st);
	if (err)
		pr_err("cksum: %s: %s\n", path, vfs_errname(err));
	else if (EXT2_ISDIR(st.mode))
		err = cksum_dir(&w, 0);
	else
		err = cksum_file(&w, st.size);
	kfree(w.buf);
	result_begin(&r, "cksum");
	result_str(&r, "path", path);
	result_u64(&r, "files", w.files);
	result_u64(&r, "dirs", w.dirs);
	result_u64(&r, "bytes", w.bytes);
	if (err)
		result_i64(&r, "error", err);
	result_end(&r);
	return err;
}
KCMD(cksum, cmd_cksum, "cksum [PATH]",
     "size and crc32 of every regular file under PATH (\"sum PATH SIZE CRC\" lines)");
