/*
 * cat, a file command (bench/filecmds.h): read a file with read(2), as a user
 * would from the shell: its MB/s, disk requests and readahead counters. A
 * bench pattern file (bench/pattern.h) is checked word by word, any other
 * file gets its crc32; verify=0 skips both, to measure the read path alone.
 * It opens and measures as the other file commands do (bench/filecmds.c).
 *
 *	cat PATH [bs=SIZE] [verify=0]		read a file: MB/s, crc32, disk requests
 */
#include <stdio.h>

#include "bench/filecmds.h"
#include "bench/pattern-check.h"
#include "kernel/cmd.h"
#include "kernel/crc32.h"
#include "kernel/log.h"
#include "mm/mm.h"

#define CAT_DEFAULT_BS (64 * 1024)
#define CAT_MAX_BS     KMALLOC_MAX_SIZE

/* What cat found in the data: the pattern checked, or a crc32, or neither (verify=0). */
struct cat_check {
	bool verify, pattern;
	uint64_t seed;
	int64_t bad; /* first wrong byte of a pattern file, -1: none */
	uint32_t crc;
};

static void cat_check_text(const struct cat_check *c, char *s, size_t n)
{
	if (c->pattern)
		snprintf(s, n, c->bad < 0 ? "every byte verified" : "WRONG DATA at %lld",
			 (long long)c->bad);
	else if (c->verify)
		snprintf(s, n, "crc32 %08x", c->crc);
	else
		snprintf(s, n, "not checked");
}

static void cat_report(const char *path, struct file *f, const struct ra_measure *m,
		       uint64_t bytes, const struct cat_check *c)
{
	double secs = measure_secs(m);
	struct ra_stats st;
	char check[48], hex[9];
	struct result r;

	cat_check_text(c, check, sizeof(check));
	ra_file_stats(&f->f_ra, &st);
	printf("cat: %s: %llu bytes in %.3f s (%.2f MB/s), %s, %llu disk reads, "
	       "average %.1f KiB, %llu buffer hits (%s disk); readahead %s: %lu calls, "
	       "%lu windows\n",
	       path, (unsigned long long)bytes, secs, (double)bytes / 1e6 / secs, check,
	       (unsigned long long)m->reads, measure_avg_req_kb(m), (unsigned long long)m->hits,
	       m->bdev->run_cold ? "cold" : "warm", f->f_ra.algo->name, ra_stats_calls(&st),
	       st.windows);
	snprintf(hex, sizeof(hex), "%08x", c->crc);
	result_begin(&r, "cat");
	measure_keys(&r, m, path, bytes, c->verify && !c->pattern ? hex : NULL);
	result_bool(&r, "verified", c->pattern && c->bad < 0);
	ra_result_keys(&r, f);
	result_end(&r);
}

static int cmd_cat(int argc, char **argv)
{
	static const struct kv_spec specs[] = {
		RA_KV_SPECS,
		{"bs", KV_SIZE, NULL, "bytes per read (default 64K)"},
		{"verify", KV_BOOL, NULL, "0: no crc32 or pattern check (default 1)"},
	};
	struct kv_value v[ARRAY_SIZE(specs)];
	struct cat_check c = {.bad = -1};
	const char *path = NULL;
	size_t bs = CAT_DEFAULT_BS;
	struct ra_measure m;
	uint64_t bytes = 0;
	struct file *f;
	ssize_t n;
	void *buf;
	int err;

	if (kcmd_args(argc, argv, specs, ARRAY_SIZE(specs), v, &path))
		return -EINVAL;
	if (v[2].present) {
		if (v[2].u == 0 || v[2].u > CAT_MAX_BS) {
			pr_err("cat: bs=%s: must be 1 byte to %lu KiB\n", v[2].raw,
			       CAT_MAX_BS >> 10);
			return -EINVAL;
		}
		bs = (size_t)v[2].u;
	}
	err = vfs_need_root("cat");
	if (err)
		return err;
	f = open_regular("cat", path, v);
	if (!f)
		return -EINVAL;
	buf = kmalloc(bs);
	if (!buf) {
		pr_err("cat: no memory for a %zu-byte buffer\n", bs);
		vfs_close(f);
		return -ENOMEM;
	}
	c.verify = !v[3].present || v[3].u;
	c.pattern = c.verify && pattern_file(path);
	c.seed = pattern_seed(path);
	measure_start(&m, f);
	while ((n = vfs_read(f, buf, bs)) > 0) {
		if (c.pattern && c.bad < 0)
			c.bad = pattern_check_fast(c.seed, buf, (size_t)n, bytes);
		else if (!c.pattern && c.verify)
			c.crc = crc32(c.crc, buf, (size_t)n);
		bytes += (uint64_t)n;
	}
	measure_stop(&m);
	kfree(buf);
	if (n < 0) {
		pr_err("cat: %s: read failed at offset %llu: %s\n", path, (unsigned long long)bytes,
		       vfs_errname((int)n));
		vfs_close(f);
		return (int)n;
	}
	cat_report(path, f, &m, bytes, &c);
	vfs_close(f);
	if (c.pattern && c.bad >= 0) {
		pr_err("cat: %s: wrong data at offset %lld\n", path, (long long)c.bad);
		return -EIO;
	}
	return 0;
}
KCMD(cat, cmd_cat, "cat PATH [bs=SIZE] [ra=ALGO] [ra_kb=N] [verify=0]",
     "read a file: MB/s, crc32, disk requests");
