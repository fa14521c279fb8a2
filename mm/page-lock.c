/*
 * The page lock: PG_locked is held while a page is being read in (or set
 * up); readers sleep until it clears. lock_page()/trylock_page() take it,
 * unlock_page() drops it and wakes everyone sleeping on the page, also
 * from interrupt handlers (I/O completion).
 *
 * Sleepers wait on one of a small table of wait queues hashed by page, as
 * Linux does, instead of a queue in every struct page: a wake-up may find
 * sleepers for other pages on the same queue, which simply re-check their
 * page and sleep again.
 */
#include "kernel/hash.h"
#include "kernel/log.h"
#include "kernel/sched.h"
#include "mm/internal.h"

#define PAGE_WAIT_TABLE_BITS 6

static struct wait_queue_head page_wait_table[1 << PAGE_WAIT_TABLE_BITS];

void page_lock_init(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(page_wait_table); i++)
		init_waitqueue_head(&page_wait_table[i]);
}

/*
 * Hashed by the page's number in the page cache's pool, not by its
 * address: which pages share a queue decides how many sleepers a wake-up
 * re-checks, which counts instructions, which is time on the virtual
 * clock; an address would make that depend on where the memmap landed.
 */
static struct wait_queue_head *page_waitqueue(const struct page *page)
{
	uintptr_t key = PageCachePool(page) ? page->pool_nr : page_to_pfn(page) + (1UL << 32);

	return &page_wait_table[hash_64(key, PAGE_WAIT_TABLE_BITS)];
}

void lock_page(struct page *page)
{
	while (!trylock_page(page))
		wait_event(*page_waitqueue(page), !PageLocked(page));
}

void unlock_page(struct page *page)
{
	if (!TestClearPageLocked(page))
		pr_err("unlock_page: frame %#lx was not locked\n", page_to_pfn(page));
	wake_up_all(page_waitqueue(page));
}

void wait_on_page_locked(struct page *page)
{
	if (PageLocked(page))
		wait_event(*page_waitqueue(page), !PageLocked(page));
}

bool wait_on_page_locked_timeout(struct page *page, uint64_t timeout_ns)
{
	if (!PageLocked(page))
		return true;
	return wait_event_timeout(*page_waitqueue(page), !PageLocked(page), timeout_ns);
}
