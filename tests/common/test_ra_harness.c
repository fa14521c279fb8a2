/*
 * The readahead suites' file double: a recording ->readpages/->readpage
 * over the real page-cache interface. See test_ra_harness.h.
 */
#include <string.h>

#include "mm/mm.h"
#include "tests/common/test_ra_harness.h"

static uint8_t rah_buf[RAH_MAX_READ_PAGES * PAGE_SIZE];

const char *rah_suite_ready(void)
{
#ifdef HOST_BUILD
	if (!mm_ready() && mm_host_init(64ULL << 20) < 0)
		return "cannot set up a host memory arena";
#endif
	return mm_ready() ? NULL : "mm_init has not run";
}

uint32_t rah_word(pgoff_t index, unsigned int w)
{
	return (uint32_t)(index * 1024 + w) ^ 0xa5c3e1f7u;
}

/*
 * fill() and count_bad_words() touch every word the suites read: without
 * UBSan's checks on each word's pointer (nothing to find in a loop over one
 * page) they vectorize, and ASan still checks every access.
 */
#define RAH_WORD_LOOP __attribute__((no_sanitize("undefined")))

static RAH_WORD_LOOP void fill(struct page *page)
{
	uint32_t *words = page_address(page);
	pgoff_t index = page->index;	/* read once, out of the loop */

	for (unsigned int w = 0; w < PAGE_SIZE / 4; w++)
		words[w] = rah_word(index, w);
}

/*
 * Words of @buf, the first @nr of page @index, that differ from the pattern.
 * Not inlined: in rah_read() clang 14 no longer vectorizes its loops.
 */
static RAH_WORD_LOOP __attribute__((noinline)) unsigned long
count_bad_words(const uint8_t *buf, pgoff_t index, unsigned int nr)
{
	unsigned long bad = 0;
	uint32_t diff = 0;

	/* whether any word differs (an OR of XORs, the quickest loop), then how many */
	for (unsigned int w = 0; w < nr; w++) {
		uint32_t got;

		memcpy(&got, buf + 4 * w, 4);
		diff |= got ^ rah_word(index, w);
	}
	if (!diff)
		return 0;
	for (unsigned int w = 0; w < nr; w++) {
		uint32_t got;

		memcpy(&got, buf + 4 * w, 4);
		bad += got != rah_word(index, w);
	}
	return bad;
}

static struct ra_harness *harness_of(struct address_space *mapping)
{
	return container_of(mapping, struct ra_harness, inode.i_data);
}

/* The end of one page's I/O, now or from rah_complete(). */
static void end_io(struct ra_harness *h, struct page *page)
{
	if (h->fail_count && page->index == h->fail_index) {
		h->fail_count--;
		SetPageError(page);
	} else {
		fill(page);
		SetPageUptodate(page);
	}
	unlock_page(page);
	put_page(page);		/* the I/O's reference */
}

static void start_io(struct ra_harness *h, struct page *page)
{
	if (h->io_hook)
		h->io_hook(page->index);
	h->pages_read++;
	if (h->defer && h->nr_deferred < RAH_MAX_DEFERRED) {
		h->deferred[h->nr_deferred++] = page;
		return;
	}
	end_io(h, page);
}

static void log_io(struct ra_harness *h, enum rah_op op, pgoff_t first, unsigned int nr,
		   bool contiguous)
{
	if (h->nr_io == RAH_MAX_IO) {
		h->io_overflow++;
		return;
	}
	h->io[h->nr_io++] = (struct rah_io){ op, first, nr, contiguous };
}

static int rah_readpages(struct address_space *mapping, struct file *filp,
			 struct list_head *pages, unsigned int nr_pages)
{
	struct ra_harness *h = harness_of(mapping);
	struct page *page, *next;
	pgoff_t first = 0, expect = 0;
	unsigned int n = 0;
	bool contiguous = true;

