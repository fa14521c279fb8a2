/*
 * The disk timing model (see drivers/diskmodel.h for its interface).
 *
 * Mechanism, after Ruemmler and Wilkes (1994):
 *  - geometry: H surfaces, cylinders in Z recording zones of equal radial
 *    width; sectors per track fall linearly from the outer to the inner
 *    zone (constant linear density), chosen so each zone's sustained rate,
 *    head switches included, is the specification's;
 *  - a command costs the command overhead, then positioning (a seek over
 *    the cylinder distance, or a head switch, then the rotational wait
 *    until the first sector passes under the head: the spindle's phase is
 *    a function of the modelled time), then the media transfer (one head
 *    or cylinder switch per track boundary; track skew equal to the switch
 *    time, so a sequential read loses no revolution), and ends when its
 *    last sector has crossed the SATA bus;
 *  - seek curve: a + b*sqrt(d) for short seeks, c + e*d for long ones,
 *    meeting with equal slope at d0; a, b, c, e and d0 solve the
 *    datasheet's single-track, average (the specification's weighted
 *    average over all seek lengths) and full-stroke figures;
 *  - buffer: S segments; after a read the drive goes on reading the
 *    following sectors into the segment (read look-ahead) until it holds a
 *    segment's worth past the request, or until a command needs the head
 *    elsewhere. A read found in a segment costs the overhead and the bus
 *    transfer only; a read that starts inside the running look-ahead waits
 *    only for the stream to reach its end;
 *  - NCQ: up to 32 commands wait in the drive; when the head is free the
 *    drive serves the one with the shortest positioning time
 *    (buffer hits first), oldest first among equals, unless the oldest has
 *    waited longer than the aging limit, which then goes next.
 *
 * Times inside are double nanoseconds; the interface rounds up to whole
 * nanoseconds, so a caller that waits until dm_next_event() is never early.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "drivers/diskmodel.h"
#include "kernel/log.h"
#include "mm/mm.h"

/*
 * The seeds' drive: "160G/8M Hitachi SATA II 7200 RPM". The 160 GB SATA II
 * Hitachi with NCQ and an 8 MB buffer of 2006-2007 is the Deskstar T7K250
 * HDT722516DLA380 (its 7K160 sibling has the same mechanics). Sources:
 *   [T7K250]  Hitachi Deskstar T7K250 Hard Disk Drive Specification
 *             (4.5.5 Throughput, Tables 11 and 12; Latency; Buffer; interface)
 *   [T7K250b] Hitachi's T7K250 product figures (as tabled in The Tech Report's
 *             review "Hitachi's Deskstar T7K250 hard drive"): sustained
 *             32.9-67.8 MB/s, 8.5 ms average read seek, 125 GB platters
 *   [7K320]   Hitachi Deskstar 7K320 SATA OEM Specification, 4.4.2.2-4.4.2.3
 *             (full-stroke and single-track seek; no T7K250 figure published)
 *   [7K500]   Hitachi Deskstar 7K500 Specification, Table 10 (instantaneous
 *             and sustained rates of zones 0 and 29) and 4.4.4's formula
 *   [IDEMA]   IDEMA LBA1-02 capacity formula: 97,696,368 + 1,953,504 * (GB - 50)
 * MB here is 10^6 bytes, as in Hitachi's documents.
 */
