/*
 * Host tests of the raw device's page cache operations
 * (drivers/blk-pagemap.c) with real mm pages: a fake driver defined here
 * fills each 512-byte sector with its LBA, so the tests can check which
 * sectors landed in which page; read_cache_page() on bd_mapping, readpages
 * with holes in the index run, the zero-filled partial last page, pages
 * past the end, and an error in the middle of a run.
 */
#include <string.h>

#include "drivers/blkdev.h"
#include "kernel/ktest.h"
#include "mm/mm.h"

static struct block_device disk;
static int requests_seen;
static sector_t fail_at = (sector_t)-1;

static void fill_sector(uint8_t *p, sector_t lba)
{
	for (int i = 0; i < 512; i += 8)
		memcpy(p + i, &lba, 8);
}

static bool sector_ok(const uint8_t *p, sector_t lba)
{
	for (int i = 0; i < 512; i += 8)
		if (memcmp(p + i, &lba, 8))
			return false;
	return true;
}

static int data_queue_rq(struct block_device *bdev, struct request *rq)
{
	sector_t lba = rq->sector;

	(void)bdev;
	requests_seen++;
	for (struct bio *bio = rq->bio; bio; bio = bio->bi_next)
		for (unsigned int i = 0; i < bio->bi_vcnt; i++) {
			struct bio_vec *bv = &bio->bi_io_vec[i];
			uint8_t *p = (uint8_t *)page_address(bv->bv_page) + bv->bv_offset;

			for (uint32_t off = 0; off < bv->bv_len; off += 512)
				fill_sector(p + off, lba++);
		}
	if (fail_at >= rq->sector && fail_at < rq->sector + rq->nr_sectors)
		blk_end_request(rq, -EIO, fail_at);
	else
		blk_end_request(rq, 0, 0);
	return 0;
}

static const struct blk_queue_ops data_ops = {.queue_rq = data_queue_rq};

static int host_mm_up(void)
{
	struct mem_region ram = {MM_HOST_PHYS_BASE, 16 << 20}, none[1];

	if (!mm_host_arena(ram.base, ram.len))
		return -ENOMEM;
	return mm_init(&ram, 1, none, 0) ?: cache_pool_init(cache_pool_default_pages(ram.len));
}

/* A 100-sector disk: pages 0..11 are whole, page 12 holds sectors 96..99. */
static struct block_device *setup(void)
{
	if (!mm_ready() && host_mm_up())
		return NULL;
	blk_reset_disks();
	memset(&disk, 0, sizeof(disk));
	disk.nr_sectors = 100;
	disk.max_sectors = 64;
	disk.queue_depth = 4;
	requests_seen = 0;
	fail_at = (sector_t)-1;
	if (blk_register_disk(&disk, &data_ops, 128, 0))
		return NULL;
	return &disk;
}

static bool page_holds(struct page *page, pgoff_t index, unsigned int sectors)
{
	const uint8_t *p = page_address(page);

	for (unsigned int s = 0; s < 8; s++) {
		if (s < sectors && !sector_ok(p + 512 * s, (sector_t)index * 8 + s))
			return false;
		if (s >= sectors)
			for (int i = 0; i < 512; i++)
				if (p[512 * s + i])
					return false;
	}
	return true;
}

static void test_read_cache_page(struct ktest *t)
{
	struct block_device *bdev = setup();
	struct page *page;

	KT_ASSERT_TRUE(t, bdev);
	page = read_cache_page(&bdev->bd_mapping, 3, NULL);
	KT_ASSERT_TRUE(t, !IS_ERR(page));
	KT_EXPECT_TRUE(t, PageUptodate(page));
	KT_EXPECT_TRUE(t, !PageLocked(page));
	KT_EXPECT_TRUE(t, page_holds(page, 3, 8));
	put_page(page);

	page = read_cache_page(&bdev->bd_mapping, 12, NULL); /* the partial last page */
	KT_ASSERT_TRUE(t, !IS_ERR(page));
	KT_EXPECT_TRUE(t, page_holds(page, 12, 4));
	put_page(page);

	page = read_cache_page(&bdev->bd_mapping, 13, NULL); /* past the end */
	KT_EXPECT_TRUE(t, IS_ERR(page));
	KT_EXPECT_EQ(t, requests_seen, 2);
	blk_reset_disks();
}

