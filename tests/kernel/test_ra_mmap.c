/*
 * The fault path for real (kernel only): a harness file mapped with
 * filemap_mmap(), its pages brought in by genuine page faults through
 * vm_fault_hook and filemap_fault(), with the readahead each advice gives.
 * Windows as in tests/common/test_ra_paths.c, which calls filemap_fault()
 * directly.
 */
#include "tests/common/test_ra_harness.h"

static struct ra_harness h;

#define RP(first, nr) { RAH_READPAGES, first, nr, true }
#define R1(first) { RAH_READPAGE, first, 1, true }

/* Read word 0 and the last word of every page of the mapping, in order. */
static unsigned long touch_all(struct file_mmap *m)
{
	unsigned long bad = 0;

	for (pgoff_t i = 0; i < m->nr_pages; i++) {
		const volatile uint32_t *w = (const volatile uint32_t *)(m->va + i * PAGE_SIZE);

		unsigned int last = PAGE_SIZE / 4 - 1;

		if (w[0] != rah_word(i, 0) || w[last] != rah_word(i, last))
			bad++;
	}
	return bad;
}

static void test_mmap_sequential(struct ktest *t)
{
	static const struct rah_io io[] = {
		RP(0, 4), RP(4, 8), RP(12, 16), RP(28, 32), RP(60, 4),
	};
	struct file_mmap m;

	KT_ASSERT_EQ(t, rah_open(&h, "/vm-seq", 64 * PAGE_SIZE, &ra_algo_ondemand, 32), 0);
	KT_ASSERT_EQ(t, filemap_mmap(&h.file, FAULT_ADV_SEQUENTIAL, &m), 0);
	KT_EXPECT_EQ(t, touch_all(&m), 0);
	KT_EXPECT_EQ(t, m.faults, 64);
	KT_EXPECT_EQ(t, m.error, 0);
	/* touching again: all mapped, no fault */
	KT_EXPECT_EQ(t, touch_all(&m), 0);
	KT_EXPECT_EQ(t, m.faults, 64);
	rah_expect_io(t, &h, io, ARRAY_SIZE(io));
	KT_EXPECT_EQ(t, rah_count_case(RA_CASE_SEQ_NEXT), 5);
	filemap_munmap(&m);
	rah_close(&h);
}

static void test_mmap_normal_random(struct ktest *t)
{
	static const struct rah_io around[] = { RP(0, 32), RP(32, 16), RP(48, 16) };
	struct file_mmap m;

	KT_ASSERT_EQ(t, rah_open(&h, "/vm-normal", 64 * PAGE_SIZE, &ra_algo_legacy, 32), 0);
	KT_ASSERT_EQ(t, filemap_mmap(&h.file, FAULT_ADV_NORMAL, &m), 0);
	KT_EXPECT_EQ(t, touch_all(&m), 0);
	rah_expect_io(t, &h, around, ARRAY_SIZE(around));
	filemap_munmap(&m);
	rah_close(&h);

	KT_ASSERT_EQ(t, rah_open(&h, "/vm-random", 8 * PAGE_SIZE, &ra_algo_ondemand, 32), 0);
	KT_ASSERT_EQ(t, filemap_mmap(&h.file, FAULT_ADV_RANDOM, &m), 0);
	KT_EXPECT_EQ(t, touch_all(&m), 0);
	KT_EXPECT_EQ(t, h.nr_io, 8);
	for (unsigned int i = 0; i < h.nr_io; i++)
		KT_EXPECT_EQ(t, h.io[i].op, RAH_READPAGE);
	filemap_munmap(&m);
	rah_close(&h);
}

/* A page that cannot be read reads as zeros and the mapping reports where. */
static void test_mmap_error(struct ktest *t)
{
	struct file_mmap m;
	const volatile uint32_t *w;

	KT_ASSERT_EQ(t, rah_open(&h, "/vm-err", 8 * PAGE_SIZE, &ra_algo_ondemand, 32), 0);
	h.fail_index = 3;
	h.fail_count = 100;
	KT_ASSERT_EQ(t, filemap_mmap(&h.file, FAULT_ADV_SEQUENTIAL, &m), 0);
	w = (const volatile uint32_t *)(m.va + 2 * PAGE_SIZE);
	KT_EXPECT_EQ(t, w[0], rah_word(2, 0));
	w = (const volatile uint32_t *)(m.va + 3 * PAGE_SIZE);
	KT_EXPECT_EQ(t, w[0], 0);
	KT_EXPECT_EQ(t, m.error, -EIO);
	KT_EXPECT_EQ(t, m.error_index, 3);
	filemap_munmap(&m);
	h.fail_count = 0;
	rah_close(&h);
}

/*
 * ra=linux's fault-around maps a large folio only when all of it is read: a
 * folio whose pages came in two requests (its blocks broken by an indirect
 * block) may have a page still under I/O when its first page is ready, and
 * mapping it then let a reader see frames the disk had not filled (a replay
 * under host load failed its data check so). Here one page of an order-9
 * folio is held locked, as a request still in flight leaves it, and
 * fault-around is asked to map the folio's first page. (A fault itself
 * waits for the whole folio, as Linux's folio lock makes it: that path is
 * tools/linux-ref's mmap workloads under a throttled disk, tests/qemu.)
 */
static void test_mmap_folio_under_io(struct ktest *t)
{
	const struct ra_algorithm *linux_algo = ra_algo_find("linux");
	const volatile uint32_t *w;
	struct file_mmap m;
	struct page *p;

	KT_ASSERT_TRUE(t, linux_algo != NULL && linux_algo->fault_around != NULL);
	KT_ASSERT_EQ(t, rah_open(&h, "/vm-folio", 8 << 20, linux_algo, 2048), 0);
	/* VM_HUGEPAGE: two order-9 folios from page 0, mapped by the next fault */
	KT_ASSERT_EQ(t, filemap_mmap(&h.file, FAULT_ADV_HUGEPAGE, &m), 0);
	w = (const volatile uint32_t *)m.va;
	KT_EXPECT_EQ(t, w[0], rah_word(0, 0));
	filemap_munmap(&m);
	p = find_get_page(&h.inode.i_data, 5);
	KT_ASSERT_TRUE(t, p != NULL);
	KT_EXPECT_EQ(t, page_folio_order(p), 9);
	KT_ASSERT_TRUE(t, trylock_page(p));

	KT_ASSERT_EQ(t, filemap_mmap(&h.file, FAULT_ADV_NORMAL, &m), 0);
	/* part of the folio under I/O: none of it mapped, neither by PMD nor by PTE */
	KT_EXPECT_TRUE(t, !linux_algo->fault_around(&m, 0));
	KT_EXPECT_TRUE(t, m.pages[0] == NULL && m.pages[1] == NULL && m.pages[5] == NULL);
	unlock_page(p);
	page_cache_release(p);
	/* read now: the folio is mapped whole */
	KT_EXPECT_TRUE(t, linux_algo->fault_around(&m, 0));
	KT_EXPECT_TRUE(t, m.pages[0] != NULL && m.pages[5] != NULL && m.pages[511] != NULL);
	w = (const volatile uint32_t *)(m.va + 5 * PAGE_SIZE);
	KT_EXPECT_EQ(t, w[0], rah_word(5, 0));
	filemap_munmap(&m);
	rah_close(&h);
}

KTEST_SUITE(ra_mmap, rah_suite_ready, KTEST_CASE(test_mmap_sequential),
	    KTEST_CASE(test_mmap_normal_random), KTEST_CASE(test_mmap_error),
	    KTEST_CASE(test_mmap_folio_under_io));
