/*
 * The page cache index: per address_space, a hash table of the cached
 * pages keyed by page index, chained through page->cache_next, so lookup
 * costs O(1) however many pages a file has cached.
 *
 *	mapping->hash ──> [chunk 0][chunk 1]...	 each chunk: 512 buckets (one page)
 *	bucket = (index * 2^64/phi) >> (64 - hash_bits)
 *	bucket ──> page(index 7) ──> page(index 901) ──> NULL
 *
 * The table doubles when nrpages exceeds the number of buckets (rehash),
 * so chains stay about one long. Buckets live in page-sized chunks: a big
 * table never needs a large contiguous block, which a fragmented memory
 * may not have. If growing fails the old table keeps working, just with
 * longer chains.
 *
 * Every address_space is on one list, which drop_pagecache() walks.
 * These structures change only in thread context (never from an
 * interrupt handler); allocation may reclaim, which unhashes pages, so
 * every insert allocates what it needs before it touches a chain.
 */
#include <limits.h>
#include <string.h>

#include "kernel/hash.h"
#include "kernel/log.h"
#include "kernel/time.h"
#include "mm/internal.h"

#define HASH_MIN_BITS 4
#define HASH_MAX_BITS 28
#define CHUNK_SHIFT   (PAGE_SHIFT - 3) /* 512 bucket pointers per page */
#define CHUNK_BUCKETS (1UL << CHUNK_SHIFT)

static struct list_head all_mappings;
static unsigned long nr_cached, nr_dropped, nr_grow_failures;

void page_cache_init(void)
{
	INIT_LIST_HEAD(&all_mappings);
	nr_cached = nr_dropped = nr_grow_failures = 0;
}

static inline unsigned long hash_of(pgoff_t index, unsigned int bits)
{
	return hash_64(index, bits);
}

static unsigned long nr_chunks(unsigned int bits)
{
	return bits > CHUNK_SHIFT ? 1UL << (bits - CHUNK_SHIFT) : 1;
}

static void hash_free(struct page ***table, unsigned int bits)
{
	unsigned long i;

	if (!table)
		return;
	for (i = 0; i < nr_chunks(bits); i++)
		kfree(table[i]);
	kfree(table);
}

static struct page ***hash_alloc(unsigned int bits)
{
	unsigned long i, n = nr_chunks(bits);
	size_t chunk = min(1UL << bits, CHUNK_BUCKETS) * sizeof(struct page *);
	/* a workload's, as Linux's radix-tree nodes: from the page cache's RAM */
	struct page ***table = kcalloc(n, sizeof(*table), GFP_WORKLOAD);

	if (!table)
		return NULL;
	for (i = 0; i < n; i++) {
		table[i] = kzalloc(chunk, GFP_WORKLOAD);
		if (!table[i]) {
			hash_free(table, bits); /* kfree(NULL) is fine for the rest */
			return NULL;
		}
	}
	return table;
}

static inline struct page **bucket(struct address_space *mapping, pgoff_t index)
{
	unsigned long h = hash_of(index, mapping->hash_bits);

	return &mapping->hash[h >> CHUNK_SHIFT][h & (CHUNK_BUCKETS - 1)];
}

static inline struct page *page_cache_lookup(struct address_space *mapping, pgoff_t index)
{
	struct page *page;

	for (page = *bucket(mapping, index); page; page = page->cache_next)
		if (page->index == index)
			return page;
	return NULL;
}

struct page *__find_page(struct address_space *mapping, pgoff_t index)
{
	return page_cache_lookup(mapping, index);
}

struct page *folio_head(struct page *page)
{
	struct page *head;

	if (!PageTail(page))
		return page;
	if (!page->mapping)
		return NULL;
	head = page_cache_lookup(page->mapping, page_folio_index(page));
	return head && head->index == page_folio_index(page) &&
			       page_folio_order(head) == page_folio_order(page)
		       ? head
		       : NULL;
}

/* Move every page of @mapping into a new table of 2^@bits buckets; false if out of memory. */
static bool rehash(struct address_space *mapping, unsigned int bits)
{
	struct page ***table = hash_alloc(bits), ***old;
	unsigned int old_bits;
	unsigned long b;

	if (!table)
		return false;
	/* Allocation may have reclaimed pages of this mapping: read the old table only now. */
	old = mapping->hash;
	old_bits = mapping->hash_bits;
	mapping->hash = table;
	mapping->hash_bits = bits;
	for (b = 0; b < (1UL << old_bits); b++) {
		struct page *page = old[b >> CHUNK_SHIFT][b & (CHUNK_BUCKETS - 1)], *next;

		for (; page; page = next) {
			struct page **head = bucket(mapping, page->index);

			next = page->cache_next;
			page->cache_next = *head;
			*head = page;
		}
	}
	hash_free(old, old_bits);
	return true;
}

