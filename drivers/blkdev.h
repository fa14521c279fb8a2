/*
 * The block layer's interface (drivers/blk-core.c, host-buildable): block
 * devices, bios and the backing_dev_info that readahead asks about
 * congestion. A bio reads or writes bi_size bytes starting at 512-byte
 * sector bi_sector into a vector of page fragments; bi_end_io runs when it
 * completes (possibly from an interrupt handler) with bi_status 0 or -errno.
 *
 *	struct bio *bio = bio_alloc(nr_pages);
 *	bio_add_page(bio, page, PAGE_SIZE, 0);	// repeat; false when full
 *	bio->bi_sector = lba; bio->bi_end_io = done; bio->bi_private = ctx;
 *	submit_bio(bdev, bio);			// asynchronous
 *	// or: err = submit_bio_wait(bdev, bio);
 *	bio_put(bio);
 *
 * A driver registers a disk with blk_register_disk() and completes each
 * request it is handed through blk_end_request().
 */
#ifndef DRIVERS_BLKDEV_H
#define DRIVERS_BLKDEV_H

#include "kernel/list.h"
#include "mm/pagemap.h"

enum bio_op { REQ_OP_READ, REQ_OP_WRITE, REQ_OP_FLUSH };

struct bio_vec {
	struct page *bv_page;
	uint32_t bv_len;
	uint32_t bv_offset;
};

struct block_device;

struct bio {
	struct block_device *bi_bdev;
	sector_t bi_sector;
	uint32_t bi_size;		/* bytes; a multiple of 512 */
	enum bio_op bi_op;
	int bi_status;
	uint16_t bi_vcnt, bi_max_vecs;
	struct bio_vec *bi_io_vec;
	void (*bi_end_io)(struct bio *bio);
	void *bi_private;
	struct bio *bi_next;		/* chain inside a merged request */
	uint64_t bi_start_ns;		/* submission time, for statistics */
};

struct backing_dev_info {
	unsigned long ra_pages;		/* default maximum readahead, in pages */
	/* Set by the block layer: true while the request queue is full. */
	bool (*congested_fn)(struct backing_dev_info *bdi);
	void *congested_data;
};

static inline bool bdi_read_congested(struct backing_dev_info *bdi)
{
	return bdi && bdi->congested_fn && bdi->congested_fn(bdi);
}

/* Per-disk statistics, as the fields of Linux's /proc/diskstats. */
struct disk_stats {
	uint64_t ios[2];		/* completed: [0] reads, [1] writes */
	uint64_t merges[2];
	uint64_t sectors[2];
	uint64_t ticks_ns[2];		/* time spent, summed over requests */
	uint64_t errors[2];
	unsigned int in_flight[2];
	uint64_t size_hist[16];		/* requests by size: bucket i holds [2^i, 2^(i+1)) KiB */
};

struct block_device {
	char name[16];			/* "sda", ... */
	int index;			/* disk number for disk=N */
	sector_t nr_sectors;		/* capacity in 512-byte sectors */
	uint32_t logical_sector_size;
	uint32_t max_sectors;		/* largest request the driver accepts */
	unsigned int queue_depth;	/* requests the driver may have in flight */
	char model[41], serial[21], firmware[9];
	bool ncq;
	struct backing_dev_info bdi;
	struct address_space bd_mapping; /* the raw device's page cache (metadata) */
	struct disk_stats stats;
	struct request_queue *queue;
	void *driver_data;
};

struct bio *bio_alloc(unsigned int nr_vecs);
void bio_put(struct bio *bio);
/* Append a fragment; false if the bio is full (no partial add). */
bool bio_add_page(struct bio *bio, struct page *page, uint32_t len, uint32_t offset);
void submit_bio(struct block_device *bdev, struct bio *bio);
int submit_bio_wait(struct block_device *bdev, struct bio *bio);
/* Submit everything plugged so far (submit_bio plugs until the caller unplugs). */
void blk_start_plug(void);
void blk_finish_plug(void);

int blk_disk_count(void);
struct block_device *blk_get_disk(int index);

#endif
