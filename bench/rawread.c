/*
 * rawread: the raw-device reference the file benchmarks are compared to.
 *
 *	rawread disk=N bs=KiB qd=N pattern=seq|rand count=N|mb=N [offset_mb=N] [seed=N]
 *	        [crc=0] [lat=1]       read the raw device with qd bios in flight
 *
 * MB/s (10^6 bytes), IOPS, per-bio latency percentiles (the benchmarks'
 * histogram, bench_lat_percentile(): a bucket's top, within 1/8 of the
 * value) and the exact maximum, and for seq the zlib crc32 of everything
 * read, in order. A benchmark on the block layer: the bios go straight to
 * it (no page cache; drivers/blk-io.c); each of the qd slots owns its
 * buffer pages. Under TCG the checksum costs more CPU than the emulated
 * disk, so crc=0 measures the I/O alone. lat=1 also prints every read's
 * response time, in completion order, on "rawread-lat:" lines
 * (tools/demerit compares two runs' distributions).
 */
#include <stdio.h>

#include "bench/bench.h"
#include "drivers/blk-cmd.h"
#include "drivers/blk-io.h"
#include "drivers/blkdev.h"
#include "kernel/cmd.h"
#include "kernel/crc32.h"
#include "kernel/log.h"
#include "kernel/prandom.h"
#include "kernel/result.h"
#include "kernel/time.h"
#include "mm/mm.h"

#define RAWREAD_MAX_COUNT (1u << 20) /* lat=1's latencies fit one 4 MiB kmalloc */

/* One rawread: what was asked (rawread_args()), then what happened (rawread_run()). */
struct rawread {
	struct block_device *bdev;
	uint64_t bs, qd, count, bs_sectors, first, region, seed;
	bool seq, do_crc, print_lat;
	uint64_t issued, completed, bytes, secs_ns, max_lat_us;
	uint32_t *lat; /* lat=1: each read's us, in completion order */
	uint32_t crc;
	struct bench_lat hist;
	int fail_status; /* the first failed read's */
	sector_t fail_sector, fail_start;
	uint32_t fail_len;
};

static const char *const patterns[] = {"seq", "rand", NULL};
static const struct kv_spec specs[] = {
	{"disk", KV_UINT, NULL, "disk number (lsblk)"},
	{"bs", KV_UINT, NULL, "KiB per read, 1..16384"},
	{"qd", KV_UINT, NULL, "reads in flight, 1..256"},
	{"pattern", KV_ENUM, patterns, "seq or rand"},
	{"count", KV_UINT, NULL, "number of reads"},
	{"mb", KV_UINT, NULL, "MiB to read (instead of count)"},
	{"offset_mb", KV_UINT, NULL, "start (seq) or lower bound (rand) in MiB, default 0"},
	{"seed", KV_UINT, NULL, "random offsets' seed, default 1"},
	{"crc", KV_BOOL, NULL, "seq: checksum the data (default 1)"},
	{"lat", KV_BOOL, NULL, "1: print every read's response time (rawread-lat: lines)"},
};

/* bs=, qd=, pattern= and crc= into @rr; -EINVAL after an error naming the key. */
static int rawread_shape(struct rawread *rr, const struct kv_value *v)
{
	for (int i = 1; i <= 3; i++)
		if (!v[i].present) {
			pr_err("rawread: %s= is required (%s)\n", specs[i].key, specs[i].help);
			return -EINVAL;
		}
	rr->bs = v[1].u;
	rr->qd = v[2].u;
	rr->seq = v[3].u == 0;
	rr->do_crc = rr->seq && (!v[8].present || v[8].u);
	rr->print_lat = v[9].present && v[9].u;
	if (v[8].present && v[8].u && !rr->seq) {
		pr_err("rawread: crc=1 needs pattern=seq (random reads have no order to "
		       "checksum)\n");
		return -EINVAL;
	}
	if (rr->bs < 1 || rr->bs > 16384 || (rr->bs * 1024) % rr->bdev->logical_sector_size) {
		pr_err("rawread: bs=%llu: want 1..16384 KiB, a multiple of %s's %u-byte sectors\n",
		       (unsigned long long)rr->bs, rr->bdev->name,
		       rr->bdev->logical_sector_size);
		return -EINVAL;
	}
	if (rr->qd < 1 || rr->qd > 256) {
		pr_err("rawread: qd=%llu is out of range 1..256\n", (unsigned long long)rr->qd);
		return -EINVAL;
	}
	return 0;
}

