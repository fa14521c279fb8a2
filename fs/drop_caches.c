/*
 * A cold start for a comparison: the page cache dropped and, on request,
 * every disk made cold too (kernel only). As Linux's fs/drop_caches.c, the
 * command that empties the page cache; the disks' side is the block
 * layer's (blk_make_cold_all(), drivers/blk-cold.c, which says what "cold"
 * is for a modelled and for a real disk).
 *
 *	drop_caches [disk=cold|warm]
 */
#include <stdio.h>

#include "drivers/blkdev.h"
#include "kernel/cmd.h"
#include "kernel/log.h"
#include "kernel/result.h"
#include "mm/mm.h"
#include "mm/pagemap.h"

static int cmd_drop_caches(int argc, char **argv)
{
	static const char *const how[] = {"warm", "cold", NULL};
	static const struct kv_spec specs[] = {
		{"disk", KV_ENUM, how,
		 "cold: make every disk cold too (its buffer, look-ahead, heads); default warm, as "
		 "Linux's drop_caches"},
	};
	struct kv_value v[ARRAY_SIZE(specs)];
	struct result r;
	unsigned long n;
	bool cold;
	int err = 0, disks = 0;

	if (kcmd_args(argc, argv, specs, ARRAY_SIZE(specs), v, NULL))
		return -EINVAL;
	if (!mm_ready()) {
		pr_err("drop_caches: physical memory is not set up\n");
		return -ENODEV;
	}
	cold = v[0].present && v[0].u == 1;
	/* disk=cold: no page still being read may outlive the drop (drivers/blk-cold.c) */
	if (cold)
		err = blk_wait_idle_all();
	n = drop_pagecache();
	printf("drop_caches: dropped %lu pages (%llu kB)\n", n,
	       (unsigned long long)n * (PAGE_SIZE / 1024));
	/* last, so the next command starts as soon after the cooling as every time */
	if (cold && !err)
		err = blk_make_cold_all(&disks);
	result_begin(&r, "drop_caches");
	result_u64(&r, "dropped_pages", n);
	result_bool(&r, "disk_cold", cold && !err);
	if (cold)
		result_u64(&r, "cold_disks", (uint64_t)disks);
	result_end(&r);
	return err;
}
KCMD(drop_caches, cmd_drop_caches, "drop_caches [disk=cold]",
     "evict every clean, unused page-cache page; disk=cold: every disk's buffer too");
