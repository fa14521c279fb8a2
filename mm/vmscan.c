/*
 * Page reclaim: the active and inactive LRU lists of Linux 2.6 and the
 * scan that frees page-cache pages when memory runs low.
 *
 *	new page ---> [inactive: head ... tail] ---> reclaimed
 *	                  ^   | 2nd access          (clean, unlocked,
 *	      aged, in    |   v                      only the cache's ref)
 *	      proportion  [active: head ... tail]
 *
 * mark_page_accessed() is Linux 2.6's: the first access sets PG_referenced,
 * a second one while inactive moves the page to the active list. Pages
 * read once therefore stay inactive and go first, in the order they came
 * in; readahead pages nobody has read yet are on the same list, and
 * evicting one of those is counted as thrashing (patch 002's cover letter:
 * "readahead thrashing"). As in 2.6 for page cache that is not mmapped,
 * PG_referenced alone does not keep an inactive page: only promotion does.
 *
 * Reclaim is 2.6.20's (shrink_zone() and below): every round scans both
 * lists in proportion to their lengths, so the active list is aged at the
 * inactive list's pace; its pages leave its tail for the inactive head
 * whether referenced or not, since page cache nobody mmaps has no second
 * chance there.
 *
 * A large folio (RA_ALGO_FOLIOS, mm/internal.h) is one entry, its head
 * page, as in Linux: added, aged, activated and evicted whole, the lists'
 * lengths and the scans counted in pages (isolate_lru_folios() adds a
 * folio's pages to its scan); its tails are never on a list. An access to
 * any of its pages is an access to the folio.
 *
 * Locking: list changes mask interrupts, since put_page() from an I/O
 * completion takes the last reference of a page off its list. Eviction
 * (unhashing from the page cache) runs only in thread context.
 */
#include "kernel/log.h"
#include "kernel/sync.h"
#include "mm/internal.h"

void (*readahead_thrashed_hook)(struct address_space *mapping, struct page *page);

static struct list_head active_list, inactive_list;
static unsigned long nr_active, nr_inactive;
static unsigned long nr_reclaimed, nr_thrashed, nr_scanned, nr_activated, nr_deactivated;
static unsigned long nr_scan_active, nr_scan_inactive; /* owed scans, shrink_zone() */
static bool reclaiming;

#define DEF_PRIORITY 12

void lru_init(void)
{
	INIT_LIST_HEAD(&active_list);
	INIT_LIST_HEAD(&inactive_list);
	nr_active = nr_inactive = 0;
	nr_reclaimed = nr_thrashed = nr_scanned = nr_activated = nr_deactivated = 0;
	nr_scan_active = nr_scan_inactive = 0;
	reclaiming = false;
}

void lru_cache_add(struct page *page)
{
	unsigned long flags;

	/* a tail: its folio's head is the entry */
	if (unlikely(page->flags & PG_FOLIO_ORDER_MASK) && PageTail(page))
		return;
	flags = local_irq_save();
	if (PageLRU(page)) {
		local_irq_restore(flags);
		pr_err("lru_cache_add: frame %#lx is already on an LRU list\n", page_to_pfn(page));
		return;
	}
	ClearPageActive(page);
	SetPageLRU(page);
	list_add(&page->lru, &inactive_list);
	nr_inactive += folio_nr_pages(page);
	local_irq_restore(flags);
}

void lru_del_page(struct page *page)
{
	unsigned long flags = local_irq_save();

	if (TestClearPageLRU(page)) {
		list_del(&page->lru);
		if (TestClearPageActive(page))
			nr_active -= folio_nr_pages(page);
		else
			nr_inactive -= folio_nr_pages(page);
	}
	local_irq_restore(flags);
}

void mark_page_accessed(struct page *page)
{
	unsigned long flags;

	/* folio_mark_accessed(): the folio's state, kept on its head */
	if (unlikely(page->flags & PG_FOLIO_ORDER_MASK) && PageTail(page)) {
		page = folio_head(page);
		if (!page)
			return;
	}
	flags = local_irq_save();
	if (!PageActive(page) && PageReferenced(page) && PageLRU(page)) {
		list_move(&page->lru, &active_list);
		nr_inactive -= folio_nr_pages(page);
		nr_active += folio_nr_pages(page);
		SetPageActive(page);
		ClearPageReferenced(page);
		nr_activated++;
		workingset_activation(folio_nr_pages(page));
	} else if (!PageReferenced(page)) {
		SetPageReferenced(page);
	}
	local_irq_restore(flags);
}

