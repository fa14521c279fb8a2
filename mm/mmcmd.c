/*
 * Shell commands of the mm layer (kernel only; drop_caches is fs/drop_caches.c's,
 * as it can make the disks cold too):
 *
 *	meminfo                 memory statistics, as /proc/meminfo, and a RESULT line
 *	mmbench [pages=N] [iters=N] [lookups=N]
 *	                        ns per page alloc/free, kmalloc and page-cache lookup
 *	                        at 1 Ki cached pages and at pages=N (default: as many
 *	                        as half the free memory holds, at most 1 Mi)
 */
#include <stdio.h>

#include "kernel/cmd.h"
#include "kernel/log.h"
#include "kernel/result.h"
#include "mm/kobj.h"
#include "mm/mm.h"
#include "mm/pagemap.h"

#define KB(pages) ((uint64_t)(pages) * (PAGE_SIZE / 1024))

static int cmd_meminfo(int argc, char **argv)
{
	struct mm_stats st;
	struct kmalloc_stats ks;
	struct kobj_stats ko;
	struct result r;
	char orders[MAX_ORDER * 12 + 1];
	unsigned long nr_noretry = 0;
	int o, len = 0;

	if (kcmd_args(argc, argv, NULL, 0, NULL, NULL))
		return -EINVAL;
	if (!mm_ready()) {
		pr_err("meminfo: physical memory is not set up (mm_init failed or did not run)\n");
		return -ENODEV;
	}
	mm_get_stats(&st);
	kmalloc_get_stats(&ks);
	kobj_get_stats(&ko);
	printf("MemTotal:     %10llu kB\n", (unsigned long long)KB(st.total));
	printf("MemFree:      %10llu kB (the kernel's own; the page cache's pool is apart)\n",
	       (unsigned long long)KB(st.free));
	printf("CachePool:    %10llu kB (%lu pages, %lu free; pagecache=, mm/cache-pool.c)\n",
	       (unsigned long long)KB(st.cache_pool), st.cache_pool, st.cache_free);
	printf("Cached:       %10llu kB\n", (unsigned long long)KB(st.cached));
	/* the kernel's objects a workload made, held against the page cache (mm/kobj.c) */
	printf("KernelObjs:   %10llu kB (of the pool: a workload's objects, not page cache)\n",
	       (unsigned long long)KB(st.kernel_objs));
	printf("KernelStack:  %10llu kB (%lu thread stacks)\n",
	       (unsigned long long)KB(ko.stack_pages), ko.stacks);
	printf("SlabWorkload: %10llu kB (%lu objects: open files, inodes, page-cache "
	       "hashes, readers' state)\n", (unsigned long long)KB(ko.slab_pages), ko.objects);
	printf("VmallocUsed:  %10llu kB (%lu kvmalloc() areas: buffers, tables)\n",
	       (unsigned long long)KB(ko.area_pages), ko.areas);
	printf("Active:       %10llu kB\n", (unsigned long long)KB(st.active));
	printf("Inactive:     %10llu kB\n", (unsigned long long)KB(st.inactive));
	printf("Slab:         %10llu kB (the heap's: %lu objects in use, %lu failed allocations)\n",
	       (unsigned long long)KB(st.slab), ks.objects, ks.failures);
	printf("Reserved:     %10llu kB (kernel, boot data, memmap)\n",
	       (unsigned long long)KB(st.reserved));
	printf("Unused:       %10llu kB (usable RAM outside the fixed layout: mm/mem-setup.c)\n",
	       (unsigned long long)KB(st.outside));
	printf("Watermarks:   low %llu kB, high %llu kB (of the pool)\n", (unsigned long long)KB(st.wmark_low),
	       (unsigned long long)KB(st.wmark_high));
	printf("Reclaimed:    %10lu pages (thrashed: %lu read ahead, evicted unread)\n",
	       st.reclaimed, st.thrashed);
	printf("Dropped:      %10lu pages (drop_caches, and truncation)\n", st.dropped);
	printf("Refaults:     %10lu pages (7.2's classic LRU would activate %lu; shadows %lu, "
	       "%lu lost)\n", st.refaults, st.refault_activate, st.shadows, st.shadows_dropped);
	for (o = 0, len = 0; o < MAX_ORDER; o++) {
		nr_noretry += st.noretry_failures[o];
		len += snprintf(orders + len, sizeof(orders) - (size_t)len, " %lu",
				st.noretry_failures[o]);
	}
	printf("Readahead folios failed (__GFP_NORETRY) per order 0..%d:%s\n", MAX_ORDER - 1,
	       orders);
	len = 0;
	for (o = 0; o < MAX_ORDER; o++)
		len += snprintf(orders + len, sizeof(orders) - (size_t)len, " %lu",
				st.free_per_order[o]);
	printf("Free blocks per order 0..%d:%s\n", MAX_ORDER - 1, orders);

	result_begin(&r, "meminfo");
	result_u64(&r, "total_kb", KB(st.total));
	result_u64(&r, "free_kb", KB(st.free));
	result_u64(&r, "cache_pool_pages", st.cache_pool);
	result_u64(&r, "cache_free_pages", st.cache_free);
	result_u64(&r, "cached_kb", KB(st.cached));
	result_u64(&r, "active_kb", KB(st.active));
	result_u64(&r, "inactive_kb", KB(st.inactive));
	result_u64(&r, "slab_kb", KB(st.slab));
	result_u64(&r, "kernel_objs_kb", KB(st.kernel_objs));
	result_u64(&r, "kernel_stack_kb", KB(ko.stack_pages));
	result_u64(&r, "stacks", ko.stacks);
	result_u64(&r, "slab_workload_kb", KB(ko.slab_pages));
	result_u64(&r, "vmalloc_kb", KB(ko.area_pages));
	result_u64(&r, "kernel_obj_failures", ko.failures);
	result_u64(&r, "reserved_kb", KB(st.reserved));
	result_u64(&r, "unused_kb", KB(st.outside));
	result_u64(&r, "reclaimed_pages", st.reclaimed);
	result_u64(&r, "thrashed_pages", st.thrashed);
	result_u64(&r, "dropped_pages", st.dropped);
	result_u64(&r, "refaults", st.refaults);
	result_u64(&r, "refault_activate", st.refault_activate);
	result_u64(&r, "shadows", st.shadows);
	result_u64(&r, "noretry_failures", nr_noretry);
	result_end(&r);
	return 0;
}
KCMD(meminfo, cmd_meminfo, "meminfo", "memory statistics (total, free, cache, LRU, reclaim)");

