/*
 * The block layer's interface (drivers/blk-core.c, with bios allocated in
 * drivers/blk-bio.c and disks registered in drivers/blk-genhd.c;
 * host-buildable): block devices, bios and the backing_dev_info that
 * readahead asks about congestion. A bio reads or writes bi_size bytes starting at 512-byte
 * sector bi_sector into a vector of page fragments; bi_end_io runs when it
 * completes (possibly from an interrupt handler) with bi_status 0 or -errno.
 *
 *	struct bio *bio = bio_alloc(nr_pages);
 *	bio_add_page(bio, page, PAGE_SIZE, 0);	// repeat; false when full
 *	bio->bi_sector = lba; bio->bi_end_io = done; bio->bi_private = ctx;
 *	submit_bio(bdev, bio);			// asynchronous
 *	// or: err = submit_bio_wait(bdev, bio);
 *	bio_put(bio);
 *
 * A driver registers a disk with blk_register_disk() and completes each
 * request it is handed through blk_end_request().
 *
 * Requests: submit_bio() turns bios into requests on the disk's queue,
 * merging a bio into a waiting request when it extends it at the back or
 * the front (up to max_sectors / max_segments), and splitting a bio larger
 * than that. A thread between blk_start_plug() and blk_finish_plug() keeps
 * its requests to itself, so consecutive bios merge before the driver sees
 * them. At most bdev->queue_depth requests are with the driver at a time;
 * at most q->nr_requests exist at all, and a submitter that needs one more
 * sleeps until one completes (bdi_read_congested() is true meanwhile).
 *
 * Context: everything here runs in thread context (the AHCI driver
 * completes requests from its port thread, not from the interrupt handler),
 * so bi_end_io may sleep, allocate and free.
 */
#ifndef DRIVERS_BLKDEV_H
#define DRIVERS_BLKDEV_H

#include "kernel/list.h"
#include "kernel/sched.h"
#include "mm/backing-dev.h"
#include "mm/pagemap.h"

struct disk_model;

enum bio_op { REQ_OP_READ, REQ_OP_WRITE, REQ_OP_FLUSH };

struct bio_vec {
	struct page *bv_page;
	uint32_t bv_len;
	uint32_t bv_offset;
};

struct block_device;

struct bio {
	struct block_device *bi_bdev;
	sector_t bi_sector;
	uint32_t bi_size; /* bytes; a multiple of 512 */
	enum bio_op bi_op;
	int bi_status;
	uint16_t bi_vcnt, bi_max_vecs;
	struct bio_vec *bi_io_vec;
	void (*bi_end_io)(struct bio *bio);
	void *bi_private;
	struct bio *bi_next;  /* chain inside a merged request */
	uint64_t bi_start_ns; /* submission time, for statistics */
	/*
	 * With bi_status != 0: the first sector of the failed request that
	 * could not be read, which may lie before bi_sector when this bio
	 * was merged behind the one that failed.
	 */
	sector_t bi_error_sector;
};

/* Per-disk statistics, as the fields of Linux's /proc/diskstats. */
struct disk_stats {
	uint64_t ios[2]; /* completed: [0] reads, [1] writes */
	uint64_t merges[2];
	uint64_t sectors[2];
	uint64_t ticks_ns[2]; /* time spent, summed over requests */
	uint64_t errors[2];
	unsigned int in_flight[2];
	uint64_t size_hist[16];	   /* requests by size: bucket i holds [2^i, 2^(i+1)) KiB */
	uint64_t io_ticks_ns;	   /* time with at least one request in flight */
	uint64_t time_in_queue_ns; /* in-flight requests integrated over time */
};

/* The "size_hist" bucket of a request of @sectors 512-byte sectors (< 1 KiB: 0). */
static inline unsigned int disk_stats_bucket(uint32_t sectors)
{
	uint32_t kib = sectors / 2;

	return kib <= 1 ? 0 : min_t(unsigned int, ilog2(kib), 15);
}

struct block_device {
	char name[16];	     /* "sda", ... */
	int index;	     /* disk number for disk=N */
	sector_t nr_sectors; /* capacity in 512-byte sectors */
	uint32_t logical_sector_size;
	uint32_t max_sectors;	  /* largest request the driver accepts */
	unsigned int queue_depth; /* requests the driver may have in flight */
	char model[41], serial[21], firmware[9];
	bool ncq;
	bool nonrot;		  /* the device says it does not spin (ATA IDENTIFY word 217 = 1) */
	struct backing_dev_info bdi;
	struct address_space bd_mapping; /* the raw device's page cache (metadata) */
	struct disk_stats stats;
	struct request_queue *queue;
	void *driver_data;
	/*
	 * disk_model=: the timing model the driver completes commands by
	 * (NULL: the disk times itself). model_late counts completions whose
	 * real I/O had not finished at the modelled time; model_late_tsc is
	 * the host time waited for them, in raw TSC ticks (it measures the
	 * host, so it is not repeatable).
	 */
	struct disk_model *dmodel;
	uint64_t model_late, model_late_tsc;
	/*
	 * cold: made cold (drop_caches disk=cold) since the last run on it
	 * began; run_cold: whether the latest run began so (blk_run_start()).
	 */
	bool cold, run_cold;
};

