/*
 * The disk timing model (drivers/diskmodel.c), checked three ways:
 *  - consistency checks: the model reproduces the figures it was built
 *    from (seek curve, zone rates, the random-read table its overhead is
 *    solved from). They catch a broken fit, not a wrong model;
 *  - independent checks: figures the model was not built from (the
 *    specification's sequential table, Table 11, within 2%; sequential
 *    reads paced by a thinking host at the zone rate or the host's limit);
 *  - behaviour: the buffer, the look-ahead, look-behind, zero-latency read,
 *    NCQ, aging, determinism and bad input, each with a case that the
 *    defect it guards against would fail.
 * Pure computation: it runs on the host and in the kernel.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "drivers/diskmodel-params.h"
#include "drivers/diskmodel.h"
#include "kernel/ktest.h"
#include "kernel/prandom.h"
#include "mm/mm.h"
#include "tests/common/test_mm_helpers.h"

#define MODEL "hitachi-t7k250"

/* Within @pct percent of @want; reports both figures on failure. */
#define EXPECT_NEAR_PCT(t, got, want, pct)                                             \
	do {                                                                           \
		double __g = (got), __w = (want);                                      \
		printf("    # %s: %.4f (want %.4f, %+.2f%%)\n", #got, __g, __w,        \
		       (__g - __w) / __w * 100);                                       \
		if (!(fabs(__g - __w) <= fabs(__w) * (pct) / 100.0))                   \
			KT_FAIL(t, "%s = %.4f, want %.4f within %g%%", #got, __g, __w, \
				(double)(pct));                                        \
	} while (0)

static uint64_t rng_state;

static uint64_t rng(void)
{
	return prandom_u64(&rng_state);
}

/* A model of the built-in drive with one parameter changed. */
static struct disk_model *model_with(const char *key, double value)
{
	char err[256];
	struct dm_drive *d = dm_drive_set(dm_find_drive(MODEL), key, value, err, sizeof(err));
	struct disk_model *m;

	if (!d) {
		printf("    # %s\n", err);
		return NULL;
	}
	m = dm_create_drive(d, 0);
	dm_drive_free(d);
	return m;
}

/* A model with two parameters changed. */
static struct disk_model *model_with2(const char *k1, double v1, const char *k2, double v2)
{
	char err[256];
	struct dm_drive *d1 = dm_drive_set(dm_find_drive(MODEL), k1, v1, err, sizeof(err));
	struct dm_drive *d2 = d1 ? dm_drive_set(d1, k2, v2, err, sizeof(err)) : NULL;
	struct disk_model *m = d2 ? dm_create_drive(d2, 0) : NULL;

	if (!d2)
		printf("    # %s\n", err);
	dm_drive_free(d1);
	dm_drive_free(d2);
	return m;
}

/* One command at @now, waited for; its completion in *@c. Returns the time it ended. */
static uint64_t one(struct disk_model *m, int tag, uint64_t lba, uint32_t n, uint64_t now,
		    struct dm_completion *c)
{
	struct dm_completion dummy;

	if (!c)
		c = &dummy;
	if (dm_submit(m, tag, DM_READ, lba, n, now))
		return 0;
	while (dm_reap(m, now, c) < 0)
		now = dm_next_event(m);
	return now;
}

/*
 * @n reads of @nsect at QD1 from @start, each issued @think ns after the
 * previous ended; returns the time from the first issue to the last end.
 */
static uint64_t run_qd1(struct disk_model *m, uint64_t now, uint64_t start, int n, uint32_t nsect,
			int64_t stride, uint64_t think, uint64_t *first_done)
{
	uint64_t t0 = now;

	for (int i = 0; i < n; i++) {
		now = one(m, i % DM_MAX_QUEUE, start + (uint64_t)((int64_t)i * stride), nsect, now,
			  NULL);
		if (!now)
			return 0;
		if (i == 0 && first_done)
			*first_done = now;
		if (i < n - 1)
			now += think;
	}
	return now - t0;
}

/* --- consistency checks: the figures the model was built from ------------------------- */

/*
 * The built-in drive's rows but the seek_shape ones, and @extra (rows of
 * its own, or NULL) after them: a drive whose curve is the Ruemmler-Wilkes
 * fit through the three figures alone, or has another shape. Freed with
 * kfree() (one allocation, the rows after the drive).
 */
static struct dm_drive *drive_reshaped(const struct dm_param *extra, int nr_extra)
{
	const struct dm_drive *d = dm_find_drive(MODEL);
	struct dm_drive *c =
		kzalloc(sizeof(*c) + (size_t)(d->nr_params + nr_extra) * sizeof(struct dm_param));
	struct dm_param *rows;
	int n = 0;

	if (!c)
		return NULL;
	rows = (struct dm_param *)(c + 1);
	for (int i = 0; i < d->nr_params; i++)
		if (strcmp(d->params[i].key, "seek_shape"))
			rows[n++] = d->params[i];
	for (int i = 0; i < nr_extra; i++)
		rows[n++] = extra[i];
	c->name = "reshaped";
	c->desc = d->desc;
	c->params = rows;
	c->nr_params = n;
	return c;
}

