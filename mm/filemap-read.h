/*
 * The read path of read(2) (mm/filemap.h), for its two compilations: mm/filemap.c
 * builds do_generic_mapping_read() from it, which copies each piece of data
 * into the caller's buffer, and mm/filemap-actor.c, with FILEMAP_READ_ACTOR
 * defined, do_generic_mapping_read_actor(), which hands each piece to an actor
 * (as 2.6.20's read_actor_t). One source for both; and two translation units,
 * not one function taking its actor as an argument, because the virtual clock
 * counts instructions: the compiled copy path must stay instruction for
 * instruction what it was (a call through a pointer, or one more caller of
 * the helpers below changing what the compiler inlines, moves every read's time,
 * and with the time the counts of the workloads whose readers race: measured,
 * bench thrash's thrashed_pages 33223 -> 33389 in the quick suite).
 * Included by those two files only.
 */
#ifndef MM_FILEMAP_READ_H
#define MM_FILEMAP_READ_H

#include <limits.h>

#include "mm/backing-dev.h"
#include "kernel/log.h"
#include "kernel/sched.h"
#include "kernel/time.h"
#include "mm/filemap.h"

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

/* Wait for @page's I/O to end; -ETIMEDOUT (with a message) if its disk stalls. */
static int wait_page_io(struct file *filp, struct page *page)
{
	uint64_t waited;

	if (wait_on_page_io(page, filp->f_mapping->backing_dev_info, FILEMAP_IO_STALL_NS, &waited))
		return 0;
	pr_err("%s: page %lu (offset %llu): I/O did not complete: the disk completed no request "
	       "for %llu s (waited %llu s)\n",
	       file_name(filp), page->index, (unsigned long long)page->index << PAGE_CACHE_SHIFT,
	       (unsigned long long)(FILEMAP_IO_STALL_NS / NSEC_PER_SEC),
	       (unsigned long long)(waited / NSEC_PER_SEC));
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

/* Run @call as a readahead decision: its time into @ra's decide_ns and decide_wait_ns. */
#define decide_timed(ra, call)                                   \
	do {                                                     \
		struct decide_clock __c = decide_begin();        \
		call;                                            \
		decide_end(ra, &__c);                            \
	} while (0)

/* Run @call, a wait for I/O: its time into @ra's stall_ns. */
#define stall_timed(ra, call)                                    \
	do {                                                     \
		uint64_t __t0 = ktime_ns();                      \
		call;                                            \
		(ra)->stats.stall_ns += ktime_ns() - __t0;       \
	} while (0)

/*
 * What the read does with each piece of data, @n bytes at @data: copy it
 * to the caller's buffer after what it has, or hand it to the actor.
 */
#ifndef FILEMAP_READ_ACTOR
#define read_piece(data, n) memcpy((char *)buf + copied, data, n)
#else
#define read_piece(data, n) actor(ctx, data, n)
#endif

/*
 * 7.2's filemap_read() marks each folio it copies from accessed once a
 * read, all but the first as it reaches them, the first unless the
 * previous read ended in it (pos_same_folio() of the read's start, @pos,
 * and the byte before @prev_pos): for an algorithm with RA_ALGO_FOLIOS, in
 * place of 2.6.20's rule. *@marked: the folio this read marked last
 * (ULONG_MAX before its first).
 */
static inline void folio_read_accessed(struct page *page, pgoff_t *marked, loff_t pos,
				       loff_t prev_pos)
{
	pgoff_t first = page_folio_index(page);
	unsigned int shift = PAGE_CACHE_SHIFT + page_folio_order(page);
	bool same = *marked == ULONG_MAX && pos >> shift == (prev_pos - 1) >> shift;

	if (first == *marked)
		return;
	*marked = first;
	if (!same)
		mark_page_accessed(page);
}

/* How often a read may find its page gone from the cache before giving up. */
#define FILEMAP_MAX_LOOKUPS	8

/* Page @index left the cache FILEMAP_MAX_LOOKUPS times: say so, and fail the read. */
static int lookups_exceeded(struct file *filp, pgoff_t index)
{
	pr_err("%s: page %lu keeps leaving the cache before it can be read\n", file_name(filp),
	       index);
	return -EIO;
}

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
	bool as_is = ra->read_as_is, folios = algo->flags & RA_ALGO_FOLIOS;
	loff_t isize = mapping->size, pos = *ppos, last_pos = ra->prev_pos;
	pgoff_t index, end_index, last_index, next_index, prev_index, marked = ULONG_MAX;
	unsigned long offset, nr, n;
	struct page *page;
	unsigned int prev_offset;
	size_t copied = 0;
	bool io_error = false;
	int error = 0, err;

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
		int lookups = 0;

		nr = PAGE_CACHE_SIZE; /* bytes of this page inside the file, from offset on */
		if (index >= end_index) {
			if (index > end_index)
				break;
			nr = (unsigned long)((isize - 1) & ~PAGE_CACHE_MASK) + 1;
			if (nr <= offset)
				break;
		}
		nr -= offset;

		if (algo->request && !as_is && index == next_index)
			decide_timed(ra, next_index = algo->request(mapping, ra, filp, index,
								   last_index - index));
find_page:
		if (++lookups > FILEMAP_MAX_LOOKUPS) {
			error = lookups_exceeded(filp, index);
			break;
		}
		page = find_get_page(mapping, index);
		if (!page) {
			/* the algorithm may bring it in; else it is read alone */
			decide_timed(ra, if (as_is ? ra_read_as_is(mapping, ra, filp, index,
								   last_index - index)
						   : algo->sync(mapping, ra, filp, index,
								last_index - index))
					 page = find_get_page(mapping, index));
			if (!page) {
				stall_timed(ra, page = read_new_page(filp, index));
				if (IS_ERR(page)) {
					if (PTR_ERR(page) == -EEXIST)
						goto find_page;
					error = (int)PTR_ERR(page);
					break;
				}
			}
		}
		if (algo->async && !as_is && PageReadahead(page))
			decide_timed(ra, algo->async(mapping, ra, filp, page, index,
						     last_index - index));
		if (!PageUptodate(page)) {
			stall_timed(ra, err = page_wait_uptodate(filp, page));
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
		if (folios)
			folio_read_accessed(page, &marked, pos, last_pos);
		else if (prev_index != index || offset != prev_offset)
			mark_page_accessed(page); /* a page read again in pieces: once */
		prev_index = index;

		n = min_t(unsigned long, nr, count - copied);
		read_piece((const char *)page_address(page) + offset, n);
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

#endif /* MM_FILEMAP_READ_H */