int address_space_init(struct address_space *mapping, const char *name,
		       const struct address_space_operations *a_ops, struct backing_dev_info *bdi,
		       loff_t size)
{
	if (!mapping)
		return -EINVAL;
	mapping->hash = hash_alloc(HASH_MIN_BITS);
	if (!mapping->hash) {
		pr_err("address_space_init(%s): out of memory for the page index\n",
		       name ? name : "?");
		return -ENOMEM;
	}
	mapping->hash_bits = HASH_MIN_BITS;
	mapping->a_ops = a_ops;
	mapping->backing_dev_info = bdi;
	mapping->size = size;
	mapping->nrpages = 0;
	mapping->name = name;
	mapping->ws_id = workingset_new_id();
	list_add_tail(&mapping->mappings_link, &all_mappings);
	return 0;
}

void address_space_release(struct address_space *mapping)
{
	unsigned long b;

	if (!mapping->hash) {
		pr_err("address_space_release(%s): not initialised or released twice\n",
		       mapping->name ? mapping->name : "?");
		return;
	}
	for (b = 0; b < (1UL << mapping->hash_bits); b++) {
		struct page *page, *next;

		for (page = mapping->hash[b >> CHUNK_SHIFT][b & (CHUNK_BUCKETS - 1)]; page;
		     page = next) {
			next = page->cache_next;
			if (PageLocked(page) || page_count(page) != 1)
				pr_err("address_space_release(%s): page %lu still in use "
				       "(count %d%s)\n",
				       mapping->name ? mapping->name : "?", page->index,
				       page_count(page), PageLocked(page) ? ", locked" : "");
			__remove_from_page_cache(page);
			put_page(page);
		}
	}
	hash_free(mapping->hash, mapping->hash_bits);
	mapping->hash = NULL;
	list_del(&mapping->mappings_link);
}

struct page *find_get_page(struct address_space *mapping, pgoff_t index)
{
	struct page *page = page_cache_lookup(mapping, index);

	if (page)
		get_page(page);
	return page;
}

struct page *find_lock_page(struct address_space *mapping, pgoff_t index)
{
	struct page *page;

	for (;;) {
		page = find_get_page(mapping, index);
		if (!page)
			return NULL;
		lock_page(page);
		/* It may have been evicted (and reused) while we slept. */
		if (page->mapping == mapping && page->index == index)
			return page;
		unlock_page(page);
		put_page(page);
	}
}

int add_to_page_cache(struct page *page, struct address_space *mapping, pgoff_t index)
{
	struct page **head;

	if (page->mapping) {
		pr_err("add_to_page_cache(%s, %lu): frame %#lx is already cached at %lu\n",
		       mapping->name ? mapping->name : "?", index, page_to_pfn(page), page->index);
		return -EINVAL;
	}
	if (page_cache_lookup(mapping, index))
		return -EEXIST;
	if (mapping->nrpages >= (1UL << mapping->hash_bits) && mapping->hash_bits < HASH_MAX_BITS &&
	    !rehash(mapping, mapping->hash_bits + 1)) {
		if (nr_grow_failures++ == 0)
			pr_warn("page cache: out of memory growing the index of %s at %lu pages "
				"(lookups get slower)\n",
				mapping->name ? mapping->name : "?", mapping->nrpages);
	}
	SetPageLocked(page);
	get_page(page);
	page->mapping = mapping;
	page->index = index;
	head = bucket(mapping, index);
	page->cache_next = *head;
	*head = page;
	mapping->nrpages++;
	nr_cached++;
	/* filemap_add_folio() over a shadow: a refault (mm/workingset.c) */
	if (unlikely(workingset_nr_shadows))
		workingset_refault(mapping, index);
	return 0;
}

int add_to_page_cache_lru(struct page *page, struct address_space *mapping, pgoff_t index)
{
	int err = add_to_page_cache(page, mapping, index);

	if (!err)
		lru_cache_add(page);
	return err;
}

