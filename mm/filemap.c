/*
 * The generic read paths over the page cache: read(2) (do_generic_mapping_read,
 * handing each piece of data to a read actor as 2.6.20's did: file_read_actor
 * copies it into the caller's buffer, generic_file_read), the mmap fault path (filemap_fault) and the splice path
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
 * Every wait for I/O is bounded by FILEMAP_IO_TIMEOUT_NS. Host-buildable.
 */
#include <string.h>

#include "mm/backing-dev.h"
#include "kernel/log.h"
#include "kernel/sched.h"
#include "kernel/time.h"
#include "mm/filemap.h"

const char *const filemap_advice_names[] = { "normal", "sequential", "random", NULL };

static const char *file_name(const struct file *filp)
{
	if (filp->f_path)
		return filp->f_path;
	return filp->f_mapping->name ? filp->f_mapping->name : "?";
}

/*
 * Time a readahead call, unless the overhead benchmarks turned it off: what
 * the call slept (a synchronous read inside it, such as ext2's indirect
 * block, or a page lock) into ra->stats.decide_wait_ns, the rest, the call's
 * own work, into decide_ns.
 */
struct decide_clock {
	uint64_t t0, slept0;
};

static inline struct decide_clock decide_begin(void)
{
	if (!ra_decision_timing)
		return (struct decide_clock){0, 0};
	return (struct decide_clock){ktime_ns(), thread_slept_ns()};
}

static inline void decide_end(struct file_ra_state *ra, const struct decide_clock *c)
{
	if (ra_decision_timing) {
		uint64_t slept = thread_slept_ns() - c->slept0;

		ra->stats.decide_ns += ktime_ns() - c->t0 - slept;
		ra->stats.decide_wait_ns += slept;
	}
}

/* Wait for @page's I/O to end; -ETIMEDOUT (with a message) if it does not. */
static int wait_page_io(struct file *filp, struct page *page)
{
	if (wait_on_page_locked_timeout(page, FILEMAP_IO_TIMEOUT_NS))
		return 0;
	pr_err("%s: page %lu (offset %llu): I/O did not complete within %llu s\n",
	       file_name(filp), page->index, (unsigned long long)page->index << PAGE_CACHE_SHIFT,
	       (unsigned long long)(FILEMAP_IO_TIMEOUT_NS / NSEC_PER_SEC));
	return -ETIMEDOUT;
}

/* Lock @page, waiting a bounded time for whoever holds it (normally its I/O). */
static int lock_page_bounded(struct file *filp, struct page *page)
{
	uint64_t deadline = ktime_ns() + FILEMAP_IO_TIMEOUT_NS;

	while (!trylock_page(page)) {
		uint64_t now = ktime_ns();

		if (now >= deadline ||
		    !wait_on_page_locked_timeout(page, deadline - now)) {
			pr_err("%s: page %lu: still locked after %llu s\n", file_name(filp),
			       page->index,
			       (unsigned long long)(FILEMAP_IO_TIMEOUT_NS / NSEC_PER_SEC));
			return -ETIMEDOUT;
		}
	}
	return 0;
}

/* Start ->readpage on @page, which the caller has locked and holds a reference on. */
static void start_readpage(struct file *filp, struct page *page)
{
	ClearPageError(page);
	get_page(page);		/* the I/O's reference, dropped at completion */
	/* A failure to submit completes the page with PG_error: the waiter sees it. */
	(void)filp->f_mapping->a_ops->readpage(filp, page);
}

/*
 * A new page for @index, read with a single ->readpage (no readahead, or
 * readahead could not bring it in). Returns it with a reference, its I/O
 * started; ERR_PTR(-EEXIST) if someone else added it meanwhile.
 */
static struct page *read_new_page(struct file *filp, pgoff_t index)
{
	struct address_space *mapping = filp->f_mapping;
	struct page *page;
	int err;

