/*
 * A disk for the ext2 host tests and the fuzzer (tests/host/test_ext2_disk.c):
 * an in-memory or mmap'd image behind the real block layer, with a driver
 * that copies each request's sectors and completes it at once. Sectors in
 * [fail_from, fail_to) fail with -EIO, fail_times times (0: always).
 *
 *	struct block_device *bdev = ext2_test_disk_file("build/img/ext2-1k.img");
 *	struct super_block *sb = ext2_mount(bdev, 0, false);
 *	...
 *	ext2_umount(sb);
 *	ext2_test_disk_done();
 */
#ifndef TESTS_HOST_TEST_EXT2_DISK_H
#define TESTS_HOST_TEST_EXT2_DISK_H

#include "drivers/blkdev.h"

struct ext2_test_disk {
	struct block_device bdev;
	const uint8_t *data;
	size_t len; /* bytes of data; the disk is that, rounded up */
	void *map;  /* mmap'd image, or NULL */
	size_t map_len;
	unsigned long requests; /* requests the driver was handed */
	unsigned long bios;	/* bios inside them */
	sector_t fail_from, fail_to;
	unsigned int fail_times;
	unsigned int failed; /* requests failed so far */
};

extern struct ext2_test_disk ext2_disk;

/* Host memory for the page cache: NULL when ready, else why not. */
const char *ext2_test_mm_ready(void);
/* Register @data (@len bytes, copied) as the only disk; NULL on failure. */
struct block_device *ext2_test_disk_mem(const void *data, size_t len);
/* The same for an image file, mapped read-only; NULL if it cannot be opened. */
struct block_device *ext2_test_disk_file(const char *path);
/* Forget the disk (unmount first: its page cache must be unused). */
void ext2_test_disk_done(void);
/* Where tools/mkimage put the images: $EXT2_IMG_DIR or build/img. */
const char *ext2_test_img_dir(void);

#endif
