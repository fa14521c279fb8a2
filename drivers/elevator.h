/*
 * An I/O scheduler of the block layer (drivers/elevator.c): what the core
 * calls as a pending request arrives, leaves, moves and is dispatched. The
 * core keeps q->pending in arrival order itself; an elevator keeps its own
 * order beside it (deadline: q->sort[], q->next_rq[]).
 */
#ifndef DRIVERS_ELEVATOR_H
#define DRIVERS_ELEVATOR_H

#include "drivers/blkdev.h"

struct elevator_type {
	const char *name;
	/* @rq was added to q->pending (NULL: nothing to keep) */
	void (*add)(struct request_queue *q, struct request *rq);
	/* @rq was taken off q->pending, dispatched or merged away (NULL: nothing) */
	void (*remove)(struct request_queue *q, struct request *rq);
	/* @rq's first sector moved by a front merge (NULL: order does not depend on it) */
	void (*resort)(struct request_queue *q, struct request *rq);
	/* the pending request to dispatch next, or NULL; q->pending is not empty */
	struct request *(*next)(struct request_queue *q);
};

/* A request's direction, the index of the per-direction lists and counts: reads 0, else 1. */
static inline int op_dir(enum bio_op op)
{
	return op == REQ_OP_READ ? 0 : 1;
}

/* indexed by enum elevator_kind, as blk_elevator_names[] */
extern const struct elevator_type *const elevator_types[];

#endif