/* count=/mb=, offset_mb= and seed= into @rr, checked against the disk's size. */
static int rawread_range(struct rawread *rr, const struct kv_value *v)
{
	struct block_device *bdev = rr->bdev;

	if (v[4].present == v[5].present) {
		pr_err("rawread: give exactly one of count=N and mb=N\n");
		return -EINVAL;
	}
	if (v[5].present && (!v[5].u || (v[5].u * 1024) % rr->bs)) {
		pr_err("rawread: mb=%llu is not a positive whole number of bs=%llu KiB reads\n",
		       (unsigned long long)v[5].u, (unsigned long long)rr->bs);
		return -EINVAL;
	}
	rr->count = v[5].present ? v[5].u * 1024 / rr->bs : v[4].u;
	if (rr->count < 1 || rr->count > RAWREAD_MAX_COUNT) {
		pr_err("rawread: %llu reads: want 1..%u\n", (unsigned long long)rr->count,
		       RAWREAD_MAX_COUNT);
		return -EINVAL;
	}
	rr->bs_sectors = rr->bs * 2;
	rr->first = (v[6].present ? v[6].u : 0) * 2048;
	if (rr->first >= bdev->nr_sectors || bdev->nr_sectors - rr->first < rr->bs_sectors) {
		pr_err("rawread: %s: offset_mb=%llu leaves no room for one %llu KiB read on a "
		       "%llu MiB disk; nothing read\n",
		       bdev->name, (unsigned long long)(rr->first / 2048),
		       (unsigned long long)rr->bs, (unsigned long long)(bdev->nr_sectors >> 11));
		return -EINVAL;
	}
	rr->region = (bdev->nr_sectors - rr->first) / rr->bs_sectors; /* whole reads that fit */
	if (rr->seq && rr->count > rr->region) {
		pr_err("rawread: %s: sectors %llu-%llu lie beyond the end of the disk (%llu "
		       "sectors, %llu MiB); nothing read\n",
		       bdev->name, (unsigned long long)rr->first,
		       (unsigned long long)(rr->first + rr->count * rr->bs_sectors - 1),
		       (unsigned long long)bdev->nr_sectors,
		       (unsigned long long)(bdev->nr_sectors >> 11));
		return -EINVAL;
	}
	rr->seed = v[7].present ? v[7].u : 1;
	if (!rr->seed)
		rr->seed = PRANDOM_SEED_FOR_ZERO;
	if (rr->qd > rr->count) {
		printf("rawread: qd=%llu is more than the %llu reads of %s=%llu: lowered to %llu\n",
		       (unsigned long long)rr->qd, (unsigned long long)rr->count,
		       v[4].present ? "count" : "mb",
		       (unsigned long long)(v[4].present ? v[4].u : v[5].u),
		       (unsigned long long)rr->count);
		rr->qd = rr->count;
	}
	return 0;
}

static void crc_fn(void *ctx, const uint8_t *p, uint32_t len)
{
	uint32_t *crc = ctx;

	*crc = crc32(*crc, p, len);
}

/* Start the next read in a free slot: seq in order, slot by slot; rand anywhere. */
static void rawread_issue(struct rawread *rr, struct io_engine *e)
{
	struct io_slot *s = &e->slots[rr->issued % rr->qd];
	uint64_t blk;

	if (!rr->seq) {
		s = NULL;
		for (unsigned int i = 0; i < e->qd && !s; i++)
			if (!e->slots[i].busy)
				s = &e->slots[i];
	}
	blk = rr->seq ? rr->issued : prandom_u64(&rr->seed) % rr->region;
	io_submit(s, REQ_OP_READ, rr->first + blk * rr->bs_sectors, (uint32_t)(rr->bs * 1024), 0,
		  rr->issued);
	rr->issued++;
}

