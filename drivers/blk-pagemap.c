/*
 * The raw block device's page cache (bdev->bd_mapping): readpage and
 * readpages that read whole 4 KiB pages of the disk through bios. The ext2
 * reader gets its metadata through this mapping with read_cache_page(), and
 * readahead on it goes through blkdev_readpages(). Host-buildable.
 *
 * Page index i holds sectors [8i, 8i + 8). A last page that runs past the
 * end of the disk is read up to the end and zero-filled after it; a page
 * wholly past the end fails (PG_error) with a message naming the disk.
 */
#include <string.h>

#include "drivers/blkdev.h"
#include "kernel/log.h"

#define SECTORS_PER_PAGE (PAGE_SIZE / SECTOR_SIZE)

/* Each vector is one page of the mapping; end them all. */
static void blkdev_end_io(struct bio *bio)
{
	sector_t sector = bio->bi_sector;

	for (unsigned int i = 0; i < bio->bi_vcnt; i++) {
		struct page *page = bio->bi_io_vec[i].bv_page;
		sector_t end = sector + bio->bi_io_vec[i].bv_len / SECTOR_SIZE;

		/* sectors before the failing one did arrive */
		if (!bio->bi_status || end <= bio->bi_error_sector)
			SetPageUptodate(page);
		else
			SetPageError(page);
		unlock_page(page);
		put_page(page);
		sector = end;
	}
	if (bio->bi_status)
		pr_err("%s: read of pages %lu-%lu failed at sector %llu (error %d)\n",
		       bio->bi_bdev->name, bio->bi_io_vec[0].bv_page->index,
		       bio->bi_io_vec[bio->bi_vcnt - 1].bv_page->index,
		       (unsigned long long)bio->bi_error_sector, bio->bi_status);
	bio_put(bio);
}

static void fail_page(struct page *page)
{
	SetPageError(page);
	unlock_page(page);
	put_page(page);
}

/* Sectors of page @index that exist on @bdev (0: wholly past the end). */
static uint32_t page_sectors(struct block_device *bdev, pgoff_t index)
{
	sector_t first = (sector_t)index * SECTORS_PER_PAGE;

	if (first >= bdev->nr_sectors)
		return 0;
	return (uint32_t)min_t(sector_t, SECTORS_PER_PAGE, bdev->nr_sectors - first);
}

static void report_past_end(struct block_device *bdev, pgoff_t index, unsigned int n)
{
	pr_err("%s: %u page(s) from index %lu lie past the end of the disk (%llu sectors)\n",
	       bdev->name, n, index, (unsigned long long)bdev->nr_sectors);
}

/*
 * Read the @n consecutive pages @pages[0..n) (n <= BIO_MAX_VECS) in one bio.
 * Without memory for the bio the pages fail and -ENOMEM goes back to the
 * caller, who says what it was reading (readahead's callers read again).
 */
static int read_run(struct block_device *bdev, struct page **pages, unsigned int n)
{
	struct bio *bio = bio_alloc(n);

	if (!bio) {
		for (unsigned int i = 0; i < n; i++)
			fail_page(pages[i]);
		return -ENOMEM;
	}
	bio->bi_op = REQ_OP_READ;
	bio->bi_sector = (sector_t)pages[0]->index * SECTORS_PER_PAGE;
	bio->bi_end_io = blkdev_end_io;
	for (unsigned int i = 0; i < n; i++) {
		uint32_t sectors = page_sectors(bdev, pages[i]->index);
		uint32_t len = sectors * SECTOR_SIZE;

		if (len < PAGE_SIZE)
			memset((char *)page_address(pages[i]) + len, 0, PAGE_SIZE - len);
		/* cannot fail: n vectors, each a distinct page */
		bio_add_page(bio, pages[i], len, 0);
	}
	submit_bio(bdev, bio);
	return 0;
}

int blkdev_readpage(struct file *filp, struct page *page)
{
	struct block_device *bdev = page->mapping ? page->mapping->host : NULL;

	(void)filp;
	if (!bdev) {
		pr_err("blkdev_readpage: page %lu belongs to no block device\n", page->index);
		fail_page(page);
		return -EINVAL;
	}
	if (!page_sectors(bdev, page->index)) {
		report_past_end(bdev, page->index, 1);
		fail_page(page);
		return -EIO;
	}
	return read_run(bdev, &page, 1);
}

int blkdev_readpages(struct address_space *mapping, struct file *filp, struct list_head *pages,
		     unsigned int nr_pages)
{
	struct block_device *bdev = mapping->host;
	unsigned int max_run = min_t(unsigned int, BIO_MAX_VECS,
				     max_t(unsigned int, 1, bdev->max_sectors / SECTORS_PER_PAGE));
	struct page *run[64];
	unsigned int n = 0, past_end = 0, seen = 0;
	pgoff_t first_past_end = 0;
	int ret = 0;

	(void)filp;
	if (max_run > ARRAY_SIZE(run))
		max_run = ARRAY_SIZE(run); /* bigger bios merge in the plug anyway */
	blk_start_plug();
	while (!list_empty(pages)) {
		struct page *page = list_first_entry(pages, struct page, lru);

		list_del(&page->lru);
		lru_cache_add(page);
		seen++;
		if (!page_sectors(bdev, page->index)) {
			if (!past_end++)
				first_past_end = page->index;
			fail_page(page);
			ret = -EIO;
			continue;
		}
		if (n && (n == max_run || run[n - 1]->index + 1 != page->index)) {
			read_run(bdev, run, n);
			n = 0;
		}
		run[n++] = page;
	}
	if (n)
		read_run(bdev, run, n);
	blk_finish_plug();
	if (past_end)
		report_past_end(bdev, first_past_end, past_end);
	if (seen != nr_pages)
		pr_warn("%s: readpages was told %u pages, the list held %u\n", bdev->name, nr_pages,
			seen);
	return ret;
}

const struct address_space_operations blkdev_aops = {
	.readpages = blkdev_readpages,
	.readpage = blkdev_readpage,
};
