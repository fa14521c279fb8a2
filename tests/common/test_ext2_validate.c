/*
 * Unit tests of the ext2 validators (fs/ext2-validate.c), one or more
 * cases per rule, on hand-made structures: each case starts from a valid
 * structure, breaks one field and checks the verdict and that the error
 * line names what is wrong. Runs on the host and in the kernel (no disk).
 */
#include <string.h>

#include "fs/ext2.h"
#include "kernel/ktest.h"

static struct ext2_sb_info sbi;
static struct ext2_super_block es;
static uint64_t dev_bytes;

/*
 * A valid filesystem of @groups groups with 1 KiB << @log blocks: full
 * groups except a last one 100 blocks short, 256 inodes per group, 128-byte
 * inodes at 1 KiB and 256-byte ones otherwise.
 */
static void make_super(uint32_t log, uint32_t groups)
{
	uint32_t bs = 1024u << log, bpg = 8 * bs;

	memset(&sbi, 0, sizeof(sbi));
	memset(&es, 0, sizeof(es));
	sbi.s_quiet = true;
	sbi.sb.s_fs_info = &sbi;
	strcpy(sbi.sb.s_id, "test");
	ext2_icache_init(&sbi);
	es.s_magic = EXT2_SUPER_MAGIC;
	es.s_rev_level = EXT2_DYNAMIC_REV;
	es.s_log_block_size = log;
	es.s_log_frag_size = log;
	es.s_first_data_block = bs == 1024;
	es.s_blocks_per_group = bpg;
	es.s_frags_per_group = bpg;
	es.s_blocks_count = es.s_first_data_block + groups * bpg - 100;
	es.s_inodes_per_group = 256;
	es.s_inodes_count = groups * 256;
	es.s_inode_size = bs == 1024 ? 128 : 256;
	es.s_first_ino = EXT2_GOOD_OLD_FIRST_INO;
	es.s_free_blocks_count = 1000;
	es.s_free_inodes_count = 500;
	es.s_state = EXT2_VALID_FS;
	es.s_feature_incompat = EXT2_FEATURE_INCOMPAT_FILETYPE;
	es.s_feature_ro_compat =
		EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER | EXT2_FEATURE_RO_COMPAT_LARGE_FILE;
	es.s_feature_compat = EXT2_FEATURE_COMPAT_DIR_INDEX | EXT2_FEATURE_COMPAT_EXT_ATTR;
	dev_bytes = (uint64_t)es.s_blocks_count * bs;
}

static int check_super(void)
{
	sbi.s_last_error[0] = '\0';
	return ext2_validate_super(&sbi, &es, dev_bytes);
}

static bool said(const char *what)
{
	return strstr(sbi.s_last_error, what) != NULL;
}

#define KT_EXPECT_SAID(t, what)                                                              \
	do {                                                                                 \
		if (!said(what))                                                             \
			KT_FAIL(t, "error \"%s\" does not mention \"%s\"", sbi.s_last_error, \
				what);                                                       \
	} while (0)

/* --- superblock ------------------------------------------------------------- */

static void test_super_valid(struct ktest *t)
{
	make_super(0, 4);
	KT_ASSERT_EQ(t, check_super(), 0);
	KT_EXPECT_EQ(t, sbi.sb.s_blocksize, 1024);
	KT_EXPECT_EQ(t, sbi.sb.s_blocksize_bits, 10);
	KT_EXPECT_EQ(t, sbi.s_groups_count, 4);
	KT_EXPECT_EQ(t, sbi.s_desc_per_block, 32);
	KT_EXPECT_EQ(t, sbi.s_gdb_count, 1);
	KT_EXPECT_EQ(t, sbi.s_itb_per_group, 32); /* 256 inodes x 128 bytes */
	KT_EXPECT_EQ(t, sbi.s_addr_per_block, 256);
	KT_EXPECT_TRUE(t, sbi.s_has_filetype);
	/* 12 + 256 + 256^2 + 256^3 blocks of 1 KiB */
	KT_EXPECT_EQ(t, sbi.s_max_bytes, (12ULL + 256 + 65536 + 16777216) * 1024);

	make_super(2, 3);
	KT_ASSERT_EQ(t, check_super(), 0);
	KT_EXPECT_EQ(t, sbi.sb.s_blocksize, 4096);
	KT_EXPECT_EQ(t, sbi.s_inode_size, 256);
	KT_EXPECT_EQ(t, sbi.s_itb_per_group, 16);
	KT_EXPECT_EQ(t, sbi.s_addr_per_block_bits, 10);

	make_super(1, 2);
	KT_EXPECT_EQ(t, check_super(), 0);
}

static void test_super_magic(struct ktest *t)
{
	make_super(0, 4);
	es.s_magic = 0x1234;
	KT_EXPECT_EQ(t, check_super(), -EINVAL);
	KT_EXPECT_SAID(t, "magic 0x1234");
}

