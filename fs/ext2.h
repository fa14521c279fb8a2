/*
 * The read-only ext2 driver's internals, shared by fs/ext2-*.c:
 *
 *	ext2-validate.c	one validation function per on-disk structure
 *	ext2-super.c	finding and mounting a filesystem, group descriptors,
 *			metadata blocks through the block device's page cache
 *	ext2-inode.c	the inode cache, reading inodes, the block map (bmap)
 *	ext2-dir.c	directory entries: readdir and lookup
 *	ext2-namei.c	path lookup with symlinks
 *	ext2-readpages.c the file address_space: pages to bios
 *
 * Every value read from disk goes through a validator before use; a
 * validator that fails prints one line naming the filesystem and the inode
 * or block at fault (ext2_error) and returns -EFSCORRUPTED, or -EOPNOTSUPP
 * for a valid feature this reader does not implement.
 */
#ifndef FS_EXT2_H
#define FS_EXT2_H

#include "fs/ext2_fs.h"
#include "fs/vfs.h"

/* Linux's name for "the on-disk structure is corrupt"; newlib has no EUCLEAN. */
#ifdef EUCLEAN
#define EFSCORRUPTED EUCLEAN
#else
#define EFSCORRUPTED EBADMSG
#endif

#define EXT2_ICACHE_BUCKETS 1024 /* chains of the inode cache */

struct ext2_sb_info {
	struct super_block sb;	    /* sb.s_fs_info points back here */
	struct ext2_super_block es; /* the validated primary superblock */

	/* Geometry derived from the superblock by ext2_validate_super(). */
	uint32_t s_blocks_count;
	uint32_t s_first_data_block;
	uint32_t s_inodes_count;
	uint32_t s_blocks_per_group;
	uint32_t s_inodes_per_group;
	uint32_t s_groups_count;
	uint32_t s_desc_per_block;
	uint32_t s_gdb_count; /* blocks of the group descriptor table */
	uint32_t s_inode_size;
	uint32_t s_first_ino;
	uint32_t s_itb_per_group;  /* inode table blocks per group */
	uint32_t s_addr_per_block; /* block numbers per indirect block */
	unsigned int s_addr_per_block_bits;
	uint64_t s_max_bytes; /* largest file the block map can address */
	uint32_t s_feature_compat, s_feature_incompat, s_feature_ro_compat;
	bool s_has_filetype; /* dirents carry file_type */
	bool s_flex_bg;	     /* group metadata may live in other groups */

	bool s_quiet;		   /* fuzzing: do not print errors */
	char s_last_error[160];	   /* the last error line, for callers and tests */
	unsigned long s_errors;	   /* errors reported since mount */
	/* the inode cache: chains by inode number, so a tree of 100,000 files opens in time */
	struct list_head s_inodes[EXT2_ICACHE_BUCKETS];
};

static inline void ext2_icache_init(struct ext2_sb_info *sbi)
{
	for (int i = 0; i < EXT2_ICACHE_BUCKETS; i++)
		INIT_LIST_HEAD(&sbi->s_inodes[i]);
}

static inline struct ext2_sb_info *EXT2_SB(struct super_block *sb)
{
	return (struct ext2_sb_info *)sb->s_fs_info;
}

/* The in-memory inode: the VFS part and a validated copy of the disk inode. */

struct ext2_inode_info {
	struct inode vfs_inode;
	struct ext2_inode raw;	 /* the 128-byte base, validated */
	struct list_head i_list; /* ext2_sb_info.s_inodes */
	char *i_name;		 /* path it was first opened by (mapping name) */
};

static inline struct ext2_inode_info *EXT2_I(struct inode *inode)
{
	return container_of(inode, struct ext2_inode_info, vfs_inode);
}

/* Report corruption: one line, "ext2 sda: ...", remembered in s_last_error. */
__printf(2, 3) void ext2_error(struct ext2_sb_info *sbi, const char *fmt, ...);

