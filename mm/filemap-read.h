/*
 * The read path of read(2), a template compiled twice (the one code file
 * that is): into mm/filemap.c as do_generic_mapping_read(), which copies
 * into one buffer, and with FILEMAP_READ_ACTOR defined into
 * mm/filemap-actor.c as do_generic_mapping_read_actor(), which hands each
 * piece to an actor (2.6.20's read_actor_t). Why not one function with an
 * actor, as 2.6.20's: under the virtual clock an instruction is time, and
 * do_generic_mapping_read() must compile to the instructions it had. One
 * source compiled with constant actor arguments was tried: the compiler
 * allocated registers differently, and the quick suite's thrashing runs
 * came out different (readpage_ios in 18 rows, thrashed pages in 14,
 * thrashed windows in 11, 65 lines of ratrace). So the source is one and
 * each copy is compiled as if it were the only one. For the same reason
 * do_generic_mapping_read() stays one function of 140 lines: taking its
 * page lookup out into an always-inline helper changed its instructions
 * too (two ways tried, objdump -d).
 *
 * Also the helpers the fault and splice paths share (file_name(),
 * wait_page_io(), start_readpage()). Included by those two files only.
 */
#ifndef MM_FILEMAP_READ_H
#define MM_FILEMAP_READ_H

#include <string.h>

#include "kernel/log.h"
#include "kernel/time.h"
#include "mm/backing-dev.h"
#include "mm/filemap.h"

static const char *file_name(const struct file *filp)
{
	if (filp->f_path)
		return filp->f_path;
	return filp->f_mapping->name ? filp->f_mapping->name : "?";
}

/* Time a readahead call into ra->stats.decide_ns, unless the overhead benchmarks turned it off. */
static inline uint64_t decide_begin(void)
{
	return ra_decision_timing ? ktime_ns() : 0;
}

static inline void decide_end(struct file_ra_state *ra, uint64_t t0)
{
	if (ra_decision_timing)
		ra->stats.decide_ns += ktime_ns() - t0;
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
	if (!page) {
		pr_err("%s: out of memory for page %lu\n", file_name(filp), index);
		return ERR_PTR(-ENOMEM);
	}
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

#ifndef FILEMAP_READ_ACTOR
ssize_t do_generic_mapping_read(struct file *filp, void *buf, size_t count, loff_t *ppos)
#else
ssize_t do_generic_mapping_read_actor(struct file *filp, size_t count, loff_t *ppos,
				      filemap_actor_t actor, void *ctx)
#endif
{
	struct address_space *mapping = filp->f_mapping;
	struct file_ra_state *ra = &filp->f_ra;
	const struct ra_algorithm *algo = ra->algo;
	bool as_is = ra->read_as_is;
	loff_t isize = mapping->size;
	pgoff_t index, end_index, last_index, next_index, prev_index;
	unsigned long offset;
	unsigned int prev_offset;
	size_t copied = 0;
	bool io_error = false;
	int error = 0;

	if (*ppos < 0)
		return -EINVAL;
	if (count == 0 || isize <= 0 || *ppos >= isize)
		return 0;
	/* The request as the caller made it, even past end of file: readahead's req_size. */
	if (count > (size_t)(INT64_MAX - *ppos - (loff_t)PAGE_CACHE_SIZE))
		count = (size_t)(INT64_MAX - *ppos - (loff_t)PAGE_CACHE_SIZE);

	index = (pgoff_t)(*ppos >> PAGE_CACHE_SHIFT);
	offset = (unsigned long)(*ppos & ~PAGE_CACHE_MASK);
	last_index = (pgoff_t)((*ppos + (loff_t)count + PAGE_CACHE_SIZE - 1) >> PAGE_CACHE_SHIFT);
	end_index = (pgoff_t)((isize - 1) >> PAGE_CACHE_SHIFT);
	next_index = index;
	prev_index = ra->prev_index;
	prev_offset = ra->prev_offset;

	for (;;) {
		struct page *page;
		unsigned long nr, n;
		int lookups = 0;

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

		if (algo->request && !as_is && index == next_index) {
			uint64_t t0 = decide_begin();

			next_index = algo->request(mapping, ra, filp, index, last_index - index);
			decide_end(ra, t0);
		}
find_page:
		if (++lookups > FILEMAP_MAX_LOOKUPS) {
			pr_err("%s: page %lu keeps leaving the cache before it can be read\n",
			       file_name(filp), index);
			error = -EIO;
			break;
		}
		page = find_get_page(mapping, index);
		if (!page) {
			uint64_t t0 = decide_begin();

			if (as_is ? ra_read_as_is(mapping, ra, filp, index, last_index - index)
				  : algo->sync(mapping, ra, filp, index, last_index - index))
				page = find_get_page(mapping, index);
			decide_end(ra, t0);
			if (!page) {
				uint64_t t0 = ktime_ns();

				page = read_new_page(filp, index);
				ra->stats.stall_ns += ktime_ns() - t0;
				if (IS_ERR(page)) {
					if (PTR_ERR(page) == -EEXIST)
						goto find_page;
					error = (int)PTR_ERR(page);
					break;
				}
			}
		}
		if (algo->async && !as_is && PageReadahead(page)) {
			uint64_t t0 = decide_begin();

			algo->async(mapping, ra, filp, page, index, last_index - index);
			decide_end(ra, t0);
		}
		if (!PageUptodate(page)) {
			uint64_t t0 = ktime_ns();
			int err = page_wait_uptodate(filp, page);

			ra->stats.stall_ns += ktime_ns() - t0;
			if (err) {
				page_cache_release(page);
				if (err == -EAGAIN)
					goto find_page;
				error = err;
				io_error = err == -EIO;
				break;
			}
		}

		ra_page_used(ra, page);
		/* A page read again in pieces counts as accessed once. */
		if (prev_index != index || offset != prev_offset)
			mark_page_accessed(page);
		prev_index = index;

		n = min_t(unsigned long, nr, count - copied);
#ifndef FILEMAP_READ_ACTOR
		memcpy((char *)buf + copied, (const char *)page_address(page) + offset, n);
#else
		actor(ctx, (const char *)page_address(page) + offset, n);
#endif
		page_cache_release(page);
		copied += n;
		offset += n;
		index += offset >> PAGE_CACHE_SHIFT;
		offset &= ~PAGE_CACHE_MASK;
		prev_offset = (unsigned int)offset;
		ra->prev_offset = prev_offset;
		if (n < nr || copied == count)
			break;
	}

	ra_read_end(ra, prev_index);
	*ppos = ((loff_t)index << PAGE_CACHE_SHIFT) + (loff_t)offset;
	if (copied)
		ra->prev_pos = *ppos;
	/* A short read returns what it has; the next read meets the error and reports it. */
	if (copied)
		return (ssize_t)copied;
	if (io_error)
		pr_err("%s: read error at offset %llu (page %lu) after one retry\n", file_name(filp),
		       (unsigned long long)index << PAGE_CACHE_SHIFT, index);
	return error;
}

#endif
