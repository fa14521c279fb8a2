/*
 * Today's Linux readahead (ra=linux): Linux 7.2's page_cache_sync_ra(),
 * page_cache_async_ra(), page_cache_ra_order() with large folios,
 * page_cache_ra_unbounded(), force_page_cache_ra(), the mmap fault path
 * (do_sync_mmap_readahead(), do_async_mmap_readahead(), fault-around's
 * filemap_map_pages()), generic_fadvise() and the 6.17 default window,
 * firing Linux's readahead tracepoints (ratrace format=linux) where Linux
 * fires them, with the values it prints. Host-buildable.
 *
 * Read from Debian's linux-source-7.2 (7.2.13): mm/readahead.c, mm/filemap.c,
 * mm/fadvise.c, mm/memory.c, include/trace/events/readahead.h, block/
 * blk-settings.c. The rules, each with the commit it came from (each hash
 * checked by its title; docs/linux-7.2.md has the table of what is and is
 * not modelled):
 *
 *  - sync (a missing page): start of file, an oversized read or a
 *    sequential one (index - prev_pos's page <= 1) starts a window of
 *    get_init_ra_size(req); else the cached pages right before the read
 *    ("context", 10be0b372cac, 2.6.31; made conservative by 2cad40180197)
 *    size it when more than the request, and a small random read reads
 *    the request alone and leaves the state alone; folded into the sync
 *    path by Jan Kara's 6.11 series (3a7a11a57e46 "readahead: disentangle
 *    async and sync readahead", a6eccd5be3e9, 58540f5cde40, 7c877586da31,
 *    8051b82a0be0). Sync readahead allocates single pages (ra->order = 0,
 *    c4602f9fa77f "mm/readahead: store folio order in struct
 *    file_ra_state", 6.17).
 *  - async (a marked folio): the mark where the last window put it
 *    (rounded down to the marked folio's size, ab4443fe3ca6, 6.8) pushes
 *    the window on, at least as large as the last; another mark (an
 *    interleaved reader) starts a window at the next hole within the
 *    maximum, or does nothing; the folio order grows by 2 (793917d997df,
 *    5.18) and the window's end is trimmed to a natural boundary of
 *    2^min(order, ffs(max) - 1) (18ebe55a9236 "mm/readahead: terminate
 *    async readahead on natural boundary", 6.17).
 *  - page_cache_ra_order: folios of min(9, order, ilog2(size)) pages,
 *    smaller to reach alignment and near the window's end or EOF
 *    (bdb86f6b8763 "mm/readahead: honour new_order in
 *    page_cache_ra_order()", 6.17), the mark on the folio holding the
 *    mark page (round_down, ab4443fe3ca6); no mark when the window reaches EOF; a
 *    cached page stops it and page_cache_ra_unbounded reads the rest a
 *    page at a time (7c877586da31, 6.11).
 *  - the hole scans are page_cache_next_miss()/prev_miss(): xas_next()
 *    and xas_prev() over the xarray, which run a slot behind their index
 *    after starting inside a large folio (xas_descend() moves the offset
 *    to the folio's first slot, not the index): the hole reported is that
 *    much further on. Not a rule anyone wrote down; Linux 7.2 does it
 *    (tests/linux-ref's interleave-small, tests/replay/db-oltp.log).
 *  - read(2) names the marked folio's first page as the async index, its
 *    request from there (7.2's filemap_readahead(): the readahead_control
 *    at folio->index, last_index - folio->index pages; bb82ac31ddce, 6.11,
 *    moved the index into the readahead_control); prev_pos is the byte
 *    after the previous read(), once a read.
 *  - mmap: read-around of ra_pages centred on the fault, the mark a
 *    quarter from its end, given up while mmap_miss > 100 (counting stops
 *    at 1000: "readahead: reduce unnecessary mmap_miss increases", Andi
 *    Kleen, 2011); fault-around maps the 16 pages around a fault that are
 *    uptodate, unlocked and unmarked, large folios whole, and counts one
 *    hit, for the faulting page, on a first attempt only (0b9c0aeba938
 *    "mm/filemap: count only the faulting address as a mmap hit",
 *    9b0fcac3cfe7 "mm/filemap: do not count FAULT_FLAG_TRIED retries as
 *    mmap hits", 7.2), none for VM_SEQ_READ or VM_EXEC mappings, none for
 *    an order-9 folio first in the range and mapped by one PMD
 *    (filemap_map_pmd()). VM_HUGEPAGE (MADV_HUGEPAGE): two order-9 folios
 *    from the fault's 2 MiB boundary, the second marked, ra->start left as
 *    it was; VM_EXEC: ra_pages from the fault to the mapping's end, no
 *    mark, no mmap_miss (38b0ece6d763, 6.17). Not modelled: no hit for a
 *    folio marked workingset (5c46d5319bde, 6.10; nothing here is) and
 *    where Linux places a mapping under 2 MiB.
 *  - fadvise: NORMAL the device's window, SEQUENTIAL twice it (7.2 has no
 *    upper bound; RA_MAX_WINDOW, 16 MiB, is lookahead's own), RANDOM
 *    makes every sync call read just the request (FMODE_RANDOM; async
 *    marks still work), WILLNEED reads up to max(io_pages, ra_pages) pages
 *    in 2 MiB chunks (9491ae4aade6).
 *  - the default window of a spinning disk with no optimal I/O size: twice
 *    its largest request (459779d04ae8 "block: Improve read ahead size for
 *    rotational devices", 6.17), which is at most 4 MiB (9b8b84879d4a
 *    "block: Increase BLK_DEF_MAX_SECTORS_CAP", 6.17). A device's io_opt
 *    (twice it, spinning or not) is not modelled: libata reports none.
 *
 * lookahead keeps 4 KiB pages: a folio here is its pages carrying its
 * order (page_folio_order()) and, when marked, each its PG_readahead; with
 * RA_ALGO_FOLIOS the page cache treats them as Linux treats a folio: its
 * allocation is __GFP_NORETRY (page_cache_alloc_folio(), failing where an
 * ordinary page would reclaim, and then page_cache_ra_order() reads the
 * rest page by page and an order-0 failure cuts the window short), it is
 * one LRU entry, evicted and invalidated whole (mm/vmscan.c,
 * mm/filemap-cache.c), and a read marks it accessed once (filemap-read.h).
 * Not modelled: physical contiguity (a folio fails on the amount free,
 * never on fragmentation), the multi-gen LRU (Debian's 7.2 runs it; the
 * reclaim is 2.6.20's) and refault activation (shadows are kept and
 * refaults counted, mm/workingset.c, but reclaim reads none):
 * docs/linux-7.2.md. Block-layer read congestion is gone from Linux since
 * 5.18: no window is deferred.
 */
