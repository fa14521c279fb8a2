/*
 * The block layer's asynchronous I/O engine for the raw-device commands
 * (drivers/blk-raw.c rawread, drivers/blk-verify.c blkcheck): @qd slots,
 * each a bio with its own buffer pages, submitted straight to a disk's
 * queue (no page cache) and reaped in completion order, every wait bounded.
 */
#ifndef DRIVERS_BLK_IO_H
#define DRIVERS_BLK_IO_H

#include "drivers/blkdev.h"
#include "kernel/sync.h"

struct io_slot {
	struct io_engine *eng;
	struct bio *bio;
	struct page **pages;
	unsigned int nr_pages;
	uint32_t first_off; /* where the data starts in pages[0] */
	bool busy, done;
	uint64_t submit_ns, end_ns;
	uint64_t tag; /* the caller's: block number, expected LBA... */
};

struct io_engine {
	struct block_device *bdev;
	struct io_slot *slots;
	unsigned int qd;
	unsigned int in_flight;
	struct wait_queue_head wq;
};

/* @qd slots of @max_bytes each (plus @max_off bytes of leading offset); @scatter: no
 * page of a slot physically next to its neighbour. -ENOMEM: io_free() what was made. */
int io_setup(struct io_engine *e, struct block_device *bdev, unsigned int qd, uint32_t max_bytes,
	     uint32_t max_off, bool scatter);
/* Start @op of @bytes at @sector into slot @s, the data @off bytes into its first page. */
void io_submit(struct io_slot *s, enum bio_op op, sector_t sector, uint32_t bytes, uint32_t off,
	       uint64_t tag);
/* Visit the data of slot @s in order: fn(ctx, bytes, len). */
void io_for_each(struct io_slot *s, void (*fn)(void *ctx, const uint8_t *p, uint32_t len),
		 void *ctx);
/* Wait until slot @want (or, with NULL, any busy slot) is done; NULL after a stall. */
struct io_slot *io_reap(struct io_engine *e, struct io_slot *want);
/* Drain before freeing: false if something never completed (then nothing is freed). */
bool io_drain(struct io_engine *e);
void io_free(struct io_engine *e);
#endif
