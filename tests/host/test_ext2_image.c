/*
 * Host tests of the whole ext2 read path on the images tools/mkimage
 * builds (build/img/, or $EXT2_IMG_DIR): mount, path lookup, readdir,
 * symlinks, and every file of the manifests read through vfs_read (the
 * real page cache, readahead, ext2 readpages, block layer and a fake disk
 * driver) and compared by size and crc32 with what the host wrote. Also:
 * one bio per run of contiguous blocks, holes, refused and corrupt images,
 * I/O errors with the single-page retry.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fs/ext2.h"
#include "kernel/crc32.h"
#include "kernel/ktest.h"
#include "mm/mm.h"
#include "tests/host/test_ext2_disk.h"

static char path_buf[512];

static const char *img_path(const char *name)
{
	snprintf(path_buf, sizeof(path_buf), "%s/%s", ext2_test_img_dir(), name);
	return path_buf;
}

static const char *images_ready(void)
{
	FILE *f;
	const char *why = ext2_test_mm_ready();

	if (why)
		return why;
	f = fopen(img_path("manifest-small.txt"), "r");
	if (!f)
		return "no test images (run tools/mkimage)";
	fclose(f);
	return NULL;
}

/* Mount @name (partition @part); vfs_root is set while mounted. */
static struct super_block *mount_img(struct ktest *t, const char *name, int part)
{
	struct block_device *bdev = ext2_test_disk_file(img_path(name));
	struct super_block *sb;

	if (!bdev) {
		KT_FAIL(t, "cannot open %s", img_path(name));
		return NULL;
	}
	sb = ext2_mount(bdev, part, false);
	if (IS_ERR(sb)) {
		KT_FAIL(t, "mounting %s failed: %ld (%s)", name, PTR_ERR(sb), ext2_mount_error());
		ext2_test_disk_done();
		return NULL;
	}
	vfs_root = sb;
	return sb;
}

static void umount_img(struct super_block *sb)
{
	vfs_root = NULL;
	if (sb && !IS_ERR(sb))
		ext2_umount(sb);
	ext2_test_disk_done();
}

/* Read @path whole with vfs_read in @bs-byte reads; -errno or 0. */
static int read_whole(const char *path, size_t bs, uint64_t *bytes, uint32_t *crc)
{
	static uint8_t buf[256 * 1024];
	struct file *f;
	ssize_t n;
	int err;

	*bytes = 0;
	*crc = 0;
	f = vfs_open(path, &err);
	if (!f)
		return err;
	while ((n = vfs_read(f, buf, min(bs, sizeof(buf)))) > 0) {
		*crc = crc32(*crc, buf, (size_t)n);
		*bytes += (uint64_t)n;
	}
	vfs_close(f);
	return n < 0 ? (int)n : 0;
}

/* Every file of @manifest read back with size and crc32 as the host wrote them. */
static void check_manifest(struct ktest *t, const char *manifest, size_t bs)
{
	char line[600], path[512];
	unsigned long long size;
	unsigned int crc, n = 0;
	FILE *f = fopen(img_path(manifest), "r");

	if (!f) {
		KT_FAIL(t, "no %s", img_path(manifest));
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		uint64_t got_bytes;
		uint32_t got_crc;
		struct kstat st;
		int err;

		if (sscanf(line, "%511s %llu %x", path, &size, &crc) != 3) {
			KT_FAIL(t, "bad manifest line: %s", line);
			continue;
		}
		n++;
		err = read_whole(path, bs, &got_bytes, &got_crc);
		if (err || got_bytes != size || got_crc != crc)
			KT_FAIL(t, "%s: error %d, %llu bytes crc %08x, want %llu bytes crc %08x",
				path, err, (unsigned long long)got_bytes, got_crc, size, crc);
		err = vfs_stat(path, &st);
		if (err || (uint64_t)st.size != size || !EXT2_ISREG(st.mode))
			KT_FAIL(t, "stat %s: error %d, size %lld mode 0%o", path, err,
				(long long)st.size, st.mode);
	}
	fclose(f);
	KT_EXPECT_GT(t, n, 10);
}

