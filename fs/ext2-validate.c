/*
 * One validation function per on-disk ext2 structure, called where the
 * structure is used (as lwext4 does): the superblock at mount, a group
 * descriptor whenever an inode is located through it, every block number
 * before it is read, every inode after it is read, every directory entry
 * before its fields are trusted. Each failure prints one line naming the
 * filesystem and the inode or block at fault and returns -EFSCORRUPTED
 * (or -EOPNOTSUPP for a valid feature this reader does not implement).
 *
 * These functions only look at the bytes they are given, so host unit
 * tests feed them hand-made structures (tests/common/test_ext2_validate.c).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fs/ext2.h"
#include "kernel/log.h"

void ext2_error(struct ext2_sb_info *sbi, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(sbi->s_last_error, sizeof(sbi->s_last_error), fmt, ap);
	va_end(ap);
	sbi->s_errors++;
	if (!sbi->s_quiet)
		pr_err("ext2 %s: %s\n", sbi->sb.s_id, sbi->s_last_error);
}

static __printf(2, 3) void ext2_warn(struct ext2_sb_info *sbi, const char *fmt, ...)
{
	char line[160];
	va_list ap;

	if (sbi->s_quiet)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	pr_warn("ext2 %s: %s\n", sbi->sb.s_id, line);
}

struct feature_name {
	uint32_t bit;
	const char *name;
};

/* Names as mke2fs -O and tune2fs spell them. */
static const struct feature_name incompat_names[] = {
	{EXT2_FEATURE_INCOMPAT_COMPRESSION, "compression"},
	{EXT2_FEATURE_INCOMPAT_FILETYPE, "filetype"},
	{EXT3_FEATURE_INCOMPAT_RECOVER, "needs_recovery (the journal needs recovery)"},
	{EXT3_FEATURE_INCOMPAT_JOURNAL_DEV, "journal_dev"},
	{EXT2_FEATURE_INCOMPAT_META_BG, "meta_bg"},
	{EXT4_FEATURE_INCOMPAT_EXTENTS, "extents"},
	{EXT4_FEATURE_INCOMPAT_64BIT, "64bit"},
	{EXT4_FEATURE_INCOMPAT_MMP, "mmp"},
	{EXT4_FEATURE_INCOMPAT_FLEX_BG, "flex_bg"},
	{EXT4_FEATURE_INCOMPAT_EA_INODE, "ea_inode"},
	{EXT4_FEATURE_INCOMPAT_DIRDATA, "dirdata"},
	{EXT4_FEATURE_INCOMPAT_CSUM_SEED, "metadata_csum_seed"},
	{EXT4_FEATURE_INCOMPAT_LARGEDIR, "large_dir"},
	{EXT4_FEATURE_INCOMPAT_INLINE_DATA, "inline_data"},
	{EXT4_FEATURE_INCOMPAT_ENCRYPT, "encrypt"},
	{EXT4_FEATURE_INCOMPAT_CASEFOLD, "casefold"},
};

/* "extents 64bit 0x40000000": known names, then the unknown bits in hex. */
static void feature_list(char *buf, size_t len, uint32_t bits)
{
	size_t n = 0;
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(incompat_names) && n < len; i++) {
		if (!(bits & incompat_names[i].bit))
			continue;
		n += snprintf(buf + n, len - n, "%s%s", n ? " " : "", incompat_names[i].name);
		bits &= ~incompat_names[i].bit;
	}
	if (bits && n < len)
		snprintf(buf + n, len - n, "%sunknown 0x%x", n ? " " : "", bits);
}

/* Every ro_compat bit defined up to e2fsprogs 1.47 (orphan_present). */
#define EXT2_RO_COMPAT_KNOWN 0x1ffffu