/* The three datasheet figures hold, whatever the curve's shape between them. */
static void check_anchors(struct ktest *t, struct disk_model *m)
{
	const struct dm_drive *d = dm_find_drive(MODEL);
	struct dm_geometry g;
	double sum = 0;
	int n = 0;

	dm_geometry(m, &g);
	EXPECT_NEAR_PCT(t, dm_seek_ns(m, 1) / 1e6, dm_param(d, "seek_single"), 1);
	EXPECT_NEAR_PCT(t, dm_seek_ns(m, g.cylinders - 1) / 1e6, dm_param(d, "seek_full"), 1);
	/* the specification's average: over all pairs of cylinders (random pairs here) */
	rng_state = 0x9e3779b97f4a7c15ULL;
	for (int i = 0; i < 200000; i++) {
		uint32_t a = (uint32_t)(rng() % g.cylinders), b = (uint32_t)(rng() % g.cylinders);

		if (a == b)
			continue;
		sum += dm_seek_ns(m, a > b ? a - b : b - a);
		n++;
	}
	EXPECT_NEAR_PCT(t, sum / n / 1e6, dm_param(d, "seek_average"), 1);
	/* continuous where the last piece begins */
	EXPECT_NEAR_PCT(t, dm_seek_ns(m, g.seek_d0 - 1), dm_seek_ns(m, g.seek_d0), 1);
}

static void test_dm_consistency_seek(struct ktest *t)
{
	struct disk_model *m = dm_create(MODEL, 0);
	struct dm_drive *rw = drive_reshaped(NULL, 0);
	const struct dm_drive *d = dm_find_drive(MODEL);
	struct dm_geometry g;
	double x0 = -1, y0 = 0, prev = 0, prev_at = 0;

	KT_ASSERT_TRUE(t, m != NULL && rw != NULL);
	/* the built-in curve: [ibm18es]'s shape, scaled */
	dm_geometry(m, &g);
	KT_EXPECT_TRUE(t, g.seek_shaped);
	check_anchors(t, m);
	/*
	 * It is its rows, mapped: a row at x of the source's stroke lands at
	 * x * scale * D and takes t1 + k (its time - the first row's), and
	 * between two rows the curve stays between them.
	 */
	for (int i = 0; i < d->nr_params; i++) {
		const struct dm_param *p = &d->params[i];
		double at, want, mid, lo, hi;

		if (strcmp(p->key, "seek_shape"))
			continue;
		if (x0 < 0)
			x0 = p->at, y0 = p->value;
		at = p->at * g.seek_shape_scale * (g.cylinders - 1);
		want = dm_param(d, "seek_single") + g.seek_shape_k * (p->value - y0);
		if (at >= 2 && at < g.cylinders - 1) {
			double got = dm_seek_ns(m, (uint32_t)at) / 1e6;

			/* the row's distance rounds down to a cylinder: within its step */
			if (fabs(got - want) > 0.02 + fabs(want - prev))
				KT_FAIL(t, "row at %g: %.4f ms, want %.4f", p->at, got, want);
			uint32_t md = (uint32_t)((at + prev_at) / 2);

			mid = dm_seek_ns(m, md) / 1e6;
			lo = min(prev, want) - 1e-9;
			hi = max(prev, want) + 1e-9;
			if (prev_at >= 2 && md > prev_at && md < at && (mid < lo || mid > hi))
				KT_FAIL(t, "between rows near %g: %.4f ms outside [%.4f, %.4f]",
					p->at, mid, lo, hi);
		}
		prev = want;
		prev_at = at;
	}
	printf("    # k %.4f, scale %.5f (the source's stroke is %.2f of this one's motion); "
	       "%.3f ms at 1%% of the stroke, %.3f at 2.5%%\n",
	       g.seek_shape_k, g.seek_shape_scale, 1 / g.seek_shape_scale,
	       dm_seek_ns(m, (g.cylinders - 1) / 100) / 1e6,
	       dm_seek_ns(m, (g.cylinders - 1) / 40) / 1e6);
	dm_destroy(m);
	/* the fit through the three figures alone: the same, and monotone */
	m = dm_create_drive(rw, 0);
	kfree(rw);
	KT_ASSERT_TRUE(t, m != NULL);
	dm_geometry(m, &g);
	KT_EXPECT_TRUE(t, !g.seek_shaped && !g.seek_tabled);
	check_anchors(t, m);
	KT_EXPECT_LT(t, dm_seek_ns(m, g.seek_d0 - 1), dm_seek_ns(m, g.seek_d0 + 1));
	for (uint32_t dist = 1; dist + 97 < g.cylinders; dist += 97)
		KT_EXPECT_LT(t, dm_seek_ns(m, dist), dm_seek_ns(m, dist + 97));
	dm_destroy(m);
}

/*
 * Worked by hand: a shape that is the Ruemmler-Wilkes fit itself (sampled
 * on this drive's own stroke) already meets the three figures, so scaling
 * it must change nothing: k = 1, scale = 1, and the curve is the fit's at
 * every distance, between the rows too (sqrt interpolation is exact on the
 * a + b sqrt(d) piece; on the linear one the rows are close).
 */
static void test_dm_shape_identity(struct ktest *t)
{
	enum { N = 120 };
	static struct dm_param rows[N];
	struct dm_drive *rw = drive_reshaped(NULL, 0), *sh = NULL;
	struct disk_model *a = rw ? dm_create_drive(rw, 0) : NULL, *b = NULL;
	struct dm_geometry g;
	double D, worst = 0, prev_d = 0;

	KT_ASSERT_TRUE(t, a != NULL);
	dm_geometry(a, &g);
	D = g.cylinders - 1;
	for (int i = 0; i < N; i++) {
		/* 1 cylinder to the full stroke, geometrically, then every 2% */
		double d = i < 80 ? floor(pow(D / 2, i / 79.0)) : D * (0.4 + 0.6 * (i - 80) / 39);

		if (d <= prev_d)
			d = prev_d + 1;
		prev_d = d;
		rows[i] = (struct dm_param){"seek_shape", d / D, dm_seek_ns(a, (uint32_t)d) / 1e6,
					    "ms", "the fit itself"};
	}
	sh = drive_reshaped(rows, N);
	b = sh ? dm_create_drive(sh, 0) : NULL;
	KT_ASSERT_TRUE(t, b != NULL);
	dm_geometry(b, &g);
	EXPECT_NEAR_PCT(t, g.seek_shape_k, 1.0, 0.5);
	EXPECT_NEAR_PCT(t, g.seek_shape_scale, 1.0, 0.5);
	for (uint32_t d = 1; d < g.cylinders; d += 1 + d / 50) {
		double e = fabs(dm_seek_ns(b, d) / dm_seek_ns(a, d) - 1);

		worst = max(worst, e);
	}
	printf("    # worst distance: %.3f%% off the fit\n", worst * 100);
	KT_EXPECT_TRUE(t, worst < 0.005);
	dm_destroy(a);
	dm_destroy(b);
	kfree(rw);
	kfree(sh);
}