static void test_full_images(struct ktest *t)
{
	static const char *const images[] = {"ext2-1k.img", "ext2-2k.img", "ext2-4k.img"};

	for (unsigned int i = 0; i < ARRAY_SIZE(images); i++) {
		struct super_block *sb = mount_img(t, images[i], 0);

		if (!sb)
			continue;
		KT_EXPECT_EQ(t, sb->s_blocksize, 1024u << i);
		check_manifest(t, "manifest-full.txt", i == 1 ? 4096 + 512 : 65536);
		umount_img(sb);
	}
}

static void test_small_variants(struct ktest *t)
{
	static const char *const images[] = {"small-1k.img", "small-4k-i128.img", "small-rev0.img",
					     "small-ext3.img", "small-flexbg.img"};

	for (unsigned int i = 0; i < ARRAY_SIZE(images); i++) {
		struct super_block *sb = mount_img(t, images[i], 0);

		if (!sb)
			continue;
		check_manifest(t, "manifest-small.txt", 1000);
		umount_img(sb);
	}
}

static void test_partitions(struct ktest *t)
{
	struct block_device *bdev;
	struct super_block *sb;

	/* root=0: the first Linux partition holding ext2 (partition 1 is FAT) */
	sb = mount_img(t, "small-part.img", 0);
	if (sb) {
		KT_EXPECT_STREQ(t, sb->s_id, "sda2");
		KT_EXPECT_EQ(t, sb->s_start, 4096 * 512);
		check_manifest(t, "manifest-small.txt", 65536);
		umount_img(sb);
	}
	sb = mount_img(t, "small-part.img", 2);
	umount_img(sb);

	bdev = ext2_test_disk_file(img_path("small-part.img"));
	KT_ASSERT_TRUE(t, bdev != NULL);
	sb = ext2_mount(bdev, 1, true);
	KT_EXPECT_EQ(t, PTR_ERR(sb), -EINVAL);
	KT_EXPECT_TRUE(t, strstr(ext2_mount_error(), "bad superblock magic") != NULL);
	sb = ext2_mount(bdev, 3, true);
	KT_EXPECT_EQ(t, PTR_ERR(sb), -ENOENT);
	KT_EXPECT_TRUE(t, strstr(ext2_mount_error(), "partition 3 is empty") != NULL);
	sb = ext2_mount(bdev, 5, true);
	KT_EXPECT_EQ(t, PTR_ERR(sb), -EINVAL);
	KT_EXPECT_TRUE(t, ext2_probe(bdev));
	ext2_test_disk_done();

	/* a whole-disk filesystem has no MBR: partition 1 does not exist */
	bdev = ext2_test_disk_file(img_path("small-1k.img"));
	KT_ASSERT_TRUE(t, bdev != NULL);
	sb = ext2_mount(bdev, 1, true);
	KT_EXPECT_TRUE(t, IS_ERR(sb));
	KT_EXPECT_TRUE(t, strstr(ext2_mount_error(), "no MBR partition table") != NULL);
	ext2_test_disk_done();
}

static void test_refused(struct ktest *t)
{
	struct block_device *bdev = ext2_test_disk_file(img_path("small-ext4.img"));
	struct super_block *sb;

	KT_ASSERT_TRUE(t, bdev != NULL);
	sb = ext2_mount(bdev, 0, true);
	KT_EXPECT_EQ(t, PTR_ERR(sb), -EOPNOTSUPP);
	KT_EXPECT_TRUE(t, strstr(ext2_mount_error(), "extents") != NULL);
	KT_EXPECT_TRUE(t, strstr(ext2_mount_error(), "64bit") != NULL);
	ext2_test_disk_done();
}

struct names {
	unsigned int n, stop_every, offers;
	unsigned char seen[1000];
	unsigned int dots, other;
};

