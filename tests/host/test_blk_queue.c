/*
 * Host tests of the block layer core (drivers/blk-core.c) against a fake
 * driver defined here: it records every request it is handed and completes
 * them when the test says so, or when the single-threaded wait shim asks
 * for progress (host_wait_hook). Covers plugging, back/front/gap merging,
 * the max_sectors / max_segments limits, the queue-depth limit, congestion,
 * splitting, partial failures, range checks and the statistics.
 *
 * Host-only: registering fake disks in the kernel would show them to lsblk.
 */
#include <string.h>

#include "drivers/blkdev.h"
#include "drivers/elevator.h"
#include "kernel/ktest.h"
#include "mm/mm.h"

#define FAKE_MAX_RQ 64

struct fake_disk {
	struct block_device bdev;
	struct request *inflight[FAKE_MAX_RQ];
	int nr_inflight;
	/* what queue_rq saw, in order */
	sector_t seen_sector[FAKE_MAX_RQ];
	uint32_t seen_sectors[FAKE_MAX_RQ];
	int nr_seen;
	bool busy;	      /* queue_rq answers -EBUSY */
	bool complete_inline; /* queue_rq ends the request before returning */
	int fail_status;      /* next completion fails with this... */
	sector_t fail_sector; /* ...at this sector */
};

static struct fake_disk fake;
/* the elevator fake_setup() gives the disk: these tests were worked for deadline */
static const char *fake_elevator = "deadline";
static struct page pages[256];

static int fake_queue_rq(struct block_device *bdev, struct request *rq)
{
	struct fake_disk *fd = bdev->driver_data;

	if (fd->busy)
		return -EBUSY;
	if (fd->nr_seen < FAKE_MAX_RQ) {
		fd->seen_sector[fd->nr_seen] = rq->sector;
		fd->seen_sectors[fd->nr_seen] = rq->nr_sectors;
	}
	fd->nr_seen++;
	if (fd->complete_inline) {
		blk_end_request(rq, 0, 0);
		return 0;
	}
	fd->inflight[fd->nr_inflight++] = rq;
	return 0;
}

static const struct blk_queue_ops fake_ops = {.queue_rq = fake_queue_rq};

/* Complete the oldest request the fake driver holds. */
static bool fake_complete_one(void)
{
	struct request *rq;
	int status = fake.fail_status;

	if (!fake.nr_inflight)
		return false;
	rq = fake.inflight[0];
	memmove(&fake.inflight[0], &fake.inflight[1], --fake.nr_inflight * sizeof(rq));
	fake.fail_status = 0;
	blk_end_request(rq, status, fake.fail_sector);
	return true;
}

static void fake_complete_all(void)
{
	while (fake_complete_one())
		;
}

/* A 16 MiB arena for kmalloc and real pages. */
static int host_mm_up(void)
{
	struct mem_region ram = {MM_HOST_PHYS_BASE, 16 << 20}, none[1];

	if (!mm_host_arena(ram.base, ram.len))
		return -ENOMEM;
	return mm_init(&ram, 1, none, 0);
}

static struct block_device *fake_setup(uint32_t max_sectors, unsigned int depth,
				       unsigned int max_segments, unsigned int nr_requests)
{
	if (!mm_ready() && host_mm_up())
		return NULL;
	blk_reset_disks();
	memset(&fake, 0, sizeof(fake));
	fake.bdev.nr_sectors = 1 << 20;
	fake.bdev.max_sectors = max_sectors;
	fake.bdev.queue_depth = depth;
	fake.bdev.driver_data = &fake;
	host_wait_hook = fake_complete_one;
	if (elv_set_default(fake_elevator))
		return NULL;
	if (blk_register_disk(&fake.bdev, &fake_ops, max_segments, nr_requests))
		return NULL;
	return &fake.bdev;
}

/* Completion bookkeeping for the bios a test submits. */
struct done {
	int calls;
	int status;
	sector_t error_sector;
};

static struct done done[64];

static void test_end_io(struct bio *bio)
{
	struct done *d = bio->bi_private;

	d->calls++;
	d->status = bio->bi_status;
	d->error_sector = bio->bi_error_sector;
	bio_put(bio);
}

