/*
 * Block layer commands and parameters (kernel only):
 *
 *	lsblk                         the disks, with their IDENTIFY data
 *	diskstats [disk=N] [reset=1]  /proc/diskstats-style counters and request sizes
 *	blockdev disk=N [ra_kb=N]     a disk's readahead window, elevator and congestion
 *	                              thresholds (as blockdev --setra)
 *	rawread disk=N bs=KiB qd=N pattern=seq|rand count=N|mb=N [offset_mb=N] [seed=N]
 *	        [crc=0] [lat=1]       read the raw device with qd bios in flight
 *	blkcheck disk=N [mode=read|write] [mb=N]
 *	                              every-byte verification against the LBA pattern
 *
 * rawread is the raw-device reference the file benchmarks are compared to:
 * MB/s (10^6 bytes), IOPS, per-bio latency percentiles, and for seq the
 * zlib crc32 of everything read, in order. The bios go straight to the
 * block layer (no page cache); each of the qd slots owns its buffer pages.
 * Under TCG the checksum costs more CPU than the emulated disk, so crc=0
 * measures the I/O alone. lat=1 also prints every read's response time, in
 * completion order, on "rawread-lat:" lines (tools/demerit compares two
 * runs' distributions).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/ahci.h"
#include "drivers/blk-cmd.h"
#include "drivers/blk-pattern.h"
#include "drivers/blkdev.h"
#include "drivers/diskmodel.h"
#include "kernel/cmd.h"
#include "kernel/crc32.h"
#include "kernel/init.h"
#include "kernel/log.h"
#include "kernel/param.h"
#include "kernel/result.h"
#include "kernel/time.h"
#include "mm/mm.h"
#include "mm/readahead.h"

KPARAM(blk_nr_requests, KV_UINT, NULL,
       "requests per disk queue (1..1024, default 128); reads are congested from 7/8 of it");
KPARAM(elevator, KV_ENUM, blk_elevator_names,
       "I/O scheduler of every disk: deadline (default, 2.6.20's deadline-iosched) or noop");

static int blk_init(void)
{
	uint64_t v;

	if (param_get_u64("blk_nr_requests", &v) == 0) {
		if (v < 1 || v > BLK_MAX_NR_REQUESTS) {
			pr_err("blk: blk_nr_requests=%llu is out of range 1..%u\n",
			       (unsigned long long)v, BLK_MAX_NR_REQUESTS);
			return -EINVAL;
		}
		blk_nr_requests_default = (unsigned int)v;
	}
	if (param_get_enum("elevator") >= 0)
		blk_elevator_default = (enum elevator_kind)param_get_enum("elevator");
	return 0;
}
INITCALL(INIT_SUBSYS, blk_init);

/* disk=N: the disk, or NULL after an error naming N. */
static struct block_device *arg_disk(const char *cmd, const struct kv_value *v)
{
	struct block_device *bdev;

	if (!v->present) {
		pr_err("%s: disk=N is required (%d disk(s) found)\n", cmd, blk_disk_count());
		return NULL;
	}
	bdev = v->u <= INT32_MAX ? blk_get_disk((int)v->u) : NULL;
	if (!bdev)
		pr_err("%s: disk=%llu does not exist (%d disk(s) found%s)\n", cmd,
		       (unsigned long long)v->u, blk_disk_count(),
		       blk_disk_count() ? "" : ": is a disk attached, in AHCI mode?");
	return bdev;
}

/* Close the array; after an overflow it is emptied, with a warning naming @cmd. */
const char *jend_array(struct json_buf *j, const char *cmd)
{
	if (!j->overflow)
		json_printf(j, "]");
	if (j->overflow) {
		pr_warn("%s: too much for one RESULT line; the list there is empty\n", cmd);
		snprintf(j->buf, sizeof(j->buf), "[]");
	}
	return j->buf;
}

/* --- lsblk ----------------------------------------------------------------- */

