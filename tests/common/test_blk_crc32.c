/*
 * crc32 against values computed with Python's zlib.crc32: the check
 * string, the empty buffer, every alignment and length around the
 * 8-byte inner loop, and chaining (crc32(crc32(0, a), b) == crc32(0, ab)).
 */
#include <stdio.h>
#include <string.h>

#include "kernel/crc32.h"
#include "kernel/ktest.h"

static void test_crc32_known(struct ktest *t)
{
	KT_EXPECT_EQ(t, crc32(0, "123456789", 9), 0xcbf43926u);
	KT_EXPECT_EQ(t, crc32(0, "", 0), 0u);
	KT_EXPECT_EQ(t, crc32(0, "a", 1), 0xe8b7be43u);
}

static uint8_t pattern[1000];

static void fill_pattern(void)
{
	for (unsigned int i = 0; i < sizeof(pattern); i++)
		pattern[i] = (uint8_t)(i * 7 + 3);
}

static void test_crc32_pattern(struct ktest *t)
{
	fill_pattern();
	/* python3: zlib.crc32(bytes((i*7+3)&0xff for i in range(1000))) */
	KT_EXPECT_EQ(t, crc32(0, pattern, 1000), 0x17bc2a46u);
	/* ...and of d[1:997]: an unaligned start and an odd tail */
	KT_EXPECT_EQ(t, crc32(0, pattern + 1, 996), 0x05044133u);
}

/* The sliced loop must agree with a plain bitwise CRC at every alignment. */
static uint32_t crc32_bitwise_from(uint32_t c, const uint8_t *p, size_t len)
{
	while (len--) {
		c ^= *p++;
		for (int k = 0; k < 8; k++)
			c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
	}
	return c;
}

static uint32_t crc32_bitwise(const uint8_t *p, size_t len)
{
	return ~crc32_bitwise_from(0xffffffffu, p, len);
}

static void test_crc32_alignments(struct ktest *t)
{
	fill_pattern();
	for (size_t off = 0; off < 9; off++)
		for (size_t len = 0; len < 40; len++)
			if (crc32(0, pattern + off, len) != crc32_bitwise(pattern + off, len)) {
				KT_FAIL(t, "crc32 mismatch at offset %zu length %zu", off, len);
				return;
			}
}

/*
 * The folding path (runs of 64 bytes and more when the CPU has PCLMULQDQ):
 * every length from 0 to 600 at every alignment to 16, and long runs, against
 * the bitwise CRC; the same lengths go through the tables on a CPU without it.
 */
static void test_crc32_long_runs(struct ktest *t)
{
	static uint8_t big[4096 + 32];

	for (unsigned int i = 0; i < sizeof(big); i++)
		big[i] = (uint8_t)(i * 2654435761u >> 13);
	printf("    # crc32: %s\n", crc32_uses_clmul() ? "PCLMULQDQ folding" : "slicing-by-8 tables");
	for (size_t off = 0; off < 16; off++)
		for (size_t len = 0; len <= 600; len++)
			if (crc32(0, big + off, len) != crc32_bitwise(big + off, len)) {
				KT_FAIL(t, "crc32 mismatch at offset %zu length %zu", off, len);
				return;
			}
	for (size_t len = 1000; len <= 4096; len += 333)
		KT_EXPECT_EQ(t, crc32(0x12345678u, big + 3, len),
			     ~crc32_bitwise_from(~0x12345678u, big + 3, len));
}

static void test_crc32_chaining(struct ktest *t)
{
	fill_pattern();
	for (size_t split = 0; split <= 1000; split += 37) {
		uint32_t c = crc32(0, pattern, split);

		c = crc32(c, pattern + split, 1000 - split);
		KT_EXPECT_EQ(t, c, 0x17bc2a46u);
	}
}

KTEST_SUITE(blk_crc32, NULL, KTEST_CASE(test_crc32_known), KTEST_CASE(test_crc32_pattern),
	    KTEST_CASE(test_crc32_alignments), KTEST_CASE(test_crc32_long_runs),
	    KTEST_CASE(test_crc32_chaining));
