/*
 * Calibration and behaviour of the disk timing model (drivers/diskmodel.c):
 * the model's own figures against the specification's tables, each within
 * 5% (seek curve, zone rates, the throughput tables worked through the
 * specification's formula), and the buffer, look-ahead, NCQ and
 * determinism. Pure computation: it runs on the host and in the kernel.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "drivers/diskmodel.h"
#include "kernel/ktest.h"
#include "tests/common/test_mm_helpers.h"

#define MODEL "hitachi-t7k250"

/* Within @pct percent of @want; reports both figures on failure. */
#define EXPECT_NEAR_PCT(t, got, want, pct)                                               \
	do {                                                                             \
		double __g = (got), __w = (want);                                        \
		printf("    # %s: %.4f (specification %.4f, %+.1f%%)\n", #got, __g, __w, \
		       (__g - __w) / __w * 100);                                         \
		if (!(fabs(__g - __w) <= fabs(__w) * (pct) / 100.0))                     \
			KT_FAIL(t, "%s = %.4f, want %.4f within %d%%", #got, __g, __w,   \
				(int)(pct));                                             \
	} while (0)

static uint64_t rng_state;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* Issue @n commands one at a time, each as the previous completes; returns the total time. */
static uint64_t run_qd1(struct disk_model *m, uint64_t start, int n,
			uint64_t (*lba_of)(int i, void *arg), uint32_t nsect, void *arg,
			uint64_t *first_done)
{
	uint64_t now = start;

	for (int i = 0; i < n; i++) {
		struct dm_completion c;

		if (dm_submit(m, i % DM_MAX_QUEUE, DM_READ, lba_of(i, arg), nsect, now))
			return 0;
		now = dm_next_event(m);
		if (dm_reap(m, now, &c) < 0)
			return 0;
		if (i == 0 && first_done)
			*first_done = now;
	}
	return now - start;
}

static uint64_t seq_lba(int i, void *arg)
{
	const uint64_t *base = arg;

	return base[0] + (uint64_t)i * base[1];
}

static uint64_t rand_lba(int i, void *arg)
{
	const uint64_t *sectors = arg;

	(void)i;
	return rng() % *sectors;
}

static void test_dm_seek_curve(struct ktest *t)
{
	struct disk_model *m = dm_create(MODEL, 0);
	const struct dm_drive *d = dm_find_drive(MODEL);
	struct dm_geometry g;
	double sum = 0;
	int n = 0;

	KT_ASSERT_TRUE(t, m != NULL);
	dm_geometry(m, &g);
	EXPECT_NEAR_PCT(t, dm_seek_ns(m, 1) / 1e6, dm_param(d, "seek_single"), 5);
	EXPECT_NEAR_PCT(t, dm_seek_ns(m, g.cylinders - 1) / 1e6, dm_param(d, "seek_full"), 5);
	/* The specification's average: over all pairs of cylinders (random pairs here). */
	rng_state = 0x9e3779b97f4a7c15ULL;
	for (int i = 0; i < 200000; i++) {
		uint32_t a = (uint32_t)(rng() % g.cylinders), b = (uint32_t)(rng() % g.cylinders);

		if (a == b)
			continue;
		sum += dm_seek_ns(m, a > b ? a - b : b - a);
		n++;
	}
	EXPECT_NEAR_PCT(t, sum / n / 1e6, dm_param(d, "seek_average"), 5);
	/* monotone, and continuous where the two pieces meet */
	KT_EXPECT_LT(t, dm_seek_ns(m, g.seek_d0 - 1), dm_seek_ns(m, g.seek_d0 + 1));
	EXPECT_NEAR_PCT(t, dm_seek_ns(m, g.seek_d0 - 1), dm_seek_ns(m, g.seek_d0), 1);
	for (uint32_t dist = 1; dist + 97 < g.cylinders; dist += 97)
		KT_EXPECT_LT(t, dm_seek_ns(m, dist), dm_seek_ns(m, dist + 97));
	dm_destroy(m);
}

/* Sustained rate of zone @z through the model: 64 MiB at 1 MiB a command, back to back. */
static double zone_rate(int z)
{
	struct disk_model *m = dm_create(MODEL, 0);
	uint64_t arg[2] = {dm_zone_start(m, z), 2048}, first = 0;
	uint64_t total = run_qd1(m, 0, 64, seq_lba, 2048, arg, &first);

	dm_destroy(m);
	/* from the first completion: positioning excluded */
	return 63.0 * 2048 * 512 / ((double)(total - first) * 1e-9);
}

static void test_dm_zone_rates(struct ktest *t)
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
	EXPECT_NEAR_PCT(t, zone_rate(0) / 1e6, dm_param(d, "rate_outer"), 5);
	EXPECT_NEAR_PCT(t, zone_rate(29) / 1e6, dm_param(d, "rate_inner"), 5);
	dm_destroy(m);
}

/*
 * [T7K250] Table 11: 16 MiB in 128 commands, typical = 105% of T. The head
 * starts elsewhere (mid-disk), so the first command pays a seek and a
 * rotation, as the formula's B and C do.
 */
static double seq16(int z)
{
	struct disk_model *m = dm_create(MODEL, 0);
	struct dm_geometry g;
	uint64_t mid, arg[2], total;

	dm_geometry(m, &g);
	mid = g.nr_sectors / 2;
	run_qd1(m, 0, 1, seq_lba, 8, (uint64_t[]){mid, 8}, NULL);
	arg[0] = dm_zone_start(m, z);
	arg[1] = 256;
	total = run_qd1(m, 50000000, 128, seq_lba, 256, arg, NULL);
	dm_destroy(m);
	return (double)total * 1e-9;
}

