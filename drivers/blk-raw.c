/*
 * rawread: the raw-device reference the file benchmarks are compared to.
 *
 *	rawread disk=N bs=KiB qd=N pattern=seq|rand count=N|mb=N [offset_mb=N] [seed=N]
 *	        [crc=0] [lat=1]       read the raw device with qd bios in flight
 *
 * MB/s (10^6 bytes), IOPS, per-bio latency percentiles, and for seq the
 * zlib crc32 of everything read, in order. The bios go straight to the
 * block layer (no page cache; drivers/blk-io.c); each of the qd slots owns
 * its buffer pages. Under TCG the checksum costs more CPU than the emulated
 * disk, so crc=0 measures the I/O alone. lat=1 also prints every read's
 * response time, in completion order, on "rawread-lat:" lines
 * (tools/demerit compares two runs' distributions).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/blk-cmd.h"
#include "drivers/blk-io.h"
#include "drivers/blk-pattern.h"
#include "drivers/blkdev.h"
#include "kernel/cmd.h"
#include "kernel/crc32.h"
#include "kernel/log.h"
#include "kernel/prandom.h"
#include "kernel/result.h"
#include "kernel/time.h"
#include "mm/mm.h"

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of the sorted @v[0..n). */
static uint32_t percentile(const uint32_t *v, uint64_t n, unsigned int pct)
{
	uint64_t rank = (n * pct + 99) / 100;

	return n ? v[rank ? rank - 1 : 0] : 0;
}

static void crc_fn(void *ctx, const uint8_t *p, uint32_t len)
{
	uint32_t *crc = ctx;

	*crc = crc32(*crc, p, len);
}

#define RAWREAD_MAX_COUNT (1u << 20) /* its latencies fit one 4 MiB kmalloc */

