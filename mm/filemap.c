/*
 * The generic read paths over the page cache: read(2) (do_generic_mapping_read),
 * the mmap fault path (filemap_fault) and the splice path
 * (generic_file_splice_read). Each one calls the file's readahead
 * algorithm through its hooks (struct ra_algorithm), at the places patches
 * 007 and 008 of the seeds put the calls:
 *
 *	->request	for every request, at the index it asked to be called at
 *			next (2.6.20's page_cache_readahead()), if the algorithm
 *			has one;
 *	->sync		on a missing page, then the page is looked up again if
 *			the hook may have brought it in, else read alone;
 *	->async		on a page marked PG_readahead;
 *	prev_index	updated when the request is done, unless the algorithm
 *			keeps it itself (->read_end).
 *
 * A file advised FADV_RANDOM never calls its algorithm: a missing page is
 * read with the rest of the request, as is (ra_read_as_is()).
 *
 * A page whose I/O failed is read once more with ->readpage; if that fails
 * too the read fails with -EIO and a message naming the file and offset.
 * Every wait for I/O ends once its disk stalls (FILEMAP_IO_STALL_NS without a
 * completion, wait_on_page_io()). Host-buildable.
 *
 * The read(2) path and the helpers it shares with the others are in
 * mm/filemap-read.h, which mm/filemap-actor.c compiles a second time with
 * an actor (that header says why two compilations).
 */
#include <string.h>

#include "mm/backing-dev.h"
#include "kernel/log.h"
#include "kernel/sched.h"
#include "kernel/time.h"
#include "mm/filemap.h"
#include "mm/filemap-read.h"

const char *const filemap_advice_names[] = { "normal", "sequential", "random", "exec", "hugepage",
					      NULL };

/* Lock @page, waiting for whoever holds it (normally its I/O) while its disk makes progress. */
static int lock_page_bounded(struct file *filp, struct page *page)
{
	while (!trylock_page(page)) {
		uint64_t waited;

		if (!wait_on_page_io(page, filp->f_mapping->backing_dev_info, FILEMAP_IO_STALL_NS,
				     &waited)) {
			pr_err("%s: page %lu: still locked: the disk completed no request for "
			       "%llu s (waited %llu s)\n",
			       file_name(filp), page->index,
			       (unsigned long long)(FILEMAP_IO_STALL_NS / NSEC_PER_SEC),
			       (unsigned long long)(waited / NSEC_PER_SEC));
			return -ETIMEDOUT;
		}
	}
	return 0;
}

/* --- the fault path -------------------------------------------------------------- */

/*
 * Linux locks a folio, not a page, and a folio's lock is released when all
 * of it is read. Here each page is unlocked by its own bio vector, and one
 * large folio can be read by two requests (its blocks broken by an indirect
 * block), so a fault that finds its page read must also find the rest of
 * the folio: is any other page of @page's folio still locked?
 */
static bool folio_rest_locked(struct address_space *mapping, struct page *page)
{
	pgoff_t first = page_folio_index(page), n = 1UL << page_folio_order(page);
	bool locked = false;

	for (pgoff_t i = first; i < first + n && n > 1 && !locked; i++) {
		struct page *p = i == page->index ? NULL : find_get_page(mapping, i);

		if (p) {
			locked = PageLocked(p);
			page_cache_release(p);
		}
	}
	return locked;
}

/* Wait for the rest of @page's folio to be read, as folio_lock() would. */
static int wait_folio_rest(struct file *filp, struct page *page)
{
	pgoff_t first = page_folio_index(page), n = 1UL << page_folio_order(page);

	for (pgoff_t i = first; i < first + n && n > 1; i++) {
		struct page *p = i == page->index ? NULL : find_get_page(filp->f_mapping, i);
		uint64_t waited;
		bool done;

		if (!p)
			continue;
		done = wait_on_page_io(p, filp->f_mapping->backing_dev_info, FILEMAP_IO_STALL_NS,
				       &waited);
		page_cache_release(p);
		if (!done) {
			pr_err("%s: page %lu of the folio at %lu: still locked: the disk completed "
			       "no request for %llu s (waited %llu s)\n",
			       file_name(filp), i, first,
			       (unsigned long long)(FILEMAP_IO_STALL_NS / NSEC_PER_SEC),
			       (unsigned long long)(waited / NSEC_PER_SEC));
			return -ETIMEDOUT;
		}
	}
	return 0;
}

