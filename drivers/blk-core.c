/*
 * The block layer core: per-disk request queues with plugging and
 * back/front merging, bios split to a queue's limits, the queue-depth
 * limit, congestion, and each request accounted in the disk's
 * /proc/diskstats-style statistics. Bios are allocated in
 * drivers/blk-bio.c; disks are registered (their queues made) and their
 * statistics reset in drivers/blk-genhd.c. Hardware-independent and
 * host-built; see drivers/blkdev.h for the interface.
 *
 * Life of a bio: submit_bio() checks it against the disk, splits it if it
 * is larger than one request may be, and then either merges it into a
 * request that ends where it starts (back merge) or starts where it ends
 * (front merge), or puts it in a new request. Requests wait on the
 * submitting thread's plug, if it has one, or on the queue's pending list;
 * blk_run_queue() hands pending requests to the driver in its elevator's order
 * (drivers/elevator.h: noop, deadline, cfq, each a file) while
 * fewer than bdev->queue_depth are with it. blk_end_request() ends the
 * bios, accounts the request and frees it, which may wake a submitter
 * waiting for a request and lets the next pending one go to the driver.
 *
 * No locks: every caller is a thread (see blkdev.h) and threads are
 * cooperative, so each function runs without interruption by other block
 * layer code; only wait_event() gives the CPU away.
 */
#include <string.h>

#include "drivers/blk-internal.h"
#include "drivers/blkdev.h"
#include "drivers/elevator.h"
#include "kernel/log.h"
#include "mm/mm.h"
#include "mm/readahead.h"

/* --- bios ----------------------------------------------------------------- */

static inline uint32_t bio_sectors(const struct bio *bio)
{
	return bio->bi_size >> SECTOR_SHIFT;
}

static const char *op_name(enum bio_op op)
{
	return op == REQ_OP_READ ? "read" : op == REQ_OP_WRITE ? "write" : "flush";
}

static void bio_endio(struct bio *bio, int status, sector_t error_sector)
{
	bio->bi_status = status;
	bio->bi_error_sector = status ? error_sector : 0;
	if (bio->bi_end_io)
		bio->bi_end_io(bio);
}

/* --- plugs -------------------------------------------------------------- */

/*
 * A plug belongs to a thread; a fixed table is enough because only threads
 * doing I/O plug, and a thread that finds no free entry simply submits
 * unplugged (correct, only less merged).
 */
#define BLK_MAX_PLUGS 64

struct blk_plug {
	struct thread *owner;
	unsigned int depth; /* 0: entry free */
	struct list_head requests;
};

static struct blk_plug plugs[BLK_MAX_PLUGS];
static bool plugs_short_said;

static struct thread *plug_owner_self(void)
{
#ifdef HOST_BUILD
	return NULL; /* the host runs one thread */
#else
	return current_thread();
#endif
}

#ifdef HOST_BUILD
uint64_t blk_host_ioc = 1;
#endif

/* The submitting process as an elevator tells processes apart (2.6.20: its io_context). */
static uint64_t current_ioc(void)
{
#ifdef HOST_BUILD
	return blk_host_ioc; /* a host test plays several processes by setting it */
#else
	return thread_id(current_thread());
#endif
}

static struct blk_plug *current_plug(void)
{
	struct thread *self = plug_owner_self();

	for (int i = 0; i < BLK_MAX_PLUGS; i++)
		if (plugs[i].depth && plugs[i].owner == self)
			return &plugs[i];
	return NULL;
}

void blk_start_plug(void)
{
	struct blk_plug *plug = current_plug();

	if (plug) {
		plug->depth++;
		return;
	}
	for (int i = 0; i < BLK_MAX_PLUGS; i++) {
		if (!plugs[i].depth) {
			plugs[i].owner = plug_owner_self();
			plugs[i].depth = 1;
			INIT_LIST_HEAD(&plugs[i].requests);
			return;
		}
	}
	/* once: a run of thousands of threads would say it for every read */
	if (!plugs_short_said) {
		plugs_short_said = true;
		pr_warn("blk_start_plug: all %d plugs in use; threads that find none submit "
			"unplugged (said once)\n", BLK_MAX_PLUGS);
	}
}

static void queue_insert(struct request_queue *q, struct request *rq);

