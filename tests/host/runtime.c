/*
 * Host runtime for test programs: the pieces of the kernel that hosted code
 * needs (clock, panic, a single-threaded wait queue) and a main() that runs
 * every ktest suite linked into the program, or those named in argv[1]
 * (comma-separated), and exits non-zero if any case failed.
 *
 * A test that would sleep on a condition nothing can make true is a bug in
 * the code under test: the wait shim calls host_wait_hook (a test sets it
 * to complete fake I/O) and aborts if the condition is still false.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "kernel/ktest.h"
#include "kernel/log.h"
#include "kernel/sched.h"

uint64_t tsc_khz;
bool (*host_wait_hook)(void);

bool host_clock_set;
uint64_t host_clock_ns;

uint64_t ktime_ns(void)
{
	struct timespec ts;

	if (host_clock_set)
		return host_clock_ns;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

const char *ktime_clock_name(void)
{
	return "real";
}

bool ktime_is_virtual(void)
{
	return false;
}

void ktime_hold_begin(struct ktime_hold *h)
{
	h->stop = false;
	h->flags = 0;
	h->begin = 0;
}

void ktime_hold_end(struct ktime_hold *h)
{
	(void)h;
}

void udelay(unsigned long us)
{
	uint64_t end = ktime_ns() + us * NSEC_PER_USEC;

	while (ktime_ns() < end)
		;
}

void panic(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "panic: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	abort();
}

/* One thread on the host: any pointer stands for it, as long as it is always the same. */
struct thread *current_thread(void)
{
	static int the_thread;

	return (struct thread *)(void *)&the_thread;
}

void init_waitqueue_head(struct wait_queue_head *wq)
{
	INIT_LIST_HEAD(&wq->waiters);
}

void wake_up(struct wait_queue_head *wq)
{
	(void)wq;
}

void wake_up_all(struct wait_queue_head *wq)
{
	(void)wq;
}

unsigned long prepare_to_wait(struct wait_queue_head *wq, struct wait_entry *w)
{
	(void)wq;
	w->thread = NULL;
	INIT_LIST_HEAD(&w->link);
	return 0;
}

void finish_wait(struct wait_queue_head *wq, struct wait_entry *w, unsigned long flags)
{
	(void)wq;
	(void)w;
	(void)flags;
}

/* The one thread's time in schedule_until(): the hook's fake I/O, or a timed wait. */
static uint64_t host_slept_ns;

uint64_t thread_slept_ns(void)
{
	return host_slept_ns;
}

void schedule_until(uint64_t deadline)
{
	uint64_t t0 = ktime_ns();

	if (host_wait_hook && host_wait_hook()) {
		host_slept_ns += ktime_ns() - t0;
		return;
	}
	if (deadline != WAIT_FOREVER) {
		/* Timed waits on the host just let the time pass. */
		while (ktime_ns() < deadline)
			;
		host_slept_ns += ktime_ns() - t0;
		return;
	}
	panic("host: a wait can never be satisfied (no host_wait_hook made progress)");
}

void thread_yield(void)
{
	if (host_wait_hook)
		host_wait_hook();
}

void sleep_ns(uint64_t ns)
{
	udelay(ns / NSEC_PER_USEC);
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	return ktest_run_all(argc > 1 ? argv[1] : NULL) ? 1 : 0;
}
