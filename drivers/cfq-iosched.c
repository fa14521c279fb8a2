/*
 * elevator=cfq: 2.6.20's Completely Fair Queueing scheduler
 * (block/cfq-iosched.c at v2.6.20; each function below names the one whose
 * rule it follows). Written from reading that file, not copied.
 *
 *  - Queues: each process (thread_id(), Linux's pid) has a sync queue for
 *    its reads; writes share the async queue (cfq_queue_pid()).
 *  - Service: queues with requests take turns (cur_rr, refilled from
 *    rr_list a round at a time; busy_rr holds those with requests still in
 *    the driver). The active queue dispatches up to cfq_quantum requests a
 *    round, nearest the head first (cfq_choose_req(): forward, or backward
 *    up to back_seek_max at back_seek_penalty times the distance), or the
 *    oldest once its FIFO time (125 ms sync, 250 ms async) has passed; its
 *    slice is 100 ms (sync) or 40 ms (async, at most 16 requests).
 *  - Idling: an active sync queue that runs empty keeps the disk while
 *    slice_idle (2 jiffies at HZ=250) runs out, unless its process thinks
 *    longer than that on average, or seeks more than 64 MiB on average while
 *    the drive queues commands itself (hw_tag: more than 4 in the driver);
 *    nothing else is dispatched meanwhile, nor while the active queue has
 *    requests in the driver.
 *
 * What is left out, and why: I/O priorities (every thread here has the
 * default, best effort 4, so one rr_list of 2.6.20's eight is used and
 * CFQ_SLICE_SCALE changes nothing), the idle and real-time classes and
 * metadata requests. A process's queue goes when it exits (cfq_exit_ioc(),
 * through the thread-exit hook the block layer registers).
 * cfq_should_preempt() is followed, but it cannot fire for a best-effort
 * queue: it wants wait_request on a queue that is not the active one.
 *
 * Time is in jiffies of HZ=250 (4 ms) from ktime_ns(), as 2.6.20 counts it,
 * so the idle timer goes off at the jiffy edge 2 after it was armed: 4-8 ms.
 */
#include <string.h>

#include "drivers/elevator.h"
#include "kernel/log.h"
#include "kernel/time.h"
#include "mm/mm.h"

#define CFQ_HZ	     250 /* kernel/Kconfig.hz's default */
#define CFQ_JIFFY_NS (NSEC_PER_SEC / CFQ_HZ)

/* the tunables at the top of 2.6.20's cfq-iosched.c */
static const unsigned int cfq_quantum = 4;
static const uint64_t cfq_fifo_expire[2] = {CFQ_HZ / 4, CFQ_HZ / 8}; /* async, sync */
static const uint64_t cfq_back_max = 16 * 1024;			     /* KiB */
static const uint64_t cfq_back_penalty = 2;
static const uint64_t cfq_slice[2] = {CFQ_HZ / 25, CFQ_HZ / 10}; /* async, sync */
static const unsigned int cfq_slice_async_rq = 2;
static const uint64_t cfq_slice_idle = CFQ_HZ / 125;

#define CFQ_PRIO_LISTS	8 /* IOPRIO_BE_NR */
#define CFQ_IOPRIO	4 /* task_nice_ioprio() at nice 0: (0 + 20) / 5 */
#define CFQ_SLICE_SCALE 5

#define ASYNC 0
#define SYNC  1

/* sample_valid(), CIC_SEEKY() */
#define cfq_sample_valid(samples) ((samples) > 80)
#define CFQ_SEEKY(cfqq)		  ((cfqq)->seek_mean > (128 * 1024))

/* More queues than this and the least recently used idle one is forgotten. */
#define CFQ_MAX_QUEUES 1024

struct cfq_queue {
	struct list_head all;	    /* cfq_data.queues, most recently used first */
	struct list_head cfq_list;  /* rr_list, cur_rr or busy_rr, while on_rr */
	uint64_t key;		    /* the process of a sync queue; 0: the async queue */
	struct list_head sort_list; /* queued requests by sector (rq->sortlink) */
	struct list_head fifo;	    /* ... in arrival order (rq->elv_link) */
	struct request *next_rq;    /* if no FIFO time ran out, the next to serve */
	unsigned int queued;
	unsigned int on_dispatch[2]; /* dispatched (list or driver), not completed */
	uint64_t slice_start, slice_end, slice_left; /* jiffies */
	bool on_rr, wait_request, must_dispatch, fifo_expire, idle_window, queue_new;
	bool exited; /* its process exited: freed once nothing of it is queued or in flight */
	/*
	 * The process's cfq_io_context: think time and seek distance. 2.6.20
	 * keeps them per process and device, and only a sync queue's
	 * requests update them, so they live in the sync queue here.
	 */
	uint64_t last_end_request, last_queue; /* jiffies */
	sector_t last_request_pos;
	uint64_t ttime_total, ttime_samples, ttime_mean;
	uint64_t seek_total, seek_samples, seek_mean;
};

