/*
 * cat, a file command (bench/filecmds.h): read a file with read(2), as a user
 * would from the shell: its MB/s, disk requests and readahead counters. A
 * bench pattern file (bench/pattern.h) is checked word by word, any other
 * file gets its crc32; verify=0 skips both, to measure the read path alone.
 *
 *	cat PATH [bs=SIZE] [verify=0]		read a file: MB/s, crc32, disk requests
 */
#include <stdio.h>

#include "bench/pattern-check.h"
#include "drivers/blkdev.h"
#include "fs/vfs.h"
#include "kernel/cmd.h"
#include "kernel/crc32.h"
#include "kernel/log.h"
#include "kernel/result.h"
#include "kernel/time.h"
#include "mm/mm.h"

#define CAT_DEFAULT_BS (64 * 1024)
#define CAT_MAX_BS     KMALLOC_MAX_SIZE

static int cmd_cat(int argc, char **argv)
{
	static const struct kv_spec specs[] = {
		{"bs", KV_SIZE, NULL, "bytes per read (default 64K)"},
		RA_KV_SPECS,
		{"verify", KV_BOOL, NULL, "0: no crc32 or pattern check (default 1)"},
	};
	struct kv_value v[ARRAY_SIZE(specs)];
	struct disk_stats before, after;
	struct block_device *bdev;
	bool verify, pattern;
	int64_t bad = -1;
	uint64_t seed;
	const char *path = NULL;
	uint64_t bytes = 0, t0, t1, reads, sectors, hits0;
	uint32_t crc = 0;
	size_t bs = CAT_DEFAULT_BS;
	struct result r;
	struct file *f;
	double secs;
	ssize_t n;
	void *buf;
	int err;

	if (kcmd_args(argc, argv, specs, ARRAY_SIZE(specs), v, &path))
		return -EINVAL;
	if (!path) {
		pr_err("cat: which PATH?\n");
		return -EINVAL;
	}
	if (v[0].present) {
		if (v[0].u == 0 || v[0].u > CAT_MAX_BS) {
			pr_err("cat: bs=%s: must be 1 byte to %lu KiB\n", v[0].raw,
			       CAT_MAX_BS >> 10);
			return -EINVAL;
		}
		bs = (size_t)v[0].u;
	}
	err = vfs_need_root("cat");
	if (err)
		return err;
	f = vfs_open(path, &err);
	if (!f) {
		pr_err("cat: %s: %s\n", path, vfs_errname(err));
		return err;
	}
	if (vfs_mode_ftype(f->f_inode->i_mode) != VFS_FT_REG) {
		pr_err("cat: %s: not a regular file\n", path);
		vfs_close(f);
		return -EINVAL;
	}
	/* the file's readahead: one call, owned by mm/ratrace.c */
	err = ra_apply_args("cat", f, &v[1], &v[2]);
	if (err) {
		vfs_close(f);
		return err;
	}
	buf = kmalloc(bs);
	if (!buf) {
		pr_err("cat: no memory for a %zu-byte buffer\n", bs);
		vfs_close(f);
		return -ENOMEM;
	}
	verify = !v[3].present || v[3].u;
	pattern = verify && pattern_file(path);
	seed = pattern_seed(path);
	bdev = f->f_inode->i_sb->s_bdev;
	before = bdev->stats;
	blk_run_start(bdev);
	hits0 = blk_model_buffer_hits(bdev);
	t0 = ktime_ns();
	while ((n = vfs_read(f, buf, bs)) > 0) {
		if (pattern && bad < 0)
			bad = pattern_check_fast(seed, buf, (size_t)n, bytes);
		else if (!pattern && verify)
			crc = crc32(crc, buf, (size_t)n);
		bytes += (uint64_t)n;
	}
	t1 = ktime_ns();
	after = bdev->stats;
	kfree(buf);
	if (n < 0) {
		pr_err("cat: %s: read failed at offset %llu: %s\n", path, (unsigned long long)bytes,
		       vfs_errname((int)n));
		vfs_close(f);
		return (int)n;
	}
	secs = (double)(t1 - t0) / 1e9;
	reads = after.ios[0] - before.ios[0];
	sectors = after.sectors[0] - before.sectors[0];
	{
		char check[48];

		if (pattern)
			snprintf(check, sizeof(check),
				 bad < 0 ? "every byte verified" : "WRONG DATA at %lld",
				 (long long)bad);
		else if (verify)
			snprintf(check, sizeof(check), "crc32 %08x", crc);
		else
			snprintf(check, sizeof(check), "not checked");
		struct ra_stats st;

		ra_file_stats(&f->f_ra, &st);
		printf("cat: %s: %llu bytes in %.3f s (%.2f MB/s), %s, %llu disk reads, "
		       "average %.1f KiB, %llu buffer hits (%s disk); readahead %s: %lu calls, "
		       "%lu windows\n",
		       path, (unsigned long long)bytes, secs,
		       secs > 0 ? (double)bytes / 1e6 / secs : 0.0, check,
		       (unsigned long long)reads,
		       reads ? (double)sectors * SECTOR_SIZE / 1024 / (double)reads : 0.0,
		       (unsigned long long)(blk_model_buffer_hits(bdev) - hits0),
		       bdev->run_cold ? "cold" : "warm", f->f_ra.algo->name, ra_stats_calls(&st),
		       st.windows);
	}
	result_begin(&r, "cat");
	result_str(&r, "path", path);
	result_u64(&r, "bytes", bytes);
	result_double(&r, "secs", secs, 6);
	result_double(&r, "mbps", secs > 0 ? (double)bytes / 1e6 / secs : 0.0, 2);
	if (verify && !pattern) {
		char hex[9];

		snprintf(hex, sizeof(hex), "%08x", crc);
		result_str(&r, "crc32", hex);
	}
	result_bool(&r, "verified", pattern && bad < 0);
	result_u64(&r, "disk_reads", reads);
	result_double(&r, "avg_req_kb",
		      reads ? (double)sectors * SECTOR_SIZE / 1024 / (double)reads : 0.0, 1);
	if (bdev->dmodel)
		result_u64(&r, "dm_buffer_hits", blk_model_buffer_hits(bdev) - hits0);
	ra_result_keys(&r, f);
	result_timing(&r, bdev);
	result_end(&r);
	vfs_close(f);
	if (pattern && bad >= 0) {
		pr_err("cat: %s: wrong data at offset %lld\n", path, (long long)bad);
		return -EIO;
	}
	return 0;
}
KCMD(cat, cmd_cat, "cat PATH [bs=SIZE] [ra=ALGO] [ra_kb=N] [verify=0]",
     "read a file: MB/s, crc32, disk requests");
