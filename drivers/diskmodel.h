/*
 * A timing model of a disk drive (drivers/diskmodel.c, host-buildable), in
 * the spirit of Ruemmler and Wilkes, "An introduction to disk drive
 * modeling" (IEEE Computer, 1994) and DiskSim 4.0: by default the seeds'
 * 160 GB 7200 RPM Hitachi SATA II drive with an 8 MB buffer, or any drive
 * described by a parameter file (drivers/diskmodel-params.c; `bench
 * diskprobe` measures one from a real disk). The driver still moves every
 * byte through the real (emulated) disk; the model only says *when* the
 * drive would have finished each command, and the driver completes it then.
 *
 *	struct disk_model *m = dm_create("hitachi-t7k250", nr_sectors);
 *	dm_submit(m, tag, DM_READ, lba, nsect, now);	// when the command is issued
 *	t = dm_next_event(m);				// wake up at t (ns) ...
 *	while ((tag = dm_reap(m, now, &c)) >= 0)	// ... and end what finished
 *		...;
 *
 * Times are nanoseconds of the caller's clock (ktime_ns(), virtual under
 * QEMU -icount). Calls must come with non-decreasing times. The model is
 * deterministic: the same calls give the same answers.
 */
#ifndef DRIVERS_DISKMODEL_H
#define DRIVERS_DISKMODEL_H

#include "kernel/types.h"

enum dm_op { DM_READ, DM_WRITE, DM_FLUSH };

/*
 * One row of a drive's parameter table: a figure and the document it came
 * from. Rows of the tabled keys (rate_at, seek_at) also have a position @at.
 */
struct dm_param {
	const char *key;
	double at; /* rate_at: fraction of the capacity; seek_at: of the stroke */
	double value;
	const char *unit;
	const char *source;
};

struct dm_drive {
	const char *name; /* the disk_model= value, or the file's name line */
	const char *desc;
	const struct dm_param *params;
	int nr_params;
};

/* Counters; the *_ns fields are modelled time summed over commands. */
struct dm_stats {
	uint64_t commands, reads, writes, flushes;
	uint64_t buffer_hits;  /* served wholly from the buffer: bus transfer only */
	uint64_t stream_hits;  /* continued the drive's own look-ahead: no repositioning */
	uint64_t misses;       /* positioned: seek and/or head switch and rotation */
	uint64_t seeks;	       /* misses that moved the arm */
	uint64_t lookbehind;   /* misses that kept sectors before their start (look-behind) */
	uint64_t zero_latency; /* misses that started reading inside their range */
	uint64_t reordered;    /* NCQ: served before an older queued command */
	uint64_t aged;	       /* NCQ: the oldest went first only because it had waited too long */
	uint64_t sectors;
	uint64_t overhead_ns, seek_ns, rotate_ns, media_ns, bus_ns, hit_ns;
	uint64_t service_ns; /* command start to completion, summed */
	uint64_t busy_ns;    /* time the mechanism was held by a command */
	unsigned int max_queued;
};

/* What dm_reap() tells about one finished command. */
struct dm_completion {
	int tag;
	uint64_t arrive_ns, start_ns, done_ns;
	uint64_t seek_ns, rotate_ns, media_ns, bus_ns;
	bool buffer_hit, stream_hit;
};

#define DM_MAX_QUEUE 32
#define DM_NONE	     UINT64_MAX

struct disk_model;

/* The drives the model knows ("hitachi-t7k250"); NULL-terminated. */
extern const struct dm_drive *const dm_drives[];
const struct dm_drive *dm_find_drive(const char *name);
/* One scalar parameter of @drive by key; aborts (a table bug) when missing. */
double dm_param(const struct dm_drive *drive, const char *key);

/*
 * A model of @drive. The model always describes the whole drive; an image
 * of @image_sectors (0: the drive's size) is its first sectors. NULL when
 * the image is larger than the drive, a parameter is out of range, or
 * memory runs out (with a message naming it).
 */