void lru_retain_inactive(struct page *page)
{
	unsigned long flags = local_irq_save();

	if (PageLRU(page) && !PageActive(page))
		list_move(&page->lru, &inactive_list);
	local_irq_restore(flags);
}

/*
 * 2.6.20's shrink_active_list() for page cache that nobody mmaps: up to
 * @nr_to_scan pages (a folio counting its pages) leave the tail of the
 * active list for the head of the inactive one whether or not they were
 * referenced (only mapped pages have their references checked there).
 * PG_referenced is left as it is, so a page used while active is activated
 * again by its next access.
 */
static void shrink_active_list(unsigned long nr_to_scan)
{
	while (nr_to_scan) {
		unsigned long flags = local_irq_save(), n;
		struct page *page;

		if (list_empty(&active_list)) {
			local_irq_restore(flags);
			break;
		}
		page = list_last_entry(&active_list, struct page, lru);
		n = folio_nr_pages(page);
		list_move(&page->lru, &inactive_list);
		ClearPageActive(page);
		nr_active -= n;
		nr_inactive += n;
		nr_deactivated += n;
		local_irq_restore(flags);
		nr_to_scan -= min(n, nr_to_scan);
	}
}

/* Called with the page isolated from the LRU and locked by us, holding the cache's reference. */
static void evict_page(struct page *page)
{
	struct address_space *mapping = page->mapping;

	if (PageReadaheadIO(page)) {
		nr_thrashed++;
		if (readahead_thrashed_hook)
			readahead_thrashed_hook(mapping, page);
	}
	workingset_eviction(mapping, page->index);
	__remove_from_page_cache(page);
	unlock_page(page);
	put_page(page);
	nr_reclaimed++;
}

/* Can reclaim take @page? Clean, unlocked, in a page cache, and only the cache holds it. */
static bool page_evictable(const struct page *page)
{
	return page->mapping && !PageLocked(page) && !PageDirty(page) && page_count(page) == 1;
}

/*
 * The tails of the large folio @head (isolated, interrupts masked) can all
 * go: Linux's folio has one lock and one reference count, so a page of it
 * under I/O or held by a reader keeps the whole folio. A tail already gone
 * (invalidated alone) is no obstacle.
 */
static bool folio_tails_evictable(struct page *head)
{
	unsigned long n = folio_nr_pages(head);

	for (unsigned long i = 1; i < n; i++) {
		struct page *p = __find_page(head->mapping, head->index + i);

		if (p && !page_evictable(p))
			return false;
	}
	return true;
}

/* Lock the tails of @head (interrupts masked), isolated with it. */
static void lock_folio_tails(struct page *head)
{
	for (unsigned long i = 1; i < folio_nr_pages(head); i++) {
		struct page *p = __find_page(head->mapping, head->index + i);

		if (p)
			SetPageLocked(p);
	}
}

/* Evict the tails of the folio at @index, locked by lock_folio_tails(). */
static void evict_folio_tails(struct address_space *mapping, pgoff_t index, unsigned long n)
{
	for (unsigned long i = 1; i < n; i++) {
		struct page *p = __find_page(mapping, index + i);

		if (p)
			evict_page(p);
	}
}

/*
 * 2.6.20's shrink_inactive_list(): look at up to @nr_to_scan pages from the
 * tail of the inactive list and evict the clean ones only the cache holds,
 * but no more than @budget of them (see shrink_page_cache()). A page under
 * I/O (locked) or in use goes back to the head; an unlocked one in use has
 * PG_referenced cleared, as page_referenced() does there before
 * remove_mapping() finds the extra reference. A large folio counts its
 * pages against both, and goes whole or stays whole.
 */
