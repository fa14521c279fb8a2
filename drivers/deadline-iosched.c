/*
 * elevator=deadline: 2.6.20's block/deadline-iosched.c. Each direction's
 * requests in ascending sector order, served in one-way batches of
 * fifo_batch; a request past its FIFO deadline (reads 500 ms, writes 5 s)
 * starts the next batch; reads first unless writes have waited
 * writes_starved batches.
 */
#include "drivers/elevator.h"
#include "kernel/time.h"
#include "mm/mm.h"

struct deadline_data {
	struct list_head sort[2];   /* pending requests by sector, per direction */
	struct request *next_rq[2]; /* where the current batch goes on */
	unsigned int batching;	    /* requests dispatched in the current batch */
	unsigned int starved;	    /* read batches while writes waited */
	unsigned int fifo_batch, writes_starved;
	uint64_t fifo_expire_ns[2];
};

static int deadline_init(struct request_queue *q)
{
	struct deadline_data *dd = kzalloc(sizeof(*dd));

	if (!dd)
		return -ENOMEM;
	INIT_LIST_HEAD(&dd->sort[0]);
	INIT_LIST_HEAD(&dd->sort[1]);
	/* deadline-iosched.c's defaults */
	dd->fifo_batch = 16;
	dd->writes_starved = 2;
	dd->fifo_expire_ns[0] = 500 * NSEC_PER_MSEC;
	dd->fifo_expire_ns[1] = 5 * NSEC_PER_SEC;
	q->elevator_data = dd;
	return 0;
}

static void deadline_exit(struct request_queue *q)
{
	kfree(q->elevator_data);
	q->elevator_data = NULL;
}

/* Keep @rq in its direction's list in ascending sector order. */
static void deadline_sort_insert(struct deadline_data *dd, struct request *rq)
{
	struct list_head *head = &dd->sort[op_dir(rq->op)];
	struct request *o;

	list_for_each_entry (o, head, sortlink) {
		if (o->sector > rq->sector) {
			list_add_tail(&rq->sortlink, &o->sortlink);
			return;
		}
	}
	list_add_tail(&rq->sortlink, head);
}

static struct request *deadline_sort_next(struct deadline_data *dd, struct request *rq)
{
	struct list_head *head = &dd->sort[op_dir(rq->op)];

	return rq->sortlink.next == head ? NULL
					 : list_entry(rq->sortlink.next, struct request, sortlink);
}

/* @rq joined the pending list: its place in its direction's sector order. */
static void deadline_add(struct request_queue *q, struct request *rq)
{
	deadline_sort_insert(q->elevator_data, rq);
}

/* @rq left the pending list (dispatched, or merged into another). */
static void deadline_remove(struct request_queue *q, struct request *rq)
{
	struct deadline_data *dd = q->elevator_data;
	int dir = op_dir(rq->op);

	if (dd->next_rq[dir] == rq)
		dd->next_rq[dir] = deadline_sort_next(dd, rq);
	list_del_init(&rq->sortlink);
}

/* A pending request's first sector moved (a front merge): its sort position too. */
static void deadline_resort(struct request_queue *q, struct request *rq)
{
	struct deadline_data *dd = q->elevator_data;
	int dir = op_dir(rq->op);

	if (dd->next_rq[dir] == rq)
		dd->next_rq[dir] = NULL;
	list_del(&rq->sortlink);
	deadline_sort_insert(dd, rq);
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
	struct deadline_data *dd = q->elevator_data;
	struct request *rq = dd->next_rq[1] ? dd->next_rq[1] : dd->next_rq[0];
	struct request *fifo;
	bool reads, writes;
	int dir;

	if (rq && dd->batching < dd->fifo_batch)
		goto dispatch;
	reads = !list_empty(&dd->sort[0]);
	writes = !list_empty(&dd->sort[1]);
	if (!reads && !writes)
		return NULL;
	/* reads first, unless writes have waited writes_starved read batches */
	if (reads && !(writes && dd->starved++ >= dd->writes_starved)) {
		dir = 0;
	} else {
		dd->starved = 0;
		dir = 1;
	}
	fifo = fifo_first(q, dir);
	if (fifo && ktime_ns() >= fifo->start_ns + dd->fifo_expire_ns[dir]) {
		/* an expired request: serve it and go on from there */
		rq = fifo;
		q->elv.expired++;
		dd->batching = 0;
	} else if (dd->next_rq[dir]) {
		rq = dd->next_rq[dir];
	} else {
		/* one-way elevator: back to the lowest sector, a new batch */
		rq = list_first_entry(&dd->sort[dir], struct request, sortlink);
		dd->batching = 0;
	}
	if (dd->batching == 0)
		q->elv.batches++;
dispatch:
	dir = op_dir(rq->op);
	dd->batching++;
	dd->next_rq[dir] = deadline_sort_next(dd, rq);
	dd->next_rq[!dir] = NULL;
	return rq;
}

static const struct elevator_type elevator_deadline = {
	.name = "deadline",
	.help = "sector-sorted batches with FIFO deadlines (2.6.20's deadline-iosched)",
	.init = deadline_init,
	.exit = deadline_exit,
	.add = deadline_add,
	.remove = deadline_remove,
	.resort = deadline_resort,
	.next = deadline_next,
};
ELEVATOR(elevator_deadline);
