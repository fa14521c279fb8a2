/*
 * CRC-32 as zlib and Python's zlib.crc32 compute it (reflected polynomial
 * 0xEDB88320, initial value and final xor 0xFFFFFFFF folded into the API),
 * so a checksum printed by the kernel can be compared with one computed on
 * the host. Host-buildable (kernel/crc32.c).
 *
 *	uint32_t c = crc32(0, buf, len);	// == zlib.crc32(buf)
 *	c = crc32(c, more, more_len);		// continue over the next bytes
 */
#ifndef KERNEL_CRC32_H
#define KERNEL_CRC32_H

#include "kernel/types.h"

uint32_t crc32(uint32_t crc, const void *buf, size_t len);
/* Whether crc32() folds with PCLMULQDQ on this CPU (else slicing-by-8 tables). */
bool crc32_uses_clmul(void);

#endif