struct cfq_data {
	struct list_head queues;
	unsigned int nr_queues;
	struct cfq_queue *async_queue;
	struct list_head rr_list, cur_rr, busy_rr;
	unsigned int busy_queues;
	/* Linux's q->queue_head: dispatched, not yet taken by the driver (rq->elv_link) */
	struct list_head dispatch;
	sector_t end_sector; /* q->end_sector: the end of the last request the driver took */
	bool hw_tag;
	struct cfq_queue *active_queue;
	uint64_t active_ioc; /* active_cic: the process of the slice's first request */
	bool active_cic;
	unsigned int dispatch_slice;
	sector_t last_sector;
	uint64_t last_end_request;
	uint64_t base_ns; /* ktime_ns() at jiffy 0 */
};

/*
 * Jiffies since the disk's clock base: boot, or the start of the latest
 * run on the disk made cold (cfq_run_start()), so that a run's jiffy edges
 * fall where its own work puts them, whatever ran before it.
 */
static uint64_t cfq_jiffies_at(const struct cfq_data *cfqd, uint64_t ns)
{
	return ns > cfqd->base_ns ? (ns - cfqd->base_ns) / CFQ_JIFFY_NS : 0;
}

static uint64_t cfq_jiffies(const struct cfq_data *cfqd)
{
	return cfq_jiffies_at(cfqd, ktime_ns());
}

static bool rq_is_sync(const struct request *rq)
{
	return op_dir(rq->op) == 0;
}

static struct cfq_queue *rq_cfqq(const struct request *rq)
{
	return rq->elv_priv;
}

static unsigned int cfq_dispatched(const struct cfq_queue *cfqq)
{
	return cfqq->on_dispatch[ASYNC] + cfqq->on_dispatch[SYNC];
}

/* cfq_cfqq_class_sync(), cfq_cfqq_sync() */
static bool cfq_class_sync(const struct cfq_queue *cfqq)
{
	return cfqq->key != 0;
}

static bool cfq_sync(const struct cfq_queue *cfqq)
{
	return cfq_class_sync(cfqq) || cfqq->on_dispatch[SYNC];
}

/* --- the idle slice timer (idle_slice_timer) -------------------------------------- */

static bool cfq_del_timer(struct request_queue *q)
{
	bool pending = q->timer_ns != 0;

	elv_timer_del(q);
	return pending;
}

/* mod_timer(&idle_slice_timer, jiffies + @sl): it goes off at that jiffy's edge. */
static void cfq_mod_timer(struct request_queue *q, uint64_t expires)
{
	const struct cfq_data *cfqd = q->elevator_data;

	elv_timer_arm(q, cfqd->base_ns + expires * CFQ_JIFFY_NS);
}

/* --- queues ------------------------------------------------------------------------ */

static void cfq_init_queue_state(const struct cfq_data *cfqd, struct cfq_queue *cfqq, uint64_t key)
{
	memset(cfqq, 0, sizeof(*cfqq));
	INIT_LIST_HEAD(&cfqq->all);
	INIT_LIST_HEAD(&cfqq->cfq_list);
	INIT_LIST_HEAD(&cfqq->sort_list);
	INIT_LIST_HEAD(&cfqq->fifo);
	cfqq->key = key;
	/* cfq_get_queue(): a new queue idles, is new, and may preempt */
	cfqq->slice_left = 2 * cfq_slice_idle;
	cfqq->idle_window = true;
	cfqq->queue_new = true;
	/* cfq_alloc_io_context() */
	cfqq->last_end_request = cfq_jiffies(cfqd);
}

static bool cfq_queue_idle(const struct cfq_data *cfqd, const struct cfq_queue *cfqq)
{
	return cfqq != cfqd->active_queue && cfqq != cfqd->async_queue && !cfqq->on_rr &&
	       !cfqq->queued && !cfq_dispatched(cfqq);
}

/*
 * cfq_put_queue() for a queue whose process exited: 2.6.20 frees it when
 * the last request holding it goes; here, once it is idle (nothing queued
 * or in flight, not active). True when it was freed.
 */
static bool cfq_put_exited(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	if (!cfqq->exited || !cfq_queue_idle(cfqd, cfqq))
		return false;
	list_del(&cfqq->all);
	cfqd->nr_queues--;
	kfree(cfqq);
	return true;
}

/*
 * cfq_get_queue(): the queue of process @key (0: the async queue). In
 * 2.6.20 a queue lives while its process or a request holds it; so here
 * (cfq_exit_ioc()). Past CFQ_MAX_QUEUES live processes (or with no
 * memory) the least recently used queue with nothing queued or in flight
 * is forgotten, as if its process had exited.
 */
static struct cfq_queue *cfq_get_queue(struct cfq_data *cfqd, uint64_t key)
{
	struct cfq_queue *cfqq;

