/*
 * The disk model's keys, the built-in drive tables and parameter files
 * (see drivers/diskmodel-params.h).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/diskmodel-params.h"
#include "kernel/log.h"
#include "mm/mm.h"

/* --- the keys ------------------------------------------------------------------ */

/* Which keys stand in for which: a drive gives one side of each choice. */
enum dm_group {
	G_NONE,
	G_RATE,
	G_RATE_AT,
	G_SEEK,
	G_SEEK_AT,
	G_SEEK_SHAPE,
	G_OVH,
	G_OVH_RANDOM,
	G_CHECK
};

struct dm_key {
	const char *key;
	const char *unit;
	double min, max;
	bool integer, tabled;
	enum dm_group group;
	const char *help;
};

/* clang-format off */
static const struct dm_key dm_keys[] = {
	{"capacity", "sectors", 2048, 281474976710655.0, true, false, G_NONE,
	 "the drive's size in 512-byte sectors"},
	{"rpm", "rev/min", 1000, 30000, false, false, G_NONE, "spindle speed"},
	{"heads", "surfaces", 1, 64, true, false, G_NONE, "recording surfaces"},
	{"zones", "zones", 1, 64, true, false, G_NONE, "recording zones, of equal radial width"},
	{"track_switch", "ms", 0, 20, false, false, G_NONE,
	 "head or cylinder switch during a transfer (and the track skew)"},
	{"rate_outer", "MB/s", 1, 10000, false, false, G_RATE, "sustained rate of zone 0"},
	{"rate_inner", "MB/s", 1, 10000, false, false, G_RATE, "sustained rate of the last zone"},
	{"rate_at", "MB/s", 1, 10000, false, true, G_RATE_AT,
	 "sustained rate at a fraction of the capacity (tabled: AT VALUE)"},
	{"seek_single", "ms", 0.01, 100, false, false, G_SEEK, "single-cylinder seek"},
	{"seek_average", "ms", 0.01, 100, false, false, G_SEEK,
	 "average seek (weighted over all seek lengths)"},
	{"seek_full", "ms", 0.01, 100, false, false, G_SEEK, "full-stroke seek"},
	{"seek_at", "ms", 0.01, 100, false, true, G_SEEK_AT,
	 "seek over a fraction of the stroke (tabled: AT VALUE)"},
	{"seek_shape", "ms", 0.01, 100, false, true, G_SEEK_SHAPE,
	 "a measured drive's seek over a fraction of its stroke (tabled: AT VALUE; the first row "
	 "its one-cylinder seek): the curve's shape, scaled to seek_single, seek_average and "
	 "seek_full"},
	{"overhead", "ms", 0, 100, false, false, G_OVH, "command overhead"},
	{"random_4096", "s", 1, 1000000, false, false, G_OVH_RANDOM,
	 "4096 random single-sector reads, typical (the overhead is solved from it)"},
	{"seq_16m_zone0", "s", 0.001, 1000, false, false, G_CHECK,
	 "16 MiB in 128 commands, zone 0 (a check, not used by the model)"},
	{"seq_16m_zone29", "s", 0.001, 1000, false, false, G_CHECK,
	 "16 MiB in 128 commands, zone 29 (a check, not used by the model)"},
	{"buffer", "KiB", 64, 1048576, true, false, G_NONE, "the drive's buffer"},
	{"segments", "segments", 1, 64, true, false, G_NONE,
	 "buffer segments (each buffer/segments; a read's look-ahead fills its segment)"},
	{"lookahead", "bool", 0, 1, true, false, G_NONE,
	 "1: after a read the drive reads on into its segment (read look-ahead)"},
	{"lookbehind", "bool", 0, 1, true, false, G_NONE,
	 "1: sectors before a read's start that pass under the head are kept (DiskSim's "
	 "'Read any free blocks')"},
	{"zero_latency", "bool", 0, 1, true, false, G_NONE,
	 "1: a read whose head lands inside its range starts there (DiskSim's 'Immediate "
	 "buffer read')"},
	{"min_readahead", "KiB", 0, 1048576, true, false, G_NONE,
	 "read ahead at least this much before another command may move the head; 0: "
	 "stop for any command off the current track"},
	{"bus_rate", "MB/s", 1, 100000, false, false, G_NONE, "buffer-host transfer rate"},
	{"ncq_depth", "commands", 1, 32, true, false, G_NONE, "NCQ queue depth"},
	{"ncq_aging", "ms", 1, 1000000, false, false, G_NONE,
	 "the longest shortest-positioning-first passes a queued command over"},
};
/* clang-format on */

