/*
 * zlib-compatible CRC-32 with slicing-by-8 tables: eight 256-entry tables
 * let the loop consume 8 bytes per step, which matters because rawread
 * checksums everything it reads and TCG makes byte-at-a-time table lookups
 * slower than the emulated disk. When the CPU has PCLMULQDQ (Westmere and
 * later; not the seeds' Core 2), runs of 64 bytes and more are folded with
 * carry-less multiplies instead (Gopal et al., "Fast CRC Computation for
 * Generic Polynomials Using PCLMULQDQ Instruction", Intel, 2009): four
 * 128-bit lanes folded 64 bytes at a time, folded into one, reduced to 64
 * bits and then to 32 by Barrett reduction. No table lookups, which is what
 * TCG makes expensive.
 *
 * The tables are built on first use; building is idempotent, so a thread
 * switch or a second caller in the middle cannot produce a wrong table.
 */
#include <cpuid.h>
#include <string.h>

#include "kernel/crc32.h"

#if defined(__x86_64__)
#include <emmintrin.h>
#include <wmmintrin.h>
#define HAVE_CLMUL_PATH 1
#endif

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

#ifdef HAVE_CLMUL_PATH
/*
 * The folding constants for the bit-reflected polynomial 0xEDB88320 (from
 * the paper): x^(4*128+32) and x^(4*128-32) mod P for folding four lanes,
 * x^(128+32) and x^(128-32) mod P for one, x^64 mod P for 128 -> 64 bits,
 * and P and floor(x^64 / P) for the Barrett reduction; each bit-reflected
 * and shifted left by one.
 */
#define K1 0x154442bd4ULL
#define K2 0x1c6e41596ULL
#define K3 0x1751997d0ULL
#define K4 0x0ccaa009eULL
#define K5 0x163cd6124ULL
#define P_X 0x1db710641ULL
#define U_X 0x1f7011641ULL

/* @len a multiple of 16, at least 64; @crc and the result are the inverted running CRC. */
__attribute__((target("pclmul,sse2"))) static uint32_t crc32_clmul(uint32_t crc, const uint8_t *p,
								   size_t len)
{
	__m128i x0, x1, x2, x3, x4, x5, x6, x7, x8, y5, y6, y7, y8;
	const __m128i mask32 = _mm_setr_epi32(~0, 0, ~0, 0);

	x1 = _mm_loadu_si128((const __m128i *)(p + 0x00));
	x2 = _mm_loadu_si128((const __m128i *)(p + 0x10));
	x3 = _mm_loadu_si128((const __m128i *)(p + 0x20));
	x4 = _mm_loadu_si128((const __m128i *)(p + 0x30));
	x1 = _mm_xor_si128(x1, _mm_cvtsi32_si128((int)crc));
	x0 = _mm_set_epi64x((long long)K2, (long long)K1);
	p += 64;
	len -= 64;
	/* four lanes, 64 bytes a step */
	while (len >= 64) {
		x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
		x6 = _mm_clmulepi64_si128(x2, x0, 0x00);
		x7 = _mm_clmulepi64_si128(x3, x0, 0x00);
		x8 = _mm_clmulepi64_si128(x4, x0, 0x00);
		x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
		x2 = _mm_clmulepi64_si128(x2, x0, 0x11);
		x3 = _mm_clmulepi64_si128(x3, x0, 0x11);
		x4 = _mm_clmulepi64_si128(x4, x0, 0x11);
		y5 = _mm_loadu_si128((const __m128i *)(p + 0x00));
		y6 = _mm_loadu_si128((const __m128i *)(p + 0x10));
		y7 = _mm_loadu_si128((const __m128i *)(p + 0x20));
		y8 = _mm_loadu_si128((const __m128i *)(p + 0x30));
		x1 = _mm_xor_si128(_mm_xor_si128(x1, x5), y5);
		x2 = _mm_xor_si128(_mm_xor_si128(x2, x6), y6);
		x3 = _mm_xor_si128(_mm_xor_si128(x3, x7), y7);
		x4 = _mm_xor_si128(_mm_xor_si128(x4, x8), y8);
		p += 64;
		len -= 64;
	}
	/* the four lanes into one */
	x0 = _mm_set_epi64x((long long)K4, (long long)K3);
	x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
	x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
	x1 = _mm_xor_si128(_mm_xor_si128(x1, x2), x5);
	x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
	x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
	x1 = _mm_xor_si128(_mm_xor_si128(x1, x3), x5);
	x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
	x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
	x1 = _mm_xor_si128(_mm_xor_si128(x1, x4), x5);
	/* the rest, 16 bytes a step */
	while (len >= 16) {
		x2 = _mm_loadu_si128((const __m128i *)p);
		x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
		x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
		x1 = _mm_xor_si128(_mm_xor_si128(x1, x2), x5);
		p += 16;
		len -= 16;
	}
	/* 128 bits to 64 */
	x2 = _mm_clmulepi64_si128(x1, x0, 0x10);
	x1 = _mm_xor_si128(_mm_srli_si128(x1, 8), x2);
	x0 = _mm_set_epi64x(0, (long long)K5);
	x2 = _mm_srli_si128(x1, 4);
	x1 = _mm_and_si128(x1, mask32);
	x1 = _mm_clmulepi64_si128(x1, x0, 0x00);
	x1 = _mm_xor_si128(x1, x2);
	/* Barrett reduction to 32 bits */
	x0 = _mm_set_epi64x((long long)U_X, (long long)P_X);
	x2 = _mm_and_si128(x1, mask32);
	x2 = _mm_clmulepi64_si128(x2, x0, 0x10);
	x2 = _mm_and_si128(x2, mask32);
	x2 = _mm_clmulepi64_si128(x2, x0, 0x00);
	x1 = _mm_xor_si128(x1, x2);
	return (uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(x1, 4));
}

static int have_clmul = -1;

static bool clmul_usable(void)
{
	if (have_clmul < 0) {
		unsigned int a, b, c, d;

		have_clmul = __get_cpuid(1, &a, &b, &c, &d) && (c & bit_PCLMUL);
	}
	return have_clmul;
}

bool crc32_uses_clmul(void)
{
	return clmul_usable();
}
#else
bool crc32_uses_clmul(void)
{
	return false;
}
#endif

uint32_t crc32(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	if (!crc_table_ready)
		crc32_build_tables();
	crc = ~crc;
#ifdef HAVE_CLMUL_PATH
	if (len >= 64 && clmul_usable()) {
		size_t bulk = len & ~(size_t)15;

		crc = crc32_clmul(crc, p, bulk);
		p += bulk;
		len -= bulk;
	}
#endif
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