void __remove_from_page_cache(struct page *page)
{
	struct address_space *mapping = page->mapping;
	struct page **pp;

	for (pp = bucket(mapping, page->index); *pp; pp = &(*pp)->cache_next) {
		if (*pp == page) {
			*pp = page->cache_next;
			page->cache_next = NULL;
			page->mapping = NULL;
			mapping->nrpages--;
			nr_cached--;
			return;
		}
	}
	panic("page cache of %s: frame %#lx (index %lu) is not in its hash chain",
	      mapping->name ? mapping->name : "?", page_to_pfn(page), page->index);
}

void remove_from_page_cache(struct page *page)
{
	if (!page->mapping) {
		pr_err("remove_from_page_cache: frame %#lx is not in a page cache\n",
		       page_to_pfn(page));
		return;
	}
	__remove_from_page_cache(page);
	put_page(page);
}

pgoff_t page_cache_next_miss(struct address_space *mapping, pgoff_t index, unsigned long max_scan)
{
	unsigned long i;

	for (i = 0; i < max_scan; i++) {
		if (!page_cache_lookup(mapping, index))
			break;
		index++;
		if (index == 0)
			break;
	}
	return index;
}

pgoff_t page_cache_prev_miss(struct address_space *mapping, pgoff_t index, unsigned long max_scan)
{
	unsigned long i;

	for (i = 0; i < max_scan; i++) {
		if (!page_cache_lookup(mapping, index))
			break;
		index--;
		if (index == ULONG_MAX)
			break;
	}
	return index;
}

/*
 * read_cache_page() gives up on ->readpage once the disk has completed no
 * request for this long (wait_on_page_io(): a metadata read queued behind
 * many readers waits its turn).
 */
#define READ_CACHE_PAGE_STALL_NS (30 * NSEC_PER_SEC)

struct page *read_cache_page(struct address_space *mapping, pgoff_t index, struct file *filp)
{
	const char *name = mapping->name ? mapping->name : "?";
	struct page *page;
	int err;

	if (!mapping->a_ops || !mapping->a_ops->readpage) {
		pr_err("read_cache_page(%s, %lu): the mapping has no readpage operation\n", name,
		       index);
		return ERR_PTR(-EINVAL);
	}
	for (;;) {
		page = find_get_page(mapping, index);
		if (!page) {
			page = page_cache_alloc(mapping);
			if (!page)
				return ERR_PTR(-ENOMEM);
			err = add_to_page_cache_lru(page, mapping, index);
			if (err) {
				put_page(page);
				if (err == -EEXIST)
					continue;
				return ERR_PTR(err);
			}
			break; /* ours: locked, not uptodate */
		}
		if (PageUptodate(page))
			return page;
		lock_page(page);
		if (page->mapping == mapping && page->index == index) {
			if (PageUptodate(page)) {
				unlock_page(page);
				return page;
			}
			ClearPageError(page);
			break; /* a cached page whose read failed: read it again */
		}
		/* Evicted while we waited for the lock: start over. */
		unlock_page(page);
		put_page(page);
	}
	get_page(page); /* the I/O's reference, dropped on completion */
	/* A failed submission completes the page with PG_error: the checks below see it. */
	err = mapping->a_ops->readpage(filp, page);
	if (!wait_on_page_io(page, mapping->backing_dev_info, READ_CACHE_PAGE_STALL_NS, NULL)) {
		pr_err("read_cache_page(%s, %lu): readpage did not complete the page: the disk "
		       "completed no request for %llu s\n",
		       name, index, READ_CACHE_PAGE_STALL_NS / NSEC_PER_SEC);
		put_page(page);
		return ERR_PTR(-ETIMEDOUT);
	}
	if (!PageUptodate(page)) {
		put_page(page);
		/* no memory to read it is not an I/O error: the caller says which */
		return ERR_PTR(err == -ENOMEM ? -ENOMEM : -EIO);
	}
	return page;
}

/*
 * For checkers (tests/host/fuzz_ra.c, after every operation), no part of
 * what they check: no coverage.
 */
__no_coverage long page_cache_walk(struct address_space *mapping,
				   void (*fn)(void *arg, struct page *page), void *arg)
{
	unsigned int bits = mapping->hash_bits;
	unsigned long b;
	long n = 0;

	for (b = 0; b < (1UL << bits); b++) {
		struct page *page = mapping->hash[b >> CHUNK_SHIFT][b & (CHUNK_BUCKETS - 1)];

		for (; page; page = page->cache_next) {
			/* hash_of(), not bucket(): that one is not inlined, and has coverage */
			if (page->mapping != mapping || hash_of(page->index, bits) != b)
				return -EBADMSG;
			fn(arg, page);
			n++;
		}
	}
	return n;
}

