/*
 * The disk probe (bench/probe.c) against the disk model, on the host: a
 * host that issues each read 2 us after deciding to and sees it complete
 * 3 us after the drive ends it. The probe must recover the modelled
 * T7K250's rotation period within 0.5%, each seek point within 5% of what
 * the model pays for the same pairs, each zone rate within 3%, and detect
 * look-ahead, look-behind, zero-latency and the segment count as
 * configured, with each mechanism off and on. Its table must read back as
 * a parameter file and build a model.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/probe.h"
#include "drivers/diskmodel-internal.h"
#include "kernel/ktest.h"
#include "mm/mm.h"

#define HOST_SUBMIT_NS 2000
#define HOST_REAP_NS   3000

struct sim {
	struct disk_model *m;
	uint64_t now;
};

static int sim_read(void *ctx, const struct dp_req *r, unsigned int n, uint64_t *issued,
		    uint64_t *done)
{
	struct sim *s = ctx;
	unsigned int left = n;

	s->now += HOST_SUBMIT_NS;
	*issued = s->now;
	for (unsigned int i = 0; i < n; i++)
		if (dm_submit(s->m, (int)i, DM_READ, r[i].lba, r[i].n, s->now))
			return -EINVAL;
	while (left) {
		struct dm_completion c;
		uint64_t t = dm_next_event(s->m);

		if (t == DM_NONE)
			return -EIO;
		while (dm_reap(s->m, t, &c) >= 0) {
			done[c.tag] = c.done_ns + HOST_REAP_NS;
			left--;
		}
		s->now = max(s->now, t);
	}
	s->now += HOST_REAP_NS;
	return 0;
}

static uint64_t sim_now(void *ctx)
{
	return ((struct sim *)ctx)->now;
}

static void sim_wait(void *ctx, uint64_t t)
{
	struct sim *s = ctx;

	s->now = max(s->now, t);
}

static const char *probe_ready(void)
{
	if (!mm_ready() && mm_host_init(64ULL << 20) < 0)
		return "cannot set up a host memory arena";
	return NULL;
}

/* The built-in drive with up to three parameters changed (NULL keys are skipped). */
static struct disk_model *model(const char *k1, double v1, const char *k2, double v2,
				const char *k3, double v3)
{
	const char *keys[3] = {k1, k2, k3};
	double vals[3] = {v1, v2, v3};
	struct dm_drive *d = dm_drive_dup(dm_find_drive("hitachi-t7k250"));
	struct disk_model *m;
	char err[256];

	for (int i = 0; i < 3 && d; i++) {
		struct dm_drive *next;

		if (!keys[i])
			continue;
		next = dm_drive_set(d, keys[i], vals[i], err, sizeof(err));
		dm_drive_free(d);
		d = next;
	}
	m = d ? dm_create_drive(d, 0) : NULL;
	dm_drive_free(d);
	return m;
}

static int run_probe(struct disk_model *m, struct dp_result *r)
{
	struct sim s = {m, 0};
	struct dp_io io = {&s, m->g.nr_sectors, 32, sim_read, sim_now, sim_wait};

	return dp_probe(&io, 4, r);
}

/* What the model pays on average to move between the probe's pairs at point @i. */
static double model_seek(struct disk_model *m, const struct dp_result *r, int i)
{
	double sum = 0;

	for (unsigned int j = 0; j < r->seek_pairs[i]; j++) {
		uint64_t a = r->seek_a0[i] + j * r->seek_gap[i], b = a + r->seek_dist[i];

		sum += dm_move_ns(m, dm_track_of(m, a, NULL), dm_track_of(m, b, NULL));
	}
	return sum / r->seek_pairs[i];
}

static void check_recovery(struct ktest *t, struct disk_model *m, const struct dp_result *r)
{
	double worst_seek = 0, worst_rate = 0;

	printf("    # rotation %.4f ms (model %.4f), overhead %.1f us (model %.1f), bus %.1f MB/s, "
	       "sector %.3f us, switch %.3f ms (model %.3f)\n",
	       r->rev_ns / 1e6, m->g.rev_ns / 1e6, r->overhead_ns / 1e3, m->g.overhead_ns / 1e3,
	       1e3 / r->bus_ns_per_byte, r->sector_ns / 1e3, r->switch_ns / 1e6,
	       m->g.switch_ns / 1e6);
	KT_EXPECT_TRUE(t, fabs(r->rev_ns / m->g.rev_ns - 1) < 0.005);
	KT_EXPECT_EQ(t, r->nr_rates, DP_RATE_POINTS);
	for (int i = 0; i < r->nr_rates; i++) {
		uint64_t lba = (uint64_t)(r->rate_at[i] * (double)m->g.nr_sectors) + 8192;
		double want = dm_zone_rate(m, dm_zone(m, lba)) / 1e6;
		double err = r->rate_mbps[i] / want - 1;

		worst_rate = max(worst_rate, fabs(err));
		if (fabs(err) > 0.03)
			KT_FAIL(t, "zone rate at %.3f: %.2f MB/s, the model's %.2f", r->rate_at[i],
				r->rate_mbps[i], want);
	}
	KT_EXPECT_EQ(t, r->nr_seeks, DP_SEEK_POINTS);
	for (int i = 0; i < r->nr_seeks; i++) {
		double want = model_seek(m, r, i), err = r->seek_ns[i] / want - 1;

		worst_seek = max(worst_seek, fabs(err));
		printf("    # seek %2d: %9llu sectors (%.5f of the stroke): %.3f ms, model %.3f ms "
		       "(%+.2f%%)\n",
		       i, (unsigned long long)r->seek_dist[i], r->seek_frac[i], r->seek_ns[i] / 1e6,
		       want / 1e6, err * 100);
		if (fabs(err) > 0.05)
			KT_FAIL(t,
				"seek over %llu sectors: %.3f ms, the model's %.3f (bracket "
				"%.3f..%.3f)",
				(unsigned long long)r->seek_dist[i], r->seek_ns[i] / 1e6,
				want / 1e6, r->seek_lo[i] / 1e6, r->seek_hi[i] / 1e6);
	}
	printf("    # worst zone rate %.2f%%, worst seek point %.2f%% (%u pairs each); %llu reads, "
	       "%.0f s of the disk's time\n",
	       worst_rate * 100, worst_seek * 100, r->pairs, (unsigned long long)r->reads,
	       r->probe_ns / 1e9);
}