/* A shape that cannot be scaled is refused with one message, and no model is built. */
static void test_dm_shape_refused(struct ktest *t)
{
	/* its coast falls: the last rows beyond half its stroke go down */
	static const struct dm_param falling[] = {
		{"seek_shape", 0.001, 1.0, "ms", "t"},
		{"seek_shape", 0.1, 5.0, "ms", "t"},
		{"seek_shape", 0.6, 9.0, "ms", "t"},
		{"seek_shape", 0.9, 8.0, "ms", "t"},
	};
	struct dm_drive *d = drive_reshaped(falling, 4);

	KT_ASSERT_TRUE(t, d != NULL);
	KT_EXPECT_TRUE(t, dm_create_drive(d, 0) == NULL);
	kfree(d);
}

/* Sustained rate of zone @z through the model: 64 MiB at 1 MiB a command, back to back. */
static double zone_rate(int z)
{
	struct disk_model *m = dm_create(MODEL, 0);
	uint64_t first = 0, total = run_qd1(m, 0, dm_zone_start(m, z), 64, 2048, 2048, 0, &first);

	dm_destroy(m);
	/* from the first completion: positioning excluded */
	return 63.0 * 2048 * 512 / ((double)(total - first) * 1e-9);
}

static void test_dm_consistency_zones(struct ktest *t)
{
	const struct dm_drive *d = dm_find_drive(MODEL);
	struct disk_model *m = dm_create(MODEL, 0);
	struct dm_geometry g;

	KT_ASSERT_TRUE(t, m != NULL);
	dm_geometry(m, &g);
	KT_EXPECT_EQ(t, g.zones, 30);
	KT_EXPECT_GT(t, g.spt_outer, g.spt_inner);
	/* the geometry covers the drive and the last zone holds its last sector */
	KT_EXPECT_EQ(t, dm_zone(m, g.nr_sectors - 1), 29);
	KT_EXPECT_EQ(t, dm_zone(m, 0), 0);
	EXPECT_NEAR_PCT(t, dm_zone_rate(m, 0) / 1e6, dm_param(d, "rate_outer"), 1);
	EXPECT_NEAR_PCT(t, dm_zone_rate(m, 29) / 1e6, dm_param(d, "rate_inner"), 1);
	EXPECT_NEAR_PCT(t, zone_rate(0) / 1e6, dm_param(d, "rate_outer"), 1);
	EXPECT_NEAR_PCT(t, zone_rate(29) / 1e6, dm_param(d, "rate_inner"), 1);
	dm_destroy(m);
}

/*
 * [T7K250] Table 12, the figure the overhead is solved from: 4096 random
 * single-sector reads (typical = 105% of T), within 1%; and the overhead
 * solved against the model's own mean seek over random LBAs (here by
 * sampling pairs), not the datasheet's 8.5 ms, which this model's zoned
 * geometry does not pay.
 */
static void test_dm_consistency_random_table(struct ktest *t)
{
	const struct dm_drive *d = dm_find_drive(MODEL);
	struct disk_model *m = dm_create(MODEL, 0);
	struct dm_geometry g;
	double seek = 0, want;
	uint64_t total, now = 0;

	KT_ASSERT_TRUE(t, m != NULL);
	dm_geometry(m, &g);
	rng_state = 12345;
	for (int i = 0; i < 4096; i++)
		now = one(m, 0, rng() % g.nr_sectors, 1, now, NULL);
	total = now;
	EXPECT_NEAR_PCT(t, (double)total * 1e-9, dm_param(d, "random_4096") / 1.05, 1);
	for (int i = 0; i < 400000; i++) {
		uint32_t a = dm_cylinder(m, rng() % g.nr_sectors);
		uint32_t b = dm_cylinder(m, rng() % g.nr_sectors);

		seek += dm_seek_ns(m, a > b ? a - b : b - a) / 400000;
	}
	want = dm_param(d, "random_4096") / 1.05 / 4096 * 1e9 - seek - g.rev_ns / 2 -
	       512 / ((67.8e6 + 32.9e6) / 2) * 1e9 - 512 * g.bus_ns_per_byte;
	printf("    # overhead %.1f us; the model's mean random seek %.3f ms (sampled %.3f)\n",
	       g.overhead_ns / 1e3, g.mean_random_seek_ns / 1e6, seek / 1e6);
	KT_EXPECT_LT(t, fabs(g.overhead_ns - want), 25000); /* sampling: 6.5 us a sigma */
	KT_EXPECT_LT(t, seek, 8.45e6); /* below the datasheet's 8.5: outer zones hold more */
	dm_destroy(m);
}

/* --- independent checks ---------------------------------------------------------------- */

