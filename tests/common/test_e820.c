/*
 * Sanitizing the firmware's memory map (kernel/e820.c): maps of real
 * machines from public bug reports come through unchanged (and sorted
 * when shuffled); crafted overlapping, nested, unsorted, duplicated,
 * zero-length and out-of-range entries come out sorted and disjoint with
 * the more restrictive type winning; and seeded random maps agree, page by
 * page, with the type a brute-force scan finds.
 */
#include <string.h>

#include "kernel/e820.h"
#include "kernel/ktest.h"
#include "kernel/prandom.h"

#define U MEM_USABLE
#define R MEM_RESERVED
#define A MEM_ACPI
#define N MEM_NVS
#define B MEM_BAD

/* [base, end) in the tables below, as the old "BIOS-e820: A - B" lines print them. */
struct span {
	uint64_t base, end;
	uint32_t type;
};

#define MAXN 64

static int to_regions(const struct span *s, int n, struct boot_region *r)
{
	for (int i = 0; i < n; i++)
		r[i] = (struct boot_region){s[i].base, s[i].end - s[i].base, s[i].type};
	return n;
}

/* Sanitize @in and expect exactly @want (@nwant entries); returns the report. */
static struct e820_report expect_map(struct ktest *t, const struct span *in, int n,
				     const struct span *want, int nwant)
{
	struct boot_region rin[MAXN], out[2 * MAXN];
	struct e820_report rep;
	int got = e820_sanitize(rin, to_regions(in, n, rin), out, 2 * MAXN, &rep);

	KT_EXPECT_EQ(t, got, nwant);
	for (int i = 0; i < got && i < nwant; i++) {
		if (out[i].base != want[i].base || out[i].base + out[i].len != want[i].end ||
		    out[i].type != want[i].type) {
			KT_FAIL(t, "entry %d: got %#llx-%#llx %s, want %#llx-%#llx %s", i,
				(unsigned long long)out[i].base,
				(unsigned long long)(out[i].base + out[i].len),
				mem_type_name(out[i].type), (unsigned long long)want[i].base,
				(unsigned long long)want[i].end, mem_type_name(want[i].type));
			break;
		}
	}
	KT_EXPECT_EQ(t, rep.in, n);
	KT_EXPECT_EQ(t, rep.out, got);
	return rep;
}

/*
 * Packard Bell NEC MS-7168 (BIOS 080012, 07/20/2005: the seeds' era), from
 * the dmesg in OpenELEC/OpenELEC.tv issue #331 (Linux 3.2.9's "BIOS-e820:
 * A - B" lines, ends exclusive).
 */
static const struct span ms7168[] = {
	{0x0, 0x9fc00, U},
	{0x9fc00, 0xa0000, R},
	{0xe4000, 0x100000, R},
	{0x100000, 0x7ffd0000, U},
	{0x7ffd0000, 0x7ffde000, A},
	{0x7ffde000, 0x80000000, N},
	{0xff780000, 0x100000000, R},
};

/*
 * Intel S3420GPV server board: the raw INT 15h E820 entries (base, length,
 * type) as a DOS program read them from the BIOS, in memtest86plus issue
 * #409 ("hangs on S3420GPV because tests a forbidden range").
 */
static const struct span s3420gpv[] = {
	{0x0, 0x9b000, U},
	{0x9b000, 0x9b000 + 0x5000, R},
	{0xe0000, 0xe0000 + 0x20000, R},
	{0x100000, 0x100000 + 0x9b71f000, U},
	{0x9b81f000, 0x9b81f000 + 0x1f00000, R},
	{0x9d71f000, 0x9d71f000 + 0x21000, U},
	{0x9d740000, 0x9d740000 + 0xd4000, N},
	{0x9d814000, 0x9d814000 + 0x1e90000, A},
	{0x9f6a4000, 0x9f6a4000 + 0x3b000, R},
	{0x9f6df000, 0x9f6df000 + 0xab000, A},
	{0x9f78a000, 0x9f78a000 + 0x55000, N},
	{0x9f7df000, 0x9f7df000 + 0x21000, A},
	{0x9f800000, 0x9f800000 + 0x10800000, R},
	{0xfed1c000, 0xfed1c000 + 0x4000, R},
	{0xff800000, 0xff800000ULL + 0x800000, R},
	{0x100000000, 0x100000000 + 0x5c000000, U},
};