/* A read (or @op) of @nr_pages whole pages at @sector, ending into done[@i]. */
static struct bio *make_bio(int i, enum bio_op op, sector_t sector, unsigned int nr_pages)
{
	struct bio *bio = bio_alloc(nr_pages);

	for (unsigned int p = 0; p < nr_pages; p++)
		bio_add_page(bio, &pages[(i * 8 + p) % 256], PAGE_SIZE, 0);
	bio->bi_op = op;
	bio->bi_sector = sector;
	bio->bi_end_io = test_end_io;
	bio->bi_private = &done[i];
	done[i] = (struct done){0, 0, 0};
	return bio;
}

static void submit(struct block_device *bdev, int i, sector_t sector, unsigned int nr_pages)
{
	submit_bio(bdev, make_bio(i, REQ_OP_READ, sector, nr_pages));
}

static void test_plug_back_merge(struct ktest *t)
{
	struct block_device *bdev = fake_setup(2048, 32, 128, 0);

	KT_ASSERT_TRUE(t, bdev);
	blk_start_plug();
	for (int i = 0; i < 4; i++)
		submit(bdev, i, 8 * i, 1);
	KT_EXPECT_EQ(t, fake.nr_seen, 0);	       /* held on the plug */
	KT_EXPECT_EQ(t, bdev->queue->nr_allocated, 1); /* merged there, not later */
	blk_finish_plug();
	KT_ASSERT_EQ(t, fake.nr_seen, 1);
	KT_EXPECT_EQ(t, fake.seen_sector[0], 0);
	KT_EXPECT_EQ(t, fake.seen_sectors[0], 32);
	KT_EXPECT_EQ(t, bdev->stats.in_flight[0], 1);
	fake_complete_all();
	for (int i = 0; i < 4; i++) {
		KT_EXPECT_EQ(t, done[i].calls, 1);
		KT_EXPECT_EQ(t, done[i].status, 0);
	}
	KT_EXPECT_EQ(t, bdev->stats.ios[0], 1);
	KT_EXPECT_EQ(t, bdev->stats.merges[0], 3);
	KT_EXPECT_EQ(t, bdev->stats.sectors[0], 32);
	KT_EXPECT_EQ(t, bdev->stats.in_flight[0], 0);
	KT_EXPECT_EQ(t, bdev->stats.size_hist[4], 1); /* 16 KiB: [16, 32) */
	KT_EXPECT_EQ(t, bdev->queue->nr_allocated, 0);
}

static void test_plug_front_and_gap_merge(struct ktest *t)
{
	struct block_device *bdev = fake_setup(2048, 32, 128, 0);

	KT_ASSERT_TRUE(t, bdev);
	blk_start_plug();
	submit(bdev, 0, 24, 1);
	submit(bdev, 1, 16, 1); /* front merge: no second request */
	KT_EXPECT_EQ(t, bdev->queue->nr_allocated, 1);
	submit(bdev, 2, 0, 1); /* separate: 8..15 missing */
	KT_EXPECT_EQ(t, bdev->queue->nr_allocated, 2);
	submit(bdev, 3, 8, 1); /* fills the gap: the two requests join */
	KT_EXPECT_EQ(t, bdev->queue->nr_allocated, 1);
	blk_finish_plug();
	KT_ASSERT_EQ(t, fake.nr_seen, 1);
	KT_EXPECT_EQ(t, fake.seen_sector[0], 0);
	KT_EXPECT_EQ(t, fake.seen_sectors[0], 32);
	fake_complete_all();
	KT_EXPECT_EQ(t, bdev->stats.merges[0], 3);
	KT_EXPECT_EQ(t, bdev->stats.ios[0], 1);
	for (int i = 0; i < 4; i++)
		KT_EXPECT_EQ(t, done[i].calls, 1);
}

