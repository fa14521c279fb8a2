/*
 * Shell commands over the mounted root filesystem:
 *
 *	ls [PATH]		entries: name, inode, type, size (symlinks: target)
 *	stat PATH		one inode (a symlink itself, not its target)
 *	cat PATH [bs=SIZE] [ra=ondemand|legacy|off] [ra_kb=N]
 *				read the whole file sequentially, bs bytes per
 *				read; bytes, time, MB/s, crc32 and the disk's
 *				request count and average size while it ran
 *
 * drop_caches is mm's (mm/mmcmd.c). MB/s are 10^6 bytes per second, as
 * rawread prints them.
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

#define CAT_DEFAULT_BS	(64 * 1024)
#define CAT_MAX_BS	KMALLOC_MAX_SIZE

static const char *errname(int err)
{
	switch (err) {
	case -ENODEV: return "no filesystem mounted";
	case -EINVAL: return "invalid argument (paths are absolute)";
	default: return strerror(-err);
	}
}

static int need_root(const char *cmd)
{
	if (vfs_root)
		return 0;
	pr_err("%s: no filesystem mounted (root= or a disk holding ext2)\n", cmd);
	return -ENODEV;
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

static int ls_entry(void *ctx, const char *name, unsigned int len, uint32_t ino,
		    unsigned int ftype)
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
		pr_err("ls: %s: entry '%s' (inode %u): %s\n", c->dir, n, ino, errname(err));
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
	struct ls_ctx c = { 0 };
	struct result r;
	struct kstat st;
	struct file *f;
	int err;

	if (kcmd_args(argc, argv, NULL, 0, NULL, &path))
		return -EINVAL;
	if (!path)
		path = "/";
	err = need_root("ls");
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
		pr_err("ls: %s: %s\n", path, errname(err));
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

	if (kcmd_args(argc, argv, NULL, 0, NULL, &path))
		return -EINVAL;
	if (!path) {
		pr_err("stat: which PATH?\n");
		return -EINVAL;
	}
	err = need_root("stat");
	if (!err)
		err = vfs_lstat(path, &st);
	if (!err && EXT2_ISLNK(st.mode)) {
		ssize_t n = vfs_readlink(path, target, sizeof(target));

		err = n < 0 ? (int)n : 0;
	}
	if (err) {
		pr_err("stat: %s: %s\n", path, errname(err));
		return err;
	}
	printf("  path %s%s%s\n  inode %u, %s, mode 0%o, links %u, uid %u, gid %u\n"
	       "  size %lld, %llu sectors allocated, flags 0x%x\n"
	       "  atime %u, mtime %u, ctime %u\n", path, target[0] ? " -> " : "", target, st.ino,
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

static int cmd_cat(int argc, char **argv)
{
	static const struct kv_spec specs[] = {
		{ "bs", KV_SIZE, NULL, "bytes per read (default 64K)" },
		RA_KV_SPECS,
	};
	struct kv_value v[ARRAY_SIZE(specs)];
	struct disk_stats before, after;
	struct block_device *bdev;
	const char *path = NULL;
	uint64_t bytes = 0, t0, t1, reads, sectors;
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
	err = need_root("cat");
	if (err)
		return err;
	f = vfs_open(path, &err);
	if (!f) {
		pr_err("cat: %s: %s\n", path, errname(err));
		return err;
	}
	if (!EXT2_ISREG(f->f_inode->i_mode)) {
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
	bdev = f->f_inode->i_sb->s_bdev;
	before = bdev->stats;
	t0 = ktime_ns();
	while ((n = vfs_read(f, buf, bs)) > 0) {
		crc = crc32(crc, buf, (size_t)n);
		bytes += (uint64_t)n;
	}
	t1 = ktime_ns();
	after = bdev->stats;
	kfree(buf);
	if (n < 0) {
		pr_err("cat: %s: read failed at offset %llu: %s\n", path,
		       (unsigned long long)bytes, errname((int)n));
		vfs_close(f);
		return (int)n;
	}
	secs = (double)(t1 - t0) / 1e9;
	reads = after.ios[0] - before.ios[0];
	sectors = after.sectors[0] - before.sectors[0];
	printf("cat: %s: %llu bytes in %.3f s (%.2f MB/s), crc32 %08x, %llu disk reads, "
	       "average %.1f KiB\n", path, (unsigned long long)bytes, secs,
	       secs > 0 ? (double)bytes / 1e6 / secs : 0.0, crc, (unsigned long long)reads,
	       reads ? (double)sectors * SECTOR_SIZE / 1024 / (double)reads : 0.0);
	result_begin(&r, "cat");
	result_str(&r, "path", path);
	result_u64(&r, "bytes", bytes);
	result_double(&r, "secs", secs, 6);
	result_double(&r, "mbps", secs > 0 ? (double)bytes / 1e6 / secs : 0.0, 2);
	{
		char hex[9];

		snprintf(hex, sizeof(hex), "%08x", crc);
		result_str(&r, "crc32", hex);
	}
	result_u64(&r, "disk_reads", reads);
	result_double(&r, "avg_req_kb",
		      reads ? (double)sectors * SECTOR_SIZE / 1024 / (double)reads : 0.0, 1);
	ra_result_keys(&r, f);
	result_end(&r);
	vfs_close(f);
	return 0;
}
KCMD(cat, cmd_cat, "cat PATH [bs=SIZE] [ra=ALGO] [ra_kb=N]",
     "read a file: MB/s, crc32, disk requests");
