/*
 * The elevators' timer (kernel only): one thread per queue that has ever
 * armed it, sleeping until q->timer_ns and then firing it
 * (elv_timer_fire(): the elevator's ->timer, then the queue runs), as
 * 2.6.20's CFQ has its idle_slice_timer run the queue through kblockd.
 * Threads are cooperative, so the thread runs between the block layer's
 * other calls, never inside one.
 */
#include <stdio.h>

#include "drivers/blk-internal.h"
#include "drivers/elevator.h"
#include "kernel/log.h"
#include "kernel/sched.h"

static int blk_timer_thread(void *arg)
{
	struct request_queue *q = arg;

	for (;;) {
		uint64_t when = q->timer_ns, now = ktime_ns();

		if (!when) {
			wait_event(q->timer_wq, q->timer_ns != 0);
			continue;
		}
		if (now < when) {
			/* woken early by a new arming (or none): look again */
			wait_event_timeout(q->timer_wq, q->timer_ns != when, when - now);
			continue;
		}
		elv_timer_fire(q);
	}
	return 0;
}

int blk_timer_start(struct request_queue *q)
{
	static char names[BLK_MAX_DISKS][24];
	int i = q->bdev->index;

	snprintf(names[i], sizeof(names[i]), "kblockd-%s", q->bdev->name);
	if (!thread_create(names[i], blk_timer_thread, q)) {
		pr_err("blk: %s: no memory for the elevator's timer thread\n", q->bdev->name);
		return -ENOMEM;
	}
	q->timer_thread = true;
	return 0;
}
