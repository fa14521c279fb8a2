/*
 * Page cache suite: insert, lookup, remove, -EEXIST, reference counts,
 * next/prev miss at the index boundaries (0 and ULONG_MAX), rehash while
 * growing, find_lock_page, read_cache_page through a fake file's
 * ->readpage (including a failing read and its retry), release of a
 * mapping with a page still in use, and invalidation.
 */
#include <limits.h>

#include "tests/common/test_mm_helpers.h"

static void test_insert_lookup_remove(struct ktest *t)
{
	static const pgoff_t idx[] = {0, 1, 5, 1000, 1UL << 40, ULONG_MAX - 1, ULONG_MAX};
	struct page *pages[ARRAY_SIZE(idx)], *p, *dup;
	struct fake_file ff;
	struct mm_stats st0, st1;
	unsigned int i;

	KT_ASSERT_EQ(t, fake_file_init(&ff, "pc-basic", 1, 0), 0);
	mm_get_stats(&st0);
	for (i = 0; i < ARRAY_SIZE(idx); i++) {
		pages[i] = alloc_page();
		KT_ASSERT_TRUE(t, pages[i] != NULL);
		KT_ASSERT_EQ(t, add_to_page_cache_lru(pages[i], &ff.mapping, idx[i]), 0);
		KT_EXPECT_TRUE(t, PageLocked(pages[i]));
		KT_EXPECT_TRUE(t, !PageUptodate(pages[i]));
		KT_EXPECT_TRUE(t, PageLRU(pages[i]));
		KT_EXPECT_EQ(t, page_count(pages[i]), 2); /* ours and the cache's */
		unlock_page(pages[i]);
	}
	KT_EXPECT_EQ(t, ff.mapping.nrpages, ARRAY_SIZE(idx));
	mm_get_stats(&st1);
	KT_EXPECT_EQ(t, st1.cached, st0.cached + ARRAY_SIZE(idx));
	for (i = 0; i < ARRAY_SIZE(idx); i++) {
		p = find_get_page(&ff.mapping, idx[i]);
		KT_EXPECT_TRUE(t, p == pages[i]);
		if (p) {
			KT_EXPECT_EQ(t, page_count(p), 3);
			KT_EXPECT_EQ(t, p->index, idx[i]);
			KT_EXPECT_TRUE(t, p->mapping == &ff.mapping);
			put_page(p);
		}
	}
	KT_EXPECT_TRUE(t, find_get_page(&ff.mapping, 2) == NULL);
	KT_EXPECT_TRUE(t, find_get_page(&ff.mapping, ULONG_MAX - 2) == NULL);

	dup = alloc_page();
	KT_ASSERT_TRUE(t, dup != NULL);
	KT_EXPECT_EQ(t, add_to_page_cache(dup, &ff.mapping, 1000), -EEXIST);
	KT_EXPECT_EQ(t, page_count(dup), 1);
	KT_EXPECT_TRUE(t, dup->mapping == NULL);
	/* A page already cached elsewhere is refused. */
	pr_info("    # the next error line is expected\n");
	KT_EXPECT_EQ(t, add_to_page_cache(pages[0], &ff.mapping, 77), -EINVAL);
	put_page(dup);

	remove_from_page_cache(pages[3]);
	KT_EXPECT_TRUE(t, find_get_page(&ff.mapping, 1000) == NULL);
	KT_EXPECT_TRUE(t, pages[3]->mapping == NULL);
	KT_EXPECT_EQ(t, page_count(pages[3]), 1);
	KT_EXPECT_EQ(t, ff.mapping.nrpages, ARRAY_SIZE(idx) - 1);
	KT_EXPECT_TRUE(t, is_cached(&ff.mapping, 5));
	for (i = 0; i < ARRAY_SIZE(idx); i++)
		put_page(pages[i]); /* ours; pages[3] is freed here */
	address_space_release(&ff.mapping);
	mm_get_stats(&st1);
	KT_EXPECT_EQ(t, st1.cached, st0.cached);
}

static void cache_range(struct ktest *t, struct address_space *m, pgoff_t first, pgoff_t last)
{
	pgoff_t i = first;

	for (;;) {
		KT_EXPECT_TRUE(t, cache_new_page(m, i, true) != NULL);
		if (i == last)
			break;
		i++;
	}
}