/*
 * [T7K250] Table 11: 16 MiB in 128 commands, typical = 105% of T. The head
 * starts elsewhere (mid-disk), so the first command pays a seek and a
 * rotation, as the formula's B and C do. The model's zone rates come from
 * other documents, so this is a check of the model, within 2%.
 */
static double seq16(int z)
{
	struct disk_model *m = dm_create(MODEL, 0);
	struct dm_geometry g;
	uint64_t now, total;

	dm_geometry(m, &g);
	now = one(m, 0, g.nr_sectors / 2, 8, 0, NULL);
	total = run_qd1(m, now + 50000000, dm_zone_start(m, z), 128, 256, 256, 0, NULL);
	dm_destroy(m);
	return (double)total * 1e-9;
}

static void test_dm_table11(struct ktest *t)
{
	const struct dm_drive *d = dm_find_drive(MODEL);

	EXPECT_NEAR_PCT(t, seq16(0), dm_param(d, "seq_16m_zone0") / 1.05, 2);
	EXPECT_NEAR_PCT(t, seq16(29), dm_param(d, "seq_16m_zone29") / 1.05, 2);
}

/*
 * Sequential 64 KiB reads at QD1 with the host thinking between commands:
 * each at the zone rate or the host's own limit (think + overhead + bus
 * transfer per command), whichever is lower, within 3%. The look-ahead
 * must keep up with a paced reader: a buffer hit raises its limit, and a
 * look-ahead paused on a full segment resumes.
 */
static void test_dm_think_sweep(struct ktest *t)
{
	static const uint64_t thinks[] = {0, 500000, 700000, 1000000, 2000000, 5000000};

	for (unsigned int i = 0; i < sizeof(thinks) / sizeof(thinks[0]); i++) {
		struct disk_model *m = dm_create(MODEL, 0);
		struct dm_geometry g;
		uint64_t first = 0, total;
		double rate, host, want;

		dm_geometry(m, &g);
		total = run_qd1(m, 0, 1000000, 400, 128, 128, thinks[i], &first);
		rate = 399.0 * 65536 / ((double)(total - first) * 1e-9);
		host = 65536 /
		       (((double)thinks[i] + g.overhead_ns + 65536 * g.bus_ns_per_byte) * 1e-9);
		want = min(host, dm_zone_rate(m, 0));
		printf("    # think %4llu us: %.2f MB/s (zone %.2f, host %.2f)\n",
		       (unsigned long long)thinks[i] / 1000, rate / 1e6, dm_zone_rate(m, 0) / 1e6,
		       host / 1e6);
		EXPECT_NEAR_PCT(t, rate / 1e6, want / 1e6, 3);
		dm_destroy(m);
	}
}

/* --- behaviour ----------------------------------------------------------------------- */

static void test_dm_buffer(struct ktest *t)
{
	struct disk_model *m = dm_create(MODEL, 0);
	const struct dm_stats *st;
	struct dm_completion c;
	uint64_t now = 1000000;
	struct dm_geometry g;

	KT_ASSERT_TRUE(t, m != NULL);
	dm_geometry(m, &g);
	/* a miss, then the same sectors again: a buffer hit costs the overhead and the bus */
	now = one(m, 0, 1000000, 8, now, &c);
	KT_EXPECT_TRUE(t, !c.buffer_hit && !c.stream_hit);
	now = one(m, 1, 1000000, 8, now, &c);
	KT_EXPECT_TRUE(t, c.buffer_hit);
	KT_EXPECT_LE(t, c.done_ns - c.arrive_ns, (uint64_t)(g.overhead_ns + 4096 * 4) + 2);
	/* the next sectors: the look-ahead has them or is reading them; no seek, no rotation */
	now = one(m, 2, 1000008, 256, now, &c);
	KT_EXPECT_TRUE(t, c.buffer_hit || c.stream_hit);
	KT_EXPECT_EQ(t, c.seek_ns + c.rotate_ns, 0);
	/* far away: a seek */
	now = one(m, 3, g.nr_sectors - 8, 8, now, &c);
	KT_EXPECT_GT(t, c.seek_ns, 10000000);
	st = dm_stats(m);
	KT_EXPECT_EQ(t, st->commands, 4);
	KT_EXPECT_EQ(t, st->misses, 2);
	KT_EXPECT_EQ(t, st->seeks, 2); /* from cylinder 0 to the first read, then to the end */
	/* nothing left */
	KT_EXPECT_EQ(t, dm_next_event(m), DM_NONE);
	KT_EXPECT_EQ(t, dm_reap(m, now + 1000000000ULL, &c), -1);
	dm_destroy(m);
}

/*
 * A read ending at a track's end, then the next sectors: the look-ahead
 * needs a head switch to go on, so the second read pays it (zone 0 holds
 * 1299 sectors a track; 128 sectors take 0.82 ms, the switch 1.48 ms).
 * The switch starts as the first read's data leaves, so it overlaps the
 * second command's overhead.
 */
static void test_dm_track_end(struct ktest *t)
{
	struct disk_model *m = dm_create(MODEL, 0);
	struct dm_geometry g;
	struct dm_completion c;
	uint64_t now;
	double want;

	KT_ASSERT_TRUE(t, m != NULL);
	dm_geometry(m, &g);
	KT_ASSERT_EQ(t, g.spt_outer, 1299);
	now = one(m, 0, 0, 1299, 0, NULL);
	one(m, 1, 1299, 128, now, &c);
	want = g.switch_ns + 128 * g.rev_ns / 1299;
	EXPECT_NEAR_PCT(t, (double)(c.done_ns - c.arrive_ns) / 1e3, want / 1e3, 3);
	dm_destroy(m);
}