static int collect(void *ctx, const char *name, unsigned int len, uint32_t ino, unsigned int ftype)
{
	struct names *nm = ctx;
	unsigned int i;

	/* refuse every stop_every-th entry offered: readdir must offer it again */
	if (nm->stop_every && ++nm->offers % nm->stop_every == 0)
		return 1;
	if ((len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.'))
		nm->dots++;
	else if (len == 9 && sscanf(name, "file-%4u", &i) == 1 && i < 1000 && ftype == VFS_FT_REG &&
		 ino > EXT2_GOOD_OLD_FIRST_INO)
		nm->seen[i]++;
	else
		nm->other++;
	nm->n++;
	return 0;
}

static void check_dir1000(struct ktest *t, unsigned int stop_every)
{
	struct names nm = {.stop_every = stop_every};
	struct file *f;
	int err, calls = 0;

	f = vfs_open("/dir1000", &err);
	KT_ASSERT_TRUE(t, f != NULL);
	do {
		err = vfs_readdir(f, collect, &nm);
		calls++;
	} while (!err && f->f_pos < f->f_inode->i_size && calls < 5000);
	KT_EXPECT_EQ(t, err, 0);
	KT_EXPECT_EQ(t, nm.dots, 2);
	KT_EXPECT_EQ(t, nm.other, 0);
	KT_EXPECT_EQ(t, nm.n, 1002);
	for (unsigned int i = 0; i < 1000; i++)
		if (nm.seen[i] != 1)
			KT_FAIL(t, "file-%04u seen %u times", i, nm.seen[i]);
	if (stop_every)
		KT_EXPECT_GE(t, calls, 1002 / (stop_every - 1));
	/* at the end: nothing more */
	KT_EXPECT_EQ(t, vfs_readdir(f, collect, &nm), 0);
	KT_EXPECT_EQ(t, nm.n, 1002);
	vfs_close(f);
}

static void test_readdir(struct ktest *t)
{
	struct super_block *sb = mount_img(t, "ext2-1k.img", 0);
	struct file *f;
	int err;

	if (!sb)
		return;
	check_dir1000(t, 0);
	check_dir1000(t, 7);
	/* readdir needs a directory, read needs a file */
	f = vfs_open("/small.txt", &err);
	KT_ASSERT_TRUE(t, f != NULL);
	KT_EXPECT_EQ(t, vfs_readdir(f, collect, &(struct names){0}), -ENOTDIR);
	vfs_close(f);
	f = vfs_open("/nest", &err);
	KT_ASSERT_TRUE(t, f != NULL);
	KT_EXPECT_EQ(t, vfs_read(f, path_buf, 10), -EISDIR);
	vfs_close(f);
	umount_img(sb);
}

static void test_lookup(struct ktest *t)
{
	static const struct {
		const char *path;
		int err;
	} cases[] = {
		{"/", 0},
		{"//nest///a/", 0},
		{"/nest/a/b/c/deep.txt", 0},
		{"/nest/a/b/../../a/./b/c/deep.txt", 0},
		{"/..", 0},
		{"/links/dirlink/b", 0},
		{"/links/dirlink/", 0},
		{"/missing", -ENOENT},
		{"/nest/missing/x", -ENOENT},
		{"/small.txt/x", -ENOTDIR},
		{"/small.txt/", -ENOTDIR},
		{"/links/fast/", -ENOTDIR},
		{"/links/loop1", -ELOOP},
		{"/links/loop2/x", -ELOOP},
		{"/links/dangling", -ENOENT},
		{"small.txt", -EINVAL},
		{"", -EINVAL},
	};
	struct super_block *sb = mount_img(t, "small-1k.img", 0);
	char longname[300];
	struct kstat st;

	if (!sb)
		return;
	for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++) {
		int err = vfs_stat(cases[i].path, &st);

		if (err != cases[i].err)
			KT_FAIL(t, "stat \"%s\": %d, want %d", cases[i].path, err, cases[i].err);
	}
	KT_EXPECT_EQ(t, vfs_stat("/..", &st), 0);
	KT_EXPECT_EQ(t, st.ino, EXT2_ROOT_INO);
	memset(longname, 'x', sizeof(longname));
	longname[0] = '/';
	longname[sizeof(longname) - 1] = '\0';
	KT_EXPECT_EQ(t, vfs_stat(longname, &st), -ENAMETOOLONG);
	umount_img(sb);
	/* nothing mounted */
	KT_EXPECT_EQ(t, vfs_stat("/", &st), -ENODEV);
}

static void test_symlinks(struct ktest *t)
{
	/* as tools/mkimage made it: longer than the 60 bytes of i_block */
	static const char slow[] =
		"../nest/./a/./././././././././././././././././././././././b/c/deep.txt";
	struct super_block *sb = mount_img(t, "ext2-4k.img", 0);
	char target[VFS_PATH_MAX + 1];
	struct kstat st, lst;

	if (!sb)
		return;
	KT_EXPECT_EQ(t, vfs_readlink("/links/fast", target, sizeof(target)), 12);
	KT_EXPECT_STREQ(t, target, "../small.txt");
	KT_EXPECT_EQ(t, vfs_readlink("/links/slow", target, sizeof(target)), (ssize_t)strlen(slow));
	KT_EXPECT_STREQ(t, target, slow);
	KT_EXPECT_EQ(t, vfs_readlink("/links/abs", target, sizeof(target)), 20);
	KT_EXPECT_STREQ(t, target, "/nest/a/b/c/deep.txt");
	KT_EXPECT_EQ(t, vfs_readlink("/links/fast", target, 5), -ENAMETOOLONG);
	KT_EXPECT_EQ(t, vfs_readlink("/small.txt", target, sizeof(target)), -EINVAL);

	KT_ASSERT_EQ(t, vfs_lstat("/links/slow", &lst), 0);
	KT_EXPECT_TRUE(t, EXT2_ISLNK(lst.mode));
	KT_EXPECT_EQ(t, lst.size, (loff_t)strlen(slow));
	KT_ASSERT_EQ(t, vfs_stat("/links/slow", &st), 0);
	KT_EXPECT_TRUE(t, EXT2_ISREG(st.mode));
	KT_EXPECT_EQ(t, st.size, 17);
	KT_EXPECT_NE(t, st.ino, lst.ino);
	/* a symlink to a directory in the middle of a path */
	KT_ASSERT_EQ(t, vfs_stat("/links/dirlink/b/c", &st), 0);
	KT_EXPECT_TRUE(t, EXT2_ISDIR(st.mode));
	umount_img(sb);
}

static bool all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

static void test_holes(struct ktest *t)
{
	static uint8_t buf[64 * 1024];
	struct super_block *sb = mount_img(t, "ext2-1k.img", 0);
	struct file *f;
	int err;

	if (!sb)
		return;
	f = vfs_open("/sparse.bin", &err);
	KT_ASSERT_TRUE(t, f != NULL);
	/* data at 0, 1 MiB + 100, 3 MiB, 40 MiB and the last byte; zeros between */
	KT_EXPECT_EQ(t, vfs_pread(f, buf, sizeof(buf), 20 * 1024 * 1024), (ssize_t)sizeof(buf));
	KT_EXPECT_TRUE(t, all_zero(buf, sizeof(buf)));
	KT_EXPECT_EQ(t, vfs_pread(f, buf, 4096, 5000), 4096);
	KT_EXPECT_TRUE(t, all_zero(buf, 4096));
	KT_EXPECT_EQ(t, vfs_pread(f, buf, 200, 4900), 200);
	KT_EXPECT_TRUE(t, !all_zero(buf, 100) && all_zero(buf + 100, 100));
	KT_EXPECT_EQ(t, vfs_pread(f, buf, 100, 48 * 1024 * 1024 - 1), 1);
	KT_EXPECT_EQ(t, buf[0], 1);
	KT_EXPECT_EQ(t, vfs_pread(f, buf, 100, 48 * 1024 * 1024), 0);
	KT_EXPECT_EQ(t, vfs_pread(f, buf, 100, -1), -EINVAL);
	vfs_close(f);

	/* every third KiB is a hole: pieces of pages are read, the rest zeroed */
	f = vfs_open("/holes-in-page.bin", &err);
	KT_ASSERT_TRUE(t, f != NULL);
	KT_EXPECT_EQ(t, vfs_read(f, buf, sizeof(buf)), (ssize_t)sizeof(buf));
	for (unsigned int i = 0; i < 64; i++)
		if (all_zero(buf + i * 1024, 1024) != (i % 3 == 1))
			KT_FAIL(t, "KiB %u of holes-in-page.bin: %s", i,
				i % 3 == 1 ? "not zero" : "zero");
	vfs_close(f);
	umount_img(sb);
}

/*
 * Runs of contiguous disk blocks over pages [first, first + nr) of @inode,
 * a hole ending a run: the number of bios readpages must submit.
 */
static unsigned long expected_runs(struct inode *inode, pgoff_t first, unsigned long nr)
{
	unsigned int bpp = PAGE_SIZE >> inode->i_sb->s_blocksize_bits;
	uint64_t end = min((uint64_t)(first + nr) * bpp, ext2_size_blocks(inode));
	struct ext2_bmap_ctx ctx;
	uint32_t prev = 0, blk;
	unsigned long runs = 0;

	ext2_bmap_init(&ctx);
	for (uint64_t l = (uint64_t)first * bpp; l < end; l++) {
		if (ext2_bmap(inode, &ctx, l, &blk))
			return 0;
		if (blk && (!prev || blk != prev + 1))
			runs++;
		prev = blk;
	}
	ext2_bmap_release(&ctx);
	return runs;
}

static void check_runs(struct ktest *t, const char *img, const char *path, pgoff_t first,
		       unsigned long nr, unsigned long min_runs)
{
	struct super_block *sb = mount_img(t, img, 0);
	struct file *f;
	unsigned long want, bios;
	int err;

	if (!sb)
		return;
	f = vfs_open(path, &err);
	KT_ASSERT_TRUE(t, f != NULL);
	want = expected_runs(f->f_inode, first, nr);
	bios = ext2_disk.bios;
	KT_EXPECT_EQ(t, __do_page_cache_readahead(f->f_mapping, f, first, nr, 0), (int)nr);
	bios = ext2_disk.bios - bios;
	if (bios != want || want < min_runs)
		KT_FAIL(t, "%s %s pages %lu-%lu: %lu bios, %lu runs of blocks (at least %lu)", img,
			path, first, first + nr - 1, bios, want, min_runs);
	vfs_close(f);
	umount_img(sb);
}

static void test_one_bio_per_run(struct ktest *t)
{
	/* 4 KiB blocks, one page each, laid out in one run: one bio */
	check_runs(t, "ext2-4k.img", "/big.bin", 100, 64, 1);
	/* 1 KiB: indirect blocks sit between the data blocks they map */
	check_runs(t, "ext2-1k.img", "/big.bin", 0, 128, 2);
	/* double indirect: an indirect block every 256 data blocks */
	check_runs(t, "ext2-1k.img", "/big.bin", 1000, 256, 4);
	/* holes inside pages end runs */
	check_runs(t, "ext2-1k.img", "/holes-in-page.bin", 0, 16, 20);
	/* a window over holes and data of a sparse file */
	check_runs(t, "ext2-2k.img", "/sparse.bin", 0, 400, 2);
}

static void test_io_errors(struct ktest *t)
{
	struct super_block *sb;
	struct file *f;
	uint32_t blk, crc;
	uint64_t bytes;
	sector_t sector;
	int err;

	/* a read error once: the page is read again alone and the read succeeds */
	sb = mount_img(t, "small-1k.img", 0);
	if (!sb)
		return;
	f = vfs_open("/medium.bin", &err);
	KT_ASSERT_TRUE(t, f != NULL);
	{
		struct ext2_bmap_ctx ctx;

		ext2_bmap_init(&ctx);
		KT_ASSERT_EQ(t, ext2_bmap(f->f_inode, &ctx, 20, &blk), 0);
		ext2_bmap_release(&ctx);
	}
	vfs_close(f);
	sector = (sector_t)blk * 2;
	ext2_disk.fail_from = sector;
	ext2_disk.fail_to = sector + 1;
	ext2_disk.fail_times = 1;
	KT_EXPECT_EQ(t, read_whole("/medium.bin", 65536, &bytes, &crc), 0);
	KT_EXPECT_EQ(t, bytes, 40 * 1024);
	KT_EXPECT_EQ(t, ext2_disk.failed, 1);
	umount_img(sb);

	/* a sector that never reads: the read fails with -EIO */
	sb = mount_img(t, "small-1k.img", 0);
	if (!sb)
		return;
	ext2_disk.fail_from = sector;
	ext2_disk.fail_to = sector + 1;
	KT_EXPECT_EQ(t, read_whole("/medium.bin", 65536, &bytes, &crc), -EIO);
	KT_EXPECT_EQ(t, bytes, 20 * 1024); /* everything before the bad page arrived */
	KT_EXPECT_GE(t, ext2_disk.failed, 2);
	umount_img(sb);
}

/* Mount, list the root and read medium.bin; the first error's text in @why. */
static int walk_corrupt(const char *img, char *why, size_t len)
{
	struct block_device *bdev = ext2_test_disk_file(img_path(img));
	struct super_block *sb;
	struct names nm = {0};
	struct file *f;
	uint32_t crc;
	uint64_t bytes;
	int err;

	if (!bdev)
		return -ENOENT;
	sb = ext2_mount(bdev, 0, true);
	if (IS_ERR(sb)) {
		snprintf(why, len, "%s", ext2_mount_error());
		ext2_test_disk_done();
		return (int)PTR_ERR(sb);
	}
	EXT2_SB(sb)->s_quiet = true;
	vfs_root = sb;
	f = vfs_open("/", &err);
	if (f) {
		err = vfs_readdir(f, collect, &nm);
		vfs_close(f);
	}
	if (!err)
		err = read_whole("/medium.bin", 65536, &bytes, &crc);
	snprintf(why, len, "%s", EXT2_SB(sb)->s_last_error);
	umount_img(sb);
	return err;
}

static void test_corrupt(struct ktest *t)
{
	static const struct {
		const char *img, *said;
	} cases[] = {
		{"corrupt-sb.img", "no ext2 superblock"},
		{"corrupt-gd.img", "group 0:"},
		{"corrupt-itable.img", "inode 2"},
		{"corrupt-dir.img", "directory inode 2, block"},
		{"corrupt-ind.img", "data (logical block 12)"},
	};
	char why[200];

	for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++) {
		int err;

		why[0] = '\0';
		err = walk_corrupt(cases[i].img, why, sizeof(why));
		if (err == 0 || !strstr(why, cases[i].said))
			KT_FAIL(t, "%s: error %d \"%s\", want one saying \"%s\"", cases[i].img, err,
				why, cases[i].said);
	}
}