#define NR_KEYS ((int)(sizeof(dm_keys) / sizeof(dm_keys[0])))

static const struct dm_key *key_of(const char *key)
{
	for (int i = 0; i < NR_KEYS; i++)
		if (!strcmp(dm_keys[i].key, key))
			return &dm_keys[i];
	return NULL;
}

/* "rpm (rev/min, 1000..30000: spindle speed)" */
static void describe_key(char *buf, size_t len, const struct dm_key *k)
{
	snprintf(buf, len, "%s%s (%s, %g..%g%s: %s)", k->key, k->tabled ? " AT" : "", k->unit,
		 k->min, k->max, k->integer ? ", whole" : "", k->help);
}

/* --- the built-in drives ---------------------------------------------------------- */

/*
 * The seeds' drive: "160G/8M Hitachi SATA II 7200 RPM". The 160 GB SATA II
 * Hitachi with NCQ and an 8 MB buffer of 2006-2007 is the Deskstar T7K250
 * HDT722516DLA380 (its 7K160 sibling has the same mechanics). Sources:
 *   [T7K250]  Hitachi Deskstar T7K250 Hard Disk Drive Specification v1.8
 *             (4.5.5 Throughput, Tables 11 and 12; Latency; Buffer; interface)
 *   [T7K250b] Hitachi's T7K250 product figures (as tabled in The Tech Report's
 *             review "Hitachi's Deskstar T7K250 hard drive"): sustained
 *             32.9-67.8 MB/s, 8.5 ms average read seek, 125 GB platters
 *   [7K160]   Hitachi Deskstar 7K160 specification: read look-ahead into the buffer
 *   [7K320]   Hitachi Deskstar 7K320 SATA OEM Specification, 4.4.2.2-4.4.2.3
 *             (full-stroke and single-track seek; no T7K250 figure published)
 *   [7K500]   Hitachi Deskstar 7K500 Specification, Table 10 (instantaneous
 *             and sustained rates of zones 0 and 29) and 4.4.4's formula
 *   [IDEMA]   IDEMA LBA1-02 capacity formula: 97,696,368 + 1,953,504 * (GB - 50)
 *   [ibm18es] DiskSim 4.0 valid/ibm18es.diskspecs: IBM DNES-309170W, 7200 RPM,
 *             the Deskstar line's IBM ancestry, its buffer measured by DIXtrac
 *             (westerndigitalcorporation/DiskSim); valid/ibm18es.seek and
 *             ibm18es.model: its seek curve as DIXtrac extracted it, 151
 *             distances over its 11474 cylinders ("Seek type = extracted")
 *   [atlas10k] the same for the Quantum Atlas 10K (valid/atlas10k.diskspecs)
 *   [C15K600] HGST Ultrastar C15K600 specification, mode page 08h (Minimum Pre-fetch)
 * Hitachi's desktop specifications publish no buffer segmentation and no
 * look-ahead or look-behind rules; those rows come from the analogues.
 * MB here is 10^6 bytes, as in Hitachi's documents.
 */
#define ROW(k, v, u, s)       \
	{                     \
		k, 0, v, u, s \
	}
/*
 * [ibm18es]'s measured seek curve, the shape the T7K250's three seek figures
 * scale (drivers/diskmodel-geom.c): distance in cylinders over its stroke of
 * 11473, time in ms. Of the 7200 RPM drives DiskSim holds extracted curves
 * for (IBM DNES-309170W, Seagate ST32171W, Quantum Atlas III), it is the
 * Deskstar line's own ancestor and the source of the buffer rows below.
 * Two of its 151 points are left out: 10 and 3400 cylinders at 1.020 and
 * 1.026 ms, under its one-cylinder seek (1.062 ms) and far under their
 * neighbours (1.749 and 7.373 ms): failed measurements, not seeks.
 */
#define SHAPE(cyl, ms)                                                            \
	{                                                                         \
		"seek_shape", (cyl) / 11473.0, ms, "ms", "[ibm18es] ibm18es.seek" \
	}
