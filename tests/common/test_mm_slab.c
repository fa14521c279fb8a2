/*
 * Kernel heap suite (kmalloc/kfree on the live allocator): every size
 * class and large sizes hold their bytes without overlapping, alignment,
 * zeroing, pages going back to the buddy allocator, refused bad pointers.
 */
#include "tests/common/test_mm_helpers.h"

static const size_t sizes[] = {1,    7,	   8,	 9,    16,   33,   63,	  64,	  65,
			       96,   100,  128,	 192,  200,  256,  511,	  512,	  1000,
			       1024, 2047, 2048, 2049, 4096, 5000, 65536, 1 << 20};

static unsigned char fill_byte(unsigned int i, size_t off)
{
	return (unsigned char)(i * 31 + off * 7 + 1);
}

static void test_sizes_hold_their_bytes(struct ktest *t)
{
	void *p[ARRAY_SIZE(sizes)];
	unsigned int i, bad = 0, misaligned = 0;
	size_t off;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		size_t align = sizes[i] > 2048 ? PAGE_SIZE : sizes[i] >= 16 ? 16 : 8;

		p[i] = kmalloc(sizes[i]);
		KT_ASSERT_TRUE(t, p[i] != NULL);
		KT_EXPECT_GE(t, ksize(p[i]), sizes[i]);
		misaligned += ((uintptr_t)p[i] & (align - 1)) != 0;
		for (off = 0; off < sizes[i]; off++)
			((unsigned char *)p[i])[off] = fill_byte(i, off);
	}
	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		for (off = 0; off < sizes[i]; off++)
			bad += ((unsigned char *)p[i])[off] != fill_byte(i, off);
	KT_EXPECT_EQ(t, bad, 0);
	KT_EXPECT_EQ(t, misaligned, 0);
	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		kfree(p[i]);
}

static void test_kzalloc_zeroes_reused_memory(struct ktest *t)
{
	unsigned int i, nonzero = 0;
	unsigned char *p = kmalloc(200, GFP_KERNEL);

	KT_ASSERT_TRUE(t, p != NULL);
	memset(p, 0xa5, 200);
	kfree(p);
	p = kzalloc(200);
	KT_ASSERT_TRUE(t, p != NULL);
	for (i = 0; i < 200; i++)
		nonzero += p[i] != 0;
	KT_EXPECT_EQ(t, nonzero, 0);
	kfree(p);
	p = kcalloc(1000, 9);
	KT_ASSERT_TRUE(t, p != NULL);
	for (i = 0; i < 9000; i++)
		nonzero += p[i] != 0;
	KT_EXPECT_EQ(t, nonzero, 0);
	kfree(p);
	KT_EXPECT_TRUE(t, kcalloc(SIZE_MAX / 2, 4) == NULL);
}

#define NR_OBJS 5000

static void test_many_objects_then_pages_return(struct ktest *t)
{
	uint32_t **objs = kmalloc(NR_OBJS * sizeof(*objs));
	struct kmalloc_stats ks0, ks1, ks2;
	unsigned int i, bad = 0;

	KT_ASSERT_TRUE(t, objs != NULL);
	kmalloc_get_stats(&ks0);
	for (i = 0; i < NR_OBJS; i++) {
		objs[i] = kmalloc(64);
		KT_ASSERT_TRUE(t, objs[i] != NULL);
		objs[i][0] = i;
		objs[i][15] = ~i;
	}
	kmalloc_get_stats(&ks1);
	KT_EXPECT_GE(t, ks1.slab_pages, ks0.slab_pages + NR_OBJS / (PAGE_SIZE / 64) - 1);
	KT_EXPECT_EQ(t, ks1.objects, ks0.objects + NR_OBJS);
	for (i = 0; i < NR_OBJS; i++)
		bad += objs[i][0] != i || objs[i][15] != ~i;
	KT_EXPECT_EQ(t, bad, 0);
	for (i = 0; i < NR_OBJS; i += 2)
		kfree(objs[i]);
	for (i = 1; i < NR_OBJS; i += 2)
		kfree(objs[i]);
	kmalloc_get_stats(&ks2);
	KT_EXPECT_EQ(t, ks2.objects, ks0.objects);
	/* At most one empty slab per class stays behind. */
	KT_EXPECT_LE(t, ks2.slab_pages, ks0.slab_pages + 1);
	kfree(objs);
}