	if (!mapping->a_ops || !mapping->a_ops->readpage) {
		pr_err("%s: the mapping has no readpage operation\n", file_name(filp));
		return ERR_PTR(-EINVAL);
	}
	page = page_cache_alloc(mapping);
	if (!page)
		return ERR_PTR(-ENOMEM); /* the read returns it; its caller says what ran out */
	err = add_to_page_cache_lru(page, mapping, index);
	if (err) {
		page_cache_release(page);
		return ERR_PTR(err);
	}
	/* 2.6.20 under thrashing: "They have to be fault in ... one by one" (patch 006) */
	filp->f_ra.stats.readpage_ios++;
	ra_global_stats.readpage_ios++;
	start_readpage(filp, page);
	return page;
}

/*
 * Make @page (referenced by the caller) uptodate: wait for its I/O; if it
 * failed, read it once more with ->readpage. Returns 0, -EAGAIN when the
 * page left the cache meanwhile (look it up again), -EIO or -ETIMEDOUT.
 */
static int page_wait_uptodate(struct file *filp, struct page *page)
{
	int retried = 0, err;

	for (;;) {
		err = wait_page_io(filp, page);
		if (err)
			return err;
		if (PageUptodate(page))
			return 0;
		if (page->mapping != filp->f_mapping)
			return -EAGAIN;
		/* The caller reports it, once, when the error is what its read returns. */
		if (retried++)
			return -EIO;
		/* Someone else holds the lock: their read is the retry. */
		if (!trylock_page(page))
			continue;
		if (PageUptodate(page)) {
			unlock_page(page);
			return 0;
		}
		start_readpage(filp, page);
	}
}

/* How often a read may find its page gone from the cache before giving up. */
#define FILEMAP_MAX_LOOKUPS	8

/*
 * The page at @index for a read whose request ends before @last_index,
 * uptodate and referenced: looked up, else brought in by the file's
 * algorithm (->sync) or read alone, its ->async hook called on a
 * PG_readahead page, its I/O waited for. Looked up again when it leaves the
 * cache meanwhile. An ERR_PTR on failure; *@io_error says whether it is the
 * page's I/O that failed (the read reports that itself when it returns it).
 */
static struct page *find_read_page(struct file *filp, pgoff_t index, pgoff_t last_index,
				   bool *io_error)
{
	struct address_space *mapping = filp->f_mapping;
	struct file_ra_state *ra = &filp->f_ra;
	const struct ra_algorithm *algo = ra->algo;
	bool as_is = ra->read_as_is;
	struct page *page;
	int lookups = 0;

find_page:
	if (++lookups > FILEMAP_MAX_LOOKUPS) {
		pr_err("%s: page %lu keeps leaving the cache before it can be read\n",
		       file_name(filp), index);
		return ERR_PTR(-EIO);
	}
	page = find_get_page(mapping, index);
	if (!page) {
		struct decide_clock c = decide_begin();

		if (as_is ? ra_read_as_is(mapping, ra, filp, index, last_index - index)
			  : algo->sync(mapping, ra, filp, index, last_index - index))
			page = find_get_page(mapping, index);
		decide_end(ra, &c);
		if (!page) {
			uint64_t t0 = ktime_ns();

			page = read_new_page(filp, index);
			ra->stats.stall_ns += ktime_ns() - t0;
			if (IS_ERR(page)) {
				if (PTR_ERR(page) == -EEXIST)
					goto find_page;
				return page;
			}
		}
	}
	if (algo->async && !as_is && PageReadahead(page)) {
		struct decide_clock c = decide_begin();

		algo->async(mapping, ra, filp, page, index, last_index - index);
		decide_end(ra, &c);
	}
	if (!PageUptodate(page)) {
		uint64_t t0 = ktime_ns();
		int err = page_wait_uptodate(filp, page);

		ra->stats.stall_ns += ktime_ns() - t0;
		if (err) {
			page_cache_release(page);
			if (err == -EAGAIN)
				goto find_page;
			*io_error = err == -EIO;
			return ERR_PTR(err);
		}
	}
	return page;
}

