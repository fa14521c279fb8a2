/*
 * The disk probe's measurements and their analysis (see bench/probe.h).
 * Every step works from completion times alone; what a step cannot see
 * (heads, zones, the NCQ aging limit, a minimum read-ahead) is written
 * into the parameter table as "assumed".
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bench/probe.h"
#include "kernel/log.h"
#include "kernel/prandom.h"

#define MIB_SECTORS 2048ULL

struct probe {
	const struct dp_io *io;
	struct dp_result *r;
	uint64_t rng;
	int err;
};

/* One read at QD1; its time from issue to completion (0 after an error). */
static double rd(struct probe *p, uint64_t lba, uint32_t n, uint64_t *issued, uint64_t *done)
{
	struct dp_req q = {lba, n};
	uint64_t i = 0, d = 0;

	if (p->err)
		return 0;
	if (lba + n > p->io->nr_sectors)
		lba = p->io->nr_sectors - n;
	q.lba = lba;
	p->err = p->io->read(p->io->ctx, &q, 1, &i, &d);
	p->r->reads++;
	if (issued)
		*issued = i;
	if (done)
		*done = d;
	return p->err ? 0 : (double)(d - i);
}

/* A read far from @near (at least a tenth of the disk away): a miss that moves the head. */
static void far_read(struct probe *p, uint64_t near)
{
	uint64_t cap = p->io->nr_sectors, lba;

	do
		lba = prandom_u64(&p->rng) % (cap - 8);
	while ((lba > near ? lba - near : near - lba) < cap / 10);
	rd(p, lba, 1, NULL, NULL);
}

/* A read is a buffer hit when it takes little more than the hit time. */
static bool is_hit(const struct probe *p, double t, uint32_t n)
{
	return t < p->r->hit_ns + n * 512 * p->r->bus_ns_per_byte + 150000;
}

static double wrap(double x, double period)
{
	return x - floor(x / period) * period;
}

/* --- the buffer's hit time and the bus rate -------------------------------------------- */

static void probe_bus(struct probe *p)
{
	static const uint32_t sizes[] = {1, 16, 64, 128, 256};
	double x[15], y[15], a = 0, b = 0;
	int n = 0;

	p->r->hit_ns = 1e12;
	for (int rep = 0; rep < 3; rep++) {
		for (unsigned int i = 0; i < 5; i++) {
			uint64_t lba = p->io->nr_sectors / 8 + 100000 * (uint64_t)(rep * 5 + i);
			double t;

			rd(p, lba, sizes[i], NULL, NULL);
			t = rd(p, lba, sizes[i], NULL, NULL);
			x[n] = sizes[i] * 512.0;
			y[n++] = t;
			if (sizes[i] == 1)
				p->r->hit_ns = min(p->r->hit_ns, t);
		}
	}
	/* least squares, twice: the second without reads that were not hits */
	for (int round = 0; round < 2; round++) {
		double sx = 0, sy = 0, sxx = 0, sxy = 0;
		int m = 0;

		for (int i = 0; i < n; i++) {
			if (round && y[i] > a + b * x[i] + 100000)
				continue;
			sx += x[i];
			sy += y[i];
			sxx += x[i] * x[i];
			sxy += x[i] * y[i];
			m++;
		}
		if (m < 2 || sxx * m == sx * sx)
			break;
		b = (m * sxy - sx * sy) / (m * sxx - sx * sx);
		a = (sy - b * sx) / m;
	}
	p->r->bus_ns_per_byte = b > 0 ? b : 0;
	p->r->overhead_ns = a > 0 ? a : 0;
}

/* --- the rotation period ----------------------------------------------------------------- */

/* How well times @t[0..n) line up on @period: |mean of exp(2 pi i t / period)|. */
static double coherence(const double *t, int n, double period)
{
	double c = 0, s = 0;

	for (int i = 0; i < n; i++) {
		double ph = 2 * M_PI * wrap(t[i], period) / period;

		c += cos(ph);
		s += sin(ph);
	}
	return sqrt(c * c + s * s) / n;
}

/*
 * One sector, read again and again with 12-23 MiB read past it in between
 * (its segment moves on, so each read is a miss): every completion comes
 * one bus transfer after the sector passes under the head, so the
 * completions are a whole number of revolutions apart. The period is the
 * longest in 3-20 ms on which they line up (its fractions line up too);
 * a least-squares fit on the revolution counts refines it.
 */