struct disk_model *dm_create(const char *name, uint64_t image_sectors);
struct disk_model *dm_create_drive(const struct dm_drive *drive, uint64_t image_sectors);
void dm_destroy(struct disk_model *m);
const struct dm_drive *dm_drive_of(const struct disk_model *m);

/*
 * The host issued command @tag (0..DM_MAX_QUEUE-1, not already queued) at
 * @now. Returns 0, or -EINVAL for a bad tag or range, or a time before one
 * already given.
 */
int dm_submit(struct disk_model *m, int tag, enum dm_op op, uint64_t lba, uint32_t nsect,
	      uint64_t now);
/*
 * The earliest time something happens: a command finishes (or has
 * finished), or the mechanism picks the next queued command (then nothing
 * may be reaped yet: ask again). DM_NONE when nothing is queued.
 */
uint64_t dm_next_event(struct disk_model *m);
/* Pop one command finished by @now, oldest first: its tag, or -1. */
int dm_reap(struct disk_model *m, uint64_t now, struct dm_completion *c);
/* Forget every queued command (the host reset the device); the buffer is emptied. */
void dm_abort_all(struct disk_model *m, uint64_t now);
/*
 * Make the drive cold at @now, as at power-on: the buffer's segments empty,
 * no look-ahead, the heads parked on cylinder 0 and the platters' phase 0
 * at @now, so the same commands at the same times after @now complete at
 * the same times every time. The counters are kept. -EBUSY while a command
 * is queued or not yet reaped, -EINVAL for a time before one already given.
 */
int dm_cool(struct disk_model *m, uint64_t now);
/* Commands queued or in service, not yet reaped. */
unsigned int dm_queued(const struct disk_model *m);

const struct dm_stats *dm_stats(const struct disk_model *m);
/*
 * The parameter table, one "KEY [AT] VALUE UNIT SOURCE" line each, every
 * line after @prefix (the format parameter files use), then the derived
 * geometry (with @derived).
 */
void dm_print_params(const struct disk_model *m, const char *prefix, bool derived);
/* The derived geometry, seek curve and overhead, two lines after @prefix. */
void dm_print_derived(const struct disk_model *m, const char *prefix);
void dm_reset_stats(struct disk_model *m);

/* --- the model's figures, for calibration tests, the probe and the diskmodel command --- */

struct dm_geometry {
	uint64_t nr_sectors;
	uint32_t cylinders, heads, zones;
	uint32_t spt_outer, spt_inner; /* sectors per track, zone 0 and the last */
	double rev_ns, switch_ns, overhead_ns, bus_ns_per_byte;
	double seek_a, seek_b, seek_c, seek_e; /* a + b*sqrt(d) below seek_d0, c + e*d above */
	uint32_t seek_d0;
	bool seek_tabled; /* the seek curve interpolates measured points instead */
	/*
	 * Or a measured drive's curve scaled (seek_shape rows): k times its
	 * motion's time, scale its distance; its coast c + e*d from seek_d0 on.
	 */
	bool seek_shaped;
	double seek_shape_k, seek_shape_scale;
	double mean_random_seek_ns; /* over uniformly random LBA pairs, solved for the overhead */
	uint32_t segments, segment_sectors;
	uint32_t min_readahead; /* sectors read ahead before another command may move the head */
	bool lookahead, lookbehind, zero_latency;
	double aging_ns; /* NCQ: the longest a queued command is passed over */
};

void dm_geometry(const struct disk_model *m, struct dm_geometry *g);
/* Seek time in ns over @distance cylinders (0: none). */
double dm_seek_ns(const struct disk_model *m, uint32_t distance);
/* The cylinder of @lba. */
uint32_t dm_cylinder(const struct disk_model *m, uint64_t lba);
/* The zone of @lba. */
int dm_zone(const struct disk_model *m, uint64_t lba);
/* The first LBA of zone @z. */
uint64_t dm_zone_start(const struct disk_model *m, int z);
/* Sustained media rate of zone @z in bytes/s (head and cylinder switches included). */
double dm_zone_rate(const struct disk_model *m, int z);
/* Sectors per track of zone @z. */

#endif
