/*
 * An open file as the page cache's read path sees it (mm/filemap.c): its
 * page cache, its position and its readahead state. The filesystems' floor
 * (fs/vfs.h) opens and closes files and fills the inode in; mm/ only
 * carries the inode along, so it owns this type and needs nothing from the
 * floors above it.
 */
#ifndef MM_FILE_H
#define MM_FILE_H

#include "mm/pagemap.h"
#include "mm/readahead.h"

struct inode;

struct file {
	struct inode *f_inode;		/* the filesystem's (fs/vfs.h); mm never looks inside */
	struct address_space *f_mapping;
	loff_t f_pos;
	struct file_ra_state f_ra;
	const char *f_path;
};

#endif /* MM_FILE_H */