	(void)filp;
	/* As the ext2 and block-device implementations do: off the list, onto the LRU. */
	list_for_each_entry_safe(page, next, pages, lru) {
		if (n == 0)
			first = expect = page->index;
		contiguous &= page->index == expect;
		expect = page->index + 1;
		n++;
		list_del(&page->lru);
		lru_cache_add(page);
		start_io(h, page);
	}
	log_io(h, RAH_READPAGES, first, n, contiguous && n == nr_pages);
	return 0;
}

static int rah_readpage(struct file *filp, struct page *page)
{
	struct ra_harness *h = harness_of(page->mapping);

	(void)filp;
	log_io(h, RAH_READPAGE, page->index, 1, true);
	start_io(h, page);
	return 0;
}

static const struct address_space_operations rah_aops = {
	.readpages = rah_readpages,
	.readpage = rah_readpage,
};

const struct address_space_operations rah_aops_readpage_only = {
	.readpage = rah_readpage,
};

static bool rah_congested(struct backing_dev_info *bdi)
{
	return ((struct ra_harness *)bdi->congested_data)->congested;
}

int rah_open(struct ra_harness *h, const char *name, loff_t size, const struct ra_algorithm *algo,
	     unsigned long max_pages)
{
	int err;

	memset(h, 0, sizeof(*h));
	h->bdi.ra_pages = max_pages;
	h->bdi.ra_pages_set = true;	/* the test's window, not an algorithm's default */
	h->bdi.rotational = true;
	h->bdi.io_pages = max_pages;
	h->bdi.congested_fn = rah_congested;
	h->bdi.congested_data = h;
	h->inode.i_size = size;
	h->inode.i_mode = 0100444;
	err = address_space_init(&h->inode.i_data, name, &rah_aops, &h->bdi, size);
	if (err)
		return err;
	h->file.f_inode = &h->inode;
	h->file.f_mapping = &h->inode.i_data;
	h->file.f_path = name;
	file_ra_state_init(&h->file.f_ra, h->file.f_mapping);
	file_ra_set_algo(&h->file.f_ra, algo);
	if (!(algo->flags & RA_ALGO_NO_WINDOW))
		file_ra_set_max_pages(&h->file.f_ra, max_pages);
	/* Eviction below counts thrashing the way reclaim does. */
	readahead_thrashed_hook = ra_page_thrashed;
	ra_trace_reset();
	h->open = true;
	return 0;
}

void rah_close(struct ra_harness *h)
{
	if (!h->open)
		return;
	rah_complete(h);
	address_space_release(&h->inode.i_data);
	h->open = false;
}

ssize_t rah_pread(struct ra_harness *h, loff_t pos, size_t len, void *buf)
{
	return do_generic_mapping_read(&h->file, buf, len, &pos);
}

ssize_t rah_read(struct ra_harness *h, pgoff_t index, unsigned long npages)
{
	loff_t pos = (loff_t)index << PAGE_SHIFT;
	size_t len = npages * PAGE_SIZE;
	ssize_t n;

	if (npages > RAH_MAX_READ_PAGES)
		return -EINVAL;
	n = do_generic_mapping_read(&h->file, rah_buf, len, &pos);
	/* every whole word read, a page at a time */
	for (ssize_t b = 0; b + 4 <= n; b += PAGE_SIZE) {
		unsigned int words = (unsigned int)min_t(ssize_t, n - b, PAGE_SIZE) / 4;

		h->bad_words += count_bad_words(rah_buf + b, index + (pgoff_t)(b >> PAGE_SHIFT),
						words);
	}
	return n;
}

int rah_fault(struct ra_harness *h, pgoff_t index, enum filemap_advice advice)
{
	int err = 0, ret = 0;
	struct page *page = filemap_fault(&h->file, index, advice, &err);

	if (!page)
		return err ? err : -EIO;
	if (!PageUptodate(page) || !PageLocked(page) || page->index != index ||
	    *(uint32_t *)page_address(page) != rah_word(index, 0))
		ret = -EBADMSG;
	unlock_page(page);
	put_page(page);
	return ret;
}