static void test_next_prev_miss_boundaries(struct ktest *t)
{
	struct fake_file ff;
	struct address_space *m = &ff.mapping;

	KT_ASSERT_EQ(t, fake_file_init(&ff, "pc-miss", 2, 0), 0);
	cache_range(t, m, 0, 4);
	cache_range(t, m, 10, 19);
	cache_range(t, m, ULONG_MAX - 2, ULONG_MAX);

	KT_EXPECT_EQ(t, page_cache_next_miss(m, 10, 100), 20);
	KT_EXPECT_EQ(t, page_cache_next_miss(m, 10, 5), 15); /* bounded: index + max_scan */
	KT_EXPECT_EQ(t, page_cache_next_miss(m, 10, 10), 20);
	KT_EXPECT_EQ(t, page_cache_next_miss(m, 9, 100), 9);
	KT_EXPECT_EQ(t, page_cache_next_miss(m, 20, 100), 20);
	KT_EXPECT_EQ(t, page_cache_next_miss(m, 12, 0), 12);
	KT_EXPECT_EQ(t, page_cache_next_miss(m, 0, 100), 5);
	/* Cached up to ULONG_MAX: the scan wraps to 0 and stops there. */
	KT_EXPECT_EQ(t, page_cache_next_miss(m, ULONG_MAX - 2, 100), 0);
	KT_EXPECT_EQ(t, page_cache_next_miss(m, ULONG_MAX - 2, 2), ULONG_MAX);
	KT_EXPECT_EQ(t, page_cache_next_miss(m, ULONG_MAX - 3, 100), ULONG_MAX - 3);

	KT_EXPECT_EQ(t, page_cache_prev_miss(m, 19, 100), 9);
	KT_EXPECT_EQ(t, page_cache_prev_miss(m, 19, 5), 14); /* bounded: index - max_scan */
	KT_EXPECT_EQ(t, page_cache_prev_miss(m, 19, 10), 9);
	KT_EXPECT_EQ(t, page_cache_prev_miss(m, 20, 100), 20);
	KT_EXPECT_EQ(t, page_cache_prev_miss(m, 15, 0), 15);
	/* Cached down to 0: ULONG_MAX says "no miss before the start". */
	KT_EXPECT_EQ(t, page_cache_prev_miss(m, 4, 100), ULONG_MAX);
	KT_EXPECT_EQ(t, page_cache_prev_miss(m, 4, 5), ULONG_MAX);
	KT_EXPECT_EQ(t, page_cache_prev_miss(m, 4, 3), 1);
	KT_EXPECT_EQ(t, page_cache_prev_miss(m, ULONG_MAX, 100), ULONG_MAX - 3);
	address_space_release(m);
}

#define NR_REHASH 5000

static void test_rehash_keeps_every_page(struct ktest *t)
{
	struct fake_file ff;
	struct address_space *m = &ff.mapping;
	unsigned int bits0, missing = 0, wrong = 0;
	unsigned long i, b, longest = 0;
	struct mm_stats st0, st1;

	mm_get_stats(&st0);
	KT_ASSERT_EQ(t, fake_file_init(&ff, "pc-rehash", 3, 0), 0);
	bits0 = m->hash_bits;
	/* Stride 3 so the indexes are not simply 0..n-1. */
	for (i = 0; i < NR_REHASH; i++)
		KT_ASSERT_TRUE(t, cache_new_page(m, i * 3, false) != NULL);
	KT_EXPECT_GT(t, m->hash_bits, bits0);
	KT_EXPECT_GE(t, 1UL << m->hash_bits, NR_REHASH);
	KT_EXPECT_EQ(t, m->nrpages, NR_REHASH);
	for (i = 0; i < NR_REHASH; i++) {
		struct page *p = find_get_page(m, i * 3);

		if (!p) {
			missing++;
			continue;
		}
		wrong += p->index != i * 3;
		put_page(p);
		missing += is_cached(m, i * 3 + 1); /* never inserted */
	}
	KT_EXPECT_EQ(t, missing, 0);
	KT_EXPECT_EQ(t, wrong, 0);
	for (b = 0; b < (1UL << m->hash_bits); b++) {
		unsigned long len = 0;
		struct page *p = m->hash[b >> (PAGE_SHIFT - 3)][b & ((PAGE_SIZE / 8) - 1)];

		for (; p; p = p->cache_next)
			len++;
		longest = max(longest, len);
	}
	/* About one page per bucket: O(1) lookups. */
	KT_EXPECT_LE(t, longest, 8);
	/* Remove every other page, then drop the rest: the index shrinks back. */
	for (i = 0; i < NR_REHASH; i += 2) {
		struct page *p = find_get_page(m, i * 3);

		KT_ASSERT_TRUE(t, p != NULL);
		remove_from_page_cache(p);
		put_page(p);
	}
	KT_EXPECT_EQ(t, m->nrpages, NR_REHASH / 2);
	KT_EXPECT_TRUE(t, is_cached(m, 3));
	KT_EXPECT_TRUE(t, !is_cached(m, 0));
	KT_EXPECT_EQ(t, invalidate_mapping_pages(m), NR_REHASH / 2);
	KT_EXPECT_EQ(t, m->nrpages, 0);
	KT_EXPECT_EQ(t, m->hash_bits, bits0);
	address_space_release(m);
	mm_get_stats(&st1);
	KT_EXPECT_EQ(t, st1.cached, st0.cached);
}