static void probe_rotation(struct probe *p)
{
	enum { K = 24 };
	uint64_t lba = p->io->nr_sectors / 16, done;
	double t[K], d[K - 1], best = 0, best_c = 0, lo = 3e6, hi = 2e7;

	for (int k = 0; k < K && !p->err; k++) {
		uint64_t flush = (12 + (uint64_t)(k * 7) % 12) * MIB_SECTORS;

		rd(p, lba, 1, NULL, &done);
		t[k] = (double)done;
		for (uint64_t at = lba + 1; at < lba + 1 + flush; at += MIB_SECTORS)
			rd(p, at, MIB_SECTORS, NULL, NULL);
	}
	if (p->err)
		return;
	for (int k = 1; k < K; k++)
		d[k - 1] = t[k] - t[k - 1];
	/* coarse: consecutive gaps of some 30-60 revolutions */
	for (double T = lo; T < hi; T *= 1 + 1.0 / 4000) {
		double c = coherence(d, K - 1, T);

		if (c > 0.9 && T > best) {
			best = T;
			best_c = c;
		}
	}
	if (!best)
		return;
	/*
	 * Fine: least squares on the revolution counts, first of the gaps,
	 * then of every completion against the first (some 1000 revolutions
	 * on): each stage is exact enough to count the next one's.
	 */
	for (int k = K - 1; k >= 0; k--)
		t[k] -= t[0];
	for (int stage = 0; stage < 2; stage++) {
		const double *x = stage ? t + 1 : d;

		for (int it = 0; it < 3; it++) {
			double sn = 0, snn = 0;

			for (int k = 0; k < K - 1; k++) {
				double n = floor(x[k] / best + 0.5);

				sn += n * x[k];
				snn += n * n;
			}
			best = sn / snn;
		}
	}
	p->r->rev_ns = best;
	p->r->rev_coherence = coherence(t, K, best);
	(void)best_c;
}

/* --- the zone table -------------------------------------------------------------------- */

/*
 * 8 MiB at each point, in 1 MiB commands: all eight queued at once where
 * the disk queues (its media then runs without a gap even with no
 * look-ahead), else one at a time; the rate from the first completion to
 * the last.
 */
static void probe_rates(struct probe *p)
{
	uint64_t cap = p->io->nr_sectors, span = min_t(uint64_t, 8 * MIB_SECTORS, cap / 32);
	uint32_t cmd = (uint32_t)min_t(uint64_t, MIB_SECTORS, span / 8);
	bool queued = p->io->queue_depth >= 8;

	for (int j = 0; j < DP_RATE_POINTS && !p->err; j++) {
		uint64_t start =
			(uint64_t)((double)j / (DP_RATE_POINTS - 1) * (double)(cap - span));
		uint64_t first = 0, last = 0, done[8], issued;
		struct dp_req q[8];

		start -= start % 8;
		if (queued) {
			for (int k = 0; k < 8; k++)
				q[k] = (struct dp_req){start + (uint64_t)k * cmd, cmd};
			p->err = p->io->read(p->io->ctx, q, 8, &issued, done);
			p->r->reads += 8;
			first = done[0];
			for (int k = 0; k < 8; k++) {
				first = min(first, done[k]);
				last = max(last, done[k]);
			}
		} else {
			for (uint64_t at = start; at + cmd <= start + span; at += cmd)
				rd(p, at, cmd, NULL, at == start ? &first : &last);
		}
		p->r->rate_at[j] = (double)start / (double)cap;
		p->r->rate_mbps[j] = (double)(span - cmd) * 512 / ((double)(last - first) * 1e-3);
	}
	p->r->nr_rates = p->err ? 0 : DP_RATE_POINTS;
}

/*
 * Sectors a little apart on one track pass the head a fixed time apart:
 * misses at X, X + G, X + 2G ... (each after a far read) complete at
 * phases G sector times apart, unless a track boundary lies between (then
 * a switch and the skew). The median step gives the sector time; with the
 * sustained rate, the switch: rate = spt * 512 / (period + switch).
 */
