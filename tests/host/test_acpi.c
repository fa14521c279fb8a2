/*
 * Finding the ACPI PM timer (kernel/acpi.c) in crafted firmware memory:
 * ACPI 1.0 (RSDP in the BIOS area, RSDT, a 116-byte FADT) and 2.0 (RSDP
 * in the EBDA, XSDT, X_PM_TMR_BLK) layouts are read; a bad checksum,
 * length or address anywhere on the way is refused with a reason, never
 * read past, and a decoy RSDP with a bad checksum is skipped. Host-only
 * (2 MiB of fake firmware memory); tests/qemu/clock.t reads QEMU's tables.
 */
#include <string.h>

#include "kernel/acpi.h"
#include "kernel/ktest.h"

#define MEM_SIZE (2u << 20) /* the first 2 MiB of "physical memory" */
#define RSDT_AT	 0x180000
#define FADT_AT	 0x181000
#define APIC_AT	 0x182000

static uint8_t mem[MEM_SIZE];

static const void *fake_map(uint64_t phys, size_t len, void *ctx)
{
	(void)ctx;
	if (phys + len < phys || phys + len > MEM_SIZE)
		return NULL;
	return mem + phys;
}

static void put32(uint64_t at, uint32_t v)
{
	memcpy(mem + at, &v, 4);
}

static void put64(uint64_t at, uint64_t v)
{
	memcpy(mem + at, &v, 8);
}

static uint8_t sum(uint64_t at, size_t len)
{
	uint8_t s = 0;

	for (size_t i = 0; i < len; i++)
		s = (uint8_t)(s + mem[at + i]);
	return s;
}

/* A table header at @at: signature, length, and the checksum over @len made right. */
static void table(uint64_t at, const char *sig, uint32_t len)
{
	memcpy(mem + at, sig, 4);
	put32(at + 4, len);
	mem[at + 8] = 1;
	mem[at + 9] = 0;
	memcpy(mem + at + 10, "LKAHD ", 6);
	mem[at + 9] = (uint8_t)-sum(at, len);
}

static void rsdp(uint64_t at, int revision, uint32_t rsdt, uint64_t xsdt)
{
	memcpy(mem + at, "RSD PTR ", 8);
	mem[at + 8] = 0;
	memcpy(mem + at + 9, "LKAHD ", 6);
	mem[at + 15] = (uint8_t)revision;
	put32(at + 16, rsdt);
	mem[at + 8] = (uint8_t)-sum(at, 20);
	if (revision >= 2) {
		put32(at + 20, 36);
		put64(at + 24, xsdt);
		mem[at + 32] = 0;
		mem[at + 32] = (uint8_t)-sum(at, 36);
	}
}

/* ACPI 1.0: RSDP at 0xf0000, an RSDT listing an APIC table and a 116-byte FADT. */
static void acpi1(uint32_t pm_port, uint8_t pm_len, uint32_t flags)
{
	memset(mem, 0, MEM_SIZE);
	table(APIC_AT, "APIC", 44);
	memset(mem + FADT_AT, 0, 116);
	put32(FADT_AT + 76, pm_port);
	mem[FADT_AT + 91] = pm_len;
	put32(FADT_AT + 112, flags);
	table(FADT_AT, "FACP", 116);
	put32(RSDT_AT + 36, APIC_AT);
	put32(RSDT_AT + 40, FADT_AT);
	table(RSDT_AT, "RSDT", 44);
	rsdp(0xf0000, 0, RSDT_AT, 0);
}

static int find(struct acpi_pm_timer *pm, char *why, size_t len)
{
	why[0] = 0;
	return acpi_find_pm_timer(fake_map, NULL, pm, why, len);
}

static void test_acpi1_rsdt(struct ktest *t)
{
	struct acpi_pm_timer pm;
	char why[160];

	acpi1(0x408, 4, 0);
	KT_ASSERT_EQ(t, find(&pm, why, sizeof(why)), 0);
	KT_EXPECT_EQ(t, pm.port, 0x408);
	KT_EXPECT_TRUE(t, !pm.bits32);
	KT_EXPECT_EQ(t, pm.fadt, FADT_AT);
	KT_EXPECT_EQ(t, pm.revision, 0);
	/* the 32-bit flag */
	acpi1(0x408, 4, 1u << 8);
	KT_ASSERT_EQ(t, find(&pm, why, sizeof(why)), 0);
	KT_EXPECT_TRUE(t, pm.bits32);
}

