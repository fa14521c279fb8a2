/*
 * Host tests of the raw I/O engine (drivers/blk-io.c) against a fake
 * driver that holds every request until the single-threaded wait shim
 * asks for progress (host_wait_hook), then ends the oldest one, the
 * test's clock (host_clock_ns) a microsecond on. Covers slots of their
 * own sizes, io_prep()'s checks, a commit's slot order and one issue
 * time, each slot's completion time and status, reaping all at once and
 * one by one, the drain, and a stall ending the wait with an error.
 */
#include <string.h>

#include "drivers/blk-io.h"
#include "drivers/blkdev.h"
#include "kernel/ktest.h"
#include "mm/mm.h"

extern bool host_clock_set;
extern uint64_t host_clock_ns;

#define IOT_MAX_RQ 64

static struct {
	struct block_device bdev;
	struct request *held[IOT_MAX_RQ];
	int nr_held, nr_seen;
	sector_t seen_sector[IOT_MAX_RQ];
	int fail_sector; /* the request starting here fails (-1: none) */
} iot;

static int iot_queue_rq(struct block_device *bdev, struct request *rq)
{
	(void)bdev;
	if (iot.nr_held == IOT_MAX_RQ)
		return -EBUSY;
	if (iot.nr_seen < IOT_MAX_RQ)
		iot.seen_sector[iot.nr_seen] = rq->sector;
	iot.nr_seen++;
	iot.held[iot.nr_held++] = rq;
	return 0;
}

static const struct blk_queue_ops iot_ops = {.queue_rq = iot_queue_rq};

/* End the oldest request held, a microsecond after the last event. */
static bool iot_complete_one(void)
{
	struct request *rq;

	if (!iot.nr_held)
		return false;
	rq = iot.held[0];
	memmove(&iot.held[0], &iot.held[1], --iot.nr_held * sizeof(rq));
	host_clock_ns += NSEC_PER_USEC;
	blk_end_request(rq, (int)rq->sector == iot.fail_sector ? -EIO : 0, rq->sector);
	return true;
}

/* A disk that never answers: each wait lets 50 s pass instead. */
static bool iot_stall(void)
{
	host_clock_ns += 50 * NSEC_PER_SEC;
	return true;
}

static struct block_device *iot_setup(void)
{
	if (!mm_ready() && mm_host_init(32 << 20))
		return NULL;
	blk_reset_disks();
	memset(&iot, 0, sizeof(iot));
	iot.fail_sector = -1;
	iot.bdev.nr_sectors = 1 << 20;
	iot.bdev.max_sectors = 2048;
	iot.bdev.queue_depth = 32;
	iot.bdev.driver_data = &iot;
	host_clock_set = true;
	host_clock_ns = 1000 * NSEC_PER_SEC;
	host_wait_hook = iot_complete_one;
	if (blk_register_disk(&iot.bdev, &iot_ops, 128, 0))
		return NULL;
	return &iot.bdev;
}

static void iot_teardown(struct io_engine *e)
{
	if (io_drain(e))
		io_free(e);
	host_wait_hook = NULL;
	host_clock_set = false;
}

static void test_sizes_and_prep_checks(struct ktest *t)
{
	static const uint32_t sizes[] = {8192, 4096, 512, 4097};
	struct block_device *bdev = iot_setup();
	struct io_engine e;

	KT_ASSERT_TRUE(t, bdev);
	KT_ASSERT_EQ(t, io_setup_sizes(&e, bdev, 4, sizes, 0, false), 0);
	KT_EXPECT_EQ(t, e.slots[0].nr_pages, 2);
	KT_EXPECT_EQ(t, e.slots[1].nr_pages, 1);
	KT_EXPECT_EQ(t, e.slots[2].nr_pages, 1);
	KT_EXPECT_EQ(t, e.slots[3].nr_pages, 2);
	/* too many bytes, with or without the offset; none at all */
	KT_EXPECT_EQ(t, io_prep(&e.slots[1], REQ_OP_READ, 0, 4608, 0, 0), -EINVAL);
	KT_EXPECT_EQ(t, io_prep(&e.slots[0], REQ_OP_READ, 0, 8192, 512, 0), -EINVAL);
	KT_EXPECT_EQ(t, io_prep(&e.slots[0], REQ_OP_READ, 0, 0, 0, 0), -EINVAL);
	KT_EXPECT_EQ(t, e.prep_end, 0);
	/* a slot prepped twice */
	KT_EXPECT_EQ(t, io_prep(&e.slots[0], REQ_OP_READ, 0, 7680, 512, 0), 0);
	KT_EXPECT_EQ(t, e.slots[0].bio->bi_vcnt, 2);
	KT_EXPECT_EQ(t, e.slots[0].bio->bi_io_vec[0].bv_offset, 512);
	KT_EXPECT_EQ(t, io_prep(&e.slots[0], REQ_OP_READ, 64, 512, 0, 0), -EINVAL);
	KT_EXPECT_EQ(t, iot.nr_seen, 0); /* nothing reached the disk */
	/* never committed: the drain passes it by, io_free() takes it */
	KT_EXPECT_TRUE(t, io_drain(&e));
	io_free(&e);
	KT_EXPECT_TRUE(t, e.slots == NULL);
	host_wait_hook = NULL;
	host_clock_set = false;
}

