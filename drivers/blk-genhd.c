/*
 * The block layer's disks (Linux: block/genhd.c): blk_register_disk()
 * makes a driver's disk "sdX" with its request queue (the request pool,
 * the queue's limits, the default elevator with its data, the congestion
 * thresholds) and its raw page cache mapping with
 * the readahead defaults; then the table of disks, the kind of disk a
 * result names (real, emulated, modelled) and the statistics reset between
 * runs. Hardware-independent and host-built, like the core
 * (drivers/blk-core.c).
 */
#include <stdio.h>
#include <string.h>

#include "drivers/blk-internal.h"
#include "drivers/blkdev.h"
#include "drivers/diskmodel.h"
#include "drivers/elevator.h"
#include "kernel/log.h"
#include "kernel/result.h"
#include "mm/mm.h"
#include "mm/readahead.h"

unsigned int blk_nr_requests_default = BLK_DEF_NR_REQUESTS;

struct block_device *disks[BLK_MAX_DISKS];
int nr_disks;

static bool bdev_congested(struct backing_dev_info *bdi)
{
	struct block_device *bdev = bdi->congested_data;

	return bdev->queue && bdev->queue->congested[0];
}

/* --- disks --------------------------------------------------------------------- */

int blk_register_disk(struct block_device *bdev, const struct blk_queue_ops *ops,
		      unsigned int max_segments, unsigned int nr_requests)
{
	const struct elevator_type *elv = elv_default();
	struct request_queue *q;
	int err;

	if (nr_disks >= BLK_MAX_DISKS) {
		pr_err("blk: cannot register more than %d disks\n", BLK_MAX_DISKS);
		return -ENOSPC;
	}
	if (!nr_requests)
		nr_requests = blk_nr_requests_default;
	if (nr_requests > BLK_MAX_NR_REQUESTS) {
		pr_err("blk: %u requests per queue asked for, at most %u\n", nr_requests,
		       BLK_MAX_NR_REQUESTS);
		return -EINVAL;
	}
	if (bdev->max_sectors < PAGE_SIZE / SECTOR_SIZE || !max_segments || !bdev->queue_depth ||
	    !ops || !ops->queue_rq) {
		pr_err("blk: disk with max_sectors %u, %u segments, queue depth %u: a driver bug\n",
		       bdev->max_sectors, max_segments, bdev->queue_depth);
		return -EINVAL;
	}
	if (!elv) {
		pr_err("blk: no elevator is linked in\n");
		return -EINVAL;
	}
	q = kzalloc(sizeof(*q));
	if (!q)
		return -ENOMEM;
	q->pool = kcalloc(nr_requests, sizeof(struct request));
	if (!q->pool) {
		kfree(q);
		return -ENOMEM;
	}
	q->bdev = bdev;
	q->ops = ops;
	q->nr_requests = nr_requests;
	q->max_sectors = bdev->max_sectors;
	q->max_segments = max_segments;
	INIT_LIST_HEAD(&q->pending);
	INIT_LIST_HEAD(&q->free);
	INIT_LIST_HEAD(&q->requeue);
	init_waitqueue_head(&q->timer_wq);
	q->elevator = elv;
	/* blk_queue_congestion_threshold() */
	q->congestion_on = min(nr_requests - nr_requests / 8 + 1, nr_requests);
	q->congestion_off = nr_requests - nr_requests / 8 - nr_requests / 16 - 1;
	if ((int)q->congestion_off < 1)
		q->congestion_off = 1;
	for (unsigned int i = 0; i < nr_requests; i++)
		list_add_tail(&q->pool[i].queuelist, &q->free);
	init_waitqueue_head(&q->wait);

	bdev->index = nr_disks;
	snprintf(bdev->name, sizeof(bdev->name), "sd%c", 'a' + nr_disks);
	if (!bdev->logical_sector_size)
		bdev->logical_sector_size = SECTOR_SIZE;
	memset(&bdev->stats, 0, sizeof(bdev->stats));
	/* the boot default (ra_kb=; 128 KiB, Linux's VM_MAX_READAHEAD); blockdev ra_kb= per disk */
	bdev->bdi.ra_pages = ra_default_pages;
	bdev->bdi.ra_pages_set = ra_default_pages_set;
	bdev->bdi.rotational = !bdev->nonrot;
	bdev->bdi.io_pages = max_t(unsigned long, 1, (unsigned long)bdev->max_sectors * SECTOR_SIZE /
							     PAGE_SIZE);
	bdev->bdi.congested_fn = bdev_congested;
	bdev->bdi.congested_data = bdev;
	err = address_space_init(&bdev->bd_mapping, bdev->name, &blkdev_aops, &bdev->bdi,
				 (loff_t)(bdev->nr_sectors * SECTOR_SIZE));
	if (err) {
		kfree(q->pool);
		kfree(q);
		return err;
	}
	bdev->bd_mapping.host = bdev;
	/* the elevator's data; its timer's thread last, as nothing can fail after it */
	err = elv->init ? elv->init(q) : 0;
	if (!err && elv->timer && blk_timer_start)
		err = blk_timer_start(q);
	if (err) {
		if (elv->exit)
			elv->exit(q);
		address_space_release(&bdev->bd_mapping);
		kfree(q->pool);
		kfree(q);
		return err;
	}
	bdev->queue = q;
	disks[nr_disks++] = bdev;
	return 0;
}

int blk_disk_count(void)
{
	return nr_disks;
}

struct block_device *blk_get_disk(int index)
{
	return index >= 0 && index < nr_disks ? disks[index] : NULL;
}

const char *blk_disk_kind(const struct block_device *bdev)
{
	if (bdev->dmodel)
		return "modelled";
	return strncmp(bdev->model, "QEMU", 4) ? "real" : "emulated";
}

void result_timing(struct result *r, const struct block_device *bdev)
{
	result_str(r, "clock", ktime_clock_name());
	if (bdev) {
		result_str(r, "disk_kind", blk_disk_kind(bdev));
		result_bool(r, "cold", bdev->run_cold);
	}
}

uint64_t blk_model_buffer_hits(const struct block_device *bdev)
{
	return bdev && bdev->dmodel ? dm_stats(bdev->dmodel)->buffer_hits : 0;
}

void blk_reset_stats(struct block_device *bdev)
{
	unsigned int in_flight[2] = {bdev->stats.in_flight[0], bdev->stats.in_flight[1]};

	memset(&bdev->stats, 0, sizeof(bdev->stats));
	bdev->stats.in_flight[0] = in_flight[0];
	bdev->stats.in_flight[1] = in_flight[1];
	if (bdev->queue) {
		bdev->queue->stamp_ns = ktime_ns();
		/* the elevator's counters are printed with the disk's: they go too */
		memset(&bdev->queue->elv, 0, sizeof(bdev->queue->elv));
	}
	if (bdev->dmodel)
		dm_reset_stats(bdev->dmodel);
	bdev->model_late = bdev->model_late_tsc = 0;
}
