/*
 * Host tests of elevator=cfq (drivers/cfq-iosched.c), each rule against a
 * schedule worked by hand from 2.6.20's block/cfq-iosched.c; every test
 * names the function whose rule it checks. A fake driver records what it is
 * handed and completes it when the test says; the test sets the clock
 * (host_clock_ns, in jiffies of 4 ms) and plays processes by setting
 * blk_host_ioc before each submission. Also the elevator registry
 * (drivers/elevator.c).
 */
#include <string.h>

#include "drivers/blkdev.h"
#include "drivers/elevator.h"
#include "kernel/ktest.h"
#include "mm/mm.h"

extern bool host_clock_set;
extern uint64_t host_clock_ns;
extern uint64_t blk_host_ioc;

#define JIFFY_NS (NSEC_PER_SEC / 250)
#define T0	 1000 /* jiffies: the tests start on a jiffy edge */
#define MAX_RQ	 64
#define A	 11 /* processes (their thread ids) */
#define B	 12
#define C	 13

struct cfq_fake {
	struct block_device bdev;
	struct request *inflight[MAX_RQ];
	int nr_inflight;
	sector_t seen[MAX_RQ];
	int nr_seen;
};

static struct cfq_fake fk;
static struct page pages[MAX_RQ];
static int nr_pages_used;

static int fk_queue_rq(struct block_device *bdev, struct request *rq)
{
	(void)bdev;
	if (fk.nr_seen < MAX_RQ)
		fk.seen[fk.nr_seen] = rq->sector;
	fk.nr_seen++;
	fk.inflight[fk.nr_inflight++] = rq;
	return 0;
}

static const struct blk_queue_ops fk_ops = {.queue_rq = fk_queue_rq};

/* Complete the oldest request the driver holds, at @ns of the clock. */
static bool fk_complete_ns(uint64_t ns)
{
	struct request *rq;

	if (!fk.nr_inflight)
		return false;
	host_clock_ns = ns;
	rq = fk.inflight[0];
	memmove(&fk.inflight[0], &fk.inflight[1], --fk.nr_inflight * sizeof(rq));
	blk_end_request(rq, 0, 0);
	return true;
}

/* ... at jiffy @j. */
static bool fk_complete_at(uint64_t j)
{
	return fk_complete_ns(j * JIFFY_NS);
}

static bool fk_complete_now(void)
{
	return fk_complete_at(host_clock_ns / JIFFY_NS);
}

static struct request_queue *cfq_setup(unsigned int depth)
{
	if (!mm_ready() && mm_host_init(32 << 20))
		return NULL;
	blk_reset_disks();
	memset(&fk, 0, sizeof(fk));
	nr_pages_used = 0;
	host_clock_set = true;
	host_clock_ns = T0 * JIFFY_NS;
	fk.bdev.nr_sectors = 1 << 24;
	fk.bdev.max_sectors = 256;
	fk.bdev.queue_depth = depth;
	fk.bdev.driver_data = &fk;
	host_wait_hook = fk_complete_now;
	if (elv_set_default("cfq") || blk_register_disk(&fk.bdev, &fk_ops, 128, 0))
		return NULL;
	elv_set_default("deadline");
	return fk.bdev.queue;
}

static void end_io(struct bio *bio)
{
	bio_put(bio);
}

/* Process @ioc reads (or @op) 4 KiB at @sector at @ns of the clock. */
static void io_at_ns(uint64_t ioc, enum bio_op op, sector_t sector, uint64_t ns)
{
	struct bio *bio = bio_alloc(1);

	host_clock_ns = ns;
	bio_add_page(bio, &pages[nr_pages_used++ % MAX_RQ], PAGE_SIZE, 0);
	bio->bi_op = op;
	bio->bi_sector = sector;
	bio->bi_end_io = end_io;
	blk_host_ioc = ioc;
	submit_bio(&fk.bdev, bio);
}

/* ... at jiffy @j. */
static void io_at(uint64_t ioc, enum bio_op op, sector_t sector, uint64_t j)
{
	io_at_ns(ioc, op, sector, j * JIFFY_NS);
}

static void read_at(uint64_t ioc, sector_t sector, uint64_t j)
{
	io_at(ioc, REQ_OP_READ, sector, j);
}

static void expect_seen(struct ktest *t, const sector_t *want, int n)
{
	KT_ASSERT_EQ(t, fk.nr_seen, n);
	for (int i = 0; i < n; i++)
		KT_EXPECT_EQ(t, fk.seen[i], want[i]);
}

