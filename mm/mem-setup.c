/*
 * Physical memory at boot (mem_setup(), called by kmain): the usable RAM of
 * the firmware's map, capped by mem=, and the fixed layout of the kernel's
 * heap and the page cache's pool (mm/cache-pool.c), a function of RAM
 * alone, so that neither the kernel's size nor how the memory was asked for
 * moves a figure.
 */
#include <stdio.h>
#include <string.h>

#include "kernel/bootinfo.h"
#include "kernel/log.h"
#include "kernel/param.h"
#include "kernel/vm.h"
#include "mm/internal.h"
#include "mm/kobj.h"
#include "mm/mm.h"

KPARAM(mem, KV_SIZE, NULL, "use only RAM below this physical address, as Linux's mem=");
KPARAM(pagecache, KV_SIZE, NULL,
       "the page cache's size (default: from RAM or mem=, the kernel's allowance taken off)");

extern char _kernel_start[], _kernel_end[];

/*
 * The memory layout (mm/cache-pool.c): the kernel's heap and the page
 * cache's pool at places and sizes that are a function of the run's keys
 * alone, so that neither the kernel's size nor how the memory was asked
 * for (QEMU's -m 128M, or -m 256M with mem=128M) moves a figure. RAM is
 * mem= if given, else the top of usable RAM rounded up to 2 MiB;
 * pagecache= sets the pool outright. When the layout does not fit (too
 * little RAM, a hole in it, an image that reaches the heap), every frame
 * goes to the allocator as before and the boot says why.
 */
static const char *choose_layout(const struct mem_region *usable, int n, uint64_t limit,
				 uint64_t top, struct mm_layout *lay, struct mem_region *window,
				 uint64_t *ram_out, const char **from)
{
	uint64_t ram = ALIGN_UP(top, 2ULL << 20), size, end;

	*from = "RAM";
	if (limit != UINT64_MAX && limit < ram) {
		ram = limit;
		*from = "mem=";
	}
	*ram_out = ram;
	mm_layout_for(ram, lay);
	if (param_get_u64("pagecache", &size) == 0) {
		if (size % PAGE_SIZE || size < 64 * PAGE_SIZE || size >= ram)
			return "bad pagecache=";
		lay->pool_pages = (unsigned long)(size / PAGE_SIZE);
		*from = "pagecache=";
	}
	if (!lay->canonical)
		return "less than 64 MiB of RAM";
	window->base = lay->heap_base;
	window->len = lay->heap_bytes + (uint64_t)lay->pool_pages * PAGE_SIZE;
	end = window->base + window->len;
	if ((uintptr_t)_kernel_end > lay->heap_base)
		return "the kernel's image reaches the heap's place";
	for (int i = 0; i < n; i++)
		if (usable[i].base <= window->base && usable[i].base + usable[i].len >= end)
			return NULL;
	return "usable RAM does not hold it whole (a hole, or too little)";
}

/* What the kernel's own allocations need beside the page cache at the least: 2 MiB. */
#define KERNEL_MIN_FREE_PAGES 512UL

static int setup_page_cache(unsigned long pages, uint64_t ram, const char *from)
{
	struct mm_stats st;
	int err;

	err = cache_pool_init(pages);
	if (err) {
		pr_err("memory: no room for the page cache's %lu pages (%s %llu MiB); a smaller "
		       "pagecache= or more memory\n", pages, from, (unsigned long long)(ram >> 20));
		return err;
	}
	mm_get_stats(&st);
	if (st.free < KERNEL_MIN_FREE_PAGES) {
		pr_err("memory: the page cache's %lu pages (%s %llu MiB) leave the kernel %lu KiB, "
		       "less than the %lu KiB it needs; a smaller pagecache= or more memory\n",
		       pages, from, (unsigned long long)(ram >> 20), st.free * (PAGE_SIZE / 1024),
		       KERNEL_MIN_FREE_PAGES * (PAGE_SIZE / 1024));
		return -ENOMEM;
	}
	pr_info("memory: page cache %lu pages (%lu KiB, from %s %llu MiB), the kernel's heap "
		"%lu KiB free\n", pages, pages * (PAGE_SIZE / 1024), from,
		(unsigned long long)(ram >> 20), st.free * (PAGE_SIZE / 1024));
	return 0;
}

/*
 * The frame allocator gets the usable entries of the sanitized memory map
 * (kernel/e820.c: reserved ranges the firmware nested inside usable RAM are
 * already cut out of them), capped by mem=, above the first MiB. The
 * reserved list repeats the map's other entries that lie among that RAM, so
 * mm_init keeps them out a second time and the mm selftests check them.
 */