static void test_large_and_too_large(struct ktest *t)
{
	struct kmalloc_stats ks0, ks1;
	char *p;

	kmalloc_get_stats(&ks0);
	p = kmalloc(3 * PAGE_SIZE + 1);
	KT_ASSERT_TRUE(t, p != NULL);
	KT_EXPECT_EQ(t, ksize(p), 4 * PAGE_SIZE);
	p[4 * PAGE_SIZE - 1] = 1;
	kmalloc_get_stats(&ks1);
	KT_EXPECT_EQ(t, ks1.large_pages, ks0.large_pages + 4);
	kfree(p);
	kmalloc_get_stats(&ks1);
	KT_EXPECT_EQ(t, ks1.large_pages, ks0.large_pages);

	p = kmalloc(KMALLOC_MAX_SIZE);
	KT_EXPECT_TRUE(t, p != NULL);
	kfree(p);
	pr_info("    # the next error line is expected\n");
	KT_EXPECT_TRUE(t, kmalloc(KMALLOC_MAX_SIZE + 1) == NULL);
	kmalloc_get_stats(&ks1);
	KT_EXPECT_EQ(t, ks1.failures, ks0.failures + 1);
}

static void test_krealloc_and_kstrdup(struct ktest *t)
{
	char *p = kmalloc(10), *q;
	unsigned int i, bad = 0;

	KT_ASSERT_TRUE(t, p != NULL);
	memcpy(p, "lookahead", 10);
	p = krealloc(p, 3000);
	KT_ASSERT_TRUE(t, p != NULL);
	KT_EXPECT_STREQ(t, p, "lookahead");
	for (i = 10; i < 3000; i++)
		p[i] = (char)i;
	q = krealloc(p, 20000, GFP_KERNEL);
	KT_ASSERT_TRUE(t, q != NULL);
	for (i = 10; i < 3000; i++)
		bad += q[i] != (char)i;
	KT_EXPECT_EQ(t, bad, 0);
	KT_EXPECT_STREQ(t, q, "lookahead");
	kfree(q);
	p = kstrdup("readahead");
	KT_ASSERT_TRUE(t, p != NULL);
	KT_EXPECT_STREQ(t, p, "readahead");
	kfree(p);
}

static void test_bad_pointers_refused(struct ktest *t)
{
	struct kmalloc_stats ks0, ks1;
	int on_stack = 0;
	char *p = kmalloc(128);
	struct page *pg;

	KT_ASSERT_TRUE(t, p != NULL);
	kmalloc_get_stats(&ks0);
	pr_info("    # the next three error lines are expected\n");
	kfree(&on_stack); /* a stack address */
	kfree(p + 8);	  /* inside an object */
	pg = alloc_page();
	KT_ASSERT_TRUE(t, pg != NULL);
	kfree(page_address(pg)); /* a page, not a kmalloc object */
	KT_EXPECT_EQ(t, page_count(pg), 1);
	put_page(pg);
	kmalloc_get_stats(&ks1);
	KT_EXPECT_EQ(t, ks1.objects, ks0.objects);
	kfree(p);
	kfree(NULL);
	kmalloc_get_stats(&ks1);
	KT_EXPECT_EQ(t, ks1.objects, ks0.objects - 1);
}

KTEST_SUITE(mm_kmalloc, mm_suite_ready, KTEST_CASE(test_sizes_hold_their_bytes),
	    KTEST_CASE(test_kzalloc_zeroes_reused_memory),
	    KTEST_CASE(test_many_objects_then_pages_return), KTEST_CASE(test_large_and_too_large),
	    KTEST_CASE(test_krealloc_and_kstrdup), KTEST_CASE(test_bad_pointers_refused));