static int cmd_lsblk(int argc, char **argv)
{
	static struct json_buf j;
	char where[160];
	struct result r;
	int n = blk_disk_count();

	if (kcmd_args(argc, argv, NULL, 0, NULL, NULL))
		return -EINVAL;
	if (!n)
		pr_info("lsblk: no disks (none attached, or the controller is not in AHCI mode)\n");
	json_init(&j);
	json_printf(&j, "[");
	for (int i = 0; i < n; i++) {
		struct block_device *b = blk_get_disk(i);

		if (!ahci_describe(b, where, sizeof(where)))
			snprintf(where, sizeof(where), "no driver details");
		pr_info("%s  disk=%d  %llu MiB  %llu sectors  %u-byte sectors  model \"%s\"  "
			"serial \"%s\"  firmware \"%s\"  %s %u  max %u KiB  (%s)\n",
			b->name, i, (unsigned long long)(b->nr_sectors >> 11),
			(unsigned long long)b->nr_sectors, b->logical_sector_size, b->model,
			b->serial, b->firmware, b->ncq ? "NCQ depth" : "queue depth",
			b->queue_depth, b->max_sectors / 2, where);
		json_printf(&j,
			    "%s{\"name\":\"%s\",\"disk\":%d,\"sectors\":%llu,\"sector_size\":%u,"
			    "\"model\":",
			    i ? "," : "", b->name, i, (unsigned long long)b->nr_sectors,
			    b->logical_sector_size);
		json_string(&j, b->model);
		json_printf(&j, ",\"serial\":");
		json_string(&j, b->serial);
		json_printf(&j, ",\"firmware\":");
		json_string(&j, b->firmware);
		json_printf(&j, ",\"ncq\":%s,\"queue_depth\":%u,\"max_kb\":%u}",
			    b->ncq ? "true" : "false", b->queue_depth, b->max_sectors / 2);
	}
	result_begin(&r, "lsblk");
	result_u64(&r, "count", (uint64_t)n);
	result_raw(&r, "disks", jend_array(&j, "lsblk"));
	result_end(&r);
	return 0;
}
KCMD(lsblk, cmd_lsblk, "lsblk", "list the disks with their IDENTIFY data");

/* --- diskstats ------------------------------------------------------------------ */

static uint64_t ns_to_ms(uint64_t ns)
{
	return ns / NSEC_PER_MSEC;
}

void print_diskstats(struct block_device *b)
{
	const struct disk_stats *s = &b->stats;
	char hist[256];
	size_t at = 0;

	/* the /proc/diskstats columns, major 8 and minor 16 per disk as for sd */
	pr_info("%4d %7d %s %llu %llu %llu %llu %llu %llu %llu %llu %u %llu %llu\n", 8,
		16 * b->index, b->name, (unsigned long long)s->ios[0],
		(unsigned long long)s->merges[0], (unsigned long long)s->sectors[0],
		(unsigned long long)ns_to_ms(s->ticks_ns[0]), (unsigned long long)s->ios[1],
		(unsigned long long)s->merges[1], (unsigned long long)s->sectors[1],
		(unsigned long long)ns_to_ms(s->ticks_ns[1]), s->in_flight[0] + s->in_flight[1],
		(unsigned long long)ns_to_ms(s->io_ticks_ns),
		(unsigned long long)ns_to_ms(s->time_in_queue_ns));
	for (int i = 0; i < 16; i++)
		if (s->size_hist[i])
			at += (size_t)snprintf(hist + at, sizeof(hist) - at, " %u-%uK:%llu",
					       i ? 1u << i : 0, (2u << i) - 1,
					       (unsigned long long)s->size_hist[i]);
	pr_info("%s: request sizes%s; errors: %llu read, %llu write\n", b->name,
		at ? hist : " (none yet)", (unsigned long long)s->errors[0],
		(unsigned long long)s->errors[1]);
	if (b->queue) {
		const struct elevator_stats *e = &b->queue->elv;

		pr_info("%s: elevator %s: %llu dispatched, %llu ahead of an older request, %llu "
			"expired, %llu batches; read-congested %llu times; readahead %lu KiB\n",
			b->name, blk_elevator_names[b->queue->elevator],
			(unsigned long long)e->dispatched, (unsigned long long)e->sorted,
			(unsigned long long)e->expired, (unsigned long long)e->batches,
			(unsigned long long)e->congested, b->bdi.ra_pages * PAGE_SIZE / 1024);
	}
	if (b->dmodel) {
		const struct dm_stats *m = dm_stats(b->dmodel);

		pr_info("%s: modelled (%s): %llu commands: %llu buffer hits, %llu look-ahead "
			"hits, %llu misses (%llu seeks), %llu NCQ reorders; seek %llu ms, rotation "
			"%llu ms, media %llu ms, bus %llu ms, hits %llu ms, busy %llu ms; late "
			"real "
			"I/O %llu\n",
			b->name, dm_drive_of(b->dmodel)->name, (unsigned long long)m->commands,
			(unsigned long long)m->buffer_hits, (unsigned long long)m->stream_hits,
			(unsigned long long)m->misses, (unsigned long long)m->seeks,
			(unsigned long long)m->reordered, (unsigned long long)ns_to_ms(m->seek_ns),
			(unsigned long long)ns_to_ms(m->rotate_ns),
			(unsigned long long)ns_to_ms(m->media_ns),
			(unsigned long long)ns_to_ms(m->bus_ns),
			(unsigned long long)ns_to_ms(m->hit_ns),
			(unsigned long long)ns_to_ms(m->busy_ns),
			(unsigned long long)b->model_late);
	}
}