	if (!key)
		return cfqd->async_queue;
	list_for_each_entry (cfqq, &cfqd->queues, all) {
		if (cfqq->key == key) {
			list_move(&cfqq->all, &cfqd->queues);
			return cfqq;
		}
	}
	cfqq = cfqd->nr_queues < CFQ_MAX_QUEUES ? kmalloc(sizeof(*cfqq)) : NULL;
	if (cfqq) {
		cfqd->nr_queues++;
	} else {
		struct list_head *e;

		for (e = cfqd->queues.prev; e != &cfqd->queues; e = e->prev) {
			struct cfq_queue *o = list_entry(e, struct cfq_queue, all);

			if (cfq_queue_idle(cfqd, o)) {
				cfqq = o;
				break;
			}
		}
		if (!cfqq) {
			/* more busy processes than memory for queues: share the async one */
			pr_warn("cfq: no memory for process %llu's queue; its reads go to the "
				"async queue\n",
				(unsigned long long)key);
			return cfqd->async_queue;
		}
		list_del(&cfqq->all);
	}
	cfq_init_queue_state(cfqd, cfqq, key);
	list_add(&cfqq->all, &cfqd->queues);
	return cfqq;
}

/* cfq_resort_rr_list(): a queue on the round robin goes to the back of its list. */
static void cfq_resort_rr_list(struct cfq_data *cfqd, struct cfq_queue *cfqq, bool preempted)
{
	struct list_head *list, *n;

	list_del(&cfqq->cfq_list);
	/* one with requests in flight waits for them before it is chosen again */
	list = cfq_dispatched(cfqq) ? &cfqd->busy_rr : &cfqd->rr_list;
	/*
	 * "a preempted or new queue goes first, behind the other new ones",
	 * says 2.6.20; its list_add_tail() puts it before the last new one,
	 * or at the back when none is new, and so does this.
	 */
	if (preempted || cfqq->queue_new) {
		n = list;
		while (n->next != list &&
		       list_entry(n->next, struct cfq_queue, cfq_list)->queue_new)
			n = n->next;
		list = n;
	}
	list_add_tail(&cfqq->cfq_list, list);
}

/* cfq_add_cfqq_rr(), cfq_del_cfqq_rr() */
static void cfq_add_cfqq_rr(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	cfqq->on_rr = true;
	cfqd->busy_queues++;
	list_add(&cfqq->cfq_list, &cfqd->rr_list); /* resorted at once */
	cfq_resort_rr_list(cfqd, cfqq, false);
}

static void cfq_del_cfqq_rr(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	cfqq->on_rr = false;
	list_del_init(&cfqq->cfq_list);
	cfqd->busy_queues--;
}

/* --- choosing a request ---------------------------------------------------------- */

/*
 * cfq_choose_req(): of @rq1 and @rq2, the one nearer the head
 * (cfqd->last_sector): forward distance, or a backward one within
 * back_seek_max counted back_seek_penalty times; one further back than
 * that "wraps" and loses; when both wrap, the lower sector.
 */
static struct request *cfq_choose_req(struct cfq_data *cfqd, struct request *rq1,
				      struct request *rq2)
{
	sector_t last = cfqd->last_sector, s1, s2, d1 = 0, d2 = 0;
	sector_t back_max = cfq_back_max * 2; /* KiB to sectors */
	bool wrap1 = false, wrap2 = false;

	if (!rq1 || rq1 == rq2)
		return rq2;
	if (!rq2)
		return rq1;
	if (rq_is_sync(rq1) != rq_is_sync(rq2))
		return rq_is_sync(rq1) ? rq1 : rq2;
	s1 = rq1->sector;
	s2 = rq2->sector;
	if (s1 >= last)
		d1 = s1 - last;
	else if (s1 + back_max >= last)
		d1 = (last - s1) * cfq_back_penalty;
	else
		wrap1 = true;
	if (s2 >= last)
		d2 = s2 - last;
	else if (s2 + back_max >= last)
		d2 = (last - s2) * cfq_back_penalty;
	else
		wrap2 = true;
	if (!wrap1 && !wrap2) {
		if (d1 != d2)
			return d1 < d2 ? rq1 : rq2;
		return s1 >= s2 ? rq1 : rq2;
	}
	if (wrap1 != wrap2)
		return wrap2 ? rq1 : rq2;
	/* both behind: start with the one furthest back, one backward seek */
	return s1 <= s2 ? rq1 : rq2;
}

/* cfq_find_next_rq(): after @last goes, the better of its neighbours in sector order. */
static struct request *cfq_find_next_rq(struct cfq_data *cfqd, struct cfq_queue *cfqq,
					struct request *last)
{
	struct request *next = NULL, *prev = NULL;

	if (last->sortlink.prev != &cfqq->sort_list)
		prev = list_entry(last->sortlink.prev, struct request, sortlink);
	if (last->sortlink.next != &cfqq->sort_list)
		next = list_entry(last->sortlink.next, struct request, sortlink);
	else if (cfqq->sort_list.next != &last->sortlink)
		next = list_first_entry(&cfqq->sort_list, struct request, sortlink);
	return cfq_choose_req(cfqd, next, prev);
}