#include <limits.h>

#include "mm/backing-dev.h"
#include "mm/file.h"
#include "mm/filemap.h"
#include "mm/readahead.h"

#define min3(a, b, c) min(min(a, b), c)

/* Linux's largest page-cache folio (MAX_PAGECACHE_ORDER with THP: 9, 2 MiB). */
#define LINUX_MAX_FOLIO_ORDER	9U
/* force_page_cache_ra()'s chunk: 2 MiB. */
#define LINUX_FORCE_CHUNK	512UL
/* mmap_miss stops counting at MMAP_LOTSAMISS * 10. */
#define MMAP_MISS_CAP		(MMAP_LOTSAMISS * 10)
/* fault_around_bytes: 64 KiB; a page table: 512 entries (2 MiB). */
#define FAULT_AROUND_PAGES	16UL
#define PTRS_PER_PTE		512UL

/*
 * Its own trace case: the VM_HUGEPAGE fault's window, two order-9 folios
 * whatever ra_pages is (7.2 reads it even with readahead off), so the one
 * window that may exceed the maximum.
 */
enum { LINUX_HUGEPAGE, LINUX_NR_CASES };
static const struct ra_case_desc linux_cases[LINUX_NR_CASES] = {
	[LINUX_HUGEPAGE] = { "linux-hugepage", RA_KIND_OTHER },
};
static unsigned int linux_case_base;

/*
 * struct file_ra_state's fields Linux has and lookahead's shared state does
 * not (mmap_miss and prev_pos are there: ra->mmap_miss, ra->prev_pos).
 */
struct linux_ra {
	pgoff_t start;
	unsigned long size, async_size;
	unsigned int order;
	bool fmode_random;	/* POSIX_FADV_RANDOM */
};

static struct linux_ra *lx(struct file_ra_state *ra)
{
	return ra_priv(ra, struct linux_ra);
}

/* The tracepoints of page_cache_ra_op: the state as it is before the decision. */
static void trace_op(enum ra_event_kind kind, struct address_space *mapping,
		     struct file_ra_state *ra, pgoff_t index, unsigned long req_count)
{
	struct linux_ra *l = lx(ra);

	ra_trace_linux(mapping, ra, kind, index, req_count, l->order, l->size, l->async_size,
		       (unsigned int)ra->ra_pages, (unsigned int)ra->mmap_miss, ra->prev_pos);
}

static bool page_cached(struct address_space *mapping, pgoff_t index)
{
	struct page *page = find_get_page(mapping, index);

	if (page)
		page_cache_release(page);
	return page != NULL;
}

/* The last page of the file: (i_size - 1) >> PAGE_SHIFT. */
static pgoff_t eof_index(struct address_space *mapping)
{
	return (pgoff_t)((mapping->size - 1) >> PAGE_CACHE_SHIFT);
}

/*
 * page_cache_next_miss() and page_cache_prev_miss() walk Linux's xarray,
 * and the walk is part of the decision: a folio of 2^k pages is one entry
 * (k >= 6: in the node a level up), and a walk that starts inside a large
 * folio loads the folio's first slot while its index stays where it
 * started (xas_descend() resolves the sibling slots), so it runs that many
 * slots behind its index until it reaches the next node, and the miss it
 * reports is that much further on (7.2's page_cache_next_miss(5) over a
 * folio at 4-7 and pages to 19 says 21, not 20). This is that walk over the
 * emulated folios: xas_load(), xas_next(), xas_prev() and what a slot holds.
 */
#define XA_CHUNK	64U
enum { XS_NULL, XS_ENTRY, XS_SIBLING, XS_NODE };

