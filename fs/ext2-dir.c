/*
 * ext2 directories, read linearly (an htree directory of dir_index is a
 * valid linear directory too: its index blocks look like empty entries).
 * Every block is read through the block device's page cache and every
 * entry validated before use.
 *
 * readdir reads with readahead on the block device's mapping, at the
 * directory's disk blocks (patch 009 of the seeds: directory blocks need
 * not be contiguous, so readahead runs on the device, not the directory).
 * Lookup reads the same blocks without readahead.
 */
#include <string.h>

#include "drivers/blkdev.h"
#include "fs/ext2.h"

/* Directory block @lblk of @dir into @bh; with @filp, read ahead for it first. */
static int dir_bread(struct inode *dir, struct file *filp, struct ext2_bmap_ctx *ctx, uint32_t lblk,
		     struct ext2_buf *bh)
{
	struct super_block *sb = dir->i_sb;
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	uint32_t pblk;
	int err;

	err = ext2_bmap(dir, ctx, lblk, &pblk);
	if (err)
		return err;
	if (!pblk) {
		ext2_error(sbi, "directory inode %u: hole at logical block %u", dir->i_ino, lblk);
		return -EFSCORRUPTED;
	}
	if (filp) {
		/* The page of bd_mapping holding disk block pblk (s_start is page-aligned). */
		pgoff_t index = (pgoff_t)(sb->s_start >> PAGE_SHIFT) +
				(pblk >> (PAGE_SHIFT - sb->s_blocksize_bits));

		ra_dir_readahead(filp, &sb->s_bdev->bd_mapping, index);
	}
	err = ext2_bread(sbi, pblk, bh);
	if (!err && filp)
		ra_page_used(&filp->f_ra, bh->page);
	return err;
}

int ext2_readdir(struct file *filp, filldir_t filldir, void *ctx)
{
	struct inode *dir = filp->f_inode;
	struct super_block *sb = dir->i_sb;
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	uint32_t bs = sb->s_blocksize;
	struct ext2_bmap_ctx bctx;
	struct ext2_dirent de;
	struct ext2_buf bh;
	int err = 0;

	if (!EXT2_ISDIR(dir->i_mode))
		return -ENOTDIR;
	ext2_bmap_init(&bctx);
	while (filp->f_pos < dir->i_size) {
		uint32_t lblk = (uint32_t)(filp->f_pos >> sb->s_blocksize_bits);
		uint32_t off = (uint32_t)(filp->f_pos & (bs - 1));

		err = dir_bread(dir, filp, &bctx, lblk, &bh);
		if (err)
			break;
		while (off < bs) {
			err = ext2_validate_dirent(sbi, dir->i_ino, lblk, &bh, off, &de);
			if (err)
				break;
			if (de.inode &&
			    filldir(ctx, de.name, de.name_len, de.inode, de.file_type)) {
				/* f_pos stays at this entry: the next call starts with it */
				ext2_brelse(&bh);
				goto out;
			}
			off += de.rec_len;
			filp->f_pos += de.rec_len;
		}
		ext2_brelse(&bh);
		if (err)
			break;
	}
out:
	ext2_bmap_release(&bctx);
	return err;
}

int ext2_lookup(struct inode *dir, const char *name, size_t len, uint32_t *ino)
{
	struct ext2_sb_info *sbi = EXT2_SB(dir->i_sb);
	uint32_t bs = dir->i_sb->s_blocksize;
	uint64_t nblocks = ext2_size_blocks(dir);
	struct ext2_bmap_ctx bctx;
	struct ext2_dirent de;
	struct ext2_buf bh;
	int err = -ENOENT;

	if (!EXT2_ISDIR(dir->i_mode))
		return -ENOTDIR;
	ext2_bmap_init(&bctx);
	for (uint32_t lblk = 0; lblk < nblocks && err == -ENOENT; lblk++) {
		int e = dir_bread(dir, NULL, &bctx, lblk, &bh);

		if (e) {
			err = e;
			break;
		}
		for (uint32_t off = 0; off < bs; off += de.rec_len) {
			e = ext2_validate_dirent(sbi, dir->i_ino, lblk, &bh, off, &de);
			if (e) {
				err = e;
				break;
			}
			if (de.inode && de.name_len == len && memcmp(de.name, name, len) == 0) {
				*ino = de.inode;
				err = 0;
				break;
			}
		}
		ext2_brelse(&bh);
	}
	ext2_bmap_release(&bctx);
	return err;
}
