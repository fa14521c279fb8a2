/*
 * The clock: the TSC, calibrated at boot against PIT channel 2 (its gate
 * is software-controlled and its output readable in port 0x61, so no
 * interrupt is needed). ktime_ns() converts TSC ticks with a 32.32 fixed
 * point multiplier.
 */
#include <cpuid.h>

#include <string.h>

#include "kernel/exit.h"
#include "kernel/io.h"
#include "kernel/log.h"
#include "kernel/time.h"

#define PIT_HZ	       1193182ULL
#define PIT_CH2	       0x42
#define PIT_CMD	       0x43
#define PORT_B	       0x61
#define PORT_B_GATE2   0x01
#define PORT_B_SPEAKER 0x02
#define PORT_B_OUT2    0x20

uint64_t tsc_khz;
static uint64_t tsc_base; /* moves forward over stalls (ktime_stall_end) */
static bool clock_virtual;
static uint64_t ns_mult; /* ns per TSC tick, << 32 */

/*
 * Count TSC ticks over @latch PIT ticks (one-shot, mode 0). Returns 0 if
 * the PIT never signals, which a machine without a PIT would do.
 */
uint64_t pit_measure_tsc(uint32_t latch)
{
	uint64_t t0, t1, limit;
	uint8_t b = inb(PORT_B);

	outb(PORT_B, (b & ~PORT_B_SPEAKER) & ~PORT_B_GATE2);
	outb(PIT_CMD, 0xb0); /* channel 2, lobyte/hibyte, mode 0, binary */
	outb(PIT_CH2, latch & 0xff);
	outb(PIT_CH2, (latch >> 8) & 0xff);
	outb(PORT_B, (b & ~PORT_B_SPEAKER) | PORT_B_GATE2);
	t0 = rdtsc();
	/*
	 * Bound: 20 million port reads, each followed by a short spin, far
	 * longer than 55 ms on any machine. The spin keeps the port reads few:
	 * under QEMU's instruction-count clock each one ends a translation block
	 * and costs far more host time than the virtual time it stands for.
	 */
	for (limit = 0; limit < 20000000ULL; limit++) {
		if (inb(PORT_B) & PORT_B_OUT2)
			break;
		cpu_spin(512);
	}
	t1 = rdtsc();
	outb(PORT_B, b & ~PORT_B_GATE2);
	return limit == 20000000ULL ? 0 : t1 - t0;
}

static void set_tsc_khz(uint64_t khz)
{
	tsc_khz = khz;
	ns_mult = (NSEC_PER_MSEC << 32) / khz;
}

int time_init(void)
{
	uint64_t best = UINT64_MAX;
	const uint32_t latch = (uint32_t)(PIT_HZ / 20); /* 50 ms */

	/* The shortest of three runs is the one least disturbed by the host (or SMIs). */
	for (int i = 0; i < 3; i++) {
		uint64_t t = pit_measure_tsc(latch);

		if (t && t < best)
			best = t;
	}
	if (best == UINT64_MAX) {
		unsigned int a, b, c, d;

		if (__get_cpuid(0x16, &a, &b, &c, &d) && (a & 0xffff)) {
			pr_warn("time: the PIT does not count; using CPUID's %u MHz\n", a & 0xffff);
			set_tsc_khz((uint64_t)(a & 0xffff) * 1000);
		} else {
			pr_err("time: the PIT does not count and CPUID gives no TSC frequency\n");
			return -ENODEV;
		}
	} else {
		set_tsc_khz(best * PIT_HZ / latch / 1000);
	}
	tsc_base = rdtsc();
	/*
	 * tools/run-qemu says in fw_cfg when it gave the guest QEMU's
	 * instruction-count clock (-icount shift=0,sleep=off): one nanosecond
	 * per instruction, idle time skipped.
	 */
	char clock[16];

	if (qemu_fw_cfg_file("opt/lookahead/clock", clock, sizeof(clock)) > 0 &&
	    !strcmp(clock, "virtual"))
		clock_virtual = true;
	pr_info("time: %s clock: TSC %llu.%03llu MHz (calibrated against the PIT)\n",
		clock_virtual ? "virtual (QEMU -icount)" : "real",
		(unsigned long long)(tsc_khz / 1000), (unsigned long long)(tsc_khz % 1000));
	return 0;
}

/*
 * Stalls nest (console output inside a benchmark's harness, say): only the
 * outermost one moves the clock's base, and the clock reads its start
 * until it ends.
 */
static unsigned int stall_depth;
static uint64_t stall_tsc, stall_ns;

uint64_t ktime_ns(void)
{
	uint64_t d = rdtsc() - tsc_base;

	if (!ns_mult)
		return 0;
	if (stall_depth)
		return stall_ns;
	return (uint64_t)(((unsigned __int128)d * ns_mult) >> 32);
}

const char *ktime_clock_name(void)
{
	return clock_virtual ? "virtual" : "real";
}

bool ktime_is_virtual(void)
{
	return clock_virtual;
}

void apic_timer_mask(bool masked);
void sched_timer_rearm(void);

uint64_t ktime_stall_begin(bool stop)
{
	if (stop && !stall_depth) {
		/* an APIC timer expiring meanwhile would interrupt at a host-dependent point */
		apic_timer_mask(true);
		stall_ns = ktime_ns();
		stall_tsc = rdtsc();
	}
	stall_depth += stop;
	return rdtsc();
}

void ktime_stall_end(uint64_t begin, bool stop)
{
	(void)begin;
	if (!stop || --stall_depth)
		return;
	tsc_base += rdtsc() - stall_tsc;
	apic_timer_mask(false);
	sched_timer_rearm();
}

void udelay(unsigned long us)
{
	uint64_t end;

	if (!tsc_khz) {
		/* Before calibration: about 1 us per port 0x80 write. */
		for (unsigned long i = 0; i < us; i++)
			outb(0x80, 0);
		return;
	}
	end = rdtsc() + us * tsc_khz / 1000;
	/* a short spin per TSC read: rdtsc is slow under QEMU's instruction-count clock */
	while ((int64_t)(rdtsc() - end) < 0)
		cpu_spin(16);
}
