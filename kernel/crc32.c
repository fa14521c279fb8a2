/*
 * zlib-compatible CRC-32 with slicing-by-8 tables: eight 256-entry tables
 * let the loop consume 8 bytes per step, which matters because rawread
 * checksums everything it reads and TCG makes byte-at-a-time table lookups
 * slower than the emulated disk.
 *
 * The tables are built on first use; building is idempotent, so a thread
 * switch or a second caller in the middle cannot produce a wrong table.
 */
#include <string.h>

#include "kernel/crc32.h"

#define CRC32_POLY 0xEDB88320u /* x^32 + x^26 + ... + 1, bit-reflected */

static uint32_t crc_table[8][256];
static bool crc_table_ready;

static void crc32_build_tables(void)
{
	for (uint32_t n = 0; n < 256; n++) {
		uint32_t c = n;

		for (int k = 0; k < 8; k++)
			c = (c & 1) ? CRC32_POLY ^ (c >> 1) : c >> 1;
		crc_table[0][n] = c;
	}
	/* table[k][n]: the CRC of byte n followed by k zero bytes */
	for (uint32_t n = 0; n < 256; n++)
		for (int k = 1; k < 8; k++)
			crc_table[k][n] = crc_table[0][crc_table[k - 1][n] & 0xff] ^
					  (crc_table[k - 1][n] >> 8);
	crc_table_ready = true;
}

uint32_t crc32(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	if (!crc_table_ready)
		crc32_build_tables();
	crc = ~crc;
	while (len && ((uintptr_t)p & 7)) {
		crc = crc_table[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
		len--;
	}
	while (len >= 8) {
		uint32_t lo, hi;

		/* x86 is little-endian: the first byte lands in lo's low bits */
		__builtin_memcpy(&lo, p, 4);
		__builtin_memcpy(&hi, p + 4, 4);
		lo ^= crc;
		crc = crc_table[7][lo & 0xff] ^ crc_table[6][(lo >> 8) & 0xff] ^
		      crc_table[5][(lo >> 16) & 0xff] ^ crc_table[4][lo >> 24] ^
		      crc_table[3][hi & 0xff] ^ crc_table[2][(hi >> 8) & 0xff] ^
		      crc_table[1][(hi >> 16) & 0xff] ^ crc_table[0][hi >> 24];
		p += 8;
		len -= 8;
	}
	while (len--)
		crc = crc_table[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}
