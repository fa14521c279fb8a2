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
/* TSC frequency found by calibration, in kHz (0 on the host). */
extern uint64_t tsc_khz;

#endif