/* Account a reaped read: its error, or its data, latency and bytes. */
static void rawread_done(struct rawread *rr, struct io_slot *s)
{
	if (s->bio->bi_status) {
		if (!rr->fail_status) {
			rr->fail_status = s->bio->bi_status;
			rr->fail_sector = s->bio->bi_error_sector;
			rr->fail_start = s->bio->bi_sector;
			rr->fail_len = s->bio->bi_size >> SECTOR_SHIFT;
		}
	} else if (!rr->fail_status || !rr->seq) {
		/* seq: what follows a failure is drained, not counted as read */
		uint64_t us = (s->end_ns - s->submit_ns) / NSEC_PER_USEC;

		if (rr->do_crc)
			io_for_each(s, crc_fn, &rr->crc);
		if (rr->lat)
			rr->lat[rr->completed] = (uint32_t)min_t(uint64_t, us, UINT32_MAX);
		bench_lat_add(&rr->hist, us * NSEC_PER_USEC);
		rr->max_lat_us = max(rr->max_lat_us, us);
		rr->bytes += s->bio->bi_size;
	}
	rr->completed++;
}

/*
 * Keep qd reads in flight until count are done (seq reaps in order, so the
 * crc runs in disk order); after a failed read, issue no more. -ETIMEDOUT
 * after a stall (then the buffers are leaked: e->slots is NULL).
 */
static int rawread_run(struct rawread *rr, struct io_engine *e)
{
	uint64_t t0;

	blk_run_start(rr->bdev);
	t0 = ktime_ns();
	while (rr->completed < rr->count) {
		struct io_slot *s;

		if (rr->issued < rr->count && !rr->fail_status &&
		    rr->issued - rr->completed < rr->qd) {
			rawread_issue(rr, e);
			continue;
		}
		if (rr->completed == rr->issued)
			break; /* stopped issuing after an error */
		s = io_reap(e, rr->seq ? &e->slots[rr->completed % rr->qd] : NULL);
		if (!s) {
			e->slots = NULL; /* leak: the buffers may still be written */
			return -ETIMEDOUT;
		}
		rawread_done(rr, s);
	}
	rr->secs_ns = max_t(uint64_t, ktime_ns() - t0, 1);
	return 0;
}

static void rawread_fail(const struct rawread *rr)
{
	struct result r;

	pr_err("rawread: %s: read of sectors %llu-%llu failed at sector %llu (error %d); "
	       "%llu bytes read %s\n",
	       rr->bdev->name, (unsigned long long)rr->fail_start,
	       (unsigned long long)(rr->fail_start + rr->fail_len - 1),
	       (unsigned long long)rr->fail_sector, rr->fail_status,
	       (unsigned long long)rr->bytes, rr->seq ? "before it" : "by the other reads");
	result_begin(&r, "rawread");
	result_str(&r, "disk", rr->bdev->name);
	result_u64(&r, "bytes", rr->bytes);
	result_i64(&r, "error", rr->fail_status);
	result_u64(&r, "error_sector", rr->fail_sector);
	result_end(&r);
}

/* lat=1: every read's response time, in completion order, 16 a line. */
static void rawread_print_lat(const struct rawread *rr)
{
	for (uint64_t i = 0; i < rr->completed; i += 16) {
		char line[16 * 11 + 1];
		size_t at = 0;

		for (uint64_t k = i; k < rr->completed && k < i + 16; k++)
			at += (size_t)snprintf(line + at, sizeof(line) - at, " %u", rr->lat[k]);
		pr_info("rawread-lat:%s\n", line);
	}
}

