/*
 * Memory pressure suite: more data than the page cache holds goes through
 * it (a fake file twice the page cache's pool, every page checked), so
 * page_cache_alloc() has to reclaim all along; the pool's free frames must
 * stay near its watermarks, the kernel's own allocations must keep working
 * and never lose a frame to the cache. Then readahead-style
 * pages that nobody reads must be counted as thrashed when evicted, and
 * pages read right after their readahead must not.
 *
 * In the kernel this is the "mem=64M keeps working" test: run it with
 * tools/run-qemu -- mem=64M run=selftest (it scales to any memory size).
 */
#include "tests/common/test_mm_helpers.h"

static void test_stream_twice_memory(struct ktest *t)
{
	struct fake_file ff;
	struct mm_stats st0, st, st1;
	unsigned long n, i, bad = 0, min_free = ULONG_MAX;
	struct page *p;
	void *obj;

	mm_get_stats(&st0);
	n = 2 * st0.cache_pool + 1024;
	KT_ASSERT_EQ(t, fake_file_init(&ff, "pressure-stream", 7, n), 0);
	for (i = 0; i < n; i++) {
		p = read_cache_page(&ff.mapping, i, NULL);
		if (IS_ERR(p)) {
			KT_FAIL(t, "read_cache_page(%lu of %lu): error %ld", i, n, PTR_ERR(p));
			break;
		}
		bad += fake_check(p, ff.seed, i) != 0;
		mark_page_accessed(p);
		put_page(p);
		if ((i & 63) == 0) {
			mm_get_stats(&st);
			min_free = min(min_free, st.cache_free);
		}
	}
	mm_get_stats(&st1);
	KT_EXPECT_EQ(t, bad, 0);
	KT_EXPECT_EQ(t, ff.reads, n);
	KT_EXPECT_GE(t, st1.reclaimed - st0.reclaimed, n - st0.cache_pool);
	KT_EXPECT_LE(t, ff.mapping.nrpages, st0.cache_pool);
	/* Reclaim ran ahead of the allocations: the pool never ran out. */
	KT_EXPECT_GE(t, min_free, st0.wmark_low / 2);
	/* The kernel's free frames did not go to the cache (the index's own slab aside). */
	KT_EXPECT_GE(t, st1.free + 64, st0.free);
	pr_info("    # streamed %lu pages through a pool of %lu: reclaimed %lu, min free %lu "
		"(low watermark %lu)\n",
		n, st0.cache_pool, st1.reclaimed - st0.reclaimed, min_free, st0.wmark_low);

	/* The start of the file was evicted long ago: it reads again, correctly. */
	p = read_cache_page(&ff.mapping, 0, NULL);
	KT_ASSERT_TRUE(t, !IS_ERR(p));
	KT_EXPECT_EQ(t, ff.reads, n + 1);
	KT_EXPECT_EQ(t, fake_check(p, ff.seed, 0), 0);
	put_page(p);
	obj = kmalloc(64 * 1024);
	KT_EXPECT_TRUE(t, obj != NULL);
	kfree(obj);
	address_space_release(&ff.mapping);
	mm_get_stats(&st1);
	KT_EXPECT_GE(t, st1.free + 64, st0.free);
}

static struct address_space *thrash_mapping;
static unsigned long thrash_calls;
static void (*saved_hook)(struct address_space *, struct page *);

static void count_thrash(struct address_space *mapping, struct page *page)
{
	if (mapping == thrash_mapping)
		thrash_calls++;
	else if (saved_hook)
		saved_hook(mapping, page);
}

/* Read page @index "ahead": cached, PG_readahead_io set by the fake file, nobody reads it. */
static int read_ahead_one(struct fake_file *ff, pgoff_t index)
{
	struct page *p = page_cache_alloc(&ff->mapping);
	int err;

	if (!p)
		return -ENOMEM;
	err = add_to_page_cache_lru(p, &ff->mapping, index);
	if (err) {
		put_page(p);
		return err;
	}
	get_page(p);
	ff->mapping.a_ops->readpage(NULL, p);
	put_page(p);
	return 0;
}

/* Count thrash reports for @mapping (others go on to whoever was hooked before). */
static void thrash_watch_begin(struct address_space *mapping)
{
	saved_hook = readahead_thrashed_hook;
	thrash_mapping = mapping;
	thrash_calls = 0;
	readahead_thrashed_hook = count_thrash;
}

static void thrash_watch_end(void)
{
	readahead_thrashed_hook = saved_hook;
}

static void test_unread_readahead_is_thrashed(struct ktest *t)
{
	struct fake_file ff;
	struct mm_stats st0, st1;
	unsigned long n, i;

	mm_get_stats(&st0);
	n = st0.total + st0.total / 2;
	KT_ASSERT_EQ(t, fake_file_init(&ff, "pressure-thrash", 8, n), 0);
	ff.mark_readahead = true;
	thrash_watch_begin(&ff.mapping);
	for (i = 0; i < n; i++) {
		if (read_ahead_one(&ff, i)) {
			KT_FAIL(t, "read ahead of page %lu of %lu failed", i, n);
			break;
		}
	}
	mm_get_stats(&st1);
	thrash_watch_end();
	KT_EXPECT_GE(t, thrash_calls, n - st0.total);
	KT_EXPECT_GE(t, st1.thrashed - st0.thrashed, thrash_calls);
	KT_EXPECT_EQ(t, thrash_calls + ff.mapping.nrpages, n);
	address_space_release(&ff.mapping);
}

static void test_readahead_then_read_is_not_thrashed(struct ktest *t)
{
	struct fake_file ff;
	struct mm_stats st0, st1;
	unsigned long n, i, unread = 0;

	mm_get_stats(&st0);
	n = st0.total + st0.total / 2;
	KT_ASSERT_EQ(t, fake_file_init(&ff, "pressure-consume", 9, n), 0);
	ff.mark_readahead = true;
	thrash_watch_begin(&ff.mapping);
	for (i = 0; i < n; i++) {
		struct page *p;

		if (read_ahead_one(&ff, i)) {
			KT_FAIL(t, "read ahead of page %lu of %lu failed", i, n);
			break;
		}
		/* The reader consumes it at once, as a sequential read does. */
		p = find_get_page(&ff.mapping, i);
		if (!p) {
			unread++;
			continue;
		}
		ClearPageReadaheadIO(p);
		mark_page_accessed(p);
		put_page(p);
	}
	mm_get_stats(&st1);
	thrash_watch_end();
	KT_EXPECT_EQ(t, unread, 0);
	KT_EXPECT_EQ(t, thrash_calls, 0);
	KT_EXPECT_GE(t, st1.reclaimed - st0.reclaimed, n - st0.total);
	address_space_release(&ff.mapping);
}

KTEST_SUITE(mm_pressure, mm_suite_ready, KTEST_CASE(test_stream_twice_memory),
	    KTEST_CASE(test_unread_readahead_is_thrashed),
	    KTEST_CASE(test_readahead_then_read_is_not_thrashed));