static const struct dm_param t7k250_params[] = {
	{"capacity", 312581808, "sectors", "[IDEMA] 160 GB; [T7K250] HDT722516DLA380 160 GB"},
	{"rpm", 7200, "rev/min", "[T7K250] Latency table: 8.3 ms a revolution, 4.17 ms average"},
	{"heads", 3, "surfaces", "[T7K250b] 125 GB platters: 160 GB needs 3 surfaces of 62.5 GB"},
	{"zones", 30, "zones", "[7K500] zones 0-29 (the Deskstar family's 30 zones)"},
	{"rate_outer", 67.8, "MB/s", "[T7K250b] sustained transfer rate, outer zone"},
	{"rate_inner", 32.9, "MB/s", "[T7K250b] sustained transfer rate, inner zone"},
	{"track_switch", 1.479, "ms",
	 "[7K500] Table 10: sustained/instantaneous = 64.8/76.3 (zone 0), 31.0/36.5 "
	 "(zone 29) = T_rev/(T_rev+t_switch) in 4.4.4's formula: t_switch = 1.479 ms"},
	{"seek_single", 1.0, "ms", "[7K320] 4.4.2.3 single track seek, read, typical"},
	{"seek_average", 8.5, "ms", "[T7K250b] average read seek (with settling), typical"},
	{"seek_full", 20.0, "ms", "[7K320] 4.4.2.2 full stroke seek, read, typical"},
	{"random_4096", 54.6, "s",
	 "[T7K250] Table 12: 4096 random single-sector reads, typical (105% of T); "
	 "solved for the command overhead A in T = 4096(A + B + C + 512/D + 512/E)"},
	{"seq_16m_zone0", 0.28, "s",
	 "[T7K250] Table 11: 16 MiB in 128 commands, zone 0 (calibration check only)"},
	{"seq_16m_zone29", 0.55, "s",
	 "[T7K250] Table 11: 16 MiB in 128 commands, zone 29 (calibration check only)"},
	{"buffer", 8192, "KiB", "[T7K250] 8 MB buffer"},
	{"segments", 16, "segments",
	 "assumed: the segment count is not published (ATA drives of the time segment "
	 "adaptively); 16 segments of 512 KiB"},
	{"bus_rate", 300, "MB/s", "[T7K250] SATA 3.0 Gb/s: 300 MB/s buffer-host"},
	{"ncq_depth", 32, "commands", "[T7K250] Native Command Queuing, 32 tags"},
	{"ncq_aging", 1000, "ms",
	 "assumed: drives bound how long shortest-positioning-first may pass a queued "
	 "command over; the limit is not published. A command older than this goes next"},
};

static const struct dm_drive t7k250 = {
	.name = "hitachi-t7k250",
	.desc = "Hitachi Deskstar T7K250 HDT722516DLA380, 160 GB, 7200 RPM, 8 MB, SATA II NCQ",
	.params = t7k250_params,
	.nr_params = sizeof(t7k250_params) / sizeof(t7k250_params[0]),
};

const struct dm_drive *const dm_drives[] = {&t7k250, NULL};

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
	double seek, rotate, media, bus;
	bool hit, stream;
};

struct dm_segment {
	uint64_t start, end; /* buffered LBAs [start, end); empty when equal */
	uint64_t used;	     /* LRU stamp */
};

struct disk_model {
	const struct dm_drive *drive;
	struct dm_geometry g;
	int nr_zones;
	struct dm_zone zones[DM_MAX_ZONES];
	double skew; /* track skew as a fraction of a revolution */

	struct dm_cmd cmds[DM_MAX_QUEUE]; /* by tag */
	uint32_t queued;		  /* waiting for the head */
	uint32_t finished;		  /* done, not yet reaped */
	int active;			  /* in service, or -1 */
	double free_at;			  /* the head is free from then on when idle */
	uint64_t head_lba;		  /* where the head is when not streaming */
	uint64_t order;

	/* the read look-ahead: the head reads pf_lba... from pf_time, up to pf_limit */
	bool pf_on;
	uint64_t pf_lba, pf_limit;
	double pf_time;
	int pf_seg;
	struct dm_segment seg[DM_MAX_SEGMENTS];
	uint64_t seg_clock;

	struct dm_stats st;
};

const struct dm_drive *dm_find_drive(const char *name)
{
	for (int i = 0; dm_drives[i]; i++)
		if (!strcmp(dm_drives[i]->name, name))
			return dm_drives[i];
	return NULL;
}

double dm_param(const struct dm_drive *drive, const char *key)
{
	for (int i = 0; i < drive->nr_params; i++)
		if (!strcmp(drive->params[i].key, key))
			return drive->params[i].value;
	panic("diskmodel: drive %s has no parameter %s", drive->name, key);
}

const struct dm_drive *dm_drive_of(const struct disk_model *m)
{
	return m->drive;
}

/* --- geometry --------------------------------------------------------------- */

static const struct dm_zone *zone_of(const struct disk_model *m, uint64_t lba)
{
	int lo = 0, hi = m->nr_zones - 1;

	while (lo < hi) {
		int mid = (lo + hi + 1) / 2;

		if (m->zones[mid].first_lba <= lba)
			lo = mid;
		else
			hi = mid - 1;
	}
	return &m->zones[lo];
}

int dm_zone(const struct disk_model *m, uint64_t lba)
{
	return (int)(zone_of(m, lba) - m->zones);
}

