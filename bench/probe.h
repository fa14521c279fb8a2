/*
 * Measuring a disk's model from the disk itself (bench/probe.c,
 * host-buildable), as DIXtrac and Worthington et al. (1995) do for SCSI
 * drives, with nothing but timed reads: never a write, so it is safe on the
 * user's own disk. `bench diskprobe` (bench/diskprobe.c) runs it on a real
 * or modelled disk through the block layer; the host tests run it on the
 * model directly.
 *
 * What it finds, in order (each step uses the ones before):
 *   the time of a one-sector buffer hit, and the bus rate (hits of growing size)
 *   the rotation period (one sector read again and again, the buffer flushed
 *	between: its completions fall on one phase of the spindle)
 *   the sustained rate at 24 points across the disk (the zone table)
 *   a sector's time and the track switch (phases of nearby sectors)
 *   read look-ahead (and its length), look-behind (DIXtrac's test: the
 *	sector before a read is a hit), the buffer's segments (interleaved
 *	streams until their hits stop)
 *   the seek time at 20 distances from a few cylinders to the full stroke
 *	(pairs of misses, the rotational wait bracketed over many phases)
 *   zero-latency read (a read landing inside its range ends exactly one
 *	revolution after it lands, a spike no plain drive has)
 *   NCQ: random reads at queue depths 1 to 32
 * A drive without read look-ahead loses time between commands even when
 * they are queued (the command overhead comes first), so its zone rates
 * come out below its media rate: every drive of the seeds' era reads ahead.
 */
#ifndef BENCH_PROBE_H
#define BENCH_PROBE_H

#include "kernel/types.h"

struct dp_req {
	uint64_t lba;
	uint32_t n;
};

/* The disk, as the probe sees it. Times are nanoseconds of one clock. */
struct dp_io {
	void *ctx;
	uint64_t nr_sectors;
	unsigned int queue_depth; /* NCQ depth (1: one command at a time) */
	/*
	 * Issue @n reads (n <= queue_depth) together and wait for all: the
	 * issue time in *@issued and each one's completion in @done[].
	 * 0, or a negative errno (the probe stops).
	 */
	int (*read)(void *ctx, const struct dp_req *r, unsigned int n, uint64_t *issued,
		    uint64_t *done);
	uint64_t (*now)(void *ctx);
	void (*wait_until)(void *ctx, uint64_t t);
};

#define DP_RATE_POINTS 24
#define DP_SEEK_POINTS 20
#define DP_NCQ_POINTS  6

struct dp_result {
	uint64_t nr_sectors;
	unsigned int queue_depth;
	unsigned int pairs; /* seek samples per distance (from the time budget) */
	double hit_ns;	    /* issue to completion of a one-sector buffer hit */
	double overhead_ns; /* hit time less its bus transfer: the command overhead, host included
			     */
	double bus_ns_per_byte;
	double rev_ns;
	double rev_coherence; /* how well the completions line up on that period (1: exactly) */
	int nr_rates;
	double rate_at[DP_RATE_POINTS], rate_mbps[DP_RATE_POINTS];
	double sector_ns, switch_ns; /* zone 0's sector time; the track switch */
	bool lookahead;
	uint32_t lookahead_sectors;
	bool lookbehind;
	int lookbehind_hits, lookbehind_tries;
	unsigned int segments; /* 0: no hits at all with one stream */
	int nr_seeks;
	uint64_t seek_dist[DP_SEEK_POINTS]; /* LBAs between a pair's reads */
	uint64_t seek_a0[DP_SEEK_POINTS];   /* the first pair's first LBA; then + gap each */
	uint64_t seek_gap[DP_SEEK_POINTS];
	unsigned int seek_pairs[DP_SEEK_POINTS];
	double seek_frac[DP_SEEK_POINTS]; /* the distance as a fraction of the stroke */
	double seek_ns[DP_SEEK_POINTS], seek_lo[DP_SEEK_POINTS], seek_hi[DP_SEEK_POINTS];
	bool zero_latency;
	int zl_spike, zl_tries;
	unsigned int ncq_qd[DP_NCQ_POINTS];
	double ncq_iops[DP_NCQ_POINTS];
	uint64_t reads;	 /* commands issued */
	double probe_ns; /* the probe's own run time on the disk's clock */
};

/* Probe the disk behind @io within about @minutes; 0, or a negative errno from a read. */
int dp_probe(const struct dp_io *io, unsigned int minutes, struct dp_result *r);

/*
 * The result as a model parameter file (drivers/diskmodel-params.h: the
 * lines `diskmodel` prints), one line at a time to @line(@ctx, text).
 */
void dp_params(const struct dp_result *r, const char *name, const char *desc,
	       void (*line)(void *ctx, const char *text), void *ctx);

#endif
