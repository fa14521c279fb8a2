/*
 * Mounting ext2: find the filesystem on a disk (the whole disk, or an MBR
 * partition), validate its superblock and every group descriptor, check
 * the root inode, and read metadata blocks through the block device's page
 * cache (bdev->bd_mapping, read with read_cache_page()).
 *
 *	struct super_block *sb = ext2_mount(bdev, 0, false);
 *	if (IS_ERR(sb)) ...		// the reason was printed
 *	...
 *	ext2_umount(sb);		// after every file is closed
 *
 * A partition must start on a 4 KiB boundary so that no block of the
 * filesystem straddles two pages of the disk's cache.
 */
#include <stdio.h>
#include <string.h>

#include "drivers/blkdev.h"
#include "fs/ext2.h"
#include "kernel/log.h"
#include "mm/mm.h"

/* Read @len bytes at byte @pos of @bdev (inside one page) into @buf. */
static int bdev_read_bytes(struct ext2_sb_info *sbi, struct block_device *bdev, uint64_t pos,
			   void *buf, size_t len)
{
	struct page *page;

	if (pos + len > (uint64_t)bdev->nr_sectors * SECTOR_SIZE) {
		ext2_error(sbi, "bytes %llu-%llu lie past the end of the disk",
			   (unsigned long long)pos, (unsigned long long)(pos + len - 1));
		return -EINVAL;
	}
	page = read_cache_page(&bdev->bd_mapping, pos >> PAGE_SHIFT, NULL);
	/* running out of memory says nothing about the disk: the caller reports it */
	if (PTR_ERR(page) == -ENOMEM)
		return -ENOMEM;
	if (IS_ERR(page)) {
		ext2_error(sbi, "I/O error %ld reading bytes %llu-%llu of the disk", PTR_ERR(page),
			   (unsigned long long)pos, (unsigned long long)(pos + len - 1));
		return -EIO;
	}
	memcpy(buf, (const uint8_t *)page_address(page) + (pos & ~PAGE_MASK), len);
	page_cache_release(page);
	return 0;
}

int ext2_bread(struct ext2_sb_info *sbi, uint32_t blk, struct ext2_buf *bh)
{
	struct super_block *sb = &sbi->sb;
	struct block_device *bdev = sb->s_bdev;
	uint64_t pos;
	struct page *page;
	int err;

	bh->page = NULL;
	bh->data = NULL;
	err = ext2_validate_block(sbi, blk, 0, "metadata");
	if (err)
		return err;
	pos = sb->s_start + ((uint64_t)blk << sb->s_blocksize_bits);
	page = read_cache_page(&bdev->bd_mapping, pos >> PAGE_SHIFT, NULL);
	if (PTR_ERR(page) == -ENOMEM)
		return -ENOMEM;
	if (IS_ERR(page)) {
		ext2_error(sbi, "I/O error %ld reading block %u (disk %s page %llu)", PTR_ERR(page),
			   blk, bdev->name, (unsigned long long)(pos >> PAGE_SHIFT));
		return -EIO;
	}
	bh->page = page;
	bh->data = (const uint8_t *)page_address(page) + (pos & ~PAGE_MASK);
	bh->blk = blk;
	return 0;
}

void ext2_brelse(struct ext2_buf *bh)
{
	if (bh->page)
		page_cache_release(bh->page);
	bh->page = NULL;
	bh->data = NULL;
}

int ext2_get_group_desc(struct ext2_sb_info *sbi, uint32_t group, struct ext2_group_desc *gd)
{
	struct ext2_buf bh;
	uint32_t blk;
	int err;

	if (group >= sbi->s_groups_count) {
		ext2_error(sbi, "group %u out of range (%u groups)", group, sbi->s_groups_count);
		return -EFSCORRUPTED;
	}
	blk = sbi->s_first_data_block + 1 + group / sbi->s_desc_per_block;
	err = ext2_bread(sbi, blk, &bh);
	if (err)
		return err;
	memcpy(gd, bh.data + (group % sbi->s_desc_per_block) * sizeof(*gd), sizeof(*gd));
	ext2_brelse(&bh);
	return ext2_validate_group_desc(sbi, group, gd);
}

static bool has_ext2_magic(struct ext2_sb_info *sbi, struct block_device *bdev, uint64_t start)
{
	uint16_t magic;
	bool quiet = sbi->s_quiet;
	int err;

	sbi->s_quiet = true;
	err = bdev_read_bytes(sbi, bdev,
			      start + EXT2_SUPERBLOCK_OFFSET +
				      offsetof(struct ext2_super_block, s_magic),
			      &magic, sizeof(magic));
	sbi->s_quiet = quiet;
	return !err && le16_to_cpu(magic) == EXT2_SUPER_MAGIC;
}

