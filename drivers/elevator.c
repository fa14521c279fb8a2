/*
 * The I/O schedulers (elevators) of the block layer, each a table of
 * operations as the readahead algorithms are (drivers/elevator.h); the core
 * (drivers/blk-core.c) keeps the pending list in arrival order and calls
 * them as requests come, go, move and are dispatched.
 *
 *	noop      the pending list in order (FIFO)
 *	deadline  2.6.20's deadline-iosched: each direction's requests in
 *	          ascending sector order, served in one-way batches of
 *	          fifo_batch; a request past its FIFO deadline (reads 500 ms,
 *	          writes 5 s) starts the next batch; reads first unless writes
 *	          have waited writes_starved batches
 *
 * Hardware-independent and host-built, like the core.
 */
#include "drivers/elevator.h"
#include "drivers/blkdev.h"
#include "kernel/time.h"

const char *const blk_elevator_names[] = {"noop", "deadline", NULL};

/* Deadline: keep @rq in its direction's list in ascending sector order. */
static void elv_sort_insert(struct request_queue *q, struct request *rq)
{
	struct list_head *head = &q->sort[op_dir(rq->op)];
	struct request *o;

	list_for_each_entry (o, head, sortlink) {
		if (o->sector > rq->sector) {
			list_add_tail(&rq->sortlink, &o->sortlink);
			return;
		}
	}
	list_add_tail(&rq->sortlink, head);
}

static struct request *elv_sort_next(struct request_queue *q, struct request *rq)
{
	struct list_head *head = &q->sort[op_dir(rq->op)];

	return rq->sortlink.next == head ? NULL
					 : list_entry(rq->sortlink.next, struct request, sortlink);
}

/* @rq joined the pending list: its place in its direction's sector order. */
static void deadline_add(struct request_queue *q, struct request *rq)
{
	elv_sort_insert(q, rq);
}

/* @rq left the pending list (dispatched, or merged into another). */
static void deadline_remove(struct request_queue *q, struct request *rq)
{
	int dir = op_dir(rq->op);

	if (q->next_rq[dir] == rq)
		q->next_rq[dir] = elv_sort_next(q, rq);
	list_del_init(&rq->sortlink);
}

/* A pending request's first sector moved (a front merge): its sort position too. */
static void deadline_resort(struct request_queue *q, struct request *rq)
{
	int dir = op_dir(rq->op);

	if (q->next_rq[dir] == rq)
		q->next_rq[dir] = NULL;
	list_del(&rq->sortlink);
	elv_sort_insert(q, rq);
}

/* The oldest pending request of direction @dir, or NULL. */
static struct request *fifo_first(struct request_queue *q, int dir)
{
	struct request *rq;

	list_for_each_entry (rq, &q->pending, queuelist)
		if (op_dir(rq->op) == dir)
			return rq;
	return NULL;
}

/* deadline-iosched's dispatch: the next request in the current batch, or a new batch. */
static struct request *deadline_next(struct request_queue *q)
{
	struct request *rq = q->next_rq[1] ? q->next_rq[1] : q->next_rq[0];
	struct request *fifo;
	bool reads, writes;
	int dir;

	if (rq && q->batching < q->fifo_batch)
		goto dispatch;
	reads = !list_empty(&q->sort[0]);
	writes = !list_empty(&q->sort[1]);
	if (!reads && !writes)
		return NULL;
	/* reads first, unless writes have waited writes_starved read batches */
	if (reads && !(writes && q->starved++ >= q->writes_starved)) {
		dir = 0;
	} else {
		q->starved = 0;
		dir = 1;
	}
	fifo = fifo_first(q, dir);
	if (fifo && ktime_ns() >= fifo->start_ns + q->fifo_expire_ns[dir]) {
		/* an expired request: serve it and go on from there */
		rq = fifo;
		q->elv.expired++;
		q->batching = 0;
	} else if (q->next_rq[dir]) {
		rq = q->next_rq[dir];
	} else {
		/* one-way elevator: back to the lowest sector, a new batch */
		rq = list_first_entry(&q->sort[dir], struct request, sortlink);
		q->batching = 0;
	}
	if (q->batching == 0)
		q->elv.batches++;
dispatch:
	dir = op_dir(rq->op);
	q->batching++;
	q->next_rq[dir] = elv_sort_next(q, rq);
	q->next_rq[!dir] = NULL;
	return rq;
}

/* noop: the oldest pending request. */
static struct request *noop_next(struct request_queue *q)
{
	return list_first_entry(&q->pending, struct request, queuelist);
}

static const struct elevator_type elevator_noop = {
	.name = "noop",
	.next = noop_next,
};

static const struct elevator_type elevator_deadline = {
	.name = "deadline",
	.add = deadline_add,
	.remove = deadline_remove,
	.resort = deadline_resort,
	.next = deadline_next,
};

const struct elevator_type *const elevator_types[] = {
	[ELEVATOR_NOOP] = &elevator_noop,
	[ELEVATOR_DEADLINE] = &elevator_deadline,
};
