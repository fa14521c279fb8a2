/*
 * The asynchronous I/O engine of the raw-device commands and the disk
 * probe (drivers/blk-io.h): slots of bios with buffer pages from the page
 * cache's pool, of one size or each its own, submitted to a disk's queue
 * one at a time or prepped and committed together, reaped one by one in
 * completion order or all at once, each slot's issue and completion time
 * kept, every wait bounded by IO_STALL_NS.
 */
#include <stdlib.h>
#include <string.h>

#include "drivers/blk-io.h"
#include "kernel/log.h"
#include "kernel/time.h"
#include "mm/mm.h"

/* Longest wait for any completion: the driver's own timeouts end bios long before. */
#define IO_STALL_NS (120 * NSEC_PER_SEC)

static void io_end(struct bio *bio)
{
	struct io_slot *s = bio->bi_private;

	s->end_ns = ktime_ns();
	s->done = true;
	s->eng->in_flight--;
	wake_up_all(&s->eng->wq);
}

void io_free(struct io_engine *e)
{
	if (!e->slots)
		return;
	for (unsigned int i = 0; i < e->qd; i++) {
		struct io_slot *s = &e->slots[i];

		if (s->bio)
			bio_put(s->bio);
		for (unsigned int p = 0; s->pages && p < s->nr_pages; p++)
			if (s->pages[p])
				free_pages(s->pages[p], 0);
		kfree(s->pages);
	}
	kfree(e->slots);
	e->slots = NULL;
}

/* Frames in descending order: no page followed by the frame after it. */
static int pfn_descending(const void *a, const void *b)
{
	unsigned long x = page_to_pfn(*(struct page *const *)a);
	unsigned long y = page_to_pfn(*(struct page *const *)b);

	return x < y ? 1 : x > y ? -1 : 0;
}

/*
 * engine_init(), slot_init() and build() are inlined wherever they are
 * called, as they were in io_setup() and io_submit() when those were their
 * one caller: a second caller (io_setup_sizes(), io_prep()) must not change
 * how rawread's and blkcheck's path compiles, whose instructions are time
 * under the virtual clock.
 */
static __always_inline int engine_init(struct io_engine *e, struct block_device *bdev,
				       unsigned int qd)
{
	memset(e, 0, sizeof(*e));
	e->bdev = bdev;
	e->qd = qd;
	init_waitqueue_head(&e->wq);
	e->slots = kcalloc(qd, sizeof(*e->slots));
	return e->slots ? 0 : -ENOMEM;
}

/*
 * Slot @s of @nr_pages pages. They come from the page cache's pool
 * (page_cache_alloc(): the kernel's heap is a small fixed window, and a
 * raw read's buffers are what RAM holds besides the cache, evicting it if
 * need be). With @scatter they are in descending frame order, so no two
 * neighbours are physically contiguous (the driver's scatter-gather list
 * gets one entry a page).
 */
static __always_inline int slot_init(struct io_engine *e, struct io_slot *s, unsigned int nr_pages,
				     bool scatter)
{
	s->eng = e;
	s->nr_pages = nr_pages;
	s->pages = kcalloc(nr_pages, sizeof(*s->pages));
	s->bio = bio_alloc(nr_pages);
	if (!s->pages || !s->bio)
		return -ENOMEM;
	for (unsigned int p = 0; p < nr_pages; p++) {
		struct page *pg = page_cache_alloc(NULL);

		if (!pg)
			return -ENOMEM;
		s->pages[p] = pg;
	}
	if (scatter)
		qsort(s->pages, nr_pages, sizeof(*s->pages), pfn_descending);
	return 0;
}

/* @qd slots of @max_bytes each (plus @max_off bytes of leading offset). */
int io_setup(struct io_engine *e, struct block_device *bdev, unsigned int qd, uint32_t max_bytes,
	     uint32_t max_off, bool scatter)
{
	unsigned int nr_pages = DIV_ROUND_UP(max_bytes + max_off, PAGE_SIZE);

	if (engine_init(e, bdev, qd))
		return -ENOMEM;
	for (unsigned int i = 0; i < qd; i++)
		if (slot_init(e, &e->slots[i], nr_pages, scatter))
			return -ENOMEM;
	return 0;
}

/* Slot i holds @bytes[i] (plus @max_off). */
int io_setup_sizes(struct io_engine *e, struct block_device *bdev, unsigned int qd,
		   const uint32_t *bytes, uint32_t max_off, bool scatter)
{
	if (engine_init(e, bdev, qd))
		return -ENOMEM;
	for (unsigned int i = 0; i < qd; i++)
		if (slot_init(e, &e->slots[i], DIV_ROUND_UP(bytes[i] + max_off, PAGE_SIZE),
			      scatter))
			return -ENOMEM;
	return 0;
}

/* Build @op of @bytes at @sector in slot @s, the data @off bytes into its first page. */
static __always_inline void build(struct io_slot *s, enum bio_op op, sector_t sector,
				  uint32_t bytes, uint32_t off, uint64_t tag)
{
	struct bio *bio = s->bio;

	bio->bi_vcnt = 0;
	bio->bi_size = 0;
	s->first_off = off;
	for (unsigned int p = 0; bytes; p++) {
		uint32_t take = min_t(uint32_t, bytes, PAGE_SIZE - off);

		bio_add_page(bio, s->pages[p], take, off);
		bytes -= take;
		off = 0;
	}
	bio->bi_op = op;
	bio->bi_sector = sector;
	bio->bi_end_io = io_end;
	bio->bi_private = s;
	s->tag = tag;
	s->done = false;
}

