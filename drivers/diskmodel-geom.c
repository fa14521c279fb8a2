/*
 * The disk model's layout and mechanics (see drivers/diskmodel-internal.h),
 * after Ruemmler and Wilkes (1994):
 *  - geometry: H surfaces, cylinders in Z recording zones of equal radial
 *    width; a zone's sectors per track give its sustained rate, head
 *    switches included (the specifications' formula, 4.4.4 of the 7K500's:
 *    one track a revolution plus one switch). The rates fall linearly from
 *    the outer to the inner zone (constant linear density), or follow a
 *    table of rates measured at fractions of the capacity (a probed drive);
 *  - the spindle's phase is a function of the modelled time; track skew
 *    equals the switch time, so a sequential read loses no revolution;
 *  - seek curve: a + b*sqrt(d) for short seeks, c + e*d for long ones,
 *    meeting with equal slope at d0; a, b, c, e and d0 solve the
 *    datasheet's single-track, average (the specification's weighted
 *    average over all seek lengths) and full-stroke figures; or a measured
 *    drive's curve (seek_shape) scaled to those three figures; or a table
 *    of seek times measured at fractions of the stroke, interpolated in
 *    sqrt(distance);
 *  - the command overhead: given, or solved from the specification's
 *    random-read table through its own formula, with the model's own mean
 *    seek over random LBAs in it.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "drivers/diskmodel-internal.h"
#include "kernel/log.h"

const struct dm_zone *dm_zone_of(const struct disk_model *m, uint64_t lba)
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
	return (int)(dm_zone_of(m, lba) - m->zones);
}

uint64_t dm_zone_start(const struct disk_model *m, int z)
{
	return m->zones[z].first_lba;
}

uint64_t dm_track_of(const struct disk_model *m, uint64_t lba, uint32_t *sector)
{
	const struct dm_zone *z = dm_zone_of(m, lba);
	uint64_t off = lba - z->first_lba;

	if (sector)
		*sector = (uint32_t)(off % z->spt);
	return z->first_track + off / z->spt;
}

uint64_t dm_track_start(const struct disk_model *m, uint64_t lba)
{
	uint32_t s;

	dm_track_of(m, lba, &s);
	return lba - s;
}

uint32_t dm_cylinder(const struct disk_model *m, uint64_t lba)
{
	return (uint32_t)(dm_track_of(m, min(lba, m->g.nr_sectors - 1), NULL) / m->g.heads);
}

double dm_zone_rate(const struct disk_model *m, int z)
{
	return m->zones[z].spt * 512.0 / ((m->g.rev_ns + m->g.switch_ns) * 1e-9);
}

double dm_angle_of(const struct disk_model *m, uint64_t lba)
{
	uint32_t s;
	uint64_t track = dm_track_of(m, lba, &s);
	double a = (double)track * m->skew + (double)s / dm_zone_of(m, lba)->spt;

	return a - floor(a);
}

double dm_phase_at(const struct disk_model *m, double t)
{
	double p = (t - m->phase0) / m->g.rev_ns;

	return p - floor(p);
}

double dm_next_pass(const struct disk_model *m, uint64_t lba, double t)
{
	double w = dm_angle_of(m, lba) - dm_phase_at(m, t);

	w -= floor(w);
	/*
	 * Rounding must not turn "just in time" into a whole revolution: the
	 * phase of hours of modelled time is good to about 1e-7 of a turn.
	 */
	if (w > 1 - 1e-6)
		w = 0;
	return t + w * m->g.rev_ns;
}

double dm_media_ns(const struct disk_model *m, uint64_t from, uint64_t to)
{
	double t = 0;

	while (from < to) {
		const struct dm_zone *z = dm_zone_of(m, from);
		uint32_t s = (uint32_t)((from - z->first_lba) % z->spt);
		uint64_t n = min_t(uint64_t, z->spt - s, to - from);

		t += (double)n * z->sector_ns;
		from += n;
		if (from < to)
			t += m->g.switch_ns;
	}
	return t;
}

