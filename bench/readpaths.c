/*
 * The read path's other ways in, as file commands (bench/filecmds.h): a
 * whole file read through a mapping and its page faults (mmapcat, served by
 * filemap_fault()) or the splice way (splicecat, PIPE_BUFFERS pages by
 * reference), each with cat's MB/s, crc32 and readahead counters; and
 * readahead(2) of a range (readahead: force_page_cache_readahead(), no
 * waiting for the pages).
 *
 *	mmapcat PATH [advice=normal|sequential|random]	read a file through page faults
 *	splicecat PATH			read a file the splice way, 16 pages by reference
 *	readahead PATH [offset=B] [len=B]	readahead(2): force_page_cache_readahead
 */
#include <stdio.h>

#include "bench/filecmds.h"
#include "drivers/blkdev.h"
#include "fs/vfs.h"
#include "kernel/cmd.h"
#include "kernel/crc32.h"
#include "kernel/log.h"
#include "kernel/result.h"
#include "mm/filemap.h"

static void print_summary(const char *cmd, struct file *f, const struct ra_measure *m,
			  uint64_t bytes, uint32_t crc)
{
	uint64_t reads = m->bdev ? m->bdev->stats.ios[0] - m->before.ios[0] : 0;
	struct ra_stats st;

	int lead;

	ra_file_stats(&f->f_ra, &st);
	lead = ra_lead_median_bucket(&st);
	printf("%s: %s: %llu bytes, crc32 %08x; %llu disk reads, %llu buffer hits (%s disk); "
	       "readahead %s: "
	       "%lu calls, %lu windows, %lu pages, %lu used, %lu unused, %lu thrashed, %lu sync + "
	       "%lu async I/Os; median lead ",
	       cmd, f->f_path, (unsigned long long)bytes, crc, (unsigned long long)reads,
	       (unsigned long long)(blk_model_buffer_hits(m->bdev) - m->hits0),
	       m->bdev && m->bdev->run_cold ? "cold" : "warm", f->f_ra.algo->name,
	       ra_stats_calls(&st), st.windows, st.pages, st.hit_pages, ra_stats_unused(&st),
	       st.thrashed_pages, st.sync_ios, st.async_ios);
	if (lead < 0)
		printf("- (no page used)\n");
	else
		printf("%lu-%lu us\n", lead ? 1UL << lead : 0UL, (2UL << lead) - 1);
}

static int cmd_mmapcat(int argc, char **argv)
{
	static const struct kv_spec specs[] = {
		RA_KV_SPECS,
		{"advice", KV_ENUM, filemap_advice_names, "madvise hint for the mapping"},
	};
	struct kv_value v[ARRAY_SIZE(specs)];
	enum filemap_advice adv = FAULT_ADV_NORMAL;
	const char *path = NULL;
	struct ra_measure ms;
	struct file_mmap m;
	struct result r;
	uint64_t off;
	uint32_t crc = 0;
	struct file *f;
	int err;

	if (kcmd_args(argc, argv, specs, ARRAY_SIZE(specs), v, &path))
		return -EINVAL;
	if (v[2].present)
		adv = (enum filemap_advice)v[2].u;
	f = open_regular("mmapcat", path, v);
	if (!f)
		return -EINVAL;
	measure_start(&ms, f);
	err = filemap_mmap(f, adv, &m);
	if (err) {
		pr_err("mmapcat: %s: cannot map: %s\n", path, errname(err));
		vfs_close(f);
		return err;
	}
	/* Each first touch of a page below is a page fault served by filemap_fault(). */
	for (off = 0; off < (uint64_t)m.size && !m.error; off += 64 * 1024) {
		size_t n = (size_t)min_t(uint64_t, 64 * 1024, (uint64_t)m.size - off);

		crc = crc32(crc, (const void *)(m.va + off), n);
	}
	err = m.error;
	if (err)
		pr_err("mmapcat: %s: the fault at page %lu (offset %llu) failed: %s\n", path,
		       m.error_index, (unsigned long long)m.error_index << PAGE_SHIFT,
		       errname(err));
	else
		print_summary("mmapcat", f, &ms, (uint64_t)m.size, crc);
	result_begin(&r, "mmapcat");
	measure_result(&r, &ms, path, err ? 0 : (uint64_t)m.size, crc);
	result_str(&r, "advice", filemap_advice_names[adv]);
	result_u64(&r, "faults", m.faults);
	result_u64(&r, "mmap_hit", f->f_ra.mmap_hit);
	result_u64(&r, "mmap_miss", f->f_ra.mmap_miss);
	ra_result_keys(&r, f);
	if (err)
		result_i64(&r, "error", err);
	result_end(&r);
	filemap_munmap(&m);
	vfs_close(f);
	return err;
}
KCMD(mmapcat, cmd_mmapcat, "mmapcat PATH [advice=normal|sequential|random] [ra=A] [ra_kb=N]",
     "read a file through a mapping and page faults (filemap_fault): MB/s, crc32, readahead");

