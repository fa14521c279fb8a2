/*
 * The readahead core: the mechanism every algorithm reads through, and the
 * read paths' call sites it serves itself. __do_page_cache_readahead()
 * allocates a window's missing pages and hands them to ->readpages in one
 * call (patch 003 gave it the look-ahead mark); ra_batch_*() do the same a
 * folio at a time (ra=linux's mechanism); force_page_cache_readahead()
 * reads whatever the state (fadvise/madvise WILLNEED, readahead(2)).
 * ra_read_as_is() is FADV_RANDOM's read; the 2.6 mmap read-around, fault
 * path and readdir call site (patch 009) serve algorithms that do not bring
 * their own; and the lead time readahead(8) prints is measured from here
 * (ra_page_born(), ra_page_used()). Host-buildable.
 *
 * The registry and each file's choice of algorithm are in mm/ra-registry.c,
 * the helpers the algorithms share (window sizes, ra_submit()) in
 * mm/ra-helpers.c, the policies in mm/readahead-*.c.
 */
#include "mm/backing-dev.h"
#include "kernel/log.h"
#include "kernel/time.h"
#include "mm/file.h"
#include "mm/mm.h"
#include "mm/readahead.h"

/*
 * Given a desired number of readahead pages, return a sensible upper
 * limit: half of what is free or could be reclaimed cheaply.
 */
unsigned long max_sane_readahead(unsigned long nr)
{
	struct mm_stats st;

	mm_get_stats(&st);
	return min(nr, (st.inactive + st.cache_free) / 2);
}

/*
 * Hand the pages on @pages (linked by page->lru in increasing index order,
 * each already in @mapping, locked, with an I/O reference) to ->readpages
 * and make sure each one ends up on the LRU list. The implementations in
 * this tree take every page off @pages and lru_cache_add() it themselves;
 * any page still on the list afterwards is put there here, so a
 * ->readpages that leaves the list alone cannot leak unreclaimable pages.
 */
static int read_pages(struct address_space *mapping, struct file *filp,
		      struct list_head *pages, unsigned int nr_pages)
{
	int err = 0;

	if (mapping->a_ops->readpages) {
		err = mapping->a_ops->readpages(mapping, filp, pages, nr_pages);
	} else {
		/* Only ->readpage: the window is still read, a page at a time (as the seed). */
		while (!list_empty(pages)) {
			struct page *page = list_first_entry(pages, struct page, lru);
			int e;

			list_del(&page->lru);
			lru_cache_add(page);
			e = mapping->a_ops->readpage(filp, page);
			if (e && !err)
				err = e;
		}
	}
	while (!list_empty(pages)) {
		struct page *page = list_first_entry(pages, struct page, lru);

		list_del(&page->lru);
		if (!PageLRU(page))
			lru_cache_add(page);
	}
	return err;
}

int __do_page_cache_readahead(struct address_space *mapping, struct file *filp,
			      pgoff_t offset, unsigned long nr_to_read,
			      unsigned long lookahead_size)
{
	LIST_HEAD(page_pool);
	pgoff_t end_index;
	unsigned long i;
	uint32_t window = 0;
	uint64_t born_ns = 0;
	int ret = 0;

	if (!mapping->a_ops || (!mapping->a_ops->readpages && !mapping->a_ops->readpage))
		return -EINVAL;
	if (mapping->size <= 0 || nr_to_read == 0)
		return 0;
	/* bench ra_async=0: no look-ahead mark, whatever the algorithm asked */
	if (filp && filp->f_ra.no_lookahead)
		lookahead_size = 0;
	end_index = (pgoff_t)((mapping->size - 1) >> PAGE_CACHE_SHIFT);

	/*
	 * Allocate every missing page first and submit them together, so the
	 * filesystem sees the whole window and can build the fewest bios.
	 */
	for (i = 0; i < nr_to_read; i++) {
		pgoff_t index = offset + i;
		struct page *page;
		int err;

		if (index > end_index || index < offset)
			break;
		page = find_get_page(mapping, index);
		if (page) {
			page_cache_release(page);
			continue;
		}
		page = page_cache_alloc(mapping);
		if (!page)
			break;
		if (!window) {
			window = ra_window_number(nr_to_read);
			born_ns = ktime_ns();
		}
		/*
		 * Flags first: once the page is in the cache a reader can find
		 * it, and must then see the look-ahead mark. Only new pages get
		 * the mark, so a cached file never triggers readahead-for-nothing.
		 */
		set_page_ra_window(page, window);
		if (i == nr_to_read - lookahead_size)
			SetPageReadahead(page);
		SetPageReadaheadIO(page);
		ra_page_born(page, born_ns);
		err = add_to_page_cache(page, mapping, index);
		if (err) {
			/* -EEXIST: someone added it while we allocated; else no memory */
			ClearPageReadahead(page);
			ClearPageReadaheadIO(page);
			page_cache_release(page);
			if (err == -EEXIST)
				continue;
			break;
		}
		/* The allocation's reference becomes the I/O's reference. */
		list_add_tail(&page->lru, &page_pool);
		ret++;
	}
	if (ret) {
		ra_window_submitted(filp ? &filp->f_ra : NULL);
		read_pages(mapping, filp, &page_pool, (unsigned int)ret);
	}
	return ret;
}