uint64_t dm_media_reach(const struct disk_model *m, uint64_t from, uint64_t limit, double dt)
{
	double t = 0;

	while (from < limit) {
		const struct dm_zone *z = dm_zone_of(m, from);
		uint32_t s = (uint32_t)((from - z->first_lba) % z->spt);
		uint64_t n = min_t(uint64_t, z->spt - s, limit - from);
		double tn = (double)n * z->sector_ns;

		if (t + tn > dt)
			return from + (uint64_t)((dt - t) / z->sector_ns);
		t += tn;
		from += n;
		if (from < limit)
			t += m->g.switch_ns;
		if (t > dt)
			break;
	}
	return min(from, limit);
}

/* @y at @d through the points (@x, @y), interpolated in sqrt(distance); flat below the first. */
static double sqrt_interp(const double *x, const double *y, int n, double d)
{
	int lo = 0, hi = n - 1;
	double s0, s1;

	if (d <= x[0])
		return y[0];
	if (d >= x[n - 1])
		hi = n - 1, lo = n - 2;
	while (hi - lo > 1) {
		int mid = (lo + hi) / 2;

		if (x[mid] < d)
			lo = mid;
		else
			hi = mid;
	}
	s0 = sqrt(x[lo]);
	s1 = sqrt(x[hi]);
	return y[lo] + (y[hi] - y[lo]) * (sqrt(d) - s0) / (s1 - s0);
}

double dm_seek_ns(const struct disk_model *m, uint32_t d)
{
	const struct dm_geometry *g = &m->g;

	if (d == 0)
		return 0;
	if (g->seek_shaped && d >= m->seek_tab_d[m->nr_seek_tab - 1])
		return g->seek_c + g->seek_e * (double)d; /* the shape's coast */
	if (m->nr_seek_tab)
		return sqrt_interp(m->seek_tab_d, m->seek_tab_ns, m->nr_seek_tab, (double)d);
	if (d < g->seek_d0)
		return g->seek_a + g->seek_b * sqrt((double)d);
	return g->seek_c + g->seek_e * (double)d;
}

double dm_move_ns(const struct disk_model *m, uint64_t from, uint64_t to)
{
	uint32_t c0 = (uint32_t)(from / m->g.heads), c1 = (uint32_t)(to / m->g.heads);

	if (c0 != c1)
		return dm_seek_ns(m, c0 > c1 ? c0 - c1 : c1 - c0);
	return from != to ? m->g.switch_ns : 0;
}

void dm_geometry(const struct disk_model *m, struct dm_geometry *g)
{
	*g = m->g;
}

/* --- the seek curve through the datasheet's three figures --------------------------- */

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
		pr_err("diskmodel: %s: no seek curve through %.2f/%.2f/%.2f ms\n", m->drive->name,
		       t1, tavg, tfull);
		return -EINVAL;
	}
	m->g.seek_d0 = (uint32_t)lo;
	m->g.seek_a = x[0] * 1e6;
	m->g.seek_b = x[1] * 1e6;
	m->g.seek_c = x[2] * 1e6;
	m->g.seek_e = x[3] * 1e6;
	return 0;
}

/* --- the seek curve of a measured drive, scaled -------------------------------------- */

/*
 * A measured drive's curve (the seek_shape rows: S at fractions x of its
 * stroke) scaled to this drive's single-track t1, weighted average and full
 * stroke. A seek is a motion then a settle. Scaling a motion's time by k
 * and its distance by a factor maps any actuator onto any other under
 * Ruemmler and Wilkes' accelerate-coast-decelerate model (the acceleration
 * scales by factor/k^2, the top speed by factor/k), and keeps the measured
 * curve's own departures from that model where they were measured:
 *
 *	t(d) = t1 + k * (S(d / (scale * D)) - S0)	over D cylinders of travel
 *
 * with S interpolated in sqrt(distance), S0 the first row (the source's
 * one-cylinder seek, so that t(1) = t1 when one cylinder here is less
 * than one there) and, past the last row, the source's coast: a line from
 * the last row with the least-squares slope of the rows beyond half the
 * last row's position (at top speed, time grows linearly with distance).
 * k makes t(D) the full stroke; scale, found by bisection, the weighted
 * average. A scale under 1 stretches the source's motion over more of it
 * (a slower top speed); its curve then ends in its coast line.
 */
#define SHAPE_STEPS 64 /* the scales tried before the bisection */

