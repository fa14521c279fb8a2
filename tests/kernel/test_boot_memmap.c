/*
 * The memory map this boot was given, as the frame allocator used it: the
 * sanitized map is sorted and disjoint, every frame touched by a range the
 * loader did not call usable (as the loader gave it, before sanitizing:
 * overlapping, nested, unaligned) is reserved and so never handed out, and
 * every frame the allocator manages lies inside a usable range. Booted by
 * tests/qemu/e820.t through a loader with a crafted map (tests/qemu/mbshim.c).
 */
#include "kernel/bootinfo.h"
#include "kernel/ktest.h"
#include "mm/mm.h"

static void test_sanitized_map_is_sorted_and_disjoint(struct ktest *t)
{
	for (int i = 0; i < bootinfo.nr_map; i++) {
		const struct boot_region *r = &bootinfo.map[i], *p = r - 1;

		KT_EXPECT_GT(t, r->len, 0);
		if (i && (r->base < p->base + p->len ||
			  (r->base == p->base + p->len && r->type == p->type)))
			KT_FAIL(t, "entries %d and %d overlap or should have merged", i - 1, i);
	}
}

static void test_loader_reserved_ranges_never_free(struct ktest *t)
{
	unsigned long checked = 0, bad = 0;

	for (int i = 0; i < bootinfo.nr_regions; i++) {
		const struct boot_region *r = &bootinfo.regions[i];
		unsigned long pfn, first, end;

		if (r->type == MEM_USABLE || !r->len)
			continue;
		first = (unsigned long)(r->base >> PAGE_SHIFT);
		end = (unsigned long)((r->base + r->len + PAGE_SIZE - 1) >> PAGE_SHIFT);
		for (pfn = first > mem_min_pfn ? first : mem_min_pfn;
		     pfn < end && pfn < mem_max_pfn; pfn++) {
			struct page *page = pfn_to_page(pfn);

			checked++;
			if (!PageReserved(page) || PageBuddy(page)) {
				if (!bad)
					KT_FAIL(t,
						"frame %#lx of the loader's %s range %#llx+%#llx "
						"is not reserved",
						pfn, mem_type_name(r->type),
						(unsigned long long)r->base,
						(unsigned long long)r->len);
				bad++;
			}
		}
	}
	KT_EXPECT_EQ(t, bad, 0);
	if (!checked)
		KT_SKIP(t, "no reserved range of this boot's map lies among the managed frames");
}

static void test_managed_frames_are_usable(struct ktest *t)
{
	unsigned long bad = 0;

	for (unsigned long pfn = mem_min_pfn; pfn < mem_max_pfn; pfn++) {
		uint64_t pa = (uint64_t)pfn << PAGE_SHIFT;
		bool usable = false;

		if (PageReserved(pfn_to_page(pfn)))
			continue;
		for (int i = 0; i < bootinfo.nr_map && !usable; i++)
			usable = bootinfo.map[i].type == MEM_USABLE && bootinfo.map[i].base <= pa &&
				 pa + PAGE_SIZE <= bootinfo.map[i].base + bootinfo.map[i].len;
		if (!usable && !bad++)
			KT_FAIL(t, "managed frame %#lx lies outside every usable range", pfn);
	}
	KT_EXPECT_EQ(t, bad, 0);
}

KTEST_SUITE(boot_memmap, NULL, KTEST_CASE(test_sanitized_map_is_sorted_and_disjoint),
	    KTEST_CASE(test_loader_reserved_ranges_never_free),
	    KTEST_CASE(test_managed_frames_are_usable));
