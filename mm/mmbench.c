/*
 * mm microbenchmarks: ns per page allocation and free, per kmalloc, and
 * per page-cache lookup at a given number of cached pages, so the growth
 * of the cost with the cache size is visible. Shared by the mmbench
 * command (mm/mmcmd.c, on the live allocator) and build/host/bench_mm.
 *
 * The lookup benchmark caches real frames from the allocator in a private
 * address_space. They are not on an LRU list, so reclaim cannot take them
 * while it runs, and their contents are never touched (a lookup reads
 * only struct pages). Random indexes come from kernel/prandom.h,
 * inlined in the timed loop; its cost (a few ns) is part of hit_ns and
 * miss_ns.
 */
#include "kernel/log.h"
#include "kernel/prandom.h"
#include "kernel/time.h"
#include "mm/internal.h"

static double per_op(uint64_t t0, uint64_t t1, unsigned long n)
{
	return n ? (double)(t1 - t0) / (double)n : 0.0;
}

int mm_bench_alloc(unsigned long iters, struct mm_bench_alloc *r)
{
	struct page **held;
	uint64_t t0;
	unsigned long i;

	r->iters = iters;
	r->batch = 4096;
	held = kmalloc(r->batch * sizeof(*held));
	if (!held)
		return -ENOMEM;

	t0 = ktime_ns();
	for (i = 0; i < iters; i++) {
		struct page *p = alloc_page();

		if (!p)
			goto oom;
		put_page(p);
	}
	r->alloc_free_ns = per_op(t0, ktime_ns(), iters);

	t0 = ktime_ns();
	for (i = 0; i < r->batch; i++) {
		held[i] = alloc_page();
		if (!held[i]) {
			while (i--)
				put_page(held[i]);
			goto oom;
		}
	}
	r->batch_alloc_ns = per_op(t0, ktime_ns(), r->batch);
	t0 = ktime_ns();
	for (i = 0; i < r->batch; i++)
		put_page(held[i]);
	r->batch_free_ns = per_op(t0, ktime_ns(), r->batch);

	t0 = ktime_ns();
	for (i = 0; i < iters; i++) {
		struct page *p = alloc_pages(3);

		if (!p)
			goto oom;
		free_pages(p, 3);
	}
	r->order3_ns = per_op(t0, ktime_ns(), iters);

	t0 = ktime_ns();
	for (i = 0; i < iters; i++) {
		void *obj = kmalloc(64);

		if (!obj)
			goto oom;
		kfree(obj);
	}
	r->kmalloc_ns = per_op(t0, ktime_ns(), iters);
	kfree(held);
	return 0;
oom:
	kfree(held);
	return -ENOMEM;
}

int mm_bench_lookup(unsigned long pages, unsigned long lookups, struct mm_bench_lookup *r)
{
	struct address_space m = {0};
	struct mm_stats st;
	uint64_t t0, seed = 0x2545f4914f6cdd1dULL;
	unsigned long i, found = 0, false_hits = 0, spare;
	pgoff_t sink = 0;
	int err;

	r->pages = pages;
	r->lookups = lookups;
	mm_get_stats(&st);
	spare = st.cache_free > st.wmark_high ? st.cache_free - st.wmark_high : 0;
	/* Reclaim must not take the benchmark's own pages while it fills the index. */
	if (pages == 0 || pages > spare) {
		pr_err("mmbench: %lu pages do not fit in the page cache's %lu free frames above "
		       "its high watermark\n",
		       pages, spare);
		return -ENOMEM;
	}
	err = address_space_init(&m, "mmbench", NULL, NULL, (loff_t)pages << PAGE_SHIFT);
	if (err)
		return err;

	t0 = ktime_ns();
	for (i = 0; i < pages; i++) {
		struct page *p = page_cache_alloc(&m);

		if (!p || add_to_page_cache(p, &m, i)) {
			if (p)
				put_page(p);
			address_space_release(&m);
			pr_err("mmbench: could not cache page %lu of %lu\n", i, pages);
			return -ENOMEM;
		}
		SetPageUptodate(p);
		unlock_page(p);
		put_page(p); /* the cache's reference keeps it */
	}
	r->insert_ns = per_op(t0, ktime_ns(), pages);
	r->hash_bits = m.hash_bits;

	t0 = ktime_ns();
	for (i = 0; i < lookups; i++) {
		struct page *p = find_get_page(&m, prandom_below(&seed, pages));

		if (p) {
			found++;
			put_page(p);
		}
	}
	r->hit_ns = per_op(t0, ktime_ns(), lookups);

	t0 = ktime_ns();
	for (i = 0; i < lookups; i++) {
		struct page *p = find_get_page(&m, i % pages);

		if (p) {
			found++;
			put_page(p);
		}
	}
	r->seq_ns = per_op(t0, ktime_ns(), lookups);

	t0 = ktime_ns();
	for (i = 0; i < lookups; i++) {
		struct page *p = find_get_page(&m, pages + prandom_below(&seed, pages));

		if (p) {
			false_hits++;
			put_page(p);
		}
	}
	r->miss_ns = per_op(t0, ktime_ns(), lookups);

	t0 = ktime_ns();
	for (i = 0; i < lookups / 32; i++)
		sink += page_cache_next_miss(&m, prandom_below(&seed, pages - min(pages, 32UL)), 32);
	r->next_miss_ns = per_op(t0, ktime_ns(), lookups / 32 * 32);

	address_space_release(&m);
	WRITE_ONCE(r->sink, sink);
	if (found != 2 * lookups || false_hits) {
		pr_err("mmbench: %lu of %lu lookups of cached pages found them, %lu of absent "
		       "ones found something\n",
		       found, 2 * lookups, false_hits);
		return -EIO;
	}
	return 0;
}