struct seek_shape {
	const double *x, *y;
	int n;
	double coast; /* ms per stroke fraction past the last row */
};

static double shape_at(const struct seek_shape *sh, double x)
{
	if (x > sh->x[sh->n - 1])
		return sh->y[sh->n - 1] + sh->coast * (x - sh->x[sh->n - 1]);
	return sqrt_interp(sh->x, sh->y, sh->n, x);
}

/* The least-squares slope of the rows beyond half the last position; NAN if not rising. */
static double shape_coast(const double *x, const double *y, int n)
{
	double half = x[n - 1] / 2, sx = 0, sy = 0, sxx = 0, sxy = 0, slope;
	int k = 0;

	for (int i = 0; i < n; i++) {
		if (x[i] < half)
			continue;
		sx += x[i];
		sy += y[i];
		sxx += x[i] * x[i];
		sxy += x[i] * y[i];
		k++;
	}
	if (k < 2 || sxx * k - sx * sx <= 0)
		return NAN;
	slope = (sxy * k - sx * sy) / (sxx * k - sx * sx);
	return slope > 0 ? slope : NAN;
}

/* t(d) in ms for @scale and @k (above). */
static double shape_seek(const struct seek_shape *sh, double t1, double k, double scale, double D,
			 double d)
{
	return t1 + k * (shape_at(sh, d / (scale * D)) - sh->y[0]);
}

/*
 * The curve's weighted average (weights D + 1 - d, as seek_fit's) for
 * @scale, with *@k set to make t(D) = @tfull; NAN when no k > 0 does. The
 * integral runs over u = sqrt(d) (Simpson's rule), where the short seeks'
 * steep part is as wide as the rest.
 */
static double shape_average(const struct seek_shape *sh, double D, double t1, double tfull,
			    double scale, double *k)
{
	enum { N = 2048 };
	double rise = shape_at(sh, 1 / scale) - sh->y[0], u0 = 1, u1 = sqrt(D), h, sum = 0;

	if (!(rise > 0))
		return NAN;
	*k = (tfull - t1) / rise;
	h = (u1 - u0) / N;
	for (int i = 0; i <= N; i++) {
		double u = u0 + h * i, d = u * u;
		double f = (D + 1 - d) * shape_seek(sh, t1, *k, scale, D, d) * 2 * u;

		sum += f * (i == 0 || i == N ? 1 : i % 2 ? 4 : 2);
	}
	return sum * h / 3 / w0(D, 1, D);
}

static int fit_seek_shape(struct disk_model *m, double t1, double tavg, double tfull)
{
	const struct dm_config *c = &m->cfg;
	struct seek_shape sh = {c->seek_shape_at, c->seek_shape_ms, c->nr_seek_shape, 0};
	double D = m->g.cylinders - 1, k = NAN, lo = 0, hi = 0, scale;
	bool found = false;

	sh.coast = shape_coast(sh.x, sh.y, sh.n);
	/*
	 * The average is not monotone in scale: a large one holds t1 over every
	 * distance under the source's first row (x0 * scale * D cylinders). So
	 * walk up from a curve almost all coast to one held flat over 1% of the
	 * stroke, and bisect the first step that reaches the average.
	 */
	for (int i = 0; i <= SHAPE_STEPS && !isnan(sh.coast) && !found; i++) {
		double s = log(1e-3) + (log(0.01 / sh.x[0]) - log(1e-3)) * i / SHAPE_STEPS;
		double f = shape_average(&sh, D, t1, tfull, exp(s), &k);

		if (!isnan(f) && f >= tavg)
			found = i > 0, hi = s;
		else
			lo = s;
	}
	if (!found) {
		pr_err("diskmodel: %s: the seek_shape rows scale to no curve through "
		       "%.2f/%.2f/%.2f ms%s\n",
		       m->drive->name, t1, tavg, tfull,
		       isnan(sh.coast) ? " (their rows beyond half the last do not rise)" : "");
		return -EINVAL;
	}
	for (int i = 0; i < 60; i++) {
		double mid = (lo + hi) / 2, f = shape_average(&sh, D, t1, tfull, exp(mid), &k);

		if (isnan(f) || f < tavg)
			lo = mid;
		else
			hi = mid;
	}
	scale = exp((lo + hi) / 2);
	shape_average(&sh, D, t1, tfull, scale, &k);
	m->nr_seek_tab = sh.n;
	for (int i = 0; i < sh.n; i++) {
		m->seek_tab_d[i] = sh.x[i] * scale * D;
		m->seek_tab_ns[i] = shape_seek(&sh, t1, k, scale, D, m->seek_tab_d[i]) * 1e6;
	}
	/* past the last row: t1 + k (y_last + coast (d / (scale D) - x_last) - y0) */
	m->g.seek_shaped = true;
	m->g.seek_shape_k = k;
	m->g.seek_shape_scale = scale;
	m->g.seek_e = k * sh.coast / (scale * D) * 1e6;
	m->g.seek_c = m->seek_tab_ns[sh.n - 1] - m->g.seek_e * m->seek_tab_d[sh.n - 1];
	m->g.seek_d0 = (uint32_t)ceil(m->seek_tab_d[sh.n - 1]);
	return 0;
}