/* --- windows of folios (ra=linux's mechanism, Linux's read_pages()) -------------------- */

void ra_batch_begin(struct ra_batch *b, const struct file_ra_state *ra,
		    unsigned long window_pages)
{
	b->no_marks = ra && ra->no_lookahead;
	b->folios = ra && ra->algo && (ra->algo->flags & RA_ALGO_FOLIOS);
	INIT_LIST_HEAD(&b->pages);
	b->nr = 0;
	b->window_pages = window_pages;
	b->window = 0;
	b->born_ns = 0;
	b->submitted = 0;
}

/* Drop the frames on @list (not in any cache yet). */
static void release_frames(struct list_head *list)
{
	while (!list_empty(list)) {
		struct page *page = list_first_entry(list, struct page, lru);

		list_del(&page->lru);
		page_cache_release(page);
	}
}

/* 2^@order frames onto @folio: __GFP_NORETRY for a folio algorithm, else reclaiming. */
static int batch_alloc(struct address_space *mapping, const struct ra_batch *b,
		       unsigned int order, struct list_head *folio)
{
	struct page *page;

	if (b->folios)
		return page_cache_alloc_folio(mapping, order, folio);
	/* order 0 (ra_batch_add_folio() refuses more): as page_cache_alloc() */
	page = page_cache_alloc(mapping);
	if (!page)
		return -ENOMEM;
	list_add_tail(&page->lru, folio);
	return 0;
}

int ra_batch_add_folio(struct address_space *mapping, struct ra_batch *b, pgoff_t index,
		       unsigned int order, bool mark)
{
	unsigned long n = 1UL << order, i;
	LIST_HEAD(folio);
	int err;

	if (order > RA_MAX_FOLIO_ORDER || index & (n - 1))
		return -EINVAL;
	if (order && !b->folios) {
		pr_err("readahead: a folio of order %u from an algorithm without RA_ALGO_FOLIOS\n",
		       order);
		return -EINVAL;
	}
	/* a folio goes in whole or not at all (Linux's xarray refuses an overlap) */
	for (i = 0; i < n; i++) {
		struct page *page = find_get_page(mapping, index + i);

		if (page) {
			page_cache_release(page);
			return -EEXIST;
		}
	}
	err = batch_alloc(mapping, b, order, &folio);
	if (err)
		return err;
	if (!b->window) {
		b->window = ra_window_number(b->window_pages);
		b->born_ns = ktime_ns();
	}
	for (i = 0; i < n; i++) {
		struct page *page = list_first_entry(&folio, struct page, lru);

		list_del(&page->lru);
		set_page_ra_window(page, b->window);
		set_page_folio_order(page, order);
		/* the folio's mark: on each of its pages, so a reader meets it on any */
		if (mark && !b->no_marks)
			SetPageReadahead(page);
		SetPageReadaheadIO(page);
		ra_page_born(page, b->born_ns);
		err = add_to_page_cache(page, mapping, index + i);
		if (err) {
			/* only memory for the index can fail here: nobody else adds pages */
			page_cache_release(page);
			release_frames(&folio);
			return err;
		}
		list_add_tail(&page->lru, &b->pages);
		b->nr++;
	}
	return 0;
}