static void probe_sector(struct probe *p)
{
	enum { K = 17, G = 128 };
	uint64_t x = MIB_SECTORS, done;
	double ph[K], st[K - 1], T = p->r->rev_ns;

	if (!T || !p->r->nr_rates)
		return;
	for (int k = 0; k < K && !p->err; k++) {
		far_read(p, x);
		rd(p, x + (uint64_t)k * G, 1, NULL, &done);
		ph[k] = wrap((double)done, T);
	}
	for (int k = 1; k < K; k++)
		st[k - 1] = wrap(ph[k] - ph[k - 1], T);
	for (int i = 1; i < K - 1; i++)
		for (int j = i; j > 0 && st[j] < st[j - 1]; j--) {
			double s = st[j];

			st[j] = st[j - 1];
			st[j - 1] = s;
		}
	p->r->sector_ns = st[(K - 1) / 2] / G;
	if (p->r->sector_ns > 0) {
		double spt = T / p->r->sector_ns;

		p->r->switch_ns = max(0.0, spt * 512 / (p->r->rate_mbps[0] * 1e6) * 1e9 - T);
	}
}

/* --- the buffer: look-ahead, look-behind, segments --------------------------------------- */

/* Is [lba + 8 + k, +8) buffered 0.4 s after a read of [lba, lba + 8)? */
static bool ahead_hit(struct probe *p, uint64_t lba, uint64_t k)
{
	uint64_t done;

	far_read(p, lba);
	rd(p, lba, 8, NULL, &done);
	p->io->wait_until(p->io->ctx, done + 400000000);
	return is_hit(p, rd(p, lba + 8 + k, 8, NULL, NULL), 8);
}

static void probe_lookahead(struct probe *p)
{
	uint64_t lba = p->io->nr_sectors / 4, lo = 0, hi = 65536;

	p->r->lookahead = ahead_hit(p, lba, 0);
	if (!p->r->lookahead)
		return;
	/* the furthest k that still hits: the look-ahead read k + 8 sectors past the read */
	while (hi - lo > 1 && !p->err) {
		uint64_t mid = (lo + hi) / 2;

		lba += 4 * 65536;
		if (ahead_hit(p, lba, mid))
			lo = mid;
		else
			hi = mid;
	}
	p->r->lookahead_sectors = (uint32_t)(lo + 8);
}

/* DIXtrac's test: after a positioned read of L, is L - 1 a buffer hit? */
static void probe_lookbehind(struct probe *p)
{
	uint64_t base = p->io->nr_sectors / 3;

	p->r->lookbehind_tries = 12;
	for (int i = 0; i < 12 && !p->err; i++) {
		uint64_t l = base + prandom_u64(&p->rng) % 1000000;

		far_read(p, l);
		rd(p, l, 1, NULL, NULL);
		p->r->lookbehind_hits += is_hit(p, rd(p, l - 1, 1, NULL, NULL), 1);
	}
	p->r->lookbehind = p->r->lookbehind_hits * 2 > p->r->lookbehind_tries;
}

/* @n streams, each reading its next 8 sectors in turn, twice round: did round two hit? */
static bool streams_hit(struct probe *p, unsigned int n, uint64_t base)
{
	uint64_t gap = p->io->nr_sectors / 2 / 80;
	int hits = 0;

	for (int round = 0; round < 2 && !p->err; round++)
		for (unsigned int s = 0; s < n; s++) {
			double t = rd(p, base + s * gap + (uint64_t)round * 8, 8, NULL, NULL);

			hits += round && is_hit(p, t, 8);
		}
	return hits == (int)n;
}

static void probe_segments(struct probe *p)
{
	unsigned int lo = 0, hi = 65;
	uint64_t base = p->io->nr_sectors / 2 + 1000;

	if (!p->r->lookahead)
		return;
	/* the most interleaved streams whose second reads all hit */
	while (hi - lo > 1 && !p->err) {
		unsigned int mid = (lo + hi) / 2;

		base += 4096;
		if (streams_hit(p, mid, base))
			lo = mid;
		else
			hi = mid;
	}
	p->r->segments = lo;
}

/* --- seeks -------------------------------------------------------------------------------- */

/*
 * The j-th of a series of delays spread evenly over a revolution (the
 * golden-ratio sequence), so the rotational waits after them cover it.
 */
static uint64_t spread(const struct dp_result *r, unsigned int j)
{
	double f = j * 0.6180339887498949;

	return (uint64_t)((f - floor(f)) * r->rev_ns);
}

/*
 * Cylinders are sectors over sectors per cylinder; with one rotation
 * speed and one switch time a zone's sectors per track follow its
 * sustained rate, so a cylinder coordinate is the integral of 1/rate.
 */