/*
 * cfq_completed_request() and cfq_arm_slice_timer(): the active sync queue
 * ran empty, so the disk idles for its process (the timer at the jiffy edge
 * slice_idle = 2 later) while B waits; A's next read during the wait goes
 * at once (cfq_rq_enqueued()); when the timer goes off (cfq_idle_slice_timer())
 * the slice ends and the next queue is served: C's, queued after B's, as
 * cfq_resort_rr_list()'s list_add_tail() puts a new queue before the last
 * new one.
 */
static void test_cfq_idles_for_process(struct ktest *t)
{
	static const sector_t want[] = {100, 200, 300, 9000};
	struct request_queue *q = cfq_setup(1);

	KT_ASSERT_TRUE(t, q);
	KT_EXPECT_STREQ(t, q->elevator->name, "cfq");
	read_at(A, 100, T0);
	read_at(A, 200, T0);
	read_at(B, 5000, T0);
	fk_complete_at(T0);	/* 100 done: A's slice goes on with 200 */
	fk_complete_at(T0 + 1); /* 200 done: A is empty, so the disk idles */
	KT_EXPECT_EQ(t, fk.nr_seen, 2);
	KT_EXPECT_EQ(t, q->elv.idled, 1);
	KT_EXPECT_EQ(t, q->timer_ns, (T0 + 1 + 2) * JIFFY_NS);
	read_at(A, 300, T0 + 2); /* within the wait: served, not B */
	KT_EXPECT_EQ(t, fk.nr_seen, 3);
	KT_EXPECT_EQ(t, q->timer_ns, 0);
	fk_complete_at(T0 + 2); /* idles again, until T0 + 4 */
	KT_EXPECT_EQ(t, q->elv.idled, 2);
	KT_EXPECT_EQ(t, q->timer_ns, (T0 + 4) * JIFFY_NS);
	/* C's read meanwhile does not move the timer (2.6.20 runs no queue for it) */
	read_at(C, 9000, T0 + 3);
	KT_EXPECT_EQ(t, q->timer_ns, (T0 + 4) * JIFFY_NS);
	host_clock_ns = (T0 + 4) * JIFFY_NS;
	elv_timer_fire(q);
	expect_seen(t, want, 4);
	KT_EXPECT_EQ(t, q->elv.batches, 2); /* A's slice, then C's */
}

/*
 * cfq_dispatch_requests() / __cfq_dispatch_requests(): a round is
 * cfq_quantum = 4 requests; cfq_completed_request() ends the slice once
 * slice_sync (25 jiffies) has passed, with 2 of A's still dispatched, so A
 * goes to busy_rr (cfq_resort_rr_list()) and B's turn comes after them.
 */
static void test_cfq_quantum_and_slice(struct ktest *t)
{
	static const sector_t want[] = {1000, 1016, 1032, 1048, 1064, 90000};
	struct request_queue *q = cfq_setup(1);

	KT_ASSERT_TRUE(t, q);
	for (int i = 0; i < 10; i++)
		read_at(A, 1000 + 16 * (sector_t)i, T0);
	read_at(B, 90000, T0);
	fk_complete_at(T0);	 /* 1000: a round of 4 goes to the dispatch list */
	fk_complete_at(T0 + 1);	 /* 1016 */
	fk_complete_at(T0 + 26); /* 1032, after the slice's end (T0 + 25) */
	fk_complete_at(T0 + 26); /* 1048 */
	fk_complete_at(T0 + 26); /* 1064: A's round is done; B is first */
	expect_seen(t, want, 6);
	KT_EXPECT_EQ(t, q->elv.batches, 2);
}

/*
 * cfq_update_io_thinktime() and cfq_update_idle_window(): A's first read
 * comes at once, the next two 3 jiffies after a completion. Samples 32, 60,
 * 84 (valid past 80), totals 0, 96, 180, mean think time (total + 128) /
 * samples 4, 3, 3 jiffies: at the third request it counts, and is above
 * slice_idle (2), so A does not idle after it and B goes next.
 */
static void test_cfq_think_time_stops_idling(struct ktest *t)
{
	static const sector_t want[] = {100, 200, 300, 7000};
	struct request_queue *q = cfq_setup(1);

	KT_ASSERT_TRUE(t, q);
	read_at(A, 100, T0);
	fk_complete_at(T0); /* idles (a new queue does) */
	read_at(A, 200, T0 + 3);
	fk_complete_at(T0 + 3); /* idles: 2 samples are not enough */
	read_at(A, 300, T0 + 6);
	read_at(B, 7000, T0 + 6);
	fk_complete_at(T0 + 6); /* mean 4 > 2: no idling, B at once */
	expect_seen(t, want, 4);
	KT_EXPECT_EQ(t, q->elv.idled, 2);
}

