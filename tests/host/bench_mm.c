/*
 * mm microbenchmark on the host (build/host/bench_mm, -O2, no sanitizers):
 * ns per page alloc/free and kmalloc, and ns per page-cache lookup at
 * 1 Ki, 32 Ki and 1 Mi cached pages, with the real allocator and page
 * cache over a lazily mapped 4.5 GiB arena (only struct pages and the
 * index are ever touched, so 1 Mi cached pages cost ~80 MiB of host RAM).
 * Prints one RESULT line per measurement; run it directly:
 *
 *	make build/host/bench_mm && build/host/bench_mm
 *
 * It is a ktest suite so it reuses the host runtime; the checks only catch
 * a broken benchmark (lookups not finding their pages), not slow numbers.
 */
#include "kernel/result.h"
#include "tests/common/test_mm_helpers.h"

static void print_alloc(const struct mm_bench_alloc *b)
{
	struct result r;

	result_begin(&r, "mmbench_alloc");
	result_u64(&r, "iters", b->iters);
	result_double(&r, "alloc_free_ns", b->alloc_free_ns, 1);
	result_u64(&r, "batch", b->batch);
	result_double(&r, "batch_alloc_ns", b->batch_alloc_ns, 1);
	result_double(&r, "batch_free_ns", b->batch_free_ns, 1);
	result_double(&r, "order3_ns", b->order3_ns, 1);
	result_double(&r, "kmalloc64_ns", b->kmalloc_ns, 1);
	result_end(&r);
}

static void print_lookup(const struct mm_bench_lookup *b)
{
	struct result r;

	result_begin(&r, "mmbench_lookup");
	result_u64(&r, "cached_pages", b->pages);
	result_u64(&r, "lookups", b->lookups);
	result_u64(&r, "hash_bits", b->hash_bits);
	result_double(&r, "insert_ns", b->insert_ns, 1);
	result_double(&r, "hit_ns", b->hit_ns, 1);
	result_double(&r, "seq_ns", b->seq_ns, 1);
	result_double(&r, "miss_ns", b->miss_ns, 1);
	result_double(&r, "next_miss_ns", b->next_miss_ns, 2);
	result_end(&r);
}

static void bench_alloc(struct ktest *t)
{
	struct mm_bench_alloc b;

	KT_ASSERT_EQ(t, mm_host_init(256ULL << 20), 0);
	KT_ASSERT_EQ(t, mm_bench_alloc(1000000, &b), 0);
	print_alloc(&b);
}

static void bench_lookup(struct ktest *t)
{
	static const unsigned long sizes[] = {1024, 32768, 1UL << 20};
	unsigned int i;

	KT_ASSERT_EQ(t, mm_host_init(4608ULL << 20), 0);
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		struct mm_bench_lookup b;

		KT_ASSERT_EQ(t, mm_bench_lookup(sizes[i], 4000000, &b), 0);
		print_lookup(&b);
	}
}

KTEST_SUITE(mm_bench, NULL, KTEST_CASE(bench_alloc), KTEST_CASE(bench_lookup));