/* Start @op of @bytes at @sector into slot @s now (the caller keeps it within the slot). */
void io_submit(struct io_slot *s, enum bio_op op, sector_t sector, uint32_t bytes, uint32_t off,
	       uint64_t tag)
{
	build(s, op, sector, bytes, off, tag);
	s->busy = true;
	s->submit_ns = ktime_ns();
	s->eng->in_flight++;
	submit_bio(s->eng->bdev, s->bio);
}

/* Build the same without starting it (nor making it busy): io_commit() does. */
int io_prep(struct io_slot *s, enum bio_op op, sector_t sector, uint32_t bytes, uint32_t off,
	    uint64_t tag)
{
	uint64_t room = (uint64_t)s->nr_pages * PAGE_SIZE;

	if (s->busy || s->queued) {
		pr_err("%s: I/O slot %u is not free: not prepped again\n", s->eng->bdev->name,
		       (unsigned int)(s - s->eng->slots));
		return -EINVAL;
	}
	if (!bytes || (uint64_t)off + bytes > room) {
		pr_err("%s: I/O slot %u holds %llu bytes: cannot take %u at offset %u\n",
		       s->eng->bdev->name, (unsigned int)(s - s->eng->slots),
		       (unsigned long long)room, bytes, off);
		return -EINVAL;
	}
	build(s, op, sector, bytes, off, tag);
	s->queued = true;
	s->eng->prep_end = max(s->eng->prep_end, (unsigned int)(s - s->eng->slots) + 1);
	return 0;
}

/*
 * Start every prepped slot, in slot order, all with one issue time: taken
 * just before the first submission, with nothing but the submissions
 * after it (the accounting before, the stamps after), as close as it can
 * be to when the disk gets each command.
 */
void io_commit(struct io_engine *e)
{
	unsigned int end = e->prep_end;
	uint64_t now;

	for (unsigned int i = 0; i < end; i++)
		if (e->slots[i].queued) {
			e->slots[i].busy = true; /* before, in case it ends within submit_bio() */
			e->in_flight++;
		}
	now = ktime_ns();
	for (unsigned int i = 0; i < end; i++)
		if (e->slots[i].queued)
			submit_bio(e->bdev, e->slots[i].bio);
	for (unsigned int i = 0; i < end; i++)
		if (e->slots[i].queued) {
			e->slots[i].queued = false;
			e->slots[i].submit_ns = now;
		}
	e->prep_end = 0;
	e->commit_end = max(e->commit_end, end);
}

/* Visit the data of slot @s in order: fn(ctx, bytes, len). */
void io_for_each(struct io_slot *s, void (*fn)(void *ctx, const uint8_t *p, uint32_t len),
		 void *ctx)
{
	for (unsigned int i = 0; i < s->bio->bi_vcnt; i++) {
		struct bio_vec *bv = &s->bio->bi_io_vec[i];

		fn(ctx, (const uint8_t *)page_address(bv->bv_page) + bv->bv_offset, bv->bv_len);
	}
}

static void stalled(struct io_engine *e)
{
	pr_err("%s: no I/O completion for %llu s with %u in flight; giving up (their buffers are "
	       "leaked, not freed under the I/O)\n",
	       e->bdev->name, IO_STALL_NS / NSEC_PER_SEC, e->in_flight);
}

/* Wait until slot @want (or, with NULL, any busy slot) is done; NULL after a stall. */
struct io_slot *io_reap(struct io_engine *e, struct io_slot *want)
{
	struct io_slot *got = NULL;
	bool ok =
		wait_event_timeout(e->wq, ({
					   got = NULL;
					   if (want) {
						   if (want->done)
							   got = want;
					   } else {
						   for (unsigned int i = 0; i < e->qd && !got; i++)
							   if (e->slots[i].busy && e->slots[i].done)
								   got = &e->slots[i];
					   }
					   got != NULL;
				   }),
				   IO_STALL_NS);

	if (!ok) {
		stalled(e);
		return NULL;
	}
	got->busy = false;
	return got;
}

/*
 * Wait until nothing at all is in flight, then reap the slots committed
 * since the last time (for the slots of io_commit(): a slot io_submit()
 * started among them would be reaped with them, unseen by io_reap()).
 */
bool io_reap_all(struct io_engine *e)
{
	if (!wait_event_timeout(e->wq, e->in_flight == 0, IO_STALL_NS)) {
		stalled(e);
		return false;
	}
	for (unsigned int i = 0; i < e->commit_end; i++)
		if (e->slots[i].done)
			e->slots[i].busy = false;
	e->commit_end = 0;
	return true;
}

/* Drain before freeing: false if something never completed (then nothing is freed). */
bool io_drain(struct io_engine *e)
{
	for (unsigned int i = 0; i < e->qd; i++)
		if (e->slots && e->slots[i].busy && !io_reap(e, &e->slots[i]))
			return false;
	return true;
}