static void test_super_revision(struct ktest *t)
{
	make_super(0, 4);
	es.s_rev_level = 2;
	KT_EXPECT_EQ(t, check_super(), -EOPNOTSUPP);
	KT_EXPECT_SAID(t, "revision 2");

	/* revision 0: fixed inode size and first inode, no feature bits */
	make_super(0, 4);
	es.s_rev_level = EXT2_GOOD_OLD_REV;
	es.s_feature_incompat = es.s_feature_ro_compat = es.s_feature_compat = 0;
	es.s_inode_size = 0;
	es.s_first_ino = 0;
	KT_ASSERT_EQ(t, check_super(), 0);
	KT_EXPECT_EQ(t, sbi.s_inode_size, 128);
	KT_EXPECT_EQ(t, sbi.s_first_ino, 11);
	KT_EXPECT_TRUE(t, !sbi.s_has_filetype);
	es.s_feature_incompat = EXT2_FEATURE_INCOMPAT_FILETYPE;
	KT_EXPECT_EQ(t, check_super(), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "revision 0");
}

static void test_super_block_size(struct ktest *t)
{
	make_super(0, 4);
	es.s_log_block_size = es.s_log_frag_size = 3; /* 8 KiB: valid ext4, too big here */
	KT_EXPECT_EQ(t, check_super(), -EOPNOTSUPP);
	KT_EXPECT_SAID(t, "above 4 KiB");
	es.s_log_block_size = es.s_log_frag_size = 40;
	KT_EXPECT_EQ(t, check_super(), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "impossible");

	make_super(0, 4);
	es.s_log_frag_size = 1;
	KT_EXPECT_EQ(t, check_super(), -EOPNOTSUPP);
	KT_EXPECT_SAID(t, "fragment size");
}

static void test_super_inode_size(struct ktest *t)
{
	static const uint16_t bad[] = {0, 64, 100, 192, 2048};

	for (unsigned int i = 0; i < ARRAY_SIZE(bad); i++) {
		make_super(0, 4); /* 1 KiB blocks: 2048 is too big */
		es.s_inode_size = bad[i];
		KT_EXPECT_EQ(t, check_super(), -EFSCORRUPTED);
		KT_EXPECT_SAID(t, "inode size");
	}
	make_super(0, 4);
	es.s_inode_size = 1024;
	KT_EXPECT_EQ(t, check_super(), 0);

	make_super(0, 4);
	es.s_first_ino = 5;
	KT_EXPECT_EQ(t, check_super(), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "first non-reserved inode 5");
	make_super(0, 4);
	es.s_first_ino = es.s_inodes_count;
	KT_EXPECT_EQ(t, check_super(), -EFSCORRUPTED);
}

static void test_super_incompat(struct ktest *t)
{
	static const struct {
		uint32_t bit;
		const char *name;
	} refused[] = {
		{EXT2_FEATURE_INCOMPAT_COMPRESSION, "compression"},
		{EXT3_FEATURE_INCOMPAT_RECOVER, "needs recovery"},
		{EXT3_FEATURE_INCOMPAT_JOURNAL_DEV, "journal_dev"},
		{EXT2_FEATURE_INCOMPAT_META_BG, "meta_bg"},
		{EXT4_FEATURE_INCOMPAT_EXTENTS, "extents"},
		{EXT4_FEATURE_INCOMPAT_64BIT, "64bit"},
		{EXT4_FEATURE_INCOMPAT_INLINE_DATA, "inline_data"},
		{EXT4_FEATURE_INCOMPAT_ENCRYPT, "encrypt"},
		{EXT4_FEATURE_INCOMPAT_CASEFOLD, "casefold"},
		{0x40000000, "unknown 0x40000000"},
	};

	for (unsigned int i = 0; i < ARRAY_SIZE(refused); i++) {
		make_super(0, 4);
		es.s_feature_incompat |= refused[i].bit;
		KT_EXPECT_EQ(t, check_super(), -EOPNOTSUPP);
		KT_EXPECT_SAID(t, refused[i].name);
	}
	/* several at once are all named */
	make_super(0, 4);
	es.s_feature_incompat |= EXT4_FEATURE_INCOMPAT_EXTENTS | EXT4_FEATURE_INCOMPAT_64BIT;
	KT_EXPECT_EQ(t, check_super(), -EOPNOTSUPP);
	KT_EXPECT_SAID(t, "extents 64bit");

	/* flex_bg only moves metadata: accepted (and validated per descriptor) */
	make_super(0, 4);
	es.s_feature_incompat |= EXT4_FEATURE_INCOMPAT_FLEX_BG;
	KT_EXPECT_EQ(t, check_super(), 0);
	KT_EXPECT_TRUE(t, sbi.s_flex_bg);

	/* a clean ext3 journal is only a compat feature */
	make_super(0, 4);
	es.s_feature_compat |= EXT3_FEATURE_COMPAT_HAS_JOURNAL;
	KT_EXPECT_EQ(t, check_super(), 0);
}