uint64_t dm_zone_start(const struct disk_model *m, int z)
{
	return m->zones[z].first_lba;
}

static uint64_t track_of(const struct disk_model *m, uint64_t lba, uint32_t *sector)
{
	const struct dm_zone *z = zone_of(m, lba);
	uint64_t off = lba - z->first_lba;

	if (sector)
		*sector = (uint32_t)(off % z->spt);
	return z->first_track + off / z->spt;
}

double dm_zone_rate(const struct disk_model *m, int z)
{
	return m->zones[z].spt * 512.0 / ((m->g.rev_ns + m->g.switch_ns) * 1e-9);
}

/* Where @lba passes under the head, as a fraction of a revolution. */
static double angle_of(const struct disk_model *m, uint64_t lba)
{
	uint32_t s;
	uint64_t track = track_of(m, lba, &s);
	double a = (double)track * m->skew + (double)s / zone_of(m, lba)->spt;

	return a - floor(a);
}

static double phase_at(const struct disk_model *m, double t)
{
	double p = t / m->g.rev_ns;

	return p - floor(p);
}

/* Time to read [from, to) with the head at the start of @from. */
static double media_ns(const struct disk_model *m, uint64_t from, uint64_t to)
{
	double t = 0;

	while (from < to) {
		const struct dm_zone *z = zone_of(m, from);
		uint32_t s = (uint32_t)((from - z->first_lba) % z->spt);
		uint64_t n = min_t(uint64_t, z->spt - s, to - from);

		t += (double)n * z->sector_ns;
		from += n;
		if (from < to)
			t += m->g.switch_ns;
	}
	return t;
}

/* The first LBA not yet read @dt after the head started reading at @from (capped at @limit). */
static uint64_t media_reach(const struct disk_model *m, uint64_t from, uint64_t limit, double dt)
{
	double t = 0;

	while (from < limit) {
		const struct dm_zone *z = zone_of(m, from);
		uint32_t s = (uint32_t)((from - z->first_lba) % z->spt);
		uint64_t n = min_t(uint64_t, z->spt - s, limit - from);
		double tn = (double)n * z->sector_ns;

		if (t + tn > dt)
			return from + (uint64_t)((dt - t) / z->sector_ns);
		t += tn;
		from += n;
		if (from < limit && n == z->spt - s)
			t += m->g.switch_ns;
		if (t > dt)
			break;
	}
	return min(from, limit);
}

double dm_seek_ns(const struct disk_model *m, uint32_t d)
{
	const struct dm_geometry *g = &m->g;

	if (d == 0)
		return 0;
	if (d < g->seek_d0)
		return g->seek_a + g->seek_b * sqrt((double)d);
	return g->seek_c + g->seek_e * (double)d;
}

void dm_geometry(const struct disk_model *m, struct dm_geometry *g)
{
	*g = m->g;
}

/*
 * Weighted moments over seek lengths x in [lo, hi] with the weight
 * (D + 1 - x) that the specifications' "weighted average of all possible
 * seek combinations" gives a seek of length x on D + 1 cylinders.
 */
static double w0(double D, double lo, double hi)
{
	return (D + 1) * (hi - lo) - (hi * hi - lo * lo) / 2;
}

static double wh(double D, double lo, double hi)
{
	return (D + 1) * (2.0 / 3) * (pow(hi, 1.5) - pow(lo, 1.5)) -
	       (2.0 / 5) * (pow(hi, 2.5) - pow(lo, 2.5));
}

static double w1(double D, double lo, double hi)
{
	return (D + 1) * (hi * hi - lo * lo) / 2 - (hi * hi * hi - lo * lo * lo) / 3;
}

/* Solve the 4x4 system @a x = @b in place (partial pivoting); false if singular. */
static bool solve4(double a[4][4], double b[4], double x[4])
{
	for (int i = 0; i < 4; i++) {
		int p = i;

		for (int r = i + 1; r < 4; r++)
			if (fabs(a[r][i]) > fabs(a[p][i]))
				p = r;
		if (fabs(a[p][i]) < 1e-300)
			return false;
		for (int k = 0; k < 4; k++) {
			double t = a[i][k];

			a[i][k] = a[p][k];
			a[p][k] = t;
		}
		double t = b[i];

		b[i] = b[p];
		b[p] = t;
		for (int r = 0; r < 4; r++) {
			if (r == i)
				continue;
			double f = a[r][i] / a[i][i];

			for (int k = i; k < 4; k++)
				a[r][k] -= f * a[i][k];
			b[r] -= f * b[i];
		}
	}
	for (int i = 0; i < 4; i++)
		x[i] = b[i] / a[i][i];
	return true;
}

