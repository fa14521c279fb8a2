/*
 * The ext2 on-disk format (revision 0 and 1, the fields ext3/ext4 added
 * where a reader must at least recognise them). Everything on disk is
 * little endian; so is every machine lookahead runs on, so the structs are
 * read in place and le*_to_cpu() only marks where a value comes from disk.
 *
 * Nothing read through these structs is trusted: fs/ext2-validate.c checks
 * each structure before the rest of fs/ uses it.
 */
#ifndef FS_EXT2_FS_H
#define FS_EXT2_FS_H

#include "kernel/types.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "fs/ext2 reads on-disk little-endian structs in place"
#endif

#define le16_to_cpu(x) ((uint16_t)(x))
#define le32_to_cpu(x) ((uint32_t)(x))

#define EXT2_SUPER_MAGIC       0xEF53
#define EXT2_SUPERBLOCK_OFFSET 1024 /* bytes from the start of the filesystem */
#define EXT2_SUPERBLOCK_SIZE   1024

#define EXT2_MIN_BLOCK_LOG_SIZE 10 /* s_log_block_size 0: 1 KiB */
#define EXT2_MAX_BLOCK_LOG_SIZE 12 /* what we read: up to the page size */

/* s_rev_level */
#define EXT2_GOOD_OLD_REV 0 /* fixed 128-byte inodes, first_ino 11 */
#define EXT2_DYNAMIC_REV  1 /* s_first_ino, s_inode_size, feature sets */

#define EXT2_GOOD_OLD_INODE_SIZE 128
#define EXT2_GOOD_OLD_FIRST_INO	 11

/* Reserved inode numbers. */
#define EXT2_BAD_INO	 1 /* bad blocks */
#define EXT2_ROOT_INO	 2
#define EXT2_JOURNAL_INO 8 /* ext3 */

/* s_state */
#define EXT2_VALID_FS 0x0001 /* unmounted cleanly */
#define EXT2_ERROR_FS 0x0002 /* errors detected */

/* s_feature_compat: readers may ignore any of these. */
#define EXT2_FEATURE_COMPAT_DIR_PREALLOC  0x0001
#define EXT2_FEATURE_COMPAT_IMAGIC_INODES 0x0002
#define EXT3_FEATURE_COMPAT_HAS_JOURNAL	  0x0004
#define EXT2_FEATURE_COMPAT_EXT_ATTR	  0x0008
#define EXT2_FEATURE_COMPAT_RESIZE_INODE  0x0010
#define EXT2_FEATURE_COMPAT_DIR_INDEX	  0x0020 /* htree: still valid linear dirs */

/* s_feature_ro_compat: readers may mount read-only with any of these. */
#define EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER  0x0001
#define EXT2_FEATURE_RO_COMPAT_LARGE_FILE    0x0002
#define EXT2_FEATURE_RO_COMPAT_BTREE_DIR     0x0004
#define EXT4_FEATURE_RO_COMPAT_HUGE_FILE     0x0008
#define EXT4_FEATURE_RO_COMPAT_GDT_CSUM	     0x0010
#define EXT4_FEATURE_RO_COMPAT_DIR_NLINK     0x0020
#define EXT4_FEATURE_RO_COMPAT_EXTRA_ISIZE   0x0040
#define EXT4_FEATURE_RO_COMPAT_QUOTA	     0x0100
#define EXT4_FEATURE_RO_COMPAT_BIGALLOC	     0x0200 /* clusters: changes block mapping */
#define EXT4_FEATURE_RO_COMPAT_METADATA_CSUM 0x0400

/* s_feature_incompat: a reader must understand every bit set here. */
#define EXT2_FEATURE_INCOMPAT_COMPRESSION 0x0001
#define EXT2_FEATURE_INCOMPAT_FILETYPE	  0x0002 /* dirent file_type byte */
#define EXT3_FEATURE_INCOMPAT_RECOVER	  0x0004 /* journal needs recovery */
#define EXT3_FEATURE_INCOMPAT_JOURNAL_DEV 0x0008
#define EXT2_FEATURE_INCOMPAT_META_BG	  0x0010
#define EXT4_FEATURE_INCOMPAT_EXTENTS	  0x0040
#define EXT4_FEATURE_INCOMPAT_64BIT	  0x0080
#define EXT4_FEATURE_INCOMPAT_MMP	  0x0100
#define EXT4_FEATURE_INCOMPAT_FLEX_BG	  0x0200 /* metadata anywhere, not per group */
#define EXT4_FEATURE_INCOMPAT_EA_INODE	  0x0400
#define EXT4_FEATURE_INCOMPAT_DIRDATA	  0x1000
#define EXT4_FEATURE_INCOMPAT_CSUM_SEED	  0x2000
#define EXT4_FEATURE_INCOMPAT_LARGEDIR	  0x4000
#define EXT4_FEATURE_INCOMPAT_INLINE_DATA 0x8000
#define EXT4_FEATURE_INCOMPAT_ENCRYPT	  0x10000
#define EXT4_FEATURE_INCOMPAT_CASEFOLD	  0x20000

