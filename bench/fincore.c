/*
 * fincore: which pages of a file the page cache holds, as util-linux
 * fincore(1) answers on Linux (through mincore(2)), and more that a
 * readahead study needs: how many are on the active list, how many still
 * carry PG_referenced or the PG_readahead mark, into how many separate
 * stretches the cached pages fall (on-demand readahead starts a new window
 * after each one), and a map of the file in equal regions.
 *
 *	fincore PATH [regions=N]
 *
 * It is an instrument that must not move what it measures: it looks pages
 * up with find_get_page() only, which neither marks them accessed nor moves
 * them on the LRU lists, and reads nothing from the disk.
 */
#include <stdio.h>
#include <string.h>

#include "bench/filecmds.h"
#include "kernel/cmd.h"
#include "kernel/log.h"
#include "kernel/result.h"
#include "mm/pagemap.h"

#define FINCORE_MAX_REGIONS 64

struct fincore_region {
	unsigned long cached, active;
};

struct fincore {
	unsigned long pages, cached, active, referenced, marked;
	unsigned long stretches, longest;
	struct fincore_region map[FINCORE_MAX_REGIONS];
};

static void fincore_scan(struct address_space *mapping, unsigned long pages, unsigned int regions,
			 struct fincore *fc)
{
	unsigned long run = 0;

	fc->pages = pages;
	for (pgoff_t i = 0; i < pages; i++) {
		struct page *page = find_get_page(mapping, i);
		struct fincore_region *r = &fc->map[(uint64_t)i * regions / pages];

		if (!page) {
			run = 0;
			continue;
		}
		if (!run++)
			fc->stretches++;
		if (run > fc->longest)
			fc->longest = run;
		fc->cached++;
		r->cached++;
		if (PageActive(page)) {
			fc->active++;
			r->active++;
		}
		fc->referenced += PageReferenced(page);
		fc->marked += PageReadahead(page);
		page_cache_release(page);
	}
}

/* A JSON array of one field of each region. */
static void map_json(struct json_buf *j, const struct fincore *fc, unsigned int regions,
		     bool active)
{
	json_init(j);
	json_printf(j, "[");
	for (unsigned int k = 0; k < regions; k++)
		json_printf(j, "%s%lu", k ? ", " : "",
			    active ? fc->map[k].active : fc->map[k].cached);
	json_printf(j, "]");
}

static int cmd_fincore(int argc, char **argv)
{
	static const struct kv_spec specs[] = {
		{"regions", KV_UINT, NULL,
		 "the map's regions, equal parts of the file (default 16, at most 64)"},
	};
	struct kv_value v[ARRAY_SIZE(specs)];
	unsigned int regions = 16;
	const char *path = NULL;
	static struct fincore fc;
	static struct json_buf j;
	struct result r;
	unsigned long pages;
	struct file *f;
	int err;

	if (kcmd_args(argc, argv, specs, ARRAY_SIZE(specs), v, &path))
		return -EINVAL;
	if (v[0].present) {
		if (v[0].u < 1 || v[0].u > FINCORE_MAX_REGIONS) {
			pr_err("fincore: regions=%llu: expected 1 to %d\n",
			       (unsigned long long)v[0].u, FINCORE_MAX_REGIONS);
			return -EINVAL;
		}
		regions = (unsigned int)v[0].u;
	}
	if (!path) {
		pr_err("fincore: which file? (a path argument)\n");
		return -EINVAL;
	}
	f = vfs_open(path, &err);
	if (!f) {
		pr_err("fincore: %s: cannot open: %s\n", path, vfs_errname(err));
		return -EINVAL;
	}
	pages = (unsigned long)DIV_ROUND_UP((uint64_t)f->f_mapping->size, PAGE_SIZE);
	memset(&fc, 0, sizeof(fc));
	if (regions > pages)
		regions = 1; /* fewer pages than regions: the file is one region */
	if (pages)
		fincore_scan(f->f_mapping, pages, regions, &fc);
	printf("fincore: %s: %lu pages, %lu cached (%lu active, %lu referenced, %lu marked "
	       "PG_readahead) in %lu stretch%s, the longest %lu pages\n",
	       path, fc.pages, fc.cached, fc.active, fc.referenced, fc.marked, fc.stretches,
	       fc.stretches == 1 ? "" : "es", fc.longest);
	printf("  region  first page      cached      active\n");
	for (unsigned int k = 0; k < regions; k++)
		printf("  %6u  %10llu  %10lu  %10lu\n", k,
		       (unsigned long long)((uint64_t)k * pages / regions), fc.map[k].cached,
		       fc.map[k].active);
	result_begin(&r, "fincore");
	result_str(&r, "path", path);
	result_u64(&r, "pages", fc.pages);
	result_u64(&r, "cached_pages", fc.cached);
	result_u64(&r, "active_pages", fc.active);
	result_u64(&r, "referenced_pages", fc.referenced);
	result_u64(&r, "readahead_marked", fc.marked);
	result_u64(&r, "stretches", fc.stretches);
	result_u64(&r, "longest_stretch", fc.longest);
	result_u64(&r, "regions", regions);
	map_json(&j, &fc, regions, false);
	result_raw(&r, "map_cached", j.buf);
	map_json(&j, &fc, regions, true);
	result_raw(&r, "map_active", j.buf);
	result_end(&r);
	vfs_close(f);
	return 0;
}
KCMD(fincore, cmd_fincore, "fincore PATH [regions=N]",
     "which pages of a file are cached: active, referenced, marked, stretches, a map");