/* A back merge that closes a gap joins the request behind it. */
static void test_plug_gap_back_merge(struct ktest *t)
{
	struct block_device *bdev = fake_setup(2048, 32, 128, 0);

	KT_ASSERT_TRUE(t, bdev);
	blk_start_plug();
	submit(bdev, 0, 0, 1);
	submit(bdev, 1, 16, 1);
	submit(bdev, 2, 8, 1); /* back merge onto [0, 8), touching [16, 24) */
	KT_EXPECT_EQ(t, bdev->queue->nr_allocated, 1);
	blk_finish_plug();
	KT_ASSERT_EQ(t, fake.nr_seen, 1);
	KT_EXPECT_EQ(t, fake.seen_sector[0], 0);
	KT_EXPECT_EQ(t, fake.seen_sectors[0], 24);
	fake_complete_all();
	KT_EXPECT_EQ(t, bdev->stats.merges[0], 2);
}

static void test_merge_limits(struct ktest *t)
{
	struct block_device *bdev = fake_setup(16, 32, 128, 0);

	KT_ASSERT_TRUE(t, bdev);
	blk_start_plug();
	for (int i = 0; i < 4; i++)
		submit(bdev, i, 8 * i, 1);
	blk_finish_plug();
	KT_ASSERT_EQ(t, fake.nr_seen, 2); /* max_sectors 16 */
	KT_EXPECT_EQ(t, fake.seen_sectors[0], 16);
	KT_EXPECT_EQ(t, fake.seen_sectors[1], 16);
	fake_complete_all();

	bdev = fake_setup(2048, 32, 3, 0); /* three segments per request */
	KT_ASSERT_TRUE(t, bdev);
	blk_start_plug();
	for (int i = 0; i < 6; i++)
		submit(bdev, i, 8 * i, 1);
	blk_finish_plug();
	KT_ASSERT_EQ(t, fake.nr_seen, 2);
	KT_EXPECT_EQ(t, fake.seen_sectors[0], 24);
	fake_complete_all();
}

static void test_no_merge_across_ops(struct ktest *t)
{
	struct block_device *bdev = fake_setup(2048, 32, 128, 0);

	KT_ASSERT_TRUE(t, bdev);
	blk_start_plug();
	submit(bdev, 0, 0, 1);
	submit_bio(bdev, make_bio(1, REQ_OP_WRITE, 8, 1));
	blk_finish_plug();
	KT_EXPECT_EQ(t, fake.nr_seen, 2);
	fake_complete_all();
	KT_EXPECT_EQ(t, bdev->stats.ios[0], 1);
	KT_EXPECT_EQ(t, bdev->stats.ios[1], 1);
	KT_EXPECT_EQ(t, bdev->stats.merges[0] + bdev->stats.merges[1], 0);
}

static void test_queue_depth(struct ktest *t)
{
	struct block_device *bdev = fake_setup(2048, 2, 128, 0);

	KT_ASSERT_TRUE(t, bdev);
	for (int i = 0; i < 5; i++)
		submit(bdev, i, 100 * i, 1); /* not adjacent: no merging */
	KT_EXPECT_EQ(t, fake.nr_seen, 2);
	KT_EXPECT_EQ(t, bdev->stats.in_flight[0], 5);
	KT_EXPECT_EQ(t, bdev->queue->in_driver, 2);
	fake_complete_one();
	KT_EXPECT_EQ(t, fake.nr_seen, 3);
	KT_EXPECT_EQ(t, fake.seen_sector[2], 200); /* FIFO */
	fake_complete_all();
	KT_EXPECT_EQ(t, fake.nr_seen, 5);
	KT_EXPECT_EQ(t, bdev->stats.ios[0], 5);
	KT_EXPECT_EQ(t, bdev->stats.in_flight[0], 0);
	KT_EXPECT_GT(t, bdev->stats.io_ticks_ns, 0);
	KT_EXPECT_GE(t, bdev->stats.time_in_queue_ns, bdev->stats.io_ticks_ns);
}

