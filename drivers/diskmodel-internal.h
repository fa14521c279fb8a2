/*
 * The disk model's state, shared by its three parts: drivers/diskmodel-geom.c
 * (the drive's layout and mechanics: zones, tracks, angles, the seek curve
 * and the command overhead), drivers/diskmodel.c (making a model; the
 * buffer, the look-ahead, planning and serving commands, NCQ) and
 * drivers/diskmodel-report.c (the parameter table and derived figures
 * printed, the counters).
 */
#ifndef DRIVERS_DISKMODEL_INTERNAL_H
#define DRIVERS_DISKMODEL_INTERNAL_H

#include "drivers/diskmodel-params.h"
#include "drivers/diskmodel.h"

#define DM_MAX_ZONES	64
#define DM_MAX_SEGMENTS 64

struct dm_zone {
	uint64_t first_lba, first_track;
	uint32_t first_cyl, spt;
	double sector_ns;
};

struct dm_cmd {
	enum dm_op op;
	uint64_t lba;
	uint32_t n;
	uint64_t arrive, order;
	double start, done;
	double seek, rotate, media, bus, held; /* held: the mechanism's time */
	bool hit, stream, lookbehind, zero_latency;
};

struct dm_segment {
	uint64_t start, end; /* buffered LBAs [start, end); empty when equal */
	uint64_t used;	     /* LRU stamp */
};

/*
 * The read look-ahead: the head reads lba... from time (the head at the
 * start of lba, on its track), into segment seg, and pauses at limit (the
 * segment is full relative to what the host has taken). It is not stopped
 * by another command before it has read up to min_end.
 */
struct dm_lookahead {
	bool on;
	int seg;
	uint64_t lba, limit, min_end;
	double time;
	uint64_t track_before; /* where the head is before time (a switch under way) */
};

struct disk_model {
	const struct dm_drive *drive; /* the model's own copy */
	struct dm_config cfg;
	struct dm_geometry g;
	int nr_zones;
	struct dm_zone zones[DM_MAX_ZONES];
	double skew; /* track skew as a fraction of a revolution */
	/* a tabled seek curve: cylinder distances and times */
	int nr_seek_tab;
	double seek_tab_d[DM_MAX_POINTS], seek_tab_ns[DM_MAX_POINTS];

	struct dm_cmd cmds[DM_MAX_QUEUE]; /* by tag */
	uint32_t queued;		  /* waiting for the mechanism */
	uint32_t inflight;		  /* started; finishing at their done time */
	uint32_t finished;		  /* done, not yet reaped */
	double head_free;		  /* the mechanism takes the next command then */
	double bus_free;		  /* the SATA link is free from then on */
	uint64_t head_track;		  /* where the head is when no look-ahead runs */
	uint64_t order;
	uint64_t last_now; /* the latest time a caller gave: time never goes back */

	struct dm_lookahead la;
	struct dm_segment seg[DM_MAX_SEGMENTS];
	uint64_t seg_clock;
	/*
	 * The time at which the platters' phase was 0: 0 from power-on, the
	 * time of the last dm_cool() after that, so a cold disk starts each run
	 * with the same rotational position.
	 */
	double phase0;

	struct dm_stats st;
};

/* drivers/diskmodel-geom.c */
int dm_build_geometry(struct disk_model *m);
const struct dm_zone *dm_zone_of(const struct disk_model *m, uint64_t lba);
/* The track of @lba, and its sector on that track in *@sector (if not NULL). */
uint64_t dm_track_of(const struct disk_model *m, uint64_t lba, uint32_t *sector);
/* The first LBA of the track of @lba. */
uint64_t dm_track_start(const struct disk_model *m, uint64_t lba);
/* Where @lba's first byte passes under the head, as a fraction of a revolution. */
double dm_angle_of(const struct disk_model *m, uint64_t lba);
double dm_phase_at(const struct disk_model *m, double t);
/* Time to read [from, to) with the head at the start of @from. */
double dm_media_ns(const struct disk_model *m, uint64_t from, uint64_t to);
/* The first LBA not yet read @dt after the head started reading at @from (capped at @limit). */
uint64_t dm_media_reach(const struct disk_model *m, uint64_t from, uint64_t limit, double dt);
/* The first time at or after @t that the start of @lba passes under the head. */
double dm_next_pass(const struct disk_model *m, uint64_t lba, double t);
/* Seek, head switch or nothing from track @from to track @to. */
double dm_move_ns(const struct disk_model *m, uint64_t from, uint64_t to);

#endif