/* --- validation (fs/ext2-validate.c) -------------------------------------- */

/*
 * Check a superblock read from a disk or partition of @dev_bytes bytes and
 * fill the geometry fields of @sbi. Refuses with the feature's name what
 * we cannot read, and inconsistent geometry with the numbers at fault.
 */
int ext2_validate_super(struct ext2_sb_info *sbi, const struct ext2_super_block *es,
			uint64_t dev_bytes);
/* @group must be below s_groups_count (the caller's index is checked too). */
int ext2_validate_group_desc(struct ext2_sb_info *sbi, uint32_t group,
			     const struct ext2_group_desc *gd);
/*
 * A block number found in @what of inode @ino (0: filesystem metadata):
 * it must lie in [s_first_data_block, s_blocks_count). Block 0 is not
 * valid here: callers treat 0 as a hole before asking.
 */
int ext2_validate_block(struct ext2_sb_info *sbi, uint32_t blk, uint32_t ino, const char *what);
/* An inode number found in directory @dir (0: not from a directory). */
int ext2_validate_ino(struct ext2_sb_info *sbi, uint32_t ino, uint32_t dir);
/* The inode @ino as read from its table: @raw holds s_inode_size bytes. */
int ext2_validate_inode(struct ext2_sb_info *sbi, uint32_t ino, const void *raw);

/* A directory entry, decoded after validation. */
struct ext2_dirent {
	uint32_t inode; /* 0: unused slot */
	uint16_t rec_len;
	uint16_t name_len;
	uint8_t file_type; /* EXT2_FT_*, EXT2_FT_UNKNOWN without filetype */
	const char *name;  /* inside the directory block */
};
struct ext2_buf;
/*
 * Decode the entry at @offset of directory block @bh (logical block @lblk
 * of directory @dir). Checks rec_len >= 8, 4-aligned, inside the block,
 * name_len <= rec_len - 8, and for a used entry its inode number, file
 * type and name.
 */
int ext2_validate_dirent(struct ext2_sb_info *sbi, uint32_t dir, uint32_t lblk,
			 const struct ext2_buf *bh, uint32_t offset, struct ext2_dirent *de);

/*
 * Where logical block @lblk of inode @ino sits in the block map: @offsets
 * receives the index at each level (i_block[], then each indirect block),
 * the return value is the depth (1 direct ... 4 triple indirect), or
 * -EFBIG past triple indirect.
 */
int ext2_block_to_path(struct ext2_sb_info *sbi, uint32_t ino, uint64_t lblk, uint32_t offsets[4]);

/* One MBR partition entry of a disk with @disk_sectors sectors (1-based @nr). */
int ext2_validate_partition(struct ext2_sb_info *sbi, int nr, const struct mbr_partition *p,
			    uint64_t disk_sectors);

/* --- metadata blocks (fs/ext2-super.c) ------------------------------------ */

/* A metadata block held in the block device's page cache. */
struct ext2_buf {
	struct page *page; /* holds a reference while in use */
	const uint8_t *data;
	uint32_t blk;
};

/* Read block @blk (validated first) through bd_mapping; release with ext2_brelse. */
int ext2_bread(struct ext2_sb_info *sbi, uint32_t blk, struct ext2_buf *bh);
void ext2_brelse(struct ext2_buf *bh);

/* Copy descriptor @group (index and contents validated) into @gd. */
int ext2_get_group_desc(struct ext2_sb_info *sbi, uint32_t group, struct ext2_group_desc *gd);

/*
 * Mount the ext2 filesystem of @bdev: the whole disk when @part is 0 (or,
 * if the disk has no ext2 superblock but an MBR, its first Linux partition
 * holding one), else MBR partition @part (1-4). @quiet suppresses error
 * lines (the fuzzer). Returns the super_block or ERR_PTR(-errno); the
 * reason was printed.
 */