/* While the driver is busy, sequential bios merge in the pending list. */
static void test_merge_while_busy(struct ktest *t)
{
	struct block_device *bdev = fake_setup(2048, 1, 128, 0);

	KT_ASSERT_TRUE(t, bdev);
	submit(bdev, 0, 0, 1);
	submit(bdev, 1, 100, 1);
	submit(bdev, 2, 108, 1);
	submit(bdev, 3, 92, 1);
	KT_EXPECT_EQ(t, fake.nr_seen, 1);
	fake_complete_one();
	KT_ASSERT_EQ(t, fake.nr_seen, 2);
	KT_EXPECT_EQ(t, fake.seen_sector[1], 92);
	KT_EXPECT_EQ(t, fake.seen_sectors[1], 24);
	fake_complete_all();
	KT_EXPECT_EQ(t, bdev->stats.ios[0] + bdev->stats.merges[0], 4);

	/* a bio closing the gap between two pending requests joins them */
	bdev = fake_setup(2048, 1, 128, 0);
	KT_ASSERT_TRUE(t, bdev);
	submit(bdev, 0, 0, 1);
	submit(bdev, 1, 100, 1);
	submit(bdev, 2, 116, 1);
	KT_EXPECT_EQ(t, bdev->stats.in_flight[0], 3);
	submit(bdev, 3, 108, 1);
	KT_EXPECT_EQ(t, bdev->queue->nr_allocated, 2);
	KT_EXPECT_EQ(t, bdev->stats.in_flight[0], 2);
	fake_complete_one();
	KT_ASSERT_EQ(t, fake.nr_seen, 2);
	KT_EXPECT_EQ(t, fake.seen_sector[1], 100);
	KT_EXPECT_EQ(t, fake.seen_sectors[1], 24);
	KT_EXPECT_EQ(t, bdev->stats.in_flight[0], 1);
	fake_complete_all();
	KT_EXPECT_EQ(t, bdev->stats.in_flight[0], 0);
}

static void test_congestion(struct ktest *t)
{
	struct block_device *bdev = fake_setup(2048, 1, 128, 4);

	KT_ASSERT_TRUE(t, bdev);
	for (int i = 0; i < 3; i++)
		submit(bdev, i, 100 * i, 1);
	KT_EXPECT_TRUE(t, !bdi_read_congested(&bdev->bdi));
	submit(bdev, 3, 300, 1);
	KT_EXPECT_TRUE(t, bdi_read_congested(&bdev->bdi));
	/* the next one must wait: the wait shim completes the oldest */
	submit(bdev, 4, 400, 1);
	KT_EXPECT_EQ(t, done[0].calls, 1);
	KT_EXPECT_EQ(t, bdev->queue->nr_allocated, 4);
	fake_complete_all();
	KT_EXPECT_TRUE(t, !bdi_read_congested(&bdev->bdi));
	for (int i = 0; i < 5; i++)
		KT_EXPECT_EQ(t, done[i].calls, 1);
}

/*
 * 2.6.20's thresholds with hysteresis: with 64 requests, congested from
 * 64 - 8 + 1 = 57 allocated reads until fewer than 64 - 8 - 4 - 1 = 51.
 */
static void test_congestion_thresholds(struct ktest *t)
{
	struct block_device *bdev = fake_setup(2048, 1, 128, 64);

	KT_ASSERT_TRUE(t, bdev);
	KT_EXPECT_EQ(t, bdev->queue->congestion_on, 57);
	KT_EXPECT_EQ(t, bdev->queue->congestion_off, 51);
	for (int i = 0; i < 56; i++)
		submit(bdev, i, 100 * (sector_t)i, 1);
	KT_EXPECT_TRUE(t, !bdi_read_congested(&bdev->bdi));
	submit(bdev, 56, 5600, 1);
	KT_EXPECT_TRUE(t, bdi_read_congested(&bdev->bdi));
	for (int i = 0; i < 6; i++)
		fake_complete_one(); /* 51 left */
	KT_EXPECT_EQ(t, bdev->queue->count[0], 51);
	KT_EXPECT_TRUE(t, bdi_read_congested(&bdev->bdi));
	fake_complete_one(); /* 50: below the off threshold */
	KT_EXPECT_TRUE(t, !bdi_read_congested(&bdev->bdi));
	KT_EXPECT_EQ(t, bdev->queue->elv.congested, 1);
	fake_complete_all();
}

/*
 * The deadline elevator: while the driver is busy, pending reads go out in
 * ascending sector order (a one-way sweep from the lowest), not in the
 * order they came; an expired read goes first.
 */