static void test_commit_and_reap_all(struct ktest *t)
{
	struct block_device *bdev = iot_setup();
	struct io_engine e;
	uint64_t t0;

	KT_ASSERT_TRUE(t, bdev);
	KT_ASSERT_EQ(t, io_setup(&e, bdev, 8, 4096, 0, false), 0);
	/* prepped out of order, slots 5, 1, 3: started in slot order */
	KT_ASSERT_EQ(t, io_prep(&e.slots[5], REQ_OP_READ, 500, 4096, 0, 5), 0);
	KT_ASSERT_EQ(t, io_prep(&e.slots[1], REQ_OP_READ, 100, 4096, 0, 1), 0);
	KT_ASSERT_EQ(t, io_prep(&e.slots[3], REQ_OP_READ, 300, 4096, 0, 3), 0);
	KT_EXPECT_EQ(t, iot.nr_seen, 0);
	KT_EXPECT_TRUE(t, !e.slots[1].busy);
	t0 = host_clock_ns;
	io_commit(&e);
	KT_ASSERT_EQ(t, iot.nr_seen, 3);
	KT_EXPECT_EQ(t, iot.seen_sector[0], 100);
	KT_EXPECT_EQ(t, iot.seen_sector[1], 300);
	KT_EXPECT_EQ(t, iot.seen_sector[2], 500);
	KT_EXPECT_EQ(t, e.in_flight, 3);
	for (int i = 1; i <= 5; i += 2) {
		KT_EXPECT_TRUE(t, e.slots[i].busy && !e.slots[i].queued);
		KT_EXPECT_EQ(t, e.slots[i].submit_ns, t0);
	}
	KT_EXPECT_TRUE(t, io_reap_all(&e));
	KT_EXPECT_EQ(t, e.in_flight, 0);
	/* each slot its own completion, in the order the disk ended them */
	KT_EXPECT_EQ(t, e.slots[1].end_ns, t0 + 1 * NSEC_PER_USEC);
	KT_EXPECT_EQ(t, e.slots[3].end_ns, t0 + 2 * NSEC_PER_USEC);
	KT_EXPECT_EQ(t, e.slots[5].end_ns, t0 + 3 * NSEC_PER_USEC);
	for (int i = 0; i < 8; i++)
		KT_EXPECT_TRUE(t, !e.slots[i].busy);
	KT_EXPECT_EQ(t, e.commit_end, 0);
	/* again, one failing: its slot's bio holds the error */
	iot.fail_sector = 16;
	KT_ASSERT_EQ(t, io_prep(&e.slots[0], REQ_OP_READ, 8, 512, 0, 0), 0);
	KT_ASSERT_EQ(t, io_prep(&e.slots[1], REQ_OP_READ, 16, 512, 0, 1), 0);
	io_commit(&e);
	KT_EXPECT_TRUE(t, io_reap_all(&e));
	KT_EXPECT_EQ(t, e.slots[0].bio->bi_status, 0);
	KT_EXPECT_EQ(t, e.slots[1].bio->bi_status, -EIO);
	iot_teardown(&e);
}

static void test_submit_and_reap_one(struct ktest *t)
{
	struct block_device *bdev = iot_setup();
	struct io_engine e;
	struct io_slot *s;

	KT_ASSERT_TRUE(t, bdev);
	KT_ASSERT_EQ(t, io_setup(&e, bdev, 4, 4096, PAGE_SIZE, true), 0);
	for (int i = 0; i < 4; i++)
		io_submit(&e.slots[i], REQ_OP_READ, 64 * (sector_t)i, 4096, 512, (uint64_t)i);
	KT_EXPECT_EQ(t, iot.nr_seen, 4);
	KT_EXPECT_EQ(t, e.slots[2].bio->bi_vcnt, 2); /* 4 KiB from 512 bytes into a page */
	s = io_reap(&e, &e.slots[2]);
	KT_ASSERT_TRUE(t, s == &e.slots[2]);
	KT_EXPECT_TRUE(t, !s->busy);
	KT_EXPECT_EQ(t, s->tag, 2);
	KT_EXPECT_GT(t, s->end_ns, s->submit_ns);
	/* slots 0 and 1 ended on the way: reaped next, any order */
	s = io_reap(&e, NULL);
	KT_ASSERT_TRUE(t, s != NULL);
	KT_EXPECT_LT(t, s->tag, 2);
	iot_teardown(&e);
	KT_EXPECT_EQ(t, iot.nr_held, 0);
}

static void test_stall_is_an_error(struct ktest *t)
{
	struct block_device *bdev = iot_setup();
	struct io_engine e;
	struct request *rq;

	KT_ASSERT_TRUE(t, bdev);
	KT_ASSERT_EQ(t, io_setup(&e, bdev, 2, 4096, 0, false), 0);
	KT_ASSERT_EQ(t, io_prep(&e.slots[0], REQ_OP_READ, 0, 4096, 0, 0), 0);
	io_commit(&e);
	host_wait_hook = iot_stall;
	KT_EXPECT_TRUE(t, !io_reap_all(&e)); /* after 120 s, not never */
	KT_EXPECT_EQ(t, e.in_flight, 1);
	KT_EXPECT_TRUE(t, io_reap(&e, NULL) == NULL);
	/* the disk answers at last: then the slot can be drained and freed */
	rq = iot.held[0];
	iot.nr_held = 0;
	blk_end_request(rq, 0, 0);
	iot_teardown(&e);
	KT_EXPECT_TRUE(t, e.slots == NULL);
}

KTEST_SUITE(blk_io, NULL, KTEST_CASE(test_sizes_and_prep_checks),
	    KTEST_CASE(test_commit_and_reap_all), KTEST_CASE(test_submit_and_reap_one),
	    KTEST_CASE(test_stall_is_an_error));