/*
 * A run (a bench phase, cat, rawread...) begins on @bdev: returns whether the
 * disk was made cold since the last run began, and remembers it for the
 * run's RESULT line (result_timing()'s "cold"). A modelled disk made cold is
 * made cold again here (drivers/blk-cold.c), so the run finds it so.
 */
bool blk_run_start(struct block_device *bdev);

/*
 * Make @bdev cold (drivers/blk-cold.c): a modelled disk as at power-on, a
 * real one by reading its far end. 0, or an error already printed.
 */
int blk_make_cold(struct block_device *bdev);
/* Every disk: the first error, or 0; how many were made cold in *@cooled (if not NULL). */
int blk_make_cold_all(int *cooled);
/*
 * Wait until no disk has a request in flight: a cold start drops the page
 * cache after this, so that no page still being read (locked, which the
 * drop skips) survives into the next run. 0, or an error already printed.
 */
int blk_wait_idle_all(void);

struct result;
struct json_buf;
/*
 * Add "clock" (virtual or real), "disk_kind" (modelled, emulated or real) and
 * "cold" (the run began on a disk made cold) to a RESULT line about I/O on
 * @bdev (NULL: the clock only).
 */
void result_timing(struct result *r, const struct block_device *bdev);
/* The disk model's counters of @b as a JSON object, or null (drivers/blk-cmd.c). */
void diskmodel_json(struct block_device *b, struct json_buf *j);

/* What times the disk's I/O: "modelled" (disk_model=), "emulated" (QEMU's), or "real". */
const char *blk_disk_kind(const struct block_device *bdev);

struct bio *bio_alloc(unsigned int nr_vecs);
void bio_put(struct bio *bio);
/* Append a fragment; false if the bio is full (no partial add). */
bool bio_add_page(struct bio *bio, struct page *page, uint32_t len, uint32_t offset);
void submit_bio(struct block_device *bdev, struct bio *bio);
int submit_bio_wait(struct block_device *bdev, struct bio *bio);
/* Submit everything plugged so far (submit_bio plugs until the caller unplugs). */
void blk_start_plug(void);
void blk_finish_plug(void);

int blk_disk_count(void);
struct block_device *blk_get_disk(int index);

/* The raw device's page cache operations (drivers/blk-pagemap.c), set on bd_mapping. */
extern const struct address_space_operations blkdev_aops;
/*
 * Read one page of the raw device (page->mapping is a bd_mapping). Follows
 * address_space_operations: the page is locked with a reference held for
 * the I/O; completion sets PG_uptodate or PG_error, unlocks it and drops
 * that reference. A partial last page is zero-filled past the end of the
 * disk; a page wholly past the end fails with PG_error and a message.
 */
int blkdev_readpage(struct file *filp, struct page *page);
/*
 * Read @nr_pages pages of @pages (linked by page->lru, in increasing index
 * order, each in @mapping, locked, with an I/O reference). Each page is
 * taken off @pages and put on the inactive LRU list with lru_cache_add()
 * (the list link was in use until then), then read as blkdev_readpage()
 * does, consecutive pages in one bio. On return @pages is empty.
 */
int blkdev_readpages(struct address_space *mapping, struct file *filp, struct list_head *pages,
		     unsigned int nr_pages);

/* --- the driver side ------------------------------------------------------ */

/* A run of bios for consecutive sectors, handed to the driver as one command. */
struct request {
	struct list_head queuelist; /* pending list (in arrival order), or a thread's plug */
	struct list_head sortlink;  /* the elevator's: its sector-sorted list (deadline, cfq) */
	struct list_head elv_link;  /* the elevator's: a second list (cfq: its FIFO, dispatch) */
	void *elv_priv;		    /* the elevator's (cfq: the cfq_queue) */
	uint64_t ioc;		    /* the submitting process (thread_id(); 0: none) */
	struct request_queue *q;
	enum bio_op op;
	sector_t sector; /* first 512-byte sector */
	uint32_t nr_sectors;
	uint32_t nr_segments;	   /* bio_vecs over all bios */
	struct bio *bio, *biotail; /* chained through bi_next, in sector order */
	uint64_t start_ns;	   /* when it entered the queue (the oldest bio's submission) */
	void *special;		   /* the driver's, while it owns the request */
};

