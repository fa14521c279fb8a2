/*
 * Page reclaim: the active and inactive LRU lists of Linux 2.6 and the
 * scan that frees page-cache pages when memory runs low.
 *
 *	new page ---> [inactive: head ... tail] ---> reclaimed
 *	                  ^   | 2nd access          (clean, unlocked,
 *	     unreferenced |   v                      only the cache's ref)
 *	                [active: head ... tail]
 *	                  ^ referenced: second chance, back to the head
 *
 * mark_page_accessed() is Linux 2.6's: the first access sets PG_referenced,
 * a second one while inactive moves the page to the active list. Pages
 * read once therefore stay inactive and go first, in the order they came
 * in; readahead pages nobody has read yet are on the same list, and
 * evicting one of those is counted as thrashing (patch 002's cover letter:
 * "readahead thrashing"). As in 2.6 for page cache that is not mmapped,
 * PG_referenced alone does not keep an inactive page: only promotion does.
 *
 * The inactive list is refilled from the tail of the active list so that
 * it stays at least as long as the active list; an active page found with
 * PG_referenced has it cleared and goes back to the head (second chance).
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
static bool reclaiming;

void lru_init(void)
{
	INIT_LIST_HEAD(&active_list);
	INIT_LIST_HEAD(&inactive_list);
	nr_active = nr_inactive = 0;
	nr_reclaimed = nr_thrashed = nr_scanned = nr_activated = nr_deactivated = 0;
	reclaiming = false;
}

void lru_cache_add(struct page *page)
{
	unsigned long flags = local_irq_save();

	if (PageLRU(page)) {
		local_irq_restore(flags);
		pr_err("lru_cache_add: frame %#lx is already on an LRU list\n", page_to_pfn(page));
		return;
	}
	ClearPageActive(page);
	SetPageLRU(page);
	list_add(&page->lru, &inactive_list);
	nr_inactive++;
	local_irq_restore(flags);
}

void lru_del_page(struct page *page)
{
	unsigned long flags = local_irq_save();

	if (TestClearPageLRU(page)) {
		list_del(&page->lru);
		if (TestClearPageActive(page))
			nr_active--;
		else
			nr_inactive--;
	}
	local_irq_restore(flags);
}

void mark_page_accessed(struct page *page)
{
	unsigned long flags = local_irq_save();

	if (!PageActive(page) && PageReferenced(page) && PageLRU(page)) {
		list_move(&page->lru, &active_list);
		nr_inactive--;
		nr_active++;
		SetPageActive(page);
		ClearPageReferenced(page);
		nr_activated++;
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

/* Move up to @nr_to_scan pages from the tail of the active list towards the inactive list. */
static void refill_inactive(unsigned long nr_to_scan)
{
	while (nr_to_scan--) {
		unsigned long flags = local_irq_save();
		struct page *page;

		if (list_empty(&active_list)) {
			local_irq_restore(flags);
			break;
		}
		page = list_last_entry(&active_list, struct page, lru);
		if (TestClearPageReferenced(page)) {
			list_move(&page->lru, &active_list);
		} else {
			list_move(&page->lru, &inactive_list);
			ClearPageActive(page);
			nr_active--;
			nr_inactive++;
			nr_deactivated++;
		}
		local_irq_restore(flags);
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
	__remove_from_page_cache(page);
	unlock_page(page);
	put_page(page);
	nr_reclaimed++;
}

/* Scan the inactive list once from its tail, evicting up to @nr pages. */
static unsigned long shrink_inactive(unsigned long nr)
{
	unsigned long scan = nr_inactive, done = 0;

	while (scan-- && done < nr) {
		unsigned long flags = local_irq_save();
		struct page *page;

		if (list_empty(&inactive_list)) {
			local_irq_restore(flags);
			break;
		}
		page = list_last_entry(&inactive_list, struct page, lru);
		nr_scanned++;
		if (!page->mapping || PageLocked(page) || PageDirty(page) ||
		    page_count(page) != 1) {
			/* In use or under I/O: look again after the others. */
			list_move(&page->lru, &inactive_list);
			local_irq_restore(flags);
			continue;
		}
		list_del(&page->lru);
		ClearPageLRU(page);
		nr_inactive--;
		SetPageLocked(page);
		local_irq_restore(flags);
		evict_page(page);
		done++;
	}
	return done;
}

unsigned long shrink_page_cache(unsigned long nr)
{
	unsigned long done = 0;
	int pass;

	if (reclaiming || nr == 0)
		return 0;
	reclaiming = true;
	for (pass = 0; pass < 3 && done < nr; pass++) {
		if (nr_active > nr_inactive)
			refill_inactive(nr_active - nr_inactive);
		else if (pass == 1)
			refill_inactive(min(nr_active, 2 * (nr - done) + SWAP_CLUSTER_MAX));
		else if (pass == 2)
			/* Still short: every active page gets its one second chance now. */
			refill_inactive(2 * nr_active);
		done += shrink_inactive(nr - done);
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