static double stroke_pos(const struct dp_result *r, double f)
{
	double c = 0, step = 1.0 / 512;

	for (double x = 0; x < f; x += step) {
		double w = min(step, f - x), mid = x + w / 2, rate = r->rate_mbps[0];

		for (int i = 1; i < r->nr_rates; i++)
			if (r->rate_at[i] >= mid) {
				rate = r->rate_mbps[i - 1] +
				       (r->rate_mbps[i] - r->rate_mbps[i - 1]) *
					       (mid - r->rate_at[i - 1]) /
					       (r->rate_at[i] - r->rate_at[i - 1]);
				break;
			} else if (i == r->nr_rates - 1) {
				rate = r->rate_mbps[i];
			}
		c += w / rate;
	}
	return c;
}

/*
 * The seek over @dist sectors: pairs of misses (A_j, A_j + dist), A_j
 * @gap apart: beyond what the look-ahead reads while a pair waits, and
 * clear of the last few B's, so every read is a miss. From B's
 * issue to its completion is the overhead, the seek, the rotational wait
 * (unknown, in [0, T)) and one sector: each pair brackets the seek in
 * (y - T, y]. B is issued a spread delay after A's completion, so the
 * waits cover a revolution and the bracket closes to about 2.6 T / pairs;
 * the short seeks (under 1% of the disk apart) get four times the pairs.
 */
static void probe_seek(struct probe *p, int i, uint64_t a0, uint64_t dist, uint64_t gap)
{
	struct dp_result *r = p->r;
	double lo = -1e18, hi = 1e18, T = r->rev_ns;

	r->seek_dist[i] = dist;
	r->seek_a0[i] = a0;
	r->seek_gap[i] = gap;
	for (unsigned int j = 0; j < r->seek_pairs[i] && !p->err; j++) {
		uint64_t a = a0 + j * gap, issued, done;
		double y;

		rd(p, a, 1, NULL, &done);
		p->io->wait_until(p->io->ctx, done + spread(r, j));
		rd(p, a + dist, 1, &issued, &done);
		y = (double)(done - issued) - r->hit_ns - r->sector_ns;
		hi = min(hi, y);
		lo = max(lo, y - T);
	}
	r->seek_lo[i] = lo;
	r->seek_hi[i] = hi;
	r->seek_ns[i] = (lo + hi) / 2;
}

static void probe_seeks(struct probe *p)
{
	struct dp_result *r = p->r;
	uint64_t cap = p->io->nr_sectors;
	double total = stroke_pos(r, 1);

	if (!r->rev_ns || !r->nr_rates)
		return;
	for (int i = 0; i < DP_SEEK_POINTS && !p->err; i++) {
		/* 4e-5 of the disk (a few cylinders) to the full stroke, geometrically */
		double f = 4e-5 * pow(1 / 4e-5, (double)i / (DP_SEEK_POINTS - 1));
		uint64_t dist = (uint64_t)(f * (double)cap), gap, span, a0;

		r->seek_pairs[i] = f < 0.01 ? 4 * r->pairs : r->pairs;

		/*
		 * A's more than a revolution's look-ahead apart (4 tracks' worth
		 * at the outer rate), and past the last B when B is near
		 */
		gap = max_t(uint64_t, 8192, (uint64_t)(4 * r->rate_mbps[0] * r->rev_ns / 512e3));
		if (dist < 16 * gap)
			gap += dist;
		span = r->seek_pairs[i] * gap + 8;
		if (i == DP_SEEK_POINTS - 1) {
			/* as near the full stroke as the pairs allow (the table extends it to 1) */
			a0 = 0;
			dist = cap - span - 1;
		} else {
			/* the pairs start in the outer part, clear of its very start */
			a0 = MIB_SECTORS * 64;
			if (a0 + dist + span >= cap)
				a0 = cap - dist - span - 1;
		}
		probe_seek(p, i, a0, dist, gap);
		{
			double mid = (double)(a0 + span / 2) / (double)cap;

			r->seek_frac[i] = (stroke_pos(r, mid + (double)dist / (double)cap) -
					   stroke_pos(r, mid)) /
					  total;
		}
		r->nr_seeks = i + 1;
	}
}

/*
 * Zero-latency read: a read whose head lands inside its range is done
 * exactly one revolution after it lands; plain reads end anywhere in
 * [length, T + length). Eighth-of-a-track reads after a known seek, issued
 * at delays spread over a revolution: with zero-latency read a few of them
 * (those landing inside) take the same time, one revolution and the seek;
 * without it no three fall within 20 us of each other.
 */