unsigned long ra_batch_read(struct address_space *mapping, struct file *filp,
			    struct ra_batch *b)
{
	unsigned long nr = b->nr;

	if (nr) {
		read_pages(mapping, filp, &b->pages, b->nr);
		INIT_LIST_HEAD(&b->pages);
		b->submitted += nr;
		b->nr = 0;
	}
	return nr;
}

void ra_batch_end(struct file *filp, struct ra_batch *b)
{
	if (b->submitted)
		ra_window_submitted(filp ? &filp->f_ra : NULL);
}

int do_page_cache_readahead(struct address_space *mapping, struct file *filp,
			    pgoff_t offset, unsigned long nr_to_read)
{
	if (bdi_read_congested(mapping->backing_dev_info))
		return -EAGAIN;
	return __do_page_cache_readahead(mapping, filp, offset, nr_to_read, 0);
}

/* Chunk size of forced readahead: bounds the pages pinned by one ->readpages. */
#define FORCE_CHUNK_PAGES	(2 * 1024 * 1024 / PAGE_CACHE_SIZE)

int force_page_cache_readahead(struct address_space *mapping, struct file *filp,
			       pgoff_t offset, unsigned long nr_to_read)
{
	struct file_ra_state *ra = filp ? &filp->f_ra : NULL;
	unsigned long requested = nr_to_read;
	pgoff_t start = offset;
	int ret = 0;

	if (!mapping->a_ops || (!mapping->a_ops->readpages && !mapping->a_ops->readpage))
		return -EINVAL;
	nr_to_read = max_sane_readahead(nr_to_read);
	while (nr_to_read) {
		unsigned long chunk = min_t(unsigned long, FORCE_CHUNK_PAGES, nr_to_read);
		int err = __do_page_cache_readahead(mapping, filp, offset, chunk, 0);

		if (err < 0) {
			ret = err;
			break;
		}
		ret += err;
		offset += chunk;
		nr_to_read -= chunk;
	}
	if (ra) {
		struct ra_call call = { .rcase = RA_CASE_FORCED, .async = true };

		ra_call_note_io(&call, ret > 0 ? (unsigned long)ret : 0, true);
		ra_trace_record(mapping, ra, start, requested, &call, start, requested, 0);
	}
	return ret;
}

/* --- call sites of the read paths that algorithms may leave to the core ---------------- */

bool ra_read_as_is(struct address_space *mapping, struct file_ra_state *ra, struct file *filp,
		   pgoff_t offset, unsigned long req_size)
{
	struct ra_call call = { .rcase = RA_CASE_FADV_RANDOM };
	int actual = __do_page_cache_readahead(mapping, filp, offset, req_size, 0);

	ra_call_note_io(&call, actual > 0 ? (unsigned long)actual : 0, false);
	ra_trace_record(mapping, ra, offset, req_size, &call, offset, req_size, 0);
	return true;
}

void ra_readdir_generic(struct file *filp, struct address_space *bd_mapping, pgoff_t index)
{
	struct file_ra_state *ra = &filp->f_ra;

	/*
	 * Directory readahead works on the block device, not the directory:
	 * the blocks need not be contiguous. The read routine says nothing
	 * about the page's state, so readahead is called whenever the block
	 * falls outside the readahead window.
	 */
	if (!ra_has_index(ra, index))
		ra->algo->sync(bd_mapping, ra, filp, index, 1);
	ra->prev_index = index;
}

void ra_dir_readahead(struct file *filp, struct address_space *bd_mapping, pgoff_t index)
{
	const struct ra_algorithm *algo = filp->f_ra.algo;

	if (algo->readdir)
		algo->readdir(filp, bd_mapping, index);
	else
		ra_readdir_generic(filp, bd_mapping, index);
}

void ra_mmap_read_around(struct file *file, pgoff_t pgoff)
{
	struct address_space *mapping = file->f_mapping;
	struct file_ra_state *ra = &file->f_ra;
	unsigned long ra_pages = max_sane_readahead(ra->ra_pages);
	struct ra_call call = { .rcase = RA_CASE_AROUND };
	pgoff_t start = 0;
	int actual;

	if (!ra_pages)
		return;
	if (pgoff > ra_pages / 2)
		start = pgoff - ra_pages / 2;
	actual = do_page_cache_readahead(mapping, file, start, ra_pages);
	call.congested = actual == -EAGAIN;
	ra_call_note_io(&call, actual > 0 ? (unsigned long)actual : 0, false);
	ra_trace_record(mapping, ra, pgoff, 1, &call, start, ra_pages, 0);
}