/* The same schedule with no think time: mean (0 + 128) / 84 = 1, A idles and B waits. */
static void test_cfq_quick_process_idles(struct ktest *t)
{
	struct request_queue *q = cfq_setup(1);

	KT_ASSERT_TRUE(t, q);
	read_at(A, 100, T0);
	fk_complete_at(T0);
	read_at(A, 200, T0);
	fk_complete_at(T0);
	read_at(A, 300, T0);
	read_at(B, 7000, T0);
	fk_complete_at(T0);
	KT_EXPECT_EQ(t, fk.nr_seen, 3);
	KT_EXPECT_EQ(t, q->elv.idled, 3);
}

/*
 * cfq_update_io_seektime() and cfq_arm_slice_timer(): reads 1,000,000
 * sectors apart make A seeky (mean seek over 128 Ki sectors, 3 samples), and
 * a seeky process is waited for one jiffy (msecs_to_jiffies(2)), not 2.
 */
static void test_cfq_seeky_waits_one_jiffy(struct ktest *t)
{
	struct request_queue *q = cfq_setup(1);

	KT_ASSERT_TRUE(t, q);
	for (sector_t k = 1; k <= 3; k++) {
		read_at(A, k * 1000000, T0);
		fk_complete_at(T0);
	}
	KT_EXPECT_EQ(t, q->elv.idled, 3);
	KT_EXPECT_EQ(t, q->timer_ns, (T0 + 1) * JIFFY_NS);
}

/*
 * cfq_activate_request() and cfq_update_idle_window(): with more than 4 in
 * the driver the drive queues commands itself (hw_tag), and then a seeky
 * process gets no idle window at all: B is served as soon as A runs empty.
 */
static void test_cfq_hw_tag_seeky_no_idle(struct ktest *t)
{
	struct request_queue *q = cfq_setup(8);

	KT_ASSERT_TRUE(t, q);
	for (sector_t k = 1; k <= 6; k++)
		read_at(A, k * 1000000, T0); /* 6 in the driver: hw_tag */
	read_at(A, 7000000, T0);	     /* enqueued with hw_tag and seeky: no idling */
	read_at(B, 500, T0);
	/* A's slice ended with its dispatch: B's read goes while A's are in the driver */
	KT_EXPECT_EQ(t, fk.nr_seen, 8);
	KT_EXPECT_EQ(t, fk.seen[7], 500);
	KT_EXPECT_EQ(t, q->elv.idled, 0);
}

/*
 * elv_dispatch_sort(): after 10000 A queues 12000, 9000, 30000 and 9990;
 * one round takes all four, and the dispatch list sorts them one way from
 * where the driver's last request ended (10008): 12000, 30000, then 9000,
 * 9990, whatever order cfq_choose_req() picked them in.
 */
static void test_cfq_dispatch_sort(struct ktest *t)
{
	static const sector_t want[] = {10000, 12000, 30000, 9000, 9990};
	struct request_queue *q = cfq_setup(1);

	KT_ASSERT_TRUE(t, q);
	read_at(A, 10000, T0);
	read_at(A, 12000, T0);
	read_at(A, 9000, T0);
	read_at(A, 30000, T0);
	read_at(A, 9990, T0);
	while (fk.nr_inflight)
		fk_complete_at(T0);
	expect_seen(t, want, 5);
}

/*
 * cfq_choose_req() and cfq_find_next_rq(): which 4 of 5 make a round.
 * After 10000 (head at 10008) A queues 13000, 11000, 14000, 9000, 12000.
 * 11000 first (992 ahead); its neighbours 12000 (1992 ahead) and 9000
 * (1008 behind, counted twice: 2016; the head is still 10008 when the next
 * is chosen) give 12000; from 11008, 13000 (1992) over 9000 (4016); then
 * 14000. 9000 waits for the next round. With the penalty at 1, 9000 (1008)
 * would beat 12000 and 14000 would wait.
 */