static void test_find_lock_page(struct ktest *t)
{
	struct fake_file ff;
	struct page *p;

	KT_ASSERT_EQ(t, fake_file_init(&ff, "pc-lock", 4, 0), 0);
	KT_ASSERT_TRUE(t, cache_new_page(&ff.mapping, 7, true) != NULL);
	KT_EXPECT_TRUE(t, find_lock_page(&ff.mapping, 8) == NULL);
	p = find_lock_page(&ff.mapping, 7);
	KT_ASSERT_TRUE(t, p != NULL);
	KT_EXPECT_TRUE(t, PageLocked(p));
	KT_EXPECT_TRUE(t, !trylock_page(p));
	KT_EXPECT_TRUE(t, !wait_on_page_locked_timeout(p, 1000));
	unlock_page(p);
	KT_EXPECT_TRUE(t, !PageLocked(p));
	KT_EXPECT_TRUE(t, wait_on_page_locked_timeout(p, 1000));
	KT_EXPECT_TRUE(t, trylock_page(p));
	unlock_page(p);
	put_page(p);
	address_space_release(&ff.mapping);
}

static void test_read_cache_page(struct ktest *t)
{
	struct fake_file ff;
	struct page *p;
	struct address_space bare;

	KT_ASSERT_EQ(t, fake_file_init(&ff, "pc-read", 5, 100), 0);
	ff.fail_from = 50;
	ff.fail_to = 51;
	p = read_cache_page(&ff.mapping, 3, NULL);
	KT_ASSERT_TRUE(t, !IS_ERR(p));
	KT_EXPECT_TRUE(t, PageUptodate(p));
	KT_EXPECT_TRUE(t, !PageLocked(p));
	KT_EXPECT_EQ(t, fake_check(p, ff.seed, 3), 0);
	KT_EXPECT_EQ(t, page_count(p), 2);
	put_page(p);
	KT_EXPECT_EQ(t, ff.reads, 1);
	p = read_cache_page(&ff.mapping, 3, NULL); /* cached: no second read */
	KT_ASSERT_TRUE(t, !IS_ERR(p));
	KT_EXPECT_EQ(t, ff.reads, 1);
	put_page(p);

	p = read_cache_page(&ff.mapping, 50, NULL);
	KT_EXPECT_EQ(t, PTR_ERR(p), -EIO);
	KT_EXPECT_EQ(t, ff.reads, 2);
	p = find_get_page(&ff.mapping, 50); /* left cached, marked bad */
	KT_ASSERT_TRUE(t, p != NULL);
	KT_EXPECT_TRUE(t, PageError(p) && !PageUptodate(p) && !PageLocked(p));
	KT_EXPECT_EQ(t, page_count(p), 2);
	put_page(p);
	ff.fail_to = 0; /* the retry reads it again */
	p = read_cache_page(&ff.mapping, 50, NULL);
	KT_ASSERT_TRUE(t, !IS_ERR(p));
	KT_EXPECT_EQ(t, ff.reads, 3);
	KT_EXPECT_TRUE(t, !PageError(p));
	KT_EXPECT_EQ(t, fake_check(p, ff.seed, 50), 0);
	put_page(p);
	address_space_release(&ff.mapping);

	KT_ASSERT_EQ(t, address_space_init(&bare, "pc-bare", NULL, NULL, 0), 0);
	pr_info("    # the next error line is expected\n");
	KT_EXPECT_EQ(t, PTR_ERR(read_cache_page(&bare, 0, NULL)), -EINVAL);
	address_space_release(&bare);
}