/* Pages locked in the cache with an I/O reference, linked for readpages. */
static int prepare(struct block_device *bdev, const pgoff_t *idx, int n, struct page **pg,
		   struct list_head *list)
{
	INIT_LIST_HEAD(list);
	for (int i = 0; i < n; i++) {
		pg[i] = alloc_page();
		if (!pg[i] || add_to_page_cache(pg[i], &bdev->bd_mapping, idx[i]))
			return -1;
		get_page(pg[i]);
		list_add_tail(&pg[i]->lru, list);
	}
	return 0;
}

static void test_readpages_runs(struct ktest *t)
{
	static const pgoff_t idx[] = {0, 1, 2, 5, 6, 11, 12, 13};
	struct block_device *bdev = setup();
	struct page *pg[ARRAY_SIZE(idx)];
	struct list_head list;
	int n = ARRAY_SIZE(idx);

	KT_ASSERT_TRUE(t, bdev);
	KT_ASSERT_EQ(t, prepare(bdev, idx, n, pg, &list), 0);
	KT_EXPECT_EQ(t, blkdev_readpages(&bdev->bd_mapping, NULL, &list, n), -EIO);
	KT_EXPECT_TRUE(t, list_empty(&list));
	/* three runs: 0-2, 5-6 and 11-12 (13 is past the end) */
	KT_EXPECT_EQ(t, requests_seen, 3);
	for (int i = 0; i < n - 1; i++) {
		KT_EXPECT_TRUE(t, PageUptodate(pg[i]));
		KT_EXPECT_TRUE(t, !PageLocked(pg[i]));
		KT_EXPECT_TRUE(t, PageLRU(pg[i]));
		KT_EXPECT_TRUE(t, page_holds(pg[i], idx[i], idx[i] == 12 ? 4 : 8));
		KT_EXPECT_EQ(t, page_count(pg[i]), 2); /* the cache's and ours */
	}
	KT_EXPECT_TRUE(t, PageError(pg[n - 1]));
	KT_EXPECT_TRUE(t, !PageUptodate(pg[n - 1]));
	KT_EXPECT_TRUE(t, !PageLocked(pg[n - 1]));
	for (int i = 0; i < n; i++) {
		remove_from_page_cache(pg[i]);
		put_page(pg[i]);
	}
	blk_reset_disks();
}

/* An error at sector 21 (page 2): pages 0-1 arrived, 2-3 did not. */
static void test_readpages_error(struct ktest *t)
{
	static const pgoff_t idx[] = {0, 1, 2, 3};
	struct block_device *bdev = setup();
	struct page *pg[4];
	struct list_head list;

	KT_ASSERT_TRUE(t, bdev);
	fail_at = 21;
	KT_ASSERT_EQ(t, prepare(bdev, idx, 4, pg, &list), 0);
	KT_EXPECT_EQ(t, blkdev_readpages(&bdev->bd_mapping, NULL, &list, 4), 0);
	KT_EXPECT_EQ(t, requests_seen, 1);
	KT_EXPECT_TRUE(t, PageUptodate(pg[0]));
	KT_EXPECT_TRUE(t, PageUptodate(pg[1]));
	KT_EXPECT_TRUE(t, PageError(pg[2]));
	KT_EXPECT_TRUE(t, PageError(pg[3]));
	for (int i = 0; i < 4; i++) {
		KT_EXPECT_TRUE(t, !PageLocked(pg[i]));
		remove_from_page_cache(pg[i]);
		put_page(pg[i]);
	}
	blk_reset_disks();
}

KTEST_SUITE(blk_pagemap, NULL, KTEST_CASE(test_read_cache_page), KTEST_CASE(test_readpages_runs),
	    KTEST_CASE(test_readpages_error));
