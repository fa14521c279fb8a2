/*
 * The file commands (kernel only): the applications that read files, as a
 * user would from the shell; the benchmark workloads are the other bench/
 * files. One file for each command or family of commands:
 *
 * bench/filecat.c
 *	cat PATH [bs=SIZE] [verify=0]		read a file: MB/s, crc32, disk requests
 * bench/filewalk.c
 *	walk PATH [quiet=1]		ls -R: the readdir path's readahead on the disk
 * bench/rastreams.c
 *	rastreams PATH streams=N [bs=B]	N interleaved readers: readahead thrashing
 * bench/readpaths.c
 *	mmapcat PATH [advice=normal|sequential|random]	read a file through page faults
 *	splicecat PATH			read a file the splice way, 16 pages by reference
 *	readahead PATH [offset=B] [len=B]	readahead(2): force_page_cache_readahead
 *
 * Each takes ra= and ra_kb= for the file (RA_KV_SPECS, the readahead advice)
 * and prints the keys cat prints (path, bytes, secs, mbps, crc32, disk_reads,
 * avg_req_kb) and the readahead counters of ra_result_keys(). cat checks a
 * bench pattern file (bench/pattern.h) word by word instead of a crc32;
 * verify=0 skips both, to measure the read path alone.
 *
 * They measure with what this header declares (bench/filecmds.c).
 * `help` lists commands in the order their files are linked, bench/'s in
 * name order: these names keep the order it had, cat, walk, rastreams,
 * readahead, splicecat, mmapcat.
 */
#ifndef BENCH_FILECMDS_H
#define BENCH_FILECMDS_H

#include "drivers/blkdev.h"
#include "fs/vfs.h"
#include "kernel/kv.h"
#include "kernel/result.h"

/* Disk counters and time around one command. */
struct ra_measure {
	struct block_device *bdev;
	struct disk_stats before;
	uint64_t hits0; /* the disk model's buffer hits at the start */
	uint64_t t0;
	/* measure_stop(): the clock and the counters at the end */
	bool stopped;
	uint64_t t1, reads, sectors, hits;
};

/* Start measuring a command on @f's disk: the disk's counters, then the clock. */
void measure_start(struct ra_measure *m, struct file *f);
/* End it: the clock, then what the disk did since measure_start(). */
void measure_stop(struct ra_measure *m);
/* Seconds (at least 1 ns) and the average disk request in KiB, once stopped. */
double measure_secs(const struct ra_measure *m);
double measure_avg_req_kb(const struct ra_measure *m);
/*
 * RESULT keys for what the command read: @bytes, their @crc (NULL: no crc32
 * key), the disk's requests; up to measure_stop(), or to now if not stopped.
 */
void measure_keys(struct result *r, const struct ra_measure *m, const char *path, uint64_t bytes,
		  const char *crc);
/* measure_keys() with @crc as the crc32 key. */
void measure_result(struct result *r, const struct ra_measure *m, const char *path, uint64_t bytes,
		    uint32_t crc);
/* Open @path as a regular file and apply ra=/ra_kb= from @v (RA_KV_SPECS at @v[0..1]). */
struct file *open_regular(const char *cmd, const char *path, const struct kv_value *v);

#endif
