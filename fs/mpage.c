/*
 * Page-cache read bios, after Linux's fs/mpage.c; see fs/mpage.h. Used by
 * the ext2 file mapping (fs/ext2-readpages.c). Host-buildable.
 */
#include "fs/mpage.h"
#include "kernel/log.h"

void mpage_page_start(struct page *page)
{
	page->private = 1; /* the builder's count, dropped by mpage_page_end() */
}

static void mpage_page_put(struct page *page)
{
	if (__atomic_sub_fetch(&page->private, 1, __ATOMIC_SEQ_CST))
		return;
	if (!PageError(page))
		SetPageUptodate(page);
	unlock_page(page);
	page_cache_release(page); /* the I/O reference */
}

void mpage_page_fail(struct page *page)
{
	SetPageError(page);
}

void mpage_page_end(struct page *page)
{
	mpage_page_put(page);
}

static void mpage_end_io(struct bio *bio)
{
	sector_t sector = bio->bi_sector;

	for (unsigned int i = 0; i < bio->bi_vcnt; i++) {
		struct bio_vec *bv = &bio->bi_io_vec[i];
		sector_t end = sector + bv->bv_len / SECTOR_SIZE;

		/* Sectors before the one that failed did arrive. */
		if (bio->bi_status && end > bio->bi_error_sector)
			SetPageError(bv->bv_page);
		mpage_page_put(bv->bv_page);
		sector = end;
	}
	bio_put(bio);
}

void mpage_submit(struct mpage_bio *mb)
{
	if (!mb->bio)
		return;
	submit_bio(mb->bdev, mb->bio);
	mb->bio = NULL;
	mb->nr_bios++;
}

int mpage_add(struct mpage_bio *mb, struct page *page, uint32_t offset, uint32_t len,
	      sector_t sector)
{
	unsigned int vcnt;

	if (mb->bio && sector != mb->next_sector)
		mpage_submit(mb);
	for (int tries = 0; tries < 2; tries++) {
		if (!mb->bio) {
			unsigned int nr = clamp(mb->vecs_hint, 1u, (unsigned int)BIO_MAX_VECS);

			mb->bio = bio_alloc(nr);
			if (!mb->bio) {
				pr_err("%s: out of memory for a bio of %u pages at sector %llu\n",
				       mb->bdev->name, nr, (unsigned long long)sector);
				mpage_page_fail(page);
				return -ENOMEM;
			}
			mb->bio->bi_op = REQ_OP_READ;
			mb->bio->bi_sector = sector;
			mb->bio->bi_end_io = mpage_end_io;
		}
		vcnt = mb->bio->bi_vcnt;
		if (bio_add_page(mb->bio, page, len, offset)) {
			/* One page reference per vector: a merged piece shares its vector. */
			if (mb->bio->bi_vcnt != vcnt)
				__atomic_add_fetch(&page->private, 1, __ATOMIC_SEQ_CST);
			mb->next_sector = sector + len / SECTOR_SIZE;
			return 0;
		}
		mpage_submit(mb); /* full: the piece starts the next bio */
	}
	pr_err("%s: bio_add_page refused %u bytes at offset %u of page %lu\n", mb->bdev->name, len,
	       offset, page->index);
	mpage_page_fail(page);
	return -EINVAL;
}
