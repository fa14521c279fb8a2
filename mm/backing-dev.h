/*
 * What readahead asks of the device under a file (Linux's struct
 * backing_dev_info, include/linux/backing-dev.h): its default window, its
 * largest request, whether it spins, and whether its queue is full. The
 * block layer (drivers/blkdev.h) embeds one in each block device and fills
 * it in; the page cache's floor owns the type, so that mm/ needs nothing
 * from the floors above it.
 */
#ifndef MM_BACKING_DEV_H
#define MM_BACKING_DEV_H

#include <stdbool.h>
#include <stdint.h>

struct backing_dev_info {
	unsigned long ra_pages; /* default maximum readahead, in pages */
	unsigned long io_pages; /* largest request the device takes (max_sectors_kb), pages */
	/* ra_pages was chosen (ra_kb= at boot, blockdev ra_kb=): no algorithm's own default */
	bool ra_pages_set;
	bool rotational;	/* a spinning disk (IDENTIFY word 217 is not 1) */
	/* Set by the block layer: true while the request queue is full. */
	bool (*congested_fn)(struct backing_dev_info *bdi);
	void *congested_data;
	/*
	 * Set by the block layer: ktime_ns() of the device's latest request
	 * completion. A page wait gives up only when this stops moving
	 * (wait_on_page_io(), mm/page-lock.c): a stall, not a slow turn.
	 */
	uint64_t last_progress_ns;
};

static inline bool bdi_read_congested(struct backing_dev_info *bdi)
{
	return bdi && bdi->congested_fn && bdi->congested_fn(bdi);
}

#endif /* MM_BACKING_DEV_H */