static const struct dm_param t7k250_params[] = {
	ROW("capacity", 312581808, "sectors", "[IDEMA] 160 GB; [T7K250] HDT722516DLA380 160 GB"),
	ROW("rpm", 7200, "rev/min", "[T7K250] Latency table: 8.3 ms a revolution, 4.17 ms average"),
	ROW("heads", 3, "surfaces",
	    "[T7K250b] 125 GB platters: 160 GB needs 3 surfaces of 62.5 GB"),
	ROW("zones", 30, "zones", "[7K500] zones 0-29 (the Deskstar family's 30 zones)"),
	ROW("track_switch", 1.479, "ms",
	    "[7K500] Table 10: sustained/instantaneous = 64.8/76.3 (zone 0), 31.0/36.5 "
	    "(zone 29) = T_rev/(T_rev+t_switch) in 4.4.4's formula: t_switch = 1.479 ms"),
	ROW("rate_outer", 67.8, "MB/s", "[T7K250b] sustained transfer rate, outer zone"),
	ROW("rate_inner", 32.9, "MB/s", "[T7K250b] sustained transfer rate, inner zone"),
	ROW("seek_single", 1.0, "ms",
	    "[7K320] 4.4.2.3 single track seek, read, typical. Between the three figures the "
	    "curve has [ibm18es]'s measured shape (the seek_shape rows)"),
	ROW("seek_average", 8.5, "ms", "[T7K250b] average read seek (with settling), typical"),
	ROW("seek_full", 20.0, "ms", "[7K320] 4.4.2.2 full stroke seek, read, typical"),
	/* clang-format off */
	SHAPE(1, 1.062), SHAPE(2, 1.477), SHAPE(3, 1.558), SHAPE(4, 1.586), SHAPE(5, 1.625),
	SHAPE(6, 1.718), SHAPE(7, 1.722), SHAPE(8, 1.719), SHAPE(9, 1.749), SHAPE(12, 1.823),
	SHAPE(14, 1.863), SHAPE(16, 1.894), SHAPE(18, 1.898), SHAPE(20, 2), SHAPE(25, 2.221),
	SHAPE(30, 2.261), SHAPE(35, 2.311), SHAPE(40, 2.411), SHAPE(45, 2.366), SHAPE(50, 2.514),
	SHAPE(60, 2.458), SHAPE(70, 2.456), SHAPE(80, 2.598), SHAPE(90, 2.616), SHAPE(100, 2.622),
	SHAPE(125, 2.94), SHAPE(150, 2.86), SHAPE(175, 3.645), SHAPE(200, 3.782),
	SHAPE(225, 3.807), SHAPE(250, 3.929), SHAPE(275, 3.997), SHAPE(300, 4.004),
	SHAPE(325, 3.997), SHAPE(350, 4.143), SHAPE(375, 4.206), SHAPE(400, 4.122),
	SHAPE(425, 4.088), SHAPE(450, 4.21), SHAPE(475, 4.331), SHAPE(500, 4.187),
	SHAPE(600, 4.451), SHAPE(700, 4.582), SHAPE(800, 4.694), SHAPE(900, 4.848),
	SHAPE(1000, 4.958), SHAPE(1100, 5.049), SHAPE(1200, 5.209), SHAPE(1300, 5.243),
	SHAPE(1400, 5.357), SHAPE(1500, 5.47), SHAPE(1600, 5.561), SHAPE(1700, 5.693),
	SHAPE(1800, 5.794), SHAPE(1900, 5.868), SHAPE(2000, 5.895), SHAPE(2100, 6.032),
	SHAPE(2200, 6.151), SHAPE(2300, 6.219), SHAPE(2400, 6.369), SHAPE(2500, 6.516),
	SHAPE(2600, 6.631), SHAPE(2700, 6.724), SHAPE(2800, 6.839), SHAPE(2900, 6.891),
	SHAPE(3000, 7.078), SHAPE(3100, 7.233), SHAPE(3200, 7.253), SHAPE(3300, 7.373),
	SHAPE(3500, 7.643), SHAPE(3600, 7.621), SHAPE(3700, 7.694), SHAPE(3800, 7.733),
	SHAPE(3900, 7.736), SHAPE(4000, 7.7), SHAPE(4100, 7.787), SHAPE(4200, 7.793),
	SHAPE(4300, 7.842), SHAPE(4400, 7.919), SHAPE(4500, 7.971), SHAPE(4600, 8.006),
	SHAPE(4700, 8.057), SHAPE(4800, 8.077), SHAPE(4900, 8.126), SHAPE(5000, 7.833),
	SHAPE(5100, 7.917), SHAPE(5200, 8.329), SHAPE(5300, 8.447), SHAPE(5400, 8.752),
	SHAPE(5500, 8.882), SHAPE(5600, 8.762), SHAPE(5700, 8.915), SHAPE(5800, 8.957),
	SHAPE(5900, 9.121), SHAPE(6000, 9.067), SHAPE(6100, 9.33), SHAPE(6200, 9.293),
	SHAPE(6300, 9.387), SHAPE(6400, 9.382), SHAPE(6500, 9.48), SHAPE(6600, 9.596),
	SHAPE(6700, 9.64), SHAPE(6800, 9.762), SHAPE(6900, 9.823), SHAPE(7000, 9.702),
	SHAPE(7100, 9.811), SHAPE(7200, 9.849), SHAPE(7300, 10.141), SHAPE(7400, 10.073),
	SHAPE(7500, 10.178), SHAPE(7600, 10.224), SHAPE(7700, 10.316), SHAPE(7800, 10.294),
	SHAPE(7900, 10.403), SHAPE(8000, 10.439), SHAPE(8100, 10.504), SHAPE(8200, 10.601),
	SHAPE(8300, 10.62), SHAPE(8400, 10.772), SHAPE(8500, 10.745), SHAPE(8600, 10.966),
	SHAPE(8700, 10.909), SHAPE(8800, 11.047), SHAPE(8900, 11.137), SHAPE(9000, 11.164),
	SHAPE(9100, 11.281), SHAPE(9200, 11.334), SHAPE(9300, 11.257), SHAPE(9400, 11.345),
	SHAPE(9500, 11.486), SHAPE(9600, 11.504), SHAPE(9700, 11.645), SHAPE(9800, 11.702),
	SHAPE(9900, 11.66), SHAPE(10000, 11.813), SHAPE(10100, 11.86), SHAPE(10200, 11.906),
	SHAPE(10300, 12.1), SHAPE(10400, 12.075), SHAPE(10500, 12.11), SHAPE(10600, 12.234),
	SHAPE(10700, 12.229), SHAPE(10800, 12.391), SHAPE(10900, 12.388), SHAPE(11000, 12.445),
	SHAPE(11100, 12.604), SHAPE(11200, 12.655), SHAPE(11300, 12.662), SHAPE(11377, 12.853),
	/* clang-format on */
	ROW("random_4096", 54.6, "s",
	    "[T7K250] Table 12: 4096 random single-sector reads, typical (105% of T); "
	    "solved for the command overhead A in T = 4096(A + B + C + 512/D + 512/E) with B "
	    "the model's own mean seek over random LBAs"),
	ROW("seq_16m_zone0", 0.28, "s",
	    "[T7K250] Table 11: 16 MiB in 128 commands, zone 0 (calibration check only)"),
	ROW("seq_16m_zone29", 0.55, "s",
	    "[T7K250] Table 11: 16 MiB in 128 commands, zone 29 (calibration check only)"),
	ROW("buffer", 8192, "KiB", "[T7K250] 8 MB buffer"),
	ROW("segments", 7, "segments",
	    "[ibm18es] 7 buffer segments (DIXtrac's measurement of the nearest analogue); "
	    "[atlas10k] 10; [T7K250] publishes none; each segment is buffer/7"),
	ROW("lookahead", 1, "bool",
	    "[7K160] read look-ahead after a read; [ibm18es] 'Buffer continuous read = 3' "
	    "(until the segment is full) with 'Maximum read-ahead' = the segment"),
	ROW("lookbehind", 1, "bool",
	    "[ibm18es] 'Read any free blocks = 1' (and [atlas10k]; the Seagate files: 0); "
	    "Hitachi publishes no rule"),
	ROW("zero_latency", 0, "bool",
	    "[ibm18es] 'Immediate buffer read = 0' ([atlas10k]: 1); Hitachi publishes no rule"),
	ROW("min_readahead", 0, "KiB",
	    "[ibm18es] 'Minimum read-ahead = 0'; [C15K600] mode page 08h: minimum pre-fetch 0 "
	    "stops the read-ahead when a command arrives, except on the current head and track"),
	ROW("bus_rate", 300, "MB/s", "[T7K250] SATA 3.0 Gb/s: 300 MB/s buffer-host"),
	ROW("ncq_depth", 32, "commands", "[T7K250] Native Command Queuing, 32 tags"),
	ROW("ncq_aging", 1000, "ms",
	    "assumed: drives bound how long shortest-positioning-first may pass a queued "
	    "command over; the limit is not published. A command older than this goes next"),
};
#undef ROW