static void test_deadline_sorts(struct ktest *t)
{
	static const sector_t order_in[] = {5000, 1000, 9000, 3000, 7000};
	struct block_device *bdev = fake_setup(2048, 1, 128, 0);

	KT_ASSERT_TRUE(t, bdev);
	KT_EXPECT_STREQ(t, bdev->queue->elevator->name, "deadline");
	submit(bdev, 0, 100, 1); /* goes to the driver at once */
	for (int i = 0; i < 5; i++)
		submit(bdev, i + 1, order_in[i], 1);
	fake_complete_all();
	KT_ASSERT_EQ(t, fake.nr_seen, 6);
	for (int i = 1; i < 6; i++)
		KT_EXPECT_EQ(t, fake.seen_sector[i], 1000 * (sector_t)(2 * i - 1));
	KT_EXPECT_GT(t, bdev->queue->elv.sorted, 0);
}

static void test_deadline_fifo_expiry(struct ktest *t)
{
	struct block_device *bdev = fake_setup(2048, 1, 128, 0);
	struct request *rq;

	KT_ASSERT_TRUE(t, bdev);
	submit(bdev, 0, 100, 1);
	submit(bdev, 1, 9000, 1); /* the oldest pending read */
	submit(bdev, 2, 2000, 1);
	submit(bdev, 3, 3000, 1);
	/* age the oldest past the read expiry (500 ms) */
	list_for_each_entry (rq, &bdev->queue->pending, queuelist)
		if (rq->sector == 9000)
			rq->start_ns -= NSEC_PER_SEC;
	fake_complete_all();
	KT_ASSERT_EQ(t, fake.nr_seen, 4);
	KT_EXPECT_EQ(t, fake.seen_sector[1], 9000);
	KT_EXPECT_EQ(t, bdev->queue->elv.expired, 1);
	/* from there the sweep goes on upward, then back to the lowest */
	KT_EXPECT_EQ(t, fake.seen_sector[2], 2000);
	KT_EXPECT_EQ(t, fake.seen_sector[3], 3000);
}

static void test_noop_fifo(struct ktest *t)
{
	static const sector_t order_in[] = {5000, 1000, 9000, 3000};
	struct block_device *bdev;

	fake_elevator = "noop";
	bdev = fake_setup(2048, 1, 128, 0);
	fake_elevator = "deadline";
	KT_ASSERT_TRUE(t, bdev);
	submit(bdev, 0, 100, 1);
	for (int i = 0; i < 4; i++)
		submit(bdev, i + 1, order_in[i], 1);
	fake_complete_all();
	KT_ASSERT_EQ(t, fake.nr_seen, 5);
	for (int i = 0; i < 4; i++)
		KT_EXPECT_EQ(t, fake.seen_sector[i + 1], order_in[i]);
	KT_EXPECT_EQ(t, bdev->queue->elv.sorted, 0);
}

static void test_split(struct ktest *t)
{
	struct block_device *bdev = fake_setup(16, 32, 128, 0);

	KT_ASSERT_TRUE(t, bdev);
	submit(bdev, 0, 1000, 8); /* 64 sectors in requests of 16 */
	KT_ASSERT_EQ(t, fake.nr_seen, 4);
	for (int i = 0; i < 4; i++) {
		KT_EXPECT_EQ(t, fake.seen_sector[i], 1000 + 16 * i);
		KT_EXPECT_EQ(t, fake.seen_sectors[i], 16);
	}
	fake_complete_one();
	fake_complete_one();
	KT_EXPECT_EQ(t, done[0].calls, 0); /* the parent waits for every child */
	fake.fail_status = -EIO;
	fake.fail_sector = 1040;
	fake_complete_one();
	fake_complete_one();
	KT_EXPECT_EQ(t, done[0].calls, 1);
	KT_EXPECT_EQ(t, done[0].status, -EIO);
	KT_EXPECT_EQ(t, done[0].error_sector, 1040);
}

