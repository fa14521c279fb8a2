/*
 * Host-only page cache and page lock suite: hash chains stay short for
 * strided indexes, a 300 Ki-page index grows through many chunks and
 * shrinks back, lock_page/read_cache_page sleep until "I/O" completes
 * (the host wait hook plays the interrupt handler), bounded waits give
 * up on time, and a wait for a page's I/O (wait_on_page_io()) lasts as
 * long as its disk completes requests and fails once it stops.
 */
#include "kernel/sched.h"
#include "tests/common/test_mm_helpers.h"

static unsigned long longest_chain(struct address_space *m)
{
	unsigned long b, longest = 0;

	for (b = 0; b < (1UL << m->hash_bits); b++) {
		unsigned long len = 0;
		struct page *p = m->hash[b >> (PAGE_SHIFT - 3)][b & (PAGE_SIZE / 8 - 1)];

		for (; p; p = p->cache_next)
			len++;
		longest = max(longest, len);
	}
	return longest;
}

static void test_hash_spreads_strided_indexes(struct ktest *t)
{
	static const unsigned long strides[] = {1, 2, 16, 512, 4096, 1UL << 20, 1UL << 32};
	unsigned int s;

	KT_ASSERT_EQ(t, mm_host_init(64ULL << 20), 0);
	for (s = 0; s < ARRAY_SIZE(strides); s++) {
		struct fake_file ff;
		unsigned long i, longest;

		KT_ASSERT_EQ(t, fake_file_init(&ff, "strided", 1, 0), 0);
		for (i = 0; i < 4096; i++)
			KT_ASSERT_TRUE(t,
				       cache_new_page(&ff.mapping, i * strides[s], false) != NULL);
		longest = longest_chain(&ff.mapping);
		if (longest > 8)
			KT_FAIL(t, "stride %lu: a hash chain of %lu pages", strides[s], longest);
		address_space_release(&ff.mapping);
	}
}

#define NR_BIG (300UL * 1024)

static void test_big_index_grows_and_shrinks(struct ktest *t)
{
	struct fake_file ff;
	unsigned long i, missing = 0;

	/* 1.5 GiB arena, mapped lazily: only struct pages and the index are touched. */
	KT_ASSERT_EQ(t, mm_host_init(1536ULL << 20), 0);
	KT_ASSERT_EQ(t, fake_file_init(&ff, "big", 1, NR_BIG), 0);
	for (i = 0; i < NR_BIG; i++)
		KT_ASSERT_TRUE(t, cache_new_page(&ff.mapping, i, true) != NULL);
	KT_EXPECT_GE(t, ff.mapping.hash_bits, 19);
	KT_EXPECT_LE(t, longest_chain(&ff.mapping), 10);
	for (i = 0; i < NR_BIG; i++)
		missing += !is_cached(&ff.mapping, i);
	KT_EXPECT_EQ(t, missing, 0);
	KT_EXPECT_EQ(t, page_cache_next_miss(&ff.mapping, 0, ULONG_MAX), NR_BIG);
	KT_EXPECT_EQ(t, page_cache_prev_miss(&ff.mapping, NR_BIG - 1, NR_BIG), ULONG_MAX);
	KT_EXPECT_EQ(t, drop_pagecache(), NR_BIG);
	KT_EXPECT_EQ(t, ff.mapping.hash_bits, 4);
	address_space_release(&ff.mapping);
}

static struct page *pending;
static unsigned int hook_calls;

/* The "interrupt handler": completes the one pending page. */
static bool complete_pending(void)
{
	struct page *p = pending;

	hook_calls++;
	if (!p)
		return false;
	pending = NULL;
	if (p->mapping) {
		struct fake_file *ff = container_of(p->mapping, struct fake_file, mapping);

		fake_fill(p, ff->seed);
		SetPageUptodate(p);
		unlock_page(p);
		put_page(p); /* the I/O reference */
	} else {
		unlock_page(p);
	}
	return true;
}

static int async_readpage(struct file *filp, struct page *page)
{
	(void)filp;
	pending = page; /* completes later, in the wait hook */
	return 0;
}

static const struct address_space_operations async_aops = {.readpage = async_readpage};

static void test_lock_page_sleeps_until_unlocked(struct ktest *t)
{
	struct page *p;

	KT_ASSERT_EQ(t, mm_host_init(16ULL << 20), 0);
	p = alloc_page();
	KT_ASSERT_TRUE(t, p != NULL);
	KT_ASSERT_TRUE(t, trylock_page(p));
	pending = p;
	hook_calls = 0;
	host_wait_hook = complete_pending;
	lock_page(p); /* sleeps; the hook unlocks; we take it */
	host_wait_hook = NULL;
	KT_EXPECT_GE(t, hook_calls, 1);
	KT_EXPECT_TRUE(t, PageLocked(p));
	KT_EXPECT_TRUE(t, pending == NULL);
	unlock_page(p);
	put_page(p);
}

static void test_read_cache_page_waits_for_io(struct ktest *t)
{
	struct fake_file ff;
	struct page *p;

	KT_ASSERT_EQ(t, mm_host_init(16ULL << 20), 0);
	KT_ASSERT_EQ(t, fake_file_init(&ff, "async", 9, 10), 0);
	ff.mapping.a_ops = &async_aops;
	hook_calls = 0;
	host_wait_hook = complete_pending;
	p = read_cache_page(&ff.mapping, 4, NULL);
	host_wait_hook = NULL;
	KT_ASSERT_TRUE(t, !IS_ERR(p));
	KT_EXPECT_GE(t, hook_calls, 1);
	KT_EXPECT_TRUE(t, PageUptodate(p) && !PageLocked(p));
	KT_EXPECT_EQ(t, fake_check(p, ff.seed, 4), 0);
	KT_EXPECT_EQ(t, page_count(p), 2);
	put_page(p);
	address_space_release(&ff.mapping);
}