static void test_super_ro_compat(struct ktest *t)
{
	make_super(0, 4);
	es.s_feature_ro_compat |= EXT4_FEATURE_RO_COMPAT_BIGALLOC;
	KT_EXPECT_EQ(t, check_super(), -EOPNOTSUPP);
	KT_EXPECT_SAID(t, "bigalloc");

	/* unknown read-only features still allow a read-only mount */
	make_super(0, 4);
	es.s_feature_ro_compat |= 0x80000000u | EXT4_FEATURE_RO_COMPAT_METADATA_CSUM;
	KT_EXPECT_EQ(t, check_super(), 0);
}

static void test_super_first_data_block(struct ktest *t)
{
	make_super(0, 4);
	es.s_first_data_block = 0;
	KT_EXPECT_EQ(t, check_super(), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "first data block 0");
	make_super(2, 4);
	es.s_first_data_block = 1;
	KT_EXPECT_EQ(t, check_super(), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "first data block 1");
}

static void test_super_block_count(struct ktest *t)
{
	make_super(0, 4);
	es.s_blocks_count = 2;
	KT_EXPECT_EQ(t, check_super(), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "block count 2");

	/* a filesystem larger than its device */
	make_super(0, 4);
	dev_bytes -= 1024;
	KT_EXPECT_EQ(t, check_super(), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "larger than its device");
}

static void test_super_groups(struct ktest *t)
{
	make_super(0, 4);
	es.s_blocks_per_group = 0;
	KT_EXPECT_EQ(t, check_super(), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "blocks per group 0");
	make_super(0, 4);
	es.s_blocks_per_group = es.s_frags_per_group = 8 * 1024 + 8; /* > bits in a bitmap */
	KT_EXPECT_EQ(t, check_super(), -EFSCORRUPTED);
	make_super(0, 4);
	es.s_frags_per_group = 4096;
	KT_EXPECT_EQ(t, check_super(), -EFSCORRUPTED);

	make_super(0, 4);
	es.s_inodes_per_group = 0;
	KT_EXPECT_EQ(t, check_super(), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "inodes per group 0");
	make_super(0, 4);
	es.s_inodes_per_group = 8193;
	KT_EXPECT_EQ(t, check_super(), -EFSCORRUPTED);

	/* inode count must be groups x inodes per group */
	make_super(0, 4);
	es.s_inodes_count = 4 * 256 + 1;
	KT_EXPECT_EQ(t, check_super(), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "4 groups x 256");

	/* more groups than the descriptor table in group 0 can describe */
	make_super(0, 4);
	es.s_blocks_per_group = es.s_frags_per_group = 8;
	es.s_inodes_per_group = 8;
	es.s_blocks_count = 1 + 8 * 300;
	es.s_inodes_count = 8 * 300;
	es.s_free_inodes_count = es.s_free_blocks_count = 0;
	dev_bytes = (uint64_t)es.s_blocks_count * 1024;
	KT_EXPECT_EQ(t, check_super(), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "does not fit in group 0");

	/* an inode table larger than its group */
	make_super(0, 4);
	es.s_inodes_per_group = 8192;
	es.s_inodes_count = 4 * 8192;
	es.s_inode_size = 1024; /* 8192 table blocks in 8192-block groups */
	KT_EXPECT_EQ(t, check_super(), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "inode table");
	es.s_feature_incompat |= EXT4_FEATURE_INCOMPAT_FLEX_BG; /* may live elsewhere */
	KT_EXPECT_EQ(t, check_super(), 0);
}

static void test_super_counts(struct ktest *t)
{
	make_super(0, 4);
	es.s_free_blocks_count = es.s_blocks_count + 1;
	KT_EXPECT_EQ(t, check_super(), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "free blocks");
	make_super(0, 4);
	es.s_free_inodes_count = es.s_inodes_count + 1;
	KT_EXPECT_EQ(t, check_super(), -EFSCORRUPTED);
	make_super(0, 4);
	es.s_r_blocks_count = es.s_blocks_count + 1;
	KT_EXPECT_EQ(t, check_super(), -EFSCORRUPTED);
}

KTEST_SUITE(ext2_super, NULL, KTEST_CASE(test_super_valid), KTEST_CASE(test_super_magic),
	    KTEST_CASE(test_super_revision), KTEST_CASE(test_super_block_size),
	    KTEST_CASE(test_super_inode_size), KTEST_CASE(test_super_incompat),
	    KTEST_CASE(test_super_ro_compat), KTEST_CASE(test_super_first_data_block),
	    KTEST_CASE(test_super_block_count), KTEST_CASE(test_super_groups),
	    KTEST_CASE(test_super_counts));

/* --- group descriptors ---------------------------------------------------------- */

/* The descriptor mke2fs would write for group @g of make_super(0, 4). */
static struct ext2_group_desc good_gd(uint32_t g)
{
	uint32_t first = 1 + g * 8192;
	/* group 0: superblock, one descriptor block, then the bitmaps */
	uint32_t meta = g == 0 ? first + 2 : first + 3;

