/*
 * What the file commands share (bench/filecmds.h): the disk's counters and
 * the time around a command and the RESULT keys they give (path, bytes,
 * secs, mbps, crc32, disk_reads, avg_req_kb, the disk model's buffer hits),
 * and a regular file opened with the command's ra= and ra_kb=. cat, mmapcat,
 * splicecat, readahead, rastreams and walk use them.
 */
#include <stdio.h>

#include "bench/filecmds.h"
#include "drivers/blkdev.h"
#include "fs/vfs.h"
#include "kernel/log.h"
#include "kernel/result.h"
#include "kernel/time.h"

void measure_start(struct ra_measure *m, struct file *f)
{
	struct super_block *sb = f->f_inode->i_sb;

	m->stopped = false;
	m->bdev = sb ? sb->s_bdev : NULL;
	if (m->bdev)
		m->before = m->bdev->stats;
	blk_run_start(m->bdev);
	m->hits0 = blk_model_buffer_hits(m->bdev);
	m->t0 = ktime_ns();
}

void measure_stop(struct ra_measure *m)
{
	m->t1 = ktime_ns();
	m->reads = m->sectors = 0;
	if (m->bdev) {
		m->reads = m->bdev->stats.ios[0] - m->before.ios[0];
		m->sectors = m->bdev->stats.sectors[0] - m->before.sectors[0];
	}
	m->hits = blk_model_buffer_hits(m->bdev) - m->hits0;
	m->stopped = true;
}

double measure_secs(const struct ra_measure *m)
{
	return (double)max_t(uint64_t, m->t1 - m->t0, 1) / 1e9;
}

double measure_avg_req_kb(const struct ra_measure *m)
{
	return m->reads ? (double)m->sectors / 2.0 / (double)m->reads : 0.0;
}

void measure_keys(struct result *r, const struct ra_measure *m, const char *path, uint64_t bytes,
		  const char *crc)
{
	struct ra_measure end = *m;
	double secs;

	if (!end.stopped)
		measure_stop(&end);
	secs = measure_secs(&end);
	result_str(r, "path", path);
	result_u64(r, "bytes", bytes);
	result_double(r, "secs", secs, 6);
	result_double(r, "mbps", (double)bytes / 1e6 / secs, 2);
	if (crc)
		result_str(r, "crc32", crc);
	result_u64(r, "disk_reads", end.reads);
	result_double(r, "avg_req_kb", measure_avg_req_kb(&end), 1);
	if (end.bdev && end.bdev->dmodel)
		result_u64(r, "dm_buffer_hits", end.hits);
	result_timing(r, end.bdev);
}

void measure_result(struct result *r, const struct ra_measure *m, const char *path, uint64_t bytes,
		    uint32_t crc)
{
	char crcs[12];

	snprintf(crcs, sizeof(crcs), "%08x", crc);
	measure_keys(r, m, path, bytes, crcs);
}

/* Open @path as a regular file and apply ra=/ra_kb= from @v (RA_KV_SPECS at @v[0..1]). */
struct file *open_regular(const char *cmd, const char *path, const struct kv_value *v)
{
	struct file *f;
	int err;

	if (!path) {
		pr_err("%s: which file? (a path argument)\n", cmd);
		return NULL;
	}
	f = vfs_open(path, &err);
	if (!f) {
		pr_err("%s: %s: cannot open: %s\n", cmd, path, vfs_errname(err));
		return NULL;
	}
	if (vfs_mode_ftype(f->f_inode->i_mode) != VFS_FT_REG) {
		pr_err("%s: %s: not a regular file\n", cmd, path);
		vfs_close(f);
		return NULL;
	}
	if (ra_apply_args(cmd, f, &v[0], &v[1])) {
		vfs_close(f);
		return NULL;
	}
	return f;
}