/* Magic, revision, block and fragment size: *@log_bs on success. */
static int validate_format(struct ext2_sb_info *sbi, const struct ext2_super_block *es,
			   uint32_t *log_bs)
{
	uint32_t magic = le16_to_cpu(es->s_magic);
	uint32_t rev = le32_to_cpu(es->s_rev_level);

	*log_bs = le32_to_cpu(es->s_log_block_size);
	if (magic != EXT2_SUPER_MAGIC) {
		ext2_error(sbi, "bad superblock magic 0x%04x (ext2 has 0x%04x)", magic,
			   EXT2_SUPER_MAGIC);
		return -EINVAL;
	}
	if (rev > EXT2_DYNAMIC_REV) {
		ext2_error(sbi, "superblock revision %u unsupported (0 and 1 are)", rev);
		return -EOPNOTSUPP;
	}
	if (*log_bs > EXT2_MAX_BLOCK_LOG_SIZE - EXT2_MIN_BLOCK_LOG_SIZE) {
		/* ext4 allows up to 64 KiB: valid, but larger than our pages */
		ext2_error(sbi, "s_log_block_size %u: block size %s unsupported (1, 2 or 4 KiB)",
			   *log_bs, *log_bs <= 6 ? "above 4 KiB" : "impossible");
		return *log_bs <= 6 ? -EOPNOTSUPP : -EFSCORRUPTED;
	}
	if (le32_to_cpu(es->s_log_frag_size) != *log_bs) {
		ext2_error(sbi,
			   "fragment size (log %u) differs from block size (log %u): unsupported",
			   le32_to_cpu(es->s_log_frag_size), *log_bs);
		return -EOPNOTSUPP;
	}
	return 0;
}

/* The inode size and first inode by revision (sbi->s_first_ino, *@isz); @bs the block size. */
static int validate_revision(struct ext2_sb_info *sbi, const struct ext2_super_block *es,
			     uint32_t bs, uint32_t *isz)
{
	if (le32_to_cpu(es->s_rev_level) == EXT2_GOOD_OLD_REV) {
		if (es->s_feature_compat || es->s_feature_incompat || es->s_feature_ro_compat) {
			ext2_error(sbi,
				   "revision 0 superblock with feature bits set "
				   "(compat 0x%x incompat 0x%x ro_compat 0x%x)",
				   le32_to_cpu(es->s_feature_compat),
				   le32_to_cpu(es->s_feature_incompat),
				   le32_to_cpu(es->s_feature_ro_compat));
			return -EFSCORRUPTED;
		}
		*isz = EXT2_GOOD_OLD_INODE_SIZE;
		sbi->s_first_ino = EXT2_GOOD_OLD_FIRST_INO;
		return 0;
	}
	*isz = le16_to_cpu(es->s_inode_size);
	sbi->s_first_ino = le32_to_cpu(es->s_first_ino);
	if (*isz < EXT2_GOOD_OLD_INODE_SIZE || !is_power_of_2(*isz) || *isz > bs) {
		ext2_error(sbi,
			   "inode size %u invalid (a power of 2 from 128 to the %u-byte "
			   "block size)",
			   *isz, bs);
		return -EFSCORRUPTED;
	}
	if (sbi->s_first_ino < EXT2_GOOD_OLD_FIRST_INO) {
		ext2_error(sbi, "first non-reserved inode %u below %u", sbi->s_first_ino,
			   EXT2_GOOD_OLD_FIRST_INO);
		return -EFSCORRUPTED;
	}
	return 0;
}

/* The feature bits: an unknown incompatible one, or bigalloc, refuses the mount. */
static int validate_features(struct ext2_sb_info *sbi, uint32_t incompat, uint32_t ro_compat)
{
	char names[128];

	if (incompat & ~EXT2_INCOMPAT_SUPPORTED) {
		feature_list(names, sizeof(names), incompat & ~EXT2_INCOMPAT_SUPPORTED);
		ext2_error(sbi, "unsupported incompatible feature%s: %s",
			   is_power_of_2(incompat & ~EXT2_INCOMPAT_SUPPORTED) ? "" : "s", names);
		return -EOPNOTSUPP;
	}
	if (ro_compat & EXT2_RO_COMPAT_UNREADABLE) {
		ext2_error(sbi, "unsupported feature: bigalloc (cluster allocation)");
		return -EOPNOTSUPP;
	}
	if (ro_compat & ~EXT2_RO_COMPAT_KNOWN)
		ext2_warn(sbi, "unknown read-only-compatible features 0x%x: reading anyway",
			  ro_compat & ~EXT2_RO_COMPAT_KNOWN);
	return 0;
}