/* The disk model's counters as a JSON object ("null" without a model). */
void diskmodel_json(struct block_device *b, struct json_buf *j)
{
	const struct dm_stats *m;

	if (!b->dmodel) {
		json_printf(j, "null");
		return;
	}
	m = dm_stats(b->dmodel);
	json_printf(j,
		    "{\"drive\":\"%s\",\"commands\":%llu,\"buffer_hits\":%llu,"
		    "\"lookahead_hits\":%llu,\"misses\":%llu,\"seeks\":%llu,\"reordered\":%llu,"
		    "\"aged\":%llu,\"max_queued\":%u,\"overhead_us\":%llu,\"seek_us\":%llu,"
		    "\"rotate_us\":%llu,"
		    "\"media_us\":%llu,\"bus_us\":%llu,\"hit_us\":%llu,\"busy_us\":%llu,"
		    "\"host_late\":%llu,\"host_late_ms\":%llu}",
		    dm_drive_of(b->dmodel)->name, (unsigned long long)m->commands,
		    (unsigned long long)m->buffer_hits, (unsigned long long)m->stream_hits,
		    (unsigned long long)m->misses, (unsigned long long)m->seeks,
		    (unsigned long long)m->reordered, (unsigned long long)m->aged, m->max_queued,
		    (unsigned long long)(m->overhead_ns / 1000),
		    (unsigned long long)(m->seek_ns / 1000),
		    (unsigned long long)(m->rotate_ns / 1000),
		    (unsigned long long)(m->media_ns / 1000),
		    (unsigned long long)(m->bus_ns / 1000), (unsigned long long)(m->hit_ns / 1000),
		    (unsigned long long)(m->busy_ns / 1000), (unsigned long long)b->model_late,
		    (unsigned long long)(tsc_khz ? b->model_late_tsc / tsc_khz : 0));
}