static void test_dm_seq_table(struct ktest *t)
{
	const struct dm_drive *d = dm_find_drive(MODEL);

	EXPECT_NEAR_PCT(t, seq16(0), dm_param(d, "seq_16m_zone0") / 1.05, 5);
	EXPECT_NEAR_PCT(t, seq16(29), dm_param(d, "seq_16m_zone29") / 1.05, 5);
}

/* [T7K250] Table 12: 4096 random single-sector reads, typical = 105% of T. */
static void test_dm_random_table(struct ktest *t)
{
	const struct dm_drive *d = dm_find_drive(MODEL);
	struct disk_model *m = dm_create(MODEL, 0);
	struct dm_geometry g;
	uint64_t total;

	KT_ASSERT_TRUE(t, m != NULL);
	dm_geometry(m, &g);
	rng_state = 12345;
	total = run_qd1(m, 0, 4096, rand_lba, 1, &g.nr_sectors, NULL);
	EXPECT_NEAR_PCT(t, (double)total * 1e-9, dm_param(d, "random_4096") / 1.05, 5);
	/* the overhead solved from the same table is small and positive */
	KT_EXPECT_GE(t, g.overhead_ns, 0);
	KT_EXPECT_LT(t, g.overhead_ns, 500000);
	dm_destroy(m);
}

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
	KT_ASSERT_EQ(t, dm_submit(m, 0, DM_READ, 1000000, 8, now), 0);
	now = dm_next_event(m);
	KT_ASSERT_EQ(t, dm_reap(m, now, &c), 0);
	KT_EXPECT_TRUE(t, !c.buffer_hit && !c.stream_hit);
	KT_ASSERT_EQ(t, dm_submit(m, 1, DM_READ, 1000000, 8, now), 0);
	now = dm_next_event(m);
	KT_ASSERT_EQ(t, dm_reap(m, now, &c), 1);
	KT_EXPECT_TRUE(t, c.buffer_hit);
	KT_EXPECT_LE(t, c.done_ns - c.arrive_ns, (uint64_t)(g.overhead_ns + 4096 * 4) + 2);
	/* the next sectors: the look-ahead has them or is reading them; no seek, no rotation */
	KT_ASSERT_EQ(t, dm_submit(m, 2, DM_READ, 1000008, 256, now), 0);
	now = dm_next_event(m);
	KT_ASSERT_EQ(t, dm_reap(m, now, &c), 2);
	KT_EXPECT_TRUE(t, c.buffer_hit || c.stream_hit);
	KT_EXPECT_EQ(t, c.seek_ns + c.rotate_ns, 0);
	/* far away: a seek */
	KT_ASSERT_EQ(t, dm_submit(m, 3, DM_READ, g.nr_sectors - 8, 8, now), 0);
	now = dm_next_event(m);
	KT_ASSERT_EQ(t, dm_reap(m, now, &c), 3);
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

/* 32 random reads queued at once, against the same 32 one at a time. */
static uint64_t random_batch(bool queued, uint64_t *reordered)
{
	struct disk_model *m = dm_create(MODEL, 0);
	struct dm_geometry g;
	uint64_t now = 0, lbas[DM_MAX_QUEUE];
	struct dm_completion c;

	dm_geometry(m, &g);
	rng_state = 777;
	for (int i = 0; i < DM_MAX_QUEUE; i++)
		lbas[i] = rng() % g.nr_sectors;
	if (queued) {
		for (int i = 0; i < DM_MAX_QUEUE; i++)
			dm_submit(m, i, DM_READ, lbas[i], 8, 0);
		while (dm_next_event(m) != DM_NONE) {
			now = dm_next_event(m);
			while (dm_reap(m, now, &c) >= 0)
				;
		}
	} else {
		now = run_qd1(m, 0, DM_MAX_QUEUE, seq_lba, 8, (uint64_t[]){0, 0}, NULL);
		now = 0;
		for (int i = 0; i < DM_MAX_QUEUE; i++) {
			dm_submit(m, i, DM_READ, lbas[i], 8, now);
			now = dm_next_event(m);
			dm_reap(m, now, &c);
		}
	}
	*reordered = dm_stats(m)->reordered;
	dm_destroy(m);
	return now;
}

static void test_dm_ncq(struct ktest *t)
{
	uint64_t r1, r32;
	uint64_t t1 = random_batch(false, &r1), t32 = random_batch(true, &r32);

	/* shortest positioning time first beats arrival order by a wide margin */
	KT_EXPECT_LT(t, t32 * 3, t1 * 2);
	KT_EXPECT_EQ(t, r1, 0);
	KT_EXPECT_GT(t, r32, 0);
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
					now = dm_next_event(m) + rng() % 1000;
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
	KT_EXPECT_EQ(t, dm_submit(m, 0, DM_READ, 0, 8, 0), 0);
	KT_EXPECT_EQ(t, dm_submit(m, 0, DM_READ, 8, 8, 0), -EINVAL); /* tag in use */
	dm_abort_all(m, 10);
	KT_EXPECT_EQ(t, dm_queued(m), 0);
	KT_EXPECT_EQ(t, dm_submit(m, 0, DM_READ, 8, 8, 20), 0);
	dm_destroy(m);
}

KTEST_SUITE(diskmodel, mm_suite_ready, KTEST_CASE(test_dm_seek_curve),
	    KTEST_CASE(test_dm_zone_rates), KTEST_CASE(test_dm_seq_table),
	    KTEST_CASE(test_dm_random_table), KTEST_CASE(test_dm_buffer), KTEST_CASE(test_dm_ncq),
	    KTEST_CASE(test_dm_deterministic), KTEST_CASE(test_dm_bad_input));