/* Run @bdev's queue because a request was added to it (an elevator may care: cfq). */
static void run_after_submit(struct block_device *bdev)
{
	bool was = bdev->queue->submit_run;

	bdev->queue->submit_run = true;
	blk_run_queue(bdev);
	bdev->queue->submit_run = was;
}

/* Move the plug's requests to their queues (merging there too) and run them. */
static void flush_plug(struct blk_plug *plug)
{
	struct request *rq, *tmp;

	list_for_each_entry_safe (rq, tmp, &plug->requests, queuelist) {
		list_del(&rq->queuelist);
		queue_insert(rq->q, rq);
	}
	for (int i = 0; i < nr_disks; i++)
		run_after_submit(disks[i]);
}

void blk_finish_plug(void)
{
	struct blk_plug *plug = current_plug();

	if (!plug || --plug->depth)
		return;
	flush_plug(plug);
}

/* --- requests ------------------------------------------------------------- */

static bool queue_full(const struct request_queue *q)
{
	return q->nr_allocated >= q->nr_requests;
}

static struct request *get_request(struct request_queue *q, int dir)
{
	struct request *rq;

	if (queue_full(q)) {
		/* The requests we wait for may be sitting on our own plug. */
		struct blk_plug *plug = current_plug();

		if (plug)
			flush_plug(plug);
		wait_event(q->wait, !queue_full(q));
	}
	rq = list_first_entry(&q->free, struct request, queuelist);
	list_del(&rq->queuelist);
	q->nr_allocated++;
	if (++q->count[dir] >= q->congestion_on && !q->congested[dir]) {
		q->congested[dir] = true;
		if (dir == 0)
			q->elv.congested++;
	}
	memset(rq, 0, sizeof(*rq));
	INIT_LIST_HEAD(&rq->queuelist);
	INIT_LIST_HEAD(&rq->sortlink);
	INIT_LIST_HEAD(&rq->elv_link);
	rq->q = q;
	return rq;
}

static void put_request(struct request_queue *q, struct request *rq)
{
	int dir = op_dir(rq->op);

	list_add(&rq->queuelist, &q->free);
	q->nr_allocated--;
	if (--q->count[dir] < q->congestion_off)
		q->congested[dir] = false;
	wake_up(&q->wait);
}

/* --- the elevator (drivers/elevator.h: one file per elevator) ------------- */

/* @rq joins the pending list (it is the newest). */
static void elv_add(struct request_queue *q, struct request *rq)
{
	list_add_tail(&rq->queuelist, &q->pending);
	if (q->elevator->add)
		q->elevator->add(q, rq);
}

/* @rq leaves the pending list (dispatched, or merged into another). */
static void elv_remove(struct request_queue *q, struct request *rq)
{
	list_del_init(&rq->queuelist);
	if (q->elevator->remove)
		q->elevator->remove(q, rq);
}

/* A pending request's first sector moved (a front merge): its sort position too. */
static void elv_resort(struct request_queue *q, struct request *rq)
{
	if (q->elevator->resort)
		q->elevator->resort(q, rq);
}

/* May a bio or request of process @ioc join pending request @rq? */
static bool elv_allow_merge(struct request_queue *q, struct request *rq, uint64_t ioc)
{
	return !q->elevator->allow_merge || q->elevator->allow_merge(q, rq, ioc);
}

void elv_timer_arm(struct request_queue *q, uint64_t when)
{
	q->timer_ns = when ? when : 1;
	wake_up(&q->timer_wq);
}

void elv_timer_del(struct request_queue *q)
{
	q->timer_ns = 0;
}

void elv_timer_fire(struct request_queue *q)
{
	q->timer_ns = 0;
	if (q->elevator->timer)
		q->elevator->timer(q);
	blk_run_queue(q->bdev);
}

void elv_exit_ioc(uint64_t ioc)
{
	for (int i = 0; i < nr_disks; i++) {
		struct request_queue *q = disks[i]->queue;

		if (q && q->elevator->exit_ioc) {
			q->elevator->exit_ioc(q, ioc);
			blk_run_queue(disks[i]);
		}
	}
}

/* Take the request the driver gets next off the queue, or NULL. */
static struct request *elv_next_request(struct request_queue *q)
{
	struct request *rq;