/*
 * The seek curve through single-track @t1, weighted average @tavg and
 * full-stroke @tfull (ms) over @D cylinders of travel, for the boundary d0:
 * x = {a, b, c, e}. Returns the slope mismatch e - b/(2 sqrt(d0)).
 */
static double seek_fit(double D, double d0, double t1, double tavg, double tfull, double x[4])
{
	double W = w0(D, 1, D);
	double a[4][4] = {
		{1, 1, 0, 0},
		{0, 0, 1, D},
		{1, sqrt(d0), -1, -d0},
		{w0(D, 1, d0) / W, wh(D, 1, d0) / W, w0(D, d0, D) / W, w1(D, d0, D) / W},
	};
	double b[4] = {t1, tfull, 0, tavg};

	if (!solve4(a, b, x))
		return NAN;
	return x[3] - x[1] / (2 * sqrt(d0));
}

static int fit_seek_curve(struct disk_model *m, double t1, double tavg, double tfull)
{
	double D = m->g.cylinders - 1, lo = 2, hi = D / 2, x[4];
	double flo = seek_fit(D, lo, t1, tavg, tfull, x);

	/* The mismatch changes sign once between a tiny and a half-stroke boundary. */
	for (int i = 0; i < 100 && hi - lo > 0.5; i++) {
		double mid = (lo + hi) / 2, f = seek_fit(D, mid, t1, tavg, tfull, x);

		if ((f < 0) == (flo < 0)) {
			lo = mid;
			flo = f;
		} else {
			hi = mid;
		}
	}
	seek_fit(D, lo, t1, tavg, tfull, x);
	if (isnan(x[0]) || x[1] <= 0 || x[3] <= 0 || x[0] < 0) {
		pr_err("diskmodel: no seek curve through %.2f/%.2f/%.2f ms\n", t1, tavg, tfull);
		return -EINVAL;
	}
	m->g.seek_d0 = (uint32_t)lo;
	m->g.seek_a = x[0] * 1e6;
	m->g.seek_b = x[1] * 1e6;
	m->g.seek_c = x[2] * 1e6;
	m->g.seek_e = x[3] * 1e6;
	return 0;
}

static int build_geometry(struct disk_model *m)
{
	const struct dm_drive *d = m->drive;
	struct dm_geometry *g = &m->g;
	double rate_outer = dm_param(d, "rate_outer") * 1e6;
	double rate_inner = dm_param(d, "rate_inner") * 1e6;
	double avg_rate = (rate_outer + rate_inner) / 2;
	uint64_t per_cyl_sum = 0, lba = 0, track = 0;
	uint32_t cyls_per_zone;

	g->nr_sectors = (uint64_t)dm_param(d, "capacity");
	g->heads = (uint32_t)dm_param(d, "heads");
	g->zones = (uint32_t)dm_param(d, "zones");
	g->rev_ns = 60e9 / dm_param(d, "rpm");
	g->switch_ns = dm_param(d, "track_switch") * 1e6;
	g->bus_ns_per_byte = 1e9 / (dm_param(d, "bus_rate") * 1e6);
	g->segments = (uint32_t)dm_param(d, "segments");
	if (g->zones < 1 || g->zones > DM_MAX_ZONES || g->segments < 1 ||
	    g->segments > DM_MAX_SEGMENTS || g->heads < 1) {
		pr_err("diskmodel: %s: table out of range\n", d->name);
		return -EINVAL;
	}
	g->segment_sectors = (uint32_t)(dm_param(d, "buffer") * 2 / g->segments);
	g->aging_ns = dm_param(d, "ncq_aging") * 1e6;
	m->skew = g->switch_ns / g->rev_ns;
	/*
	 * Sectors per track: a zone's sustained rate is one track per
	 * revolution plus one switch (4.4.4's formula with equal head and
	 * cylinder switch times).
	 */
	m->nr_zones = (int)g->zones;
	for (int z = 0; z < m->nr_zones; z++) {
		double f = m->nr_zones > 1 ? (double)z / (m->nr_zones - 1) : 0;
		double rate = rate_outer + (rate_inner - rate_outer) * f;

		m->zones[z].spt = (uint32_t)(rate * (g->rev_ns + g->switch_ns) * 1e-9 / 512 + 0.5);
		m->zones[z].sector_ns = g->rev_ns / m->zones[z].spt;
		per_cyl_sum += (uint64_t)m->zones[z].spt * g->heads;
	}
	cyls_per_zone = (uint32_t)((g->nr_sectors + per_cyl_sum - 1) / per_cyl_sum);
	for (int z = 0; z < m->nr_zones; z++) {
		m->zones[z].first_lba = lba;
		m->zones[z].first_track = track;
		m->zones[z].first_cyl = (uint32_t)z * cyls_per_zone;
		lba += (uint64_t)cyls_per_zone * g->heads * m->zones[z].spt;
		track += (uint64_t)cyls_per_zone * g->heads;
	}
	g->cylinders = cyls_per_zone * g->zones;
	g->spt_outer = m->zones[0].spt;
	g->spt_inner = m->zones[m->nr_zones - 1].spt;
	/* Command overhead: [T7K250] Table 12 through its own formula (typical = 1.05 T). */
	g->overhead_ns =
		(dm_param(d, "random_4096") / 1.05 / 4096 - dm_param(d, "seek_average") * 1e-3 -
		 g->rev_ns / 2 * 1e-9 - 512 / avg_rate - 512 / (dm_param(d, "bus_rate") * 1e6)) *
		1e9;
	if (g->overhead_ns < 0)
		g->overhead_ns = 0;
	return fit_seek_curve(m, dm_param(d, "seek_single"), dm_param(d, "seek_average"),
			      dm_param(d, "seek_full"));
}