static const struct dm_drive t7k250 = {
	.name = "hitachi-t7k250",
	.desc = "Hitachi Deskstar T7K250 HDT722516DLA380, 160 GB, 7200 RPM, 8 MB, SATA II NCQ",
	.params = t7k250_params,
	.nr_params = sizeof(t7k250_params) / sizeof(t7k250_params[0]),
};

const struct dm_drive *const dm_drives[] = {&t7k250, NULL};

const struct dm_drive *dm_find_drive(const char *name)
{
	for (int i = 0; dm_drives[i]; i++)
		if (!strcmp(dm_drives[i]->name, name))
			return dm_drives[i];
	return NULL;
}

static const struct dm_param *find_row(const struct dm_drive *d, const char *key)
{
	for (int i = 0; i < d->nr_params; i++)
		if (!strcmp(d->params[i].key, key))
			return &d->params[i];
	return NULL;
}

double dm_param(const struct dm_drive *drive, const char *key)
{
	const struct dm_param *p = find_row(drive, key);

	if (!p)
		panic("diskmodel: drive %s has no parameter %s", drive->name, key);
	return p->value;
}

int dm_format_param(char *buf, size_t len, const struct dm_param *p)
{
	const struct dm_key *k = key_of(p->key);
	char at[24] = "";

	if (k && k->tabled)
		snprintf(at, sizeof(at), "%.10g ", p->at);
	return snprintf(buf, len, "%-14s %s%.10g %s %s", p->key, at, p->value, p->unit,
			p->source ? p->source : "");
}