struct xwalk {
	pgoff_t index, base;	/* the index walked; the first index under the node */
	unsigned int shift;	/* the node's: 0 for a leaf of 64 pages, 6, 12, ... */
	int offset;		/* the slot in the node */
	enum { XW_RESTART, XW_NODE, XW_BOUNDS } state;
	unsigned int top;	/* the root's shift */
};

/* The root's shift: the smallest tree over the file (a taller one walks the same). */
static unsigned int xa_top(struct address_space *mapping)
{
	pgoff_t last = mapping->size > 0 ? eof_index(mapping) : 0;
	unsigned int shift = 0;

	while (shift < 54 && (last >> shift) >= XA_CHUNK)
		shift += 6;
	return shift;
}

/*
 * What the slot of a node at @shift covering [@first, @first + 2^@shift)
 * holds: the entry of a folio stored at this level (its first slot, or a
 * sibling pointing at it: *@canon), a node below, or nothing. The walk
 * only needs to know, for the slot holding @index, whether @index is
 * cached: if it is not, the walk reports a miss at @index whether the
 * nothing is here or further down.
 */
static int xa_slot(struct address_space *mapping, unsigned int shift, pgoff_t first,
		   pgoff_t index, pgoff_t *canon)
{
	pgoff_t span = 1UL << shift;
	bool here = index >= first && index - first < span;
	struct page *page = find_get_page(mapping, here ? index : first);

	if (page) {
		unsigned int k = page_folio_order(page);
		pgoff_t head = page_folio_index(page);

		page_cache_release(page);
		if (k / 6 * 6 >= shift) {
			*canon = head;
			return head == first ? XS_ENTRY : XS_SIBLING;
		}
		return XS_NODE;
	}
	if (!shift || here)
		return XS_NULL;
	/* a slot the walk reached behind its index: a node if anything under it is cached */
	for (pgoff_t i = 1; i < span; i++)
		if (page_cached(mapping, first + i))
			return XS_NODE;
	return XS_NULL;
}

static int xa_load(struct address_space *mapping, struct xwalk *x)
{
	unsigned int shift = x->top;
	pgoff_t base = 0, canon;

	for (;;) {
		int off = (int)((x->index >> shift) & (XA_CHUNK - 1));
		pgoff_t first = base + ((pgoff_t)off << shift);
		int k = xa_slot(mapping, shift, first, x->index, &canon);

		if (k == XS_SIBLING) {
			off = (int)((canon - base) >> shift);
			k = XS_ENTRY;
		}
		x->state = XW_NODE;
		x->shift = shift;
		x->base = base;
		x->offset = off;
		if (k != XS_NODE || !shift)
			return k;
		base = first;
		shift -= 6;
	}
}

/* From a node's current slot down to an entry, the offset set from the index (xas_set_offset()). */
static int xa_descend(struct address_space *mapping, struct xwalk *x)
{
	for (;;) {
		pgoff_t first = x->base + ((pgoff_t)x->offset << x->shift), canon;
		int k = xa_slot(mapping, x->shift, first, x->index, &canon);

		if (k != XS_NODE || !x->shift)
			return k;
		x->base = first;
		x->shift -= 6;
		x->offset = (int)((x->index >> x->shift) & (XA_CHUNK - 1));
	}
}

/* xas_next(): the next index, and what the (maybe lagging) slot holds. */
static int xa_next(struct address_space *mapping, struct xwalk *x)
{
	if (x->state == XW_RESTART)
		return xa_load(mapping, x);
	x->index++;
	if (x->state == XW_BOUNDS)
		return xa_load(mapping, x);
	if (!x->shift && x->offset != XA_CHUNK - 1) {
		pgoff_t canon;

		x->offset++;
		return xa_slot(mapping, 0, x->base + (pgoff_t)x->offset, x->index, &canon);
	}
	if (x->offset != (int)((x->index >> x->shift) & (XA_CHUNK - 1)))
		x->offset++;
	while (x->offset == (int)XA_CHUNK) {
		unsigned int pshift = x->shift + 6;

		if (pshift > x->top) {
			x->state = XW_BOUNDS;
			return XS_NULL;
		}
		x->offset = (int)((x->base >> pshift) & (XA_CHUNK - 1)) + 1;
		x->base &= ~((XA_CHUNK << pshift) - 1);
		x->shift = pshift;
	}
	return xa_descend(mapping, x);
}

/* xas_prev(): likewise backwards. */
static int xa_prev(struct address_space *mapping, struct xwalk *x)
{
	if (x->state == XW_RESTART)
		return xa_load(mapping, x);
	x->index--;
	if (x->state == XW_BOUNDS)
		return xa_load(mapping, x);
	if (!x->shift && x->offset != 0) {
		pgoff_t canon;

		x->offset--;
		return xa_slot(mapping, 0, x->base + (pgoff_t)x->offset, x->index, &canon);
	}
	if (x->offset != (int)((x->index >> x->shift) & (XA_CHUNK - 1)))
		x->offset--;
	while (x->offset == -1) {
		unsigned int pshift = x->shift + 6;

		if (pshift > x->top) {
			x->state = XW_BOUNDS;
			return XS_NULL;
		}
		x->offset = (int)((x->base >> pshift) & (XA_CHUNK - 1)) - 1;
		x->base &= ~((XA_CHUNK << pshift) - 1);
		x->shift = pshift;
	}
	return xa_descend(mapping, x);
}