static void diskstats_json(struct block_device *b, struct json_buf *j)
{
	const struct disk_stats *s = &b->stats;

	json_printf(
		j,
		"{\"name\":\"%s\",\"reads\":%llu,\"reads_merged\":%llu,\"sectors_read\":%llu,"
		"\"ms_reading\":%llu,\"writes\":%llu,\"writes_merged\":%llu,"
		"\"sectors_written\":%llu,\"ms_writing\":%llu,\"in_flight\":%u,\"ms_io\":%llu,"
		"\"ms_weighted\":%llu,\"read_errors\":%llu,\"write_errors\":%llu,\"size_hist\":[",
		b->name, (unsigned long long)s->ios[0], (unsigned long long)s->merges[0],
		(unsigned long long)s->sectors[0], (unsigned long long)ns_to_ms(s->ticks_ns[0]),
		(unsigned long long)s->ios[1], (unsigned long long)s->merges[1],
		(unsigned long long)s->sectors[1], (unsigned long long)ns_to_ms(s->ticks_ns[1]),
		s->in_flight[0] + s->in_flight[1], (unsigned long long)ns_to_ms(s->io_ticks_ns),
		(unsigned long long)ns_to_ms(s->time_in_queue_ns), (unsigned long long)s->errors[0],
		(unsigned long long)s->errors[1]);
	for (int i = 0; i < 16; i++)
		json_printf(j, "%s%llu", i ? "," : "", (unsigned long long)s->size_hist[i]);
	json_printf(j, "],\"disk_kind\":\"%s\"", blk_disk_kind(b));
	if (b->queue)
		json_printf(j,
			    ",\"elevator\":\"%s\",\"elv_dispatched\":%llu,\"elv_sorted\":%llu,"
			    "\"elv_expired\":%llu,\"congested\":%llu,\"ra_kb\":%lu",
			    blk_elevator_names[b->queue->elevator],
			    (unsigned long long)b->queue->elv.dispatched,
			    (unsigned long long)b->queue->elv.sorted,
			    (unsigned long long)b->queue->elv.expired,
			    (unsigned long long)b->queue->elv.congested,
			    b->bdi.ra_pages * PAGE_SIZE / 1024);
	json_printf(j, ",\"model\":");
	diskmodel_json(b, j);
	json_printf(j, "}");
}

/*
 * The disk=N filter of diskstats and diskmodel: parse @argv against @specs
 * (v[0] is disk=), set *@one (NULL: every disk) and open @j's JSON array.
 */
int disks_args(const char *cmd, int argc, char **argv, const struct kv_spec *specs, int n,
	       struct kv_value *v, struct block_device **one, struct json_buf *j)
{
	*one = NULL;
	if (kcmd_args(argc, argv, specs, n, v, NULL))
		return -EINVAL;
	if (v[0].present && !(*one = arg_disk(cmd, &v[0])))
		return -ENODEV;
	json_init(j);
	json_printf(j, "[");
	return 0;
}

static int cmd_diskstats(int argc, char **argv)
{
	static const struct kv_spec specs[] = {
		{"disk", KV_UINT, NULL, "only this disk"},
		{"reset", KV_BOOL, NULL, "zero the counters after printing"},
	};
	static struct json_buf j;
	struct kv_value v[ARRAY_SIZE(specs)];
	struct block_device *one;
	struct result r;
	int listed = 0, err;

	err = disks_args("diskstats", argc, argv, specs, ARRAY_SIZE(specs), v, &one, &j);
	if (err)
		return err;
	for (int i = 0; i < blk_disk_count(); i++) {
		struct block_device *b = blk_get_disk(i);

		if (one && b != one)
			continue;
		print_diskstats(b);
		if (listed++)
			json_printf(&j, ",");
		diskstats_json(b, &j);
		if (v[1].present && v[1].u)
			blk_reset_stats(b);
	}
	result_begin(&r, "diskstats");
	result_raw(&r, "disks", jend_array(&j, "diskstats"));
	result_end(&r);
	return 0;
}
KCMD(diskstats, cmd_diskstats, "diskstats [disk=N] [reset=1]",
     "per-disk I/O statistics as in /proc/diskstats, and request sizes");

/* --- blockdev ------------------------------------------------------------------ */

