/*
 * The disk model's parameters (drivers/diskmodel-params.c, host-buildable):
 * every key the model reads, with its unit, range and meaning, named once
 * (DiskSim's disk.modspec does the same); the built-in drives' tables with
 * each figure's source (drivers/diskmodel-drives.c); and parameter files,
 * the untrusted text a user carries from another machine:
 *
 *	# comment
 *	name     probed-sda
 *	desc     what the drive is
 *	KEY      VALUE UNIT [SOURCE...]
 *	seek_at  AT VALUE ms [SOURCE...]	(tabled keys: rate_at, seek_at, seek_shape)
 *
 * The same lines that `diskmodel` and `bench diskprobe` print after their
 * prefix. A file is checked whole: an unknown, repeated or missing key, a
 * value out of range, a wrong unit or a malformed line is one error naming
 * the line and what it accepts, and no model is built from it.
 */
#ifndef DRIVERS_DISKMODEL_PARAMS_H
#define DRIVERS_DISKMODEL_PARAMS_H

#include "drivers/diskmodel.h"

#define DM_MAX_POINTS	  160 /* rows of a tabled key: a DIXtrac seek file's 151 fit */
/*
 * A seek_shape's fewest rows: its one-cylinder seek, and a coast of two
 * rows or more beyond half its last position (drivers/diskmodel-geom.c).
 */
#define DM_SHAPE_MIN_ROWS 4

/* The model's parameters as named fields, checked and in the table's units. */
struct dm_config {
	uint64_t capacity;
	double rpm;
	uint32_t heads, zones;
	double track_switch_ms;
	/* zones: linear from rate_outer to rate_inner over the stroke, or tabled */
	double rate_outer, rate_inner;
	int nr_rate_at;
	double rate_at[DM_MAX_POINTS], rate_mbps[DM_MAX_POINTS]; /* capacity fraction, MB/s */
	/* seek: through single/average/full, or tabled */
	double seek_single, seek_average, seek_full;
	int nr_seek_at;
	double seek_at[DM_MAX_POINTS], seek_ms[DM_MAX_POINTS]; /* stroke fraction, ms */
	/* a measured drive's curve (its stroke fractions, ms), scaled to the three figures */
	int nr_seek_shape;
	double seek_shape_at[DM_MAX_POINTS], seek_shape_ms[DM_MAX_POINTS];
	/* command overhead: given, or solved from Table 12's random reads (negative: not given) */
	double overhead_ms, random_4096_s;
	uint32_t buffer_kb, segments, min_readahead_kb;
	bool lookahead, lookbehind, zero_latency;
	double bus_rate;
	uint32_t ncq_depth;
	double ncq_aging_ms;
};

/* Check @d's table and fill @c; -EINVAL after one message naming the key. */
int dm_config_of(const struct dm_drive *d, struct dm_config *c);

/*
 * Parse the parameter file @text (@len bytes, not necessarily
 * NUL-terminated) named @fname in messages. Returns a drive to give
 * dm_create_drive() and free with dm_drive_free(), or NULL after writing
 * one message into @err (@errlen bytes) naming the line and what it accepts.
 */
struct dm_drive *dm_parse_params(const char *fname, const char *text, size_t len, char *err,
				 size_t errlen);
void dm_drive_free(struct dm_drive *d);
/* A deep copy of @d (dm_drive_free() frees it); NULL when memory runs out. */
struct dm_drive *dm_drive_dup(const struct dm_drive *d);

/*
 * A copy of @d with the scalar key @key set to @value (its source says it
 * was set, and what it was); NULL with a message in @err for an unknown
 * key or a value out of its range.
 */
struct dm_drive *dm_drive_set(const struct dm_drive *d, const char *key, double value, char *err,
			      size_t errlen);
/*
 * @text as a value of @key (diskmodel set=KEY=VALUE): a number in the key's
 * unit, or for a key in ms or s a time with a unit, such as 8500us or 0.5s
 * (kernel/kv.c's kv_parse_time()), in the key's unit. False if it is neither.
 */
bool dm_key_value(const char *key, const char *text, double *v);

/*
 * Kernel only (drivers/diskmodel-file.c): the drive of the parameter file
 * tools/run-qemu passed through fw_cfg, parsed once; NULL after a message.
 */
const struct dm_drive *dm_file_drive(void);

/* One table row as a parameter-file line (no newline); returns its length. */
int dm_format_param(char *buf, size_t len, const struct dm_param *p);

#endif
