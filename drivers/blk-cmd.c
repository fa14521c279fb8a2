/*
 * Block layer commands and parameters (kernel only):
 *
 *	lsblk                         the disks, with their IDENTIFY data
 *	diskstats [disk=N] [reset=1]  /proc/diskstats-style counters and request sizes
 *	blockdev disk=N [ra_kb=N]     a disk's readahead window, elevator and congestion
 *	                              thresholds (as blockdev --setra)
 *
 * and the helpers the raw-device commands share (drivers/blk-cmd.h): rawread
 * (bench/rawread.c) and blkcheck (bench/blkcheck.c), benchmarks on the block
 * layer's I/O engine (drivers/blk-io.c).
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
#include "drivers/elevator.h"
#include "kernel/cmd.h"
#include "kernel/crc32.h"
#include "kernel/init.h"
#include "kernel/log.h"
#include "kernel/param.h"
#include "kernel/result.h"
#include "kernel/sched.h"
#include "kernel/time.h"
#include "mm/mm.h"
#include "mm/readahead.h"

KPARAM(blk_nr_requests, KV_UINT, NULL,
       "requests per disk queue (1..1024, default 128); reads are congested from 7/8 of it");
KPARAM_ENUM_FN(elevator, elv_names,
	       "I/O scheduler of every disk (drivers/NAME-iosched.c; default cfq, as 2.6.20)");

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
		elv_set_default(elv_names()[param_get_enum("elevator")]);
	/* a reader thread's elevator queue goes with it (2.6.20: exit_io_context()) */
	if (thread_exit_hook_register(elv_exit_ioc)) {
		pr_err("blk: no room for the elevators' thread-exit hook\n");
		return -ENOSPC;
	}
	return 0;
}
INITCALL(INIT_SUBSYS, blk_init);

/* disk=N: the disk, or NULL after an error naming N. */
struct block_device *arg_disk(const char *cmd, const struct kv_value *v)
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
			"serial \"%s\"  firmware \"%s\"  %s %u  max %u KiB  elevator %s  (%s)\n",
			b->name, i, (unsigned long long)(b->nr_sectors >> 11),
			(unsigned long long)b->nr_sectors, b->logical_sector_size, b->model,
			b->serial, b->firmware, b->ncq ? "NCQ depth" : "queue depth",
			b->queue_depth, b->max_sectors / 2, b->queue->elevator->name, where);
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
		json_printf(&j, ",\"ncq\":%s,\"queue_depth\":%u,\"max_kb\":%u,\"elevator\":\"%s\"}",
			    b->ncq ? "true" : "false", b->queue_depth, b->max_sectors / 2,
			    b->queue->elevator->name);
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
			"expired, %llu batches, %llu idle waits; read-congested %llu times; "
			"readahead %lu KiB\n",
			b->name, b->queue->elevator->name,
			(unsigned long long)e->dispatched, (unsigned long long)e->sorted,
			(unsigned long long)e->expired, (unsigned long long)e->batches,
			(unsigned long long)e->idled, (unsigned long long)e->congested, b->bdi.ra_pages * PAGE_SIZE / 1024);
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
			    "\"elv_expired\":%llu,\"elv_batches\":%llu,\"elv_idled\":%llu,"
			    "\"congested\":%llu,\"ra_kb\":%lu",
			    b->queue->elevator->name,
			    (unsigned long long)b->queue->elv.dispatched,
			    (unsigned long long)b->queue->elv.sorted,
			    (unsigned long long)b->queue->elv.expired,
			    (unsigned long long)b->queue->elv.batches,
			    (unsigned long long)b->queue->elv.idled,
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
		b->name, b->bdi.ra_pages * PAGE_SIZE / 1024, b->queue->elevator->name,
		b->queue->nr_requests, b->queue->congestion_on, b->queue->congestion_off);
	result_begin(&r, "blockdev");
	result_str(&r, "disk", b->name);
	result_u64(&r, "ra_kb", b->bdi.ra_pages * PAGE_SIZE / 1024);
	result_str(&r, "elevator", b->queue->elevator->name);
	result_u64(&r, "nr_requests", b->queue->nr_requests);
	result_u64(&r, "congestion_on", b->queue->congestion_on);
	result_u64(&r, "congestion_off", b->queue->congestion_off);
	result_end(&r);
	return 0;
}
KCMD(blockdev, cmd_blockdev, "blockdev disk=N [ra_kb=N]",
     "a disk's readahead window (as blockdev --setra), elevator and congestion thresholds");