	if (!list_empty(&q->requeue)) {
		rq = list_first_entry(&q->requeue, struct request, queuelist);
		list_del_init(&rq->queuelist);
		return rq;
	}
	if (list_empty(&q->pending))
		return NULL;
	rq = q->elevator->next(q);
	if (!rq)
		return NULL;
	q->elv.dispatched++;
	if (rq != list_first_entry(&q->pending, struct request, queuelist))
		q->elv.sorted++;
	elv_remove(q, rq);
	return rq;
}

/* Fold the time since the last update into io_ticks and time_in_queue. */
static void stats_round(struct block_device *bdev, uint64_t now)
{
	struct request_queue *q = bdev->queue;
	unsigned int inflight = bdev->stats.in_flight[0] + bdev->stats.in_flight[1];

	if (inflight && now > q->stamp_ns) {
		bdev->stats.io_ticks_ns += now - q->stamp_ns;
		bdev->stats.time_in_queue_ns += inflight * (now - q->stamp_ns);
	}
	q->stamp_ns = now;
}

static bool can_merge(const struct request *rq, const struct bio *bio)
{
	const struct request_queue *q = rq->q;

	return rq->op == bio->bi_op && bio->bi_op != REQ_OP_FLUSH &&
	       rq->nr_sectors + bio_sectors(bio) <= q->max_sectors &&
	       rq->nr_segments + bio->bi_vcnt <= q->max_segments;
}

static bool can_merge_requests(const struct request *a, const struct request *b)
{
	const struct request_queue *q = a->q;

	return a->q == b->q && a->op == b->op && a->op != REQ_OP_FLUSH &&
	       a->sector + a->nr_sectors == b->sector &&
	       a->nr_sectors + b->nr_sectors <= q->max_sectors &&
	       a->nr_segments + b->nr_segments <= q->max_segments;
}

static void account_merge(struct request *rq, unsigned int nr)
{
	rq->q->bdev->stats.merges[op_dir(rq->op)] += nr;
}

/* On the pending list, may @rq and @o (of processes of their own) become one? */
static inline bool elv_allow_pair(struct list_head *list, struct request *rq, struct request *o)
{
	return list != &rq->q->pending ||
	       (elv_allow_merge(rq->q, o, rq->ioc) && elv_allow_merge(rq->q, rq, o->ioc));
}

/*
 * @rq grew; if it now touches a neighbour on @list, absorb the neighbour
 * (a bio that filled the gap between two requests joins them).
 */
static void merge_neighbours(struct list_head *list, struct request *rq)
{
	struct request *o, *tmp;

	list_for_each_entry_safe (o, tmp, list, queuelist) {
		if (o == rq)
			continue;
		bool front;

		if (can_merge_requests(rq, o) && elv_allow_pair(list, rq, o)) {
			rq->biotail->bi_next = o->bio;
			rq->biotail = o->biotail;
			front = false;
		} else if (can_merge_requests(o, rq) && elv_allow_pair(list, rq, o)) {
			o->biotail->bi_next = rq->bio;
			rq->bio = o->bio;
			rq->sector = o->sector;
			front = true;
		} else {
			continue;
		}
		/* the merged request keeps the older deadline */
		rq->start_ns = min(rq->start_ns, o->start_ns);
		rq->nr_sectors += o->nr_sectors;
		rq->nr_segments += o->nr_segments;
		if (list == &rq->q->pending) {
			elv_remove(rq->q, o);
			if (front)
				elv_resort(rq->q, rq);
		} else {
			list_del(&o->queuelist);
		}
		account_merge(rq, 1);
		/* o was counted in flight when it joined the queue; rq already is */
		if (list == &rq->q->pending) {
			stats_round(rq->q->bdev, ktime_ns());
			rq->q->bdev->stats.in_flight[op_dir(rq->op)]--;
		}
		put_request(rq->q, o);
		return;
	}
}

/* Try to add @bio to a request of @list for @q; true if it was merged. */
static bool attempt_merge(struct request_queue *q, struct list_head *list, struct bio *bio)
{
	struct request *rq;

	list_for_each_entry (rq, list, queuelist) {
		if (rq->q != q || !can_merge(rq, bio))
			continue;
		if (list == &q->pending && !elv_allow_merge(q, rq, current_ioc()))
			continue;
		if (rq->sector + rq->nr_sectors == bio->bi_sector) {
			rq->biotail->bi_next = bio;
			rq->biotail = bio;
		} else if (bio->bi_sector + bio_sectors(bio) == rq->sector) {
			bio->bi_next = rq->bio;
			rq->bio = bio;
			rq->sector = bio->bi_sector;
			if (list == &q->pending)
				elv_resort(q, rq);
		} else {
			continue;
		}
		rq->nr_sectors += bio_sectors(bio);
		rq->nr_segments += bio->bi_vcnt;
		account_merge(rq, 1);
		merge_neighbours(list, rq);
		return true;
	}
	return false;
}