/* elv_rb_add(): the queue's requests in sector order (equal sectors: arrival order). */
static void cfq_sort_insert(struct cfq_queue *cfqq, struct request *rq)
{
	struct request *o;

	list_for_each_entry (o, &cfqq->sort_list, sortlink) {
		if (o->sector > rq->sector) {
			list_add_tail(&rq->sortlink, &o->sortlink);
			return;
		}
	}
	list_add_tail(&rq->sortlink, &cfqq->sort_list);
}

/* cfq_add_rq_rb() */
static void cfq_add_rq_rb(struct cfq_data *cfqd, struct request *rq)
{
	struct cfq_queue *cfqq = rq_cfqq(rq);

	cfqq->queued++;
	cfq_sort_insert(cfqq, rq);
	if (!cfqq->on_rr)
		cfq_add_cfqq_rr(cfqd, cfqq);
}

/* cfq_remove_request() with cfq_del_rq_rb(): @rq leaves its queue's lists. */
static void cfq_remove_request(struct cfq_data *cfqd, struct request *rq)
{
	struct cfq_queue *cfqq = rq_cfqq(rq);

	if (cfqq->next_rq == rq)
		cfqq->next_rq = cfq_find_next_rq(cfqd, cfqq, rq);
	list_del_init(&rq->elv_link);
	cfqq->queued--;
	list_del_init(&rq->sortlink);
	if (cfqq->on_rr && list_empty(&cfqq->sort_list))
		cfq_del_cfqq_rr(cfqd, cfqq);
}

/*
 * elv_dispatch_sort(): @rq joins the dispatch list in one-way elevator
 * order from where the driver's last request ended (q->end_sector).
 */
static void cfq_dispatch_sort(struct cfq_data *cfqd, struct request *rq)
{
	sector_t boundary = cfqd->end_sector;
	struct list_head *entry;

	for (entry = cfqd->dispatch.prev; entry != &cfqd->dispatch; entry = entry->prev) {
		struct request *pos = list_entry(entry, struct request, elv_link);

		if (op_dir(rq->op) != op_dir(pos->op))
			break;
		if (rq->sector >= boundary) {
			if (pos->sector < boundary)
				continue;
		} else if (pos->sector >= boundary) {
			break;
		}
		if (rq->sector >= pos->sector)
			break;
	}
	list_add(&rq->elv_link, entry);
}

/* cfq_dispatch_insert() */
static void cfq_dispatch_insert(struct cfq_data *cfqd, struct request *rq)
{
	struct cfq_queue *cfqq = rq_cfqq(rq);
	struct request *tail;

	cfq_remove_request(cfqd, rq);
	cfqq->on_dispatch[rq_is_sync(rq)]++;
	cfq_dispatch_sort(cfqd, rq);
	tail = list_entry(cfqd->dispatch.prev, struct request, elv_link);
	cfqd->last_sector = tail->sector + tail->nr_sectors;
}

/* --- slices ------------------------------------------------------------------------- */

/* __cfq_set_active_queue() */
static void cfq_set_active(struct request_queue *q, struct cfq_queue *cfqq)
{
	struct cfq_data *cfqd = q->elevator_data;

	if (cfqq) {
		cfqq->slice_start = cfq_jiffies(cfqd);
		cfqq->slice_end = 0;
		cfqq->slice_left = 0;
		cfqq->fifo_expire = false;
		q->elv.batches++;
	}
	cfqd->active_queue = cfqq;
}

/* __cfq_slice_expired(): the active queue's slice ends (used up, or it went idle). */
static void cfq_slice_expired(struct request_queue *q, bool preempted)
{
	struct cfq_data *cfqd = q->elevator_data;
	struct cfq_queue *cfqq = cfqd->active_queue;
	uint64_t now = cfq_jiffies(cfqd);

	if (!cfqq)
		return;
	if (cfqq->wait_request)
		cfq_del_timer(q);
	cfqq->must_dispatch = false;
	cfqq->wait_request = false;
	cfqq->queue_new = false;
	/* what was left of the slice, if it idled out or was preempted */
	cfqq->slice_left = cfqq->slice_end > now ? cfqq->slice_end - now : 0;
	if (cfqq->on_rr)
		cfq_resort_rr_list(cfqd, cfqq, preempted);
	cfqd->active_queue = NULL;
	cfqd->active_cic = false;
	cfqd->dispatch_slice = 0;
	cfq_put_exited(cfqd, cfqq);
}

/*
 * cfq_set_active_queue() with cfq_get_next_prio_level(): the next queue of
 * the current round, a new round from rr_list when it is done (with one
 * priority level, the whole list), or else one still busy in the driver.
 */
static struct cfq_queue *cfq_set_active_queue(struct request_queue *q)
{
	struct cfq_data *cfqd = q->elevator_data;
	struct cfq_queue *cfqq = NULL;

