/*
 * The LBA test pattern; see drivers/blk-pattern.h for the layout, and
 * tools/mkdisk for the generator on the host that must agree with it.
 */
#include <string.h>

#include "drivers/blk-pattern.h"
#include "kernel/crc32.h"

static void put_le64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

void blk_pattern_fill(uint64_t lba, void *buf)
{
	uint8_t *p = buf;

	for (int k = 0; k < 63; k++)
		put_le64(p + 8 * k, lba ^ ((uint64_t)k * BLK_PATTERN_MULT));
	put_le32(p + 504, crc32(0, p, 504));
	put_le32(p + 508, ~(uint32_t)lba);
}

int blk_pattern_check(uint64_t lba, const void *buf, uint8_t *want)
{
	uint8_t expect[512];
	const uint8_t *p = buf;

	blk_pattern_fill(lba, expect);
	if (memcmp(expect, p, 512) == 0)
		return -1;
	for (int i = 0; i < 512; i++)
		if (p[i] != expect[i]) {
			*want = expect[i];
			return i;
		}
	return -1;
}