/* A request joins the queue: it is in flight (as Linux counts it) from now on. */
static void queue_insert(struct request_queue *q, struct request *rq)
{
	struct block_device *bdev = q->bdev;
	uint64_t now = ktime_ns();

	stats_round(bdev, now);
	bdev->stats.in_flight[op_dir(rq->op)]++;
	elv_add(q, rq);
	merge_neighbours(&q->pending, rq);
}

static void init_request_from_bio(struct request *rq, struct bio *bio)
{
	rq->op = bio->bi_op;
	rq->sector = bio->bi_sector;
	rq->nr_sectors = bio_sectors(bio);
	rq->nr_segments = bio->bi_vcnt;
	rq->bio = rq->biotail = bio;
	rq->start_ns = bio->bi_start_ns;
	rq->ioc = current_ioc();
}

static void make_request(struct block_device *bdev, struct bio *bio)
{
	struct request_queue *q = bdev->queue;
	struct blk_plug *plug = current_plug();
	struct request *rq;

	if (plug && attempt_merge(q, &plug->requests, bio))
		return;
	if (attempt_merge(q, &q->pending, bio)) {
		run_after_submit(bdev);
		return;
	}
	rq = get_request(q, op_dir(bio->bi_op));
	/* get_request() may have slept: the queue may have moved on meanwhile. */
	if (attempt_merge(q, &q->pending, bio)) {
		put_request(q, rq);
		run_after_submit(bdev);
		return;
	}
	init_request_from_bio(rq, bio);
	plug = current_plug();
	if (plug) {
		list_add_tail(&rq->queuelist, &plug->requests);
		return;
	}
	queue_insert(q, rq);
	run_after_submit(bdev);
}

/* --- splitting ------------------------------------------------------------ */

struct bio_split {
	struct bio *parent;
	unsigned int remaining;
	int status;
	sector_t error_sector;
};

static void bio_split_put(struct bio_split *sp)
{
	if (--sp->remaining == 0) {
		struct bio *parent = sp->parent;
		int status = sp->status;
		sector_t error_sector = sp->error_sector;

		kfree(sp);
		bio_endio(parent, status, error_sector);
	}
}

static void bio_split_end_io(struct bio *child)
{
	struct bio_split *sp = child->bi_private;

	if (child->bi_status && (!sp->status || child->bi_error_sector < sp->error_sector)) {
		sp->status = child->bi_status;
		sp->error_sector = child->bi_error_sector;
	}
	bio_put(child);
	bio_split_put(sp);
}

static bool bio_fits(const struct request_queue *q, const struct bio *bio)
{
	return bio_sectors(bio) <= q->max_sectors && bio->bi_vcnt <= q->max_segments;
}

/*
 * Submit @bio as children of at most max_sectors / max_segments each, cut
 * at segment boundaries (a segment is at most a page, and max_sectors is
 * at least a page). The parent ends when the last child does, with the
 * lowest failing sector of any child.
 */
static void submit_split(struct block_device *bdev, struct bio *bio)
{
	struct request_queue *q = bdev->queue;
	struct bio_split *sp = kmalloc(sizeof(*sp));
	unsigned int v = 0;
	sector_t sector = bio->bi_sector;

	if (!sp) {
		bio_endio(bio, -ENOMEM, bio->bi_sector);
		return;
	}
	*sp = (struct bio_split){.parent = bio, .remaining = 1};
	while (v < bio->bi_vcnt) {
		unsigned int n = 0;
		uint32_t bytes = 0;
		struct bio *child;

		while (v + n < bio->bi_vcnt && n < q->max_segments &&
		       (bytes + bio->bi_io_vec[v + n].bv_len) / SECTOR_SIZE <= q->max_sectors)
			bytes += bio->bi_io_vec[v + n++].bv_len;
		child = bio_alloc(n);
		if (!child) {
			if (!sp->status || sector < sp->error_sector) {
				sp->status = -ENOMEM;
				sp->error_sector = sector;
			}
			break;
		}
		memcpy(child->bi_io_vec, &bio->bi_io_vec[v], n * sizeof(struct bio_vec));
		child->bi_vcnt = (uint16_t)n;
		child->bi_size = bytes;
		child->bi_sector = sector;
		child->bi_op = bio->bi_op;
		child->bi_bdev = bdev;
		child->bi_start_ns = bio->bi_start_ns;
		child->bi_end_io = bio_split_end_io;
		child->bi_private = sp;
		sp->remaining++;
		make_request(bdev, child);
		v += n;
		sector += bytes / SECTOR_SIZE;
	}
	bio_split_put(sp);
}