/*
 * find_lock_page() with a bounded wait: the page at @index locked and
 * referenced, NULL if absent, ERR_PTR(-ETIMEDOUT).
 */
static struct page *find_lock_page_bounded(struct file *filp, pgoff_t index)
{
	struct address_space *mapping = filp->f_mapping;

	for (int tries = 0; tries < FILEMAP_MAX_LOOKUPS; tries++) {
		struct page *page = find_get_page(mapping, index);
		int err;

		if (!page)
			return NULL;
		err = lock_page_bounded(filp, page);
		if (err) {
			page_cache_release(page);
			return ERR_PTR(err);
		}
		/* It may have been evicted while we waited. */
		if (page->mapping == mapping && page->index == index)
			return page;
		unlock_page(page);
		page_cache_release(page);
	}
	pr_err("%s: page %lu keeps leaving the cache\n", file_name(filp), index);
	return ERR_PTR(-EIO);
}

/* page_cache_read(): put page @index in the cache and start reading it. */
static int page_cache_read(struct file *filp, pgoff_t index)
{
	struct page *page = read_new_page(filp, index);

	if (IS_ERR(page))
		return PTR_ERR(page) == -EEXIST ? 0 : (int)PTR_ERR(page);
	page_cache_release(page);
	return 0;
}

/*
 * The algorithm's hooks run after a first lookup and before the fault waits
 * for its page, as in 2.6.20's filemap_nopage() and today's filemap_fault()
 * (2.6.23 looked for the mark after locking the page): an asynchronous
 * window is under way while the reader waits. Retries after a page was read
 * alone do not call them again.
 */
struct page *filemap_fault(struct file *file, pgoff_t pgoff, enum filemap_advice advice,
			   int *err)
{
	struct address_space *mapping = file->f_mapping;
	struct file_ra_state *ra = &file->f_ra;
	const struct ra_algorithm *algo = ra->algo;
	int reads = 0, retries = 0;
	struct page *page;
	pgoff_t size;

	size = (pgoff_t)((mapping->size + (loff_t)PAGE_CACHE_SIZE - 1) >> PAGE_CACHE_SHIFT);
	if (mapping->size <= 0 || pgoff >= size) {
		*err = -EFAULT;
		return NULL;
	}

	page = find_get_page(mapping, pgoff);
	ra->fault_waited = !page || PageLocked(page) || PageReadahead(page) ||
			   folio_rest_locked(mapping, page);
	if (!page) {
		if (algo->fault_sync)
			algo->fault_sync(file, pgoff, advice);
		else
			ra_fault_sync_generic(file, pgoff, advice);
		goto retry_find;
	}
	if (algo->fault_async)
		algo->fault_async(file, page, pgoff, advice);
	else
		ra_fault_async_generic(file, page, pgoff, advice);
	*err = lock_page_bounded(file, page);
	if (*err) {
		page_cache_release(page);
		return NULL;
	}
	if (page->mapping == mapping)
		goto found;
	/* Evicted while we waited for it. */
	unlock_page(page);
	page_cache_release(page);

retry_find:
	page = find_lock_page_bounded(file, pgoff);
	if (IS_ERR(page)) {
		*err = (int)PTR_ERR(page);
		return NULL;
	}
	if (!page)
		goto no_cached_page;
found:
	/* A locked page that is not uptodate: its read failed. */
	if (!PageUptodate(page))
		goto page_not_uptodate;
	*err = wait_folio_rest(file, page);
	if (*err) {
		unlock_page(page);
		page_cache_release(page);
		return NULL;
	}

	ra_page_used(ra, page);
	mark_page_accessed(page);
	ra_fault_end(ra, page->index);
	*err = 0;
	return page;

no_cached_page:
	/* Mostly with FAULT_ADV_RANDOM: read just this page, then find it. */
	if (++reads > FILEMAP_MAX_LOOKUPS) {
		pr_err("%s: page %lu keeps leaving the cache\n", file_name(file), pgoff);
		*err = -EIO;
		return NULL;
	}
	*err = page_cache_read(file, pgoff);
	if (*err)
		return NULL;
	goto retry_find;

page_not_uptodate:
	/* Read it once more, synchronously, to see whether the error persists. */
	if (retries++) {
		unlock_page(page);
		page_cache_release(page);
		pr_err("%s: read error at offset %llu (page %lu) after one retry\n",
		       file_name(file), (unsigned long long)pgoff << PAGE_CACHE_SHIFT, pgoff);
		*err = -EIO;
		return NULL;
	}
	start_readpage(file, page);
	*err = wait_page_io(file, page);
	page_cache_release(page);
	if (*err)
		return NULL;
	goto retry_find;
}