/* --- zones -------------------------------------------------------------------------- */

/* The tabled rate (MB/s) at capacity fraction @f, interpolated linearly. */
static double rate_at(const struct dm_config *c, double f)
{
	int i = 1;

	if (f <= c->rate_at[0])
		return c->rate_mbps[0];
	while (i < c->nr_rate_at - 1 && c->rate_at[i] < f)
		i++;
	if (f >= c->rate_at[i])
		return c->rate_mbps[i];
	return c->rate_mbps[i - 1] + (c->rate_mbps[i] - c->rate_mbps[i - 1]) *
					     (f - c->rate_at[i - 1]) /
					     (c->rate_at[i] - c->rate_at[i - 1]);
}

/* Sectors per track of each zone from @rate (MB/s); the zones' sectors per cylinder summed. */
static uint64_t set_spt(struct disk_model *m, const double *rate)
{
	uint64_t per_cyl_sum = 0;

	for (int z = 0; z < m->nr_zones; z++) {
		double spt = rate[z] * 1e6 * (m->g.rev_ns + m->g.switch_ns) * 1e-9 / 512 + 0.5;

		m->zones[z].spt = max_t(uint32_t, (uint32_t)spt, 1);
		m->zones[z].sector_ns = m->g.rev_ns / m->zones[z].spt;
		per_cyl_sum += (uint64_t)m->zones[z].spt * m->g.heads;
	}
	return per_cyl_sum;
}

static void lay_out_zones(struct disk_model *m, uint32_t cyls_per_zone)
{
	uint64_t lba = 0, track = 0;

	for (int z = 0; z < m->nr_zones; z++) {
		m->zones[z].first_lba = lba;
		m->zones[z].first_track = track;
		m->zones[z].first_cyl = (uint32_t)z * cyls_per_zone;
		lba += (uint64_t)cyls_per_zone * m->g.heads * m->zones[z].spt;
		track += (uint64_t)cyls_per_zone * m->g.heads;
	}
}

static int build_zones(struct disk_model *m)
{
	const struct dm_config *c = &m->cfg;
	double rate[DM_MAX_ZONES];
	uint64_t per_cyl;
	uint32_t cyls_per_zone = 0;

	m->nr_zones = (int)c->zones;
	for (int z = 0; z < m->nr_zones; z++) {
		double f = m->nr_zones > 1 ? (double)z / (m->nr_zones - 1) : 0;

		rate[z] = c->nr_rate_at ? rate_at(c, (z + 0.5) / m->nr_zones)
					: c->rate_outer + (c->rate_inner - c->rate_outer) * f;
	}
	/*
	 * A tabled rate is a function of the capacity fraction; where a zone
	 * lies in LBAs depends on the rates before it: a few rounds settle it.
	 */
	for (int round = 0; round < (c->nr_rate_at ? 6 : 1); round++) {
		per_cyl = set_spt(m, rate);
		cyls_per_zone = (uint32_t)((c->capacity + per_cyl - 1) / per_cyl);
		lay_out_zones(m, cyls_per_zone);
		if (!c->nr_rate_at)
			break;
		for (int z = 0; z < m->nr_zones; z++) {
			uint64_t mid = m->zones[z].first_lba +
				       (uint64_t)cyls_per_zone * m->g.heads * m->zones[z].spt / 2;

			rate[z] = rate_at(c, (double)mid / (double)c->capacity);
		}
	}
	if (!cyls_per_zone) {
		pr_err("diskmodel: %s: no room for the zones\n", m->drive->name);
		return -EINVAL;
	}
	m->g.cylinders = cyls_per_zone * m->g.zones;
	m->g.spt_outer = m->zones[0].spt;
	m->g.spt_inner = m->zones[m->nr_zones - 1].spt;
	return 0;
}