/* page_cache_next_miss(): the first absent index of @max from @index, else the one after. */
static pgoff_t next_miss(struct address_space *mapping, pgoff_t index, unsigned long max)
{
	struct xwalk x = { .index = index, .state = XW_RESTART, .top = xa_top(mapping) };

	while (max--) {
		if (xa_next(mapping, &x) == XS_NULL)
			return x.index;
		if (x.index == 0)
			return 0;
	}
	return x.index + 1;
}

/* page_cache_prev_miss(): likewise down from @index; ULONG_MAX when cached below page 0. */
static pgoff_t prev_miss(struct address_space *mapping, pgoff_t index, unsigned long max)
{
	struct xwalk x = { .index = index, .state = XW_RESTART, .top = xa_top(mapping) };

	while (max--) {
		if (xa_prev(mapping, &x) == XS_NULL)
			return x.index;
		if (x.index == ULONG_MAX)
			return ULONG_MAX;
	}
	return x.index - 1;
}

static unsigned long roundup_pow2(unsigned long n)
{
	return n <= 1 ? 1 : 1UL << (64 - __builtin_clzl(n - 1));
}

static unsigned int ilog2_ul(unsigned long n)
{
	return 63 - (unsigned int)__builtin_clzl(n);
}

static unsigned long init_ra_size(unsigned long size, unsigned long max)
{
	unsigned long n = roundup_pow2(size);

	if (n <= max / 32)
		return 4 * n;
	if (n <= max / 4)
		return 2 * n;
	return max;
}

static unsigned long next_ra_size(unsigned long cur, unsigned long max)
{
	if (cur < max / 16)
		return 4 * cur;
	if (cur <= max / 2)
		return 2 * cur;
	return max;
}

/* ractl_max_pages(): a read larger than the window may use the device's largest request. */
static unsigned long max_pages(struct address_space *mapping, struct file_ra_state *ra,
			       unsigned long req)
{
	struct backing_dev_info *bdi = mapping->backing_dev_info;
	unsigned long max = ra->ra_pages;

	if (bdi && req > max && bdi->io_pages > max)
		max = min(req, bdi->io_pages);
	return max;
}

/*
 * page_cache_ra_unbounded(): [@index, + @nr) a page at a time, what is cached
 * skipped (and ending the batch that goes to the disk), the page @nr -
 * @lookahead from the start marked if it is new. An allocation failure
 * (__GFP_NORETRY: page_cache_alloc_folio()) ends it there, the window cut
 * short (0fd44ab213bc). Returns where it stopped: the readahead_control's
 * index, from which force_page_cache_ra() goes on.
 */
static pgoff_t ra_unbounded(struct address_space *mapping, struct file_ra_state *ra,
			    struct file *filp, struct ra_batch *b, pgoff_t index, unsigned long nr,
			    unsigned long lookahead)
{
	unsigned long mark = lookahead <= nr ? nr - lookahead : ULONG_MAX, i;

	ra_trace_linux(mapping, ra, RA_EV_RA_UNBOUNDED, index, nr, 0, 0, lookahead, 0, 0, 0);
	for (i = 0; i < nr; i++) {
		int err = ra_batch_add_folio(mapping, b, index + i, 0, i == mark);

		if (err == -EEXIST) {
			ra_batch_read(mapping, filp, b);
			continue;
		}
		if (err)
			break;
	}
	ra_batch_read(mapping, filp, b);
	return index + i;
}

/* do_page_cache_ra(): ra_unbounded() trimmed at EOF (and then without a mark). */
static pgoff_t do_page_cache_ra(struct address_space *mapping, struct file_ra_state *ra,
				struct file *filp, struct ra_batch *b, pgoff_t index,
				unsigned long nr, unsigned long lookahead)
{
	pgoff_t end_index;

	if (mapping->size <= 0)
		return index;
	end_index = eof_index(mapping);
	if (index > end_index)
		return index;
	if (nr > end_index - index) {
		nr = end_index - index + 1;
		lookahead = 0;
	}
	return ra_unbounded(mapping, ra, filp, b, index, nr, lookahead);
}

/*
 * force_page_cache_ra(): at most max(io_pages, ra_pages) pages, 2 MiB at a
 * time, no mark; a chunk cut short by a failed allocation leaves the next
 * one to start where it stopped (the readahead_control's index), the count
 * going down by whole chunks.
 */
static void force_ra(struct address_space *mapping, struct file_ra_state *ra, struct file *filp,
		     struct ra_batch *b, pgoff_t index, unsigned long nr)
{
	struct backing_dev_info *bdi = mapping->backing_dev_info;
	unsigned long max = max(bdi ? bdi->io_pages : 0, ra->ra_pages);

	nr = min(nr, max);
	while (nr) {
		unsigned long chunk = min(LINUX_FORCE_CHUNK, nr);

		index = do_page_cache_ra(mapping, ra, filp, b, index, chunk, 0);
		nr -= chunk;
	}
}