/* --- checking a table ------------------------------------------------------------- */

struct dm_err {
	char *buf;
	size_t len;
};

/* One message naming @key and what it accepts; returns -EINVAL. */
static int check_fail(struct dm_err *e, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int check_fail(struct dm_err *e, const char *key, const char *fmt, ...)
{
	const struct dm_key *k = key_of(key);
	char what[256] = "";
	va_list ap;
	int o;

	if (k)
		describe_key(what, sizeof(what), k);
	va_start(ap, fmt);
	o = vsnprintf(e->buf, e->len, fmt, ap);
	va_end(ap);
	if (k && o >= 0 && (size_t)o < e->len)
		snprintf(e->buf + o, e->len - o, ": %s", what);
	return -EINVAL;
}

/* Tabled rows of @key into @at/@v: increasing positions in [0, 1], from 0 when @from_zero. */
static int tabled(struct dm_err *e, const struct dm_drive *d, const char *key, double *at,
		  double *v, int *n, bool from_zero)
{
	*n = 0;
	for (int i = 0; i < d->nr_params; i++) {
		const struct dm_param *p = &d->params[i];

		if (strcmp(p->key, key))
			continue;
		if (*n == DM_MAX_POINTS)
			return check_fail(e, key, "more than %d '%s' rows", DM_MAX_POINTS, key);
		if (!(p->at >= 0 && p->at <= 1) || (*n && p->at <= at[*n - 1]) ||
		    (from_zero && !*n && p->at != 0) || (!from_zero && p->at <= 0))
			return check_fail(
				e, key, "'%s' rows need increasing positions in %s (row at %g)",
				key, from_zero ? "[0, 1], the first at 0" : "(0, 1]", p->at);
		at[*n] = p->at;
		v[*n] = p->value;
		(*n)++;
	}
	return 0;
}

static int config_check(const struct dm_drive *d, struct dm_config *c, struct dm_err *e)
{
	bool have[G_CHECK + 1] = {false};

	memset(c, 0, sizeof(*c));
	c->overhead_ms = c->random_4096_s = -1;
	for (int i = 0; i < d->nr_params; i++) {
		const struct dm_param *p = &d->params[i];
		const struct dm_key *k = key_of(p->key);

		if (!k)
			return check_fail(e, p->key, "unknown key '%s'", p->key);
		if (!(p->value >= k->min && p->value <= k->max) ||
		    (k->integer && p->value != floor(p->value)))
			return check_fail(e, p->key, "%s %g is out of range", p->key, p->value);
		have[k->group] = true;
	}
	/* every plain key once, and one side of each choice */
	for (int i = 0; i < NR_KEYS; i++) {
		const struct dm_key *k = &dm_keys[i];
		int n = 0;

		for (int j = 0; j < d->nr_params; j++)
			n += !strcmp(d->params[j].key, k->key);
		if (n > 1 && !k->tabled)
			return check_fail(e, k->key, "'%s' is given twice", k->key);
		if (n == 0 && (k->group == G_NONE || (k->group == G_RATE && !have[G_RATE_AT]) ||
			       (k->group == G_SEEK && !have[G_SEEK_AT]) ||
			       (k->group == G_OVH && !have[G_OVH_RANDOM])))
			return check_fail(e, k->key, "missing key '%s'", k->key);
	}
	if (have[G_RATE] && have[G_RATE_AT])
		return check_fail(e, "rate_at",
				  "give rate_outer and rate_inner or rate_at rows, "
				  "not both");
	if (have[G_SEEK] && have[G_SEEK_AT])
		return check_fail(e, "seek_at",
				  "give seek_single, seek_average and seek_full or "
				  "seek_at rows, not both");
	if (have[G_SEEK_SHAPE] && !have[G_SEEK])
		return check_fail(e, "seek_shape",
				  "seek_shape rows are scaled to seek_single, seek_average "
				  "and seek_full: give those three");
	if (have[G_OVH] && have[G_OVH_RANDOM])
		return check_fail(e, "overhead", "give overhead or random_4096, not both");
	c->capacity = (uint64_t)dm_param(d, "capacity");
	c->rpm = dm_param(d, "rpm");
	c->heads = (uint32_t)dm_param(d, "heads");
	c->zones = (uint32_t)dm_param(d, "zones");
	c->track_switch_ms = dm_param(d, "track_switch");
	if (have[G_RATE]) {
		c->rate_outer = dm_param(d, "rate_outer");
		c->rate_inner = dm_param(d, "rate_inner");
	} else {
		if (tabled(e, d, "rate_at", c->rate_at, c->rate_mbps, &c->nr_rate_at, true))
			return -EINVAL;
		if (c->nr_rate_at < 2)
			return check_fail(e, "rate_at", "rate_at needs two rows or more");
	}
	if (have[G_SEEK]) {
		c->seek_single = dm_param(d, "seek_single");
		c->seek_average = dm_param(d, "seek_average");
		c->seek_full = dm_param(d, "seek_full");
		if (!(c->seek_single < c->seek_average && c->seek_average < c->seek_full))
			return check_fail(e, "seek_average",
					  "want seek_single < seek_average < seek_full");
		if (tabled(e, d, "seek_shape", c->seek_shape_at, c->seek_shape_ms,
			   &c->nr_seek_shape, false))
			return -EINVAL;
		if (have[G_SEEK_SHAPE] && c->nr_seek_shape < DM_SHAPE_MIN_ROWS)
			return check_fail(e, "seek_shape", "seek_shape needs %d rows or more",
					  DM_SHAPE_MIN_ROWS);
	} else {
		if (tabled(e, d, "seek_at", c->seek_at, c->seek_ms, &c->nr_seek_at, false))
			return -EINVAL;
		if (c->nr_seek_at < 2 || c->seek_at[c->nr_seek_at - 1] != 1)
			return check_fail(e, "seek_at",
					  "seek_at needs two rows or more, the last "
					  "at 1 (the full stroke)");
	}
	if (have[G_OVH])
		c->overhead_ms = dm_param(d, "overhead");
	else
		c->random_4096_s = dm_param(d, "random_4096");
	c->buffer_kb = (uint32_t)dm_param(d, "buffer");
	c->segments = (uint32_t)dm_param(d, "segments");
	c->lookahead = dm_param(d, "lookahead") != 0;
	c->lookbehind = dm_param(d, "lookbehind") != 0;
	c->zero_latency = dm_param(d, "zero_latency") != 0;
	c->min_readahead_kb = (uint32_t)dm_param(d, "min_readahead");
	c->bus_rate = dm_param(d, "bus_rate");
	c->ncq_depth = (uint32_t)dm_param(d, "ncq_depth");
	c->ncq_aging_ms = dm_param(d, "ncq_aging");
	if (c->buffer_kb / c->segments < 4)
		return check_fail(e, "segments", "a segment (buffer/segments) under 4 KiB");
	if (c->min_readahead_kb > c->buffer_kb / c->segments)
		return check_fail(e, "min_readahead",
				  "min_readahead is more than a segment "
				  "(buffer/segments = %u KiB)",
				  c->buffer_kb / c->segments);
	return 0;
}

int dm_config_of(const struct dm_drive *d, struct dm_config *c)
{
	char msg[384];
	struct dm_err e = {msg, sizeof(msg)};

	if (!config_check(d, c, &e))
		return 0;
	pr_err("diskmodel: %s: %s\n", d->name, msg);
	return -EINVAL;
}

/* --- parameter files --------------------------------------------------------------- */

#define DM_FILE_MAX 65536
#define DM_LINE_MAX 512
#define DM_ROWS_MAX (NR_KEYS + 3 * DM_MAX_POINTS) /* three tabled keys */

/* One allocation: the drive, its rows and a copy of the text the strings point into. */
struct dm_parsed {
	struct dm_drive drive;
	struct dm_param rows[DM_ROWS_MAX];
	char text[];
};

/* A whole number or a finite decimal; *end gets where it stopped. */
static bool parse_number(const char *s, double *v)
{
	char *end;

	if (!*s || strlen(s) > 40 || strpbrk(s, "xXpPnNiI"))
		return false; /* no hex floats, inf or nan */
	*v = strtod(s, &end);
	return *end == 0 && isfinite(*v);
}

/* The next space-separated word of *@p (NUL-terminated in place), or NULL. */
static char *next_word(char **p)
{
	char *s = *p, *w;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s)
		return NULL;
	w = s;
	while (*s && *s != ' ' && *s != '\t')
		s++;
	if (*s)
		*s++ = 0;
	*p = s;
	return w;
}