static void probe_zero_latency(struct probe *p)
{
	struct dp_result *r = p->r;
	double y[64];
	uint32_t n;
	int idx = 8, best = 0;

	if (!r->rev_ns || !r->sector_ns || r->nr_seeks <= idx)
		return;
	n = (uint32_t)(r->rev_ns / r->sector_ns / 8);
	r->zl_tries = 48;
	for (int j = 0; j < r->zl_tries && !p->err; j++) {
		uint64_t a = r->seek_a0[idx] + MIB_SECTORS * 32 + (uint64_t)j * 4096, issued, done;

		rd(p, a, 1, NULL, &done);
		p->io->wait_until(p->io->ctx, done + spread(r, (unsigned int)j));
		rd(p, a + r->seek_dist[idx], n, &issued, &done);
		y[j] = (double)(done - issued) - r->hit_ns - r->seek_ns[idx];
	}
	/* the largest cluster within 20 us, near one revolution (the seek's error aside) */
	for (int i = 0; i < r->zl_tries; i++) {
		int c = 0;

		if (fabs(y[i] - r->rev_ns) > 200000)
			continue;
		for (int j = 0; j < r->zl_tries; j++)
			c += y[j] >= y[i] && y[j] < y[i] + 20000;
		best = max(best, c);
	}
	r->zl_spike = best;
	r->zero_latency = best >= 3;
}

/* --- NCQ --------------------------------------------------------------------------------- */

static void probe_ncq(struct probe *p)
{
	static const unsigned int qds[DP_NCQ_POINTS] = {1, 2, 4, 8, 16, 32};
	struct dp_req q[32];
	uint64_t done[32];

	for (int i = 0; i < DP_NCQ_POINTS && !p->err; i++) {
		unsigned int qd = min(qds[i], p->io->queue_depth), total = 0;
		uint64_t t0 = p->io->now(p->io->ctx), issued, end = t0;

		p->r->ncq_qd[i] = qd;
		while (total < 256 && !p->err) {
			for (unsigned int k = 0; k < qd; k++)
				q[k] = (struct dp_req){(prandom_u64(&p->rng) % (p->io->nr_sectors / 8)) * 8,
						       8};
			p->err = p->io->read(p->io->ctx, q, qd, &issued, done);
			p->r->reads += qd;
			for (unsigned int k = 0; k < qd; k++)
				end = max(end, done[k]);
			total += qd;
		}
		p->r->ncq_iops[i] = total / ((double)(end - t0) * 1e-9);
	}
}

int dp_probe(const struct dp_io *io, unsigned int minutes, struct dp_result *r)
{
	struct probe p = {.io = io, .r = r, .rng = 0x2545F4914F6CDD1DULL};
	uint64_t t0 = io->now(io->ctx);

	memset(r, 0, sizeof(*r));
	r->nr_sectors = io->nr_sectors;
	r->queue_depth = io->queue_depth;
	r->pairs = (unsigned int)min_t(unsigned int, max_t(unsigned int, minutes * 48, 32), 960);
	if (io->nr_sectors < 64 * MIB_SECTORS * 4) {
		pr_err("diskprobe: the disk holds %llu sectors; the probe needs 256 MiB or more\n",
		       (unsigned long long)io->nr_sectors);
		return -EINVAL;
	}
	probe_bus(&p);
	probe_rotation(&p);
	probe_rates(&p);
	probe_sector(&p);
	probe_lookahead(&p);
	probe_lookbehind(&p);
	probe_segments(&p);
	probe_seeks(&p);
	probe_zero_latency(&p);
	probe_ncq(&p);
	r->probe_ns = (double)(io->now(io->ctx) - t0);
	return p.err;
}

/* --- the parameter table ------------------------------------------------------------------ */