static void test_cfq_back_seek_penalty(struct ktest *t)
{
	static const sector_t want[] = {10000, 11000, 12000, 13000, 14000, 9000};
	struct request_queue *q = cfq_setup(1);

	KT_ASSERT_TRUE(t, q);
	read_at(A, 10000, T0);
	read_at(A, 13000, T0);
	read_at(A, 11000, T0);
	read_at(A, 14000, T0);
	read_at(A, 9000, T0);
	read_at(A, 12000, T0);
	while (fk.nr_inflight)
		fk_complete_at(T0);
	expect_seen(t, want, 6);
}

/*
 * cfq_check_fifo(): a sync request waits at most fifo_expire_sync = HZ/8 =
 * 31 jiffies; past that it joins the next round before nearer ones. 50000
 * is queued at T0, then 12000-12048 at T0 + 10. Completing 10000 at T0 + 20
 * dispatches the 4 nearest (cfq_quantum), 50000 last; at T0 + 33 (after the
 * slice's end at T0 + 25: A's new slice checks its FIFO once) the round is
 * 50000 and the 3 nearest, which elv_dispatch_sort() puts in sector order.
 */
static void fifo_schedule(uint64_t done)
{
	read_at(A, 10000, T0);
	read_at(A, 50000, T0);
	for (sector_t i = 0; i < 4; i++)
		read_at(A, 12000 + 16 * i, T0 + 10);
	while (fk.nr_inflight)
		fk_complete_at(done);
}

static void test_cfq_fifo_expiry(struct ktest *t)
{
	static const sector_t late[] = {10000, 12000, 12016, 12032, 50000, 12048};
	static const sector_t early[] = {10000, 12000, 12016, 12032, 12048, 50000};
	struct request_queue *q = cfq_setup(1);

	KT_ASSERT_TRUE(t, q);
	fifo_schedule(T0 + 33);
	expect_seen(t, late, 6);
	KT_EXPECT_EQ(t, q->elv.expired, 1);

	q = cfq_setup(1);
	KT_ASSERT_TRUE(t, q);
	fifo_schedule(T0 + 20);
	expect_seen(t, early, 6);
	KT_EXPECT_EQ(t, q->elv.expired, 0);
}

/*
 * cfq_queue_pid() and cfq_allow_merge(): reads are per process, writes
 * share the async queue; a bio merges only into a request of the queue it
 * would join. A's and B's adjacent writes merge, their adjacent reads not.
 */
static void test_cfq_queues_per_process(struct ktest *t)
{
	struct request_queue *q = cfq_setup(1);

	KT_ASSERT_TRUE(t, q);
	read_at(C, 100000, T0); /* holds the driver */
	io_at(A, REQ_OP_WRITE, 1000, T0);
	io_at(B, REQ_OP_WRITE, 1008, T0);
	read_at(A, 2000, T0);
	read_at(B, 2008, T0);
	KT_EXPECT_EQ(t, fk.bdev.stats.merges[1], 1);
	KT_EXPECT_EQ(t, fk.bdev.stats.merges[0], 0);
	/* each queue's turn: complete what the driver has, or let an idle wait run out */
	for (int i = 0; i < 16 && (fk.nr_inflight || q->timer_ns); i++) {
		if (fk.nr_inflight) {
			fk_complete_now();
		} else {
			host_clock_ns = q->timer_ns;
			elv_timer_fire(q);
		}
	}
	KT_EXPECT_EQ(t, fk.nr_seen, 4);
}

/*
 * cfq_exit_io_context() / cfq_exit_cfqq(): A exits while the disk idles
 * for it; its slice ends (the timer goes) and B's read goes at once, as
 * elv_exit_ioc() runs the queue. C exits with a read in the driver: its
 * queue stays until that completes, and then the disk does not idle for
 * C (gone) but serves B's next read.
 */
