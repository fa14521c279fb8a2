/*
 * elevator=noop: the driver gets the pending requests in arrival order
 * (2.6.20's block/noop-iosched.c; the core still merges them).
 */
#include "drivers/elevator.h"

static struct request *noop_next(struct request_queue *q)
{
	return list_first_entry(&q->pending, struct request, queuelist);
}

static const struct elevator_type elevator_noop = {
	.name = "noop",
	.help = "arrival order (2.6.20's noop-iosched)",
	.next = noop_next,
};
ELEVATOR(elevator_noop);
