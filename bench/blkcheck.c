/*
 * blkcheck: every byte of a disk checked against the LBA pattern.
 *
 *	blkcheck disk=N [mode=read|write] [mb=N]
 *
 * Reads of many sizes, offsets and queue depths (drivers/blk-io.c) compared
 * with the pattern tools/mkdisk wrote (drivers/blk-pattern.h), or with
 * mode=write (ahci_write=1) the pattern written, flushed and read back.
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

struct check_ctx {
	struct block_device *bdev;
	uint64_t reads, sectors, mismatches, errors;
	sector_t lba; /* next sector expected in the data walk */
	const char *phase;
	uint64_t rq_sector;
	uint32_t rq_bytes;
	unsigned int qd;
};

static void check_fn(void *arg, const uint8_t *p, uint32_t len)
{
	struct check_ctx *c = arg;

	for (uint32_t off = 0; off < len; off += SECTOR_SIZE, c->lba++) {
		uint8_t want = 0;
		int at = blk_pattern_check(c->lba, p + off, &want);

		c->sectors++;
		if (at < 0)
			continue;
		if (c->mismatches++ < 8)
			pr_err("blkcheck: %s: %s: sector %llu (in a %u-byte read at sector %llu, "
			       "qd %u): byte %d is %#04x, expected %#04x\n",
			       c->bdev->name, c->phase, (unsigned long long)c->lba, c->rq_bytes,
			       (unsigned long long)c->rq_sector, c->qd, at, p[off + at], want);
	}
}

static void fill_fn(void *arg, const uint8_t *p, uint32_t len)
{
	sector_t *lba = arg;

	for (uint32_t off = 0; off < len; off += SECTOR_SIZE)
		blk_pattern_fill((*lba)++, (uint8_t *)p + off);
}

/* The completed slot @s: count it and verify its data (reads). */
static void check_slot(struct check_ctx *c, struct io_slot *s)
{
	struct bio *bio = s->bio;

	c->reads++;
	if (bio->bi_status) {
		c->errors++;
		pr_err("blkcheck: %s: %s: %s of %u bytes at sector %llu failed at sector %llu "
		       "(error %d)\n",
		       c->bdev->name, c->phase, bio->bi_op == REQ_OP_READ ? "read" : "write",
		       bio->bi_size, (unsigned long long)bio->bi_sector,
		       (unsigned long long)bio->bi_error_sector, bio->bi_status);
		return;
	}
	if (bio->bi_op != REQ_OP_READ)
		return;
	c->lba = bio->bi_sector;
	c->rq_sector = bio->bi_sector;
	c->rq_bytes = bio->bi_size;
	io_for_each(s, check_fn, c);
}

/*
 * One phase: @n I/Os with @qd in flight; sizes and starts from @plan,
 * which returns the start sector, sets *bytes and *off (the buffer's
 * offset in its first page), for I/O number i.
 */
static int run_phase(struct check_ctx *c, struct io_engine *e, const char *phase, unsigned int qd,
		     uint64_t n, enum bio_op op,
		     sector_t (*plan)(uint64_t i, uint64_t *state, sector_t limit, uint32_t *bytes,
				      uint32_t *off),
		     sector_t limit)
{
	uint64_t state = 0x853c49e6748fea9bULL, issued = 0, done = 0;

	c->phase = phase;
	c->qd = qd;
	while (done < n) {
		if (issued < n && issued - done < qd) {
			struct io_slot *s = NULL;
			uint32_t bytes, off;
			sector_t sector;

			for (unsigned int i = 0; i < qd && !s; i++)
				if (!e->slots[i].busy)
					s = &e->slots[i];
			sector = plan(issued, &state, limit, &bytes, &off);
			if (op == REQ_OP_WRITE) {
				sector_t lba = sector;

				/* build the bio first so the walk covers exactly its fragments */
				s->bio->bi_vcnt = 0;
				s->bio->bi_size = 0;
				for (unsigned int p = 0, left = bytes, o = off; left; p++) {
					uint32_t take = min_t(uint32_t, left, PAGE_SIZE - o);

					bio_add_page(s->bio, s->pages[p], take, o);
					left -= take;
					o = 0;
				}
				io_for_each(s, fill_fn, &lba);
			}
			io_submit(s, op, sector, bytes, off, issued);
			issued++;
			continue;
		}
		struct io_slot *s = io_reap(e, NULL);

		if (!s)
			return -ETIMEDOUT;
		check_slot(c, s);
		done++;
	}
	return 0;
}