static void print_lookup(const struct mm_bench_lookup *b)
{
	printf("mmbench: %8lu cached pages (index 2^%u): insert %.1f ns, lookup hit %.1f ns "
	       "(in order %.1f), miss %.1f ns, next_miss %.2f ns/page\n",
	       b->pages, b->hash_bits, b->insert_ns, b->hit_ns, b->seq_ns, b->miss_ns,
	       b->next_miss_ns);
}

static void result_lookup(struct result *r, const char *prefix, const struct mm_bench_lookup *b)
{
	char key[32];

	snprintf(key, sizeof(key), "%s_pages", prefix);
	result_u64(r, key, b->pages);
	snprintf(key, sizeof(key), "%s_hit_ns", prefix);
	result_double(r, key, b->hit_ns, 1);
	snprintf(key, sizeof(key), "%s_seq_ns", prefix);
	result_double(r, key, b->seq_ns, 1);
	snprintf(key, sizeof(key), "%s_miss_ns", prefix);
	result_double(r, key, b->miss_ns, 1);
	snprintf(key, sizeof(key), "%s_insert_ns", prefix);
	result_double(r, key, b->insert_ns, 1);
}

static int cmd_mmbench(int argc, char **argv)
{
	static const struct kv_spec specs[] = {
		{"pages", KV_UINT, NULL, "cached pages for the large lookup run (>= 1024)"},
		{"iters", KV_UINT, NULL, "alloc/free iterations (default 200000)"},
		{"lookups", KV_UINT, NULL, "lookups per run (default 1000000)"},
	};
	struct kv_value v[ARRAY_SIZE(specs)];
	struct mm_bench_alloc a;
	struct mm_bench_lookup small, large;
	struct mm_stats st;
	struct result r;
	unsigned long pages, iters, lookups;
	int err;

	if (kcmd_args(argc, argv, specs, ARRAY_SIZE(specs), v, NULL))
		return -EINVAL;
	if (!mm_ready()) {
		pr_err("mmbench: physical memory is not set up\n");
		return -ENODEV;
	}
	mm_get_stats(&st);
	pages = v[0].present ? v[0].u : min(st.cache_free / 2, 1UL << 20);
	iters = v[1].present ? v[1].u : 200000;
	lookups = v[2].present ? v[2].u : 1000000;
	if (pages < 1024) {
		pr_err("mmbench: pages=%lu: the large run needs at least 1024 pages\n", pages);
		return -EINVAL;
	}
	if (iters == 0 || lookups < 32) {
		pr_err("mmbench: iters= must be at least 1 and lookups= at least 32\n");
		return -EINVAL;
	}
	err = mm_bench_alloc(iters, &a);
	if (err) {
		pr_err("mmbench: the allocation benchmark ran out of memory\n");
		return err;
	}
	printf("mmbench: alloc_page+put_page %.1f ns, %lu allocs in a row %.1f ns each, "
	       "frees %.1f ns, order-3 %.1f ns, kmalloc(64)+kfree %.1f ns\n",
	       a.alloc_free_ns, a.batch, a.batch_alloc_ns, a.batch_free_ns, a.order3_ns,
	       a.kmalloc_ns);
	err = mm_bench_lookup(1024, lookups, &small);
	if (err)
		return err;
	print_lookup(&small);
	err = mm_bench_lookup(pages, lookups, &large);
	if (err)
		return err;
	print_lookup(&large);

	result_begin(&r, "mmbench");
	result_double(&r, "alloc_free_ns", a.alloc_free_ns, 1);
	result_double(&r, "batch_alloc_ns", a.batch_alloc_ns, 1);
	result_double(&r, "batch_free_ns", a.batch_free_ns, 1);
	result_double(&r, "order3_ns", a.order3_ns, 1);
	result_double(&r, "kmalloc64_ns", a.kmalloc_ns, 1);
	result_lookup(&r, "small", &small);
	result_lookup(&r, "large", &large);
	result_end(&r);
	return 0;
}
KCMD(mmbench, cmd_mmbench, "mmbench [pages=N] [iters=N] [lookups=N]",
     "time page alloc/free, kmalloc and page-cache lookups");