void do_generic_mapping_read(struct file *filp, loff_t *ppos, read_descriptor_t *desc,
			     read_actor_t actor)
{
	struct address_space *mapping = filp->f_mapping;
	struct file_ra_state *ra = &filp->f_ra;
	const struct ra_algorithm *algo = ra->algo;
	loff_t isize = mapping->size;
	pgoff_t index, end_index, last_index, next_index, prev_index;
	unsigned long offset;
	unsigned int prev_offset;
	bool io_error = false;

	if (*ppos < 0) {
		desc->error = -EINVAL;
		return;
	}
	if (desc->count == 0 || isize <= 0 || *ppos >= isize)
		return;
	/* The request as the caller made it, even past end of file: readahead's req_size. */
	if (desc->count > (size_t)(INT64_MAX - *ppos - (loff_t)PAGE_CACHE_SIZE))
		desc->count = (size_t)(INT64_MAX - *ppos - (loff_t)PAGE_CACHE_SIZE);

	index = (pgoff_t)(*ppos >> PAGE_CACHE_SHIFT);
	offset = (unsigned long)(*ppos & ~PAGE_CACHE_MASK);
	last_index = (pgoff_t)((*ppos + (loff_t)desc->count + PAGE_CACHE_SIZE - 1) >>
			       PAGE_CACHE_SHIFT);
	end_index = (pgoff_t)((isize - 1) >> PAGE_CACHE_SHIFT);
	next_index = index;
	prev_index = ra->prev_index;
	prev_offset = ra->prev_offset;

	for (;;) {
		struct page *page;
		unsigned long nr, n;

		/* nr: bytes of this page inside the file, from offset on */
		nr = PAGE_CACHE_SIZE;
		if (index >= end_index) {
			if (index > end_index)
				break;
			nr = (unsigned long)((isize - 1) & ~PAGE_CACHE_MASK) + 1;
			if (nr <= offset)
				break;
		}
		nr -= offset;

		if (algo->request && !ra->read_as_is && index == next_index) {
			struct decide_clock c = decide_begin();

			next_index = algo->request(mapping, ra, filp, index, last_index - index);
			decide_end(ra, &c);
		}
		page = find_read_page(filp, index, last_index, &io_error);
		if (IS_ERR(page)) {
			desc->error = (int)PTR_ERR(page);
			break;
		}

		ra_page_used(ra, page);
		/* A page read again in pieces counts as accessed once. */
		if (prev_index != index || offset != prev_offset)
			mark_page_accessed(page);
		prev_index = index;

		n = actor(desc, page, offset, nr);
		page_cache_release(page);
		offset += n;
		index += offset >> PAGE_CACHE_SHIFT;
		offset &= ~PAGE_CACHE_MASK;
		prev_offset = (unsigned int)offset;
		ra->prev_offset = prev_offset;
		if (n < nr || !desc->count)
			break;
	}

	ra_read_end(ra, prev_index);
	*ppos = ((loff_t)index << PAGE_CACHE_SHIFT) + (loff_t)offset;
	/* A short read returns what it has; the next read meets the error and reports it. */
	if (desc->written)
		ra->prev_pos = *ppos;
	else if (io_error)
		pr_err("%s: read error at offset %llu (page %lu) after one retry\n", file_name(filp),
		       (unsigned long long)index << PAGE_CACHE_SHIFT, index);
}

unsigned long file_read_actor(read_descriptor_t *desc, struct page *page, unsigned long offset,
			      unsigned long size)
{
	size = min_t(unsigned long, size, desc->count);
	memcpy(desc->arg.buf, (const char *)page_address(page) + offset, size);
	desc->arg.buf += size;
	desc->count -= size;
	desc->written += size;
	return size;
}

ssize_t generic_file_read(struct file *filp, void *buf, size_t count, loff_t *ppos)
{
	read_descriptor_t desc = {.count = count, .arg.buf = buf};

	do_generic_mapping_read(filp, ppos, &desc, file_read_actor);
	if (desc.written)
		return (ssize_t)desc.written;
	return desc.error;
}

/* --- the fault path -------------------------------------------------------------- */

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
	ra->fault_waited = !page || PageLocked(page) || PageReadahead(page);
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