	return (struct ext2_group_desc){
		.bg_block_bitmap = meta,
		.bg_inode_bitmap = meta + 1,
		.bg_inode_table = meta + 2,
		.bg_free_blocks_count = 100,
		.bg_free_inodes_count = 200,
		.bg_used_dirs_count = 2,
	};
}

static void test_gd_valid(struct ktest *t)
{
	make_super(0, 4);
	KT_ASSERT_EQ(t, check_super(), 0);
	for (uint32_t g = 0; g < 4; g++) {
		struct ext2_group_desc gd = good_gd(g);

		KT_EXPECT_EQ(t, ext2_validate_group_desc(&sbi, g, &gd), 0);
	}
	/* the last group is 100 blocks short: its table must end before the fs end */
	struct ext2_group_desc gd = good_gd(3);

	gd.bg_inode_table = sbi.s_blocks_count - sbi.s_itb_per_group;
	KT_EXPECT_EQ(t, ext2_validate_group_desc(&sbi, 3, &gd), 0);
	gd.bg_inode_table++;
	KT_EXPECT_EQ(t, ext2_validate_group_desc(&sbi, 3, &gd), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "group 3: inode table");
}

static void test_gd_index(struct ktest *t)
{
	struct ext2_group_desc gd = good_gd(0);

	make_super(0, 4);
	KT_ASSERT_EQ(t, check_super(), 0);
	KT_EXPECT_EQ(t, ext2_validate_group_desc(&sbi, 4, &gd), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "group 4 out of range (4 groups)");
}

static void test_gd_outside_group(struct ktest *t)
{
	struct ext2_group_desc gd;

	make_super(0, 4);
	KT_ASSERT_EQ(t, check_super(), 0);
	gd = good_gd(1);
	gd.bg_block_bitmap = good_gd(2).bg_block_bitmap; /* in another group */
	KT_EXPECT_EQ(t, ext2_validate_group_desc(&sbi, 1, &gd), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "group 1: block bitmap");
	gd = good_gd(1);
	gd.bg_inode_bitmap = 0;
	KT_EXPECT_EQ(t, ext2_validate_group_desc(&sbi, 1, &gd), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "inode bitmap at block 0");
	gd = good_gd(1);
	gd.bg_inode_table = 1 + 2 * 8192 - 10; /* runs into group 2 */
	KT_EXPECT_EQ(t, ext2_validate_group_desc(&sbi, 1, &gd), -EFSCORRUPTED);
	gd = good_gd(1);
	gd.bg_inode_table = 0xfffffff0u; /* the end would wrap in 32 bits */
	KT_EXPECT_EQ(t, ext2_validate_group_desc(&sbi, 1, &gd), -EFSCORRUPTED);

	/* flex_bg: anywhere in the filesystem is fine... */
	es.s_feature_incompat |= EXT4_FEATURE_INCOMPAT_FLEX_BG;
	KT_ASSERT_EQ(t, check_super(), 0);
	gd = good_gd(1);
	gd.bg_block_bitmap = 100;
	gd.bg_inode_bitmap = 101;
	gd.bg_inode_table = 200;
	KT_EXPECT_EQ(t, ext2_validate_group_desc(&sbi, 1, &gd), 0);
	/* ...but not over the superblock and descriptor table, nor past the end */
	gd.bg_block_bitmap = 2;
	KT_EXPECT_EQ(t, ext2_validate_group_desc(&sbi, 1, &gd), -EFSCORRUPTED);
	gd.bg_block_bitmap = 100;
	gd.bg_inode_table = sbi.s_blocks_count - 1;
	KT_EXPECT_EQ(t, ext2_validate_group_desc(&sbi, 1, &gd), -EFSCORRUPTED);
}

static void test_gd_counts(struct ktest *t)
{
	struct ext2_group_desc gd;

	make_super(0, 4);
	KT_ASSERT_EQ(t, check_super(), 0);
	gd = good_gd(2);
	gd.bg_free_blocks_count = 8193;
	KT_EXPECT_EQ(t, ext2_validate_group_desc(&sbi, 2, &gd), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "counts exceed");
	gd = good_gd(2);
	gd.bg_free_inodes_count = 257;
	KT_EXPECT_EQ(t, ext2_validate_group_desc(&sbi, 2, &gd), -EFSCORRUPTED);
	gd = good_gd(2);
	gd.bg_used_dirs_count = 257;
	KT_EXPECT_EQ(t, ext2_validate_group_desc(&sbi, 2, &gd), -EFSCORRUPTED);
}

KTEST_SUITE(ext2_group_desc, NULL, KTEST_CASE(test_gd_valid), KTEST_CASE(test_gd_index),
	    KTEST_CASE(test_gd_outside_group), KTEST_CASE(test_gd_counts));

/* --- block and inode numbers ------------------------------------------------------ */

