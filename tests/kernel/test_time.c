/*
 * Time: the TSC-based clock is monotonic, udelay waits at least as long as
 * asked, and the calibration agrees with the PIT within 2% over 100 ms
 * (measured afresh with PIT channel 2, independently of the boot-time
 * calibration run).
 */
#include "kernel/ktest.h"
#include "kernel/sched.h"
#include "kernel/time.h"

uint64_t pit_measure_tsc(uint32_t latch);

static void test_monotonic(struct ktest *t)
{
	uint64_t prev = ktime_ns();

	for (int i = 0; i < 100000; i++) {
		uint64_t now = ktime_ns();

		if (now < prev) {
			KT_FAIL(t, "ktime_ns went back from %llu to %llu", (unsigned long long)prev,
				(unsigned long long)now);
			return;
		}
		prev = now;
	}
}

static void test_udelay(struct ktest *t)
{
	uint64_t t0 = ktime_ns();

	udelay(2000);
	uint64_t d = ktime_ns() - t0;

	KT_EXPECT_GE(t, d, 2000 * NSEC_PER_USEC);
	KT_EXPECT_LT(t, d, 50 * NSEC_PER_MSEC);
}

static void test_tsc_vs_pit_100ms(struct ktest *t)
{
	const uint32_t latch = 1193182 / 20;	/* 50 ms of PIT ticks, twice */
	uint64_t ticks = pit_measure_tsc(latch);

	ticks += pit_measure_tsc(latch);
	KT_ASSERT_TRUE(t, ticks != 0);
	/* 100 ms of PIT time (2 x 59659 ticks at 1.193182 MHz), in ns by our clock: */
	uint64_t ns = ticks * 1000000 / tsc_khz;
	uint64_t expect = 2ULL * latch * 1000000000ULL / 1193182;

	KT_EXPECT_GT(t, ns * 100, expect * 98);
	KT_EXPECT_LT(t, ns * 100, expect * 102);
}

/*
 * Under QEMU's instruction-count clock (-icount shift=0) the TSC counts one
 * tick per nanosecond of virtual time, and a timed sleep ends at its
 * deadline: the one-shot APIC timer follows the same clock, and idle time
 * is skipped straight to it. A 3 ms sleep ends within 1% of 3 ms.
 */
static void test_virtual_clock(struct ktest *t)
{
	uint64_t t0, d;

	if (!ktime_is_virtual())
		KT_SKIP(t, "real clock");
	KT_EXPECT_GT(t, tsc_khz, 999000);
	KT_EXPECT_LT(t, tsc_khz, 1001000);
	t0 = ktime_ns();
	sleep_ns(3 * NSEC_PER_MSEC);
	d = ktime_ns() - t0;
	KT_EXPECT_GE(t, d, 3 * NSEC_PER_MSEC);
	KT_EXPECT_LT(t, d, 3030 * NSEC_PER_USEC);
}

KTEST_SUITE(time, NULL, KTEST_CASE(test_monotonic), KTEST_CASE(test_udelay),
	    KTEST_CASE(test_tsc_vs_pit_100ms), KTEST_CASE(test_virtual_clock));