static char *trim(char *s)
{
	size_t n;

	while (*s == ' ' || *s == '\t')
		s++;
	n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = 0;
	return s;
}

struct dm_drive *dm_parse_params(const char *fname, const char *text, size_t len, char *err,
				 size_t errlen)
{
	struct dm_parsed *pd;
	char *s, *line, what[256];
	int lineno = 0, n = 0;

#define FAIL(...)                                                          \
	do {                                                               \
		int __o = snprintf(err, errlen, "diskmodel: %s: ", fname); \
		if (__o > 0 && (size_t)__o < errlen)                       \
			snprintf(err + __o, errlen - __o, __VA_ARGS__);    \
		goto fail;                                                 \
	} while (0)

	if (len > DM_FILE_MAX) {
		snprintf(err, errlen, "diskmodel: %s: %zu bytes, more than a parameter file's %u",
			 fname, len, DM_FILE_MAX);
		return NULL;
	}
	if (memchr(text, 0, len)) {
		const char *z = memchr(text, 0, len);
		int at = 1;

		for (const char *q = text; q < z; q++)
			at += *q == '\n';
		snprintf(err, errlen,
			 "diskmodel: %s: line %d: a NUL byte; a parameter file is text", fname, at);
		return NULL;
	}
	pd = kzalloc(sizeof(*pd) + len + 1);
	if (!pd) {
		snprintf(err, errlen, "diskmodel: %s: out of memory for the parameter table",
			 fname);
		return NULL;
	}
	memcpy(pd->text, text, len);
	pd->text[len] = 0;
	pd->drive.params = pd->rows;
	for (s = pd->text; s && *s; s = line) {
		char *eol = strchr(s, '\n'), *p, *key, *w;
		const struct dm_key *k;
		struct dm_param *r;

		lineno++;
		line = eol ? eol + 1 : NULL;
		if (eol)
			*eol = 0;
		if (strlen(s) > DM_LINE_MAX)
			FAIL("line %d: longer than %d characters\n", lineno, DM_LINE_MAX);
		for (p = s; *p; p++)
			if ((unsigned char)*p < 0x20 && *p != '\t' && *p != '\r')
				FAIL("line %d: a control character (%#x); a parameter file is "
				     "text\n",
				     lineno, (unsigned char)*p);
		p = s;
		key = next_word(&p);
		if (!key || key[0] == '#')
			continue;
		if (!strcmp(key, "name") || !strcmp(key, "desc")) {
			char *v = trim(p);

			if (!*v)
				FAIL("line %d: '%s' needs a text\n", lineno, key);
			if (!strcmp(key, "name")) {
				if (pd->drive.name)
					FAIL("line %d: a second 'name' line\n", lineno);
				if (strlen(v) > 40 || strpbrk(v, " \t\"'"))
					FAIL("line %d: name '%s': one word of up to 40 "
					     "characters\n",
					     lineno, v);
				pd->drive.name = v;
			} else {
				if (pd->drive.desc)
					FAIL("line %d: a second 'desc' line\n", lineno);
				pd->drive.desc = v;
			}
			continue;
		}
		k = key_of(key);
		if (!k) {
			int o = 0;

			for (int i = 0; i < NR_KEYS && o < (int)sizeof(what) - 20; i++)
				o += snprintf(what + o, sizeof(what) - o, "%s%s", i ? " " : "",
					      dm_keys[i].key);
			FAIL("line %d: unknown key '%s' (known: name desc %s)\n", lineno, key,
			     what);
		}
		describe_key(what, sizeof(what), k);
		if (n == DM_ROWS_MAX)
			FAIL("line %d: more than %d rows\n", lineno, DM_ROWS_MAX);
		r = &pd->rows[n];
		r->key = k->key;
		if (k->tabled) {
			w = next_word(&p);
			if (!w || !parse_number(w, &r->at))
				FAIL("line %d: '%s' wants a position then a value: %s\n", lineno,
				     key, what);
			if (!(r->at >= 0 && r->at <= 1))
				FAIL("line %d: %s position %s is outside 0..1: %s\n", lineno, key,
				     w, what);
		}
		w = next_word(&p);
		if (!w || !parse_number(w, &r->value))
			FAIL("line %d: '%s' wants a number%s: %s\n", lineno, key,
			     w ? "" : " (none given)", what);
		if (!(r->value >= k->min && r->value <= k->max) ||
		    (k->integer && r->value != floor(r->value)))
			FAIL("line %d: %s %s is out of range: %s\n", lineno, key, w, what);
		w = next_word(&p);
		if (!w || strcmp(w, k->unit))
			FAIL("line %d: '%s' is in %s, not '%s': %s\n", lineno, key, k->unit,
			     w ? w : "(no unit)", what);
		r->unit = k->unit;
		r->source = *trim(p) ? trim(p) : "(file)";
		for (int i = 0; i < n && !k->tabled; i++)
			if (pd->rows[i].key == r->key)
				FAIL("line %d: '%s' again (first given on an earlier line)\n",
				     lineno, key);
		n++;
	}
	pd->drive.nr_params = n;
	if (!pd->drive.name)
		pd->drive.name = "file";
	if (!pd->drive.desc)
		pd->drive.desc = fname;
	{
		/* the whole-table checks: missing keys, choices, tabled rows */
		struct dm_config *c = kmalloc(sizeof(*c));
		char msg[384];
		struct dm_err e = {msg, sizeof(msg)};
		int bad;

		if (!c)
			FAIL("out of memory checking the table\n");
		bad = config_check(&pd->drive, c, &e);
		kfree(c);
		if (bad)
			FAIL("line %d (the end of the file): %s\n", lineno, msg);
	}
	return &pd->drive;
fail:
	kfree(pd);
	return NULL;
#undef FAIL
}