/* The inode and free counts against the groups (@groups of @ipg inodes, @blocks blocks). */
static int validate_counts(struct ext2_sb_info *sbi, const struct ext2_super_block *es,
			   uint32_t blocks, uint32_t groups, uint32_t ipg)
{
	if ((uint64_t)groups * ipg != le32_to_cpu(es->s_inodes_count)) {
		ext2_error(sbi, "inode count %u is not %u groups x %u inodes per group",
			   le32_to_cpu(es->s_inodes_count), groups, ipg);
		return -EFSCORRUPTED;
	}
	if (sbi->s_first_ino >= le32_to_cpu(es->s_inodes_count)) {
		ext2_error(sbi, "first non-reserved inode %u beyond the inode count %u",
			   sbi->s_first_ino, le32_to_cpu(es->s_inodes_count));
		return -EFSCORRUPTED;
	}
	if (le32_to_cpu(es->s_r_blocks_count) > blocks ||
	    le32_to_cpu(es->s_free_blocks_count) > blocks ||
	    le32_to_cpu(es->s_free_inodes_count) > le32_to_cpu(es->s_inodes_count)) {
		ext2_error(sbi,
			   "free/reserved counts exceed the totals (free blocks %u, reserved "
			   "%u of %u; free inodes %u of %u)",
			   le32_to_cpu(es->s_free_blocks_count), le32_to_cpu(es->s_r_blocks_count),
			   blocks, le32_to_cpu(es->s_free_inodes_count),
			   le32_to_cpu(es->s_inodes_count));
		return -EFSCORRUPTED;
	}
	return 0;
}

/* The layout: first data block, block count, blocks and inodes per group, then the counts. */
static int validate_geometry(struct ext2_sb_info *sbi, const struct ext2_super_block *es,
			     uint32_t bs, uint64_t dev_bytes)
{
	uint32_t fdb = le32_to_cpu(es->s_first_data_block);
	uint32_t blocks = le32_to_cpu(es->s_blocks_count);
	uint32_t bpg = le32_to_cpu(es->s_blocks_per_group);
	uint32_t ipg = le32_to_cpu(es->s_inodes_per_group);

	if (fdb != (bs == 1024 ? 1u : 0u)) {
		ext2_error(sbi, "first data block %u impossible with %u-byte blocks (must be %u)",
			   fdb, bs, bs == 1024 ? 1 : 0);
		return -EFSCORRUPTED;
	}
	if (blocks <= fdb + 1) {
		ext2_error(sbi, "block count %u too small", blocks);
		return -EFSCORRUPTED;
	}
	if ((uint64_t)blocks * bs > dev_bytes) {
		ext2_error(sbi,
			   "filesystem of %u blocks (%llu bytes) is larger than its device "
			   "(%llu bytes)",
			   blocks, (unsigned long long)blocks * bs, (unsigned long long)dev_bytes);
		return -EFSCORRUPTED;
	}
	if (bpg == 0 || bpg > 8 * bs || le32_to_cpu(es->s_frags_per_group) != bpg) {
		ext2_error(sbi,
			   "blocks per group %u invalid (1 to %u, equal to fragments per "
			   "group %u)",
			   bpg, 8 * bs, le32_to_cpu(es->s_frags_per_group));
		return -EFSCORRUPTED;
	}
	if (ipg == 0 || ipg > 8 * bs) {
		ext2_error(sbi, "inodes per group %u invalid (1 to %u)", ipg, 8 * bs);
		return -EFSCORRUPTED;
	}
	return validate_counts(sbi, es, blocks, (blocks - fdb + bpg - 1) / bpg, ipg);
}