/* Evict @page if nobody but the cache uses it; true if it went. */
static bool invalidate_page(struct page *page)
{
	if (PageDirty(page) || page_count(page) != 1 || !trylock_page(page))
		return false;
	lru_del_page(page);
	__remove_from_page_cache(page);
	unlock_page(page);
	put_page(page);
	return true;
}

/*
 * The folio @head heads, whole or not at all (Linux's mapping_evict_folio()
 * takes a folio, its one reference count and lock): the pages dropped.
 */
static unsigned long invalidate_folio(struct page *head)
{
	struct address_space *mapping = head->mapping;
	unsigned long n = folio_nr_pages(head), i, got = 0;

	for (i = 0; i < n; i++) {
		struct page *p = i ? __find_page(mapping, head->index + i) : head;

		if (p && (PageDirty(p) || PageLocked(p) || page_count(p) != 1))
			return 0;
	}
	for (i = n; i-- > 0;) {
		struct page *p = i ? __find_page(mapping, head->index + i) : head;

		if (!p)
			continue;
		if (invalidate_page(p))
			got++;
		else
			pr_err("invalidate: page %lu of a folio at %lu of %s would not go\n",
			       head->index + i, head->index, mapping->name ? mapping->name : "?");
	}
	return got;
}

/*
 * Drop every clean, unlocked, unused page of @mapping, then shrink its
 * index to fit what is left. Returns the number of pages dropped. A large
 * folio goes with its head (its tails wait for it), and taking one out
 * may unhash the chain's next page: the chain is walked again.
 */
unsigned long invalidate_mapping_pages(struct address_space *mapping)
{
	unsigned long b, n = 0;
	unsigned int bits;

	for (b = 0; b < (1UL << mapping->hash_bits); b++) {
		struct page *page, *next;
		unsigned long got;
again:
		for (page = mapping->hash[b >> CHUNK_SHIFT][b & (CHUNK_BUCKETS - 1)]; page;
		     page = next) {
			next = page->cache_next;
			if (!page_folio_order(page)) {
				n += invalidate_page(page);
				continue;
			}
			if (PageTail(page) && folio_head(page))
				continue;
			if (PageTail(page)) {
				/* a tail without its head: never made here, but not left behind */
				n += invalidate_page(page);
				continue;
			}
			got = invalidate_folio(page);
			if (got) {
				n += got;
				goto again;
			}
		}
	}
	for (bits = HASH_MIN_BITS; (1UL << bits) < mapping->nrpages; bits++)
		;
	if (bits + 2 <= mapping->hash_bits)
		rehash(mapping, bits); /* on failure the bigger table simply stays */
	nr_dropped += n;
	return n;
}

/*
 * Linux's truncate_inode_pages(mapping, 0) for a file whose blocks stay as
 * they are: every page of @mapping leaves the cache, the way creat(2) of an
 * existing file empties it (iozone's pwrite test begins so). A page still
 * being read is waited for, at most @timeout_ns each. Returns the pages
 * dropped, -ETIMEDOUT if a read did not finish, or -EBUSY if somebody still
 * holds a page (a truncation never leaves a page of the old file behind).
 */
long truncate_inode_pages(struct address_space *mapping, uint64_t timeout_ns)
{
	unsigned long b;

	for (b = 0; b < (1UL << mapping->hash_bits); b++) {
		struct page *page;
again:
		for (page = mapping->hash[b >> CHUNK_SHIFT][b & (CHUNK_BUCKETS - 1)]; page;
		     page = page->cache_next) {
			bool done;

			if (!PageLocked(page))
				continue;
			get_page(page);
			done = wait_on_page_locked_timeout(page, timeout_ns);
			put_page(page);
			if (!done)
				return -ETIMEDOUT;
			goto again; /* the chain may have changed while we slept */
		}
	}
	b = invalidate_mapping_pages(mapping);
	return mapping->nrpages ? -EBUSY : (long)b;
}

unsigned long drop_pagecache(void)
{
	struct address_space *mapping;
	unsigned long n = 0;

	list_for_each_entry (mapping, &all_mappings, mappings_link)
		n += invalidate_mapping_pages(mapping);
	return n;
}

void page_cache_get_stats(struct mm_stats *st)
{
	st->cached = nr_cached;
	st->dropped = nr_dropped;
}
