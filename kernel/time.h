/*
 * Time: a monotonic nanosecond clock from the TSC, calibrated against the
 * PIT at boot (kernel/time.c). On the host, CLOCK_MONOTONIC.
 */
#ifndef KERNEL_TIME_H
#define KERNEL_TIME_H

#include "kernel/types.h"

#define NSEC_PER_USEC	1000ULL
#define NSEC_PER_MSEC	1000000ULL
#define NSEC_PER_SEC	1000000000ULL

uint64_t ktime_ns(void);
/* Busy-wait; for short hardware delays only (use sleep_ns() otherwise). */
void udelay(unsigned long us);
/*
 * "virtual" when the run's clock is QEMU's instruction count (tools/run-qemu
 * says so in fw_cfg), else "real". Results name it.
 */
const char *ktime_clock_name(void);
bool ktime_is_virtual(void);
/*
 * With @stop, stop the clock: ktime_ns() does not advance between
 * ktime_stall_begin() and ktime_stall_end(), and the APIC timer is masked
 * meanwhile and re-armed after. For waits whose length depends on the host,
 * not on the modelled machine (a modelled disk's real I/O finishing late),
 * so that virtual time stays a function of the guest's own work.
 * Interrupts must be off in between; udelay() still runs on the raw TSC.
 * Stalls nest: only the outermost moves the clock, which reads its start
 * throughout. Returns the raw TSC at the start.
 */
uint64_t ktime_stall_begin(bool stop);
void ktime_stall_end(uint64_t begin, bool stop);
/*
 * An instrument's own work (the readahead trace, following one reader,
 * per-second samples, the lines that print what they saw): between
 * ktime_hold_begin() and ktime_hold_end(), on the virtual clock, the clock
 * is stopped (a stall) and interrupts are off, so the same run traced or
 * not reads the same times: an instrument never moves what it measures.
 * On a real clock nothing stops and the work costs what it costs. Holds
 * nest; every call path must hold the same way traced or not, since the
 * few instructions around the stopped part still count.
 */
struct ktime_hold {
	unsigned long flags;
	uint64_t begin;
	bool stop;
};
void ktime_hold_begin(struct ktime_hold *h);
void ktime_hold_end(struct ktime_hold *h);

/*
 * Under the virtual clock (outside stalls), make ktime_ns() read @ns now:
 * an idle CPU's wake-up by its timer (kernel/sched.c, sched_irq_enter()).
 * Does nothing on a real clock.
 */
void ktime_idle_wake(uint64_t ns);
/* TSC frequency found by calibration, in kHz (0 on the host). */
extern uint64_t tsc_khz;
/* What calibrated it: "the PIT", "the ACPI PM timer (port 0x608, 24-bit)", ... */
const char *ktime_calibration_source(void);

/*
 * The calibration's measurements, for the selftests (tests/kernel/test_time.c):
 * TSC ticks over @latch ticks of PIT channel 2 (0 with *@why when it does not
 * count; @gate false holds its gate low), and the TSC's rate in Hz over
 * @ticks of the ACPI PM timer (0 with *@why when there is none or it fails).
 */
uint64_t pit_measure_tsc(uint32_t latch, bool gate, const char **why);
uint64_t pmtimer_measure_hz(uint32_t ticks, const char **why);

#endif
