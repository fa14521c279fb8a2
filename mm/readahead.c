/*
 * The readahead core: the registry of algorithms (RA_ALGORITHM()), the
 * per-file state, and the mechanism every algorithm shares:
 * __do_page_cache_readahead() allocates a window's missing pages and hands
 * them to ->readpages in one call, get_init_ra_size()/get_next_ra_size()
 * size windows as the seeds do, and the 2.6 mmap read-around and readdir
 * call sites serve algorithms that do not bring their own. Host-buildable.
 *
 * The policies are in mm/readahead-*.c. Boot: mm/racmd.c calls
 * readahead_init() with the ra= and ra_kb= values.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "mm/backing-dev.h"
#include "kernel/log.h"
#include "kernel/time.h"
#include "mm/file.h"
#include "mm/mm.h"
#include "mm/readahead.h"

/* The one with RA_ALGO_DEFAULT (the registry sets it); NULL in a tree without. */
const struct ra_algorithm *ra_default_algo;
unsigned long ra_default_pages = MAX_RA_PAGES;
bool ra_default_pages_set;

/* --- the registry ------------------------------------------------------------------ */

/* weak: a host program that links no algorithm has an empty registry */
extern const struct ra_algorithm *const __start_ra_algorithms[] __attribute__((weak));
extern const struct ra_algorithm *const __stop_ra_algorithms[] __attribute__((weak));

/* More than any tree needs; ra_algo_at() says so once if a build ever has more. */
#define RA_MAX_ALGOS	32

static const struct ra_algorithm *ra_sorted[RA_MAX_ALGOS];
static const char *ra_sorted_names[RA_MAX_ALGOS + 1];
static unsigned int ra_nr_sorted;

/*
 * Number the algorithms' own trace cases after the shared ones, in the
 * registry's order, and find the default algorithm. An algorithm whose
 * cases do not fit in RA_NR_CASES is left out of the registry, loudly.
 */
static void ra_registry_cases(void)
{
	unsigned int base = RA_NR_SHARED_CASES, kept = 0;

	for (unsigned int i = 0; i < ra_nr_sorted; i++) {
		const struct ra_algorithm *a = ra_sorted[i];

		if (a->nr_cases && (!a->case_base || base + a->nr_cases > RA_NR_CASES)) {
			pr_err("readahead: %s: its %u trace cases do not fit (%u of %u taken), so it "
			       "is left out\n", a->name, a->nr_cases, base, RA_NR_CASES);
			continue;
		}
		if (a->nr_cases) {
			*a->case_base = base;
			base += a->nr_cases;
		}
		if ((a->flags & RA_ALGO_DEFAULT) && !ra_default_algo)
			ra_default_algo = a;
		ra_sorted[kept] = a;
		ra_sorted_names[kept++] = a->name;
	}
	ra_nr_sorted = kept;
	ra_sorted_names[kept] = NULL;
}

/*
 * The section holds the algorithms in link order, which differs between the
 * kernel and the host programs: sort them by name, once, so that lists and
 * tables come out the same everywhere.
 */
static void ra_registry_sort(void)
{
	const struct ra_algorithm *const *p;

	for (p = __start_ra_algorithms; p < __stop_ra_algorithms; p++) {
		unsigned int i;

		if (ra_nr_sorted == RA_MAX_ALGOS) {
			pr_err("readahead: more than %d algorithms registered, %s and later left out\n",
			       RA_MAX_ALGOS, (*p)->name);
			break;
		}
		for (i = ra_nr_sorted; i > 0 && strcmp(ra_sorted[i - 1]->name, (*p)->name) > 0; i--)
			ra_sorted[i] = ra_sorted[i - 1];
		ra_sorted[i] = *p;
		ra_nr_sorted++;
	}
	for (unsigned int i = 0; i < ra_nr_sorted; i++)
		ra_sorted_names[i] = ra_sorted[i]->name;
	ra_registry_cases();
}

const struct ra_algorithm *ra_algo_at(unsigned int i)
{
	if (!ra_nr_sorted)
		ra_registry_sort();
	return i < ra_nr_sorted ? ra_sorted[i] : NULL;
}

const char *const *ra_algo_names(void)
{
	ra_algo_at(0);
	return ra_sorted_names;
}

const struct ra_algorithm *ra_algo_find(const char *name)
{
	const struct ra_algorithm *algo;

	for (unsigned int i = 0; (algo = ra_algo_at(i)); i++)
		if (!strcmp(algo->name, name))
			return algo;
	return NULL;
}

unsigned int ra_algo_all(const struct ra_algorithm **out, unsigned int max)
{
	const struct ra_algorithm *a;
	unsigned int n = 0;

	/* the seeds' pair in its order, then the others by name */
	for (unsigned int order = 1; order <= 2; order++)
		for (unsigned int i = 0; (a = ra_algo_at(i)); i++)
			if (a->order == order && !(a->flags & RA_ALGO_NO_WINDOW) && n < max)
				out[n++] = a;
	for (unsigned int i = 0; (a = ra_algo_at(i)); i++)
		if (!a->order && !(a->flags & RA_ALGO_NO_WINDOW) && n < max)
			out[n++] = a;
	return n;
}

