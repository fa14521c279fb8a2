/*
 * bench diskprobe [disk=N] [minutes=N]: measure a disk's model from the
 * disk itself (bench/probe.c does the measuring), with timed raw reads
 * through the block layer: never a write, so it is safe on the user's own
 * disk. Prints what it found, the model's parameter table (every line
 * "diskprobe: KEY ...": tools/bench --log writes them to disk.params, for
 * tools/run-qemu --disk-model) and one RESULT line.
 *
 * On the modelled disk under QEMU it measures the model (the acceptance
 * test of the probe); on a real disk, the disk.
 */
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/probe.h"
#include "drivers/blkdev.h"
#include "kernel/log.h"
#include "kernel/result.h"
#include "kernel/time.h"
#include "mm/mm.h"

#define DP_MAX_PAGES (1024 * 1024 / PAGE_SIZE) /* the probe's largest read: 1 MiB */
#define DP_SLOTS     32
#define DP_STALL_NS  (120 * NSEC_PER_SEC)

struct dp_disk;

struct dp_slot {
	struct dp_disk *disk;
	struct bio *bio;
	struct page **pages;
	unsigned int nr_pages;
	uint64_t done_ns;
	bool busy;
};

struct dp_disk {
	struct block_device *bdev;
	struct dp_slot slots[DP_SLOTS];
	unsigned int in_flight;
	struct wait_queue_head wq;
};

static void dp_end_io(struct bio *bio)
{
	struct dp_slot *s = bio->bi_private;

	s->done_ns = ktime_ns();
	s->busy = false;
	s->disk->in_flight--;
	wake_up_all(&s->disk->wq);
}

static int dp_read(void *ctx, const struct dp_req *r, unsigned int n, uint64_t *issued,
		   uint64_t *done)
{
	struct dp_disk *d = ctx;
	int err = 0;

	if (n > DP_SLOTS)
		return -EINVAL;
	for (unsigned int i = 0; i < n; i++) {
		struct dp_slot *s = &d->slots[i];
		uint32_t bytes = r[i].n * 512;

		if (DIV_ROUND_UP(bytes, PAGE_SIZE) > s->nr_pages)
			return -EINVAL;
		s->bio->bi_vcnt = 0;
		s->bio->bi_size = 0;
		for (unsigned int p = 0; bytes; p++) {
			uint32_t take = min_t(uint32_t, bytes, PAGE_SIZE);

			bio_add_page(s->bio, s->pages[p], take, 0);
			bytes -= take;
		}
		s->bio->bi_op = REQ_OP_READ;
		s->bio->bi_sector = r[i].lba;
		s->bio->bi_end_io = dp_end_io;
		s->bio->bi_private = s;
		s->bio->bi_status = 0;
		s->busy = true;
	}
	d->in_flight = n;
	*issued = ktime_ns();
	for (unsigned int i = 0; i < n; i++)
		submit_bio(d->bdev, d->slots[i].bio);
	if (!wait_event_timeout(d->wq, d->in_flight == 0, DP_STALL_NS)) {
		pr_err("diskprobe: %s: no completion for %llu s; giving up (buffers leaked)\n",
		       d->bdev->name, DP_STALL_NS / NSEC_PER_SEC);
		return -ETIMEDOUT;
	}
	for (unsigned int i = 0; i < n; i++) {
		done[i] = d->slots[i].done_ns;
		if (d->slots[i].bio->bi_status && !err) {
			pr_err("diskprobe: %s: read of %u sectors at %llu failed (error %d)\n",
			       d->bdev->name, r[i].n, (unsigned long long)r[i].lba,
			       d->slots[i].bio->bi_status);
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

static void dp_free(struct dp_disk *d)
{
	for (int i = 0; i < DP_SLOTS; i++) {
		struct dp_slot *s = &d->slots[i];

		if (s->bio)
			bio_put(s->bio);
		for (unsigned int p = 0; s->pages && p < s->nr_pages; p++)
			if (s->pages[p])
				free_pages(s->pages[p], 0);
		kfree(s->pages);
	}
	kfree(d);
}

/* Slots 0-7 take a whole 1 MiB read (the zone rates queue eight); the others one page. */
static struct dp_disk *dp_alloc(struct block_device *bdev)
{
	struct dp_disk *d = kzalloc(sizeof(*d));

	if (!d)
		return NULL;
	d->bdev = bdev;
	init_waitqueue_head(&d->wq);
	for (int i = 0; i < DP_SLOTS; i++) {
		struct dp_slot *s = &d->slots[i];

		s->disk = d;
		s->nr_pages = i < 8 ? DP_MAX_PAGES : 1;
		s->pages = kcalloc(s->nr_pages, sizeof(*s->pages));
		s->bio = bio_alloc(s->nr_pages);
		if (!s->pages || !s->bio)
			goto fail;
		for (unsigned int p = 0; p < s->nr_pages; p++)
			if (!(s->pages[p] = page_cache_alloc(NULL)))
				goto fail;
	}
	return d;
fail:
	dp_free(d);
	return NULL;
}

static void print_param(void *ctx, const char *text)
{
	(void)ctx;
	printf("diskprobe: %s\n", text);
}

static const struct bench_param diskprobe_params[] = {
	{"disk", KV_UINT, NULL, 0, 0, 255, "the disk to probe (lsblk)"},
	{"minutes", KV_UINT, NULL, 4, 1, 20, "about how long to take (more: tighter seek times)"},
};

static int diskprobe_run(struct bench *b)
{
	static struct dp_result r;
	struct block_device *bdev = blk_get_disk((int)bench_u(b, "disk"));
	struct dp_disk *d;
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
	d = dp_alloc(bdev);
	if (!d) {
		pr_err("bench diskprobe: out of memory for its buffers\n");
		return -ENOMEM;
	}
	io = (struct dp_io){d,	     bdev->nr_sectors, bdev->ncq ? min(bdev->queue_depth, 32u) : 1,
			    dp_read, dp_now,	       dp_wait_until};
	printf("bench diskprobe: %s (%s), %llu sectors: reads only, about %llu minutes\n",
	       bdev->name, bdev->model, (unsigned long long)bdev->nr_sectors,
	       (unsigned long long)bench_u(b, "minutes"));
	err = dp_probe(&io, (unsigned int)bench_u(b, "minutes"), &r);
	if (err != -ETIMEDOUT)
		dp_free(d);
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
