/*
 * Today's Linux readahead (ra=linux): mainline's page_cache_sync_ra(),
 * page_cache_async_ra() and the mmap fault path's do_sync_mmap_readahead()
 * and do_async_mmap_readahead(), as of 6.17. Host-buildable.
 *
 * Read from mm/readahead.c and mm/filemap.c of 6.11.11 and 6.12 (the same
 * policy) and of 6.17: Jan Kara's "mm: Fix various readahead quirks"
 * (6.11) split the sync and async paths and folded the conservative
 * context readahead of 2cad40180197 into the sync one. 6.17 differs from
 * 6.11 in three places, all followed here: an expected mark keeps the
 * larger of the window and the next size; an async window is trimmed to
 * end on a natural boundary ("terminate async readahead on natural
 * boundary"); and page_cache_next_miss() no longer returns the index it
 * started from when the scan finds no hole (the 6.17-rc1 fix; 6.11 then
 * reset the window over cached pages instead of giving up).
 *
 * lookahead has 4 KiB pages and no large folios: page_cache_ra_order()
 * falls back to order-0 pages, so the mark goes on page start + size -
 * async_size, and the async path's "order += 2" only sets the boundary
 * (4 pages, or the lowest set bit of the maximum if smaller). Block-layer
 * read congestion is gone from mainline (5.18 removed bdi_read_congested()):
 * no window is ever deferred. The maximum is ra_pages, or up to the
 * device's largest request (io_pages) for a larger read (ractl_max_pages()).
 * The VM_EXEC fault branch has no mappings to act on here; fault-around
 * (filemap_map_pages(), which also lowers mmap_miss) is not modelled.
 *
 * State: on-demand's fields as start/size/async_size (ra_set_window());
 * Linux's prev_pos, the byte after the last one read, is rebuilt from
 * prev_index and prev_offset, which the read paths keep; a fault does not
 * move it (RA_ALGO_FAULT_NO_PREV).
 */
#include <limits.h>

#include "drivers/blkdev.h"
#include "fs/vfs.h"
#include "mm/readahead.h"

/* MMAP_LOTSAMISS * 10: mmap_miss stops counting here. */
#define MMAP_MISS_CAP	(MMAP_LOTSAMISS * 10)

/* ractl_max_pages(): a read larger than the window may use the device's largest request. */
static unsigned long linux_max_pages(struct address_space *mapping, struct file_ra_state *ra,
				     unsigned long req_size)
{
	struct backing_dev_info *bdi = mapping->backing_dev_info;
	unsigned long max = ra->ra_pages;

	if (bdi && req_size > max && bdi->io_pages > max)
		max = min(req_size, bdi->io_pages);
	return max;
}

/* prev_pos >> PAGE_SHIFT: the page of the byte after the last one read. */
static pgoff_t linux_prev_index(const struct file_ra_state *ra)
{
	if (ra->prev_index == -1UL)
		return -1UL;	/* nothing read yet: prev_pos is -1 too */
	return ra->prev_offset ? ra->prev_index : ra->prev_index + 1;
}

static void linux_submit(struct address_space *mapping, struct file_ra_state *ra,
			 struct file *filp, pgoff_t offset, unsigned long req_size,
			 struct ra_call *call)
{
	ra_call_note_io(call, ra_submit(ra, mapping, filp), call->async);
	ra_trace_record(mapping, ra, offset, req_size, call, ra->ra_index, ra_readahead_size(ra),
			ra_lookahead_size(ra));
}

/* do_page_cache_ra(), force_page_cache_ra(): read the pages asked for, no mark, no state. */
static void linux_read_as_is(struct address_space *mapping, struct file_ra_state *ra,
			     struct file *filp, pgoff_t offset, unsigned long req_size,
			     struct ra_call *call)
{
	int actual = __do_page_cache_readahead(mapping, filp, offset, req_size, 0);

	ra_call_note_io(call, actual > 0 ? (unsigned long)actual : 0, call->async);
	ra_trace_record(mapping, ra, offset, req_size, call, offset, req_size, 0);
}

/* page_cache_sync_ra(): a page of the request is missing. */
static bool linux_sync(struct address_space *mapping, struct file_ra_state *ra, struct file *filp,
		       pgoff_t index, unsigned long req_count)
{
	struct ra_call call = { .async = false };
	unsigned long max_pages, contig_count;
	pgoff_t prev_index, miss;

	call.congested = bdi_read_congested(mapping->backing_dev_info);
	/*
	 * Readahead off: still read what is needed, one page, as a forced
	 * readahead would.
	 */
	if (!ra->ra_pages) {
		call.rcase = RA_CASE_OFF;
		linux_read_as_is(mapping, ra, filp, index, 1, &call);
		return true;
	}
	max_pages = linux_max_pages(mapping, ra, req_count);
	prev_index = linux_prev_index(ra);
	/*
	 * Start of file, an oversized read, or a sequential miss (index -
	 * prev_index is 1 for the next page, 0 for an unaligned read).
	 */
	if (!index || req_count > max_pages || index - prev_index <= 1UL) {
		unsigned long size = get_init_ra_size(req_count, max_pages);

		call.rcase = RA_CASE_SEQ_FIRST;
		ra_set_window(ra, index, index, size,
			      size > req_count ? size - req_count : size >> 1);
		linux_submit(mapping, ra, filp, index, req_count, &call);
		return true;
	}
	/*
	 * The traces (cached history pages) a sequential stream leaves
	 * behind; a standalone small random read reads as is, without
	 * touching the state.
	 */
	miss = page_cache_prev_miss(mapping, index - 1, max_pages);
	/* mainline's prev_miss returns the last slot it saw when all were cached */
	if (miss != ULONG_MAX && index - 1 - miss == max_pages)
		miss++;
	contig_count = index - miss - 1;
	if (contig_count <= req_count) {
		call.rcase = RA_CASE_RANDOM;
		linux_read_as_is(mapping, ra, filp, index, req_count, &call);
		return true;
	}
	/* cached from the beginning: a long-run stream, or a whole-file read */
	if (miss == ULONG_MAX)
		contig_count *= 2;
	call.rcase = RA_CASE_CONTEXT;
	ra_set_window(ra, index, index, min(contig_count + req_count, max_pages), 1);
	linux_submit(mapping, ra, filp, index, req_count, &call);
	return true;
}

