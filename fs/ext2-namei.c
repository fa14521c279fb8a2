/*
 * Path lookup on ext2: absolute paths, component by component from the
 * root directory, "." and ".." (".." of the root is the root), symlinks
 * followed with at most VFS_MAX_SYMLINKS per lookup (a relative target
 * resolves from the directory holding the link). Lookup errors that are
 * not corruption (-ENOENT, -ENOTDIR, -ELOOP, -ENAMETOOLONG) print nothing:
 * the caller names the path.
 */
#include <string.h>

#include "fs/ext2.h"
#include "mm/mm.h"

int ext2_read_link(struct ext2_sb_info *sbi, uint32_t ino, const struct ext2_inode *raw, char *buf,
		   size_t len)
{
	/* validated: below the block size and VFS_PATH_MAX, below 60 when fast */
	uint32_t size = le32_to_cpu(raw->i_size);
	struct ext2_buf bh;
	uint32_t blk;
	int err;

	if (size + 1 > len)
		return -ENAMETOOLONG;
	if (ext2_is_fast_symlink(sbi, raw)) {
		memcpy(buf, raw->i_block, size);
	} else {
		blk = le32_to_cpu(raw->i_block[0]);
		if (!blk) {
			ext2_error(sbi, "slow symlink inode %u has no data block", ino);
			return -EFSCORRUPTED;
		}
		err = ext2_validate_block(sbi, blk, ino, "symlink");
		if (err)
			return err;
		err = ext2_bread(sbi, blk, &bh);
		if (err)
			return err;
		memcpy(buf, bh.data, size);
		ext2_brelse(&bh);
	}
	if (memchr(buf, '\0', size)) {
		ext2_error(sbi, "symlink inode %u: target holds a NUL byte", ino);
		return -EFSCORRUPTED;
	}
	buf[size] = '\0';
	return (int)size;
}

/* Resolve @work in place (it may be replaced by symlink targets). */
static int walk(struct ext2_sb_info *sbi, char *work, char *scratch, bool follow, uint32_t *result)
{
	struct ext2_inode_info dir;
	struct ext2_inode raw;
	uint32_t cur = EXT2_ROOT_INO, child;
	bool must_be_dir = false;
	int links = 0, err;
	char *p = work;

	for (;;) {
		const char *comp;
		size_t clen;
		char *q;
		bool last;

		while (*p == '/')
			p++;
		if (!*p)
			break;
		comp = p;
		while (*p && *p != '/')
			p++;
		clen = (size_t)(p - comp);
		for (q = p; *q == '/'; q++)
			;
		last = !*q;
		must_be_dir = last && *p == '/';
		if (clen > EXT2_NAME_LEN)
			return -ENAMETOOLONG;

		err = ext2_read_inode_info(sbi, cur, &dir);
		if (err)
			return err;
		if (!EXT2_ISDIR(dir.vfs_inode.i_mode))
			return -ENOTDIR;
		if (clen == 1 && comp[0] == '.')
			continue;
		if (clen == 2 && comp[0] == '.' && comp[1] == '.' && cur == EXT2_ROOT_INO)
			continue;
		err = ext2_lookup(&dir.vfs_inode, comp, clen, &child);
		if (err)
			return err;
		err = ext2_read_inode(sbi, child, &raw);
		if (err)
			return err;
		if (EXT2_ISLNK(le16_to_cpu(raw.i_mode)) && (!last || follow || must_be_dir)) {
			size_t rest = strlen(p);
			int n;

			if (++links > VFS_MAX_SYMLINKS)
				return -ELOOP;
			n = ext2_read_link(sbi, child, &raw, scratch, VFS_PATH_MAX + 1);
			if (n < 0)
				return n;
			if ((size_t)n + rest > VFS_PATH_MAX)
				return -ENAMETOOLONG;
			/* target + the rest of the path replaces the path */
			memcpy(scratch + n, p, rest + 1);
			memcpy(work, scratch, (size_t)n + rest + 1);
			p = work;
			if (*p == '/')
				cur = EXT2_ROOT_INO;
			continue;
		}
		cur = child;
	}
	if (must_be_dir) {
		err = ext2_read_inode(sbi, cur, &raw);
		if (err)
			return err;
		if (!EXT2_ISDIR(le16_to_cpu(raw.i_mode)))
			return -ENOTDIR;
	}
	*result = cur;
	return 0;
}

int ext2_namei(struct ext2_sb_info *sbi, const char *path, bool follow, uint32_t *ino)
{
	size_t len;
	char *buf;
	int err;

	if (!path || path[0] != '/')
		return -EINVAL;
	len = strlen(path);
	if (len > VFS_PATH_MAX)
		return -ENAMETOOLONG;
	buf = kmalloc(2 * (VFS_PATH_MAX + 1));
	if (!buf)
		return -ENOMEM;
	memcpy(buf, path, len + 1);
	err = walk(sbi, buf, buf + VFS_PATH_MAX + 1, follow, ino);
	kfree(buf);
	return err;
}
