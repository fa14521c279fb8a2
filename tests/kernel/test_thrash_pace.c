/*
 * bench thrash's pacing (thrash_read_due()): a reader on schedule reads every
 * bs / rate either way; a late one with catchup=1 reads at once until it is
 * back on its schedule, and with catchup=0 never sooner than bs / rate after
 * its last read began, so it stays late. (Whether a late reader gets the disk
 * to catch up depends on the run; the rule itself is checked here.)
 */
#include "bench/bench.h"
#include "kernel/ktest.h"

#define MS	1000000ULL

static void test_pace_on_schedule(struct ktest *t)
{
	/* 4 KiB at 128 KiB/s: one read every 31.25 ms */
	KT_EXPECT_EQ(t, thrash_read_due(1000 * MS, 0, 0, 4096, 128 << 10, false), 1000 * MS);
	KT_EXPECT_EQ(t, thrash_read_due(1000 * MS, 2, 1031250000ULL, 4096, 128 << 10, false),
		     1062500000ULL);
	KT_EXPECT_EQ(t, thrash_read_due(1000 * MS, 2, 1031250000ULL, 4096, 128 << 10, true),
		     1062500000ULL);
}

static void test_pace_late(struct ktest *t)
{
	/*
	 * Read 10 is due at 1312.5 ms on the schedule; the reader stalled and
	 * began read 9 only at 2000 ms. catchup=1: due long ago, read now;
	 * catchup=0: 31.25 ms after the last one began.
	 */
	uint64_t last = 2000 * MS;

	KT_EXPECT_EQ(t, thrash_read_due(1000 * MS, 10, last, 4096, 128 << 10, true), 1312500000ULL);
	KT_EXPECT_TRUE(t, thrash_read_due(1000 * MS, 10, last, 4096, 128 << 10, true) < last);
	KT_EXPECT_EQ(t, thrash_read_due(1000 * MS, 10, last, 4096, 128 << 10, false),
		     2031250000ULL);
}

KTEST_SUITE(thrash_pace, NULL, KTEST_CASE(test_pace_on_schedule), KTEST_CASE(test_pace_late));