	if (list_empty(&cfqd->cur_rr) && !list_empty(&cfqd->rr_list)) {
		/* list_splice_init(rr_list, cur_rr) onto an empty cur_rr */
		cfqd->cur_rr.next = cfqd->rr_list.next;
		cfqd->cur_rr.prev = cfqd->rr_list.prev;
		cfqd->cur_rr.next->prev = &cfqd->cur_rr;
		cfqd->cur_rr.prev->next = &cfqd->cur_rr;
		INIT_LIST_HEAD(&cfqd->rr_list);
	}
	if (!list_empty(&cfqd->cur_rr))
		cfqq = list_first_entry(&cfqd->cur_rr, struct cfq_queue, cfq_list);
	else if (!list_empty(&cfqd->busy_rr))
		cfqq = list_first_entry(&cfqd->busy_rr, struct cfq_queue, cfq_list);
	cfq_set_active(q, cfqq);
	return cfqq;
}

/*
 * cfq_arm_slice_timer(): the active sync queue ran empty; wait up to
 * slice_idle for its process's next request (one jiffy for a seeky one),
 * dispatching nothing else meanwhile. False when it does not idle.
 */
static bool cfq_arm_slice_timer(struct request_queue *q, struct cfq_queue *cfqq)
{
	struct cfq_data *cfqd = q->elevator_data;
	uint64_t sl;

	if (!cfq_slice_idle || !cfqq->idle_window || !cfqd->active_cic)
		return false;
	/*
	 * 2.6.20 runs the queue when a request completes, not when one is
	 * added to a queue with requests (__make_request() only plugs an empty
	 * one): a submission finds the timer running and leaves it be.
	 */
	if (q->submit_run && cfqq->wait_request && q->timer_ns)
		return true;
	if (!cfqq->wait_request)
		q->elv.idled++; /* a new wait (a queue run while waiting arms it again) */
	cfqq->must_dispatch = true;
	cfqq->wait_request = true;
	/* 2.6.20 compares slice_end, a time, with a length: min() is slice_idle */
	sl = cfqq->slice_end - 1 < cfq_slice_idle ? cfqq->slice_end - 1 : cfq_slice_idle;
	if (cfq_sample_valid(cfqq->seek_samples) && CFQ_SEEKY(cfqq))
		sl = sl < 1 ? sl : 1; /* msecs_to_jiffies(2) at HZ=250 */
	cfq_mod_timer(q, cfq_jiffies(cfqd) + sl);
	return true;
}

/* cfq_check_fifo(): once a slice, the oldest request if its FIFO time has passed. */
static struct request *cfq_check_fifo(const struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	struct request *rq;

	if (cfqq->fifo_expire || list_empty(&cfqq->fifo))
		return NULL;
	rq = list_first_entry(&cfqq->fifo, struct request, elv_link);
	if (cfq_jiffies(cfqd) >
	    cfq_jiffies_at(cfqd, rq->start_ns) + cfq_fifo_expire[cfq_class_sync(cfqq)]) {
		cfqq->fifo_expire = true;
		return rq;
	}
	return NULL;
}

/* cfq_prio_to_slice(), cfq_prio_to_maxrq() at the default priority */
static uint64_t cfq_prio_to_slice(const struct cfq_queue *cfqq)
{
	uint64_t base = cfq_slice[cfq_sync(cfqq)];

	return base + base / CFQ_SLICE_SCALE * (4 - CFQ_IOPRIO);
}

static unsigned int cfq_prio_to_maxrq(void)
{
	return 2 * (cfq_slice_async_rq + cfq_slice_async_rq * (CFQ_PRIO_LISTS - 1 - CFQ_IOPRIO));
}

/* cfq_select_queue(): the queue to dispatch from, or NULL to dispatch nothing now. */
static struct cfq_queue *cfq_select_queue(struct request_queue *q)
{
	struct cfq_data *cfqd = q->elevator_data;
	struct cfq_queue *cfqq = cfqd->active_queue;

	if (!cfqq)
		return cfq_set_active_queue(q);
	if (!cfqq->must_dispatch && cfq_jiffies(cfqd) > cfqq->slice_end)
		goto expire;
	if (!list_empty(&cfqq->sort_list))
		return cfqq;
	if (cfq_dispatched(cfqq))
		return NULL; /* its requests in flight first */
	if (cfq_class_sync(cfqq) && cfq_arm_slice_timer(q, cfqq))
		return NULL;
expire:
	cfq_slice_expired(q, false);
	return cfq_set_active_queue(q);
}