/*
 * page_cache_ra_order(): the window [@start, @start + size) as folios of the
 * order asked, clamped; the folio holding page @start + size - async_size
 * marked, unless the window reaches the end of the file. @start is the
 * readahead_control's index: ra->start everywhere but the VM_HUGEPAGE fault,
 * which leaves ra->start as it was (linux_fault_sync()).
 */
static void ra_order(struct address_space *mapping, struct file_ra_state *ra, struct file *filp,
		     struct ra_batch *b, pgoff_t start)
{
	struct linux_ra *l = lx(ra);
	pgoff_t index = start, limit, mark;
	unsigned int new_order;
	int err = 0;

	ra_trace_linux(mapping, ra, RA_EV_RA_ORDER, start, 0, l->order, l->size, l->async_size,
		       (unsigned int)ra->ra_pages, 0, 0);
	if (mapping->size <= 0)
		return;
	limit = eof_index(mapping);
	if (limit > index + l->size - 1) {
		limit = index + l->size - 1;
		mark = index + l->size - l->async_size;
	} else {
		mark = ULONG_MAX;
	}
	new_order = min3(LINUX_MAX_FOLIO_ORDER, l->order, ilog2_ul(l->size));
	l->order = new_order;
	while (index <= limit) {
		unsigned int order = new_order;

		if (index & ((1UL << order) - 1))
			order = (unsigned int)__builtin_ctzl(index);
		while (order > 0 && index + (1UL << order) - 1 > limit)
			order--;
		err = ra_batch_add_folio(mapping, b, index, order,
					 index == (mark & ~((1UL << order) - 1)));
		if (err)
			break;
		index += 1UL << order;
	}
	ra_batch_read(mapping, filp, b);
	if (err && l->size > index - start)
		do_page_cache_ra(mapping, ra, filp, b, index, l->size - (index - start),
				 l->async_size);
}

/* Record the decision (lookahead's own trace and counters) of a call whose batch is @b. */
static void note(struct address_space *mapping, struct file_ra_state *ra, struct file *filp,
		 struct ra_batch *b, struct ra_call *call, pgoff_t index, unsigned long req,
		 pgoff_t win_start, unsigned long win_size, unsigned long win_async)
{
	ra_batch_end(filp, b);
	ra_call_note_io(call, b->submitted, call->async);
	ra_trace_record(mapping, ra, index, req, call, win_start, win_size, win_async);
}

/* page_cache_sync_ra(): page @index of the read is not cached; @req pages to its end. */
static bool linux_sync(struct address_space *mapping, struct file_ra_state *ra, struct file *filp,
		       pgoff_t index, unsigned long req)
{
	struct linux_ra *l = lx(ra);
	struct ra_call call = { .async = false };
	struct ra_batch b;
	unsigned long max, contig;
	pgoff_t prev_index, miss;
	bool forced = l->fmode_random;

	trace_op(RA_EV_SYNC_RA, mapping, ra, index, req);
	if (!ra->ra_pages) {
		req = 1;
		forced = true;
	}
	if (forced) {
		ra_batch_begin(&b, ra, req);
		force_ra(mapping, ra, filp, &b, index, req);
		call.rcase = ra->ra_pages ? RA_CASE_FADV_RANDOM : RA_CASE_OFF;
		note(mapping, ra, filp, &b, &call, index, req, index, req, 0);
		return true;
	}
	max = max_pages(mapping, ra, req);
	/* prev_pos -1 before any read: its page is 2^52 - 1, far from every index */
	prev_index = (pgoff_t)((uint64_t)ra->prev_pos >> PAGE_CACHE_SHIFT);
	if (!index || req > max || index - prev_index <= 1UL) {
		/* start of file, an oversized read, or sequential: a new window */
		l->start = index;
		l->size = init_ra_size(req, max);
		l->async_size = l->size > req ? l->size - req : l->size / 2;
		call.rcase = RA_CASE_SEQ_FIRST;
	} else {
		/* the cached pages just before the read: a stream's history */
		miss = prev_miss(mapping, index - 1, max);
		contig = index - miss - 1;
		if (contig <= req) {
			/* a small random read: the request alone, the state kept */
			ra_batch_begin(&b, ra, req);
			do_page_cache_ra(mapping, ra, filp, &b, index, req, 0);
			call.rcase = RA_CASE_RANDOM;
			note(mapping, ra, filp, &b, &call, index, req, index, req, 0);
			return true;
		}
		/* cached back to page 0: a long-running stream, or a whole-file read */
		if (miss == ULONG_MAX)
			contig *= 2;
		l->start = index;
		l->size = min(contig + req, max);
		l->async_size = 1;
		call.rcase = RA_CASE_CONTEXT;
	}
	l->order = 0;
	ra_batch_begin(&b, ra, l->size);
	ra_order(mapping, ra, filp, &b, l->start);
	note(mapping, ra, filp, &b, &call, index, req, l->start, l->size, l->async_size);
	return true;
}

