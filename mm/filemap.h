/*
 * The generic read paths over the page cache (mm/filemap.c): read(2)-style
 * reads, the mmap fault path and the splice path, each calling readahead
 * the way patches 007/008 of the seeds describe (or the legacy way, per
 * file, when file->f_ra.algo is RA_LEGACY).
 */
#ifndef MM_FILEMAP_H
#define MM_FILEMAP_H

#include "fs/vfs.h"

/*
 * Read up to @count bytes at *@ppos into @buf through the page cache,
 * advancing *@ppos. Returns bytes read (0 at end of file) or -errno
 * (after a page failed its single-page retry).
 */
ssize_t do_generic_mapping_read(struct file *filp, void *buf, size_t count, loff_t *ppos);

#endif