/* __cfq_dispatch_requests() */
static unsigned int cfq_dispatch_from(struct request_queue *q, struct cfq_queue *cfqq,
				      unsigned int max_dispatch)
{
	struct cfq_data *cfqd = q->elevator_data;
	unsigned int dispatched = 0;

	do {
		struct request *rq = cfq_check_fifo(cfqd, cfqq);

		if (rq)
			q->elv.expired++;
		else
			rq = cfqq->next_rq;
		cfq_dispatch_insert(cfqd, rq);
		cfqd->dispatch_slice++;
		dispatched++;
		if (!cfqd->active_cic) {
			cfqd->active_cic = true;
			cfqd->active_ioc = rq->ioc;
		}
	} while (!list_empty(&cfqq->sort_list) && dispatched < max_dispatch);
	if (!cfqq->slice_end)
		cfqq->slice_end = cfq_jiffies(cfqd) + cfq_prio_to_slice(cfqq);
	/* an async queue ends after its requests; one that does not idle after a round */
	if ((!cfq_sync(cfqq) && cfqd->dispatch_slice >= cfq_prio_to_maxrq()) || !cfqq->idle_window)
		cfq_slice_expired(q, false);
	return dispatched;
}

/* cfq_dispatch_requests(): fill the dispatch list, a quantum from each queue chosen. */
static unsigned int cfq_dispatch_requests(struct request_queue *q)
{
	struct cfq_data *cfqd = q->elevator_data;
	struct cfq_queue *cfqq, *prev = NULL;
	unsigned int dispatched = 0;

	if (!cfqd->busy_queues)
		return 0;
	while ((cfqq = cfq_select_queue(q)) != NULL) {
		if (cfqq == prev)
			break;
		cfqq->must_dispatch = false;
		cfqq->wait_request = false;
		cfq_del_timer(q);
		dispatched += cfq_dispatch_from(q, cfqq, cfq_quantum);
		/* a queue that idles and is still active keeps the disk */
		if (cfqq->idle_window && cfqd->active_queue)
			break;
		prev = cfqq;
	}
	return dispatched;
}

/* --- what the process does: think time, seeks, idle window ------------------------ */

/* cfq_update_io_thinktime(): from its last completion to this request, at most 2 slice_idle. */
static void cfq_update_io_thinktime(const struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	uint64_t elapsed = cfq_jiffies(cfqd) - cfqq->last_end_request;
	uint64_t ttime = elapsed < 2 * cfq_slice_idle ? elapsed : 2 * cfq_slice_idle;

	cfqq->ttime_samples = (7 * cfqq->ttime_samples + 256) / 8;
	cfqq->ttime_total = (7 * cfqq->ttime_total + 256 * ttime) / 8;
	cfqq->ttime_mean = (cfqq->ttime_total + 128) / cfqq->ttime_samples;
}

/* cfq_update_io_seektime(): from where its last request ended, the odd far one capped. */
static void cfq_update_io_seektime(struct cfq_queue *cfqq, const struct request *rq)
{
	uint64_t sdist = cfqq->last_request_pos < rq->sector ? rq->sector - cfqq->last_request_pos
							     : cfqq->last_request_pos - rq->sector;
	uint64_t cap =
		cfqq->seek_mean * 4 + (cfqq->seek_samples <= 60 ? 2 * 1024 * 1024 : 2 * 1024 * 64);

	if (sdist > cap)
		sdist = cap;
	cfqq->seek_samples = (7 * cfqq->seek_samples + 256) / 8;
	cfqq->seek_total = (7 * cfqq->seek_total + 256 * sdist) / 8;
	cfqq->seek_mean = (cfqq->seek_total + cfqq->seek_samples / 2) / cfqq->seek_samples;
}

/* cfq_update_idle_window(): no idling for a seeky process on a queueing drive, or a slow one. */
static void cfq_update_idle_window(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	bool enable_idle = cfqq->idle_window;

	if (!cfq_slice_idle || (cfqd->hw_tag && CFQ_SEEKY(cfqq)))
		enable_idle = false;
	else if (cfq_sample_valid(cfqq->ttime_samples))
		enable_idle = cfqq->ttime_mean <= cfq_slice_idle;
	cfqq->idle_window = enable_idle;
}

/* cfq_should_preempt(): only a queue waiting for a request may take over (never, here). */
static bool cfq_should_preempt(struct cfq_data *cfqd, struct cfq_queue *new_cfqq,
			       const struct request *rq)
{
	struct cfq_queue *cfqq = cfqd->active_queue;

	if (!cfqq || !new_cfqq->wait_request || new_cfqq->slice_left < cfq_slice_idle)
		return false;
	return rq_is_sync(rq) && !cfq_sync(cfqq);
}

/* cfq_preempt_queue() */
static void cfq_preempt_queue(struct request_queue *q, struct cfq_queue *cfqq)
{
	struct cfq_data *cfqd = q->elevator_data;

	cfq_slice_expired(q, true);
	if (!cfqq->slice_left)
		cfqq->slice_left = cfq_prio_to_slice(cfqq) / 2;
	list_move(&cfqq->cfq_list, &cfqd->cur_rr);
	cfqq->slice_end = cfqq->slice_left + cfq_jiffies(cfqd);
}

