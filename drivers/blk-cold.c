/*
 * A cold disk for a comparison (kernel only): what drop_caches disk=cold
 * (fs/drop_caches.c) does after the page cache is dropped.
 *
 * Linux's "echo 3 > /proc/sys/vm/drop_caches" empties the page cache and
 * leaves the drive alone: its buffer still holds what the last run read,
 * its look-ahead may still be filling it and the heads are where that run
 * left them. Two runs compared after it do not start equal; the second of
 * two identical cats hits the buffer the first one filled. disk=cold makes
 * every disk cold as well:
 *
 *   - a modelled disk (disk_model=) is reset as at power-on (dm_cool()): the
 *     buffer's segments empty, the look-ahead stopped, the heads parked on
 *     cylinder 0 and the platters' phase 0 at that instant, and again when
 *     the next run begins (blk_run_start()), so the same commands afterwards
 *     take the same time, every time; the elevator's clock restarts then
 *     too (->run_start: cfq's jiffies, idle timer and think times);
 *   - a real or QEMU-emulated disk cannot be told to forget; it is read for
 *     COLD_FLUSH_BYTES from its far end (the file systems here start at
 *     the front), four times the seeds' drive's 8 MB buffer, so whatever the
 *     buffer held is replaced by data no benchmark reads. The heads end at
 *     the far end; the platters' phase is whatever it is. That is what is
 *     done, and the command says so.
 *
 * Before any of it, and before the page cache is dropped, every disk's
 * requests in flight are waited for (blk_wait_idle_all()): a page still
 * being read is locked, the drop passes it by, and it would be in the cache
 * when the next run begins, read by the run before (an asynchronous window
 * a replay left in flight gave the next replay of the same log 16 to 48
 * pages it had not read itself).
 *
 * Each disk remembers that it was made cold until the next run on it begins
 * (blk_run_start(): a bench phase, cat, mmapcat, splicecat, rawread), and
 * that run's RESULT line says "cold":true.
 */
#include <stdio.h>

#include "drivers/blk-io.h"
#include "drivers/blkdev.h"
#include "drivers/diskmodel.h"
#include "drivers/elevator.h"
#include "kernel/irq.h"
#include "kernel/log.h"
#include "kernel/time.h"

#define COLD_FLUSH_BYTES (32u << 20)
#define COLD_CHUNK_PAGES 64 /* 256 KiB a read */
/* Requests still in flight finish long before this (the driver's own timeouts are shorter). */
#define COLD_IDLE_NS	 (60 * NSEC_PER_SEC)

/* Wait for @bdev's requests in flight (an async readahead window, say) to finish. */
static int wait_idle(struct block_device *bdev)
{
	uint64_t deadline = ktime_ns() + COLD_IDLE_NS;

	while (bdev->stats.in_flight[0] + bdev->stats.in_flight[1]) {
		if (ktime_ns() >= deadline) {
			pr_err("drop_caches: %s: %u requests still in flight after %llu s; the "
			       "disk "
			       "was not made cold\n",
			       bdev->name, bdev->stats.in_flight[0] + bdev->stats.in_flight[1],
			       (unsigned long long)(COLD_IDLE_NS / NSEC_PER_SEC));
			return -ETIMEDOUT;
		}
		sleep_ns(NSEC_PER_MSEC);
	}
	return 0;
}

/*
 * Read [start, start + count) sectors of @bdev in COLD_CHUNK_PAGES pieces, one
 * at a time on the block layer's I/O engine (drivers/blk-io.c), the data
 * discarded.
 */
static int read_far_region(struct block_device *bdev, sector_t start, sector_t count)
{
	const sector_t chunk = COLD_CHUNK_PAGES * (PAGE_SIZE / SECTOR_SIZE);
	struct io_engine e = {0};
	int err = 0;

	if (io_setup(&e, bdev, 1, COLD_CHUNK_PAGES * PAGE_SIZE, 0, false)) {
		pr_err("drop_caches: %s: no memory for %d pages to read the disk cold with\n",
		       bdev->name, COLD_CHUNK_PAGES);
		if (e.slots)
			io_free(&e);
		return -ENOMEM;
	}
	for (sector_t s = start; s < start + count && !err; s += chunk) {
		sector_t n = min_t(sector_t, chunk, start + count - s);
		struct io_slot *done;

		io_submit(&e.slots[0], REQ_OP_READ, s, (uint32_t)(n * SECTOR_SIZE), 0, s);
		done = io_reap(&e, &e.slots[0]);
		if (!done) /* io_reap() said so; the buffers stay (the I/O may still write) */
			return -ETIMEDOUT;
		if (done->bio->bi_status) {
			pr_err("drop_caches: %s: read error at sector %llu (%d); the disk was not "
			       "made cold\n",
			       bdev->name, (unsigned long long)s, done->bio->bi_status);
			err = -EIO;
		}
	}
	io_free(&e);
	return err;
}