int mem_setup(void)
{
	static struct mem_region usable[MM_MAX_REGIONS], capped[MM_MAX_REGIONS],
		reserved[MM_MAX_REGIONS];
	uint64_t limit = UINT64_MAX, total = 0, top = 0, top_all = 0, ram;
	struct mem_region window;
	struct mm_layout lay;
	const char *why, *from;
	int n = 0, nc = 0, nr = 0, err;

	if (param_get_u64("mem", &limit) == 0 && limit < (16ULL << 20)) {
		pr_err("command line: mem=%llu is below the 16 MiB lookahead needs\n",
		       (unsigned long long)limit);
		return -EINVAL;
	}
	for (int i = 0; i < bootinfo.nr_map; i++) {
		const struct boot_region *r = &bootinfo.map[i];
		uint64_t base = ALIGN_UP(r->base, PAGE_SIZE);
		uint64_t end = ALIGN_DOWN(r->base + r->len, PAGE_SIZE);

		if (r->type != MEM_USABLE)
			continue;
		/* Below 1 MiB lives the BIOS data and the firmware's tables: leave it alone. */
		if (base < (1ULL << 20))
			base = 1ULL << 20;
		if (end <= base)
			continue;
		if (n == MM_MAX_REGIONS) {
			pr_warn("memory: more than %d usable ranges; RAM from %#llx on is not used\n",
				MM_MAX_REGIONS, (unsigned long long)base);
			break;
		}
		usable[n++] = (struct mem_region){ base, end - base };
		top_all = max(top_all, end);
	}
	reserved[nr++] = (struct mem_region){ 0, 1ULL << 20 };
	reserved[nr++] = (struct mem_region){ (uintptr_t)_kernel_start,
					      (uintptr_t)_kernel_end - (uintptr_t)_kernel_start };
	for (int i = 0; i < bootinfo.nr_map && nr < MM_MAX_REGIONS; i++) {
		const struct boot_region *r = &bootinfo.map[i];

		if (r->type != MEM_USABLE && r->base < top_all && r->base + r->len > (1ULL << 20))
			reserved[nr++] = (struct mem_region){ r->base, r->len };
	}
	if (top_all > (4ULL << 30)) {
		uint64_t mapped = vm_map_high_ram(top_all);

		if (mapped < top_all) {
			pr_warn("memory: RAM above %llu GiB is not mapped and not used\n",
				(unsigned long long)(mapped >> 30));
			for (int i = 0; i < n; i++) {
				if (usable[i].base >= mapped)
					usable[i].len = 0;
				else if (usable[i].base + usable[i].len > mapped)
					usable[i].len = mapped - usable[i].base;
			}
		}
	}
	/* mem= caps what the kernel and the page cache use */
	for (int i = 0; i < n; i++) {
		uint64_t base = usable[i].base, end = base + usable[i].len;

		if (end > limit)
			end = ALIGN_DOWN(limit, PAGE_SIZE);
		if (end <= base)
			continue;
		capped[nc++] = (struct mem_region){ base, end - base };
		total += end - base;
		top = max(top, end);
	}
	pr_info("memory: %llu MiB usable%s\n", (unsigned long long)(total >> 20),
		limit != UINT64_MAX ? " (capped by mem=)" : "");
	why = choose_layout(capped, nc, limit, top, &lay, &window, &ram, &from);
	if (why && !strcmp(why, "bad pagecache=")) {
		pr_err("command line: pagecache=: whole 4 KiB pages, at least 256 KiB and less than "
		       "the RAM used (%llu MiB)\n", (unsigned long long)(ram >> 20));
		return -EINVAL;
	}
	if (why) {
		pr_warn("memory: no fixed layout (%s): every frame to the allocator, so figures "
			"may move with the kernel's size\n", why);
		err = mm_init_window(capped, nc, reserved, nr, NULL);
	} else {
		/*
		 * RAM outside the layout, RAM above mem= included, is left to the
		 * instruments (mm_spare_alloc(): a large trace ring).
		 */
		pr_info("memory: layout for %llu MiB: kernel heap %#llx-%#llx, page cache above; "
			"the rest for instruments\n", (unsigned long long)(ram >> 20),
			(unsigned long long)window.base,
			(unsigned long long)(window.base + lay.heap_bytes));
		err = mm_init_window(usable, n, reserved, nr, &window);
	}
	if (err)
		return err;
	/* the kernel floor's page tables and thread stacks come from mm from now on */
	kobj_init();
	return setup_page_cache(lay.pool_pages, ram, from);
}