struct disk_model *dm_create(const char *name, uint64_t image_sectors)
{
	const struct dm_drive *d = dm_find_drive(name);
	struct disk_model *m;

	if (!d) {
		pr_err("diskmodel: no drive model '%s'\n", name);
		return NULL;
	}
	m = kzalloc(sizeof(*m));
	if (!m)
		return NULL;
	m->drive = d;
	if (build_geometry(m)) {
		kfree(m);
		return NULL;
	}
	if (image_sectors > m->g.nr_sectors) {
		pr_err("diskmodel: the disk has %llu sectors, more than the %s's %llu\n",
		       (unsigned long long)image_sectors, d->name,
		       (unsigned long long)m->g.nr_sectors);
		kfree(m);
		return NULL;
	}
	m->active = -1;
	return m;
}

void dm_destroy(struct disk_model *m)
{
	kfree(m);
}

/* --- the buffer and the look-ahead ---------------------------------------------- */

/* The first LBA the look-ahead has not read by @t. */
static uint64_t pf_pos(const struct disk_model *m, double t)
{
	if (t <= m->pf_time)
		return m->pf_lba;
	return media_reach(m, m->pf_lba, m->pf_limit, t - m->pf_time);
}

/* Buffered range of segment @i at @t. */
static void seg_range(const struct disk_model *m, int i, double t, uint64_t *start, uint64_t *end)
{
	*start = m->seg[i].start;
	*end = m->seg[i].end;
	if (m->pf_on && i == m->pf_seg) {
		*end = pf_pos(m, t);
		if (*end - *start > m->g.segment_sectors)
			*start = *end - m->g.segment_sectors;
	}
}

static void pf_stop(struct disk_model *m, double t)
{
	if (!m->pf_on)
		return;
	seg_range(m, m->pf_seg, t, &m->seg[m->pf_seg].start, &m->seg[m->pf_seg].end);
	m->head_lba = m->seg[m->pf_seg].end;
	m->pf_on = false;
}

/* The segment holding @lba at @t, or -1. */
static int seg_lookup(const struct disk_model *m, uint64_t lba, double t, uint64_t *end)
{
	for (int i = 0; i < (int)m->g.segments; i++) {
		uint64_t s, e;

		seg_range(m, i, t, &s, &e);
		if (s <= lba && lba < e) {
			*end = e;
			return i;
		}
	}
	return -1;
}

static int seg_victim(struct disk_model *m)
{
	int v = 0;

	for (int i = 1; i < (int)m->g.segments; i++)
		if (m->seg[i].used < m->seg[v].used)
			v = i;
	return v;
}