int ext2_validate_super(struct ext2_sb_info *sbi, const struct ext2_super_block *es,
			uint64_t dev_bytes)
{
	uint32_t log_bs, bs, fdb, blocks, bpg, ipg, isz, groups, incompat, ro_compat;
	uint64_t apb, max_blocks;
	int err;

	err = validate_format(sbi, es, &log_bs);
	if (err)
		return err;
	bs = 1024u << log_bs;
	err = validate_revision(sbi, es, bs, &isz);
	if (err)
		return err;
	incompat = le32_to_cpu(es->s_feature_incompat);
	ro_compat = le32_to_cpu(es->s_feature_ro_compat);
	err = validate_features(sbi, incompat, ro_compat);
	if (!err)
		err = validate_geometry(sbi, es, bs, dev_bytes);
	if (err)
		return err;
	fdb = le32_to_cpu(es->s_first_data_block);
	blocks = le32_to_cpu(es->s_blocks_count);
	bpg = le32_to_cpu(es->s_blocks_per_group);
	ipg = le32_to_cpu(es->s_inodes_per_group);
	groups = (blocks - fdb + bpg - 1) / bpg;

	sbi->sb.s_blocksize = bs;
	sbi->sb.s_blocksize_bits = EXT2_MIN_BLOCK_LOG_SIZE + log_bs;
	sbi->s_blocks_count = blocks;
	sbi->s_first_data_block = fdb;
	sbi->s_inodes_count = le32_to_cpu(es->s_inodes_count);
	sbi->s_blocks_per_group = bpg;
	sbi->s_inodes_per_group = ipg;
	sbi->s_groups_count = groups;
	sbi->s_inode_size = isz;
	sbi->s_desc_per_block = bs / sizeof(struct ext2_group_desc);
	sbi->s_gdb_count = DIV_ROUND_UP(groups, sbi->s_desc_per_block);
	sbi->s_itb_per_group = (uint32_t)DIV_ROUND_UP((uint64_t)ipg * isz, bs);
	sbi->s_addr_per_block = bs / sizeof(uint32_t);
	sbi->s_addr_per_block_bits = ilog2(sbi->s_addr_per_block);
	sbi->s_feature_compat = le32_to_cpu(es->s_feature_compat);
	sbi->s_feature_incompat = incompat;
	sbi->s_feature_ro_compat = ro_compat;
	sbi->s_has_filetype = incompat & EXT2_FEATURE_INCOMPAT_FILETYPE;
	sbi->s_flex_bg = incompat & EXT4_FEATURE_INCOMPAT_FLEX_BG;

	/* The primary descriptor table follows the superblock inside group 0. */
	if (1 + sbi->s_gdb_count > bpg || fdb + 1 + sbi->s_gdb_count > blocks) {
		ext2_error(sbi,
			   "group descriptor table (%u blocks for %u groups) does not fit in "
			   "group 0 (%u blocks)",
			   sbi->s_gdb_count, groups, bpg);
		return -EFSCORRUPTED;
	}
	if (!sbi->s_flex_bg && sbi->s_itb_per_group + 2 > bpg) {
		ext2_error(sbi,
			   "inode table (%u blocks) and bitmaps do not fit in a group of %u "
			   "blocks",
			   sbi->s_itb_per_group, bpg);
		return -EFSCORRUPTED;
	}

	apb = sbi->s_addr_per_block;
	max_blocks = EXT2_NDIR_BLOCKS + apb + apb * apb + apb * apb * apb;
	sbi->s_max_bytes = max_blocks << sbi->sb.s_blocksize_bits;

	if (le16_to_cpu(es->s_state) & EXT2_ERROR_FS)
		ext2_warn(sbi, "filesystem marked with errors (run e2fsck); reading anyway");
	else if (!(le16_to_cpu(es->s_state) & EXT2_VALID_FS))
		ext2_warn(sbi, "filesystem not cleanly unmounted; reading anyway");
	return 0;
}

/* Is [blk, blk + count) inside group @group (or anywhere, with flex_bg)? */
static bool group_holds(struct ext2_sb_info *sbi, uint32_t group, uint32_t blk, uint32_t count)
{
	uint64_t first = sbi->s_first_data_block, last = sbi->s_blocks_count;
	uint64_t end = (uint64_t)blk + count;

	if (!sbi->s_flex_bg) {
		first += (uint64_t)group * sbi->s_blocks_per_group;
		last = min(last, first + sbi->s_blocks_per_group);
	}
	/* Nothing may overlap the primary superblock and descriptor table. */
	if (blk <= sbi->s_first_data_block + sbi->s_gdb_count)
		return false;
	return blk >= first && end <= last;
}