/*
 * Phase plans: every I/O stays inside [0, limit) sectors. The largest size
 * is 512 KiB above the queue's largest request, so the block layer splits
 * it (set per run: blkcheck_max_bytes()).
 */
static uint32_t check_max_bytes;

static uint32_t blkcheck_max_bytes(const struct block_device *bdev)
{
	return bdev->queue->max_sectors * SECTOR_SIZE + (512u << 10);
}

/* plan_sizes reaches sector 4095 + 4 * 2048 + check_max_bytes / 512: whole MiB */
static sector_t check_min_sectors(uint32_t max_bytes)
{
	return ALIGN_UP(4095 + 4 * 2048 + max_bytes / 512, 2048);
}

static sector_t plan_sizes(uint64_t i, uint64_t *state, sector_t limit, uint32_t *bytes,
			   uint32_t *off)
{
	static const uint32_t sizes[] = {512,	 1024,	  1536,		  4096,
					 4608,	 8192,	  65536,	  131072 - 512,
					 262144, 1048576, 1048576 + 3584, 0 /* the largest */};
	static const uint32_t starts[] = {0, 1, 3, 7, 8, 15, 4095};
	uint32_t b = sizes[i % ARRAY_SIZE(sizes)] ?: check_max_bytes;
	sector_t s = starts[(i / ARRAY_SIZE(sizes)) % ARRAY_SIZE(starts)] + 2048 * (i % 5);

	(void)state;
	*bytes = b;
	*off = (uint32_t)((i * 512) % PAGE_SIZE); /* every in-page offset of the buffer */
	return (s + b / 512 <= limit) ? s : 0;
}

static sector_t plan_random(uint64_t i, uint64_t *state, sector_t limit, uint32_t *bytes,
			    uint32_t *off)
{
	uint64_t r = prandom_u64(state);
	uint32_t sectors = 1 + (uint32_t)(r % 256); /* 512 B .. 128 KiB */

	(void)i;
	if (sectors > limit)
		sectors = (uint32_t)limit;
	*bytes = sectors * 512;
	*off = (uint32_t)((r >> 20) % 8) * 512;
	return (r >> 32) % (limit - sectors + 1);
}

/* Sequential 4 KiB pieces: with qd > the device's depth they merge in the queue. */
static sector_t plan_seq4k(uint64_t i, uint64_t *state, sector_t limit, uint32_t *bytes,
			   uint32_t *off)
{
	(void)state;
	*bytes = 4096;
	*off = 0;
	return (i * 8) % (limit - 7);
}

/* Whole-region writes of 64 KiB .. 1 MiB, sequential, so the region ends up patterned. */
static sector_t plan_fill(uint64_t i, uint64_t *state, sector_t limit, uint32_t *bytes,
			  uint32_t *off)
{
	sector_t start = i * 2048;

	(void)state;
	*bytes = (uint32_t)min_t(sector_t, 2048, limit - start) * 512;
	*off = (uint32_t)(i % 8) * 512;
	return start;
}