static void seg_invalidate(struct disk_model *m, uint64_t lba, uint64_t end)
{
	for (int i = 0; i < (int)m->g.segments; i++)
		if (m->seg[i].start < end && lba < m->seg[i].end)
			m->seg[i].start = m->seg[i].end = 0;
}

/* The LBA under the head at @t (the look-ahead's position while it runs). */
static uint64_t head_at(const struct disk_model *m, double t)
{
	return m->pf_on ? pf_pos(m, t) : m->head_lba;
}

/* Whether the running look-ahead will reach @lba without repositioning. */
static bool in_stream(const struct disk_model *m, uint64_t lba, double t)
{
	uint64_t pos;

	if (!m->pf_on)
		return false;
	pos = pf_pos(m, t);
	return pos < m->pf_limit && lba >= pos && lba <= m->pf_limit;
}

/* Seek or head switch plus rotational wait from the head's place at @t to @lba. */
static double position_ns(const struct disk_model *m, uint64_t lba, double t, double *seek)
{
	uint64_t from = head_at(m, t);
	uint32_t c0, c1, s;
	uint64_t tr0 = track_of(m, min(from, m->g.nr_sectors - 1), NULL);
	uint64_t tr1 = track_of(m, lba, &s);
	double move, ready, wait;

	c0 = (uint32_t)(tr0 / m->g.heads);
	c1 = (uint32_t)(tr1 / m->g.heads);
	move = c0 != c1	    ? dm_seek_ns(m, c0 > c1 ? c0 - c1 : c1 - c0)
	       : tr0 != tr1 ? m->g.switch_ns
			    : 0;
	ready = t + move;
	wait = angle_of(m, lba) - phase_at(m, ready);
	if (wait < 0)
		wait += 1;
	*seek = move;
	return move + wait * m->g.rev_ns;
}

/* --- service ---------------------------------------------------------------------- */

/* The cost the drive's scheduler sees in starting @c at @t (no side effects). */
static double sptf_cost(const struct disk_model *m, const struct dm_cmd *c, double t)
{
	uint64_t end;
	double seek;

	if (c->op == DM_FLUSH)
		return 0;
	if (c->op == DM_READ) {
		if (seg_lookup(m, c->lba, t, &end) >= 0 && end >= c->lba + c->n)
			return 0;
		if (in_stream(m, c->lba, t))
			return m->pf_time + media_ns(m, m->pf_lba, c->lba) - t;
	}
	return position_ns(m, c->lba, t, &seek);
}

/* Read or write [lba, end) from the media after positioning; returns the media end time. */
static double media_access(struct disk_model *m, struct dm_cmd *c, uint64_t lba, double t)
{
	double seek, pos = position_ns(m, lba, t, &seek);
	double media = media_ns(m, lba, c->lba + c->n);

	c->seek = seek;
	c->rotate = pos - seek;
	c->media = media;
	m->st.misses++;
	if (seek > m->g.switch_ns)
		m->st.seeks++;
	return t + pos + media;
}

static void start_lookahead(struct disk_model *m, uint64_t start, uint64_t end, double t)
{
	int v = seg_victim(m);

	m->seg[v].start = end - min_t(uint64_t, end - start, m->g.segment_sectors);
	m->seg[v].end = end;
	m->seg[v].used = ++m->seg_clock;
	m->pf_on = end < m->g.nr_sectors;
	m->pf_seg = v;
	m->pf_lba = end;
	m->pf_time = t;
	m->pf_limit = min_t(uint64_t, end + m->g.segment_sectors, m->g.nr_sectors);
	m->head_lba = end;
}

