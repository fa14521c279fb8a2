/*
 * Files as the read path sees them: an inode with its page cache, and an
 * open file with a position and a readahead state. The ext2 driver
 * (fs/ext2*.c) fills inodes in; mm/filemap.c reads through them.
 */
#ifndef FS_VFS_H
#define FS_VFS_H

#include "mm/readahead.h"

struct super_block;

struct inode {
	uint32_t i_ino;
	uint16_t i_mode;		/* ext2 mode bits: type and permissions */
	loff_t i_size;
	struct super_block *i_sb;
	struct address_space i_data;	/* the file's page cache */
	void *i_private;		/* the filesystem's per-inode data */
	int i_count;
};

struct file {
	struct inode *f_inode;
	struct address_space *f_mapping;
	loff_t f_pos;
	struct file_ra_state f_ra;
	const char *f_path;
};

#endif
