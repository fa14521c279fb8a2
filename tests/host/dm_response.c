/*
 * The disk model's response-time distribution for 4 KiB random reads
 * (build/host/dm_response, run by tools/diskmodel-figure): closed loops of
 * random 8-sector reads, each new read issued when one completes, at queue
 * depth 1 and 32, over the whole 160 GB drive and over its first 4 GiB (a
 * benchmark file at the start of the disk). Prints one line per read:
 *	response LABEL MICROSECONDS
 * and checks the queue-depth-1 mean over the whole drive against the
 * specification's 13.6 ms class figure (11-16 ms), and that NCQ helps.
 * A ktest suite, so it reuses the host runtime.
 */
#include <stdio.h>

#include "drivers/diskmodel.h"
#include "kernel/ktest.h"
#include "kernel/prandom.h"
#include "mm/mm.h"

#define READS 4000

static uint64_t rng_state = 88172645463325252ULL;

static uint64_t rng(void)
{
	return prandom_u64(&rng_state);
}

/* Closed loop at depth @qd over sectors [0, @span); returns the mean response in us. */
static double run(const char *label, unsigned int qd, uint64_t span)
{
	struct disk_model *m = dm_create("hitachi-t7k250", 0);
	uint64_t now = 0, sum = 0;
	unsigned int issued = 0, done = 0;
	struct dm_completion c;

	if (!m)
		return 0;
	for (; issued < qd; issued++)
		dm_submit(m, (int)issued, DM_READ, (rng() % (span / 8)) * 8, 8, now);
	while (done < READS) {
		now = dm_next_event(m);
		while (dm_reap(m, now, &c) >= 0) {
			uint64_t us = (c.done_ns - c.arrive_ns) / 1000;

			printf("response %s %llu\n", label, (unsigned long long)us);
			sum += us;
			done++;
			if (issued < READS + qd - 1 && done + qd <= READS) {
				dm_submit(m, c.tag, DM_READ, (rng() % (span / 8)) * 8, 8, now);
				issued++;
			}
		}
	}
	dm_destroy(m);
	return (double)sum / READS;
}

static void dm_response_curves(struct ktest *t)
{
	const uint64_t whole = 312581808, first4g = 4ULL << 21;
	double qd1, qd32;

	if (!mm_ready())
		KT_ASSERT_EQ(t, mm_host_init(64ULL << 20), 0);
	qd1 = run("whole-qd1", 1, whole);
	qd32 = run("whole-qd32", 32, whole);
	run("4GiB-qd1", 1, first4g);
	run("4GiB-qd32", 32, first4g);
	printf("# mean response over the whole drive: qd=1 %.0f us, qd=32 %.0f us\n", qd1, qd32);
	KT_EXPECT_GE(t, qd1, 11000);
	KT_EXPECT_LE(t, qd1, 16000);
	/* 32 in flight: a read waits for others, but the drive serves them faster */
	KT_EXPECT_LT(t, qd32 / 32, qd1 / 1.5);
}

KTEST_SUITE(dm_response, NULL, KTEST_CASE(dm_response_curves));