/* --- submission ------------------------------------------------------------ */

/* False, with the reason in @why, if @bio cannot be submitted to @bdev. */
static bool bio_check(struct block_device *bdev, struct bio *bio, char *why, size_t len)
{
	uint32_t sum = 0;
	uint32_t lss = bdev->logical_sector_size ? bdev->logical_sector_size : SECTOR_SIZE;

	for (unsigned int i = 0; i < bio->bi_vcnt; i++) {
		const struct bio_vec *bv = &bio->bi_io_vec[i];

		/* A segment must fit in one request, or splitting could not progress. */
		if (!bv->bv_len || bv->bv_len % SECTOR_SIZE ||
		    bv->bv_len > bdev->queue->max_sectors * SECTOR_SIZE) {
			snprintf(why, len,
				 "fragment %u has length %u: not a multiple of %u "
				 "between %u and %u",
				 i, bv->bv_len, SECTOR_SIZE, SECTOR_SIZE,
				 bdev->queue->max_sectors * SECTOR_SIZE);
			return false;
		}
		sum += bv->bv_len;
	}
	if (bio->bi_op == REQ_OP_FLUSH) {
		if (bio->bi_size || bio->bi_vcnt) {
			snprintf(why, len, "a flush carries no data (%u bytes given)",
				 bio->bi_size);
			return false;
		}
		return true;
	}
	if (bio->bi_op != REQ_OP_READ && bio->bi_op != REQ_OP_WRITE) {
		snprintf(why, len, "unknown operation %d", (int)bio->bi_op);
		return false;
	}
	if (!bio->bi_size || sum != bio->bi_size || bio->bi_size % lss ||
	    (bio->bi_sector * SECTOR_SIZE) % lss) {
		snprintf(why, len,
			 "%s of %u bytes at sector %llu (fragments total %u) is not a "
			 "non-empty whole number of %u-byte logical sectors",
			 op_name(bio->bi_op), bio->bi_size, (unsigned long long)bio->bi_sector, sum,
			 lss);
		return false;
	}
	if (bio->bi_sector >= bdev->nr_sectors ||
	    bio_sectors(bio) > bdev->nr_sectors - bio->bi_sector) {
		snprintf(why, len,
			 "%s of %u sectors at sector %llu is beyond the end of the disk "
			 "(%llu sectors)",
			 op_name(bio->bi_op), bio_sectors(bio), (unsigned long long)bio->bi_sector,
			 (unsigned long long)bdev->nr_sectors);
		return false;
	}
	return true;
}

void submit_bio(struct block_device *bdev, struct bio *bio)
{
	char why[160];

	bio->bi_bdev = bdev;
	bio->bi_next = NULL;
	bio->bi_status = 0;
	bio->bi_error_sector = 0;
	bio->bi_start_ns = ktime_ns();
	if (!bdev || !bdev->queue) {
		pr_err("submit_bio: no such disk\n");
		bio_endio(bio, -ENODEV, bio->bi_sector);
		return;
	}
	if (!bio_check(bdev, bio, why, sizeof(why))) {
		pr_err("%s: %s; nothing submitted\n", bdev->name, why);
		bio_endio(bio, -EINVAL, bio->bi_sector);
		return;
	}
	if (!bio_fits(bdev->queue, bio))
		submit_split(bdev, bio);
	else
		make_request(bdev, bio);
}

struct bio_wait {
	struct wait_queue_head wq;
	bool done;
};

static void submit_bio_wait_end_io(struct bio *bio)
{
	struct bio_wait *w = bio->bi_private;

	w->done = true;
	wake_up_all(&w->wq);
}

