/*
 * Files as the read path sees them: an inode with its page cache, and an
 * open file with a position and a readahead state. The ext2 driver
 * (fs/ext2*.c) fills inodes in; mm/filemap.c reads through them.
 *
 * The calls below (fs/vfs.c) work on the mounted root filesystem:
 *
 *	int err;
 *	struct file *f = vfs_open("/big.bin", &err);	// NULL, err = -ENOENT ...
 *	ssize_t n = vfs_read(f, buf, 65536);		// 0 at end of file
 *	vfs_close(f);
 *
 * Paths are absolute; symlinks are followed (at most VFS_MAX_SYMLINKS per
 * lookup). Inodes stay cached after the last close so their page cache
 * survives between opens, as in Linux; drop_pagecache() (mm) evicts the
 * pages.
 */
#ifndef FS_VFS_H
#define FS_VFS_H

#include "mm/file.h"
#include "mm/readahead.h"

struct super_block;
struct block_device;

struct inode {
	uint32_t i_ino;
	uint16_t i_mode; /* ext2 mode bits: type and permissions */
	loff_t i_size;
	struct super_block *i_sb;
	struct address_space i_data; /* the file's page cache */
	void *i_private;	     /* the filesystem's per-inode data */
	int i_count;
};

/* A mounted filesystem: where it lives and its block size. */
struct super_block {
	struct block_device *s_bdev;
	uint64_t s_start; /* byte offset of the filesystem on s_bdev */
	uint64_t s_bytes; /* size of the disk or partition holding it */
	unsigned long s_blocksize;
	unsigned int s_blocksize_bits;
	char s_id[24];	 /* "sda" or "sda1", for messages */
	void *s_fs_info; /* struct ext2_sb_info */
};

/* File types as readdir reports them (the ext2 dirent file_type values). */
enum vfs_ftype {
	VFS_FT_UNKNOWN,
	VFS_FT_REG,
	VFS_FT_DIR,
	VFS_FT_CHR,
	VFS_FT_BLK,
	VFS_FT_FIFO,
	VFS_FT_SOCK,
	VFS_FT_LNK,
};
const char *vfs_ftype_name(unsigned int ftype); /* "file", "dir", ... */
unsigned int vfs_mode_ftype(uint16_t mode);

struct kstat {
	uint32_t ino;
	uint16_t mode;
	uint16_t nlink;
	uint16_t uid, gid;
	loff_t size;
	uint64_t blocks;	      /* 512-byte sectors allocated, as st_blocks */
	uint32_t atime, mtime, ctime; /* seconds since the epoch */
	uint32_t flags;		      /* ext2 i_flags */
};

#define VFS_MAX_SYMLINKS 8 /* symlinks followed in one lookup */
#define VFS_PATH_MAX	 4096

/* The mounted root filesystem, or NULL (set by fs/mount.c at boot). */
extern struct super_block *vfs_root;

struct file *vfs_open(const char *path, int *err);
void vfs_close(struct file *filp);
/* read(2): up to @count bytes at f_pos through the page cache. */
ssize_t vfs_read(struct file *filp, void *buf, size_t count);
/* pread(2): like vfs_read at @pos, f_pos untouched. */
ssize_t vfs_pread(struct file *filp, void *buf, size_t count, loff_t pos);
/*
 * pread(2) of @count bytes at @pos, one request as readahead sees it, its
 * data handed to @actor a piece at a time in file order (at most a page
 * each) instead of copied into one buffer: a read larger than any buffer
 * (do_generic_mapping_read_actor()). Returns what vfs_pread() would.
 */
ssize_t vfs_pread_actor(struct file *filp, size_t count, loff_t pos,
			void (*actor)(void *ctx, const void *data, size_t len), void *ctx);

/*
 * Call @filldir for each entry of the directory open as @dir, from f_pos
 * (a byte offset in the directory) on; @filldir returns non-zero to stop
 * (f_pos then points at that entry). Returns 0 at the end, or -errno for a
 * corrupt directory (the error names the directory inode and block).
 */
typedef int (*filldir_t)(void *ctx, const char *name, unsigned int namelen, uint32_t ino,
			 unsigned int ftype);
int vfs_readdir(struct file *dir, filldir_t filldir, void *ctx);

/* stat(2) follows a final symlink, lstat(2) does not. */
int vfs_stat(const char *path, struct kstat *st);
int vfs_lstat(const char *path, struct kstat *st);
/* stat(2) of inode number @ino (as readdir reports it), without a path. */
int vfs_stat_ino(uint32_t ino, struct kstat *st);
/* The target of the symlink @path, NUL-terminated; returns its length. */
ssize_t vfs_readlink(const char *path, char *buf, size_t len);

/* A message for a -errno from these calls ("no filesystem mounted", ...). */
const char *vfs_errname(int err);
/* 0 when a filesystem is mounted, else -ENODEV after an error line naming @cmd. */
int vfs_need_root(const char *cmd);

#endif