static void rawread_report(const struct rawread *rr)
{
	double secs = (double)rr->secs_ns / 1e9;
	uint64_t p50 = bench_lat_percentile(&rr->hist, 50) / NSEC_PER_USEC;
	uint64_t p99 = bench_lat_percentile(&rr->hist, 99) / NSEC_PER_USEC;
	struct result r;
	char crcs[12];

	if (rr->print_lat)
		rawread_print_lat(rr);
	snprintf(crcs, sizeof(crcs), "%08x", rr->crc);
	pr_info("rawread: %s %s bs=%llu KiB qd=%llu: %llu bytes in %.3f s: %.1f MB/s, "
		"%.0f IOPS, latency p50 %llu us, p99 %llu us, max %llu us%s%s\n",
		rr->bdev->name, rr->seq ? "seq" : "rand", (unsigned long long)rr->bs,
		(unsigned long long)rr->qd, (unsigned long long)rr->bytes, secs,
		(double)rr->bytes / 1e6 / secs, (double)rr->completed / secs,
		(unsigned long long)p50, (unsigned long long)p99,
		(unsigned long long)rr->max_lat_us, rr->do_crc ? ", crc32 " : "",
		rr->do_crc ? crcs : "");
	result_begin(&r, "rawread");
	result_str(&r, "disk", rr->bdev->name);
	result_str(&r, "pattern", rr->seq ? "seq" : "rand");
	result_u64(&r, "bs_kb", rr->bs);
	result_u64(&r, "qd", rr->qd);
	result_u64(&r, "bytes", rr->bytes);
	result_double(&r, "secs", secs, 6);
	result_double(&r, "mbps", (double)rr->bytes / 1e6 / secs, 2);
	result_double(&r, "iops", (double)rr->completed / secs, 1);
	result_u64(&r, "p50_us", p50);
	result_u64(&r, "p99_us", p99);
	result_u64(&r, "max_us", rr->max_lat_us);
	result_timing(&r, rr->bdev);
	if (rr->do_crc)
		result_str(&r, "crc32", crcs);
	result_end(&r);
}

static int cmd_rawread(int argc, char **argv)
{
	struct kv_value v[ARRAY_SIZE(specs)];
	struct io_engine e = {0};
	struct rawread *rr;
	int err;

	if (kcmd_args(argc, argv, specs, ARRAY_SIZE(specs), v, NULL))
		return -EINVAL;
	rr = kzalloc(sizeof(*rr));
	if (!rr) {
		pr_err("rawread: no memory for its state (%zu bytes)\n", sizeof(*rr));
		return -ENOMEM;
	}
	err = -ENODEV;
	rr->bdev = arg_disk("rawread", &v[0]);
	if (!rr->bdev)
		goto out;
	err = rawread_shape(rr, v);
	if (!err)
		err = rawread_range(rr, v);
	if (err)
		goto out;
	if (rr->print_lat && !(rr->lat = kmalloc(rr->count * sizeof(*rr->lat)))) {
		pr_err("rawread: no memory for the latencies of %llu reads (%llu bytes)\n",
		       (unsigned long long)rr->count,
		       (unsigned long long)(rr->count * sizeof(*rr->lat)));
		err = -ENOMEM;
		goto out;
	}
	if (io_setup(&e, rr->bdev, (unsigned int)rr->qd, (uint32_t)(rr->bs * 1024), 0, false)) {
		pr_err("rawread: no memory for %llu buffers of %llu KiB (%llu bytes)\n",
		       (unsigned long long)rr->qd, (unsigned long long)rr->bs,
		       (unsigned long long)(rr->qd * rr->bs * 1024));
		err = -ENOMEM;
		goto out;
	}
	err = rawread_run(rr, &e);
	if (!err && rr->fail_status) {
		rawread_fail(rr);
		err = -EIO;
	} else if (!err) {
		rawread_report(rr);
	}
out:
	if (e.slots && io_drain(&e))
		io_free(&e);
	kfree(rr->lat);
	kfree(rr);
	return err;
}
KCMD(rawread, cmd_rawread,
     "rawread disk=N bs=KiB qd=N pattern=seq|rand count=N|mb=N [offset_mb=N] [seed=N] [crc=0] "
     "[lat=1]",
     "read the raw disk with qd reads in flight: MB/s, IOPS, latency, crc32 (seq)");