/* The incompatible features this reader handles. */
#define EXT2_INCOMPAT_SUPPORTED	  (EXT2_FEATURE_INCOMPAT_FILETYPE | EXT4_FEATURE_INCOMPAT_FLEX_BG)
/* Read-only features that change how blocks are addressed: we cannot read those. */
#define EXT2_RO_COMPAT_UNREADABLE EXT4_FEATURE_RO_COMPAT_BIGALLOC

struct ext2_super_block {
	uint32_t s_inodes_count;
	uint32_t s_blocks_count;
	uint32_t s_r_blocks_count; /* reserved for the superuser */
	uint32_t s_free_blocks_count;
	uint32_t s_free_inodes_count;
	uint32_t s_first_data_block; /* block holding the superblock: 1 at 1 KiB, else 0 */
	uint32_t s_log_block_size;   /* block size = 1024 << this */
	uint32_t s_log_frag_size;    /* must equal s_log_block_size */
	uint32_t s_blocks_per_group;
	uint32_t s_frags_per_group;
	uint32_t s_inodes_per_group;
	uint32_t s_mtime;
	uint32_t s_wtime;
	uint16_t s_mnt_count;
	uint16_t s_max_mnt_count;
	uint16_t s_magic;
	uint16_t s_state;
	uint16_t s_errors;
	uint16_t s_minor_rev_level;
	uint32_t s_lastcheck;
	uint32_t s_checkinterval;
	uint32_t s_creator_os;
	uint32_t s_rev_level;
	uint16_t s_def_resuid;
	uint16_t s_def_resgid;
	/* EXT2_DYNAMIC_REV only */
	uint32_t s_first_ino; /* first non-reserved inode */
	uint16_t s_inode_size;
	uint16_t s_block_group_nr; /* group holding this copy */
	uint32_t s_feature_compat;
	uint32_t s_feature_incompat;
	uint32_t s_feature_ro_compat;
	uint8_t s_uuid[16];
	char s_volume_name[16];
	char s_last_mounted[64];
	uint32_t s_algorithm_usage_bitmap;
	uint8_t s_prealloc_blocks;
	uint8_t s_prealloc_dir_blocks;
	uint16_t s_reserved_gdt_blocks; /* resize_inode: GDT growth room */
	/* ext3 journal */
	uint8_t s_journal_uuid[16];
	uint32_t s_journal_inum;
	uint32_t s_journal_dev;
	uint32_t s_last_orphan;
	uint32_t s_hash_seed[4]; /* dir_index */
	uint8_t s_def_hash_version;
	uint8_t s_jnl_backup_type;
	uint16_t s_desc_size; /* 64bit only */
	uint32_t s_default_mount_opts;
	uint32_t s_first_meta_bg;
	uint32_t s_mkfs_time;
	uint32_t s_jnl_blocks[17];
	/* ext4 64bit: ignored, the feature is refused */
	uint32_t s_blocks_count_hi;
	uint32_t s_r_blocks_count_hi;
	uint32_t s_free_blocks_count_hi;
	uint16_t s_min_extra_isize;
	uint16_t s_want_extra_isize;
	uint32_t s_flags;
	uint8_t s_reserved[1024 - 0x164];
};
_Static_assert(sizeof(struct ext2_super_block) == EXT2_SUPERBLOCK_SIZE, "ext2 superblock");
_Static_assert(offsetof(struct ext2_super_block, s_magic) == 0x38, "s_magic");
_Static_assert(offsetof(struct ext2_super_block, s_first_ino) == 0x54, "s_first_ino");
_Static_assert(offsetof(struct ext2_super_block, s_feature_incompat) == 0x60, "incompat");
_Static_assert(offsetof(struct ext2_super_block, s_reserved_gdt_blocks) == 0xCE, "gdt");
_Static_assert(offsetof(struct ext2_super_block, s_desc_size) == 0xFE, "s_desc_size");
_Static_assert(offsetof(struct ext2_super_block, s_blocks_count_hi) == 0x150, "hi");

/* Block group descriptor (32 bytes without 64bit). */
struct ext2_group_desc {
	uint32_t bg_block_bitmap;
	uint32_t bg_inode_bitmap;
	uint32_t bg_inode_table; /* first block of the group's inode table */
	uint16_t bg_free_blocks_count;
	uint16_t bg_free_inodes_count;
	uint16_t bg_used_dirs_count;
	uint16_t bg_flags; /* ext4 uninit_bg: EXT4_BG_* */
	uint32_t bg_exclude_bitmap;
	uint16_t bg_block_bitmap_csum;
	uint16_t bg_inode_bitmap_csum;
	uint16_t bg_itable_unused;
	uint16_t bg_checksum;
};
_Static_assert(sizeof(struct ext2_group_desc) == 32, "ext2 group descriptor");

#define EXT4_BG_INODE_UNINIT 0x0001 /* inode table and bitmap not initialised */