int blk_make_cold(struct block_device *bdev)
{
	int err = wait_idle(bdev);

	if (err)
		return err;
	if (bdev->dmodel) {
		unsigned long flags = local_irq_save();

		err = dm_cool(bdev->dmodel, ktime_ns());
		local_irq_restore(flags);
		if (err) {
			pr_err("drop_caches: %s: the disk model is busy (%u commands); the disk "
			       "was "
			       "not made cold\n",
			       bdev->name, dm_queued(bdev->dmodel));
			return err;
		}
		printf("drop_caches: %s: modelled disk made cold: buffer empty, look-ahead "
		       "stopped, heads on cylinder 0, phase 0\n",
		       bdev->name);
	} else {
		/* whole logical sectors; a disk smaller than twice the region is read whole */
		sector_t align = max_t(sector_t, bdev->logical_sector_size / SECTOR_SIZE, 1);
		sector_t count = min_t(sector_t, COLD_FLUSH_BYTES / SECTOR_SIZE, bdev->nr_sectors);
		sector_t start = (bdev->nr_sectors - count) / align * align;

		count = (bdev->nr_sectors - start) / align * align;
		if (bdev->nr_sectors < 2 * (COLD_FLUSH_BYTES / SECTOR_SIZE))
			start = 0, count = bdev->nr_sectors / align * align;
		err = read_far_region(bdev, start, count);
		if (err)
			return err;
		printf("drop_caches: %s: %s disk read cold: %llu KiB from sector %llu on (its far "
		       "end), to replace what its buffer held; the heads stay there\n",
		       bdev->name, blk_disk_kind(bdev), (unsigned long long)(count / 2),
		       (unsigned long long)start);
	}
	bdev->cold = true;
	return 0;
}

/*
 * A modelled disk made cold is cold when the run begins, not only when
 * drop_caches ran: between the two the run is set up (its files opened,
 * their metadata read, its threads made), which takes as long as its
 * instructions take, and the platters turn meanwhile. Their phase at the
 * run's first command would then depend on everything the set-up's
 * instructions depend on (the kernel's build, the command line's length:
 * seven spaces more moved a thrash run's stall time by 1 us). So the
 * model is reset again here, at this instant: buffer empty, heads parked,
 * phase 0, whatever the set-up read. A disk still busy is left as it is
 * (nothing the kernel runs leaves one so at a run's start).
 */
bool blk_run_start(struct block_device *bdev)
{
	if (!bdev)
		return false;
	bdev->run_cold = bdev->cold;
	bdev->cold = false;
	if (bdev->run_cold && bdev->dmodel) {
		unsigned long flags = local_irq_save();

		if (!dm_queued(bdev->dmodel))
			dm_cool(bdev->dmodel, ktime_ns());
		local_irq_restore(flags);
	}
	/*
	 * The elevator's clock restarts here too (cfq's jiffies are counted
	 * from this instant): otherwise its jiffy edges, its idle timer and
	 * its processes' think times would fall where the set-up's
	 * instructions put them, and a run traced would differ from one not.
	 */
	if (bdev->run_cold && bdev->queue && bdev->queue->elevator->run_start &&
	    !bdev->queue->in_driver && list_empty(&bdev->queue->pending))
		bdev->queue->elevator->run_start(bdev->queue);
	return bdev->run_cold;
}

int blk_wait_idle_all(void)
{
	int err = 0;

	for (int i = 0; i < blk_disk_count(); i++) {
		int e = wait_idle(blk_get_disk(i));

		err = err ? err : e;
	}
	return err;
}

int blk_make_cold_all(int *cooled)
{
	int err = 0, n = 0;

	for (int i = 0; i < blk_disk_count(); i++) {
		int e = blk_make_cold(blk_get_disk(i));

		err = err ? err : e;
		n += !e;
	}
	if (cooled)
		*cooled = n;
	return err;
}