/*
 * A PC whose map starts with an ACPI NVS page at 0, from the dmesg in
 * home-assistant/operating-system issue #1634 ("[mem A-B]" lines, ends
 * inclusive, converted here to exclusive).
 */
static const struct span ha1634[] = {
	{0x0, 0x1000, N},	   {0x1000, 0xa0000, U},       {0xc0000, 0x100000, R},
	{0x100000, 0xcfa9000, U},  {0xcfa9000, 0xcfb2000, R},  {0xcfb2000, 0xcfc5000, U},
	{0xcfc5000, 0xcfcb000, R}, {0xcfcb000, 0xcfdb000, U},  {0xcfdb000, 0xcfe0000, R},
	{0xcfe0000, 0xdef9000, U}, {0xdef9000, 0xdf69000, R},  {0xdf69000, 0xdf85000, A},
	{0xdf85000, 0xdf89000, N}, {0xdf89000, 0x80000000, U}, {0xffc00000, 0xffc2a000, R},
};

static void test_real_maps_unchanged(struct ktest *t)
{
	struct e820_report rep;

	rep = expect_map(t, ms7168, ARRAY_SIZE(ms7168), ms7168, ARRAY_SIZE(ms7168));
	KT_EXPECT_TRUE(t, !rep.unsorted && !rep.overlapping && !rep.empty);
	rep = expect_map(t, s3420gpv, ARRAY_SIZE(s3420gpv), s3420gpv, ARRAY_SIZE(s3420gpv));
	KT_EXPECT_TRUE(t, !rep.unsorted && !rep.overlapping && !rep.empty);
	rep = expect_map(t, ha1634, ARRAY_SIZE(ha1634), ha1634, ARRAY_SIZE(ha1634));
	KT_EXPECT_TRUE(t, !rep.unsorted && !rep.overlapping && !rep.empty);
}

/* The S3420GPV's entries in reverse, and interleaved: sorted again. */
static void test_unsorted(struct ktest *t)
{
	struct span rev[ARRAY_SIZE(s3420gpv)], mixed[ARRAY_SIZE(s3420gpv)];
	int n = ARRAY_SIZE(s3420gpv), k = 0;
	struct e820_report rep;

	for (int i = 0; i < n; i++)
		rev[i] = s3420gpv[n - 1 - i];
	for (int i = 0; i < n; i += 2)
		mixed[k++] = s3420gpv[i];
	for (int i = n - 1 - (n % 2 == 0 ? 0 : 1); i > 0; i -= 2)
		mixed[k++] = s3420gpv[i];
	KT_ASSERT_EQ(t, k, n);
	rep = expect_map(t, rev, n, s3420gpv, n);
	KT_EXPECT_TRUE(t, rep.unsorted);
	KT_EXPECT_EQ(t, rep.overlapping, 0);
	rep = expect_map(t, mixed, n, s3420gpv, n);
	KT_EXPECT_TRUE(t, rep.unsorted);
}

/*
 * The MS-7168's map as a buggy BIOS could give it: its ACPI data range
 * also reported 64 KiB lower, overlapping the usable RAM below it, and its
 * NVS range overlapping the ACPI data: the restrictive types win.
 */
static void test_overlaps(struct ktest *t)
{
	static const struct span in[] = {
		{0x0, 0x9fc00, U},
		{0x9fc00, 0xa0000, R},
		{0xe4000, 0x100000, R},
		{0x100000, 0x7ffd0000, U},
		{0x7ffc0000, 0x7ffde000, A},
		{0x7ffd8000, 0x80000000, N},
		{0xff780000, 0x100000000, R},
	};
	static const struct span want[] = {
		{0x0, 0x9fc00, U},
		{0x9fc00, 0xa0000, R},
		{0xe4000, 0x100000, R},
		{0x100000, 0x7ffc0000, U},
		{0x7ffc0000, 0x7ffd8000, A},
		{0x7ffd8000, 0x80000000, N},
		{0xff780000, 0x100000000, R},
	};
	/* usable overlapping usable, and a reserved range straddling two usable ones */
	static const struct span in2[] = {
		{0x100000, 0x800000, U},
		{0x400000, 0xc00000, U},
		{0xb00000, 0x1100000, R},
		{0x1000000, 0x2000000, U},
	};
	static const struct span want2[] = {
		{0x100000, 0xb00000, U},
		{0xb00000, 0x1100000, R},
		{0x1100000, 0x2000000, U},
	};
	struct e820_report rep = expect_map(t, in, ARRAY_SIZE(in), want, ARRAY_SIZE(want));

	KT_EXPECT_EQ(t, rep.overlapping, 3);
	KT_EXPECT_TRUE(t, !rep.unsorted);
	rep = expect_map(t, in2, ARRAY_SIZE(in2), want2, ARRAY_SIZE(want2));
	KT_EXPECT_EQ(t, rep.overlapping, 4);
}