/* i_block[]: 12 direct blocks, then single, double and triple indirect. */
#define EXT2_NDIR_BLOCKS 12
#define EXT2_IND_BLOCK	 EXT2_NDIR_BLOCKS
#define EXT2_DIND_BLOCK	 (EXT2_IND_BLOCK + 1)
#define EXT2_TIND_BLOCK	 (EXT2_DIND_BLOCK + 1)
#define EXT2_N_BLOCKS	 (EXT2_TIND_BLOCK + 1)

struct ext2_inode {
	uint16_t i_mode;
	uint16_t i_uid;
	uint32_t i_size; /* low 32 bits */
	uint32_t i_atime;
	uint32_t i_ctime;
	uint32_t i_mtime;
	uint32_t i_dtime; /* deletion time */
	uint16_t i_gid;
	uint16_t i_links_count;
	uint32_t i_blocks; /* 512-byte sectors, data + metadata */
	uint32_t i_flags;
	uint32_t i_osd1;
	uint32_t i_block[EXT2_N_BLOCKS]; /* or a fast symlink's target */
	uint32_t i_generation;
	uint32_t i_file_acl;  /* extended attribute block */
	uint32_t i_size_high; /* i_dir_acl before large_file */
	uint32_t i_faddr;
	uint8_t i_osd2[12];
};
_Static_assert(sizeof(struct ext2_inode) == EXT2_GOOD_OLD_INODE_SIZE, "ext2 inode");
_Static_assert(offsetof(struct ext2_inode, i_block) == 0x28, "i_block");
_Static_assert(offsetof(struct ext2_inode, i_size_high) == 0x6C, "i_size_high");

/* The part of a large (rev 1, s_inode_size > 128) inode after the base. */
struct ext2_inode_large_tail {
	uint16_t i_extra_isize; /* bytes used beyond 128 */
	uint16_t i_checksum_hi;
};

/* i_mode file types (the top 4 bits). */
#define S_IFMT_EXT2   0170000
#define EXT2_S_IFSOCK 0140000
#define EXT2_S_IFLNK  0120000
#define EXT2_S_IFREG  0100000
#define EXT2_S_IFBLK  0060000
#define EXT2_S_IFDIR  0040000
#define EXT2_S_IFCHR  0020000
#define EXT2_S_IFIFO  0010000

#define EXT2_ISREG(m) (((m)&S_IFMT_EXT2) == EXT2_S_IFREG)
#define EXT2_ISDIR(m) (((m)&S_IFMT_EXT2) == EXT2_S_IFDIR)
#define EXT2_ISLNK(m) (((m)&S_IFMT_EXT2) == EXT2_S_IFLNK)

/* i_flags a reader must honour: data not laid out as a block map. */
#define EXT2_COMPRBLK_FL    0x00000200 /* compressed clusters */
#define EXT4_ENCRYPT_FL	    0x00000800
#define EXT2_INDEX_FL	    0x00001000 /* htree directory: read linearly */
#define EXT4_EXTENTS_FL	    0x00080000
#define EXT4_INLINE_DATA_FL 0x10000000

/* A fast symlink keeps its target in i_block[] (60 bytes). */
#define EXT2_FAST_SYMLINK_MAX (sizeof(((struct ext2_inode *)0)->i_block))

/* Directory entry, revision 1 layout (with the filetype feature). */
struct ext2_dir_entry_2 {
	uint32_t inode;	   /* 0: unused entry */
	uint16_t rec_len;  /* distance to the next entry */
	uint8_t name_len;  /* low byte of a 16-bit name_len without filetype */
	uint8_t file_type; /* EXT2_FT_*, or name_len's high byte */
	char name[];	   /* not NUL-terminated */
};
_Static_assert(sizeof(struct ext2_dir_entry_2) == 8, "ext2 dirent header");

#define EXT2_DIR_ENTRY_HEADER 8
#define EXT2_NAME_LEN	      255

enum {
	EXT2_FT_UNKNOWN,
	EXT2_FT_REG_FILE,
	EXT2_FT_DIR,
	EXT2_FT_CHRDEV,
	EXT2_FT_BLKDEV,
	EXT2_FT_FIFO,
	EXT2_FT_SOCK,
	EXT2_FT_SYMLINK,
	EXT2_FT_MAX,
};

/* MBR partition table (sector 0 of a disk). */
#define MBR_SIGNATURE_OFFSET 510
#define MBR_SIGNATURE	     0xAA55
#define MBR_PARTITION_OFFSET 446
#define MBR_NR_PARTITIONS    4
#define MBR_TYPE_LINUX	     0x83

struct mbr_partition {
	uint8_t boot_ind;
	uint8_t start_chs[3];
	uint8_t sys_ind; /* partition type */
	uint8_t end_chs[3];
	uint32_t start_sect; /* LBA of the first sector */
	uint32_t nr_sects;
};
_Static_assert(sizeof(struct mbr_partition) == 16, "MBR partition entry");

#endif