struct super_block *ext2_mount(struct block_device *bdev, int part, bool quiet);
/* The reason the last failed ext2_mount() gave ("" if it gave none). */
const char *ext2_mount_error(void);
/* Drop every cached inode and free the superblock (pages must be unused). */
void ext2_umount(struct super_block *sb);
/* True if @bdev holds an ext2 superblock on the disk or a partition (a probe). */
bool ext2_probe(struct block_device *bdev);

/* --- inodes (fs/ext2-inode.c) --------------------------------------------- */

/* Read and validate inode @ino into @raw (the base 128 bytes). */
int ext2_read_inode(struct ext2_sb_info *sbi, uint32_t ino, struct ext2_inode *raw);
/*
 * Inode @ino as an uncached struct inode inside @ei (no page cache, no
 * reference): enough for bmap, lookup and readdir, e.g. during path walks.
 */
int ext2_read_inode_info(struct ext2_sb_info *sbi, uint32_t ino, struct ext2_inode_info *ei);
/* The cached inode @ino with a reference (i_count), or ERR_PTR. */
struct inode *ext2_iget(struct ext2_sb_info *sbi, uint32_t ino, const char *name);
void ext2_iput(struct inode *inode);
static inline loff_t ext2_isize(const struct ext2_inode *raw)
{
	uint64_t size = le32_to_cpu(raw->i_size);

	/* i_size_high is i_dir_acl for directories before large_dir. */
	if (EXT2_ISREG(le16_to_cpu(raw->i_mode)))
		size |= (uint64_t)le32_to_cpu(raw->i_size_high) << 32;
	return (loff_t)size; /* above 2^63: negative, refused by the validator */
}

/*
 * Keeps the indirect blocks of the last lookup referenced so a run of
 * consecutive bmap calls reads each indirect block once.
 */
struct ext2_bmap_ctx {
	struct ext2_buf ind[3]; /* levels 1-3 below i_block[] */
};
static inline void ext2_bmap_init(struct ext2_bmap_ctx *ctx)
{
	*ctx = (struct ext2_bmap_ctx){0};
}
void ext2_bmap_release(struct ext2_bmap_ctx *ctx);
/*
 * Disk block of logical block @lblk of @inode into *@pblk (0 for a hole).
 * Every block number on the way is validated; returns 0 or -errno.
 */
int ext2_bmap(struct inode *inode, struct ext2_bmap_ctx *ctx, uint64_t lblk, uint32_t *pblk);
/* Blocks a file of its size spans (the rest of the map must not be read). */
static inline uint64_t ext2_size_blocks(struct inode *inode)
{
	struct super_block *sb = inode->i_sb;

	return ((uint64_t)inode->i_size + sb->s_blocksize - 1) >> sb->s_blocksize_bits;
}
bool ext2_is_fast_symlink(struct ext2_sb_info *sbi, const struct ext2_inode *raw);

/* --- directories (fs/ext2-dir.c) ------------------------------------------ */

/* Readdir from filp->f_pos, calling @filldir; as vfs_readdir(). */
int ext2_readdir(struct file *filp, filldir_t filldir, void *ctx);
/* Find @name in directory @dir; returns its validated inode number or -ENOENT. */
int ext2_lookup(struct inode *dir, const char *name, size_t len, uint32_t *ino);

/* --- paths (fs/ext2-namei.c) ----------------------------------------------- */

/* Resolve @path to an inode number; @follow: follow a final symlink. */
int ext2_namei(struct ext2_sb_info *sbi, const char *path, bool follow, uint32_t *ino);
/* The target of symlink inode @raw into @buf (NUL-terminated); returns its length. */
int ext2_read_link(struct ext2_sb_info *sbi, uint32_t ino, const struct ext2_inode *raw, char *buf,
		   size_t len);

/* --- file pages (fs/ext2-readpages.c) -------------------------------------- */

extern const struct address_space_operations ext2_aops;

#endif