const char *ra_algo_list(char *buf, size_t len)
{
	const struct ra_algorithm *algo;
	size_t n = 0;

	if (len)
		buf[0] = '\0';
	for (unsigned int i = 0; (algo = ra_algo_at(i)) && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? "|" : "", algo->name);
	return buf;
}

int readahead_init(const struct ra_algorithm *algo, unsigned long max_pages)
{
	if (!algo || max_pages > RA_MAX_WINDOW || ((algo->flags & RA_ALGO_NO_WINDOW) && max_pages))
		return -EINVAL;
	ra_algo_at(0);
	ra_default_algo = algo;
	ra_default_pages = max_pages;
	readahead_thrashed_hook = ra_page_thrashed;
	return 0;
}

/* --- per-file state ------------------------------------------------------------------ */

static void ra_reset_window(struct file_ra_state *ra)
{
	ra->la_index = ra->ra_index = ra->lookahead_index = ra->readahead_index = 0;
	ra->mmap_hit = ra->mmap_miss = 0;
	memset(ra->priv, 0, sizeof(ra->priv));
	/* -1: the first read, at offset 0, looks sequential to every algorithm */
	ra->prev_index = -1UL;
	ra->prev_offset = 0;
	ra->prev_pos = -1;
}

void file_ra_state_init(struct file_ra_state *ra, struct address_space *mapping)
{
	memset(ra, 0, sizeof(*ra));
	ra_reset_window(ra);
	ra->mapping = mapping;
	ra->thrashed_base = mapping ? mapping->ra_thrashed : 0;
	ra->thrashed_windows_base = mapping ? mapping->ra_thrashed_windows : 0;
	/* 2.6.22: the maximum window is the device's (bdi.ra_pages, blockdev --setra) */
	if (mapping && mapping->backing_dev_info)
		ra->ra_pages = mapping->backing_dev_info->ra_pages;
	else
		ra->ra_pages = ra_default_pages;
	file_ra_set_algo(ra, ra_default_algo);
}

void file_ra_set_algo(struct file_ra_state *ra, const struct ra_algorithm *algo)
{
	struct backing_dev_info *bdi = ra->mapping ? ra->mapping->backing_dev_info : NULL;

	ra_reset_window(ra);
	ra->algo = algo;
	if (algo->init)
		algo->init(ra);
	if (algo->flags & RA_ALGO_NO_WINDOW)
		ra->ra_pages = 0;
	else if (bdi && !bdi->ra_pages_set && algo->default_ra_pages)
		/* nobody chose the device's window: the algorithm's kernel's own default */
		ra->ra_pages = min_t(unsigned long, algo->default_ra_pages(bdi), RA_MAX_WINDOW);
	else if (ra->ra_pages == 0 || (bdi && !bdi->ra_pages_set))
		ra->ra_pages = bdi ? bdi->ra_pages : ra_default_pages;
}

int file_ra_set_max_pages(struct file_ra_state *ra, unsigned long pages)
{
	if (pages > RA_MAX_WINDOW || ((ra->algo->flags & RA_ALGO_NO_WINDOW) && pages))
		return -EINVAL;
	ra->ra_pages = pages;
	return 0;
}

const char *const ra_fadvise_names[] = { "normal", "sequential", "random", "willneed", NULL };

int file_ra_fadvise(struct file *filp, loff_t offset, loff_t len, enum ra_fadvise advice)
{
	struct file_ra_state *ra = &filp->f_ra;
	pgoff_t start, end;

	if (offset < 0 || len < 0)
		return -EINVAL;
	if (ra->algo->fadvise)
		return ra->algo->fadvise(filp, offset, len, advice);
	switch (advice) {
	case FADV_NORMAL:
	case FADV_RANDOM:
		if (ra->advice == FADV_SEQUENTIAL)
			ra->ra_pages = ra->advice_pages;
		ra->advice = advice;
		ra->read_as_is = advice == FADV_RANDOM;
		return 0;
	case FADV_SEQUENTIAL:
		if (ra->advice != FADV_SEQUENTIAL) {
			ra->advice_pages = ra->ra_pages;
			ra->ra_pages = min_t(unsigned long, 2 * ra->ra_pages, RA_MAX_WINDOW);
		}
		ra->advice = advice;
		ra->read_as_is = false;
		return 0;
	case FADV_WILLNEED:
		if (filp->f_mapping->size <= 0 || offset >= filp->f_mapping->size)
			return 0;
		start = (pgoff_t)(offset >> PAGE_CACHE_SHIFT);
		if (!len || len > filp->f_mapping->size - offset)
			len = filp->f_mapping->size - offset;
		end = (pgoff_t)((offset + len - 1) >> PAGE_CACHE_SHIFT);
		return force_page_cache_readahead(filp->f_mapping, filp, start, end - start + 1);
	default:
		return -EINVAL;
	}
}

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
	INIT_LIST_HEAD(&b->pages);
	b->nr = 0;
	b->window_pages = window_pages;
	b->window = 0;
	b->born_ns = 0;
	b->submitted = 0;
}