int submit_bio_wait(struct block_device *bdev, struct bio *bio)
{
	struct bio_wait w = {.done = false};
	struct blk_plug *plug;

	init_waitqueue_head(&w.wq);
	bio->bi_end_io = submit_bio_wait_end_io;
	bio->bi_private = &w;
	submit_bio(bdev, bio);
	/* Waiting with the bio on our own plug would wait forever. */
	plug = current_plug();
	if (plug)
		flush_plug(plug);
	wait_event(w.wq, w.done);
	return bio->bi_status;
}

/* --- the driver side -------------------------------------------------------- */

void blk_run_queue(struct block_device *bdev)
{
	struct request_queue *q = bdev ? bdev->queue : NULL;

	if (!q)
		return;
	if (q->running) {
		q->rerun = true; /* a completion inside queue_rq: the outer loop goes on */
		return;
	}
	q->running = true;
	do {
		q->rerun = false;
		while (q->in_driver < bdev->queue_depth) {
			struct request *rq = elv_next_request(q);
			int ret;

			if (!rq)
				break;
			q->in_driver++;
			q->elv.dist_sectors += rq->sector > q->dispatch_end ? rq->sector - q->dispatch_end
									    : q->dispatch_end - rq->sector;
			q->dispatch_end = rq->sector + rq->nr_sectors;
			if (q->elevator->activate)
				q->elevator->activate(q, rq);
			if (ra_trace_block)
				ra_trace_block_rq((8u << 20) | (uint32_t)(bdev->index * 16), bdev->name,
						  rq->sector, rq->nr_sectors, op_dir(rq->op) == 1);
			ret = q->ops->queue_rq(bdev, rq);
			if (ret == -EBUSY) {
				q->in_driver--;
				if (q->elevator->deactivate)
					q->elevator->deactivate(q, rq);
				list_add(&rq->queuelist, &q->requeue);
				break;
			}
			if (ret) {
				pr_err("%s: driver refused %s of sectors %llu-%llu: error %d\n",
				       bdev->name, op_name(rq->op), (unsigned long long)rq->sector,
				       (unsigned long long)(rq->sector + rq->nr_sectors - 1), ret);
				blk_end_request(rq, ret, rq->sector);
			}
		}
	} while (q->rerun);
	q->running = false;
}

static void account_done(struct block_device *bdev, struct request *rq, int status)
{
	struct disk_stats *st = &bdev->stats;
	int dir = op_dir(rq->op);
	uint64_t now = ktime_ns();

	stats_round(bdev, now);
	st->in_flight[dir]--;
	if (status) {
		st->errors[dir]++;
		return;
	}
	st->ios[dir]++;
	st->sectors[dir] += rq->nr_sectors;
	st->ticks_ns[dir] += now - rq->start_ns;
	if (rq->op != REQ_OP_FLUSH)
		st->size_hist[disk_stats_bucket(rq->nr_sectors)]++;
}

void blk_end_request(struct request *rq, int status, sector_t error_sector)
{
	struct request_queue *q = rq->q;
	struct block_device *bdev = q->bdev;
	struct bio *bio = rq->bio;

	q->in_driver--;
	account_done(bdev, rq, status);
	/* the disk made progress: page waits measure a stall from here (mm/page-lock.c) */
	bdev->bdi.last_progress_ns = ktime_ns();
	rq->bio = rq->biotail = NULL;
	while (bio) {
		struct bio *next = bio->bi_next;
		bool ok = !status || bio->bi_sector + bio_sectors(bio) <= error_sector;

		bio->bi_next = NULL;
		bio_endio(bio, ok ? 0 : status, error_sector);
		bio = next;
	}
	if (q->elevator->completed)
		q->elevator->completed(q, rq);
	put_request(q, rq);
	blk_run_queue(bdev);
}

/* --- the host tests' fresh start ------------------------------------------------- */

#ifdef HOST_BUILD
void blk_reset_disks(void)
{
	for (int i = 0; i < nr_disks; i++) {
		struct request_queue *q = disks[i]->queue;

		address_space_release(&disks[i]->bd_mapping);
		if (q->elevator->exit)
			q->elevator->exit(q);
		kfree(q->pool);
		kfree(q);
		disks[i]->queue = NULL;
		disks[i] = NULL;
	}
	nr_disks = 0;
	memset(plugs, 0, sizeof(plugs));
}
#endif
