/*
 * The file interface of fs/vfs.h over the mounted root ext2 filesystem:
 * open, read and pread through the page cache (do_generic_mapping_read in
 * mm/filemap.c, which calls the ext2 ->readpages/->readpage and the
 * readahead code), readdir, stat and readlink. Host-buildable.
 */
#include <string.h>

#include "fs/ext2.h"
#include "kernel/log.h"
#include "mm/filemap.h"
#include "mm/mm.h"

struct super_block *vfs_root;

static const char *const ftype_names[] = {
	[VFS_FT_UNKNOWN] = "unknown", [VFS_FT_REG] = "file",	 [VFS_FT_DIR] = "dir",
	[VFS_FT_CHR] = "chardev",     [VFS_FT_BLK] = "blockdev", [VFS_FT_FIFO] = "fifo",
	[VFS_FT_SOCK] = "socket",     [VFS_FT_LNK] = "symlink",
};

const char *vfs_ftype_name(unsigned int ftype)
{
	return ftype < ARRAY_SIZE(ftype_names) ? ftype_names[ftype] : "unknown";
}

unsigned int vfs_mode_ftype(uint16_t mode)
{
	switch (mode & S_IFMT_EXT2) {
	case EXT2_S_IFREG:
		return VFS_FT_REG;
	case EXT2_S_IFDIR:
		return VFS_FT_DIR;
	case EXT2_S_IFCHR:
		return VFS_FT_CHR;
	case EXT2_S_IFBLK:
		return VFS_FT_BLK;
	case EXT2_S_IFIFO:
		return VFS_FT_FIFO;
	case EXT2_S_IFSOCK:
		return VFS_FT_SOCK;
	case EXT2_S_IFLNK:
		return VFS_FT_LNK;
	default:
		return VFS_FT_UNKNOWN;
	}
}

static int root_sbi(struct ext2_sb_info **sbi)
{
	if (!vfs_root)
		return -ENODEV;
	*sbi = EXT2_SB(vfs_root);
	return 0;
}

struct file *vfs_open(const char *path, int *err)
{
	struct ext2_sb_info *sbi;
	struct inode *inode;
	struct file *filp;
	uint32_t ino;
	int e;

	e = root_sbi(&sbi);
	if (!e)
		e = ext2_namei(sbi, path, true, &ino);
	if (e)
		goto fail;
	inode = ext2_iget(sbi, ino, path);
	if (IS_ERR(inode)) {
		e = (int)PTR_ERR(inode);
		goto fail;
	}
	/* the open file and its readahead state: a workload's, from the page cache's RAM */
	filp = kzalloc(sizeof(*filp), GFP_WORKLOAD);
	if (filp)
		filp->f_path = kstrdup_gfp(path, GFP_WORKLOAD);
	if (!filp || !filp->f_path) {
		kfree(filp);
		ext2_iput(inode);
		e = -ENOMEM;
		goto fail;
	}
	filp->f_inode = inode;
	filp->f_mapping = &inode->i_data;
	filp->f_pos = 0;
	file_ra_state_init(&filp->f_ra, filp->f_mapping);
	if (err)
		*err = 0;
	return filp;
fail:
	if (err)
		*err = e;
	return NULL;
}

void vfs_close(struct file *filp)
{
	if (!filp)
		return;
	ext2_iput(filp->f_inode);
	kfree(filp->f_path);
	kfree(filp);
}

/* Only a regular file's data is read: -EISDIR for a directory, -EINVAL for the rest. */
static int check_readable(const struct file *filp)
{
	uint16_t mode = filp->f_inode->i_mode;

	if (EXT2_ISDIR(mode))
		return -EISDIR;
	return EXT2_ISREG(mode) ? 0 : -EINVAL;
}

ssize_t vfs_pread(struct file *filp, void *buf, size_t count, loff_t pos)
{
	int err = check_readable(filp);

	if (err)
		return err;
	if (pos < 0)
		return -EINVAL;
	return do_generic_mapping_read(filp, buf, count, &pos);
}

ssize_t vfs_pread_actor(struct file *filp, size_t count, loff_t pos,
			void (*actor)(void *ctx, const void *data, size_t len), void *ctx)
{
	int err = check_readable(filp);

	if (err)
		return err;
	if (pos < 0)
		return -EINVAL;
	return do_generic_mapping_read_actor(filp, count, &pos, actor, ctx);
}

ssize_t vfs_read(struct file *filp, void *buf, size_t count)
{
	int err = check_readable(filp);

	if (err)
		return err;
	return do_generic_mapping_read(filp, buf, count, &filp->f_pos);
}

int vfs_readdir(struct file *dir, filldir_t filldir, void *ctx)
{
	return ext2_readdir(dir, filldir, ctx);
}

static int stat_ino(struct ext2_sb_info *sbi, uint32_t ino, struct kstat *st)
{
	struct ext2_inode raw;
	int err = ext2_read_inode(sbi, ino, &raw);

	if (err)
		return err;
	*st = (struct kstat){
		.ino = ino,
		.mode = le16_to_cpu(raw.i_mode),
		.nlink = le16_to_cpu(raw.i_links_count),
		.uid = le16_to_cpu(raw.i_uid),
		.gid = le16_to_cpu(raw.i_gid),
		.size = ext2_isize(&raw),
		.blocks = le32_to_cpu(raw.i_blocks),
		.atime = le32_to_cpu(raw.i_atime),
		.mtime = le32_to_cpu(raw.i_mtime),
		.ctime = le32_to_cpu(raw.i_ctime),
		.flags = le32_to_cpu(raw.i_flags),
	};
	return 0;
}

static int do_stat(const char *path, bool follow, struct kstat *st)
{
	struct ext2_sb_info *sbi;
	uint32_t ino;
	int err;

	err = root_sbi(&sbi);
	if (!err)
		err = ext2_namei(sbi, path, follow, &ino);
	if (!err)
		err = stat_ino(sbi, ino, st);
	return err;
}

int vfs_stat_ino(uint32_t ino, struct kstat *st)
{
	struct ext2_sb_info *sbi;
	int err = root_sbi(&sbi);

	return err ? err : stat_ino(sbi, ino, st);
}

int vfs_stat(const char *path, struct kstat *st)
{
	return do_stat(path, true, st);
}

int vfs_lstat(const char *path, struct kstat *st)
{
	return do_stat(path, false, st);
}

ssize_t vfs_readlink(const char *path, char *buf, size_t len)
{
	struct ext2_sb_info *sbi;
	struct ext2_inode raw;
	uint32_t ino;
	int err;

	err = root_sbi(&sbi);
	if (!err)
		err = ext2_namei(sbi, path, false, &ino);
	if (!err)
		err = ext2_read_inode(sbi, ino, &raw);
	if (err)
		return err;
	if (!EXT2_ISLNK(le16_to_cpu(raw.i_mode)))
		return -EINVAL;
	return ext2_read_link(sbi, ino, &raw, buf, len);
}