/* Clear the mark on every page of @page's folio (Linux's folio flag). */
static void clear_folio_mark(struct address_space *mapping, struct page *page)
{
	pgoff_t first = page_folio_index(page), n = 1UL << page_folio_order(page);

	ClearPageReadahead(page);
	for (pgoff_t i = first; i < first + n; i++) {
		struct page *p = i == page->index ? NULL : find_get_page(mapping, i);

		if (p) {
			ClearPageReadahead(p);
			page_cache_release(p);
		}
	}
}

/*
 * page_cache_async_ra(): the folio of @page is marked. @index is what Linux
 * names: the folio's first page from read(2), the faulting page from mmap.
 */
static void async_ra(struct address_space *mapping, struct file_ra_state *ra, struct file *filp,
		     struct page *page, pgoff_t index, unsigned long req)
{
	struct linux_ra *l = lx(ra);
	struct ra_call call = { .async = true, .rcase = RA_CASE_SEQ_NEXT };
	unsigned long max, nr = 1UL << page_folio_order(page), align;
	pgoff_t expected, start, end;
	struct ra_batch b;

	if (!ra->ra_pages)
		return;
	trace_op(RA_EV_ASYNC_RA, mapping, ra, index, req);
	clear_folio_mark(mapping, page);
	max = max_pages(mapping, ra, req);
	expected = (l->start + l->size - l->async_size) & ~(nr - 1);
	if (index == expected) {
		/* the mark the last window put: a stream, ramp it up and push it on */
		l->start += l->size;
		l->size = max(l->size, next_ra_size(l->size, max));
	} else {
		/* another reader's mark: the window from the next hole, if one is near */
		start = next_miss(mapping, index + 1, max);
		if (!start || start - index > max) {
			call.rcase = RA_CASE_HOLE_SCAN;
			ra_trace_record(mapping, ra, index, req, &call, index, 0, 0);
			return;
		}
		l->start = start;
		l->size = next_ra_size(start - index + req, max);
		call.rcase = RA_CASE_HOLE_SCAN;
	}
	l->order += 2;
	align = 1UL << min(l->order, (unsigned int)__builtin_ctzl(max));
	end = l->start + l->size;
	if ((end & ~(align - 1)) > l->start)
		l->size = (end & ~(align - 1)) - l->start;
	l->async_size = l->size;
	ra_batch_begin(&b, ra, l->size);
	ra_order(mapping, ra, filp, &b, l->start);
	note(mapping, ra, filp, &b, &call, index, req, l->start, l->size, l->async_size);
}

/* From read(2): the marked folio's first page, and the request from there. */
static void linux_async(struct address_space *mapping, struct file_ra_state *ra,
			struct file *filp, struct page *page, pgoff_t index, unsigned long req)
{
	pgoff_t first = page_folio_index(page);

	async_ra(mapping, ra, filp, page, first, req + (index - first));
}

/*
 * do_sync_mmap_readahead(): a fault on a page that is not cached. The
 * mapping's kind decides: MADV_HUGEPAGE reads two order-9 folios from the
 * fault's 2 MiB boundary, the second marked, even with readahead off, and
 * leaves ra->start where it was (7.2 sets only the readahead_control's
 * index: a later mark is judged against the old start); MADV_RANDOM reads
 * nothing; MADV_SEQUENTIAL is a sync readahead of ra_pages; VM_EXEC reads
 * ra_pages from the fault, clamped to the mapping, with no mark
 * (38b0ece6d763, 6.17; exec_folio_order() is 0 on x86); else read-around.
 * mmap_miss counts every fault here but VM_SEQ_READ's and VM_EXEC's.
 */
static void linux_fault_sync(struct file *file, pgoff_t pgoff, enum filemap_advice advice)
{
	struct address_space *mapping = file->f_mapping;
	struct file_ra_state *ra = &file->f_ra;
	struct linux_ra *l = lx(ra);
	struct ra_call call = { .rcase = RA_CASE_AROUND };
	unsigned long ra_pages = ra->ra_pages;
	pgoff_t start;
	struct ra_batch b;

	if (advice != FAULT_ADV_HUGEPAGE) {
		if (advice == FAULT_ADV_RANDOM || !ra_pages)
			return;
		if (advice == FAULT_ADV_SEQUENTIAL) {
			linux_sync(mapping, ra, file, pgoff, ra_pages);
			return;
		}
	}
	if (advice != FAULT_ADV_EXEC) {
		if (ra->mmap_miss < MMAP_MISS_CAP)
			ra->mmap_miss++;
		/* missing much more than hitting in this file: readahead only hurts */
		if (ra->mmap_miss > MMAP_LOTSAMISS)
			return;
	}
	if (advice == FAULT_ADV_HUGEPAGE) {
		call.rcase = RA_OWN_CASE(linux_case_base, LINUX_HUGEPAGE);
		start = pgoff & ~(PTRS_PER_PTE - 1);
		l->size = 2 * PTRS_PER_PTE;
		l->async_size = PTRS_PER_PTE;
		l->order = LINUX_MAX_FOLIO_ORDER;
	} else if (advice == FAULT_ADV_EXEC) {
		/* the mapping's end: every mapping here maps its whole file */
		start = l->start = pgoff;
		l->size = min(ra_pages, eof_index(mapping) + 1 - pgoff);
		l->async_size = 0;
		l->order = 0;
	} else {
		/* read-around, the mark a quarter from its end */
		start = l->start = pgoff > ra_pages / 2 ? pgoff - ra_pages / 2 : 0;
		l->size = ra_pages;
		l->async_size = ra_pages / 4;
		l->order = 0;
	}
	ra_batch_begin(&b, ra, l->size);
	ra_order(mapping, ra, file, &b, start);
	note(mapping, ra, file, &b, &call, pgoff, 1, start, l->size, l->async_size);
}

