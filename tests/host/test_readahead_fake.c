/*
 * A fake page allocator and page cache for the readahead host tests
 * (build/host/test_readahead): just enough of mm/page.h and mm/pagemap.h
 * for mm/readahead*.c and mm/filemap.c, with counters the tests read
 * (fake_mm_lookups: find_get_page calls) and no reclaim of its own, so a
 * window sequence depends on nothing but the algorithm. The tests evict
 * pages explicitly (tests/common/test_ra_harness.c), calling the thrashing
 * hook as mm/vmscan.c does.
 *
 * It defines every mm symbol those files use, so the linker never pulls
 * mm's real objects out of libhost.a into this program; the same suites
 * also run on the real mm (build/host/test_readahead_mm and the kernel).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/log.h"
#include "kernel/sched.h"
#include "mm/mm.h"
#include "mm/pagemap.h"

#define FAKE_PAGES	8192		/* 32 MiB of "physical memory" */
#define FAKE_HASH	4096

struct page *mem_map;
unsigned long mem_min_pfn, mem_max_pfn;
uintptr_t mem_virt_offset;
void (*readahead_thrashed_hook)(struct address_space *mapping, struct page *page);

unsigned long fake_mm_lookups;		/* find_get_page() calls */

static void *arena;
static struct page *free_list;		/* chained through cache_next */
static unsigned long nr_free;
static LIST_HEAD(lru_list);
static unsigned long nr_lru;
static struct page *hash_table[FAKE_HASH];	/* (mapping, index) -> page, chained */
static unsigned long nr_cached;

static void fake_init(void)
{
	if (arena)
		return;
	arena = aligned_alloc(PAGE_SIZE, (size_t)FAKE_PAGES * PAGE_SIZE);
	mem_map = calloc(FAKE_PAGES, sizeof(struct page));
	if (!arena || !mem_map)
		panic("fake mm: cannot allocate %d pages", FAKE_PAGES);
	mem_min_pfn = 0;
	mem_max_pfn = FAKE_PAGES;
	mem_virt_offset = (uintptr_t)arena;
	for (long i = FAKE_PAGES - 1; i >= 0; i--) {
		struct page *p = &mem_map[i];

		INIT_LIST_HEAD(&p->lru);
		p->cache_next = free_list;
		free_list = p;
		nr_free++;
	}
}

bool mm_ready(void)
{
	fake_init();
	return true;
}

int mm_host_init(uint64_t bytes)
{
	(void)bytes;
	fake_init();
	return 0;
}

struct page *alloc_pages(unsigned int order)
{
	struct page *p;

	fake_init();
	if (order != 0 || !free_list)
		return NULL;
	p = free_list;
	free_list = p->cache_next;
	nr_free--;
	p->cache_next = NULL;
	p->flags = 0;
	p->_refcount = 1;
	p->mapping = NULL;
	p->index = 0;
	p->private = 0;
	INIT_LIST_HEAD(&p->lru);
	return p;
}

/* The fake's heap is the host's (readahead.c's lead-time array comes from it). */
void *__kmalloc(size_t size, gfp_t flags)
{
	return (flags & __GFP_ZERO) ? calloc(1, size) : malloc(size);
}

void kfree(const void *p)
{
	free((void *)p);
}

/* The fake has no RAM outside its pages: instruments fall back to the heap. */
void *mm_spare_alloc(size_t bytes)
{
	(void)bytes;
	return NULL;
}

unsigned long mm_spare_largest(void)
{
	return 0;
}

struct page *page_cache_alloc(struct address_space *mapping)
{
	(void)mapping;
	return alloc_pages(0);
}

/* A readahead folio's frames: as many single pages, failing only when they run out. */
int page_cache_alloc_folio(struct address_space *mapping, unsigned int order,
			   struct list_head *pages)
{
	for (unsigned long i = 0; i < 1UL << order; i++) {
		struct page *page = page_cache_alloc(mapping);

		if (!page) {
			while (!list_empty(pages)) {
				page = list_first_entry(pages, struct page, lru);
				list_del(&page->lru);
				put_page(page);
			}
			return -ENOMEM;
		}
		list_add_tail(&page->lru, pages);
	}
	return 0;
}

void put_page(struct page *p)
{
	if (p->_refcount <= 0)
		panic("fake mm: put_page on a free page (pfn %lu)", page_to_pfn(p));
	if (--p->_refcount)
		return;
	if (p->mapping)
		panic("fake mm: last reference of page %lu dropped while in a page cache",
		      p->index);
	if (TestClearPageLRU(p)) {
		list_del(&p->lru);
		nr_lru--;
	}
	p->flags = 0;
	p->cache_next = free_list;
	free_list = p;
	nr_free++;
}

void mm_get_stats(struct mm_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->total = FAKE_PAGES;
	st->free = nr_free;
	st->cache_pool = FAKE_PAGES;
	st->cache_free = nr_free;
	st->cached = nr_cached;
	st->inactive = nr_lru;
}

static struct page **bucket(struct address_space *mapping, pgoff_t index)
{
	uintptr_t key = (uintptr_t)mapping * 31 + index;

