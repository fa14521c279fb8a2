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
/* TSC frequency found by calibration, in kHz (0 on the host). */
extern uint64_t tsc_khz;

#endif
