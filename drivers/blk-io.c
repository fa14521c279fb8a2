/*
 * The asynchronous I/O engine of the raw-device commands (drivers/blk-io.h):
 * slots of bios with buffer pages from the page cache's pool, submitted to
 * a disk's queue, reaped in completion order, every wait bounded by
 * IO_STALL_NS.
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
 * @qd slots of @max_bytes each (plus @max_off bytes of leading offset).
 * The pages come from the page cache's pool (page_cache_alloc(): the
 * kernel's heap is a small fixed window, and a raw read's buffers are what
 * RAM holds besides the cache, evicting it if need be). With @scatter the
 * pages of a slot are in descending frame order, so no two neighbours are
 * physically contiguous (the driver's scatter-gather list gets one entry
 * a page).
 */
int io_setup(struct io_engine *e, struct block_device *bdev, unsigned int qd, uint32_t max_bytes,
	     uint32_t max_off, bool scatter)
{
	unsigned int nr_pages = DIV_ROUND_UP(max_bytes + max_off, PAGE_SIZE);

	memset(e, 0, sizeof(*e));
	e->bdev = bdev;
	e->qd = qd;
	init_waitqueue_head(&e->wq);
	e->slots = kcalloc(qd, sizeof(*e->slots));
	if (!e->slots)
		return -ENOMEM;
	for (unsigned int i = 0; i < qd; i++) {
		struct io_slot *s = &e->slots[i];

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
	}
	return 0;
}

/* Start @op of @bytes at @sector into slot @s, the data @off bytes into its first page. */
void io_submit(struct io_slot *s, enum bio_op op, sector_t sector, uint32_t bytes, uint32_t off,
	       uint64_t tag)
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
	s->busy = true;
	s->done = false;
	s->submit_ns = ktime_ns();
	s->eng->in_flight++;
	submit_bio(s->eng->bdev, bio);
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
		pr_err("%s: no I/O completion for %llu s with %u in flight; giving up (their "
		       "buffers are leaked, not freed under the I/O)\n",
		       e->bdev->name, IO_STALL_NS / NSEC_PER_SEC, e->in_flight);
		return NULL;
	}
	got->busy = false;
	return got;
}

/* Drain before freeing: false if something never completed (then nothing is freed). */
bool io_drain(struct io_engine *e)
{
	for (unsigned int i = 0; i < e->qd; i++)
		if (e->slots && e->slots[i].busy && !io_reap(e, &e->slots[i]))
			return false;
	return true;
}