	return &hash_table[(key * 0x9e3779b97f4a7c15UL) >> 52 & (FAKE_HASH - 1)];
}

static struct page *lookup(struct address_space *mapping, pgoff_t index)
{
	for (struct page *p = *bucket(mapping, index); p; p = p->cache_next)
		if (p->mapping == mapping && p->index == index)
			return p;
	return NULL;
}

int address_space_init(struct address_space *mapping, const char *name,
		       const struct address_space_operations *a_ops,
		       struct backing_dev_info *bdi, loff_t size)
{
	fake_init();
	memset(mapping, 0, sizeof(*mapping));
	mapping->a_ops = a_ops;
	mapping->backing_dev_info = bdi;
	mapping->size = size;
	mapping->name = name;
	INIT_LIST_HEAD(&mapping->mappings_link);
	return 0;
}

void address_space_release(struct address_space *mapping)
{
	for (unsigned int b = 0; b < FAKE_HASH; b++) {
		struct page **pp = &hash_table[b];

		while (*pp) {
			struct page *p = *pp;

			if (p->mapping != mapping) {
				pp = &p->cache_next;
				continue;
			}
			if (PageLocked(p) || page_count(p) != 1)
				panic("fake mm: release of %s: page %lu in use (count %d)",
				      mapping->name, p->index, page_count(p));
			*pp = p->cache_next;
			p->mapping = NULL;
			p->cache_next = NULL;
			mapping->nrpages--;
			nr_cached--;
			put_page(p);
		}
	}
}

struct page *find_get_page(struct address_space *mapping, pgoff_t index)
{
	struct page *p = lookup(mapping, index);

	fake_mm_lookups++;
	if (p)
		get_page(p);
	return p;
}

/* radix_tree_next_hole()/prev_hole(), as mm/filemap-cache.c has them; each slot is a lookup. */
pgoff_t page_cache_next_miss(struct address_space *mapping, pgoff_t index, unsigned long max_scan)
{
	for (unsigned long i = 0; i < max_scan; i++) {
		fake_mm_lookups++;
		if (!lookup(mapping, index))
			break;
		if (++index == 0)
			break;
	}
	return index;
}

pgoff_t page_cache_prev_miss(struct address_space *mapping, pgoff_t index, unsigned long max_scan)
{
	for (unsigned long i = 0; i < max_scan; i++) {
		fake_mm_lookups++;
		if (!lookup(mapping, index))
			break;
		if (index-- == 0)
			return ULONG_MAX;
	}
	return index;
}

int add_to_page_cache(struct page *page, struct address_space *mapping, pgoff_t index)
{
	struct page **head;

	if (page->mapping)
		panic("fake mm: add_to_page_cache of a cached page");
	if (lookup(mapping, index))
		return -EEXIST;
	SetPageLocked(page);
	get_page(page);
	page->mapping = mapping;
	page->index = index;
	head = bucket(mapping, index);
	page->cache_next = *head;
	*head = page;
	mapping->nrpages++;
	nr_cached++;
	return 0;
}

void lru_cache_add(struct page *page)
{
	if (TestSetPageLRU(page))
		panic("fake mm: lru_cache_add of page %lu already on the LRU", page->index);
	list_add(&page->lru, &lru_list);
	nr_lru++;
}

void lru_retain_inactive(struct page *page)
{
	if (PageLRU(page))
		list_move(&page->lru, &lru_list);
}

int add_to_page_cache_lru(struct page *page, struct address_space *mapping, pgoff_t index)
{
	int err = add_to_page_cache(page, mapping, index);

	if (!err)
		lru_cache_add(page);
	return err;
}

void remove_from_page_cache(struct page *page)
{
	struct address_space *mapping = page->mapping;
	struct page **pp;

	if (!mapping)
		panic("fake mm: remove_from_page_cache of an uncached page");
	for (pp = bucket(mapping, page->index); *pp != page; pp = &(*pp)->cache_next)
		if (!*pp)
			panic("fake mm: page %lu missing from its hash chain", page->index);
	*pp = page->cache_next;
	page->cache_next = NULL;
	page->mapping = NULL;
	mapping->nrpages--;
	nr_cached--;
	put_page(page);
}

void mark_page_accessed(struct page *page)
{
	SetPageReferenced(page);
}

void unlock_page(struct page *page)
{
	if (!TestClearPageLocked(page))
		panic("fake mm: unlock_page of an unlocked page %lu", page->index);
}

/* The tests complete deferred I/O from host_wait_hook, as an interrupt would. */
bool wait_on_page_locked_timeout(struct page *page, uint64_t timeout_ns)
{
	(void)timeout_ns;
	while (PageLocked(page))
		if (!host_wait_hook || !host_wait_hook())
			return false;
	return true;
}

void wait_on_page_locked(struct page *page)
{
	if (!wait_on_page_locked_timeout(page, WAIT_FOREVER))
		panic("fake mm: page %lu stays locked and nothing can unlock it", page->index);
}

void lock_page(struct page *page)
{
	while (!trylock_page(page))
		wait_on_page_locked(page);
}