int rah_populate(struct ra_harness *h, pgoff_t first, unsigned long n)
{
	for (pgoff_t i = first; i < first + n; i++) {
		struct page *page = page_cache_alloc(&h->inode.i_data);
		int err;

		if (!page)
			return -ENOMEM;
		page->index = i;
		err = add_to_page_cache_lru(page, &h->inode.i_data, i);
		if (err) {
			put_page(page);
			if (err == -EEXIST)
				continue;
			return err;
		}
		fill(page);
		SetPageUptodate(page);
		unlock_page(page);
		put_page(page);
	}
	return 0;
}

long rah_evict(struct ra_harness *h, pgoff_t first, unsigned long n)
{
	long evicted = 0;

	for (pgoff_t i = first; i < first + n; i++) {
		struct page *page = find_get_page(&h->inode.i_data, i);

		if (!page)
			continue;
		if (PageLocked(page) || page_count(page) != 2) {
			put_page(page);
			return -EBUSY;
		}
		if (PageReadaheadIO(page) && readahead_thrashed_hook)
			readahead_thrashed_hook(&h->inode.i_data, page);
		remove_from_page_cache(page);
		put_page(page);
		evicted++;
	}
	return evicted;
}

unsigned int rah_complete(struct ra_harness *h)
{
	unsigned int n = h->nr_deferred;

	h->nr_deferred = 0;
	for (unsigned int i = 0; i < n; i++)
		end_io(h, h->deferred[i]);
	return n;
}

long rah_page_flags(struct ra_harness *h, pgoff_t index)
{
	struct page *page = find_get_page(&h->inode.i_data, index);
	long flags;

	if (!page)
		return -1;
	flags = (long)page->flags;
	put_page(page);
	return flags;
}

void rah_clear_log(struct ra_harness *h)
{
	h->nr_io = 0;
	h->io_overflow = 0;
}

static const char *op_name(enum rah_op op)
{
	return op == RAH_READPAGES ? "readpages" : op == RAH_READPAGE ? "readpage" : "?";
}

bool rah_expect_io(struct ktest *t, struct ra_harness *h, const struct rah_io *want,
		   unsigned int n)
{
	bool ok = true;

	if (h->io_overflow) {
		KT_FAIL(t, "I/O log overflowed by %u entries", h->io_overflow);
		ok = false;
	}
	for (unsigned int i = 0; i < max(n, h->nr_io); i++) {
		const struct rah_io *g = i < h->nr_io ? &h->io[i] : NULL;
		const struct rah_io *w = i < n ? &want[i] : NULL;

		if (g && w && g->op == w->op && g->first == w->first && g->nr == w->nr &&
		    g->contiguous)
			continue;
		ok = false;
		if (!g)
			KT_FAIL(t, "I/O %u: missing, want %s %lu+%u", i, op_name(w->op), w->first,
				w->nr);
		else if (!w)
			KT_FAIL(t, "I/O %u: unexpected %s %lu+%u", i, op_name(g->op), g->first,
				g->nr);
		else
			KT_FAIL(t, "I/O %u: got %s %lu+%u%s, want %s %lu+%u", i, op_name(g->op),
				g->first, g->nr, g->contiguous ? "" : " (not contiguous)",
				op_name(w->op), w->first, w->nr);
	}
	return ok;
}

/* The ring's decisions (ra=linux's Linux tracepoints left out): how many, and the i-th. */
static unsigned int decisions(void)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < ra_trace_count(); i++)
		n += ra_trace_get(i)->kind == RA_EV_DECISION;
	return n;
}

const struct ra_trace_event *rah_decision(unsigned int i)
{
	for (unsigned int k = 0; k < ra_trace_count(); k++) {
		const struct ra_trace_event *e = ra_trace_get(k);

		if (e->kind == RA_EV_DECISION && i-- == 0)
			return e;
	}
	return NULL;
}