/* As blockdev --getra/--setra: one disk's default maximum readahead window. */
static int cmd_blockdev(int argc, char **argv)
{
	static const struct kv_spec specs[] = {
		{"disk", KV_UINT, NULL, "the disk"},
		{"ra_kb", KV_UINT, NULL, "set its readahead window for files opened from now on"},
	};
	struct kv_value v[ARRAY_SIZE(specs)];
	struct block_device *b;
	struct result r;

	if (kcmd_args(argc, argv, specs, ARRAY_SIZE(specs), v, NULL))
		return -EINVAL;
	if (!(b = arg_disk("blockdev", &v[0])))
		return -ENODEV;
	if (v[1].present) {
		if (!ra_kb_valid(v[1].u)) {
			pr_err("blockdev: ra_kb=%s: expected a multiple of %lu up to %u\n",
			       v[1].raw, PAGE_SIZE / 1024, RA_MAX_KB);
			return -EINVAL;
		}
		b->bdi.ra_pages = (unsigned long)(v[1].u * 1024 / PAGE_SIZE);
		b->bdi.ra_pages_set = true;
	}
	pr_info("%s: readahead %lu KiB, elevator %s, %u requests (read-congested from %u until "
		"below %u)\n",
		b->name, b->bdi.ra_pages * PAGE_SIZE / 1024, blk_elevator_names[b->queue->elevator],
		b->queue->nr_requests, b->queue->congestion_on, b->queue->congestion_off);
	result_begin(&r, "blockdev");
	result_str(&r, "disk", b->name);
	result_u64(&r, "ra_kb", b->bdi.ra_pages * PAGE_SIZE / 1024);
	result_str(&r, "elevator", blk_elevator_names[b->queue->elevator]);
	result_u64(&r, "nr_requests", b->queue->nr_requests);
	result_u64(&r, "congestion_on", b->queue->congestion_on);
	result_u64(&r, "congestion_off", b->queue->congestion_off);
	result_end(&r);
	return 0;
}
KCMD(blockdev, cmd_blockdev, "blockdev disk=N [ra_kb=N]",
     "a disk's readahead window (as blockdev --setra), elevator and congestion thresholds");

/* --- asynchronous bio slots, shared by rawread and blkcheck ------------------------------ */

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

/* Longest wait for any completion: the driver's own timeouts end bios long before. */
#define IO_STALL_NS (120 * NSEC_PER_SEC)

static void io_end(struct bio *bio)
{
	struct io_slot *s = bio->bi_private;

	s->end_ns = ktime_ns();
	s->done = true;
	s->eng->in_flight--;
	wake_up_all(&s->eng->wq);
}

static void io_free(struct io_engine *e)
{
	if (!e->slots)
		return;
	for (unsigned int i = 0; i < e->qd; i++) {
		struct io_slot *s = &e->slots[i];

		if (s->bio)
			bio_put(s->bio);
		for (unsigned int p = 0; s->pages && p < s->nr_pages; p++)
			if (s->pages[p])
				free_pages(s->pages[p], 0);
		kfree(s->pages);
	}
	kfree(e->slots);
	e->slots = NULL;
}

/* Frames in descending order: no page followed by the frame after it. */
static int pfn_descending(const void *a, const void *b)
{
	unsigned long x = page_to_pfn(*(struct page *const *)a);
	unsigned long y = page_to_pfn(*(struct page *const *)b);

	return x < y ? 1 : x > y ? -1 : 0;
}

/*
 * @qd slots of @max_bytes each (plus @max_off bytes of leading offset).
 * The pages come from the page cache's pool (page_cache_alloc(): the
 * kernel's heap is a small fixed window, and a raw read's buffers are what
 * RAM holds besides the cache, evicting it if need be). With @scatter the
 * pages of a slot are in descending frame order, so no two neighbours are
 * physically contiguous (the driver's scatter-gather list gets one entry
 * a page).
 */
static int io_setup(struct io_engine *e, struct block_device *bdev, unsigned int qd,
		    uint32_t max_bytes, uint32_t max_off, bool scatter)
{
	unsigned int nr_pages = DIV_ROUND_UP(max_bytes + max_off, PAGE_SIZE);

	memset(e, 0, sizeof(*e));
	e->bdev = bdev;
	e->qd = qd;
	init_waitqueue_head(&e->wq);
	e->slots = kcalloc(qd, sizeof(*e->slots));
	if (!e->slots)
		return -ENOMEM;
	for (unsigned int i = 0; i < qd; i++) {
		struct io_slot *s = &e->slots[i];

		s->eng = e;
		s->nr_pages = nr_pages;
		s->pages = kcalloc(nr_pages, sizeof(*s->pages));
		s->bio = bio_alloc(nr_pages);
		if (!s->pages || !s->bio)
			return -ENOMEM;
		for (unsigned int p = 0; p < nr_pages; p++) {
			struct page *pg = page_cache_alloc(NULL);

			if (!pg)
				return -ENOMEM;
			s->pages[p] = pg;
		}
		if (scatter)
			qsort(s->pages, nr_pages, sizeof(*s->pages), pfn_descending);
	}
	return 0;
}

