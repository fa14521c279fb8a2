/*
 * ext2 inodes: reading one from its group's inode table, the inode cache
 * (struct inode with its page cache lives until unmount, so a file's pages
 * survive between opens), and the block map: i_block[] holds 12 direct
 * block numbers, then a single, a double and a triple indirect block.
 *
 *	struct ext2_bmap_ctx ctx;
 *	ext2_bmap_init(&ctx);
 *	for (lblk = ...) ext2_bmap(inode, &ctx, lblk, &pblk);	// 0: a hole
 *	ext2_bmap_release(&ctx);
 */
#include <stdio.h>
#include <string.h>

#include "drivers/blkdev.h"
#include "fs/ext2.h"
#include "kernel/log.h"
#include "mm/mm.h"

int ext2_read_inode(struct ext2_sb_info *sbi, uint32_t ino, struct ext2_inode *raw)
{
	struct ext2_group_desc gd;
	struct ext2_buf bh;
	uint32_t group, index, blk, offset;
	int err;

	err = ext2_validate_ino(sbi, ino, 0);
	if (err)
		return err;
	group = (ino - 1) / sbi->s_inodes_per_group;
	index = (ino - 1) % sbi->s_inodes_per_group;
	err = ext2_get_group_desc(sbi, group, &gd);
	if (err)
		return err;
	/* With uninit_bg the unused tail of an inode table may hold garbage. */
	if (sbi->s_feature_ro_compat &
		    (EXT4_FEATURE_RO_COMPAT_GDT_CSUM | EXT4_FEATURE_RO_COMPAT_METADATA_CSUM) &&
	    (le16_to_cpu(gd.bg_flags) & EXT4_BG_INODE_UNINIT ||
	     index >= sbi->s_inodes_per_group - min_t(uint32_t, sbi->s_inodes_per_group,
						      le16_to_cpu(gd.bg_itable_unused)))) {
		ext2_error(sbi, "inode %u lies in the unused part of group %u's inode table", ino,
			   group);
		return -EFSCORRUPTED;
	}
	blk = le32_to_cpu(gd.bg_inode_table) +
	      (uint32_t)(((uint64_t)index * sbi->s_inode_size) >> sbi->sb.s_blocksize_bits);
	offset = (uint32_t)(((uint64_t)index * sbi->s_inode_size) & (sbi->sb.s_blocksize - 1));
	err = ext2_validate_block(sbi, blk, ino, "inode table");
	if (err)
		return err;
	err = ext2_bread(sbi, blk, &bh);
	if (err)
		return err;
	/* s_inode_size divides the block size, so the whole inode is in this block */
	err = ext2_validate_inode(sbi, ino, bh.data + offset);
	if (!err)
		memcpy(raw, bh.data + offset, sizeof(*raw));
	ext2_brelse(&bh);
	return err;
}

int ext2_read_inode_info(struct ext2_sb_info *sbi, uint32_t ino, struct ext2_inode_info *ei)
{
	struct inode *inode = &ei->vfs_inode;
	int err = ext2_read_inode(sbi, ino, &ei->raw);

	if (err)
		return err;
	inode->i_ino = ino;
	inode->i_mode = le16_to_cpu(ei->raw.i_mode);
	inode->i_size = ext2_isize(&ei->raw);
	inode->i_sb = &sbi->sb;
	inode->i_private = ei;
	return 0;
}

static struct inode *icache_find(struct ext2_sb_info *sbi, uint32_t ino)
{
	struct ext2_inode_info *ei;

	list_for_each_entry (ei, &sbi->s_inodes[ino % EXT2_ICACHE_BUCKETS], i_list) {
		if (ei->vfs_inode.i_ino == ino) {
			ei->vfs_inode.i_count++;
			return &ei->vfs_inode;
		}
	}
	return NULL;
}

struct inode *ext2_iget(struct ext2_sb_info *sbi, uint32_t ino, const char *name)
{
	struct block_device *bdev = sbi->sb.s_bdev;
	struct ext2_inode_info *ei;
	struct inode *inode, *other;
	int err;

