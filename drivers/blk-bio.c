/*
 * Bios (Linux: block/bio.c): bio_alloc() gives a bio with room for its
 * page fragments in the same allocation, bio_add_page() adds a fragment
 * (extending the last one when it continues it in the same page), bio_put()
 * frees it. Submitting, splitting and ending bios is the core's
 * (drivers/blk-core.c). Hardware-independent and host-built.
 */
#include "drivers/blkdev.h"
#include "kernel/log.h"
#include "mm/mm.h"

struct bio *bio_alloc(unsigned int nr_vecs)
{
	struct bio *bio;

	if (nr_vecs == 0 || nr_vecs > BIO_MAX_VECS) {
		pr_err("bio_alloc: %u vectors requested, 1..%u allowed\n", nr_vecs, BIO_MAX_VECS);
		return NULL;
	}
	bio = kzalloc(sizeof(*bio) + nr_vecs * sizeof(struct bio_vec));
	if (!bio)
		return NULL;
	bio->bi_io_vec = (struct bio_vec *)(bio + 1);
	bio->bi_max_vecs = (uint16_t)nr_vecs;
	return bio;
}

void bio_put(struct bio *bio)
{
	kfree(bio);
}

bool bio_add_page(struct bio *bio, struct page *page, uint32_t len, uint32_t offset)
{
	struct bio_vec *last = bio->bi_vcnt ? &bio->bi_io_vec[bio->bi_vcnt - 1] : NULL;

	if (!len || len % SECTOR_SIZE || offset % SECTOR_SIZE || offset + len > PAGE_SIZE) {
		pr_err("bio_add_page: fragment offset %u length %u: both must be multiples of %u "
		       "within one page\n",
		       offset, len, SECTOR_SIZE);
		return false;
	}
	/* The next piece of the same page extends the last segment. */
	if (last && last->bv_page == page && last->bv_offset + last->bv_len == offset) {
		last->bv_len += len;
		bio->bi_size += len;
		return true;
	}
	if (bio->bi_vcnt >= bio->bi_max_vecs)
		return false;
	bio->bi_io_vec[bio->bi_vcnt++] = (struct bio_vec){page, len, offset};
	bio->bi_size += len;
	return true;
}