static const char *const linux_kind_names[RA_EV_NR_KINDS] = {
	[RA_EV_SYNC_RA] = "sync_ra", [RA_EV_ASYNC_RA] = "async_ra",
	[RA_EV_RA_ORDER] = "ra_order", [RA_EV_RA_UNBOUNDED] = "ra_unbounded",
};

bool rah_expect_linux(struct ktest *t, const struct rah_linux_event *want, unsigned int n)
{
	unsigned int got = 0;
	bool ok = true;

	for (unsigned int k = 0; k < ra_trace_count(); k++) {
		const struct ra_trace_event *e = ra_trace_get(k);
		const struct rah_linux_event *w = got < n ? &want[got] : NULL;

		if (e->kind == RA_EV_DECISION)
			continue;
		got++;
		if (w && e->kind == w->kind && e->offset == w->index && e->req_size == w->count &&
		    e->order == w->order && e->ra_size == w->size && e->la_size == w->async)
			continue;
		ok = false;
		if (!w)
			KT_FAIL(t, "Linux event %u: unexpected %s index=%lu count=%lu order=%u "
				"size=%lu async=%lu", got - 1, linux_kind_names[e->kind], e->offset,
				e->req_size, e->order, e->ra_size, e->la_size);
		else
			KT_FAIL(t, "Linux event %u: got %s index=%lu count=%lu order=%u size=%lu "
				"async=%lu, want %s index=%lu count=%lu order=%u size=%lu async=%lu",
				got - 1, linux_kind_names[e->kind], e->offset, e->req_size,
				e->order, e->ra_size, e->la_size, linux_kind_names[w->kind],
				w->index, w->count, w->order, w->size, w->async);
	}
	for (; got < n; got++) {
		ok = false;
		KT_FAIL(t, "Linux event %u: missing, want %s index=%lu", got,
			linux_kind_names[want[got].kind], want[got].index);
	}
	return ok;
}

bool rah_expect_events(struct ktest *t, unsigned int from, const struct rah_event *want,
		       unsigned int n)
{
	unsigned int have = decisions();
	bool ok = true;

	if (have != from + n) {
		KT_FAIL(t, "trace holds %u events, want %u", have, from + n);
		ok = false;
	}
	/* the ones nobody expected, so that a failing test shows what happened */
	for (unsigned int i = from + n; i < have; i++) {
		const struct ra_trace_event *e = rah_decision(i);

		KT_FAIL(t, "event %u: unexpected %s %lu req %lu: [%lu,+%lu) la %lu, %lu pages", i,
			ra_case_name(e->rcase), e->offset, e->req_size, e->ra_index, e->ra_size,
			e->la_size, e->actual);
	}
	for (unsigned int i = 0; i < n; i++) {
		const struct ra_trace_event *e = rah_decision(from + i);
		const struct rah_event *w = &want[i];

		if (!e) {
			KT_FAIL(t, "event %u: missing, want %s at %lu", from + i,
				ra_case_name(w->rcase), w->offset);
			ok = false;
			continue;
		}
		if (e->rcase == w->rcase && e->offset == w->offset && e->req_size == w->req &&
		    e->ra_index == w->ra_index && e->ra_size == w->ra_size &&
		    e->la_size == w->la_size && e->actual == w->actual)
			continue;
		ok = false;
		KT_FAIL(t, "event %u: got %s off=%lu req=%lu ra=%lu+%lu la=%lu actual=%lu, "
			"want %s off=%lu req=%lu ra=%lu+%lu la=%lu actual=%lu", from + i,
			ra_case_name((enum ra_case)e->rcase), e->offset, e->req_size, e->ra_index,
			e->ra_size, e->la_size, e->actual, ra_case_name(w->rcase), w->offset,
			w->req, w->ra_index, w->ra_size, w->la_size, w->actual);
	}
	return ok;
}

unsigned int rah_count_case(enum ra_case c)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < ra_trace_count(); i++)
		if (ra_trace_get(i)->kind == RA_EV_DECISION && ra_trace_get(i)->rcase == c)
			n++;
	return n;
}
