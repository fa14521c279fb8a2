/*
 * The block layer's asynchronous I/O engine for the raw-device commands
 * (bench/rawread.c rawread, bench/blkcheck.c blkcheck, drivers/blk-cold.c's
 * read of a disk's far end) and the disk probe (bench/diskprobe.c), after fio's ioengine_ops (setup, prep,
 * commit, reap): @qd slots, each a bio with its own buffer pages (one size
 * for all, or one per slot), submitted straight to a disk's queue (no page
 * cache). Either one at a time as slots come free (io_submit) and reaped
 * one by one in completion order (io_reap), or prepped together, committed
 * with one issue time (io_prep, io_commit) and reaped all at once
 * (io_reap_all). Each slot keeps its issue and completion time
 * (ktime_ns(): virtual ns under the virtual clock); every wait is bounded.
 */
#ifndef DRIVERS_BLK_IO_H
#define DRIVERS_BLK_IO_H

#include "drivers/blkdev.h"
#include "kernel/sync.h"

struct io_slot {
	struct io_engine *eng;
	struct bio *bio;
	struct page **pages;
	unsigned int nr_pages;	    /* it holds nr_pages * PAGE_SIZE bytes */
	uint32_t first_off;	    /* where the data starts in pages[0] */
	bool busy, done;	    /* busy: in flight, or done and not yet reaped */
	bool queued;		    /* prepped, not yet busy: io_commit() starts it */
	uint64_t submit_ns, end_ns; /* issue and completion times */
	uint64_t tag;		    /* the caller's: block number, expected LBA... */
};

struct io_engine {
	struct block_device *bdev;
	struct io_slot *slots;
	unsigned int qd;
	unsigned int in_flight;
	struct wait_queue_head wq;
	unsigned int prep_end;	 /* the prepped slots lie below */
	unsigned int commit_end; /* and those committed, not yet reaped */
};

/* @qd slots of @max_bytes each (plus @max_off bytes of leading offset); @scatter: no
 * page of a slot physically next to its neighbour. -ENOMEM: io_free() what was made. */
int io_setup(struct io_engine *e, struct block_device *bdev, unsigned int qd, uint32_t max_bytes,
	     uint32_t max_off, bool scatter);
/* The same with slot i holding @bytes[i] (plus @max_off). */
int io_setup_sizes(struct io_engine *e, struct block_device *bdev, unsigned int qd,
		   const uint32_t *bytes, uint32_t max_off, bool scatter);
/* Start @op of @bytes at @sector into the free slot @s now, the data @off bytes into its
 * first page (the caller keeps @off + @bytes within the slot). */
void io_submit(struct io_slot *s, enum bio_op op, sector_t sector, uint32_t bytes, uint32_t off,
	       uint64_t tag);
/* Build the same in the free slot @s without starting it (its data may be filled first);
 * -EINVAL, with a message, if the slot is not free, or @bytes is 0 or too many. */
int io_prep(struct io_slot *s, enum bio_op op, sector_t sector, uint32_t bytes, uint32_t off,
	    uint64_t tag);
/* Start every prepped slot, in slot order; each one's submit_ns is the one issue time. */
void io_commit(struct io_engine *e);
/* Visit the data of slot @s in order: fn(ctx, bytes, len). */
void io_for_each(struct io_slot *s, void (*fn)(void *ctx, const uint8_t *p, uint32_t len),
		 void *ctx);
/* Wait until slot @want (or, with NULL, any busy slot) is done; NULL after a stall. */
struct io_slot *io_reap(struct io_engine *e, struct io_slot *want);
/* Wait until nothing is in flight, then reap the slots io_commit() started since the
 * last time; false after a stall. */
bool io_reap_all(struct io_engine *e);
/* Drain before freeing: false if something never completed (then nothing is freed). */
bool io_drain(struct io_engine *e);
void io_free(struct io_engine *e);
#endif