/* Bounded retries of a splice whose first page left the cache while it waited. */
#define SPLICE_MAX_RETRIES 8

static int cmd_splicecat(int argc, char **argv)
{
	static const struct kv_spec specs[] = {RA_KV_SPECS};
	struct kv_value v[ARRAY_SIZE(specs)];
	const char *path = NULL;
	struct ra_measure ms;
	struct result r;
	uint64_t bytes = 0;
	uint32_t crc = 0;
	loff_t pos = 0;
	int err = 0, retries = 0;
	unsigned long calls = 0;
	struct file *f;

	if (kcmd_args(argc, argv, specs, ARRAY_SIZE(specs), v, &path))
		return -EINVAL;
	f = open_regular("splicecat", path, v);
	if (!f)
		return -EINVAL;
	measure_start(&ms, f);
	for (;;) {
		struct splice_pipe_desc spd;
		ssize_t n = generic_file_splice_read(f, &pos, PIPE_BUFFERS * PAGE_SIZE, &spd);

		if (n == -EAGAIN && ++retries <= SPLICE_MAX_RETRIES)
			continue;
		if (n <= 0) {
			err = (int)n;
			break;
		}
		calls++;
		/* The consumer side of the pipe: confirm each buffer, then use it. */
		for (unsigned int i = 0; i < spd.nr_pages && !err; i++) {
			err = splice_page_confirm(f, &spd, i);
			if (!err)
				crc = crc32(crc,
					    (const char *)page_address(spd.pages[i]) +
						    spd.partial[i].offset,
					    spd.partial[i].len);
			if (!err)
				bytes += spd.partial[i].len;
		}
		splice_release(&spd);
		if (err)
			break;
	}
	if (err)
		pr_err("splicecat: %s: failed at byte %llu: %s\n", path, (unsigned long long)bytes,
		       errname(err));
	else
		print_summary("splicecat", f, &ms, bytes, crc);
	result_begin(&r, "splicecat");
	measure_result(&r, &ms, path, bytes, crc);
	result_u64(&r, "splice_calls", calls);
	ra_result_keys(&r, f);
	if (err)
		result_i64(&r, "error", err);
	result_end(&r);
	vfs_close(f);
	return err;
}
KCMD(splicecat, cmd_splicecat, "splicecat PATH [ra=A] [ra_kb=N]",
     "read a file the splice way, PIPE_BUFFERS pages by reference: MB/s, crc32, readahead");

static int cmd_readahead(int argc, char **argv)
{
	static const struct kv_spec specs[] = {
		RA_KV_SPECS,
		{"offset", KV_SIZE, NULL, "first byte (default 0)"},
		{"len", KV_SIZE, NULL, "bytes (default: to the end of the file)"},
	};
	struct kv_value v[ARRAY_SIZE(specs)];
	const char *path = NULL;
	struct ra_measure ms;
	struct result r;
	uint64_t off = 0, len;
	struct file *f;
	loff_t size;
	int n;

	if (kcmd_args(argc, argv, specs, ARRAY_SIZE(specs), v, &path))
		return -EINVAL;
	f = open_regular("readahead", path, v);
	if (!f)
		return -EINVAL;
	size = f->f_mapping->size;
	if (v[2].present)
		off = v[2].u;
	len = v[3].present ? v[3].u : (off < (uint64_t)size ? (uint64_t)size - off : 0);
	if (off >= (uint64_t)size || len == 0) {
		pr_err("readahead: %s: offset=%llu len=%llu is outside the %lld-byte file\n", path,
		       (unsigned long long)off, (unsigned long long)len, (long long)size);
		vfs_close(f);
		return -EINVAL;
	}
	measure_start(&ms, f);
	n = force_page_cache_readahead(
		f->f_mapping, f, (pgoff_t)(off >> PAGE_SHIFT),
		(unsigned long)(DIV_ROUND_UP(off + len, PAGE_SIZE) - (off >> PAGE_SHIFT)));
	if (n < 0)
		pr_err("readahead: %s: %d\n", path, n);
	result_begin(&r, "readahead");
	measure_result(&r, &ms, path, 0, 0);
	result_u64(&r, "pages_submitted", n > 0 ? (uint64_t)n : 0);
	ra_result_keys(&r, f);
	result_end(&r);
	vfs_close(f);
	return n < 0 ? n : 0;
}
KCMD(readahead, cmd_readahead, "readahead PATH [offset=B] [len=B]",
     "readahead(2): start reading a range of a file into the page cache, no waiting");