/* A reserved range inside usable RAM splits it; usable inside reserved is no RAM at all. */
static void test_nested(struct ktest *t)
{
	static const struct span in[] = {
		{0x100000, 0x8000000, U},    {0x3000000, 0x3100000, R},	  /* reserved in usable */
		{0x3040000, 0x3041000, N},				  /* and NVS in that */
		{0xfec00000, 0xff000000, R}, {0xfec10000, 0xfec20000, U}, /* usable in reserved */
	};
	static const struct span want[] = {
		{0x100000, 0x3000000, U},  {0x3000000, 0x3040000, R}, {0x3040000, 0x3041000, N},
		{0x3041000, 0x3100000, R}, {0x3100000, 0x8000000, U}, {0xfec00000, 0xff000000, R},
	};
	struct e820_report rep = expect_map(t, in, ARRAY_SIZE(in), want, ARRAY_SIZE(want));

	KT_EXPECT_EQ(t, rep.overlapping, 5);
}

/* Empty entries anywhere (even inside others) leave no mark; duplicates and neighbours merge. */
static void test_zero_length_duplicates_neighbours(struct ktest *t)
{
	static const struct span in[] = {
		{0x0, 0x9fc00, U},	 {0x5000, 0x5000, R},	  {0x9fc00, 0x9fc00, B},
		{0x9fc00, 0xa0000, R},	 {0x9fc00, 0xa0000, R},	  {0x100000, 0x200000, U},
		{0x200000, 0x300000, U}, {0x300000, 0x300000, A}, {0x300000, 0x400000, U},
		{0x100000, 0x200000, U},
	};
	static const struct span want[] = {
		{0x0, 0x9fc00, U},
		{0x9fc00, 0xa0000, R},
		{0x100000, 0x400000, U},
	};
	struct e820_report rep = expect_map(t, in, ARRAY_SIZE(in), want, ARRAY_SIZE(want));

	KT_EXPECT_EQ(t, rep.empty, 3);
	KT_EXPECT_EQ(t, rep.overlapping, 4); /* the two duplicated pairs */
	KT_EXPECT_TRUE(t, rep.unsorted);
}

/* Precedence: bad > NVS > ACPI data > reserved > usable; unknown types are reserved. */
static void test_type_precedence(struct ktest *t)
{
	static const struct span in[] = {
		{0x0, 0x10000, U},     {0x1000, 0xf000, R}, {0x2000, 0xe000, A},
		{0x3000, 0xd000, N},   {0x4000, 0xc000, B}, {0x20000, 0x30000, 20},
		{0x20000, 0x28000, U},
	};
	static const struct span want[] = {
		{0x0, 0x1000, U},      {0x1000, 0x2000, R}, {0x2000, 0x3000, A},
		{0x3000, 0x4000, N},   {0x4000, 0xc000, B}, {0xc000, 0xd000, N},
		{0xd000, 0xe000, A},   {0xe000, 0xf000, R}, {0xf000, 0x10000, U},
		{0x20000, 0x30000, R},
	};

	expect_map(t, in, ARRAY_SIZE(in), want, ARRAY_SIZE(want));
}

/* An entry whose end wraps past 2^64 is cut at the last page; too small an output is refused. */
static void test_limits(struct ktest *t)
{
	struct boot_region in[3] = {
		{0x100000, 0x1000000, U},
		{0xfffffffff0000000ULL, 0x20000000, R},
		{0x2000000, 0x1000000, U},
	};
	struct boot_region out[4];
	struct e820_report rep;

	KT_ASSERT_EQ(t, e820_sanitize(in, 3, out, 4, &rep), 3);
	KT_EXPECT_EQ(t, rep.clipped, 1);
	KT_EXPECT_EQ(t, out[2].base, 0xfffffffff0000000ULL);
	KT_EXPECT_EQ(t, out[2].base + out[2].len, 0xfffffffffffff000ULL);
	KT_EXPECT_EQ(t, e820_sanitize(in, 3, out, 2, &rep), -ENOSPC);
	KT_EXPECT_EQ(t, e820_sanitize(in, 0, out, 4, &rep), 0);
}