/* Start @tag at @t: fill in its phases and completion time. */
static void service(struct disk_model *m, int tag, double t)
{
	struct dm_cmd *c = &m->cmds[tag];
	uint64_t end = c->lba + c->n, buf_end;
	double t0 = t + m->g.overhead_ns, bytes_ns = (double)c->n * 512 * m->g.bus_ns_per_byte;
	double media_end;
	int s;

	c->start = t;
	c->seek = c->rotate = c->media = 0;
	c->hit = c->stream = false;
	c->bus = bytes_ns;
	if (c->op == DM_FLUSH) {
		c->bus = 0;
		c->done = t0;
		return;
	}
	if (c->op == DM_WRITE) {
		pf_stop(m, t0);
		seg_invalidate(m, c->lba, end);
		media_end = media_access(m, c, c->lba, t0);
		m->head_lba = end;
		c->done = media_end + 512 * m->g.bus_ns_per_byte;
		c->done = max(c->done, t0 + bytes_ns);
		return;
	}
	s = seg_lookup(m, c->lba, t0, &buf_end);
	if (s >= 0 && buf_end >= end) {
		/* wholly buffered; a running look-ahead goes on */
		c->hit = true;
		m->seg[s].used = ++m->seg_clock;
		c->done = t0 + bytes_ns;
		m->st.buffer_hits++;
		return;
	}
	if ((s >= 0 && m->pf_on && s == m->pf_seg && pf_pos(m, t0) < m->pf_limit) ||
	    in_stream(m, c->lba, t0)) {
		/* the look-ahead is reading toward it: wait for the stream */
		c->stream = true;
		m->pf_limit = min_t(uint64_t, max(m->pf_limit, end + m->g.segment_sectors),
				    m->g.nr_sectors);
		m->seg[m->pf_seg].used = ++m->seg_clock;
		media_end = m->pf_time + media_ns(m, m->pf_lba, end);
		c->media = media_end - t0;
		c->done = max(media_end + 512 * m->g.bus_ns_per_byte, t0 + bytes_ns);
		m->st.stream_hits++;
		return;
	}
	/* A miss; a front part may still be buffered, the rest comes from the media. */
	pf_stop(m, t0);
	media_end = media_access(m, c, s >= 0 ? buf_end : c->lba, t0);
	start_lookahead(m, c->lba, end, media_end);
	c->done = max(media_end + 512 * m->g.bus_ns_per_byte, t0 + bytes_ns);
}

static void account(struct disk_model *m, const struct dm_cmd *c)
{
	struct dm_stats *st = &m->st;

	st->commands++;
	if (c->op == DM_READ)
		st->reads++;
	else if (c->op == DM_WRITE)
		st->writes++;
	else
		st->flushes++;
	st->sectors += c->n;
	st->overhead_ns += (uint64_t)m->g.overhead_ns;
	st->seek_ns += (uint64_t)c->seek;
	st->rotate_ns += (uint64_t)c->rotate;
	st->media_ns += (uint64_t)c->media;
	if (c->hit)
		st->hit_ns += (uint64_t)(c->done - c->start);
	else
		st->bus_ns += (uint64_t)c->bus;
	st->service_ns += (uint64_t)(c->done - c->start);
	st->busy_ns += (uint64_t)(c->done - c->start);
}

/* The head is free at @t: pick the next queued command (SPTF) and start it. */
static void start_next(struct disk_model *m, double t)
{
	int best = -1;
	double best_cost = 0;
	uint64_t oldest = UINT64_MAX;

	m->active = -1;
	m->free_at = t;
	for (uint32_t q = m->queued; q; q &= q - 1) {
		int tag = __builtin_ctz(q);
		const struct dm_cmd *c = &m->cmds[tag];
		double cost = sptf_cost(m, c, t);

		oldest = min(oldest, c->order);
		if (best < 0 || cost < best_cost ||
		    (cost == best_cost && c->order < m->cmds[best].order)) {
			best = tag;
			best_cost = cost;
		}
	}
	if (best < 0)
		return;
	/* aging: a command passed over for too long goes next, whatever its position */
	for (uint32_t q = m->queued; q; q &= q - 1) {
		int tag = __builtin_ctz(q);

		if (m->cmds[tag].order == oldest &&
		    t - (double)m->cmds[tag].arrive > m->g.aging_ns) {
			best = tag;
			m->st.aged++;
		}
	}
	if (m->cmds[best].order != oldest)
		m->st.reordered++;
	m->queued &= ~(1u << best);
	m->active = best;
	service(m, best, t);
}

/* Run the drive up to @now: every command finishing by then finishes. */
static void advance(struct disk_model *m, double now)
{
	while (m->active >= 0 && m->cmds[m->active].done <= now) {
		int tag = m->active;

		m->finished |= 1u << tag;
		account(m, &m->cmds[tag]);
		start_next(m, m->cmds[tag].done);
	}
}

static uint64_t ns_up(double t)
{
	return (uint64_t)ceil(t);
}