/*
 * A read whose front the look-ahead has already buffered and whose rest it
 * is reading, queued behind a read the look-ahead will reach later: the
 * scheduler must see what service will do (no positioning, no wait) and
 * take it first, not cost it a revolution back to its start.
 */
static void test_dm_sptf_agrees(struct ktest *t)
{
	struct disk_model *m = dm_create(MODEL, 0);
	struct dm_completion c, a = {0}, b = {0};
	uint64_t now;

	KT_ASSERT_TRUE(t, m != NULL);
	now = one(m, 0, 2000000, 128, 0, NULL) + 1000000;
	/*
	 * 1 ms on, the look-ahead is some 170 sectors past the read. A hit
	 * takes the mechanism first, so the two reads after it wait together.
	 */
	dm_submit(m, 0, DM_READ, 2000000, 8, now);
	dm_submit(m, 1, DM_READ, 2000000 + 600, 8, now);   /* ahead of the look-ahead */
	dm_submit(m, 2, DM_READ, 2000000 + 150, 512, now); /* front buffered, rest streaming */
	while (dm_next_event(m) != DM_NONE) {
		now = dm_next_event(m);
		while (dm_reap(m, now, &c) >= 0)
			if (c.tag)
				*(c.tag == 1 ? &b : &a) = c;
	}
	KT_EXPECT_TRUE(t, a.stream_hit);
	KT_EXPECT_EQ(t, a.seek_ns + a.rotate_ns, 0);
	KT_EXPECT_LT(t, a.done_ns, b.done_ns);
	KT_EXPECT_EQ(t, dm_stats(m)->reordered, 1);
	dm_destroy(m);
}

/* A buffer hit uses the bus, not the mechanism: a read queued with it starts after its overhead. */
static void test_dm_hit_frees_mechanism(struct ktest *t)
{
	struct disk_model *m = dm_create(MODEL, 0);
	struct dm_completion c, hit = {0}, miss = {0};
	struct dm_geometry g;
	uint64_t now, t_sub;

	KT_ASSERT_TRUE(t, m != NULL);
	dm_geometry(m, &g);
	now = one(m, 0, 3000000, 2048, 0, NULL); /* 1 MiB, stays buffered */
	t_sub = now + 1000000; /* the look-ahead runs on; the 1 MiB is still buffered */
	dm_submit(m, 1, DM_READ, 3000000, 2048, t_sub);
	dm_submit(m, 2, DM_READ, 90000000, 8, t_sub);
	while (dm_next_event(m) != DM_NONE) {
		now = dm_next_event(m);
		while (dm_reap(m, now, &c) >= 0)
			*(c.tag == 1 ? &hit : &miss) = c;
	}
	KT_EXPECT_TRUE(t, hit.buffer_hit);
	/* 1 MiB over the bus takes 3.5 ms; the miss starts after the hit's overhead */
	KT_EXPECT_LE(t, miss.start_ns, t_sub + (uint64_t)g.overhead_ns + 1);
	KT_EXPECT_GE(t, hit.done_ns - t_sub, (uint64_t)(2048 * 512 * g.bus_ns_per_byte));
	dm_destroy(m);
}

/* 32 random reads queued at once, against the same 32 one at a time (from the same state). */
static uint64_t random_batch(bool queued, uint64_t *reordered)
{
	struct disk_model *m = dm_create(MODEL, 0);
	struct dm_geometry g;
	uint64_t now, t0, lbas[DM_MAX_QUEUE];
	struct dm_completion c;

	dm_geometry(m, &g);
	rng_state = 777;
	for (int i = 0; i < DM_MAX_QUEUE; i++)
		lbas[i] = rng() % g.nr_sectors;
	now = t0 = one(m, 0, 0, 8, 0, NULL); /* the same start: the head at sector 0 */
	dm_reset_stats(m);
	if (queued) {
		for (int i = 0; i < DM_MAX_QUEUE; i++)
			dm_submit(m, i, DM_READ, lbas[i], 8, now);
		while (dm_next_event(m) != DM_NONE) {
			now = dm_next_event(m);
			while (dm_reap(m, now, &c) >= 0)
				;
		}
	} else {
		for (int i = 0; i < DM_MAX_QUEUE; i++)
			now = one(m, i, lbas[i], 8, now, NULL);
	}
	*reordered = dm_stats(m)->reordered;
	dm_destroy(m);
	return now - t0;
}

static void test_dm_ncq(struct ktest *t)
{
	uint64_t r1, r32;
	uint64_t t1 = random_batch(false, &r1), t32 = random_batch(true, &r32);

	printf("    # 32 random reads: %.1f ms one at a time, %.1f ms queued\n", t1 / 1e6,
	       t32 / 1e6);
	/* shortest positioning time first beats arrival order by a wide margin */
	KT_EXPECT_LT(t, t32 * 3, t1 * 2);
	KT_EXPECT_EQ(t, r1, 0);
	KT_EXPECT_GT(t, r32, 0);
}

/*
 * Aging counts the times it changed the order: with a tiny limit, a
 * queue whose oldest command is also the nearest is served without a
 * single aging decision.
 */
static void test_dm_aging(struct ktest *t)
{
	struct disk_model *m = model_with("ncq_aging", 1);
	struct dm_completion c;
	uint64_t now;

	KT_ASSERT_TRUE(t, m != NULL);
	now = one(m, 0, 5000000, 8, 0, NULL);
	/* busy the mechanism far away, then queue near-to-far behind it */
	dm_submit(m, 0, DM_READ, 300000000, 8, now);
	dm_submit(m, 1, DM_READ, 300000000 + 100000, 8, now + 1000);
	dm_submit(m, 2, DM_READ, 200000000, 8, now + 2000);
	dm_submit(m, 3, DM_READ, 100000000, 8, now + 3000);
	while (dm_next_event(m) != DM_NONE) {
		now = dm_next_event(m);
		while (dm_reap(m, now, &c) >= 0)
			;
	}
	KT_EXPECT_EQ(t, dm_stats(m)->reordered, 0);
	KT_EXPECT_EQ(t, dm_stats(m)->aged, 0);
	dm_destroy(m);
}