/* Read the MBR's partition table; -ENOENT (quietly) when there is none. */
static int read_mbr(struct ext2_sb_info *sbi, struct block_device *bdev,
		    struct mbr_partition parts[MBR_NR_PARTITIONS])
{
	uint8_t mbr[SECTOR_SIZE];
	int err = bdev_read_bytes(sbi, bdev, 0, mbr, sizeof(mbr));

	if (err)
		return err;
	if ((mbr[MBR_SIGNATURE_OFFSET] | mbr[MBR_SIGNATURE_OFFSET + 1] << 8) != MBR_SIGNATURE)
		return -ENOENT;
	memcpy(parts, mbr + MBR_PARTITION_OFFSET, MBR_NR_PARTITIONS * sizeof(parts[0]));
	return 0;
}

/*
 * Where the filesystem of @bdev is: partition @part (1-4), or for @part 0
 * the whole disk, else the first Linux partition with an ext2 superblock.
 * Sets sb.s_start, sb.s_bytes and sb.s_id.
 */
static int locate_fs(struct ext2_sb_info *sbi, struct block_device *bdev, int part)
{
	struct mbr_partition parts[MBR_NR_PARTITIONS];
	uint64_t disk_bytes = (uint64_t)bdev->nr_sectors * SECTOR_SIZE;
	unsigned int i, first, last;
	int err;

	snprintf(sbi->sb.s_id, sizeof(sbi->sb.s_id), "%.15s", bdev->name);
	if (part < 0 || part > MBR_NR_PARTITIONS) {
		ext2_error(sbi, "partition %d does not exist (MBR partitions are 1-4)", part);
		return -EINVAL;
	}
	if (part == 0 && has_ext2_magic(sbi, bdev, 0)) {
		sbi->sb.s_start = 0;
		sbi->sb.s_bytes = disk_bytes;
		return 0;
	}
	err = read_mbr(sbi, bdev, parts);
	if (err == -ENOENT) {
		if (part)
			ext2_error(sbi, "no MBR partition table (no 0x55aa signature in sector 0)");
		else
			ext2_error(sbi,
				   "no ext2 superblock on the disk and no MBR partition table");
		return -EINVAL;
	}
	if (err)
		return err;
	first = part ? (unsigned int)part - 1 : 0;
	last = part ? (unsigned int)part : MBR_NR_PARTITIONS;
	for (i = first; i < last; i++) {
		uint64_t start = (uint64_t)le32_to_cpu(parts[i].start_sect) * SECTOR_SIZE;
		bool quiet = sbi->s_quiet;

		if (!part && parts[i].sys_ind != MBR_TYPE_LINUX)
			continue;
		/* While probing, a bad entry is a reason to look further, not an error. */
		sbi->s_quiet = quiet || !part;
		err = ext2_validate_partition(sbi, (int)i + 1, &parts[i], bdev->nr_sectors);
		sbi->s_quiet = quiet;
		if (err) {
			if (part)
				return err;
			continue;
		}
		if (!part && !has_ext2_magic(sbi, bdev, start))
			continue;
		sbi->sb.s_start = start;
		sbi->sb.s_bytes = (uint64_t)le32_to_cpu(parts[i].nr_sects) * SECTOR_SIZE;
		snprintf(sbi->sb.s_id, sizeof(sbi->sb.s_id), "%.15s%u", bdev->name, i + 1);
		return 0;
	}
	ext2_error(sbi, "no ext2 superblock on the disk or any Linux (0x83) MBR partition");
	return -EINVAL;
}

bool ext2_probe(struct block_device *bdev)
{
	struct ext2_sb_info *sbi = kzalloc(sizeof(*sbi));
	bool found;

	if (!sbi)
		return false;
	sbi->s_quiet = true;
	found = locate_fs(sbi, bdev, 0) == 0;
	kfree(sbi);
	return found;
}

/* Every descriptor is checked once at mount, as Linux's ext2_check_descriptors. */
static int check_descriptors(struct ext2_sb_info *sbi)
{
	struct ext2_group_desc gd;
	uint32_t g;
	int err;

	for (g = 0; g < sbi->s_groups_count; g++) {
		err = ext2_get_group_desc(sbi, g, &gd);
		if (err)
			return err;
	}
	return 0;
}