static void test_cache_reuse(struct ktest *t)
{
	struct super_block *sb = mount_img(t, "small-1k.img", 0);
	uint32_t crc1, crc2;
	uint64_t b1, b2;
	unsigned long reqs;

	if (!sb)
		return;
	KT_EXPECT_EQ(t, read_whole("/medium.bin", 4096, &b1, &crc1), 0);
	/* cached: the inode and its pages outlive the close */
	reqs = ext2_disk.requests;
	KT_EXPECT_EQ(t, read_whole("/medium.bin", 4096, &b2, &crc2), 0);
	KT_EXPECT_EQ(t, ext2_disk.requests, reqs);
	KT_EXPECT_EQ(t, crc1, crc2);
	/* dropped: read from the disk again, same bytes */
	KT_EXPECT_GT(t, drop_pagecache(), 10);
	KT_EXPECT_EQ(t, read_whole("/medium.bin", 4096, &b2, &crc2), 0);
	KT_EXPECT_GT(t, ext2_disk.requests, reqs);
	KT_EXPECT_EQ(t, crc1, crc2);
	KT_EXPECT_EQ(t, b2, b1);
	umount_img(sb);
}

KTEST_SUITE(ext2_image, images_ready, KTEST_CASE(test_full_images), KTEST_CASE(test_small_variants),
	    KTEST_CASE(test_partitions), KTEST_CASE(test_refused), KTEST_CASE(test_readdir),
	    KTEST_CASE(test_lookup), KTEST_CASE(test_symlinks), KTEST_CASE(test_holes),
	    KTEST_CASE(test_one_bio_per_run), KTEST_CASE(test_io_errors), KTEST_CASE(test_corrupt),
	    KTEST_CASE(test_cache_reuse));