/*
 * Two sequential streams far apart, interleaved at QD2 with the host
 * thinking 1.5 ms between its commands of each stream. With no minimum
 * read-ahead (the default, as the analogues have it) each stream's
 * command stops the other's look-ahead; a minimum read-ahead of a few
 * commands' worth lets each stream find its next command buffered.
 */
static double two_streams(struct disk_model *m, uint64_t *misses)
{
	uint64_t next[2] = {10000000, 150000000}, now = 0, issued = 0, done = 0, t_first = 0;
	uint64_t due[2] = {0, 0};
	struct dm_completion c;

	for (int s = 0; s < 2; s++) {
		dm_submit(m, s, DM_READ, next[s], 128, 0);
		next[s] += 128;
		issued++;
	}
	while (done < 400) {
		uint64_t ev = dm_next_event(m), at;
		int s = due[0] && (!due[1] || due[0] <= due[1]) ? 0 : due[1] ? 1 : -1;

		at = s >= 0 ? due[s] : DM_NONE;
		if (ev <= at) {
			now = ev;
			while (dm_reap(m, now, &c) >= 0) {
				done++;
				if (done == 2)
					t_first = now;
				due[c.tag] = now + 1500000;
			}
		} else {
			now = at;
			due[s] = 0;
			if (issued < 400) {
				dm_submit(m, s, DM_READ, next[s], 128, now);
				next[s] += 128;
				issued++;
			}
		}
	}
	*misses = dm_stats(m)->misses;
	return 398.0 * 65536 / ((double)(now - t_first) * 1e-9);
}

static void test_dm_min_readahead(struct ktest *t)
{
	struct disk_model *m0 = dm_create(MODEL, 0), *m1 = model_with("min_readahead", 512);
	uint64_t miss0, miss1;
	double r0, r1;

	KT_ASSERT_TRUE(t, m0 && m1);
	r0 = two_streams(m0, &miss0);
	r1 = two_streams(m1, &miss1);
	printf("    # two streams, QD2, 1.5 ms think: %.1f MB/s with %llu misses (min_readahead "
	       "0), %.1f MB/s with %llu (512 KiB)\n",
	       r0 / 1e6, (unsigned long long)miss0, r1 / 1e6, (unsigned long long)miss1);
	KT_EXPECT_LT(t, miss1 * 4, miss0);
	KT_EXPECT_GT(t, r1, r0 * 1.5);
	dm_destroy(m0);
	dm_destroy(m1);
}

/*
 * Look-behind (DiskSim's "Read any free blocks"): after a read positions,
 * the sectors of its track that passed under the head before its start
 * are in its segment. DIXtrac's test: a read, then the sector just before
 * it is a buffer hit. And a backward stream of 64 KiB reads (iozone's
 * reverse) pays about one revolution a track instead of one a read.
 */
static double backward(struct disk_model *m, uint64_t *hits)
{
	uint64_t now = 0, first = 0, top = 4000000;

	for (int i = 0; i < 200; i++) {
		now = one(m, 0, top - 128 * (uint64_t)(i + 1), 128, now, NULL);
		if (!i)
			first = now;
	}
	*hits = dm_stats(m)->buffer_hits;
	return 199.0 * 65536 / ((double)(now - first) * 1e-9);
}

static void test_dm_lookbehind(struct ktest *t)
{
	struct disk_model *on = model_with("lookbehind", 1), *off = model_with("lookbehind", 0);
	struct dm_completion c;
	uint64_t hits_on, hits_off, now;
	double r_on, r_off;

	KT_ASSERT_TRUE(t, on && off);
	/* DIXtrac: far away first, then L, then L - 1 */
	now = one(on, 0, 200000000, 1, 0, NULL);
	now = one(on, 0, 7000003, 1, now, NULL);
	one(on, 0, 7000002, 1, now, &c);
	KT_EXPECT_TRUE(t, c.buffer_hit);
	now = one(off, 0, 200000000, 1, 0, NULL);
	now = one(off, 0, 7000003, 1, now, NULL);
	one(off, 0, 7000002, 1, now, &c);
	KT_EXPECT_TRUE(t, !c.buffer_hit && c.rotate_ns > 7000000);
	dm_destroy(on);
	dm_destroy(off);

	on = model_with("lookbehind", 1);
	off = model_with("lookbehind", 0);
	r_on = backward(on, &hits_on);
	r_off = backward(off, &hits_off);
	printf("    # backward 64 KiB reads: %.1f MB/s, %llu hits with look-behind; %.1f MB/s, "
	       "%llu hits without\n",
	       r_on / 1e6, (unsigned long long)hits_on, r_off / 1e6, (unsigned long long)hits_off);
	KT_EXPECT_GT(t, r_on, 3 * r_off);
	KT_EXPECT_GT(t, hits_on, 150);
	KT_EXPECT_EQ(t, hits_off, 0);
	KT_EXPECT_GT(t, dm_stats(on)->lookbehind, 0);
	dm_destroy(on);
	dm_destroy(off);
}

/*
 * Look-behind keeps only what fits the segment, and only in an empty
 * segment: a read whose front is already buffered keeps nothing before it.
 * (The look-ahead is off here: it would go on to overwrite the kept
 * sectors, as DiskSim's prefetch does.)
 */