static void test_block_numbers(struct ktest *t)
{
	make_super(0, 4);
	KT_ASSERT_EQ(t, check_super(), 0);
	KT_EXPECT_EQ(t, ext2_validate_block(&sbi, 1, 12, "data"), 0);
	KT_EXPECT_EQ(t, ext2_validate_block(&sbi, sbi.s_blocks_count - 1, 12, "data"), 0);
	KT_EXPECT_EQ(t, ext2_validate_block(&sbi, 0, 12, "data"), -EFSCORRUPTED);
	KT_EXPECT_EQ(t, ext2_validate_block(&sbi, sbi.s_blocks_count, 12, "indirect"),
		     -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "inode 12: indirect block");
	KT_EXPECT_EQ(t, ext2_validate_block(&sbi, 0xffffffffu, 0, "metadata"), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "metadata block 4294967295");

	make_super(2, 4); /* 4 KiB: block 0 holds the superblock */
	KT_ASSERT_EQ(t, check_super(), 0);
	KT_EXPECT_EQ(t, ext2_validate_block(&sbi, 0, 0, "metadata"), 0);
}

static void test_inode_numbers(struct ktest *t)
{
	make_super(0, 4);
	KT_ASSERT_EQ(t, check_super(), 0);
	KT_EXPECT_EQ(t, ext2_validate_ino(&sbi, 0, 0), -EFSCORRUPTED);
	KT_EXPECT_EQ(t, ext2_validate_ino(&sbi, 1, 0), 0);
	KT_EXPECT_EQ(t, ext2_validate_ino(&sbi, 1024, 0), 0);
	KT_EXPECT_EQ(t, ext2_validate_ino(&sbi, 1025, 0), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "inode 1025 outside 1-1024");
	/* from a directory: the root and non-reserved inodes only */
	KT_EXPECT_EQ(t, ext2_validate_ino(&sbi, EXT2_ROOT_INO, 2), 0);
	KT_EXPECT_EQ(t, ext2_validate_ino(&sbi, 11, 2), 0);
	KT_EXPECT_EQ(t, ext2_validate_ino(&sbi, EXT2_JOURNAL_INO, 2), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "directory inode 2: entry for reserved inode 8");
	KT_EXPECT_EQ(t, ext2_validate_ino(&sbi, 5000, 12), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "directory inode 12");
}

static void test_block_to_path(struct ktest *t)
{
	static const struct {
		uint32_t log;
		uint64_t lblk;
		int depth;
		uint32_t off[4];
	} cases[] = {
		{0, 0, 1, {0}},
		{0, 11, 1, {11}},
		{0, 12, 2, {12, 0}},
		{0, 12 + 255, 2, {12, 255}},
		{0, 12 + 256, 3, {13, 0, 0}},
		{0, 12 + 256 + 256 + 3, 3, {13, 1, 3}},
		{0, 12 + 256 + 65536 - 1, 3, {13, 255, 255}},
		{0, 12 + 256 + 65536, 4, {14, 0, 0, 0}},
		{0, 12 + 256 + 65536 + 65536 + 257, 4, {14, 1, 1, 1}},
		{0, 12 + 256 + 65536 + 16777216 - 1, 4, {14, 255, 255, 255}},
		{0, 12 + 256 + 65536 + 16777216, -EFBIG, {0}},
		{2, 12 + 1023, 2, {12, 1023}},
		{2, 12 + 1024 + 1024 * 1024, 4, {14, 0, 0, 0}},
		{2, 12 + 1024 + 1048576 + 1073741824ULL, -EFBIG, {0}},
		{2, ~0ULL, -EFBIG, {0}},
	};

	for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++) {
		uint32_t off[4] = {0};
		int depth;

		make_super(cases[i].log, 2);
		KT_ASSERT_EQ(t, check_super(), 0);
		depth = ext2_block_to_path(&sbi, 12, cases[i].lblk, off);
		KT_EXPECT_EQ(t, depth, cases[i].depth);
		for (int d = 0; d < depth; d++)
			KT_EXPECT_EQ(t, off[d], cases[i].off[d]);
	}
	KT_EXPECT_SAID(t, "beyond triple indirect");
}

static void test_partition(struct ktest *t)
{
	struct mbr_partition p = {.sys_ind = MBR_TYPE_LINUX, .start_sect = 2048, .nr_sects = 4096};

	make_super(0, 4);
	KT_EXPECT_EQ(t, ext2_validate_partition(&sbi, 1, &p, 8192), 0);
	KT_EXPECT_EQ(t, ext2_validate_partition(&sbi, 1, &p, 6143), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "partition 1 (sectors 2048-6143) is outside the disk");
	p.start_sect = 63;
	KT_EXPECT_EQ(t, ext2_validate_partition(&sbi, 2, &p, 8192), -EOPNOTSUPP);
	KT_EXPECT_SAID(t, "not 4 KiB aligned");
	p.start_sect = 0;
	KT_EXPECT_EQ(t, ext2_validate_partition(&sbi, 2, &p, 8192), -EFSCORRUPTED);
	p.start_sect = 0xfffff000u; /* start + count past 2^32 sectors */
	KT_EXPECT_EQ(t, ext2_validate_partition(&sbi, 2, &p, 1ULL << 40), 0);
	KT_EXPECT_EQ(t, ext2_validate_partition(&sbi, 2, &p, 0xfffff000ULL + 4095), -EFSCORRUPTED);
	p.nr_sects = 0;
	KT_EXPECT_EQ(t, ext2_validate_partition(&sbi, 3, &p, 8192), -ENOENT);
	KT_EXPECT_SAID(t, "partition 3 is empty");
}