static void print_mount(struct ext2_sb_info *sbi)
{
	static const struct {
		uint32_t bit;
		const char *name;
	} ro[] = {
		{EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER, "sparse_super"},
		{EXT2_FEATURE_RO_COMPAT_LARGE_FILE, "large_file"},
		{EXT4_FEATURE_RO_COMPAT_HUGE_FILE, "huge_file"},
		{EXT4_FEATURE_RO_COMPAT_METADATA_CSUM, "metadata_csum"},
	};
	char feat[128];
	size_t n = 0, i;

	if (sbi->s_quiet)
		return;
	feat[0] = '\0';
	if (sbi->s_feature_compat & EXT3_FEATURE_COMPAT_HAS_JOURNAL)
		n += snprintf(feat + n, sizeof(feat) - n, " has_journal");
	if (sbi->s_feature_compat & EXT2_FEATURE_COMPAT_DIR_INDEX && n < sizeof(feat))
		n += snprintf(feat + n, sizeof(feat) - n, " dir_index");
	if (sbi->s_has_filetype && n < sizeof(feat))
		n += snprintf(feat + n, sizeof(feat) - n, " filetype");
	if (sbi->s_flex_bg && n < sizeof(feat))
		n += snprintf(feat + n, sizeof(feat) - n, " flex_bg");
	for (i = 0; i < ARRAY_SIZE(ro) && n < sizeof(feat); i++)
		if (sbi->s_feature_ro_compat & ro[i].bit)
			n += snprintf(feat + n, sizeof(feat) - n, " %s", ro[i].name);
	pr_info("ext2 %s: mounted read-only: revision %u, %lu-byte blocks, %u-byte inodes, "
		"%u blocks, %u inodes, %u groups; features:%s\n",
		sbi->sb.s_id, le32_to_cpu(sbi->es.s_rev_level), sbi->sb.s_blocksize,
		sbi->s_inode_size, sbi->s_blocks_count, sbi->s_inodes_count, sbi->s_groups_count,
		n ? feat : " none");
	if (sbi->s_feature_compat & EXT3_FEATURE_COMPAT_HAS_JOURNAL)
		pr_info("ext2 %s: ext3 journal (inode %u) is clean and is not read\n", sbi->sb.s_id,
			le32_to_cpu(sbi->es.s_journal_inum));
}

static char mount_error[sizeof(((struct ext2_sb_info *)0)->s_last_error)];

const char *ext2_mount_error(void)
{
	return mount_error;
}

struct super_block *ext2_mount(struct block_device *bdev, int part, bool quiet)
{
	struct ext2_sb_info *sbi;
	struct ext2_inode root;
	int err;

	mount_error[0] = '\0';
	if (!bdev->bd_mapping.a_ops) {
		snprintf(mount_error, sizeof(mount_error), "disk %s has no page cache", bdev->name);
		pr_err("ext2: disk %s has no page cache (not registered with the block layer)\n",
		       bdev->name);
		return ERR_PTR(-ENODEV);
	}
	sbi = kzalloc(sizeof(*sbi));
	if (!sbi) {
		pr_err("ext2 %s: out of memory mounting\n", bdev->name);
		return ERR_PTR(-ENOMEM);
	}
	sbi->s_quiet = quiet;
	sbi->sb.s_bdev = bdev;
	sbi->sb.s_fs_info = sbi;
	ext2_icache_init(sbi);

	err = locate_fs(sbi, bdev, part);
	if (err)
		goto fail;
	err = bdev_read_bytes(sbi, bdev, sbi->sb.s_start + EXT2_SUPERBLOCK_OFFSET, &sbi->es,
			      sizeof(sbi->es));
	if (err)
		goto fail;
	err = ext2_validate_super(sbi, &sbi->es, sbi->sb.s_bytes);
	if (err)
		goto fail;
	err = check_descriptors(sbi);
	if (err)
		goto fail;
	err = ext2_read_inode(sbi, EXT2_ROOT_INO, &root);
	if (err)
		goto fail;
	if (!EXT2_ISDIR(le16_to_cpu(root.i_mode))) {
		ext2_error(sbi, "root inode %u is not a directory (mode 0%o)", EXT2_ROOT_INO,
			   le16_to_cpu(root.i_mode));
		err = -EFSCORRUPTED;
		goto fail;
	}
	print_mount(sbi);
	return &sbi->sb;
fail:
	/* the validator that failed has printed the reason */
	memcpy(mount_error, sbi->s_last_error, sizeof(mount_error));
	kfree(sbi);
	return ERR_PTR(err);
}

void ext2_umount(struct super_block *sb)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	struct ext2_inode_info *ei, *tmp;

	for (int i = 0; i < EXT2_ICACHE_BUCKETS; i++) {
		list_for_each_entry_safe (ei, tmp, &sbi->s_inodes[i], i_list) {
			list_del(&ei->i_list);
			address_space_release(&ei->vfs_inode.i_data);
			kfree(ei->i_name);
			kfree(ei);
		}
	}
	kfree(sbi);
}