int ra_batch_add_folio(struct address_space *mapping, struct ra_batch *b, pgoff_t index,
		       unsigned int order, bool mark)
{
	unsigned long n = 1UL << order, i;
	LIST_HEAD(folio);

	if (order > RA_MAX_FOLIO_ORDER || index & (n - 1))
		return -EINVAL;
	/* a folio goes in whole or not at all (Linux's xarray refuses an overlap) */
	for (i = 0; i < n; i++) {
		struct page *page = find_get_page(mapping, index + i);

		if (page) {
			page_cache_release(page);
			return -EEXIST;
		}
	}
	for (i = 0; i < n; i++) {
		struct page *page = page_cache_alloc(mapping);

		if (!page) {
			while (!list_empty(&folio)) {
				page = list_first_entry(&folio, struct page, lru);
				list_del(&page->lru);
				page_cache_release(page);
			}
			return -ENOMEM;
		}
		list_add_tail(&page->lru, &folio);
	}
	if (!b->window) {
		b->window = ra_window_number(b->window_pages);
		b->born_ns = ktime_ns();
	}
	for (i = 0; i < n; i++) {
		struct page *page = list_first_entry(&folio, struct page, lru);
		int err;

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
			while (!list_empty(&folio)) {
				page = list_first_entry(&folio, struct page, lru);
				list_del(&page->lru);
				page_cache_release(page);
			}
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

unsigned long ra_submit(struct file_ra_state *ra, struct address_space *mapping,
			struct file *filp)
{
	int actual = __do_page_cache_readahead(mapping, filp, ra->ra_index,
					       ra_readahead_size(ra), ra_lookahead_size(ra));

	return actual > 0 ? (unsigned long)actual : 0;
}

/*
 * Set the initial window size: round the request up to a power of two,
 * then x4 for small requests, x2 for medium ones, and the maximum for
 * large ones. For a 128 KiB (32 page) maximum: a request of 1-2 pages gets
 * 4 pages, 3-4 get 8, 5-8 get 16, more get 32.
 */
unsigned long get_init_ra_size(unsigned long size, unsigned long max)
{
	unsigned long newsize = roundup_pow_of_two(size);

	if (newsize <= max / 32)
		newsize = newsize * 4;
	else if (newsize <= max / 4)
		newsize = newsize * 2;
	else
		newsize = max;
	return newsize;
}

/*
 * Get the previous window size, ramp it up (x4 while far below the
 * maximum, then x2) and return it as the new window size.
 */
unsigned long get_next_ra_size(const struct file_ra_state *ra, unsigned long max)
{
	return ra_next_size(ra->readahead_index - ra->ra_index, max);
}

unsigned long ra_next_size(unsigned long cur, unsigned long max)
{
	unsigned long newsize;

	if (cur < max / 16)
		newsize = 4 * cur;
	else
		newsize = 2 * cur;
	return min(newsize, max);
}

bool ra_ondemand_entry(struct address_space *mapping, struct file_ra_state *ra, struct page *page,
		       pgoff_t offset, unsigned long req_size, struct ra_call *call)
{
	*call = (struct ra_call){ .async = page != NULL };
	call->congested = bdi_read_congested(mapping->backing_dev_info);
	if (!ra->ra_pages) {
		/* no readahead: another reader's look-ahead mark stays where it is */
		call->rcase = RA_CASE_OFF;
		ra_trace_record(mapping, ra, offset, req_size, call, offset, 0, 0);
		return false;
	}
	if (page) {
		ClearPageReadahead(page);
		/*
		 * Defer asynchronous readahead while the queue is congested:
		 * the reader is not waiting yet, and the pages it will miss
		 * are read then, synchronously.
		 */
		if (call->congested) {
			call->rcase = RA_CASE_CONGESTED;
			call->deferred = true;
			ra_trace_record(mapping, ra, offset, req_size, call, offset, 0, 0);
			return false;
		}
	}
	return true;
}

bool ra_read_as_is(struct address_space *mapping, struct file_ra_state *ra, struct file *filp,
		   pgoff_t offset, unsigned long req_size)
{
	struct ra_call call = { .rcase = RA_CASE_FADV_RANDOM };
	int actual = __do_page_cache_readahead(mapping, filp, offset, req_size, 0);

	ra_call_note_io(&call, actual > 0 ? (unsigned long)actual : 0, false);
	ra_trace_record(mapping, ra, offset, req_size, &call, offset, req_size, 0);
	return true;
}

/* --- call sites of the read paths that algorithms may leave to the core ---------------- */

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