KTEST_SUITE(ext2_numbers, NULL, KTEST_CASE(test_block_numbers), KTEST_CASE(test_inode_numbers),
	    KTEST_CASE(test_block_to_path), KTEST_CASE(test_partition));

/* --- inodes --------------------------------------------------------------------- */

static uint8_t inode_buf[256];
static struct ext2_inode *raw = (struct ext2_inode *)inode_buf;

static void make_inode(uint16_t mode, uint64_t size)
{
	memset(inode_buf, 0, sizeof(inode_buf));
	raw->i_mode = mode | 0644;
	raw->i_links_count = 1;
	raw->i_size = (uint32_t)size;
	raw->i_size_high = (uint32_t)(size >> 32);
	raw->i_blocks = 8;
	raw->i_block[0] = 100;
}

static int check_inode(void)
{
	sbi.s_last_error[0] = '\0';
	return ext2_validate_inode(&sbi, 12, inode_buf);
}

static void test_inode_valid(struct ktest *t)
{
	static const uint16_t types[] = {EXT2_S_IFREG, EXT2_S_IFDIR, EXT2_S_IFCHR,
					 EXT2_S_IFBLK, EXT2_S_IFIFO, EXT2_S_IFSOCK};

	make_super(0, 4);
	KT_ASSERT_EQ(t, check_super(), 0);
	for (unsigned int i = 0; i < ARRAY_SIZE(types); i++) {
		make_inode(types[i], 1024);
		KT_EXPECT_EQ(t, check_inode(), 0);
	}
	/* i_size_high counts for regular files (large_file) */
	make_inode(EXT2_S_IFREG, 3ULL << 32);
	KT_EXPECT_EQ(t, check_inode(), 0);
	KT_EXPECT_EQ(t, ext2_isize(raw), 3LL << 32);
	/* ...and is i_dir_acl for a directory */
	make_inode(EXT2_S_IFDIR, 2048);
	raw->i_size_high = 7;
	KT_EXPECT_EQ(t, check_inode(), 0);
	KT_EXPECT_EQ(t, ext2_isize(raw), 2048);
	/* an orphan (links 0, not deleted) is still a valid inode, as in Linux */
	make_inode(EXT2_S_IFREG, 10);
	raw->i_links_count = 0;
	KT_EXPECT_EQ(t, check_inode(), 0);
}

static void test_inode_unused(struct ktest *t)
{
	make_super(0, 4);
	KT_ASSERT_EQ(t, check_super(), 0);
	make_inode(EXT2_S_IFREG, 10);
	raw->i_mode = 0;
	KT_EXPECT_EQ(t, check_inode(), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "inode 12 is not in use");
	make_inode(EXT2_S_IFREG, 10);
	raw->i_links_count = 0;
	raw->i_dtime = 1179355680;
	KT_EXPECT_EQ(t, check_inode(), -EFSCORRUPTED);
	make_inode(0xf000, 10);
	KT_EXPECT_EQ(t, check_inode(), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "unknown file type");
}

static void test_inode_flags(struct ktest *t)
{
	static const struct {
		uint32_t flag;
		const char *name;
	} refused[] = {
		{EXT4_EXTENTS_FL, "extents"},
		{EXT4_INLINE_DATA_FL, "inline data"},
		{EXT4_ENCRYPT_FL, "encrypted"},
		{EXT2_COMPRBLK_FL, "compressed"},
	};

	make_super(0, 4);
	KT_ASSERT_EQ(t, check_super(), 0);
	for (unsigned int i = 0; i < ARRAY_SIZE(refused); i++) {
		make_inode(EXT2_S_IFREG, 10);
		raw->i_flags = refused[i].flag;
		KT_EXPECT_EQ(t, check_inode(), -EOPNOTSUPP);
		KT_EXPECT_SAID(t, refused[i].name);
	}
	make_inode(EXT2_S_IFDIR, 1024);
	raw->i_flags = EXT2_INDEX_FL; /* htree: read linearly */
	KT_EXPECT_EQ(t, check_inode(), 0);
}

static void test_inode_extra_isize(struct ktest *t)
{
	struct ext2_inode_large_tail *tail = (void *)(inode_buf + 128);

	make_super(2, 2); /* 256-byte inodes */
	KT_ASSERT_EQ(t, check_super(), 0);
	make_inode(EXT2_S_IFREG, 10);
	tail->i_extra_isize = 32;
	KT_EXPECT_EQ(t, check_inode(), 0);
	tail->i_extra_isize = 128;
	KT_EXPECT_EQ(t, check_inode(), 0);
	tail->i_extra_isize = 132;
	KT_EXPECT_EQ(t, check_inode(), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "i_extra_isize 132");
	tail->i_extra_isize = 30;
	KT_EXPECT_EQ(t, check_inode(), -EFSCORRUPTED);
}