/* ACPI 2.0: the RSDP in the EBDA (segment at 0x40e), an XSDT, X_PM_TMR_BLK in I/O space. */
static void test_acpi2_xsdt_in_ebda(struct ktest *t)
{
	struct acpi_pm_timer pm;
	char why[160];

	memset(mem, 0, MEM_SIZE);
	mem[0x40e] = 0xc0; /* segment 0x9fc0: the EBDA at 0x9fc00 */
	mem[0x40f] = 0x9f;
	memset(mem + FADT_AT, 0, 244);
	put32(FADT_AT + 76, 0x408);
	mem[FADT_AT + 91] = 4;
	put32(FADT_AT + 112, 1u << 8);
	mem[FADT_AT + 208] = 1; /* system I/O */
	mem[FADT_AT + 209] = 32;
	put64(FADT_AT + 212, 0x608);
	table(FADT_AT, "FACP", 244);
	put64(RSDT_AT + 36, FADT_AT);
	table(RSDT_AT, "XSDT", 44);
	rsdp(0x9fc00 + 0x40, 2, 0, RSDT_AT);
	KT_ASSERT_EQ(t, find(&pm, why, sizeof(why)), 0);
	KT_EXPECT_EQ(t, pm.port, 0x608);
	KT_EXPECT_TRUE(t, pm.bits32);
	KT_EXPECT_EQ(t, pm.revision, 2);
	/* X_PM_TMR_BLK in memory space: the legacy port is used */
	mem[FADT_AT + 208] = 0;
	table(FADT_AT, "FACP", 244);
	KT_ASSERT_EQ(t, find(&pm, why, sizeof(why)), 0);
	KT_EXPECT_EQ(t, pm.port, 0x408);
	/* a bad extended checksum: that RSDP is not taken, and there is no other */
	mem[0x9fc00 + 0x40 + 32]++;
	KT_EXPECT_EQ(t, find(&pm, why, sizeof(why)), -ENODEV);
	KT_EXPECT_TRUE(t, strstr(why, "no RSDP") != NULL);
}

static void test_decoy_rsdp_skipped(struct ktest *t)
{
	struct acpi_pm_timer pm;
	char why[160];

	acpi1(0x408, 4, 0);
	memcpy(mem + 0xe0000, "RSD PTR ", 8); /* checksum not made */
	mem[0xe0008] = 0x55;
	KT_ASSERT_EQ(t, find(&pm, why, sizeof(why)), 0);
	KT_EXPECT_EQ(t, pm.port, 0x408);
}

static void test_bad_tables_refused(struct ktest *t)
{
	struct acpi_pm_timer pm;
	char why[160];

	memset(mem, 0, MEM_SIZE);
	KT_EXPECT_EQ(t, find(&pm, why, sizeof(why)), -ENODEV);
	KT_EXPECT_TRUE(t, strstr(why, "no RSDP") != NULL);

	acpi1(0x408, 4, 0);
	mem[RSDT_AT + 20]++;
	KT_EXPECT_EQ(t, find(&pm, why, sizeof(why)), -ENODEV);
	KT_EXPECT_TRUE(t, strstr(why, "RSDT") && strstr(why, "bad checksum"));

	acpi1(0x408, 4, 0);
	mem[FADT_AT + 100]++;
	KT_EXPECT_EQ(t, find(&pm, why, sizeof(why)), -ENODEV);
	KT_EXPECT_TRUE(t, strstr(why, "FACP") && strstr(why, "bad checksum"));

	/* an RSDT claiming a length no RSDT has, or running past the readable memory */
	acpi1(0x408, 4, 0);
	put32(RSDT_AT + 4, MEM_SIZE);
	KT_EXPECT_EQ(t, find(&pm, why, sizeof(why)), -ENODEV);
	KT_EXPECT_TRUE(t, strstr(why, "length 2097152") != NULL);
	acpi1(0x408, 4, 0);
	put32(RSDT_AT + 4, 0xfffff);
	KT_EXPECT_EQ(t, find(&pm, why, sizeof(why)), -ENODEV);
	KT_EXPECT_TRUE(t, strstr(why, "bytes are not readable") != NULL);

	/* a length shorter than a header */
	acpi1(0x408, 4, 0);
	put32(RSDT_AT + 4, 12);
	KT_EXPECT_EQ(t, find(&pm, why, sizeof(why)), -ENODEV);
	KT_EXPECT_TRUE(t, strstr(why, "length 12") != NULL);

	/* a FADT shorter than ACPI 1.0's, with a valid checksum */
	acpi1(0x408, 4, 0);
	table(FADT_AT, "FACP", 100);
	KT_EXPECT_EQ(t, find(&pm, why, sizeof(why)), -ENODEV);
	KT_EXPECT_TRUE(t, strstr(why, "less than ACPI 1.0's") != NULL);

	/* the RSDP pointing outside memory */
	acpi1(0x408, 4, 0);
	rsdp(0xf0000, 0, 0xfffffff0u, 0);
	KT_EXPECT_EQ(t, find(&pm, why, sizeof(why)), -ENODEV);
	KT_EXPECT_TRUE(t, strstr(why, "not readable") != NULL);
}

static void test_no_pm_timer(struct ktest *t)
{
	struct acpi_pm_timer pm;
	char why[160];

	acpi1(0, 0, 0);
	KT_EXPECT_EQ(t, find(&pm, why, sizeof(why)), -ENODEV);
	KT_EXPECT_TRUE(t, strstr(why, "no PM timer") != NULL);
	acpi1(0x408, 2, 0);
	KT_EXPECT_EQ(t, find(&pm, why, sizeof(why)), -ENODEV);
	KT_EXPECT_TRUE(t, strstr(why, "not 4") != NULL);
	/* an RSDT without a FADT */
	acpi1(0x408, 4, 0);
	put32(RSDT_AT + 40, APIC_AT);
	table(RSDT_AT, "RSDT", 44);
	KT_EXPECT_EQ(t, find(&pm, why, sizeof(why)), -ENODEV);
	KT_EXPECT_TRUE(t, strstr(why, "lists no FADT") != NULL);
}

KTEST_SUITE(acpi, NULL, KTEST_CASE(test_acpi1_rsdt), KTEST_CASE(test_acpi2_xsdt_in_ebda),
	    KTEST_CASE(test_decoy_rsdp_skipped), KTEST_CASE(test_bad_tables_refused),
	    KTEST_CASE(test_no_pm_timer));