int ext2_validate_group_desc(struct ext2_sb_info *sbi, uint32_t group,
			     const struct ext2_group_desc *gd)
{
	uint32_t bb = le32_to_cpu(gd->bg_block_bitmap);
	uint32_t ib = le32_to_cpu(gd->bg_inode_bitmap);
	uint32_t it = le32_to_cpu(gd->bg_inode_table);
	const char *where = sbi->s_flex_bg ? "the filesystem" : "its group";

	if (group >= sbi->s_groups_count) {
		ext2_error(sbi, "group %u out of range (%u groups)", group, sbi->s_groups_count);
		return -EFSCORRUPTED;
	}
	if (!group_holds(sbi, group, bb, 1)) {
		ext2_error(sbi, "group %u: block bitmap at block %u outside %s", group, bb, where);
		return -EFSCORRUPTED;
	}
	if (!group_holds(sbi, group, ib, 1)) {
		ext2_error(sbi, "group %u: inode bitmap at block %u outside %s", group, ib, where);
		return -EFSCORRUPTED;
	}
	if (!group_holds(sbi, group, it, sbi->s_itb_per_group)) {
		ext2_error(sbi, "group %u: inode table at blocks %u-%llu outside %s", group, it,
			   (unsigned long long)it + sbi->s_itb_per_group - 1, where);
		return -EFSCORRUPTED;
	}
	if (le16_to_cpu(gd->bg_free_blocks_count) > sbi->s_blocks_per_group ||
	    le16_to_cpu(gd->bg_free_inodes_count) > sbi->s_inodes_per_group ||
	    le16_to_cpu(gd->bg_used_dirs_count) > sbi->s_inodes_per_group) {
		ext2_error(sbi,
			   "group %u: counts exceed the group (free blocks %u, free inodes %u, "
			   "directories %u)",
			   group, le16_to_cpu(gd->bg_free_blocks_count),
			   le16_to_cpu(gd->bg_free_inodes_count),
			   le16_to_cpu(gd->bg_used_dirs_count));
		return -EFSCORRUPTED;
	}
	return 0;
}

int ext2_validate_block(struct ext2_sb_info *sbi, uint32_t blk, uint32_t ino, const char *what)
{
	if (blk >= sbi->s_first_data_block && blk < sbi->s_blocks_count)
		return 0;
	if (ino)
		ext2_error(sbi, "inode %u: %s block %u outside the filesystem (blocks %u-%u)", ino,
			   what, blk, sbi->s_first_data_block, sbi->s_blocks_count - 1);
	else
		ext2_error(sbi, "%s block %u outside the filesystem (blocks %u-%u)", what, blk,
			   sbi->s_first_data_block, sbi->s_blocks_count - 1);
	return -EFSCORRUPTED;
}

int ext2_validate_ino(struct ext2_sb_info *sbi, uint32_t ino, uint32_t dir)
{
	if (ino == 0 || ino > sbi->s_inodes_count) {
		if (dir)
			ext2_error(sbi, "directory inode %u: entry for inode %u outside 1-%u", dir,
				   ino, sbi->s_inodes_count);
		else
			ext2_error(sbi, "inode %u outside 1-%u", ino, sbi->s_inodes_count);
		return -EFSCORRUPTED;
	}
	/* Directories only name the root and non-reserved inodes. */
	if (dir && ino < sbi->s_first_ino && ino != EXT2_ROOT_INO) {
		ext2_error(sbi, "directory inode %u: entry for reserved inode %u", dir, ino);
		return -EFSCORRUPTED;
	}
	return 0;
}

bool ext2_is_fast_symlink(struct ext2_sb_info *sbi, const struct ext2_inode *raw)
{
	uint32_t ea_blocks = raw->i_file_acl ? sbi->sb.s_blocksize >> SECTOR_SHIFT : 0;

	return EXT2_ISLNK(le16_to_cpu(raw->i_mode)) && le32_to_cpu(raw->i_blocks) == ea_blocks;
}