static void test_inode_size(struct ktest *t)
{
	make_super(0, 4);
	KT_ASSERT_EQ(t, check_super(), 0);
	make_inode(EXT2_S_IFREG, sbi.s_max_bytes);
	KT_EXPECT_EQ(t, check_inode(), 0);
	make_inode(EXT2_S_IFREG, sbi.s_max_bytes + 1);
	KT_EXPECT_EQ(t, check_inode(), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "beyond what the block map addresses");
	make_inode(EXT2_S_IFREG, 1ULL << 63); /* negative as loff_t */
	KT_EXPECT_EQ(t, check_inode(), -EFSCORRUPTED);

	make_inode(EXT2_S_IFDIR, 0);
	KT_EXPECT_EQ(t, check_inode(), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "directory inode 12");
	make_inode(EXT2_S_IFDIR, 1500);
	KT_EXPECT_EQ(t, check_inode(), -EFSCORRUPTED);

	make_inode(EXT2_S_IFREG, 10);
	raw->i_file_acl = sbi.s_blocks_count;
	KT_EXPECT_EQ(t, check_inode(), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "extended attribute block");
}

static void test_inode_symlink(struct ktest *t)
{
	make_super(0, 4);
	KT_ASSERT_EQ(t, check_super(), 0);
	/* fast: no blocks, target inside i_block */
	make_inode(EXT2_S_IFLNK, 59);
	raw->i_blocks = 0;
	KT_EXPECT_EQ(t, check_inode(), 0);
	KT_EXPECT_TRUE(t, ext2_is_fast_symlink(&sbi, raw));
	make_inode(EXT2_S_IFLNK, 60);
	raw->i_blocks = 0;
	KT_EXPECT_EQ(t, check_inode(), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "fast symlink inode 12");
	/* fast with an extended attribute block: i_blocks counts only that */
	make_inode(EXT2_S_IFLNK, 20);
	raw->i_file_acl = 50;
	raw->i_blocks = 2;
	KT_EXPECT_TRUE(t, ext2_is_fast_symlink(&sbi, raw));
	KT_EXPECT_EQ(t, check_inode(), 0);
	/* slow: one block holds the target */
	make_inode(EXT2_S_IFLNK, 1023);
	raw->i_blocks = 2;
	KT_EXPECT_TRUE(t, !ext2_is_fast_symlink(&sbi, raw));
	KT_EXPECT_EQ(t, check_inode(), 0);
	make_inode(EXT2_S_IFLNK, 1024);
	KT_EXPECT_EQ(t, check_inode(), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "slow symlink inode 12");
	make_inode(EXT2_S_IFLNK, 0);
	KT_EXPECT_EQ(t, check_inode(), -EFSCORRUPTED);
}

KTEST_SUITE(ext2_inode, NULL, KTEST_CASE(test_inode_valid), KTEST_CASE(test_inode_unused),
	    KTEST_CASE(test_inode_flags), KTEST_CASE(test_inode_extra_isize),
	    KTEST_CASE(test_inode_size), KTEST_CASE(test_inode_symlink));

/* --- directory entries ------------------------------------------------------------- */

static uint8_t dir_block[1024];
static const struct ext2_buf dir_bh = {.page = NULL, .data = dir_block, .blk = 77};

static void put_dirent(uint32_t off, uint32_t ino, uint16_t rec_len, uint8_t name_len, uint8_t type,
		       const char *name)
{
	struct ext2_dir_entry_2 *d = (void *)(dir_block + off);

	d->inode = ino;
	d->rec_len = rec_len;
	d->name_len = name_len;
	d->file_type = type;
	memcpy(d->name, name, strlen(name));
}

/* A block of ".", ".." and "hello" (the last entry reaching the end). */
static void make_dir_block(void)
{
	memset(dir_block, 0, sizeof(dir_block));
	put_dirent(0, 12, 12, 1, EXT2_FT_DIR, ".");
	put_dirent(12, 2, 12, 2, EXT2_FT_DIR, "..");
	put_dirent(24, 13, 1000, 5, EXT2_FT_REG_FILE, "hello");
}

static int check_dirent(uint32_t off, struct ext2_dirent *de)
{
	sbi.s_last_error[0] = '\0';
	return ext2_validate_dirent(&sbi, 12, 3, &dir_bh, off, de);
}

static void test_dirent_valid(struct ktest *t)
{
	struct ext2_dirent de;
	uint32_t off = 0;
	int n = 0;

	make_super(0, 4);
	KT_ASSERT_EQ(t, check_super(), 0);
	make_dir_block();
	while (off < 1024) {
		KT_ASSERT_EQ(t, check_dirent(off, &de), 0);
		off += de.rec_len;
		n++;
	}
	KT_EXPECT_EQ(t, n, 3);
	KT_EXPECT_EQ(t, de.inode, 13);
	KT_EXPECT_EQ(t, de.name_len, 5);
	KT_EXPECT_EQ(t, de.file_type, EXT2_FT_REG_FILE);
	KT_EXPECT_TRUE(t, memcmp(de.name, "hello", 5) == 0);

	/* an unused slot: inode 0, name and type ignored */
	put_dirent(24, 0, 1000, 0, 0xde, "");
	KT_EXPECT_EQ(t, check_dirent(24, &de), 0);
	KT_EXPECT_EQ(t, de.inode, 0);
}