/* do_async_mmap_readahead(): a fault on a cached page. */
static void linux_fault_async(struct file *file, struct page *page, pgoff_t pgoff,
			      enum filemap_advice advice)
{
	struct file_ra_state *ra = &file->f_ra;

	if (advice == FAULT_ADV_RANDOM || !ra->ra_pages)
		return;
	/* VM_SEQ_READ and VM_EXEC faults never count a miss, nor a hit */
	if (!PageLocked(page) && advice != FAULT_ADV_SEQUENTIAL && advice != FAULT_ADV_EXEC &&
	    ra->mmap_miss)
		ra->mmap_miss--;
	if (PageReadahead(page))
		async_ra(file->f_mapping, ra, file, page, pgoff, ra->ra_pages);
}

/*
 * Fault-around may map @page's folio: uptodate, not under I/O, not marked.
 * Linux's folio flags are the folio's; here PG_locked and PG_uptodate are
 * each page's, set as each bio vector completes, and one folio's pages can
 * be read by more than one request (a file's blocks broken by an indirect
 * block). So every page of the folio is looked at: mapping a folio that is
 * half read would let the reader see frames the disk has not filled yet.
 * The mark is on every page of a folio (readahead.c), so one page tells.
 */
static bool mappable(struct address_space *mapping, struct page *page)
{
	pgoff_t first = page_folio_index(page), n = 1UL << page_folio_order(page);

	if (!PageUptodate(page) || PageLocked(page) || PageReadahead(page))
		return false;
	for (pgoff_t i = first; i < first + n; i++) {
		struct page *p = i == page->index ? NULL : find_get_page(mapping, i);
		bool ok = !p || (PageUptodate(p) && !PageLocked(p));

		if (p)
			page_cache_release(p);
		if (!ok)
			return false;
	}
	return true;
}

/*
 * filemap_map_pmd(): the first folio fault-around found is an order-9 one
 * whose 2 MiB nothing maps yet (pmd_none: no page table there) and which
 * ends before the file's last page (7.2 keeps a PMD off the file's end:
 * file_end >= folio_next_index()): do_set_pmd() maps it whole, and no
 * mmap_miss hit is counted. The mapping is taken to start on a 2 MiB
 * boundary (thp_get_unmapped_area() puts a file mapping of 2 MiB or more on
 * one), so the folio's 2 MiB is its own page table's.
 */
static bool map_pmd(struct file_mmap *m, pgoff_t first, unsigned int order)
{
	struct address_space *mapping = m->file->f_mapping;

	if (order != LINUX_MAX_FOLIO_ORDER || eof_index(mapping) < first + PTRS_PER_PTE ||
	    first + PTRS_PER_PTE > m->nr_pages)
		return false;
	for (pgoff_t i = first; i < first + PTRS_PER_PTE; i++)
		if (m->pages[i])
			return false;
	for (pgoff_t i = first; i < first + PTRS_PER_PTE; i++) {
		struct page *p = find_get_page(mapping, i);

		if (p) {
			m->map(m, i, p);
			page_cache_release(p);
		}
	}
	return true;
}

/*
 * do_fault_around() and filemap_map_pages(): map the pages of the 16 around
 * @pgoff (aligned, in the mapping, before EOF) that can be mapped, a large
 * folio whole when it lies in one page table's 2 MiB (Linux places a large
 * file mapping on a 2 MiB boundary; index 0 is taken to be on one), and the
 * first folio by one PMD when it can (map_pmd()); on a first attempt, a
 * page mapped by PTE for the fault itself is a hit (mmap_miss down by one),
 * except on a VM_SEQ_READ or VM_EXEC mapping. True when the faulting page
 * got mapped.
 */
static bool fault_around(struct file_mmap *m, pgoff_t pgoff, bool tried)
{
	struct file *file = m->file;
	struct address_space *mapping = file->f_mapping;
	struct file_ra_state *ra = &file->f_ra;
	pgoff_t from = pgoff & ~(FAULT_AROUND_PAGES - 1), to, index;
	bool hit = false, found = false;

	if (mapping->size <= 0)
		return false;
	to = min3(from + FAULT_AROUND_PAGES - 1, m->nr_pages - 1, eof_index(mapping));
	for (index = from; index <= to;) {
		struct page *page = find_get_page(mapping, index);
		pgoff_t first, last, i;
		unsigned int order;

		if (!page) {
			index++;
			continue;
		}
		if (!mappable(mapping, page)) {
			index = page_folio_index(page) + (1UL << page_folio_order(page));
			page_cache_release(page);
			continue;
		}
		first = page_folio_index(page);
		order = page_folio_order(page);
		last = first + (1UL << order) - 1;
		page_cache_release(page);
		if (!found && map_pmd(m, first, order))
			return m->pages[pgoff] != NULL;
		found = true;
		/* the whole folio if within the file and one page table, else the window's part */
		if (last <= eof_index(mapping) && last < m->nr_pages &&
		    first / PTRS_PER_PTE == last / PTRS_PER_PTE)
			i = first;
		else
			i = index, last = min(last, to);
		for (; i <= last; i++) {
			struct page *p = m->pages[i] ? NULL : find_get_page(mapping, i);

			if (!p)
				continue;
			if (m->map(m, i, p) == 0 && i == pgoff)
				hit = true;
			page_cache_release(p);
		}
		index = last + 1;
	}
	if (hit && !tried && m->advice != FAULT_ADV_SEQUENTIAL && m->advice != FAULT_ADV_EXEC &&
	    ra->mmap_miss)
		ra->mmap_miss--;
	return hit;
}

