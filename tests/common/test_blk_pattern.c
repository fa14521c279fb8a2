/*
 * The LBA test pattern (drivers/blk-pattern.c) must match what
 * tools/mkdisk writes: crc32 values of generated sectors computed with the
 * Python generator, and blk_pattern_check() finding a single wrong byte.
 */
#include <string.h>

#include "drivers/blk-pattern.h"
#include "kernel/crc32.h"
#include "kernel/ktest.h"

static void test_pattern_matches_mkdisk(struct ktest *t)
{
	static uint8_t buf[4 * 512];

	for (int i = 0; i < 4; i++)
		blk_pattern_fill((uint64_t)i, buf + 512 * i);
	/* python3: zlib.crc32(b"".join(lba_sector(i) for i in range(4))) with tools/mkdisk */
	KT_EXPECT_EQ(t, crc32(0, buf, sizeof(buf)), 0x9019b4eau);
	blk_pattern_fill(0x123456789ULL, buf);
	KT_EXPECT_EQ(t, crc32(0, buf, 512), 0x493911acu);
	KT_EXPECT_EQ(t, buf[0], 0x89); /* word 0 is the LBA, little-endian */
	KT_EXPECT_EQ(t, buf[4], 0x01);
}

static void test_pattern_check(struct ktest *t)
{
	uint8_t buf[512], want = 0;

	blk_pattern_fill(77, buf);
	KT_EXPECT_EQ(t, blk_pattern_check(77, buf, &want), -1);
	KT_EXPECT_NE(t, blk_pattern_check(78, buf, &want), -1); /* another sector's data */
	buf[300] ^= 0x10;
	KT_EXPECT_EQ(t, blk_pattern_check(77, buf, &want), 300);
	KT_EXPECT_EQ(t, want, buf[300] ^ 0x10);
}

KTEST_SUITE(blk_pattern, NULL, KTEST_CASE(test_pattern_matches_mkdisk),
	    KTEST_CASE(test_pattern_check));