static void test_dm_lookbehind_limits(struct ktest *t)
{
	int kept = 0;

	for (int i = 0; i < 20; i++) {
		uint64_t start = 1299 * (30 + (uint64_t)i) + 1000, now;
		struct dm_completion c56, c57;
		struct disk_model *m = model_with2("segments", 64, "lookahead", 0);
		struct dm_geometry g;

		KT_ASSERT_TRUE(t, m != NULL);
		dm_geometry(m, &g);
		KT_ASSERT_EQ(t, g.segment_sectors, 256); /* 128 KiB */
		/* a 200-sector read keeps at most 56 sectors before it */
		now = one(m, 0, 200000000 + 5000 * (uint64_t)i, 1, 0, NULL);
		now = one(m, 0, start, 200, now, NULL);
		now = one(m, 0, start - 57, 1, now, &c57);
		one(m, 0, start - 56, 1, now, &c56);
		KT_EXPECT_TRUE(t, !c57.buffer_hit);
		kept += c56.buffer_hit;
		dm_destroy(m);
	}
	printf("    # 56 sectors kept before a 200-sector read in %d of 20\n", kept);
	KT_EXPECT_GT(t, kept, 5);
	{
		struct disk_model *m = model_with("lookahead", 0);
		struct dm_completion c;
		uint64_t now = one(m, 0, 9000000, 8, 0, NULL);

		now = one(m, 0, 200000000, 1, now, NULL); /* elsewhere */
		one(m, 0, 9000000 + 4, 200, now, &c);	  /* its front in the first segment */
		KT_EXPECT_TRUE(t, !c.buffer_hit && !c.stream_hit);
		KT_EXPECT_EQ(t, dm_stats(m)->lookbehind, 2); /* the two reads before it */
		dm_destroy(m);
	}
}

/*
 * Zero-latency read (DiskSim's "Immediate buffer read"): DIXtrac's
 * read-on-arrival test, a whole track read after a seek in under 1.1
 * revolutions (seek excluded); without it about 1.5 on average. A read
 * of a fraction f of a track saves about f^2/2 of a revolution.
 */
static double track_reads(struct disk_model *m, uint32_t nsect, double *max_rev)
{
	struct dm_geometry g;
	uint64_t now = 0;
	double sum = 0;

	dm_geometry(m, &g);
	rng_state = 99;
	*max_rev = 0;
	for (int i = 0; i < 200; i++) {
		struct dm_completion c;
		uint64_t track = 100 + rng() % 10000; /* zone 0: 1299 sectors a track */
		double rev;

		now = one(m, 0, 250000000 + rng() % 1000000, 1, now + 10000000, NULL);
		one(m, 0, track * 1299, nsect, now, &c);
		rev = (double)(c.done_ns - c.arrive_ns - c.seek_ns) / g.rev_ns -
		      g.overhead_ns / g.rev_ns;
		sum += rev;
		*max_rev = max(*max_rev, rev);
		now = c.done_ns;
	}
	return sum / 200;
}

static void test_dm_zero_latency(struct ktest *t)
{
	struct disk_model *on = model_with("zero_latency", 1), *off = model_with("zero_latency", 0);
	double max_on, max_off, mean_on, mean_off, q_on, q_off;

	KT_ASSERT_TRUE(t, on && off);
	mean_on = track_reads(on, 1299, &max_on);
	mean_off = track_reads(off, 1299, &max_off);
	printf("    # a track after a seek: %.3f revolutions (max %.3f) zero-latency, %.3f (max "
	       "%.3f) without\n",
	       mean_on, max_on, mean_off, max_off);
	KT_EXPECT_TRUE(t, max_on < 1.1);
	KT_EXPECT_TRUE(t, mean_off > 1.3);
	KT_EXPECT_GT(t, dm_stats(on)->zero_latency, 150);
	dm_destroy(on);
	dm_destroy(off);
	/* a quarter track: about 0.25^2/2 = 0.031 of a revolution saved on average */
	on = model_with("zero_latency", 1);
	off = model_with("zero_latency", 0);
	KT_ASSERT_TRUE(t, on && off);
	q_on = track_reads(on, 1299 / 4, &max_on);
	q_off = track_reads(off, 1299 / 4, &max_off);
	printf("    # a quarter track: %.3f revolutions zero-latency, %.3f without\n", q_on, q_off);
	KT_EXPECT_TRUE(t, q_off - q_on > 0.015 && q_off - q_on < 0.06);
	dm_destroy(on);
	dm_destroy(off);
}

static void test_dm_deterministic(struct ktest *t)
{
	uint64_t sig[2] = {0, 0};

	for (int run = 0; run < 2; run++) {
		struct disk_model *m = dm_create(MODEL, 0);
		struct dm_completion c;
		uint64_t now = 5;

		rng_state = 4242;
		for (int i = 0; i < 500; i++) {
			int tag = i % 8;

			if (dm_submit(m, tag, rng() % 4 ? DM_READ : DM_WRITE,
				      rng() % 2 ? rng() % 100000000 : 2000000 + 64 * (uint64_t)i,
				      1 + (uint32_t)(rng() % 512), now))
				break;
			if (tag == 7) {
				while (dm_next_event(m) != DM_NONE) {
					now = max(now, dm_next_event(m)) + rng() % 1000;
					while (dm_reap(m, now, &c) >= 0)
						sig[run] = sig[run] * 31 + c.done_ns + c.tag;
				}
			}
		}
		dm_destroy(m);
	}
	KT_EXPECT_NE(t, sig[0], 0);
	KT_EXPECT_EQ(t, sig[0], sig[1]);
}

/*
 * A drive made cold (dm_cool) at T answers the same commands T later exactly
 * as a drive just powered on: after any history, the buffer, the look-ahead,
 * the head and the platters' phase are all reset.
 */