/*
 * 6.17: an async window ends on a natural boundary: 1 << min(order + 2,
 * lowest set bit of the maximum), order 0 here, unless that would empty it.
 */
static unsigned long linux_async_trim(pgoff_t start, unsigned long size, unsigned long max)
{
	unsigned long align = 1UL << min(2UL, (unsigned long)__builtin_ctzl(max));
	pgoff_t end = (start + size) & ~(align - 1);

	return end > start ? end - start : size;
}

/* page_cache_async_ra(): the reader reached a marked page. */
static void linux_async(struct address_space *mapping, struct file_ra_state *ra,
			struct file *filp, struct page *page, pgoff_t index,
			unsigned long req_count)
{
	struct ra_call call = { .async = true };
	unsigned long max_pages, size;
	pgoff_t start;

	call.congested = bdi_read_congested(mapping->backing_dev_info);
	if (!ra->ra_pages) {
		call.rcase = RA_CASE_OFF;
		ra_trace_record(mapping, ra, index, req_count, &call, index, 0, 0);
		return;
	}
	ClearPageReadahead(page);
	max_pages = linux_max_pages(mapping, ra, req_count);
	/* The expected mark: assume sequential, ramp up and push the window on. */
	if (index == ra->lookahead_index) {
		size = ra_readahead_size(ra);
		start = ra->readahead_index;
		size = max(size, ra_next_size(size, max_pages));
		size = linux_async_trim(start, size, max_pages);
		call.rcase = RA_CASE_SEQ_NEXT;
		ra_set_window(ra, index, start, size, size);
		linux_submit(mapping, ra, filp, index, req_count, &call);
		return;
	}
	/*
	 * A marked page without valid state (interleaved reads): the async
	 * size is the distance to the next hole; ramp it up and use it.
	 */
	start = page_cache_next_miss(mapping, index + 1, max_pages);
	call.rcase = RA_CASE_HOLE_SCAN;
	if (!start || start - index > max_pages) {
		ra_trace_record(mapping, ra, index, req_count, &call, index, 0, 0);
		return;
	}
	size = ra_next_size(start - index + req_count, max_pages);
	size = linux_async_trim(start, size, max_pages);
	ra_set_window(ra, index, start, size, size);
	linux_submit(mapping, ra, filp, index, req_count, &call);
}

/* do_sync_mmap_readahead(): a fault on a page that is not cached. */
static void linux_fault_sync(struct file *file, pgoff_t pgoff, enum filemap_advice advice)
{
	struct address_space *mapping = file->f_mapping;
	struct file_ra_state *ra = &file->f_ra;
	struct ra_call call = { .rcase = RA_CASE_AROUND };
	unsigned long ra_pages = ra->ra_pages;
	pgoff_t start;

	if (advice == FAULT_ADV_RANDOM || !ra_pages)
		return;
	if (advice == FAULT_ADV_SEQUENTIAL) {
		linux_sync(mapping, ra, file, pgoff, ra_pages);
		return;
	}
	if (ra->mmap_miss < MMAP_MISS_CAP)
		ra->mmap_miss++;
	/* Missing much more than hitting in this file? Readahead only hurts. */
	if (ra->mmap_miss > MMAP_LOTSAMISS)
		return;
	/* read-around, with a mark a quarter from its end */
	start = pgoff > ra_pages / 2 ? pgoff - ra_pages / 2 : 0;
	ra_set_window(ra, pgoff, start, ra_pages, ra_pages / 4);
	call.congested = bdi_read_congested(mapping->backing_dev_info);
	linux_submit(mapping, ra, file, pgoff, 1, &call);
}

/* do_async_mmap_readahead(): a fault on a cached page. */
static void linux_fault_async(struct file *file, struct page *page, pgoff_t pgoff,
			      enum filemap_advice advice)
{
	struct file_ra_state *ra = &file->f_ra;

	if (advice == FAULT_ADV_RANDOM || !ra->ra_pages)
		return;
	if (ra->mmap_miss)
		ra->mmap_miss--;
	if (PageReadahead(page))
		linux_async(file->f_mapping, ra, file, page, pgoff, ra->ra_pages);
}

const struct ra_algorithm ra_algo_linux = {
	.name = "linux",
	.title = "linux-6.17",
	.help = "mainline 6.17: page_cache_sync_ra/async_ra, conservative context, mmap rules",
	.flags = RA_ALGO_FAULT_NO_PREV,
	.sync = linux_sync,
	.async = linux_async,
	.fault_sync = linux_fault_sync,
	.fault_async = linux_fault_async,
};
RA_ALGORITHM(ra_algo_linux);
