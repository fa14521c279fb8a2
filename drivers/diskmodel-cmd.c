/*
 * The diskmodel command (kernel only):
 *
 *	diskmodel [disk=N] [set=KEY=VALUE,...]
 *
 * prints the disk model's parameter table with its sources, the derived
 * geometry and each disk's counters; set= rebuilds the model of each
 * selected disk with parameters changed, so one boot can compare
 * configurations (only between runs: a disk with commands in flight is
 * refused).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/blk-cmd.h"
#include "drivers/blkdev.h"
#include "drivers/diskmodel-params.h"
#include "drivers/diskmodel.h"
#include "kernel/cmd.h"
#include "kernel/log.h"
#include "kernel/result.h"
#include "kernel/sync.h"
#include "kernel/time.h"

/* set=KEY=VALUE[,KEY=VALUE...] on one disk: its model rebuilt with those scalar keys changed. */
static int diskmodel_set(struct block_device *b, const char *set)
{
	char buf[256], err[320], *save = NULL, *kv;
	struct dm_drive *d = NULL;
	struct disk_model *m, *old;
	unsigned long flags;

	if (strlen(set) >= sizeof(buf)) {
		pr_err("diskmodel: set=%s: longer than %zu characters\n", set, sizeof(buf) - 1);
		return -EINVAL;
	}
	if (dm_queued(b->dmodel)) {
		pr_err("diskmodel: %s has commands in flight; set= only between runs\n", b->name);
		return -EBUSY;
	}
	strcpy(buf, set);
	for (kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(kv, '=');
		double v;
		struct dm_drive *next;

		if (!eq || eq == kv || !eq[1]) {
			pr_err("diskmodel: set=%s: '%s' is not KEY=VALUE\n", set, kv);
			goto fail;
		}
		*eq = 0;
		if (!dm_key_value(kv, eq + 1, &v)) {
			pr_err("diskmodel: set=%s: %s=%s is not a number (a key in ms or s also "
			       "takes a time with a unit: 8500us, 0.5s)\n",
			       set, kv, eq + 1);
			goto fail;
		}
		next = dm_drive_set(d ? d : dm_drive_of(b->dmodel), kv, v, err, sizeof(err));
		if (!next) {
			pr_err("%s\n", err);
			goto fail;
		}
		dm_drive_free(d);
		d = next;
	}
	if (!d) {
		pr_err("diskmodel: set= needs KEY=VALUE\n");
		return -EINVAL;
	}
	m = dm_create_drive(d, b->nr_sectors);
	dm_drive_free(d);
	if (!m)
		return -EINVAL;
	flags = local_irq_save();
	old = b->dmodel;
	b->dmodel = m;
	local_irq_restore(flags);
	dm_destroy(old);
	pr_info("diskmodel: %s: set %s\n", b->name, set);
	return 0;
fail:
	dm_drive_free(d);
	return -EINVAL;
}

static int cmd_diskmodel(int argc, char **argv)
{
	static const struct kv_spec specs[] = {
		{"disk", KV_UINT, NULL, "only this disk"},
		{"set", KV_STRING, NULL, "KEY=VALUE[,KEY=VALUE...]: rebuild the model with them"},
	};
	static struct json_buf j;
	struct kv_value v[ARRAY_SIZE(specs)];
	struct block_device *one;
	const struct disk_model *shown = NULL;
	struct result r;
	int listed = 0, err;

	err = disks_args("diskmodel", argc, argv, specs, ARRAY_SIZE(specs), v, &one, &j);
	if (err)
		return err;
	if (v[1].present) {
		int changed = 0;

		for (int i = 0; i < blk_disk_count(); i++) {
			struct block_device *b = blk_get_disk(i);

			if ((one && b != one) || !b->dmodel)
				continue;
			err = diskmodel_set(b, v[1].s);
			if (err)
				return err;
			changed++;
		}
		if (!changed) {
			pr_err("diskmodel: set=: no modelled disk%s\n", one ? " selected" : "");
			return -ENODEV;
		}
	}
	for (int i = 0; i < blk_disk_count(); i++) {
		struct block_device *b = blk_get_disk(i);

		if (one && b != one)
			continue;
		if (b->dmodel && !shown) {
			dm_print_params(b->dmodel, "diskmodel: ", true);
			shown = b->dmodel;
		}
		pr_info("%s: %s disk (%s)\n", b->name, blk_disk_kind(b),
			b->dmodel ? dm_drive_of(b->dmodel)->desc : "not modelled");
		print_diskstats(b);
		json_printf(&j, "%s{\"name\":\"%s\",\"disk_kind\":\"%s\",\"model\":",
			    listed++ ? "," : "", b->name, blk_disk_kind(b));
		diskmodel_json(b, &j);
		json_printf(&j, "}");
	}
	result_begin(&r, "diskmodel");
	result_str(&r, "clock", ktime_clock_name());
	if (shown) {
		struct dm_geometry g;

		dm_geometry(shown, &g);
		result_str(&r, "drive", dm_drive_of(shown)->name);
		if (v[1].present)
			result_str(&r, "set", v[1].s);
		result_u64(&r, "cylinders", g.cylinders);
		result_u64(&r, "heads", g.heads);
		result_u64(&r, "spt_outer", g.spt_outer);
		result_u64(&r, "spt_inner", g.spt_inner);
		result_double(&r, "overhead_us", g.overhead_ns / 1e3, 2);
		result_double(&r, "seek_single_ms", dm_seek_ns(shown, 1) / 1e6, 3);
		result_double(&r, "seek_full_ms", dm_seek_ns(shown, g.cylinders - 1) / 1e6, 3);
		result_double(&r, "mean_random_seek_ms", g.mean_random_seek_ns / 1e6, 3);
		result_double(&r, "zone0_mbps", dm_zone_rate(shown, 0) / 1e6, 2);
		result_double(&r, "zone_last_mbps", dm_zone_rate(shown, (int)g.zones - 1) / 1e6, 2);
		result_u64(&r, "segments", g.segments);
		result_u64(&r, "segment_kb", g.segment_sectors / 2);
		result_bool(&r, "lookahead", g.lookahead);
		result_bool(&r, "lookbehind", g.lookbehind);
		result_bool(&r, "zero_latency", g.zero_latency);
		result_u64(&r, "min_readahead_kb", g.min_readahead / 2);
	}
	result_raw(&r, "disks", jend_array(&j, "diskmodel"));
	result_end(&r);
	return 0;
}
KCMD(diskmodel, cmd_diskmodel, "diskmodel [disk=N] [set=KEY=VALUE,...]",
     "the disk model's parameters with their sources and its counters per disk; set= "
     "rebuilds it with parameters changed");