static void print_line(void *ctx, const char *text)
{
	char **at = ctx;

	*at += sprintf(*at, "%s\n", text);
}

static void test_probe_t7k250(struct ktest *t)
{
	static char file[16384];
	static struct dp_result r;
	struct disk_model *m = dm_create("hitachi-t7k250", 0);
	struct dm_drive *d;
	char *at = file, err[512];

	KT_ASSERT_TRUE(t, m != NULL);
	KT_ASSERT_EQ(t, run_probe(m, &r), 0);
	check_recovery(t, m, &r);
	KT_EXPECT_TRUE(t, r.lookahead);
	KT_EXPECT_EQ(t, r.lookahead_sectors, m->g.segment_sectors);
	KT_EXPECT_TRUE(t, r.lookbehind);
	KT_EXPECT_TRUE(t, !r.zero_latency);
	KT_EXPECT_EQ(t, r.segments, m->g.segments);
	printf("    # look-behind %d/%d, zero-latency spikes %d/%d, NCQ %.0f IOPS at 1, %.0f at "
	       "32\n",
	       r.lookbehind_hits, r.lookbehind_tries, r.zl_spike, r.zl_tries, r.ncq_iops[0],
	       r.ncq_iops[DP_NCQ_POINTS - 1]);
	KT_EXPECT_GT(t, r.ncq_iops[DP_NCQ_POINTS - 1], r.ncq_iops[0] * 1.5);
	/* the table reads back as a parameter file and builds a model */
	dp_params(&r, "probed", "the probe's test", print_line, &at);
	d = dm_parse_params("probed", file, strlen(file), err, sizeof(err));
	if (!d)
		printf("    # %s\n", err);
	KT_ASSERT_TRUE(t, d != NULL);
	dm_destroy(m);
	m = dm_create_drive(d, 0);
	dm_drive_free(d);
	KT_EXPECT_TRUE(t, m != NULL);
	dm_destroy(m);
}

/* Each mechanism off and on, and another segment count: detected as configured. */
static void test_probe_mechanisms(struct ktest *t)
{
	static const struct {
		const char *k1;
		double v1;
		const char *k2;
		double v2;
		const char *k3;
		double v3;
	} cases[] = {
		{"lookbehind", 0, "zero_latency", 1, "segments", 16},
		{"lookbehind", 1, "zero_latency", 1, "segments", 10},
		{"lookahead", 0, "lookbehind", 0, NULL, 0},
	};

	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		static struct dp_result r;
		struct disk_model *m = model(cases[i].k1, cases[i].v1, cases[i].k2, cases[i].v2,
					     cases[i].k3, cases[i].v3);

		KT_ASSERT_TRUE(t, m != NULL);
		KT_ASSERT_EQ(t, run_probe(m, &r), 0);
		printf("    # case %u: rotation %.4f ms, look-ahead %d (%u sectors), look-behind "
		       "%d (%d/%d), "
		       "zero-latency %d (%d/%d), segments %u\n",
		       i, r.rev_ns / 1e6, r.lookahead, r.lookahead_sectors, r.lookbehind,
		       r.lookbehind_hits, r.lookbehind_tries, r.zero_latency, r.zl_spike,
		       r.zl_tries, r.segments);
		KT_EXPECT_EQ(t, r.lookahead, m->g.lookahead);
		KT_EXPECT_EQ(t, r.lookbehind, m->g.lookbehind);
		KT_EXPECT_EQ(t, r.zero_latency, m->g.zero_latency);
		if (m->g.lookahead) {
			KT_EXPECT_EQ(t, r.segments, m->g.segments);
			KT_EXPECT_EQ(t, r.lookahead_sectors, m->g.segment_sectors);
		}
		KT_EXPECT_TRUE(t, fabs(r.rev_ns / m->g.rev_ns - 1) < 0.005);
		dm_destroy(m);
	}
}

KTEST_SUITE(diskprobe, probe_ready, KTEST_CASE(test_probe_t7k250),
	    KTEST_CASE(test_probe_mechanisms));