	inode = icache_find(sbi, ino);
	if (inode)
		return inode;
	ei = kzalloc(sizeof(*ei), GFP_WORKLOAD); /* as Linux's inode cache: the zone's RAM */
	if (!ei)
		return ERR_PTR(-ENOMEM);
	err = ext2_read_inode_info(sbi, ino, ei);
	if (err)
		goto fail;
	ei->i_name = kstrdup_gfp(name ? name : "?", GFP_WORKLOAD);
	if (!ei->i_name) {
		err = -ENOMEM;
		goto fail;
	}
	inode = &ei->vfs_inode;
	inode->i_count = 1;
	err = address_space_init(&inode->i_data, ei->i_name, &ext2_aops, &bdev->bdi, inode->i_size);
	if (err) {
		kfree(ei->i_name);
		goto fail;
	}
	inode->i_data.host = inode;
	/* as Linux's tracepoints name it: the inode, and sdX as SCSI disk major 8, minor 16 * X */
	inode->i_data.trace_ino = ino;
	inode->i_data.trace_dev = (8u << 20) | (uint32_t)(bdev->index * 16);
	/* Reading the inode slept: another thread may have cached it meanwhile. */
	other = icache_find(sbi, ino);
	if (other) {
		address_space_release(&inode->i_data);
		kfree(ei->i_name);
		kfree(ei);
		return other;
	}
	list_add(&ei->i_list, &sbi->s_inodes[ino % EXT2_ICACHE_BUCKETS]);
	return inode;
fail:
	kfree(ei);
	return ERR_PTR(err);
}

void ext2_iput(struct inode *inode)
{
	if (inode->i_count <= 0) {
		pr_err("ext2: inode %u released more often than taken\n", inode->i_ino);
		return;
	}
	inode->i_count--;
}

void ext2_bmap_release(struct ext2_bmap_ctx *ctx)
{
	for (int i = 0; i < 3; i++)
		ext2_brelse(&ctx->ind[i]);
}

static const char *const level_names[5][3] = {
	[2] = {"indirect"},
	[3] = {"double indirect", "indirect (below double)"},
	[4] = {"triple indirect", "double indirect (below triple)", "indirect (below triple)"},
};

int ext2_bmap(struct inode *inode, struct ext2_bmap_ctx *ctx, uint64_t lblk, uint32_t *pblk)
{
	struct ext2_sb_info *sbi = EXT2_SB(inode->i_sb);
	struct ext2_inode_info *ei = EXT2_I(inode);
	uint32_t offsets[4], blk;
	int depth, level, err;

	*pblk = 0;
	if (lblk >= ext2_size_blocks(inode)) {
		ext2_error(sbi, "inode %u: block %llu asked for, but its size %lld ends before it",
			   inode->i_ino, (unsigned long long)lblk, (long long)inode->i_size);
		return -EINVAL;
	}
	depth = ext2_block_to_path(sbi, inode->i_ino, lblk, offsets);
	if (depth < 0)
		return depth;
	blk = le32_to_cpu(ei->raw.i_block[offsets[0]]);
	for (level = 1; level < depth; level++) {
		struct ext2_buf *bh = &ctx->ind[level - 1];

		if (!blk)
			return 0; /* a hole: the whole subtree is unallocated */
		if (!bh->page || bh->blk != blk) {
			ext2_brelse(bh);
			err = ext2_validate_block(sbi, blk, inode->i_ino,
						  level_names[depth][level - 1]);
			if (err)
				return err;
			err = ext2_bread(sbi, blk, bh);
			if (err)
				return err;
		}
		blk = le32_to_cpu(((const uint32_t *)bh->data)[offsets[level]]);
	}
	if (blk && (blk < sbi->s_first_data_block || blk >= sbi->s_blocks_count)) {
		char what[48];

		snprintf(what, sizeof(what), "data (logical block %llu)", (unsigned long long)lblk);
		return ext2_validate_block(sbi, blk, inode->i_ino, what);
	}
	*pblk = blk;
	return 0;
}
