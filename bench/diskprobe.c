/*
 * bench diskprobe [disk=N] [minutes=N]: measure a disk's model from the
 * disk itself (bench/probe.c does the measuring), with timed raw reads
 * through the block layer: never a write, so it is safe on the user's own
 * disk. Prints what it found, the model's parameter table (every line
 * "diskprobe: KEY ...": tools/bench --log writes them to disk.params, for
 * tools/run-qemu --disk-model) and one RESULT line.
 *
 * The reads go through the raw I/O engine (drivers/blk-io.c), 32 slots of
 * it: 8 of 1 MiB and 24 of a page. The probe's reads of one step are
 * prepped together, committed with one issue time and reaped all at once,
 * each timed by its slot's completion.
 *
 * On the modelled disk under QEMU it measures the model (the acceptance
 * test of the probe); on a real disk, the disk.
 */
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/probe.h"
#include "drivers/blk-io.h"
#include "drivers/blkdev.h"
#include "kernel/log.h"
#include "kernel/result.h"
#include "kernel/time.h"
#include "mm/mm.h"

#define DP_SLOTS 32
#define DP_BIG	 8 /* slots 0-7 take a whole 1 MiB read (the zone rates queue eight) */

/*
 * Issue @n reads together in slots 0..n-1, all stamped with one issue
 * time, and wait for all: each one's completion time is its slot's.
 */
static int dp_read(void *ctx, const struct dp_req *r, unsigned int n, uint64_t *issued,
		   uint64_t *done)
{
	struct io_engine *e = ctx;
	int err = 0;

	if (n > e->qd) {
		pr_err("diskprobe: %u reads at once; the probe has %u slots\n", n, e->qd);
		return -EINVAL;
	}
	for (unsigned int i = 0; i < n; i++)
		if (io_prep(&e->slots[i], REQ_OP_READ, r[i].lba, r[i].n * 512, 0, i))
			return -EINVAL; /* the probe stops; io_free() takes the prepped slots */
	io_commit(e);
	*issued = e->slots[0].submit_ns;
	if (!io_reap_all(e))
		return -ETIMEDOUT;
	for (unsigned int i = 0; i < n; i++) {
		struct bio *bio = e->slots[i].bio;

		done[i] = e->slots[i].end_ns;
		if (bio->bi_status && !err) {
			pr_err("diskprobe: %s: read of %u sectors at %llu failed (error %d)\n",
			       e->bdev->name, r[i].n, (unsigned long long)r[i].lba, bio->bi_status);
			err = -EIO;
		}
	}
	return err;
}

static uint64_t dp_now(void *ctx)
{
	(void)ctx;
	return ktime_ns();
}

static void dp_wait_until(void *ctx, uint64_t t)
{
	uint64_t now = ktime_ns();

	(void)ctx;
	if (t > now)
		sleep_ns(t - now);
}

static void print_param(void *ctx, const char *text)
{
	(void)ctx;
	printf("diskprobe: %s\n", text);
}

static const struct bench_param diskprobe_params[] = {
	{"disk", KV_UINT, NULL, 0, 0, 255, "the disk to probe (lsblk)"},
	{"minutes", KV_TIME_MIN, NULL, 4, 1, 20, "about how long to take (more: tighter seek times)"},
};