/* Start @op of @bytes at @sector into slot @s, the data @off bytes into its first page. */
static void io_submit(struct io_slot *s, enum bio_op op, sector_t sector, uint32_t bytes,
		      uint32_t off, uint64_t tag)
{
	struct bio *bio = s->bio;

	bio->bi_vcnt = 0;
	bio->bi_size = 0;
	s->first_off = off;
	for (unsigned int p = 0; bytes; p++) {
		uint32_t take = min_t(uint32_t, bytes, PAGE_SIZE - off);

		bio_add_page(bio, s->pages[p], take, off);
		bytes -= take;
		off = 0;
	}
	bio->bi_op = op;
	bio->bi_sector = sector;
	bio->bi_end_io = io_end;
	bio->bi_private = s;
	s->tag = tag;
	s->busy = true;
	s->done = false;
	s->submit_ns = ktime_ns();
	s->eng->in_flight++;
	submit_bio(s->eng->bdev, bio);
}

/* Visit the data of slot @s in order: fn(ctx, bytes, len). */
static void io_for_each(struct io_slot *s, void (*fn)(void *ctx, const uint8_t *p, uint32_t len),
			void *ctx)
{
	for (unsigned int i = 0; i < s->bio->bi_vcnt; i++) {
		struct bio_vec *bv = &s->bio->bi_io_vec[i];

		fn(ctx, (const uint8_t *)page_address(bv->bv_page) + bv->bv_offset, bv->bv_len);
	}
}

/* Wait until slot @want (or, with NULL, any busy slot) is done; NULL after a stall. */
static struct io_slot *io_reap(struct io_engine *e, struct io_slot *want)
{
	struct io_slot *got = NULL;
	bool ok =
		wait_event_timeout(e->wq, ({
					   got = NULL;
					   if (want) {
						   if (want->done)
							   got = want;
					   } else {
						   for (unsigned int i = 0; i < e->qd && !got; i++)
							   if (e->slots[i].busy && e->slots[i].done)
								   got = &e->slots[i];
					   }
					   got != NULL;
				   }),
				   IO_STALL_NS);

	if (!ok) {
		pr_err("%s: no I/O completion for %llu s with %u in flight; giving up (their "
		       "buffers are leaked, not freed under the I/O)\n",
		       e->bdev->name, IO_STALL_NS / NSEC_PER_SEC, e->in_flight);
		return NULL;
	}
	got->busy = false;
	return got;
}

/* Drain before freeing: false if something never completed (then nothing is freed). */
static bool io_drain(struct io_engine *e)
{
	for (unsigned int i = 0; i < e->qd; i++)
		if (e->slots && e->slots[i].busy && !io_reap(e, &e->slots[i]))
			return false;
	return true;
}

/* --- rawread --------------------------------------------------------------------------- */

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

/* xorshift64*: reproducible random offsets for a given seed */
static uint64_t next_rand(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1DULL;
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
		seed = 0x9E3779B97F4A7C15ULL; /* xorshift has no zero state */
	if (qd > count) {
		printf("rawread: qd=%llu is more than the %llu reads of %s=%llu: lowered to %llu\n",
		       (unsigned long long)qd, (unsigned long long)count, v[4].present ? "count" : "mb",
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
			uint64_t blk = seq ? issued : next_rand(&seed) % region;

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

/* --- blkcheck ------------------------------------------------------------------------ */

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
	uint64_t r = next_rand(state);
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
