/*
 * What the file commands share (bench/filecmds.h): the disk's counters and
 * the time around a command and the RESULT keys they give (path, bytes,
 * secs, mbps, crc32, disk_reads, avg_req_kb, the disk model's buffer hits),
 * and a regular file opened with the command's ra= and ra_kb=. mmapcat,
 * splicecat, readahead, rastreams and walk use them; cat measures on its own.
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

	m->bdev = sb ? sb->s_bdev : NULL;
	if (m->bdev)
		m->before = m->bdev->stats;
	blk_run_start(m->bdev);
	m->hits0 = blk_model_buffer_hits(m->bdev);
	m->t0 = ktime_ns();
}

void measure_result(struct result *r, const struct ra_measure *m, const char *path, uint64_t bytes,
		    uint32_t crc)
{
	uint64_t ns = max_t(uint64_t, ktime_ns() - m->t0, 1);
	uint64_t reads = 0, sectors = 0;
	double secs = (double)ns / 1e9;
	char crcs[12];

	if (m->bdev) {
		reads = m->bdev->stats.ios[0] - m->before.ios[0];
		sectors = m->bdev->stats.sectors[0] - m->before.sectors[0];
	}
	snprintf(crcs, sizeof(crcs), "%08x", crc);
	result_str(r, "path", path);
	result_u64(r, "bytes", bytes);
	result_double(r, "secs", secs, 6);
	result_double(r, "mbps", (double)bytes / 1e6 / secs, 2);
	result_str(r, "crc32", crcs);
	result_u64(r, "disk_reads", reads);
	result_double(r, "avg_req_kb", reads ? (double)sectors / 2.0 / (double)reads : 0.0, 1);
	if (m->bdev && m->bdev->dmodel)
		result_u64(r, "dm_buffer_hits", blk_model_buffer_hits(m->bdev) - m->hits0);
	result_timing(r, m->bdev);
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