int ext2_validate_inode(struct ext2_sb_info *sbi, uint32_t ino, const void *raw_bytes)
{
	const struct ext2_inode *raw = raw_bytes;
	uint16_t mode = le16_to_cpu(raw->i_mode);
	uint32_t flags = le32_to_cpu(raw->i_flags);
	uint32_t bs = sbi->sb.s_blocksize;
	loff_t size = ext2_isize(raw);
	int err;

	if (mode == 0 || (le16_to_cpu(raw->i_links_count) == 0 && raw->i_dtime)) {
		ext2_error(sbi, "inode %u is not in use (mode 0%o, links %u, dtime %u)", ino, mode,
			   le16_to_cpu(raw->i_links_count), le32_to_cpu(raw->i_dtime));
		return -EFSCORRUPTED;
	}
	switch (mode & S_IFMT_EXT2) {
	case EXT2_S_IFREG:
	case EXT2_S_IFDIR:
	case EXT2_S_IFLNK:
	case EXT2_S_IFCHR:
	case EXT2_S_IFBLK:
	case EXT2_S_IFIFO:
	case EXT2_S_IFSOCK:
		break;
	default:
		ext2_error(sbi, "inode %u: unknown file type in mode 0%o", ino, mode);
		return -EFSCORRUPTED;
	}
	if (flags & (EXT4_EXTENTS_FL | EXT4_INLINE_DATA_FL | EXT4_ENCRYPT_FL | EXT2_COMPRBLK_FL)) {
		ext2_error(sbi, "inode %u: data stored as %s: unsupported", ino,
			   flags & EXT4_EXTENTS_FL	 ? "extents"
			   : flags & EXT4_INLINE_DATA_FL ? "inline data"
			   : flags & EXT4_ENCRYPT_FL	 ? "encrypted blocks"
							 : "compressed clusters");
		return -EOPNOTSUPP;
	}
	if (sbi->s_inode_size > EXT2_GOOD_OLD_INODE_SIZE) {
		const struct ext2_inode_large_tail *tail =
			(const void *)((const uint8_t *)raw_bytes + EXT2_GOOD_OLD_INODE_SIZE);
		uint32_t extra = le16_to_cpu(tail->i_extra_isize);

		if (extra % 4 || EXT2_GOOD_OLD_INODE_SIZE + extra > sbi->s_inode_size) {
			ext2_error(sbi, "inode %u: i_extra_isize %u does not fit a %u-byte inode",
				   ino, extra, sbi->s_inode_size);
			return -EFSCORRUPTED;
		}
	}
	if (raw->i_file_acl) {
		err = ext2_validate_block(sbi, le32_to_cpu(raw->i_file_acl), ino,
					  "extended attribute");
		if (err)
			return err;
	}
	if (size < 0 || (uint64_t)size > sbi->s_max_bytes) {
		ext2_error(sbi, "inode %u: size %llu beyond what the block map addresses (%llu)",
			   ino, (unsigned long long)size, (unsigned long long)sbi->s_max_bytes);
		return -EFSCORRUPTED;
	}
	if (EXT2_ISDIR(mode) && (size == 0 || size % bs)) {
		ext2_error(sbi,
			   "directory inode %u: size %llu is not a positive multiple of the "
			   "block size %u",
			   ino, (unsigned long long)size, bs);
		return -EFSCORRUPTED;
	}
	if (EXT2_ISLNK(mode)) {
		bool fast = ext2_is_fast_symlink(sbi, raw);
		uint32_t limit = fast ? EXT2_FAST_SYMLINK_MAX : min_t(uint32_t, bs, VFS_PATH_MAX);

		if (size == 0 || size >= limit) {
			ext2_error(sbi, "%s symlink inode %u: target length %llu outside 1-%u",
				   fast ? "fast" : "slow", ino, (unsigned long long)size,
				   limit - 1);
			return -EFSCORRUPTED;
		}
	}
	return 0;
}