static int cmd_blkcheck(int argc, char **argv)
{
	static const char *const modes[] = {"read", "write", NULL};
	static const struct kv_spec specs[] = {
		{"disk", KV_UINT, NULL, "disk number (lsblk)"},
		{"mode", KV_ENUM, modes, "read (verify) or write (pattern, flush, verify)"},
		{"mb", KV_UINT, NULL, "MiB at the start of the disk to use (default: up to 64)"},
	};
	struct kv_value v[ARRAY_SIZE(specs)];
	struct block_device *bdev;
	struct check_ctx c = {0};
	struct io_engine e = {0};
	uint64_t t0 = ktime_ns();
	sector_t limit;
	bool write;
	int err = 0;
	struct result r;

	if (kcmd_args(argc, argv, specs, ARRAY_SIZE(specs), v, NULL))
		return -EINVAL;
	if (!(bdev = arg_disk("blkcheck", &v[0])))
		return -ENODEV;
	write = v[1].present && v[1].u == 1;
	if (bdev->logical_sector_size != SECTOR_SIZE) {
		pr_err("blkcheck: %s has %u-byte sectors; the LBA pattern needs 512\n", bdev->name,
		       bdev->logical_sector_size);
		return -EINVAL;
	}
	limit = min_t(sector_t, bdev->nr_sectors, 64 * 2048);
	if (v[2].present) {
		if (!v[2].u || v[2].u * 2048 > bdev->nr_sectors) {
			pr_err("blkcheck: mb=%llu: %s holds %llu MiB\n", (unsigned long long)v[2].u,
			       bdev->name, (unsigned long long)(bdev->nr_sectors >> 11));
			return -EINVAL;
		}
		limit = v[2].u * 2048;
	}
	check_max_bytes = blkcheck_max_bytes(bdev);
	if (limit < check_min_sectors(check_max_bytes)) {
		pr_err("blkcheck: %s: the region must hold at least %llu MiB\n", bdev->name,
		       (unsigned long long)(check_min_sectors(check_max_bytes) / 2048));
		return -EINVAL;
	}
	c.bdev = bdev;
	if (io_setup(&e, bdev, 32, check_max_bytes, PAGE_SIZE, true)) {
		pr_err("blkcheck: out of memory for 32 x %u KiB buffers\n", check_max_bytes / 1024);
		io_drain(&e);
		io_free(&e);
		return -ENOMEM;
	}
	if (write) {
		struct bio *flush = bio_alloc(1);

		err = run_phase(&c, &e, "write", 32, DIV_ROUND_UP(limit, 2048), REQ_OP_WRITE,
				plan_fill, limit);
		if (!err && flush) {
			flush->bi_op = REQ_OP_FLUSH;
			if (submit_bio_wait(bdev, flush)) {
				pr_err("blkcheck: %s: FLUSH CACHE failed (error %d)\n", bdev->name,
				       flush->bi_status);
				c.errors++;
			}
		}
		if (flush)
			bio_put(flush);
	}
	/* first a single small read: a disk without the pattern fails fast, clearly */
	if (!err)
		err = run_phase(&c, &e, "probe", 1, 1, REQ_OP_READ, plan_seq4k, limit);
	if (!err && c.mismatches) {
		pr_err("blkcheck: %s does not hold the LBA pattern (make one with tools/mkdisk "
		       "lba)\n",
		       bdev->name);
		err = -EINVAL;
	}
	if (!err)
		err = run_phase(&c, &e, "sizes and alignments", 1, 12 * 7 * 2, REQ_OP_READ,
				plan_sizes, limit);
	for (unsigned int qd = 2; !err && qd <= 32; qd *= 4) /* 2, 8, 32 */
		err = run_phase(&c, &e,
				qd == 32  ? "random, qd 32"
				: qd == 8 ? "random, qd 8"
					  : "random, qd 2",
				qd, 200, REQ_OP_READ, plan_random, limit);
	if (!err)
		err = run_phase(&c, &e, "sequential 4 KiB, qd 32", 32, 512, REQ_OP_READ, plan_seq4k,
				limit);
	if (!err)
		err = run_phase(&c, &e, "sizes and alignments, qd 32", 32, 12 * 7, REQ_OP_READ,
				plan_sizes, limit);

	pr_info("blkcheck: %s%s: %llu I/Os, %llu sectors verified, %llu mismatched, %llu failed, "
		"%.2f s\n",
		bdev->name, write ? " (written first)" : "", (unsigned long long)c.reads,
		(unsigned long long)c.sectors, (unsigned long long)c.mismatches,
		(unsigned long long)c.errors, (double)(ktime_ns() - t0) / 1e9);
	result_begin(&r, "blkcheck");
	result_str(&r, "disk", bdev->name);
	result_str(&r, "mode", write ? "write" : "read");
	result_u64(&r, "ios", c.reads);
	result_u64(&r, "sectors", c.sectors);
	result_u64(&r, "mismatches", c.mismatches);
	result_u64(&r, "errors", c.errors);
	result_bool(&r, "ok", !err && !c.mismatches && !c.errors);
	result_end(&r);
	if (io_drain(&e))
		io_free(&e);
	if (err)
		return err;
	return c.mismatches || c.errors ? -EIO : 0;
}
KCMD(blkcheck, cmd_blkcheck, "blkcheck disk=N [mode=read|write] [mb=N]",
     "verify every byte of many reads (sizes, alignments, queue depths) on an LBA-pattern disk");