static void emit(void (*line)(void *ctx, const char *text), void *ctx, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void emit(void (*line)(void *ctx, const char *text), void *ctx, const char *fmt, ...)
{
	char buf[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	line(ctx, buf);
}

void dp_params(const struct dp_result *r, const char *name, const char *desc,
	       void (*line)(void *ctx, const char *text), void *ctx)
{
	unsigned int segs = r->segments ? r->segments : 1;
	uint32_t seg_kb = r->lookahead ? max_t(uint32_t, r->lookahead_sectors / 2, 4) : 64;
	double last = 0;

	emit(line, ctx, "name %s", name);
	emit(line, ctx, "desc %s", desc);
	emit(line, ctx, "capacity %llu sectors [probe] the disk's size (IDENTIFY)",
	     (unsigned long long)r->nr_sectors);
	emit(line, ctx,
	     "rpm %.6g rev/min [probe] a revolution in %.4f ms: 24 completions of one sector "
	     "line up on it (coherence %.3f)",
	     6e10 / r->rev_ns, r->rev_ns / 1e6, r->rev_coherence);
	emit(line, ctx,
	     "heads 2 surfaces assumed: reads alone cannot count surfaces (it only places "
	     "head switches)");
	emit(line, ctx, "zones 30 zones assumed: equal-width zones between the tabled rates below");
	emit(line, ctx,
	     "track_switch %.4g ms [probe] a sector takes %.3f us in zone 0: %.0f sectors a "
	     "track; rate = spt * 512 / (T + switch)",
	     r->switch_ns / 1e6, r->sector_ns / 1e3, r->sector_ns ? r->rev_ns / r->sector_ns : 0);
	for (int i = 0; i < r->nr_rates; i++)
		emit(line, ctx, "rate_at %.6g %.5g MB/s [probe] 8 MiB read in 1 MiB commands",
		     r->rate_at[i], r->rate_mbps[i]);
	for (int i = 0; i < r->nr_seeks; i++) {
		if (r->seek_frac[i] <= last || r->seek_frac[i] >= 1)
			continue;
		last = r->seek_frac[i];
		emit(line, ctx,
		     "seek_at %.6g %.5g ms [probe] %llu sectors apart: %u pairs bracket it in "
		     "%.3f..%.3f ms",
		     r->seek_frac[i], max(r->seek_ns[i] / 1e6, 0.01),
		     (unsigned long long)r->seek_dist[i], r->seek_pairs[i], r->seek_lo[i] / 1e6,
		     r->seek_hi[i] / 1e6);
	}
	if (r->nr_seeks >= 2) {
		/* the full stroke, extended from the two longest seeks measured */
		int i = r->nr_seeks - 1;
		double slope = (r->seek_ns[i] - r->seek_ns[i - 1]) /
			       (r->seek_frac[i] - r->seek_frac[i - 1]);

		emit(line, ctx,
		     "seek_at 1 %.5g ms [probe] the longest pairs (%.4f of the stroke, %.3f ms) "
		     "extended to the full stroke",
		     max((r->seek_ns[i] + slope * (1 - r->seek_frac[i])) / 1e6, 0.01),
		     r->seek_frac[i], r->seek_ns[i] / 1e6);
	}
	emit(line, ctx,
	     "overhead %.5g ms [probe] a one-sector buffer hit (%.1f us) less its bus transfer, "
	     "the host's own path included",
	     r->overhead_ns / 1e6, r->hit_ns / 1e3);
	emit(line, ctx, "buffer %u KiB [probe] segments x the look-ahead's length", segs * seg_kb);
	emit(line, ctx,
	     "segments %u segments [probe] the most interleaved streams whose next reads "
	     "all hit%s",
	     segs, r->segments ? "" : " (none hit: assumed 1)");
	emit(line, ctx, "lookahead %d bool [probe] %s", r->lookahead ? 1 : 0,
	     r->lookahead ? "the sectors after a read are buffered; it reads on for the length "
			    "of a segment"
			  : "the sectors after a read are not buffered");
	emit(line, ctx,
	     "lookbehind %d bool [probe] DIXtrac's test: the sector before a positioned read "
	     "was a hit %d times of %d",
	     r->lookbehind ? 1 : 0, r->lookbehind_hits, r->lookbehind_tries);
	emit(line, ctx,
	     "zero_latency %d bool [probe] %d of %d eighth-track reads ended one revolution "
	     "after the seek",
	     r->zero_latency ? 1 : 0, r->zl_spike, r->zl_tries);
	emit(line, ctx, "min_readahead 0 KiB assumed: not measured");
	emit(line, ctx, "bus_rate %.5g MB/s [probe] buffer hits of 1 to 256 sectors",
	     r->bus_ns_per_byte > 0 ? 1e3 / r->bus_ns_per_byte : 300.0);
	emit(line, ctx, "ncq_depth %u commands [probe] the disk's queue depth",
	     r->queue_depth ? min(r->queue_depth, 32u) : 1);
	emit(line, ctx,
	     "ncq_aging 1000 ms assumed: not measured (the hitachi-t7k250 table's assumption)");
}