int ext2_validate_dirent(struct ext2_sb_info *sbi, uint32_t dir, uint32_t lblk,
			 const struct ext2_buf *bh, uint32_t offset, struct ext2_dirent *de)
{
	uint32_t bs = sbi->sb.s_blocksize;
	const struct ext2_dir_entry_2 *d;
	uint32_t i;
	int err;

#define DIRENT_ERR(fmt, ...)                                                                       \
	do {                                                                                       \
		ext2_error(sbi, "directory inode %u, block %u (logical %u), offset %u: " fmt, dir, \
			   bh->blk, lblk, offset, ##__VA_ARGS__);                                  \
		return -EFSCORRUPTED;                                                              \
	} while (0)

	if (offset % 4 || offset + EXT2_DIR_ENTRY_HEADER > bs)
		DIRENT_ERR("entry header does not fit in the %u-byte block", bs);
	d = (const struct ext2_dir_entry_2 *)(bh->data + offset);
	de->inode = le32_to_cpu(d->inode);
	de->rec_len = le16_to_cpu(d->rec_len);
	if (sbi->s_has_filetype) {
		de->name_len = d->name_len;
		de->file_type = d->file_type;
	} else {
		/* revision 0 entries: a 16-bit name_len and no type */
		de->name_len = d->name_len | (uint16_t)d->file_type << 8;
		de->file_type = EXT2_FT_UNKNOWN;
	}
	de->name = d->name;

	if (de->rec_len < EXT2_DIR_ENTRY_HEADER)
		DIRENT_ERR("rec_len %u below %u", de->rec_len, EXT2_DIR_ENTRY_HEADER);
	if (de->rec_len % 4)
		DIRENT_ERR("rec_len %u not a multiple of 4", de->rec_len);
	if (de->rec_len > bs - offset)
		DIRENT_ERR("rec_len %u runs past the end of the block", de->rec_len);
	if (de->name_len > de->rec_len - EXT2_DIR_ENTRY_HEADER)
		DIRENT_ERR("name_len %u exceeds rec_len %u - 8", de->name_len, de->rec_len);
	if (!de->inode)
		return 0;
	if (de->name_len == 0 || de->name_len > EXT2_NAME_LEN)
		DIRENT_ERR("used entry with name_len %u", de->name_len);
	if (de->file_type >= EXT2_FT_MAX)
		DIRENT_ERR("unknown file_type %u", de->file_type);
	for (i = 0; i < de->name_len; i++)
		if (de->name[i] == '/' || de->name[i] == '\0')
			DIRENT_ERR("name holds a %s byte", de->name[i] ? "'/'" : "NUL");
	err = ext2_validate_ino(sbi, de->inode, dir);
	if (err)
		return err;
	return 0;
#undef DIRENT_ERR
}

int ext2_block_to_path(struct ext2_sb_info *sbi, uint32_t ino, uint64_t lblk, uint32_t offsets[4])
{
	uint64_t apb = sbi->s_addr_per_block;
	unsigned int bits = sbi->s_addr_per_block_bits;
	uint64_t b = lblk;

	if (b < EXT2_NDIR_BLOCKS) {
		offsets[0] = (uint32_t)b;
		return 1;
	}
	b -= EXT2_NDIR_BLOCKS;
	if (b < apb) {
		offsets[0] = EXT2_IND_BLOCK;
		offsets[1] = (uint32_t)b;
		return 2;
	}
	b -= apb;
	if (b < apb * apb) {
		offsets[0] = EXT2_DIND_BLOCK;
		offsets[1] = (uint32_t)(b >> bits);
		offsets[2] = (uint32_t)(b & (apb - 1));
		return 3;
	}
	b -= apb * apb;
	if (b < apb * apb * apb) {
		offsets[0] = EXT2_TIND_BLOCK;
		offsets[1] = (uint32_t)(b >> (2 * bits));
		offsets[2] = (uint32_t)((b >> bits) & (apb - 1));
		offsets[3] = (uint32_t)(b & (apb - 1));
		return 4;
	}
	ext2_error(sbi, "inode %u: logical block %llu beyond triple indirect reach", ino,
		   (unsigned long long)lblk);
	return -EFBIG;
}

int ext2_validate_partition(struct ext2_sb_info *sbi, int nr, const struct mbr_partition *p,
			    uint64_t disk_sectors)
{
	uint64_t start = le32_to_cpu(p->start_sect), count = le32_to_cpu(p->nr_sects);

	if (p->sys_ind == 0 || count == 0) {
		ext2_error(sbi, "partition %d is empty", nr);
		return -ENOENT;
	}
	if (start == 0 || start + count > disk_sectors) {
		ext2_error(sbi,
			   "partition %d (sectors %llu-%llu) is outside the disk (%llu "
			   "sectors)",
			   nr, (unsigned long long)start, (unsigned long long)(start + count - 1),
			   (unsigned long long)disk_sectors);
		return -EFSCORRUPTED;
	}
	/* Each block of up to 4 KiB must sit inside one page of the disk's cache. */
	if (start % (PAGE_SIZE / SECTOR_SIZE)) {
		ext2_error(sbi,
			   "partition %d starts at sector %llu, not 4 KiB aligned: unsupported", nr,
			   (unsigned long long)start);
		return -EOPNOTSUPP;
	}
	return 0;
}