static void test_bounded_wait_gives_up(struct ktest *t)
{
	struct page *p;
	uint64_t t0, waited;

	KT_ASSERT_EQ(t, mm_host_init(16ULL << 20), 0);
	p = alloc_page();
	KT_ASSERT_TRUE(t, p != NULL);
	KT_ASSERT_TRUE(t, trylock_page(p));
	t0 = ktime_ns();
	KT_EXPECT_TRUE(t, !wait_on_page_locked_timeout(p, 2 * NSEC_PER_MSEC));
	waited = ktime_ns() - t0;
	KT_EXPECT_GE(t, waited, 2 * NSEC_PER_MSEC);
	KT_EXPECT_LT(t, waited, 500 * NSEC_PER_MSEC);
	unlock_page(p);
	KT_EXPECT_TRUE(t, wait_on_page_locked_timeout(p, 2 * NSEC_PER_MSEC));
	put_page(p);
}

/*
 * wait_on_page_io() against a disk played by the wait hook: each sleep is
 * IO_STEP_NS of the host clock, with a completion on the disk while
 * io_progress_steps lasts, and the page's own I/O ending after
 * io_unlock_steps (0: never).
 */
extern bool host_clock_set;
extern uint64_t host_clock_ns;

#define IO_STEP_NS  (10 * NSEC_PER_SEC)
#define IO_STALL_NS (60 * NSEC_PER_SEC)

static struct backing_dev_info io_bdi;
static struct page *io_page;
static unsigned int io_steps, io_progress_steps, io_unlock_steps;

static bool io_hook(void)
{
	host_clock_ns += IO_STEP_NS;
	io_steps++;
	if (io_steps <= io_progress_steps)
		io_bdi.last_progress_ns = host_clock_ns;
	if (io_unlock_steps && io_steps == io_unlock_steps)
		unlock_page(io_page);
	return true;
}

/* Wait for a page as the hook plays the disk; the time waited, *@ok what the wait said. */
static uint64_t io_wait(struct ktest *t, unsigned int progress, unsigned int unlock, bool use_bdi,
			bool *ok)
{
	uint64_t waited = 0;

	io_page = alloc_page();
	if (!io_page || !trylock_page(io_page)) {
		KT_FAIL(t, "no page to lock");
		return 0;
	}
	host_clock_set = true;
	host_clock_ns = 1000 * NSEC_PER_SEC;
	/* the disk's last completion was before the wait began */
	io_bdi.last_progress_ns = host_clock_ns - 5 * NSEC_PER_SEC;
	io_steps = 0;
	io_progress_steps = progress;
	io_unlock_steps = unlock;
	host_wait_hook = io_hook;
	*ok = wait_on_page_io(io_page, use_bdi ? &io_bdi : NULL, IO_STALL_NS, &waited);
	host_wait_hook = NULL;
	host_clock_set = false;
	if (PageLocked(io_page))
		unlock_page(io_page);
	put_page(io_page);
	return waited;
}

/* A read queued behind many others: 250 s, requests completing throughout, and it ends. */
static void test_io_wait_while_disk_progresses(struct ktest *t)
{
	bool ok;

	KT_ASSERT_EQ(t, mm_host_init(16ULL << 20), 0);
	KT_EXPECT_EQ(t, io_wait(t, 25, 25, true, &ok), 250 * NSEC_PER_SEC);
	KT_EXPECT_TRUE(t, ok);
	KT_EXPECT_EQ(t, io_steps, 25);
}

/*
 * A disk that completes nothing: the wait fails 60 s after it began; one
 * that stops after 100 s: 60 s after its last completion, at 160 s.
 * Without a device (no bdi) the bound is 60 s from the start.
 */
static void test_io_wait_fails_without_progress(struct ktest *t)
{
	bool ok = true;

	KT_ASSERT_EQ(t, mm_host_init(16ULL << 20), 0);
	KT_EXPECT_EQ(t, io_wait(t, 0, 0, true, &ok), IO_STALL_NS);
	KT_EXPECT_TRUE(t, !ok);
	ok = true;
	KT_EXPECT_EQ(t, io_wait(t, 10, 0, true, &ok), 160 * NSEC_PER_SEC);
	KT_EXPECT_TRUE(t, !ok);
	ok = true;
	KT_EXPECT_EQ(t, io_wait(t, 30, 0, false, &ok), IO_STALL_NS);
	KT_EXPECT_TRUE(t, !ok);
	/* the page's I/O ends in the last step before the stall: no failure */
	KT_EXPECT_EQ(t, io_wait(t, 0, 6, true, &ok), IO_STALL_NS);
	KT_EXPECT_TRUE(t, ok);
}

KTEST_SUITE(mm_pagecache_host, NULL, KTEST_CASE(test_hash_spreads_strided_indexes),
	    KTEST_CASE(test_big_index_grows_and_shrinks),
	    KTEST_CASE(test_lock_page_sleeps_until_unlocked),
	    KTEST_CASE(test_read_cache_page_waits_for_io), KTEST_CASE(test_bounded_wait_gives_up),
	    KTEST_CASE(test_io_wait_while_disk_progresses),
	    KTEST_CASE(test_io_wait_fails_without_progress));