static void test_cfq_exit_ioc(struct ktest *t)
{
	struct request_queue *q = cfq_setup(1);

	KT_ASSERT_TRUE(t, q);
	read_at(A, 100, T0);
	read_at(B, 5000, T0);
	fk_complete_at(T0); /* A is empty: the disk idles for it, B waits */
	KT_EXPECT_EQ(t, fk.nr_seen, 1);
	KT_EXPECT_EQ(t, q->timer_ns, (T0 + 2) * JIFFY_NS);
	elv_exit_ioc(A);
	KT_EXPECT_EQ(t, q->timer_ns, 0);
	KT_EXPECT_EQ(t, fk.nr_seen, 2); /* B's 5000 */
	read_at(C, 9000, T0 + 1);
	read_at(B, 5008, T0 + 1);
	fk_complete_at(T0 + 1); /* 5000 done: B's next is 5008, in its slice */
	KT_EXPECT_EQ(t, fk.nr_seen, 3);
	KT_EXPECT_EQ(t, fk.seen[2], 5008);
	fk_complete_at(T0 + 1); /* B empty: idles for B; the timer ends it */
	host_clock_ns = q->timer_ns;
	elv_timer_fire(q); /* C's 9000 */
	KT_EXPECT_EQ(t, fk.nr_seen, 4);
	read_at(B, 5016, T0 + 4);
	elv_exit_ioc(C); /* C's 9000 still in the driver */
	fk_complete_at(T0 + 4); /* C's queue goes; no idling for it: B's 5016 at once */
	KT_EXPECT_EQ(t, fk.nr_seen, 5);
	KT_EXPECT_EQ(t, fk.seen[4], 5016);
	KT_EXPECT_EQ(t, q->timer_ns, 0);
}

/*
 * The run's clock (cfq_run_start(), called by blk_run_start() on a disk
 * made cold): A thinks 3 jiffies between reads, so by its third read it no
 * longer idles (as test_cfq_think_time_stops_idling). A run then starts
 * half a jiffy past an edge: A is new again and idles, and the idle timer
 * goes off 2 jiffies of the run's own clock later (base + 8 ms), not at
 * the boot clock's edge.
 */
static void test_cfq_run_start_restarts_clock(struct ktest *t)
{
	struct request_queue *q = cfq_setup(1);
	uint64_t base = (T0 + 10) * JIFFY_NS + JIFFY_NS / 2;

	KT_ASSERT_TRUE(t, q);
	read_at(A, 100, T0);
	fk_complete_at(T0);
	read_at(A, 200, T0 + 3);
	fk_complete_at(T0 + 3);
	read_at(A, 300, T0 + 6);
	fk_complete_at(T0 + 6);
	KT_EXPECT_EQ(t, q->elv.idled, 2);
	host_clock_ns = base;
	q->elevator->run_start(q);
	io_at_ns(A, REQ_OP_READ, 400, base);
	fk_complete_ns(base + JIFFY_NS / 4);
	KT_EXPECT_EQ(t, q->elv.idled, 3);
	KT_EXPECT_EQ(t, q->timer_ns, base + 2 * JIFFY_NS);
}

/* drivers/elevator.c: the registry in name order, the default, a bad name. */
static void test_elevator_registry(struct ktest *t)
{
	const char *const *names = elv_names();

	KT_ASSERT_TRUE(t, names[0] && names[1] && names[2]);
	KT_EXPECT_STREQ(t, names[0], "cfq");
	KT_EXPECT_STREQ(t, names[1], "deadline");
	KT_EXPECT_STREQ(t, names[2], "noop");
	KT_EXPECT_TRUE(t, names[3] == NULL);
	KT_EXPECT_TRUE(t, elv_find("cfq") != NULL);
	KT_EXPECT_TRUE(t, elv_find("as") == NULL);
	KT_EXPECT_EQ(t, elv_set_default("bogus"), -EINVAL);
	KT_EXPECT_EQ(t, elv_set_default("noop"), 0);
	KT_EXPECT_STREQ(t, elv_default()->name, "noop");
	KT_EXPECT_EQ(t, elv_set_default("deadline"), 0);
}

static void cfq_teardown(void)
{
	host_clock_set = false;
	blk_host_ioc = 1;
}

static void test_cfq_done(struct ktest *t)
{
	(void)t;
	cfq_teardown();
}

KTEST_SUITE(blk_cfq, NULL, KTEST_CASE(test_cfq_idles_for_process),
	    KTEST_CASE(test_cfq_quantum_and_slice), KTEST_CASE(test_cfq_think_time_stops_idling),
	    KTEST_CASE(test_cfq_quick_process_idles), KTEST_CASE(test_cfq_seeky_waits_one_jiffy),
	    KTEST_CASE(test_cfq_hw_tag_seeky_no_idle), KTEST_CASE(test_cfq_dispatch_sort),
	    KTEST_CASE(test_cfq_back_seek_penalty), KTEST_CASE(test_cfq_fifo_expiry),
	    KTEST_CASE(test_cfq_queues_per_process), KTEST_CASE(test_cfq_exit_ioc),
	    KTEST_CASE(test_cfq_run_start_restarts_clock), KTEST_CASE(test_elevator_registry),
	    KTEST_CASE(test_cfq_done));
