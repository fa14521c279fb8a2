/*
 * The interface an I/O scheduler (elevator) implements, as Linux 2.6.20's
 * struct elevator_type: a table of operations with data of its own per
 * queue (q->elevator_data), registered with ELEVATOR() in a linker section,
 * so that adding one is adding a file (drivers/NAME-iosched.c) and elevator=
 * lists it by itself (drivers/elevator.c, the registry). The core
 * (drivers/blk-core.c) keeps q->pending in arrival order and calls the
 * elevator as requests come, go, move, are dispatched and complete.
 */
#ifndef DRIVERS_ELEVATOR_H
#define DRIVERS_ELEVATOR_H

#include "drivers/blkdev.h"

#define ELV_DEFAULT 0x01 /* elevator= when the command line names none */

/*
 * Every hook but ->next may be NULL. Hooks run in thread context, one at a
 * time (the block layer's threads are cooperative: see blk-core.c).
 *
 * ->init	set up q->elevator_data; 0 or -ENOMEM (with the queue's creation)
 * ->exit	free it
 * ->add	@rq joined q->pending (rq->ioc names the process it came from)
 * ->remove	@rq left q->pending: returned by ->next, or merged into another
 * ->resort	@rq's first sector moved (a front merge)
 * ->next	the pending request the driver gets next, or NULL to give it
 *		nothing now (q->pending is not empty); the core takes it off
 *		q->pending (->remove) and hands it to the driver
 * ->activate	@rq was handed to the driver (q->in_driver counts it)
 * ->deactivate	the driver refused @rq (-EBUSY); it goes back to the core's
 *		requeue list, which is served before the elevator
 * ->completed	the driver ended @rq (q->in_driver no longer counts it)
 * ->allow_merge may a bio or request of process @ioc join pending @rq?
 * ->timer	the queue's timer (elv_timer_arm()) went off; the core runs
 *		the queue afterwards
 * ->exit_ioc	process @ioc exited (2.6.20's exit_io_context() calling the
 *		elevator's cfq_exit_io_context()): forget what was kept for
 *		it; the core runs the queue afterwards
 * ->run_start	a run begins on the disk made cold (blk_run_start(), with
 *		nothing queued or in flight): restart what depends on when
 *		the run began (cfq: its clock, idle timer and processes'
 *		history), as the disk model is restarted there
 */
struct elevator_type {
	const char *name; /* as elevator= spells it */
	const char *help; /* one line: what it is and where it comes from */
	unsigned int flags;
	int (*init)(struct request_queue *q);
	void (*exit)(struct request_queue *q);
	void (*add)(struct request_queue *q, struct request *rq);
	void (*remove)(struct request_queue *q, struct request *rq);
	void (*resort)(struct request_queue *q, struct request *rq);
	struct request *(*next)(struct request_queue *q);
	void (*activate)(struct request_queue *q, struct request *rq);
	void (*deactivate)(struct request_queue *q, struct request *rq);
	void (*completed)(struct request_queue *q, struct request *rq);
	bool (*allow_merge)(struct request_queue *q, struct request *rq, uint64_t ioc);
	void (*timer)(struct request_queue *q);
	void (*exit_ioc)(struct request_queue *q, uint64_t ioc);
	void (*run_start)(struct request_queue *q);
};

/* Register @e (a const struct elevator_type) so that elevator= finds it. */
#define ELEVATOR(e)                                             \
	static const struct elevator_type *const __elevator_##e \
		__attribute__((used, section("elevators"), aligned(8))) = &(e)

/* A request's direction, the index of the per-direction lists and counts: reads 0, else 1. */
static inline int op_dir(enum bio_op op)
{
	return op == REQ_OP_READ ? 0 : 1;
}

/* --- the registry (drivers/elevator.c) ------------------------------------------ */

/* The @i-th registered elevator in name order, or NULL past the last. */
const struct elevator_type *elv_at(unsigned int i);
const struct elevator_type *elv_find(const char *name);
/* The names, NULL-terminated, in name order: KV_ENUM choices for elevator=. */
const char *const *elv_names(void);
/* elevator= or else the one flagged ELV_DEFAULT; NULL in a program that links none. */
const struct elevator_type *elv_default(void);
/* elevator=NAME: the boot default from now on; -EINVAL for a name nobody registered. */
int elv_set_default(const char *name);

/* --- the queue's timer (drivers/blk-core.c), for an elevator that waits ----------- */

/*
 * Run ->timer and then the queue at @when (ktime_ns()), replacing any
 * earlier arming; in the kernel a thread of the queue's (drivers/blk-timer.c,
 * Linux's kblockd) sleeps until then. elv_timer_del() disarms it.
 */
void elv_timer_arm(struct request_queue *q, uint64_t when);
void elv_timer_del(struct request_queue *q);
/* The timer's time has come: ->timer, then the queue runs (the timer thread, host tests). */
void elv_timer_fire(struct request_queue *q);

/*
 * Process @ioc exited: every disk's elevator forgets it (->exit_ioc) and
 * the queue runs. The block layer registers it with
 * thread_exit_hook_register() (drivers/blk-cmd.c); host tests call it.
 */
void elv_exit_ioc(uint64_t ioc);

#endif