int dm_submit(struct disk_model *m, int tag, enum dm_op op, uint64_t lba, uint32_t nsect,
	      uint64_t now)
{
	uint32_t bit = tag >= 0 && tag < DM_MAX_QUEUE ? 1u << tag : 0;
	struct dm_cmd *c;

	if (!bit || ((m->queued | m->finished) & bit) || m->active == tag ||
	    (op != DM_FLUSH && (!nsect || lba >= m->g.nr_sectors || nsect > m->g.nr_sectors - lba)))
		return -EINVAL;
	advance(m, (double)now);
	c = &m->cmds[tag];
	*c = (struct dm_cmd){.op = op,
			     .lba = lba,
			     .n = op == DM_FLUSH ? 0 : nsect,
			     .arrive = now,
			     .order = ++m->order};
	m->queued |= bit;
	m->st.max_queued = max(m->st.max_queued, dm_queued(m));
	if (m->active < 0)
		start_next(m, max((double)now, m->free_at));
	return 0;
}

uint64_t dm_next_event(struct disk_model *m)
{
	uint64_t t = DM_NONE;

	for (uint32_t f = m->finished; f; f &= f - 1)
		t = min(t, ns_up(m->cmds[__builtin_ctz(f)].done));
	if (m->active >= 0)
		t = min(t, ns_up(m->cmds[m->active].done));
	return t;
}

int dm_reap(struct disk_model *m, uint64_t now, struct dm_completion *out)
{
	int best = -1;

	advance(m, (double)now);
	for (uint32_t f = m->finished; f; f &= f - 1) {
		int tag = __builtin_ctz(f);

		if (best < 0 || m->cmds[tag].done < m->cmds[best].done)
			best = tag;
	}
	if (best < 0)
		return -1;
	m->finished &= ~(1u << best);
	if (out) {
		const struct dm_cmd *c = &m->cmds[best];

		*out = (struct dm_completion){
			.tag = best,
			.arrive_ns = c->arrive,
			.start_ns = ns_up(c->start),
			.done_ns = ns_up(c->done),
			.seek_ns = (uint64_t)c->seek,
			.rotate_ns = (uint64_t)c->rotate,
			.media_ns = (uint64_t)c->media,
			.bus_ns = (uint64_t)c->bus,
			.buffer_hit = c->hit,
			.stream_hit = c->stream,
		};
	}
	return best;
}

void dm_abort_all(struct disk_model *m, uint64_t now)
{
	m->queued = m->finished = 0;
	m->active = -1;
	m->pf_on = false;
	m->free_at = (double)now;
	for (int i = 0; i < DM_MAX_SEGMENTS; i++)
		m->seg[i].start = m->seg[i].end = 0;
}

unsigned int dm_queued(const struct disk_model *m)
{
	return (unsigned int)__builtin_popcount(m->queued | m->finished) + (m->active >= 0);
}

void dm_print_params(const struct disk_model *m, bool sources)
{
	const struct dm_drive *d = m->drive;
	const struct dm_geometry *g = &m->g;

	printf("diskmodel: %s: %s\n", d->name, d->desc);
	for (int i = 0; i < d->nr_params; i++) {
		const struct dm_param *p = &d->params[i];

		if (sources)
			printf("diskmodel:   %-14s %10g %-9s %s\n", p->key, p->value, p->unit,
			       p->source);
		else
			printf("diskmodel:   %-14s %10g %s\n", p->key, p->value, p->unit);
	}
	printf("diskmodel: derived: %u cylinders x %u heads, %u zones of %u-%u sectors/track, "
	       "%.3f ms/rev, command overhead %.1f us, %u segments of %u KiB\n",
	       g->cylinders, g->heads, g->zones, g->spt_outer, g->spt_inner, g->rev_ns / 1e6,
	       g->overhead_ns / 1e3, g->segments, g->segment_sectors / 2);
	printf("diskmodel: derived: seek %.3f + %.5f*sqrt(d) ms below %u cylinders, "
	       "%.3f + %.3f*d/1000 ms above\n",
	       g->seek_a / 1e6, g->seek_b / 1e6, g->seek_d0, g->seek_c / 1e6, g->seek_e / 1e3);
}

const struct dm_stats *dm_stats(const struct disk_model *m)
{
	return &m->st;
}

void dm_reset_stats(struct disk_model *m)
{
	memset(&m->st, 0, sizeof(m->st));
}