/* cfq_rq_enqueued(): a new request; the process's statistics; stop idling for it. */
static void cfq_rq_enqueued(struct request_queue *q, struct cfq_queue *cfqq, struct request *rq)
{
	struct cfq_data *cfqd = q->elevator_data;

	cfqq->next_rq = cfq_choose_req(cfqd, cfqq->next_rq, rq);
	if (!rq_is_sync(rq)) {
		/* the idling process wrote instead: its slice ends (the queue runs after) */
		if (cfqd->active_cic && rq->ioc == cfqd->active_ioc && cfq_del_timer(q))
			cfq_slice_expired(q, false);
		return;
	}
	cfq_update_io_thinktime(cfqd, cfqq);
	cfq_update_io_seektime(cfqq, rq);
	cfq_update_idle_window(cfqd, cfqq);
	cfqq->last_queue = cfq_jiffies(cfqd);
	cfqq->last_request_pos = rq->sector + rq->nr_sectors;
	if (cfqq == cfqd->active_queue) {
		/* what it idled for: dispatch it now, and do not expire the queue just yet */
		if (cfqq->wait_request) {
			cfqq->must_dispatch = true;
			cfq_del_timer(q);
		}
	} else if (cfq_should_preempt(cfqd, cfqq, rq)) {
		cfq_preempt_queue(q, cfqq);
		cfqq->must_dispatch = true;
	}
}

/* --- the elevator's operations ------------------------------------------------------ */

/* cfq_set_request() and cfq_insert_request() */
static void cfq_add(struct request_queue *q, struct request *rq)
{
	struct cfq_data *cfqd = q->elevator_data;
	struct cfq_queue *cfqq = cfq_get_queue(cfqd, rq_is_sync(rq) ? rq->ioc : 0);

	rq->elv_priv = cfqq;
	cfq_add_rq_rb(cfqd, rq);
	list_add_tail(&rq->elv_link, &cfqq->fifo);
	cfq_rq_enqueued(q, cfqq, rq);
}

/*
 * @rq left the core's pending list: the driver took it (it is off every
 * list of ours already), or it was merged into another (cfq_merged_requests():
 * the survivor takes its place in the FIFO if it was older).
 */
static void cfq_remove(struct request_queue *q, struct request *rq)
{
	if (list_empty(&rq->sortlink))
		return;
	cfq_remove_request(q->elevator_data, rq);
}

/* cfq_merged_request(): a front merge moved @rq's first sector. */
static void cfq_resort(struct request_queue *q, struct request *rq)
{
	struct cfq_queue *cfqq = rq_cfqq(rq);

	(void)q;
	if (list_empty(&rq->sortlink))
		return;
	list_del(&rq->sortlink);
	cfq_sort_insert(cfqq, rq);
}

/*
 * cfq_allow_merge(): only into a request of the queue the bio would join,
 * and (as 2.6.20's merge hash forgets dispatched requests) not yet dispatched.
 */
static bool cfq_allow_merge(struct request_queue *q, struct request *rq, uint64_t ioc)
{
	(void)q;
	if (list_empty(&rq->sortlink))
		return false;
	return rq_cfqq(rq)->key == (rq_is_sync(rq) ? ioc : 0);
}

/* elv_next_request(): the dispatch list's first, refilled by cfq_dispatch_requests(). */
static struct request *cfq_next(struct request_queue *q)
{
	struct cfq_data *cfqd = q->elevator_data;
	struct request *rq;

	if (list_empty(&cfqd->dispatch) && !cfq_dispatch_requests(q))
		return NULL;
	rq = list_first_entry(&cfqd->dispatch, struct request, elv_link);
	list_del_init(&rq->elv_link);
	cfqd->end_sector = rq->sector + rq->nr_sectors;
	return rq;
}

/* cfq_activate_request(): more than 4 in the driver means the drive queues commands. */
static void cfq_activate(struct request_queue *q, struct request *rq)
{
	struct cfq_data *cfqd = q->elevator_data;

	(void)rq;
	if (!cfqd->hw_tag && q->in_driver > 4)
		cfqd->hw_tag = true;
}

/* cfq_completed_request() */
static void cfq_completed(struct request_queue *q, struct request *rq)
{
	struct cfq_data *cfqd = q->elevator_data;
	struct cfq_queue *cfqq = rq_cfqq(rq);
	bool sync = rq_is_sync(rq);
	uint64_t now = cfq_jiffies(cfqd);

	cfqq->on_dispatch[sync]--;
	cfqd->last_end_request = now;
	if (!cfq_dispatched(cfqq) && cfqq->on_rr)
		cfq_resort_rr_list(cfqd, cfqq, false);
	if (sync)
		cfqq->last_end_request = now;
	/* the active queue: its slice may be over, or it may idle now (the queue runs after) */
	if (cfqd->active_queue == cfqq) {
		if (now > cfqq->slice_end) {
			cfq_slice_expired(q, false); /* which frees it if its process exited */
			return;
		}
		if (sync && list_empty(&cfqq->sort_list))
			cfq_arm_slice_timer(q, cfqq);
	}
	cfq_put_exited(cfqd, cfqq);
}