static int cmd_rawread(int argc, char **argv)
{
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
	struct kv_value v[ARRAY_SIZE(specs)];
	struct block_device *bdev;
	struct io_engine e = {0};
	uint64_t bs, qd, count, bs_sectors, first, region, issued = 0, completed = 0, bytes = 0;
	uint64_t seed, t0, secs_ns, max_lat = 0;
	uint32_t *lat = NULL, crc = 0;
	bool seq, do_crc;
	int err = 0, fail_status = 0;
	sector_t fail_sector = 0, fail_start = 0;
	uint32_t fail_len = 0;
	struct result r;

	if (kcmd_args(argc, argv, specs, ARRAY_SIZE(specs), v, NULL))
		return -EINVAL;
	if (!(bdev = arg_disk("rawread", &v[0])))
		return -ENODEV;
	for (int i = 1; i <= 3; i++)
		if (!v[i].present) {
			pr_err("rawread: %s= is required (%s)\n", specs[i].key, specs[i].help);
			return -EINVAL;
		}
	bs = v[1].u;
	qd = v[2].u;
	seq = v[3].u == 0;
	do_crc = seq && (!v[8].present || v[8].u);
	if (v[8].present && v[8].u && !seq) {
		pr_err("rawread: crc=1 needs pattern=seq (random reads have no order to "
		       "checksum)\n");
		return -EINVAL;
	}
	if (bs < 1 || bs > 16384 || (bs * 1024) % bdev->logical_sector_size) {
		pr_err("rawread: bs=%llu: want 1..16384 KiB, a multiple of %s's %u-byte sectors\n",
		       (unsigned long long)bs, bdev->name, bdev->logical_sector_size);
		return -EINVAL;
	}
	if (qd < 1 || qd > 256) {
		pr_err("rawread: qd=%llu is out of range 1..256\n", (unsigned long long)qd);
		return -EINVAL;
	}
	if (v[4].present == v[5].present) {
		pr_err("rawread: give exactly one of count=N and mb=N\n");
		return -EINVAL;
	}
	if (v[5].present) {
		if (!v[5].u || (v[5].u * 1024) % bs) {
			pr_err("rawread: mb=%llu is not a positive whole number of bs=%llu KiB "
			       "reads\n",
			       (unsigned long long)v[5].u, (unsigned long long)bs);
			return -EINVAL;
		}
		count = v[5].u * 1024 / bs;
	} else {
		count = v[4].u;
	}
	if (count < 1 || count > RAWREAD_MAX_COUNT) {
		pr_err("rawread: %llu reads: want 1..%u\n", (unsigned long long)count,
		       RAWREAD_MAX_COUNT);
		return -EINVAL;
	}
	bs_sectors = bs * 2;
	first = (v[6].present ? v[6].u : 0) * 2048;
	if (first >= bdev->nr_sectors || bdev->nr_sectors - first < bs_sectors) {
		pr_err("rawread: %s: offset_mb=%llu leaves no room for one %llu KiB read on a "
		       "%llu MiB disk; nothing read\n",
		       bdev->name, (unsigned long long)(first / 2048), (unsigned long long)bs,
		       (unsigned long long)(bdev->nr_sectors >> 11));
		return -EINVAL;
	}
	region = (bdev->nr_sectors - first) / bs_sectors; /* whole reads that fit */
	if (seq && count > region) {
		pr_err("rawread: %s: sectors %llu-%llu lie beyond the end of the disk (%llu "
		       "sectors, "
		       "%llu MiB); nothing read\n",
		       bdev->name, (unsigned long long)first,
		       (unsigned long long)(first + count * bs_sectors - 1),
		       (unsigned long long)bdev->nr_sectors,
		       (unsigned long long)(bdev->nr_sectors >> 11));
		return -EINVAL;
	}
	seed = v[7].present ? v[7].u : 1;
	if (!seed)
		seed = PRANDOM_SEED_FOR_ZERO;
	if (qd > count) {
		printf("rawread: qd=%llu is more than the %llu reads of %s=%llu: lowered to %llu\n",
		       (unsigned long long)qd, (unsigned long long)count,
		       v[4].present ? "count" : "mb",
		       (unsigned long long)(v[4].present ? v[4].u : v[5].u),
		       (unsigned long long)count);
		qd = count;
	}
	lat = kmalloc(count * sizeof(*lat));
	if (!lat) {
		pr_err("rawread: no memory for the latencies of %llu reads (%llu bytes)\n",
		       (unsigned long long)count, (unsigned long long)(count * sizeof(*lat)));
		err = -ENOMEM;
		goto out;
	}
	if (io_setup(&e, bdev, (unsigned int)qd, (uint32_t)(bs * 1024), 0, false)) {
		pr_err("rawread: no memory for %llu buffers of %llu KiB (%llu bytes)\n",
		       (unsigned long long)qd, (unsigned long long)bs,
		       (unsigned long long)(qd * bs * 1024));
		err = -ENOMEM;
		goto out;
	}

	blk_run_start(bdev);
	t0 = ktime_ns();
	while (completed < count) {
		struct io_slot *s;

		/* keep qd in flight; seq reaps in order so the crc runs in disk order */
		if (issued < count && !fail_status && (issued - completed) < qd) {
			s = &e.slots[issued % qd];
			if (!seq) {
				s = NULL;
				for (unsigned int i = 0; i < e.qd && !s; i++)
					if (!e.slots[i].busy)
						s = &e.slots[i];
			}
			uint64_t blk = seq ? issued : prandom_u64(&seed) % region;

			io_submit(s, REQ_OP_READ, first + blk * bs_sectors, (uint32_t)(bs * 1024),
				  0, issued);
			issued++;
			continue;
		}
		if (completed == issued)
			break; /* stopped issuing after an error */
		s = io_reap(&e, seq ? &e.slots[completed % qd] : NULL);
		if (!s) {
			err = -ETIMEDOUT;
			e.slots = NULL; /* leak: the buffers may still be written */
			goto out;
		}
		if (s->bio->bi_status) {
			if (!fail_status) {
				fail_status = s->bio->bi_status;
				fail_sector = s->bio->bi_error_sector;
				fail_start = s->bio->bi_sector;
				fail_len = s->bio->bi_size >> SECTOR_SHIFT;
			}
		} else if (!fail_status || !seq) {
			/* seq: what follows a failure is drained, not counted as read */
			uint64_t us = (s->end_ns - s->submit_ns) / NSEC_PER_USEC;

			if (do_crc)
				io_for_each(s, crc_fn, &crc);
			lat[completed] = (uint32_t)min_t(uint64_t, us, UINT32_MAX);
			max_lat = max(max_lat, us);
			bytes += s->bio->bi_size;
		}
		completed++;
	}
	secs_ns = ktime_ns() - t0;
	if (!secs_ns)
		secs_ns = 1;

	if (fail_status) {
		/* lat[] holds only the reads before the failure in seq order; keep it simple */
		pr_err("rawread: %s: read of sectors %llu-%llu failed at sector %llu (error %d); "
		       "%llu bytes read %s\n",
		       bdev->name, (unsigned long long)fail_start,
		       (unsigned long long)(fail_start + fail_len - 1),
		       (unsigned long long)fail_sector, fail_status, (unsigned long long)bytes,
		       seq ? "before it" : "by the other reads");
		result_begin(&r, "rawread");
		result_str(&r, "disk", bdev->name);
		result_u64(&r, "bytes", bytes);
		result_i64(&r, "error", fail_status);
		result_u64(&r, "error_sector", fail_sector);
		result_end(&r);
		err = -EIO;
		goto out;
	}
	{
		double secs = (double)secs_ns / 1e9;
		uint32_t p50, p99;
		char crcs[12];

		if (v[9].present && v[9].u) {
			/* in completion order, 16 a line, before the sort below */
			for (uint64_t i = 0; i < completed; i += 16) {
				char line[16 * 11 + 1];
				size_t at = 0;

				for (uint64_t k = i; k < completed && k < i + 16; k++)
					at += (size_t)snprintf(line + at, sizeof(line) - at, " %u",
							       lat[k]);
				pr_info("rawread-lat:%s\n", line);
			}
		}
		qsort(lat, (size_t)completed, sizeof(*lat), cmp_u32);
		p50 = percentile(lat, completed, 50);
		p99 = percentile(lat, completed, 99);
		snprintf(crcs, sizeof(crcs), "%08x", crc);
		pr_info("rawread: %s %s bs=%llu KiB qd=%llu: %llu bytes in %.3f s: %.1f MB/s, "
			"%.0f IOPS, latency p50 %u us, p99 %u us, max %llu us%s%s\n",
			bdev->name, seq ? "seq" : "rand", (unsigned long long)bs,
			(unsigned long long)qd, (unsigned long long)bytes, secs,
			(double)bytes / 1e6 / secs, (double)completed / secs, p50, p99,
			(unsigned long long)max_lat, do_crc ? ", crc32 " : "", do_crc ? crcs : "");
		result_begin(&r, "rawread");
		result_str(&r, "disk", bdev->name);
		result_str(&r, "pattern", seq ? "seq" : "rand");
		result_u64(&r, "bs_kb", bs);
		result_u64(&r, "qd", qd);
		result_u64(&r, "bytes", bytes);
		result_double(&r, "secs", secs, 6);
		result_double(&r, "mbps", (double)bytes / 1e6 / secs, 2);
		result_double(&r, "iops", (double)completed / secs, 1);
		result_u64(&r, "p50_us", p50);
		result_u64(&r, "p99_us", p99);
		result_u64(&r, "max_us", max_lat);
		result_timing(&r, bdev);
		if (do_crc)
			result_str(&r, "crc32", crcs);
		result_end(&r);
	}
out:
	if (e.slots && io_drain(&e))
		io_free(&e);
	kfree(lat);
	return err;
}
KCMD(rawread, cmd_rawread,
     "rawread disk=N bs=KiB qd=N pattern=seq|rand count=N|mb=N [offset_mb=N] [seed=N] [crc=0] "
     "[lat=1]",
     "read the raw disk with qd reads in flight: MB/s, IOPS, latency, crc32 (seq)");
