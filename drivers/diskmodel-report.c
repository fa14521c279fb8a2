/*
 * What a disk model reports (see drivers/diskmodel-internal.h): its
 * parameter table in the parameter files' format and the figures derived
 * from it (the geometry, the seek curve as fitted, the command overhead,
 * the buffer's segments), which the diskmodel command and the boot log
 * print; and its counters, which diskstats and the benchmarks read and
 * which are reset between runs.
 */
#include <stdio.h>
#include <string.h>

#include "drivers/diskmodel-internal.h"

void dm_print_params(const struct disk_model *m, const char *prefix, bool derived)
{
	const struct dm_drive *d = m->drive;
	char line[640];

	printf("%sname %s\n", prefix, d->name);
	printf("%sdesc %s\n", prefix, d->desc);
	for (int i = 0; i < d->nr_params; i++) {
		dm_format_param(line, sizeof(line), &d->params[i]);
		printf("%s%s\n", prefix, line);
	}
	if (derived)
		dm_print_derived(m, prefix);
}

void dm_print_derived(const struct disk_model *m, const char *prefix)
{
	const struct dm_geometry *g = &m->g;

	printf("%sderived: %u cylinders x %u heads, %u zones of %u-%u sectors/track, %.3f ms/rev, "
	       "command overhead %.1f us, %u segments of %u KiB\n",
	       prefix, g->cylinders, g->heads, g->zones, g->spt_outer, g->spt_inner,
	       g->rev_ns / 1e6, g->overhead_ns / 1e3, g->segments, g->segment_sectors / 2);
	if (g->seek_tabled)
		printf("%sderived: seek interpolated in sqrt(d) through %d measured points, mean "
		       "over random LBAs %.3f ms\n",
		       prefix, m->nr_seek_tab, g->mean_random_seek_ns / 1e6);
	else if (g->seek_shaped)
		printf("%sderived: seek %.3f + %.5f*(S(d/(%.6f*%u)) - %.4g) ms, S the seek_shape "
		       "rows, below %u cylinders, %.4f + %.5f*d/1000 ms above (their coast): "
		       "%.3f ms at 1%% of the stroke, %.3f at 2.5%%, %.3f at 10%%; mean over "
		       "random LBAs %.3f ms\n",
		       prefix, dm_seek_ns(m, 1) / 1e6, g->seek_shape_k, g->seek_shape_scale,
		       g->cylinders - 1, m->cfg.seek_shape_ms[0], g->seek_d0, g->seek_c / 1e6,
		       g->seek_e / 1e3, dm_seek_ns(m, (g->cylinders - 1) / 100) / 1e6,
		       dm_seek_ns(m, (g->cylinders - 1) / 40) / 1e6,
		       dm_seek_ns(m, (g->cylinders - 1) / 10) / 1e6, g->mean_random_seek_ns / 1e6);
	else
		printf("%sderived: seek %.3f + %.5f*sqrt(d) ms below %u cylinders, %.3f + "
		       "%.3f*d/1000 ms above; mean over random LBAs %.3f ms\n",
		       prefix, g->seek_a / 1e6, g->seek_b / 1e6, g->seek_d0, g->seek_c / 1e6,
		       g->seek_e / 1e3, g->mean_random_seek_ns / 1e6);
}

const struct dm_stats *dm_stats(const struct disk_model *m)
{
	return &m->st;
}

void dm_reset_stats(struct disk_model *m)
{
	memset(&m->st, 0, sizeof(m->st));
}