/* --- the splice path -------------------------------------------------------------- */

/*
 * Look up @nr_pages pages from @index into @pages, referenced: a missing
 * one first through the file's algorithm, as the read path does ("make sure
 * the readahead engine hears about the miss"), else added to the cache
 * unlocked and not read (splice_page_start() reads it). Returns how many it
 * has; when fewer than @nr_pages, *@error says why.
 */
static unsigned int splice_find_pages(struct file *in, pgoff_t index, unsigned int nr_pages,
				      struct page **pages, int *error)
{
	struct address_space *mapping = in->f_mapping;
	struct file_ra_state *ra = &in->f_ra;
	const struct ra_algorithm *algo = ra->algo;
	bool as_is = ra->read_as_is;
	unsigned int n = 0;

	while (n < nr_pages) {
		struct page *page = find_get_page(mapping, index);

		if (!page && (as_is ? ra_read_as_is(mapping, ra, in, index, nr_pages - n)
				    : algo->sync(mapping, ra, in, index, nr_pages - n)))
			page = find_get_page(mapping, index);
		if (!page) {
			int err;

			page = page_cache_alloc(mapping);
			if (!page) {
				*error = -ENOMEM;
				break;
			}
			err = add_to_page_cache_lru(page, mapping, index);
			if (err) {
				page_cache_release(page);
				if (err == -EEXIST)
					continue;
				*error = err;
				break;
			}
			/* add_to_page_cache() locked it; splice_page_start() reads it. */
			unlock_page(page);
		}
		pages[n++] = page;
		index++;
	}
	return n;
}

/*
 * Before @page (at @index, @left pages before the end of the request) goes
 * into the pipe: the algorithm's ->async on a PG_readahead page, and its
 * read started if it is not uptodate. 0, -EAGAIN when it left the cache
 * meanwhile (it does not go in), or -errno.
 */
static int splice_page_start(struct file *in, struct page *page, pgoff_t index,
			     unsigned int left)
{
	struct file_ra_state *ra = &in->f_ra;
	const struct ra_algorithm *algo = ra->algo;
	int err;

	if (algo->async && !ra->read_as_is && PageReadahead(page))
		algo->async(in->f_mapping, ra, in, page, index, left);
	if (PageUptodate(page))
		return 0;
	err = lock_page_bounded(in, page);
	if (err)
		return err;
	if (!page->mapping) {
		unlock_page(page);
		return -EAGAIN;
	}
	if (PageUptodate(page))
		unlock_page(page);
	else
		start_readpage(in, page);
	return 0;
}