/*
 * 2.6.23's filemap_fault(): mmap_hit and mmap_miss count the faults that
 * found their page and the ones that did not; read-around is given up for
 * the file while misses outnumber hits by MMAP_LOTSAMISS. A fault served by
 * read-around does not count as a hit; one read alone then found does.
 */
void ra_fault_sync_generic(struct file *file, pgoff_t pgoff, enum filemap_advice advice)
{
	struct address_space *mapping = file->f_mapping;
	struct file_ra_state *ra = &file->f_ra;

	/* No readahead wanted: the fault reads its page alone, then finds it. */
	if (advice == FAULT_ADV_RANDOM) {
		ra->mmap_hit++;
		return;
	}
	if (advice == FAULT_ADV_SEQUENTIAL) {
		/* For sequential accesses, use the generic readahead logic. */
		struct page *page;

		ra->algo->sync(mapping, ra, file, pgoff, 1);
		page = find_get_page(mapping, pgoff);
		if (page) {
			if (PageReadahead(page) && ra->algo->async)
				ra->algo->async(mapping, ra, file, page, pgoff, 1);
			page_cache_release(page);
		}
		ra->mmap_hit++;
		return;
	}
	ra->mmap_miss++;
	/* Missing much more than hitting in this file? Read-around only hurts. */
	if (ra->mmap_miss > ra->mmap_hit + MMAP_LOTSAMISS) {
		ra->mmap_hit++;
		return;
	}
	ra_mmap_read_around(file, pgoff);
}

void ra_fault_async_generic(struct file *file, struct page *page, pgoff_t pgoff,
			    enum filemap_advice advice)
{
	struct file_ra_state *ra = &file->f_ra;

	if (advice == FAULT_ADV_SEQUENTIAL && PageReadahead(page) && ra->algo->async)
		ra->algo->async(file->f_mapping, ra, file, page, pgoff, 1);
	ra->mmap_hit++;
}

/*
 * readahead(8)'s two figures, kept exactly in virtual time: when each pool
 * frame was read ahead, in nanoseconds (microseconds would make the
 * buckets, and their instructions, depend on where in its microsecond a
 * run began), and at its first use, the lead since then.
 */
static uint64_t *ra_born_ns;
static unsigned long ra_born_pages;

bool ra_lead_init(unsigned long pool_pages)
{
	size_t bytes = pool_pages * sizeof(*ra_born_ns);

	ra_born_ns = NULL;
	ra_born_pages = 0;
	if (!pool_pages)
		return true;	/* the host tests' way to forget an arena's array */
	/* an instrument: from RAM outside the page cache and the heap if there is room */
	ra_born_ns = mm_spare_alloc(bytes);
	if (!ra_born_ns)
		ra_born_ns = kzalloc(bytes);
	ra_born_pages = ra_born_ns ? pool_pages : 0;
	return ra_born_ns != NULL;
}

void ra_page_born(struct page *page, uint64_t now_ns)
{
	if (PageCachePool(page) && page->pool_nr < ra_born_pages)
		ra_born_ns[page->pool_nr] = now_ns;
}

void ra_page_used(struct file_ra_state *ra, struct page *page)
{
	if (TestClearPageReadaheadIO(page)) {
		ra->stats.hit_pages++;
		ra_global_stats.hit_pages++;
		if (PageCachePool(page) && page->pool_nr < ra_born_pages) {
			uint64_t lead = (ktime_ns() - ra_born_ns[page->pool_nr]) / NSEC_PER_USEC;
			/* floor(log2), 0 for 0 and 1: the same instructions whatever the lead */
			unsigned int b = 63 - (unsigned int)__builtin_clzll(lead | 1);

			b = min(b, RA_LEAD_BUCKETS - 1U);
			ra->stats.lead[b]++;
			ra_global_stats.lead[b]++;
		}
	}
}