struct blk_queue_ops {
	/*
	 * Start @rq. Returns 0 when the driver owns it (it will call
	 * blk_end_request() exactly once, from thread context, possibly
	 * before returning), or -EBUSY to keep it queued until the driver
	 * calls blk_run_queue().
	 */
	int (*queue_rq)(struct block_device *bdev, struct request *rq);
};

/*
 * I/O schedulers (drivers/elevator.h): each a file drivers/NAME-iosched.c
 * registered with ELEVATOR(); elevator= picks one for every disk.
 */
struct elevator_type;

struct elevator_stats {
	uint64_t dispatched; /* requests handed to the driver */
	uint64_t sorted;     /* ... before an older pending request */
	uint64_t expired;    /* ... because their FIFO deadline had passed */
	uint64_t batches;    /* deadline batches started; cfq: slices started */
	uint64_t congested;  /* times the queue became read-congested */
	uint64_t idled;	     /* cfq: times the active queue idled for its next request */
	uint64_t dist_sectors; /* from each dispatched request's start to the last one's end */
};

#define BLK_MAX_DISKS	    16
#define BLK_MAX_NR_REQUESTS 1024
#define BLK_DEF_NR_REQUESTS 128 /* as Linux 2.6's nr_requests */
#define BIO_MAX_VECS	    4096

struct request_queue {
	struct block_device *bdev;
	const struct blk_queue_ops *ops;
	struct list_head pending; /* merged requests waiting for the driver, oldest first */
	struct list_head free;	  /* unused entries of pool */
	struct request *pool;
	unsigned int nr_requests; /* limit on requests in existence */
	unsigned int nr_allocated;
	unsigned int count[2];	  /* allocated requests per direction (read, write) */
	/*
	 * Congestion as 2.6.20's blk_queue_congestion_threshold() sets it: on
	 * from nr_requests - nr_requests/8 + 1 allocated requests of a
	 * direction, off again below nr_requests - nr_requests/8 -
	 * nr_requests/16 - 1.
	 */
	unsigned int congestion_on, congestion_off;
	bool congested[2];
	/* the elevator, its data and its timer (elv_timer_arm()) */
	const struct elevator_type *elevator;
	void *elevator_data;
	uint64_t timer_ns;		 /* when the timer goes off; 0: not armed */
	struct wait_queue_head timer_wq; /* the timer thread sleeps here */
	bool timer_thread;		 /* it was started (drivers/blk-timer.c) */
	struct list_head requeue; /* refused by the driver (-EBUSY): go first */
	struct elevator_stats elv;
	unsigned int in_driver; /* handed to queue_rq, not yet ended */
	unsigned int max_sectors, max_segments;
	struct wait_queue_head wait; /* submitters waiting for a free request */
	bool running, rerun;	     /* blk_run_queue re-entered from a completion */
	bool submit_run;	     /* the queue runs because a request was added */
	sector_t dispatch_end;	     /* where the last request handed to the driver ends */
	uint64_t stamp_ns;	     /* last update of io_ticks / time_in_queue */
};

/*
 * Register a disk whose driver filled in nr_sectors, logical_sector_size,
 * max_sectors (>= 8), queue_depth (>= 1), the IDENTIFY strings, ncq and
 * driver_data. Assigns index and name ("sda", ...), creates the request
 * queue with @nr_requests entries (0: blk_nr_requests_default, which the
 * blk_nr_requests= parameter sets) and sets up bdi and bd_mapping.
 */
extern unsigned int blk_nr_requests_default;
int blk_register_disk(struct block_device *bdev, const struct blk_queue_ops *ops,
		      unsigned int max_segments, unsigned int nr_requests);
/*
 * Complete @rq. @status 0: every bio succeeded. Otherwise sectors before
 * @error_sector were transferred correctly: bios wholly before it succeed,
 * the rest fail with @status and bi_error_sector = @error_sector.
 */
void blk_end_request(struct request *rq, int status, sector_t error_sector);
/* Hand pending requests to the driver while it has room (after -EBUSY). */
void blk_run_queue(struct block_device *bdev);
#ifdef HOST_BUILD
/* Forget every disk (host tests only: the structures stay the caller's). */
void blk_reset_disks(void);
#endif
/* Commands the disk model served from its buffer so far (0 without a model). */
uint64_t blk_model_buffer_hits(const struct block_device *bdev);
/* Zero every counter diskstats prints for @bdev: the disk's, its elevator's, its model's (not in-flight counts). */
void blk_reset_stats(struct block_device *bdev);

#endif
