/*
 * The LBA test pattern (drivers/blk-pattern.c, host-buildable): what every
 * 512-byte sector of a test disk made by `tools/mkdisk lba` holds, so a
 * reader can check each byte it got against the sector it asked for.
 *
 *	bytes   0..503	63 little-endian u64 words: lba ^ (k * 0x9E3779B97F4A7C15), k = 0..62
 *			(word 0 is the LBA itself)
 *	bytes 504..507	crc32 (zlib) of bytes 0..503, little-endian
 *	bytes 508..511	~(uint32_t)lba, little-endian
 */
#ifndef DRIVERS_BLK_PATTERN_H
#define DRIVERS_BLK_PATTERN_H

#include "kernel/types.h"

#define BLK_PATTERN_MULT 0x9E3779B97F4A7C15ULL

/* Fill @buf (512 bytes) with the pattern of sector @lba. */
void blk_pattern_fill(uint64_t lba, void *buf);
/*
 * Compare @buf (512 bytes) with the pattern of sector @lba: -1 if it
 * matches, else the offset of the first differing byte, with the byte
 * expected there in *@want.
 */
int blk_pattern_check(uint64_t lba, const void *buf, uint8_t *want);

#endif