static unsigned long shrink_inactive_list(unsigned long nr_to_scan, unsigned long budget)
{
	unsigned long done = 0;

	while (nr_to_scan && done < budget) {
		unsigned long flags = local_irq_save(), n;
		struct page *page;

		if (list_empty(&inactive_list)) {
			local_irq_restore(flags);
			break;
		}
		page = list_last_entry(&inactive_list, struct page, lru);
		n = folio_nr_pages(page);
		nr_to_scan -= min(n, nr_to_scan);
		nr_scanned += n;
		if (!page_evictable(page) || (n > 1 && !folio_tails_evictable(page))) {
			if (!PageLocked(page))
				ClearPageReferenced(page);
			list_move(&page->lru, &inactive_list);
			local_irq_restore(flags);
			continue;
		}
		list_del(&page->lru);
		ClearPageLRU(page);
		nr_inactive -= n;
		SetPageLocked(page);
		if (n > 1)
			lock_folio_tails(page);
		local_irq_restore(flags);
		if (n > 1)
			evict_folio_tails(page->mapping, page->index, n);
		evict_page(page);
		done += n;
	}
	return done;
}

/* Add a list's share to its owed scan @owed; the pages to scan now: a batch or more, else 0. */
static inline unsigned long owed_scan(unsigned long *owed, unsigned long nr, int priority)
{
	unsigned long scan;

	*owed += (nr >> priority) + 1;
	scan = *owed;
	if (scan >= SWAP_CLUSTER_MAX || priority == 0)
		*owed = 0;
	else
		scan = 0;
	return scan;
}

/*
 * 2.6.20's shrink_zone(): each call owes the active and the inactive list a
 * scan in proportion to their length, (nr >> priority) + 1 pages, carried in
 * nr_scan_active and nr_scan_inactive until it reaches a batch of
 * SWAP_CLUSTER_MAX; the two lists are then scanned in turn, a batch at a
 * time. So the active list ages at the inactive list's pace whatever their
 * lengths: a page activated long ago leaves it even while the inactive list
 * is the longer one. At priority 0 the whole owed scan runs even below a
 * batch, so that a cache of a few pages (the tests', mem=16M) is reclaimed
 * in one call where Linux would carry the count to its next one.
 */
static unsigned long shrink_zone(int priority, unsigned long budget)
{
	unsigned long scan_active = owed_scan(&nr_scan_active, nr_active, priority);
	unsigned long scan_inactive = owed_scan(&nr_scan_inactive, nr_inactive, priority);
	unsigned long done = 0;

	while ((scan_active || scan_inactive) && done < budget) {
		unsigned long n;

		if (scan_active) {
			n = min(scan_active, SWAP_CLUSTER_MAX);
			scan_active -= n;
			shrink_active_list(n);
		}
		if (scan_inactive) {
			n = min(scan_inactive, SWAP_CLUSTER_MAX);
			scan_inactive -= n;
			done += shrink_inactive_list(n, budget - done);
		}
	}
	return done;
}

/*
 * Reclaim @nr pages: kswapd's balance_pgdat() loop. Scanning starts at
 * DEF_PRIORITY, each priority a step harder (twice the owed scan); a round
 * that frees a batch starts again from DEF_PRIORITY (2.6.20: "so kswapd
 * doesn't build up large priorities"). Where 2.6.20 finished a round's
 * owed scan, eviction stops once @nr pages are free, as later kernels stop
 * at sc->nr_to_reclaim: a call frees what it was asked for (the tests count
 * on it, and the pool's watermark is met, not overshot by a batch).
 */
unsigned long shrink_page_cache(unsigned long nr)
{
	unsigned long done = 0, got;
	int priority;

	if (reclaiming || nr == 0)
		return 0;
	reclaiming = true;
	priority = DEF_PRIORITY;
	while (done < nr && priority >= 0) {
		got = shrink_zone(priority, nr - done);
		done += got;
		if (got >= SWAP_CLUSTER_MAX)
			priority = DEF_PRIORITY;
		else
			priority--;
	}
	reclaiming = false;
	return done;
}

unsigned long reclaim_pages(unsigned long nr)
{
	return shrink_page_cache(nr);
}

void lru_get_stats(struct mm_stats *st)
{
	unsigned long flags = local_irq_save();

	st->active = nr_active;
	st->inactive = nr_inactive;
	local_irq_restore(flags);
	st->reclaimed = nr_reclaimed;
	st->thrashed = nr_thrashed;
}
