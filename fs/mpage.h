/*
 * Bios for page-cache reads (fs/mpage.c), built the way Linux's
 * fs/mpage.c builds them: the reader maps each page to disk sectors and
 * adds its pieces in file order; a piece that continues the current bio on
 * disk joins it, anything else starts a new one, and a hole ends the
 * current one. A page spread over several bios completes (PG_uptodate or
 * PG_error, unlock, drop the I/O reference) when the last of them ends.
 *
 *	struct mpage_bio mb = { .bdev = bdev };
 *	mpage_page_start(page);			// page locked, I/O reference held
 *	mpage_add(&mb, page, offset, len, sector);	// each mapped piece
 *	mpage_break(&mb);				// at a hole
 *	mpage_page_end(page);			// every piece of the page added
 *	...
 *	mpage_submit(&mb);				// after the last page
 *
 * While a page is under construction page->private counts its bios plus
 * one for the builder, so a bio that ends early cannot complete it.
 */
#ifndef FS_MPAGE_H
#define FS_MPAGE_H

#include "drivers/blkdev.h"

struct mpage_bio {
	struct block_device *bdev;
	struct bio *bio;	/* being filled, not yet submitted */
	sector_t next_sector;	/* the sector that would extend it */
	unsigned int vecs_hint; /* pages still to come: sizes the next bio */
	unsigned long nr_bios;	/* bios submitted (for tests) */
};

void mpage_page_start(struct page *page);
/* Add @len bytes at @offset of @page, read from @sector on; -ENOMEM fails the page. */
int mpage_add(struct mpage_bio *mb, struct page *page, uint32_t offset, uint32_t len,
	      sector_t sector);
/* The page cannot be read (a mapping error): it completes with PG_error. */
void mpage_page_fail(struct page *page);
void mpage_page_end(struct page *page);
/* Submit the bio being filled, if any: at a hole, and after the last page. */
void mpage_submit(struct mpage_bio *mb);
static inline void mpage_break(struct mpage_bio *mb)
{
	mpage_submit(mb);
}

#endif