static int diskprobe_run(struct bench *b)
{
	static struct dp_result r;
	struct block_device *bdev = blk_get_disk((int)bench_u(b, "disk"));
	uint32_t sizes[DP_SLOTS];
	struct io_engine e;
	struct dp_io io;
	char name[48], desc[200];
	struct result res;
	int err;

	if (!bdev) {
		pr_err("bench diskprobe: disk=%llu does not exist (%d disk(s) found)\n",
		       (unsigned long long)bench_u(b, "disk"), blk_disk_count());
		return -ENODEV;
	}
	if (bdev->logical_sector_size != 512) {
		pr_err("bench diskprobe: %s has %u-byte sectors; the probe knows 512\n", bdev->name,
		       bdev->logical_sector_size);
		return -EINVAL;
	}
	for (int i = 0; i < DP_SLOTS; i++)
		sizes[i] = i < DP_BIG ? 1024 * 1024 : PAGE_SIZE; /* the largest read: 1 MiB */
	if (io_setup_sizes(&e, bdev, DP_SLOTS, sizes, 0, false)) {
		pr_err("bench diskprobe: out of memory for its buffers\n");
		io_free(&e);
		return -ENOMEM;
	}
	io = (struct dp_io){&e,	     bdev->nr_sectors, bdev->ncq ? min(bdev->queue_depth, 32u) : 1,
			    dp_read, dp_now,	       dp_wait_until};
	printf("bench diskprobe: %s (%s), %llu sectors: reads only, about %llu minutes\n",
	       bdev->name, bdev->model, (unsigned long long)bdev->nr_sectors,
	       (unsigned long long)bench_u(b, "minutes"));
	err = dp_probe(&io, (unsigned int)bench_u(b, "minutes"), &r);
	if (err != -ETIMEDOUT) /* after a stall the buffers are leaked, not freed under the I/O */
		io_free(&e);
	if (err) {
		pr_err("bench diskprobe: %s: the probe stopped (%d); no table\n", bdev->name, err);
		return err;
	}
	printf("bench diskprobe: rotation %.4f ms (%.0f rpm), command %.1f us, bus %.1f MB/s, "
	       "zone rates %.1f..%.1f MB/s, seek %.3f..%.3f ms\n",
	       r.rev_ns / 1e6, 6e10 / r.rev_ns, r.overhead_ns / 1e3, 1e3 / r.bus_ns_per_byte,
	       r.rate_mbps[0], r.rate_mbps[r.nr_rates - 1], r.seek_ns[0] / 1e6,
	       r.seek_ns[r.nr_seeks - 1] / 1e6);
	printf("bench diskprobe: look-ahead %s (%u KiB), look-behind %s, zero-latency %s, %u "
	       "segments; NCQ %.0f IOPS at qd 1, %.0f at qd %u; %llu reads in %.1f s\n",
	       r.lookahead ? "yes" : "no", r.lookahead_sectors / 2, r.lookbehind ? "yes" : "no",
	       r.zero_latency ? "yes" : "no", r.segments, r.ncq_iops[0],
	       r.ncq_iops[DP_NCQ_POINTS - 1], r.ncq_qd[DP_NCQ_POINTS - 1],
	       (unsigned long long)r.reads, r.probe_ns / 1e9);
	snprintf(name, sizeof(name), "probed-%s", bdev->name);
	snprintf(desc, sizeof(desc), "%s, serial %s, firmware %s: measured by bench diskprobe",
		 bdev->model, bdev->serial, bdev->firmware);
	for (char *c = name; *c; c++)
		if (*c == ' ')
			*c = '-';
	dp_params(&r, name, desc, print_param, NULL);
	result_begin(&res, "diskprobe");
	result_str(&res, "disk", bdev->name);
	result_str(&res, "disk_kind", blk_disk_kind(bdev));
	result_str(&res, "clock", ktime_clock_name());
	result_u64(&res, "sectors", r.nr_sectors);
	result_double(&res, "rev_ms", r.rev_ns / 1e6, 5);
	result_double(&res, "rpm", 6e10 / r.rev_ns, 2);
	result_double(&res, "overhead_us", r.overhead_ns / 1e3, 2);
	result_double(&res, "bus_mbps", 1e3 / r.bus_ns_per_byte, 2);
	result_double(&res, "zone_first_mbps", r.rate_mbps[0], 2);
	result_double(&res, "zone_last_mbps", r.rate_mbps[r.nr_rates - 1], 2);
	result_double(&res, "seek_short_ms", r.seek_ns[0] / 1e6, 4);
	result_double(&res, "seek_full_ms", r.seek_ns[r.nr_seeks - 1] / 1e6, 4);
	result_double(&res, "switch_ms", r.switch_ns / 1e6, 4);
	result_bool(&res, "lookahead", r.lookahead);
	result_u64(&res, "lookahead_kb", r.lookahead_sectors / 2);
	result_bool(&res, "lookbehind", r.lookbehind);
	result_bool(&res, "zero_latency", r.zero_latency);
	result_u64(&res, "segments", r.segments);
	result_double(&res, "ncq_gain", r.ncq_iops[DP_NCQ_POINTS - 1] / r.ncq_iops[0], 2);
	result_u64(&res, "reads", r.reads);
	result_double(&res, "secs", r.probe_ns / 1e9, 3);
	result_end(&res);
	return 0;
}

BENCH_WORKLOAD(diskprobe,
	       "measure the disk's model from timed reads (reads only): the parameter table for "
	       "tools/run-qemu --disk-model",
	       diskprobe_params, diskprobe_run, false);
