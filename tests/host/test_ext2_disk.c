/*
 * The ext2 tests' disk: see tests/host/test_ext2_disk.h. The driver hands
 * every request back completed before queue_rq returns, so no test ever
 * waits; the block layer (merging, splitting, statistics) is the real one.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel/log.h"
#include "mm/mm.h"
#include "tests/host/test_ext2_disk.h"

struct ext2_test_disk ext2_disk;
static uint8_t *copy;

const char *ext2_test_mm_ready(void)
{
	if (!mm_ready() && mm_host_init(96ULL << 20) < 0)
		return "cannot set up a host memory arena";
	return NULL;
}

static int disk_queue_rq(struct block_device *bdev, struct request *rq)
{
	struct ext2_test_disk *d = bdev->driver_data;
	sector_t sector = rq->sector;

	d->requests++;
	if (rq->op != REQ_OP_READ) {
		blk_end_request(rq, -EROFS, rq->sector);
		return 0;
	}
	for (struct bio *bio = rq->bio; bio; bio = bio->bi_next) {
		d->bios++;
		for (unsigned int i = 0; i < bio->bi_vcnt; i++) {
			struct bio_vec *bv = &bio->bi_io_vec[i];
			uint8_t *p = (uint8_t *)page_address(bv->bv_page) + bv->bv_offset;
			uint64_t pos = sector * SECTOR_SIZE;
			size_t n = pos < d->len ? min_t(size_t, bv->bv_len, d->len - pos) : 0;

			memcpy(p, d->data + pos, n);
			memset(p + n, 0, bv->bv_len - n); /* the rounded-up tail */
			sector += bv->bv_len / SECTOR_SIZE;
		}
	}
	if (d->fail_from < rq->sector + rq->nr_sectors && d->fail_to > rq->sector &&
	    (!d->fail_times || d->failed < d->fail_times)) {
		d->failed++;
		blk_end_request(rq, -EIO, max(d->fail_from, rq->sector));
		return 0;
	}
	blk_end_request(rq, 0, 0);
	return 0;
}

static const struct blk_queue_ops disk_ops = {.queue_rq = disk_queue_rq};

static struct block_device *disk_register(void)
{
	ext2_disk.bdev.nr_sectors = DIV_ROUND_UP(ext2_disk.len, SECTOR_SIZE);
	ext2_disk.bdev.max_sectors = 2048; /* 1 MiB requests, like a SATA disk here */
	ext2_disk.bdev.queue_depth = 32;
	ext2_disk.bdev.driver_data = &ext2_disk;
	if (ext2_disk.bdev.nr_sectors == 0 ||
	    blk_register_disk(&ext2_disk.bdev, &disk_ops, 256, 0)) {
		ext2_test_disk_done();
		return NULL;
	}
	return &ext2_disk.bdev;
}

struct block_device *ext2_test_disk_mem(const void *data, size_t len)
{
	if (ext2_test_mm_ready())
		return NULL;
	ext2_test_disk_done();
	copy = malloc(len ? len : 1);
	if (!copy)
		return NULL;
	memcpy(copy, data, len);
	ext2_disk.data = copy;
	ext2_disk.len = len;
	return disk_register();
}

struct block_device *ext2_test_disk_file(const char *path)
{
	struct stat st;
	void *map;
	int fd;

	if (ext2_test_mm_ready())
		return NULL;
	ext2_test_disk_done();
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || st.st_size == 0) {
		close(fd);
		return NULL;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return NULL;
	ext2_disk.map = map;
	ext2_disk.map_len = (size_t)st.st_size;
	ext2_disk.data = map;
	ext2_disk.len = (size_t)st.st_size;
	return disk_register();
}

void ext2_test_disk_done(void)
{
	blk_reset_disks();
	if (ext2_disk.map)
		munmap(ext2_disk.map, ext2_disk.map_len);
	free(copy);
	copy = NULL;
	memset(&ext2_disk, 0, sizeof(ext2_disk)); /* fail_from == fail_to: no failures */
}

const char *ext2_test_img_dir(void)
{
	const char *d = getenv("EXT2_IMG_DIR");

	return d && *d ? d : "build/img";
}
