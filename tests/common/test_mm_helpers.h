/*
 * Helpers shared by the mm test suites (tests/common/test_mm_*.c and
 * tests/host/test_mm_*.c).
 *
 * mm_suite_ready() is the skip_if of the common suites: in the kernel they
 * run on the live allocator that kmain set up; on the host it sets up a
 * 64 MiB arena the first time. Common suites leave the allocator as they
 * found it (every page they take goes back).
 *
 * struct fake_file is a test double of a file: an address_space whose
 * ->readpage fills the page with a pattern derived from (seed, index) and
 * completes it at once, or fails indexes in [fail_from, fail_to).
 */
#ifndef TESTS_COMMON_TEST_MM_HELPERS_H
#define TESTS_COMMON_TEST_MM_HELPERS_H

#include <limits.h>
#include <string.h>

#include "kernel/ktest.h"
#include "kernel/log.h"
#include "mm/mm.h"
#include "mm/pagemap.h"

static inline const char *mm_suite_ready(void)
{
#ifdef HOST_BUILD
	if (!mm_ready() && mm_host_init(64ULL << 20) < 0)
		return "cannot set up a host memory arena";
#endif
	return mm_ready() ? NULL : "mm_init has not run";
}

struct fake_file {
	struct address_space mapping;
	uint64_t seed;
	unsigned long reads;	    /* ->readpage calls */
	pgoff_t fail_from, fail_to; /* readpage fails these indexes */
	bool mark_readahead;	    /* set PG_readahead_io on pages it reads */
};

static inline uint64_t fake_word(uint64_t seed, pgoff_t index, unsigned int w)
{
	return (seed ^ ((uint64_t)index << 16) ^ w) * 0x9e3779b97f4a7c15ULL;
}

static inline void fake_fill(struct page *page, uint64_t seed)
{
	uint64_t *words = page_address(page);
	unsigned int w;

	for (w = 0; w < PAGE_SIZE / 8; w++)
		words[w] = fake_word(seed, page->index, w);
}

/* Number of words of @page (holding @index) that differ from the pattern. */
static inline unsigned int fake_check(struct page *page, uint64_t seed, pgoff_t index)
{
	const uint64_t *words = page_address(page);
	unsigned int w, bad = 0;

	for (w = 0; w < PAGE_SIZE / 8; w++)
		bad += words[w] != fake_word(seed, index, w);
	return bad;
}

static inline int fake_readpage(struct file *filp, struct page *page)
{
	struct fake_file *ff = container_of(page->mapping, struct fake_file, mapping);

	(void)filp;
	ff->reads++;
	if (page->index >= ff->fail_from && page->index < ff->fail_to) {
		SetPageError(page);
	} else {
		fake_fill(page, ff->seed);
		SetPageUptodate(page);
		if (ff->mark_readahead)
			SetPageReadaheadIO(page);
	}
	unlock_page(page);
	put_page(page); /* the I/O reference */
	return 0;
}

static const struct address_space_operations fake_aops __attribute__((unused)) = {
	.readpage = fake_readpage,
};

static inline int fake_file_init(struct fake_file *ff, const char *name, uint64_t seed,
				 unsigned long pages)
{
	memset(ff, 0, sizeof(*ff));
	ff->seed = seed;
	return address_space_init(&ff->mapping, name, &fake_aops, NULL,
				  (loff_t)pages << PAGE_SHIFT);
}

/* Allocate a page and cache it at @index, unlocked and uptodate, holding only the cache's ref. */
static inline struct page *cache_new_page(struct address_space *m, pgoff_t index, bool lru)
{
	struct page *page = page_cache_alloc(m);

	if (!page)
		return NULL;
	if ((lru ? add_to_page_cache_lru : add_to_page_cache)(page, m, index)) {
		put_page(page);
		return NULL;
	}
	SetPageUptodate(page);
	unlock_page(page);
	put_page(page);
	return page;
}

static inline bool is_cached(struct address_space *m, pgoff_t index)
{
	struct page *page = find_get_page(m, index);

	if (page)
		put_page(page);
	return page != NULL;
}

#endif