/* An error inside a merged request: bios before it succeed, the rest fail. */
static void test_partial_failure(struct ktest *t)
{
	struct block_device *bdev = fake_setup(2048, 32, 128, 0);

	KT_ASSERT_TRUE(t, bdev);
	blk_start_plug();
	for (int i = 0; i < 4; i++)
		submit(bdev, i, 8 * i, 1);
	blk_finish_plug();
	fake.fail_status = -EIO;
	fake.fail_sector = 17;
	fake_complete_all();
	KT_EXPECT_EQ(t, done[0].status, 0);
	KT_EXPECT_EQ(t, done[1].status, 0);
	KT_EXPECT_EQ(t, done[2].status, -EIO);
	KT_EXPECT_EQ(t, done[2].error_sector, 17);
	KT_EXPECT_EQ(t, done[3].status, -EIO);
	KT_EXPECT_EQ(t, bdev->stats.errors[0], 1);
	KT_EXPECT_EQ(t, bdev->stats.ios[0], 0);
}

static void test_range_checks(struct ktest *t)
{
	struct block_device *bdev = fake_setup(2048, 32, 128, 0);
	struct bio *bio;

	KT_ASSERT_TRUE(t, bdev);
	submit(bdev, 0, bdev->nr_sectors - 4, 1); /* runs 4 sectors past the end */
	KT_EXPECT_EQ(t, done[0].calls, 1);
	KT_EXPECT_EQ(t, done[0].status, -EINVAL);
	submit(bdev, 1, bdev->nr_sectors - 8, 1); /* the last page: fine */
	KT_EXPECT_EQ(t, fake.nr_seen, 1);
	submit(bdev, 2, UINT64_MAX - 2, 1); /* no wrap-around */
	KT_EXPECT_EQ(t, done[2].status, -EINVAL);
	bio = bio_alloc(1);
	KT_EXPECT_TRUE(t, !bio_add_page(bio, &pages[0], 100, 0));    /* not whole sectors */
	KT_EXPECT_TRUE(t, !bio_add_page(bio, &pages[0], 4096, 512)); /* past the page */
	bio->bi_end_io = test_end_io;
	bio->bi_private = &done[3];
	submit_bio(bdev, bio); /* empty */
	KT_EXPECT_EQ(t, done[3].status, -EINVAL);
	KT_EXPECT_EQ(t, fake.nr_seen, 1);
	submit(bdev, 4, 0, 1);
	submit_bio(NULL, make_bio(5, REQ_OP_READ, 0, 1));
	KT_EXPECT_EQ(t, done[5].status, -ENODEV);
	KT_EXPECT_TRUE(t, bio_alloc(0) == NULL);
	KT_EXPECT_TRUE(t, bio_alloc(BIO_MAX_VECS + 1) == NULL);
	fake_complete_all();
}

static void test_bio_add_page_extends(struct ktest *t)
{
	struct bio *bio = bio_alloc(2);

	KT_ASSERT_TRUE(t, bio_add_page(bio, &pages[0], 1024, 0));
	KT_ASSERT_TRUE(t, bio_add_page(bio, &pages[0], 1024, 1024)); /* same segment */
	KT_EXPECT_EQ(t, bio->bi_vcnt, 1);
	KT_ASSERT_TRUE(t, bio_add_page(bio, &pages[1], 4096, 0));
	KT_EXPECT_TRUE(t, !bio_add_page(bio, &pages[2], 4096, 0)); /* full */
	KT_EXPECT_EQ(t, bio->bi_size, 6144);
	bio_put(bio);
}

static void test_submit_wait_under_plug(struct ktest *t)
{
	struct block_device *bdev = fake_setup(2048, 32, 128, 0);
	struct bio *bio;

	KT_ASSERT_TRUE(t, bdev);
	fake.complete_inline = true;
	blk_start_plug();
	submit(bdev, 0, 64, 1);
	bio = make_bio(1, REQ_OP_READ, 0, 1);
	KT_EXPECT_EQ(t, submit_bio_wait(bdev, bio), 0); /* must not wait on its own plug */
	bio_put(bio);
	blk_finish_plug();
	KT_EXPECT_EQ(t, done[0].calls, 1);
	KT_EXPECT_EQ(t, bdev->stats.ios[0], 2);
}