ssize_t generic_file_splice_read(struct file *in, loff_t *ppos, size_t len,
				 struct splice_pipe_desc *spd)
{
	struct address_space *mapping = in->f_mapping;
	struct file_ra_state *ra = &in->f_ra;
	const struct ra_algorithm *algo = ra->algo;
	struct page *pages[PIPE_BUFFERS];
	unsigned int nr_pages, page_nr, loff;
	pgoff_t index, end_index;
	loff_t isize = mapping->size;
	size_t total = 0;
	int error = 0;

	spd->nr_pages = 0;
	if (*ppos < 0)
		return -EINVAL;
	if (len == 0 || isize <= 0 || *ppos >= isize)
		return 0;
	/* generic_file_splice_read(): never look at pages past end of file */
	if ((loff_t)len > isize - *ppos)
		len = (size_t)(isize - *ppos);

	index = (pgoff_t)(*ppos >> PAGE_CACHE_SHIFT);
	loff = (unsigned int)(*ppos & ~PAGE_CACHE_MASK);
	nr_pages = (unsigned int)min_t(uint64_t, PIPE_BUFFERS,
				       ((uint64_t)len + loff + PAGE_CACHE_SIZE - 1) >>
					       PAGE_CACHE_SHIFT);

	/* Don't second-guess readahead: call it as the page cache reads do. */
	if (algo->request && !ra->read_as_is)
		algo->request(mapping, ra, in, index, nr_pages);

	nr_pages = splice_find_pages(in, index, nr_pages, pages, &error);

	/* Start I/O where needed and fill in the partial map. */
	end_index = (pgoff_t)((isize - 1) >> PAGE_CACHE_SHIFT);
	for (page_nr = 0; page_nr < nr_pages; page_nr++) {
		struct page *page = pages[page_nr];
		unsigned int this_len;
		int err;

		if (!len)
			break;
		this_len = (unsigned int)min_t(size_t, len, PAGE_CACHE_SIZE - loff);

		err = splice_page_start(in, page, index, nr_pages - page_nr);
		if (err == -EAGAIN) {
			/* Evicted: stop here, the next call gets it. */
			if (page_nr == 0)
				error = -EAGAIN;
			break;
		}
		if (err) {
			error = err;
			break;
		}

		if (index > end_index)
			break;
		if (index == end_index) {
			/* The last page: only its bytes inside the file. */
			unsigned int plen = (unsigned int)((isize - 1) & ~PAGE_CACHE_MASK) + 1;

			if (plen <= loff)
				break;
			this_len = min(this_len, plen - loff);
			len = this_len;
		}
		spd->pages[spd->nr_pages] = page;
		spd->partial[spd->nr_pages].offset = loff;
		spd->partial[spd->nr_pages].len = this_len;
		spd->nr_pages++;
		len -= this_len;
		total += this_len;
		loff = 0;
		index++;
	}
	/* Release the pages we looked up but did not hand over. */
	for (unsigned int i = spd->nr_pages; i < nr_pages; i++)
		page_cache_release(pages[i]);
	ra_read_end(ra, index);

	*ppos += (loff_t)total;
	if (total)
		return (ssize_t)total;
	return error;
}

int splice_page_confirm(struct file *in, struct splice_pipe_desc *spd, unsigned int i)
{
	struct page *page = spd->pages[i];
	int err = wait_page_io(in, page);

	if (err)
		return err;
	if (!PageUptodate(page)) {
		/* A page in the pipe gets no retry: report it as the reader's error. */
		pr_err("%s: read error at offset %llu (page %lu)\n", file_name(in),
		       (unsigned long long)page->index << PAGE_CACHE_SHIFT, page->index);
		return -EIO;
	}
	ra_page_used(&in->f_ra, page);
	mark_page_accessed(page);
	return 0;
}

void splice_release(struct splice_pipe_desc *spd)
{
	for (unsigned int i = 0; i < spd->nr_pages; i++)
		page_cache_release(spd->pages[i]);
	spd->nr_pages = 0;
}