/* Nested entries of alternating types: the worst case, 2n - 1 entries out of n. */
static void test_worst_case(struct ktest *t)
{
	struct boot_region in[MAXN], out[2 * MAXN];
	struct e820_report rep;

	for (int i = 0; i < MAXN; i++)
		in[i] = (struct boot_region){(uint64_t)i << 12,
					     (uint64_t)(2 * (MAXN - i) - 1) << 12, i % 2 ? R : U};
	/* types must rise inwards for every level to show: U, R, A, N, B, then bad all the way */
	for (int i = 0; i < 5; i++)
		in[i].type = (uint32_t)(U + i);
	KT_EXPECT_EQ(t, e820_sanitize(in, 5, out, 2 * MAXN, &rep), 9);
	KT_EXPECT_EQ(t, e820_sanitize(in, 5, out, 8, &rep), -ENOSPC);
	KT_EXPECT_GE(t, e820_sanitize(in, MAXN, out, 2 * MAXN, &rep), 1);
}

/*
 * Random maps of up to 24 entries over 64 pages (ends not always on page
 * boundaries: quarter pages): every quarter page's type in the output is
 * the highest type of the input entries covering it; the output is sorted,
 * disjoint, with no empty entry and no two touching entries of one type.
 */
static void test_random_against_brute_force(struct ktest *t)
{
	enum { Q = 0x400, SPACE = 256 }; /* quarter pages, in a 256-quarter space */
	uint64_t seed = 0x0e820e820ULL;
	int bad = 0;

	for (int round = 0; round < 2000 && !bad; round++) {
		struct boot_region in[24], out[48];
		uint32_t want[SPACE], got[SPACE];
		struct e820_report rep;
		int n = (int)(prandom_u64(&seed) % 24), m;

		memset(want, 0, sizeof(want));
		memset(got, 0, sizeof(got));
		for (int i = 0; i < n; i++) {
			uint64_t a = prandom_u64(&seed) % SPACE;
			uint64_t l = prandom_u64(&seed) % 5 ? prandom_u64(&seed) % 48 : 0;
			uint32_t type = (uint32_t)(prandom_u64(&seed) % 6); /* 0: an undefined type */

			if (a + l > SPACE)
				l = SPACE - a;
			in[i] = (struct boot_region){a * Q, l * Q, type};
			for (uint64_t q = a; q < a + l; q++)
				if ((type ? type : R) > want[q])
					want[q] = type ? type : R;
		}
		m = e820_sanitize(in, n, out, 48, &rep);
		if (m < 0 || m > 2 * n) {
			KT_FAIL(t, "round %d: %d entries from %d", round, m, n);
			return;
		}
		for (int i = 0; i < m; i++) {
			if (!out[i].len || out[i].base % Q || out[i].len % Q ||
			    (i && out[i].base < out[i - 1].base + out[i - 1].len) ||
			    (i && out[i].base == out[i - 1].base + out[i - 1].len &&
			     out[i].type == out[i - 1].type))
				bad++;
			for (uint64_t q = out[i].base / Q; q < (out[i].base + out[i].len) / Q; q++)
				got[q] = out[i].type;
		}
		if (memcmp(want, got, sizeof(want)))
			bad++;
		if (bad)
			KT_FAIL(t, "round %d (%d entries): the output differs from the scan", round,
				n);
	}
	KT_EXPECT_EQ(t, bad, 0);
}

KTEST_SUITE(e820, NULL, KTEST_CASE(test_real_maps_unchanged), KTEST_CASE(test_unsorted),
	    KTEST_CASE(test_overlaps), KTEST_CASE(test_nested),
	    KTEST_CASE(test_zero_length_duplicates_neighbours), KTEST_CASE(test_type_precedence),
	    KTEST_CASE(test_limits), KTEST_CASE(test_worst_case),
	    KTEST_CASE(test_random_against_brute_force));