static bool linux_fault_around(struct file_mmap *m, pgoff_t pgoff)
{
	return fault_around(m, pgoff, false);
}

/*
 * After a fault that had to let go of the mapping (a major fault, a page
 * under I/O, an async readahead), Linux retries it: fault-around again,
 * without counting a hit. filemap-mmap.c calls this once the page is read.
 */
static void linux_fault_retry(struct file_mmap *m, pgoff_t pgoff)
{
	fault_around(m, pgoff, true);
}

/* generic_fadvise() of 7.2 (mm/fadvise.c). */
static int linux_fadvise(struct file *filp, loff_t offset, loff_t len, enum ra_fadvise advice)
{
	struct address_space *mapping = filp->f_mapping;
	struct file_ra_state *ra = &filp->f_ra;
	struct backing_dev_info *bdi = mapping->backing_dev_info;
	unsigned long bdi_pages = bdi ? bdi->ra_pages : ra_default_pages;
	struct ra_call call = { .rcase = RA_CASE_FORCED, .async = true };
	struct ra_batch b;
	pgoff_t start, end;

	if (bdi && !bdi->ra_pages_set)
		bdi_pages = ra->algo->default_ra_pages(bdi);
	switch (advice) {
	case FADV_NORMAL:
		ra->ra_pages = min_t(unsigned long, bdi_pages, RA_MAX_WINDOW);
		lx(ra)->fmode_random = false;
		break;
	case FADV_RANDOM:
		lx(ra)->fmode_random = true;
		break;
	case FADV_SEQUENTIAL:
		ra->ra_pages = min_t(unsigned long, 2 * bdi_pages, RA_MAX_WINDOW);
		lx(ra)->fmode_random = false;
		break;
	case FADV_WILLNEED:
		if (mapping->size <= 0)
			return 0;
		/* len 0: to the end (LLONG_MAX); every page the range touches */
		start = (pgoff_t)(offset >> PAGE_CACHE_SHIFT);
		end = len && len <= INT64_MAX - offset
			      ? (pgoff_t)((offset + len - 1) >> PAGE_CACHE_SHIFT)
			      : (pgoff_t)(INT64_MAX >> PAGE_CACHE_SHIFT);
		ra_batch_begin(&b, ra, end - start + 1);
		force_ra(mapping, ra, filp, &b, start, end - start + 1);
		note(mapping, ra, filp, &b, &call, start, end - start + 1, start,
		     b.submitted, 0);
		return (int)b.submitted;
	default:
		return -EINVAL;
	}
	ra->advice = advice;
	return 0;
}

/* A fault leaves prev_pos (and prev_index) where the last read() put it (filemap_fault()). */
static void linux_fault_end(struct file_ra_state *ra, pgoff_t index)
{
	(void)ra, (void)index;
}

/*
 * The default window (7.2's blk_apply_bdi_limits()): a spinning disk
 * reporting no optimal I/O size gets twice its largest request
 * (459779d04ae8), at least 128 KiB. Linux takes twice io_opt where a device
 * reports one, spinning or not; an ATA disk never does (libata's Block
 * Limits VPD page leaves the optimal transfer length 0).
 */
static unsigned long linux_default_ra_pages(const struct backing_dev_info *bdi)
{
	if (!bdi->rotational)
		return MAX_RA_PAGES;
	return max(2 * bdi->io_pages, (unsigned long)MAX_RA_PAGES);
}

const struct ra_algorithm ra_algo_linux = {
	.name = "linux",
	.title = "linux-7.2",
	.help = "Linux 7.2: sync/async readahead, large folios, mmap fault-around, fadvise; "
		"its tracepoints (ratrace format=linux)",
	.flags = RA_ALGO_MARKS | RA_ALGO_LINUX_EVENTS | RA_ALGO_FOLIOS,
	.cases = linux_cases,
	.nr_cases = LINUX_NR_CASES,
	.case_base = &linux_case_base,
	.fault_end = linux_fault_end,
	.sync = linux_sync,
	.async = linux_async,
	.fault_sync = linux_fault_sync,
	.fault_async = linux_fault_async,
	.fault_around = linux_fault_around,
	.fault_retry = linux_fault_retry,
	.fadvise = linux_fadvise,
	.default_ra_pages = linux_default_ra_pages,
};
RA_ALGORITHM(ra_algo_linux);