/* cfq_idle_slice_timer(): the active queue idled out, or its request came meanwhile. */
static void cfq_timer(struct request_queue *q)
{
	struct cfq_data *cfqd = q->elevator_data;
	struct cfq_queue *cfqq = cfqd->active_queue;

	if (cfqq) {
		if (cfq_jiffies(cfqd) > cfqq->slice_end)
			goto expire;
		/* nobody else waits: keep it (the queue's run finds nothing to do) */
		if (!cfqd->busy_queues)
			return;
		if (!list_empty(&cfqq->sort_list)) {
			cfqq->must_dispatch = true;
			return;
		}
	}
expire:
	cfq_slice_expired(q, false);
}

/*
 * cfq_exit_io_context(), cfq_exit_single_io_context() and cfq_exit_cfqq():
 * process @ioc exited. Its queue's slice ends if it is the active one (no
 * idling for a process that is gone), and the queue is freed once nothing
 * of it is queued or in flight (at once, mostly).
 */
static void cfq_exit_ioc(struct request_queue *q, uint64_t ioc)
{
	struct cfq_data *cfqd = q->elevator_data;
	struct cfq_queue *cfqq;

	list_for_each_entry (cfqq, &cfqd->queues, all) {
		if (cfqq->key != ioc)
			continue;
		cfqq->exited = true;
		cfqq->idle_window = false;
		if (cfqq == cfqd->active_queue)
			cfq_slice_expired(q, false);
		else
			cfq_put_exited(cfqd, cfqq);
		return;
	}
}

/*
 * A run begins on the disk made cold, nothing queued or in flight: the
 * clock restarts at jiffy 0 with no idle timer armed, and every process
 * starts as new (its think time and seek history gone), as they did at
 * boot; the async queue too. hw_tag stays: it is what the drive does.
 */
static void cfq_run_start(struct request_queue *q)
{
	struct cfq_data *cfqd = q->elevator_data;
	struct cfq_queue *cfqq, *tmp;

	if (cfqd->busy_queues || !list_empty(&cfqd->dispatch))
		return;
	cfq_slice_expired(q, false);
	elv_timer_del(q);
	cfqd->base_ns = ktime_ns();
	list_for_each_entry_safe (cfqq, tmp, &cfqd->queues, all) {
		if (cfq_dispatched(cfqq))
			continue; /* cannot be: the core saw nothing in the driver */
		list_del(&cfqq->all);
		cfqd->nr_queues--;
		kfree(cfqq);
	}
	cfq_init_queue_state(cfqd, cfqd->async_queue, 0);
	cfqd->last_end_request = 0;
	cfqd->dispatch_slice = 0;
}

static int cfq_init(struct request_queue *q)
{
	struct cfq_data *cfqd = kzalloc(sizeof(*cfqd));

	if (!cfqd)
		return -ENOMEM;
	cfqd->async_queue = kmalloc(sizeof(*cfqd->async_queue));
	if (!cfqd->async_queue) {
		kfree(cfqd);
		return -ENOMEM;
	}
	INIT_LIST_HEAD(&cfqd->queues);
	INIT_LIST_HEAD(&cfqd->rr_list);
	INIT_LIST_HEAD(&cfqd->cur_rr);
	INIT_LIST_HEAD(&cfqd->busy_rr);
	INIT_LIST_HEAD(&cfqd->dispatch);
	cfq_init_queue_state(cfqd, cfqd->async_queue, 0);
	q->elevator_data = cfqd;
	return 0;
}

static void cfq_exit(struct request_queue *q)
{
	struct cfq_data *cfqd = q->elevator_data;
	struct cfq_queue *cfqq, *tmp;

	if (!cfqd)
		return;
	list_for_each_entry_safe (cfqq, tmp, &cfqd->queues, all)
		kfree(cfqq);
	kfree(cfqd->async_queue);
	kfree(cfqd);
	q->elevator_data = NULL;
}

static const struct elevator_type elevator_cfq = {
	.name = "cfq",
	.help = "per-process queues served in time slices, idling for the next read "
		"(2.6.20's cfq-iosched, its default)",
	/* block/Kconfig.iosched at v2.6.20: "default DEFAULT_CFQ", what the seeds ran */
	.flags = ELV_DEFAULT,
	.init = cfq_init,
	.exit = cfq_exit,
	.add = cfq_add,
	.remove = cfq_remove,
	.resort = cfq_resort,
	.next = cfq_next,
	.activate = cfq_activate,
	.completed = cfq_completed,
	.allow_merge = cfq_allow_merge,
	.timer = cfq_timer,
	.exit_ioc = cfq_exit_ioc,
	.run_start = cfq_run_start,
};
ELEVATOR(elevator_cfq);
