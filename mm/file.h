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

/*
 * A read in progress, as 2.6.20's read_descriptor_t: what the read path
 * (do_generic_mapping_read(), mm/filemap.h) hands each piece of data to a
 * read actor with. The actor takes up to count bytes of each piece, then
 * lowers count and raises written by what it took.
 */
typedef struct {
	size_t written;		/* bytes handed on so far */
	size_t count;		/* bytes still wanted */
	union {
		char *buf;	/* file_read_actor(): where the next byte goes */
		void *data;	/* any other actor's own state */
	} arg;
	int error;		/* 0, or -errno when the read stopped on an error */
} read_descriptor_t;

/*
 * Hand on @size bytes from @offset of @page (uptodate, referenced by the
 * caller for the call's length). Returns the bytes taken: fewer than @size
 * ends the read.
 */
typedef unsigned long (*read_actor_t)(read_descriptor_t *desc, struct page *page,
				      unsigned long offset, unsigned long size);

#endif /* MM_FILE_H */