static uint64_t cold_sequence(struct disk_model *m, uint64_t base)
{
	static const struct {
		uint64_t lba;
		uint32_t n;
	} reqs[] = {{1000, 128}, {1128, 128}, {50000000, 8}, {1256, 256}, {900, 64}, {1512, 128}};
	struct dm_completion c;
	uint64_t now = base, sig = 0;

	for (int i = 0; i < (int)ARRAY_SIZE(reqs); i++) {
		now = one(m, i, reqs[i].lba, reqs[i].n, now, &c);
		if (!now)
			return 0;
		sig = sig * 1000003 + (c.done_ns - base) * 2 + c.buffer_hit;
		now += 20000; /* 20 us of think time */
	}
	return sig;
}

static void test_dm_cool(struct ktest *t)
{
	struct disk_model *fresh = dm_create(MODEL, 0), *used = dm_create(MODEL, 0);
	uint64_t now = 7, want, warm, cold;
	const struct dm_stats *st;
	uint64_t hits;

	KT_ASSERT_TRUE(t, fresh && used);
	want = cold_sequence(fresh, 0);
	KT_EXPECT_NE(t, want, 0);
	/* a history: reads here and there, the last ones the same sequence's, so it is warm */
	rng_state = 99;
	for (int i = 0; i < 200; i++)
		now = one(used, i % 8, rng() % 200000000, 1 + (uint32_t)(rng() % 256), now, NULL) +
		      rng() % 3000000;
	KT_ASSERT_TRUE(t, now != 0);
	warm = cold_sequence(used, now);
	st = dm_stats(used);
	hits = st->buffer_hits;
	now += 1234567891;
	warm = warm == cold_sequence(used, now) ? warm : 0;
	KT_EXPECT_NE(t, dm_stats(used)->buffer_hits, hits); /* warm: the second pass hit */
	KT_EXPECT_NE(t, warm, want);
	now += 98765432101ULL;
	KT_EXPECT_EQ(t, dm_cool(used, now), 0);
	cold = cold_sequence(used, now);
	KT_EXPECT_EQ(t, cold, want);
	/* twice in a row, and at another time: the same */
	now += 31415926535ULL;
	KT_EXPECT_EQ(t, dm_cool(used, now), 0);
	KT_EXPECT_EQ(t, cold_sequence(used, now), want);
	/* not with a command outstanding, not back in time */
	KT_EXPECT_EQ(t, dm_submit(used, 3, DM_READ, 0, 8, now + 1000000000), 0);
	KT_EXPECT_EQ(t, dm_cool(used, now + 1000000000), -EBUSY);
	dm_abort_all(used, now + 1000000000);
	KT_EXPECT_EQ(t, dm_cool(used, now), -EINVAL);
	dm_destroy(fresh);
	dm_destroy(used);
}

static void test_dm_bad_input(struct ktest *t)
{
	struct disk_model *m = dm_create(MODEL, 0);
	struct dm_geometry g;

	KT_ASSERT_TRUE(t, m != NULL);
	dm_geometry(m, &g);
	KT_EXPECT_TRUE(t, dm_create("no-such-drive", 0) == NULL);
	KT_EXPECT_TRUE(t, dm_create(MODEL, g.nr_sectors + 1) == NULL);
	KT_EXPECT_EQ(t, dm_submit(m, -1, DM_READ, 0, 8, 0), -EINVAL);
	KT_EXPECT_EQ(t, dm_submit(m, DM_MAX_QUEUE, DM_READ, 0, 8, 0), -EINVAL);
	KT_EXPECT_EQ(t, dm_submit(m, 0, DM_READ, g.nr_sectors - 4, 8, 0), -EINVAL);
	KT_EXPECT_EQ(t, dm_submit(m, 0, DM_READ, 0, 0, 0), -EINVAL);
	KT_EXPECT_EQ(t, dm_submit(m, 0, DM_READ, 0, 8, 100), 0);
	KT_EXPECT_EQ(t, dm_submit(m, 0, DM_READ, 8, 8, 100), -EINVAL); /* tag in use */
	KT_EXPECT_EQ(t, dm_submit(m, 1, DM_READ, 8, 8, 99), -EINVAL);  /* time went back */
	dm_abort_all(m, 200);
	KT_EXPECT_EQ(t, dm_queued(m), 0);
	KT_EXPECT_EQ(t, dm_submit(m, 0, DM_READ, 8, 8, 200), 0);
	dm_destroy(m);
}

KTEST_SUITE(diskmodel, mm_suite_ready, KTEST_CASE(test_dm_consistency_seek),
	    KTEST_CASE(test_dm_shape_identity), KTEST_CASE(test_dm_shape_refused),
	    KTEST_CASE(test_dm_consistency_zones), KTEST_CASE(test_dm_consistency_random_table),
	    KTEST_CASE(test_dm_table11), KTEST_CASE(test_dm_think_sweep),
	    KTEST_CASE(test_dm_buffer), KTEST_CASE(test_dm_track_end),
	    KTEST_CASE(test_dm_sptf_agrees), KTEST_CASE(test_dm_hit_frees_mechanism),
	    KTEST_CASE(test_dm_ncq), KTEST_CASE(test_dm_aging), KTEST_CASE(test_dm_min_readahead),
	    KTEST_CASE(test_dm_lookbehind), KTEST_CASE(test_dm_lookbehind_limits),
	    KTEST_CASE(test_dm_zero_latency), KTEST_CASE(test_dm_deterministic),
	    KTEST_CASE(test_dm_cool), KTEST_CASE(test_dm_bad_input));