static void test_dirent_rec_len(struct ktest *t)
{
	struct ext2_dirent de;

	make_super(0, 4);
	KT_ASSERT_EQ(t, check_super(), 0);
	make_dir_block();
	put_dirent(24, 13, 4, 0, 0, "");
	KT_EXPECT_EQ(t, check_dirent(24, &de), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "rec_len 4 below 8");
	KT_EXPECT_SAID(t, "directory inode 12, block 77 (logical 3), offset 24");
	put_dirent(24, 13, 0, 0, 0, ""); /* would never advance */
	KT_EXPECT_EQ(t, check_dirent(24, &de), -EFSCORRUPTED);
	put_dirent(24, 13, 998, 5, EXT2_FT_REG_FILE, "hello");
	KT_EXPECT_EQ(t, check_dirent(24, &de), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "not a multiple of 4");
	put_dirent(24, 13, 1004, 5, EXT2_FT_REG_FILE, "hello");
	KT_EXPECT_EQ(t, check_dirent(24, &de), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "past the end of the block");
	/* a header that itself does not fit */
	KT_EXPECT_EQ(t, check_dirent(1020, &de), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "header does not fit");
	KT_EXPECT_EQ(t, check_dirent(1024, &de), -EFSCORRUPTED);
	KT_EXPECT_EQ(t, check_dirent(26, &de), -EFSCORRUPTED);
}

static void test_dirent_name(struct ktest *t)
{
	struct ext2_dirent de;

	make_super(0, 4);
	KT_ASSERT_EQ(t, check_super(), 0);
	make_dir_block();
	/* name_len <= rec_len - 8 */
	put_dirent(24, 13, 12, 5, EXT2_FT_REG_FILE, "hello");
	KT_EXPECT_EQ(t, check_dirent(24, &de), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "name_len 5 exceeds rec_len 12");
	put_dirent(24, 13, 16, 8, EXT2_FT_REG_FILE, "eightchr");
	KT_EXPECT_EQ(t, check_dirent(24, &de), 0);
	put_dirent(24, 13, 1000, 0, EXT2_FT_REG_FILE, "");
	KT_EXPECT_EQ(t, check_dirent(24, &de), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "used entry with name_len 0");
	put_dirent(24, 13, 1000, 5, EXT2_FT_REG_FILE, "a/b/c");
	KT_EXPECT_EQ(t, check_dirent(24, &de), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "'/'");
	put_dirent(24, 13, 1000, 5, EXT2_FT_REG_FILE, "ab\0cd");
	dir_block[24 + 8 + 2] = '\0';
	KT_EXPECT_EQ(t, check_dirent(24, &de), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "NUL");
	put_dirent(24, 13, 1000, 5, EXT2_FT_MAX, "hello");
	KT_EXPECT_EQ(t, check_dirent(24, &de), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "unknown file_type 8");
}

static void test_dirent_inode(struct ktest *t)
{
	struct ext2_dirent de;

	make_super(0, 4);
	KT_ASSERT_EQ(t, check_super(), 0);
	make_dir_block();
	put_dirent(24, 1025, 1000, 5, EXT2_FT_REG_FILE, "hello");
	KT_EXPECT_EQ(t, check_dirent(24, &de), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "entry for inode 1025");
	put_dirent(24, EXT2_BAD_INO, 1000, 5, EXT2_FT_REG_FILE, "hello");
	KT_EXPECT_EQ(t, check_dirent(24, &de), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "reserved inode 1");
}

static void test_dirent_rev0(struct ktest *t)
{
	struct ext2_dirent de;

	/* without filetype, name_len is 16 bits and there is no type */
	make_super(0, 4);
	es.s_feature_incompat = 0;
	KT_ASSERT_EQ(t, check_super(), 0);
	make_dir_block();
	put_dirent(24, 13, 1000, 5, 0, "hello");
	KT_ASSERT_EQ(t, check_dirent(24, &de), 0);
	KT_EXPECT_EQ(t, de.name_len, 5);
	KT_EXPECT_EQ(t, de.file_type, EXT2_FT_UNKNOWN);
	put_dirent(24, 13, 1000, 5, 1, "hello"); /* name_len 261 */
	KT_EXPECT_EQ(t, check_dirent(24, &de), -EFSCORRUPTED);
	KT_EXPECT_SAID(t, "name_len 261");
}

KTEST_SUITE(ext2_dirent, NULL, KTEST_CASE(test_dirent_valid), KTEST_CASE(test_dirent_rec_len),
	    KTEST_CASE(test_dirent_name), KTEST_CASE(test_dirent_inode),
	    KTEST_CASE(test_dirent_rev0));