static void test_busy_driver(struct ktest *t)
{
	struct block_device *bdev = fake_setup(2048, 32, 128, 0);

	KT_ASSERT_TRUE(t, bdev);
	fake.busy = true;
	submit(bdev, 0, 0, 1);
	submit(bdev, 1, 800, 1);
	KT_EXPECT_EQ(t, fake.nr_seen, 0);
	KT_EXPECT_EQ(t, bdev->queue->in_driver, 0);
	fake.busy = false;
	blk_run_queue(bdev);
	KT_EXPECT_EQ(t, fake.nr_seen, 2);
	fake_complete_all();
	KT_EXPECT_EQ(t, done[0].calls + done[1].calls, 2);
}

static void test_flush(struct ktest *t)
{
	struct block_device *bdev = fake_setup(2048, 32, 128, 0);
	struct bio *bio = bio_alloc(1);

	KT_ASSERT_TRUE(t, bdev);
	bio->bi_op = REQ_OP_FLUSH;
	bio->bi_end_io = test_end_io;
	bio->bi_private = &done[0];
	done[0] = (struct done){0, 0, 0};
	submit_bio(bdev, bio);
	KT_EXPECT_EQ(t, fake.nr_seen, 1);
	KT_EXPECT_EQ(t, fake.seen_sectors[0], 0);
	fake_complete_all();
	KT_EXPECT_EQ(t, done[0].calls, 1);
	KT_EXPECT_EQ(t, done[0].status, 0);
}

static void test_stats_buckets(struct ktest *t)
{
	KT_EXPECT_EQ(t, disk_stats_bucket(1), 0);     /* 512 B */
	KT_EXPECT_EQ(t, disk_stats_bucket(2), 0);     /* 1 KiB */
	KT_EXPECT_EQ(t, disk_stats_bucket(8), 2);     /* 4 KiB */
	KT_EXPECT_EQ(t, disk_stats_bucket(2048), 10); /* 1 MiB */
	KT_EXPECT_EQ(t, disk_stats_bucket(1u << 30), 15);
}

static void test_register(struct ktest *t)
{
	struct block_device *bdev = fake_setup(2048, 32, 128, 0);

	KT_ASSERT_TRUE(t, bdev);
	KT_EXPECT_EQ(t, blk_disk_count(), 1);
	KT_EXPECT_TRUE(t, blk_get_disk(0) == bdev);
	KT_EXPECT_TRUE(t, blk_get_disk(1) == NULL);
	KT_EXPECT_STREQ(t, bdev->name, "sda");
	KT_EXPECT_TRUE(t, bdev->bd_mapping.host == bdev);
	KT_EXPECT_TRUE(t, bdev->bd_mapping.a_ops == &blkdev_aops);
	KT_EXPECT_EQ(t, bdev->bd_mapping.size, (loff_t)bdev->nr_sectors * 512);
	KT_EXPECT_EQ(t, bdev->queue->nr_requests, BLK_DEF_NR_REQUESTS);
	KT_EXPECT_TRUE(t, fake_setup(4, 32, 128, 0) == NULL);	/* max_sectors < a page */
	KT_EXPECT_TRUE(t, fake_setup(2048, 0, 128, 0) == NULL); /* no queue depth */
	KT_EXPECT_TRUE(t, fake_setup(2048, 1, 128, BLK_MAX_NR_REQUESTS + 1) == NULL);
	blk_reset_disks();
}

KTEST_SUITE(blk_queue, NULL, KTEST_CASE(test_plug_back_merge),
	    KTEST_CASE(test_plug_front_and_gap_merge), KTEST_CASE(test_plug_gap_back_merge),
	    KTEST_CASE(test_merge_limits), KTEST_CASE(test_no_merge_across_ops),
	    KTEST_CASE(test_queue_depth), KTEST_CASE(test_merge_while_busy),
	    KTEST_CASE(test_congestion), KTEST_CASE(test_congestion_thresholds),
	    KTEST_CASE(test_deadline_sorts), KTEST_CASE(test_deadline_fifo_expiry),
	    KTEST_CASE(test_noop_fifo), KTEST_CASE(test_split), KTEST_CASE(test_partial_failure),
	    KTEST_CASE(test_range_checks), KTEST_CASE(test_bio_add_page_extends),
	    KTEST_CASE(test_submit_wait_under_plug), KTEST_CASE(test_busy_driver),
	    KTEST_CASE(test_flush), KTEST_CASE(test_stats_buckets), KTEST_CASE(test_register));