/*
 * The model's own mean seek over pairs of uniformly random LBAs: the B of
 * the specification's random-read formula, as this model will pay it.
 * N quantiles of the capacity stand for the random LBAs; two in the same
 * 1/N of it lie a third of its cylinders apart on average.
 */
static double mean_random_seek(const struct disk_model *m)
{
	enum { N = 256 };
	uint32_t cyl[N];
	double sum = 0;

	for (int i = 0; i < N; i++)
		cyl[i] = dm_cylinder(m, (uint64_t)((i + 0.5) / N * (double)m->g.nr_sectors));
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			if (i != j)
				sum += dm_seek_ns(m, cyl[i] > cyl[j] ? cyl[i] - cyl[j]
								     : cyl[j] - cyl[i]);
	sum += N * dm_seek_ns(m, (uint32_t)(m->g.cylinders / (3.0 * N) + 0.5));
	return sum / ((double)N * N);
}

int dm_build_geometry(struct disk_model *m)
{
	const struct dm_config *c = &m->cfg;
	struct dm_geometry *g = &m->g;
	int err;

	g->nr_sectors = c->capacity;
	g->heads = c->heads;
	g->zones = c->zones;
	g->rev_ns = 60e9 / c->rpm;
	g->switch_ns = c->track_switch_ms * 1e6;
	g->bus_ns_per_byte = 1e9 / (c->bus_rate * 1e6);
	g->segments = c->segments;
	g->segment_sectors = c->buffer_kb * 2 / c->segments;
	g->min_readahead = c->min_readahead_kb * 2;
	g->lookahead = c->lookahead;
	g->lookbehind = c->lookbehind;
	g->zero_latency = c->zero_latency;
	g->aging_ns = c->ncq_aging_ms * 1e6;
	m->skew = g->switch_ns / g->rev_ns;
	m->skew -= floor(m->skew);
	err = build_zones(m);
	if (err)
		return err;
	if (c->nr_seek_at) {
		g->seek_tabled = true;
		m->nr_seek_tab = c->nr_seek_at;
		for (int i = 0; i < c->nr_seek_at; i++) {
			m->seek_tab_d[i] = max(c->seek_at[i] * (g->cylinders - 1), 1.0);
			m->seek_tab_ns[i] = c->seek_ms[i] * 1e6;
		}
	} else if (c->nr_seek_shape) {
		err = fit_seek_shape(m, c->seek_single, c->seek_average, c->seek_full);
		if (err)
			return err;
	} else {
		err = fit_seek_curve(m, c->seek_single, c->seek_average, c->seek_full);
		if (err)
			return err;
	}
	g->mean_random_seek_ns = mean_random_seek(m);
	if (c->overhead_ms >= 0) {
		g->overhead_ns = c->overhead_ms * 1e6;
	} else {
		/* [T7K250] Table 12 through its own formula (typical = 1.05 T) */
		double avg_rate = 0;

		for (int z = 0; z < m->nr_zones; z++)
			avg_rate += dm_zone_rate(m, z) / m->nr_zones;
		g->overhead_ns = c->random_4096_s / 1.05 / 4096 * 1e9 - g->mean_random_seek_ns -
				 g->rev_ns / 2 - 512 / avg_rate * 1e9 - 512 * g->bus_ns_per_byte;
		if (g->overhead_ns < 0) {
			pr_err("diskmodel: %s: random_4096 %.1f s leaves no time for the command "
			       "overhead: the model's mean seek is %.2f ms\n",
			       m->drive->name, c->random_4096_s, g->mean_random_seek_ns / 1e6);
			return -EINVAL;
		}
	}
	return 0;
}