static void test_release_with_page_in_use(struct ktest *t)
{
	struct fake_file ff;
	struct page *kept, *p;

	KT_ASSERT_EQ(t, fake_file_init(&ff, "pc-release", 6, 0), 0);
	KT_ASSERT_TRUE(t, cache_new_page(&ff.mapping, 1, true) != NULL);
	KT_ASSERT_TRUE(t, cache_new_page(&ff.mapping, 2, true) != NULL);
	kept = find_get_page(&ff.mapping, 2);
	KT_ASSERT_TRUE(t, kept != NULL);
	p = find_get_page(&ff.mapping, 1);
	KT_ASSERT_TRUE(t, p != NULL);
	/* Invalidation spares pages in use. */
	KT_EXPECT_EQ(t, invalidate_mapping_pages(&ff.mapping), 0);
	put_page(p);
	KT_EXPECT_EQ(t, invalidate_mapping_pages(&ff.mapping), 1);
	KT_EXPECT_EQ(t, ff.mapping.nrpages, 1);
	pr_info("    # the next error line is expected\n");
	address_space_release(&ff.mapping); /* warns about the page we hold */
	KT_EXPECT_TRUE(t, kept->mapping == NULL);
	KT_EXPECT_EQ(t, page_count(kept), 1);
	KT_EXPECT_TRUE(t, PageLRU(kept));
	put_page(kept); /* the last reference frees it */
	KT_EXPECT_EQ(t, page_count(kept), 0);
	KT_EXPECT_TRUE(t, !PageLRU(kept));
}

/*
 * truncate_inode_pages(): every page goes, active and referenced ones too
 * (creat(2) empties the file however hot it was); a page being read is
 * waited for, boundedly; a page somebody holds makes it fail, loudly.
 */
static void test_truncate_inode_pages(struct ktest *t)
{
	struct fake_file ff;
	struct address_space *m = &ff.mapping;
	struct page *p;

	KT_ASSERT_EQ(t, fake_file_init(&ff, "pc-truncate", 7, 0), 0);
	cache_range(t, m, 0, 9);
	p = find_get_page(m, 3);
	KT_ASSERT_TRUE(t, p != NULL);
	mark_page_accessed(p);
	mark_page_accessed(p); /* the second access makes it active */
	KT_EXPECT_TRUE(t, PageActive(p));
	put_page(p);
	KT_EXPECT_EQ(t, truncate_inode_pages(m, 1000), 10);
	KT_EXPECT_EQ(t, m->nrpages, 0);

	/* A page still locked (being read) past the bound: -ETIMEDOUT, nothing dropped. */
	cache_range(t, m, 0, 3);
	p = find_lock_page(m, 2);
	KT_ASSERT_TRUE(t, p != NULL);
	KT_EXPECT_EQ(t, truncate_inode_pages(m, 1000), -ETIMEDOUT);
	KT_EXPECT_EQ(t, m->nrpages, 4);
	unlock_page(p);
	/* Held but no longer locked: the others go, the held one stays, -EBUSY. */
	KT_EXPECT_EQ(t, truncate_inode_pages(m, 1000), -EBUSY);
	KT_EXPECT_EQ(t, m->nrpages, 1);
	KT_EXPECT_TRUE(t, is_cached(m, 2));
	put_page(p);
	KT_EXPECT_EQ(t, truncate_inode_pages(m, 1000), 1);
	KT_EXPECT_EQ(t, m->nrpages, 0);
	address_space_release(m);
}

KTEST_SUITE(mm_pagecache, mm_suite_ready, KTEST_CASE(test_insert_lookup_remove),
	    KTEST_CASE(test_next_prev_miss_boundaries), KTEST_CASE(test_rehash_keeps_every_page),
	    KTEST_CASE(test_find_lock_page), KTEST_CASE(test_read_cache_page),
	    KTEST_CASE(test_release_with_page_in_use), KTEST_CASE(test_truncate_inode_pages));