void dm_drive_free(struct dm_drive *d)
{
	kfree(d);
}

/*
 * A deep copy of @d in one allocation (freed by dm_drive_free), with the
 * scalar row @set (if not NULL) given @value.
 */
static struct dm_drive *drive_copy(const struct dm_drive *d, const struct dm_param *set,
				   double value)
{
	size_t strs = strlen(d->name) + strlen(d->desc) + 2, size;
	struct dm_drive *c;
	struct dm_param *rows;
	const char *src;
	char *at, note[96];

	snprintf(note, sizeof(note),
		 "set by the diskmodel command (the table says %.10g): ", set ? set->value : 0.0);
	for (int i = 0; i < d->nr_params; i++)
		strs += strlen(d->params[i].source ? d->params[i].source : "") + 1;
	strs += strlen(note);
	size = sizeof(*c) + (size_t)d->nr_params * sizeof(*rows) + strs;
	c = kzalloc(size);
	if (!c)
		return NULL;
	rows = (struct dm_param *)(c + 1);
	at = (char *)(rows + d->nr_params);
	c->name = at;
	at = stpcpy(at, d->name) + 1;
	c->desc = at;
	at = stpcpy(at, d->desc) + 1;
	for (int i = 0; i < d->nr_params; i++) {
		const struct dm_param *p = &d->params[i];
		const struct dm_key *k = key_of(p->key);

		rows[i] = *p;
		rows[i].key = k ? k->key : "?";
		rows[i].unit = k ? k->unit : "?";
		rows[i].source = at;
		src = p->source ? p->source : "";
		if (p == set) {
			/* set again: the first note already says what the table said */
			rows[i].value = value;
			if (strncmp(src, note, strlen("set by the diskmodel command (")))
				at = stpcpy(at, note);
		}
		at = stpcpy(at, src) + 1;
	}
	c->params = rows;
	c->nr_params = d->nr_params;
	return c;
}

struct dm_drive *dm_drive_dup(const struct dm_drive *d)
{
	return drive_copy(d, NULL, 0);
}

struct dm_drive *dm_drive_set(const struct dm_drive *d, const char *key, double value, char *err,
			      size_t errlen)
{
	const struct dm_key *k = key_of(key);
	const struct dm_param *p = find_row(d, key);
	struct dm_drive *c;
	char what[256];

	if (!k || k->tabled || !p) {
		snprintf(err, errlen, "diskmodel: %s: no scalar parameter '%s' to set", d->name,
			 key);
		return NULL;
	}
	describe_key(what, sizeof(what), k);
	if (!(value >= k->min && value <= k->max) || (k->integer && value != floor(value))) {
		snprintf(err, errlen, "diskmodel: %s=%g is out of range: %s", key, value, what);
		return NULL;
	}
	c = drive_copy(d, p, value);
	if (!c)
		snprintf(err, errlen, "diskmodel: out of memory for a copy of the table");
	return c;
}
