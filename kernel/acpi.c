/*
 * Finding the ACPI PM timer (see kernel/acpi.h), after the ACPI
 * specification (5.2.5 RSDP, 5.2.6 table header, 5.2.7/5.2.8 RSDT/XSDT,
 * 5.2.9 FADT). Fields are read with memcpy: tables are byte-aligned.
 */
#include <stdio.h>
#include <string.h>

#include "kernel/acpi.h"

#define SDT_HEADER_LEN	  36
#define RSDP_V1_LEN	  20
#define RSDP_V2_LEN	  36
#define FADT_PM_TMR_BLK	  76  /* u32: I/O port of the timer, 0 if none */
#define FADT_PM_TMR_LEN	  91  /* u8: 4 if there is a timer */
#define FADT_FLAGS	  112 /* u32 */
#define FADT_V1_LEN	  116 /* ACPI 1.0's FADT ends after the flags */
#define FADT_X_PM_TMR_BLK 208 /* generic address structure, 12 bytes (ACPI 2.0) */
#define FADT_TMR_VAL_EXT  (1u << 8)
#define GAS_SYSTEM_IO	  1
#define MAX_TABLE_LEN	  (1u << 20) /* no RSDT, XSDT or FADT comes near this */
#define MAX_SDT_ENTRIES	  256

static uint8_t sum(const uint8_t *p, size_t len)
{
	uint8_t s = 0;

	while (len--)
		s = (uint8_t)(s + *p++);
	return s;
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* A valid RSDP at @phys (its checksums hold), or NULL. */
static const uint8_t *rsdp_at(acpi_map_fn map, void *ctx, uint64_t phys)
{
	const uint8_t *p = map(phys, RSDP_V1_LEN, ctx);

	if (!p || memcmp(p, "RSD PTR ", 8) || sum(p, RSDP_V1_LEN))
		return NULL;
	if (p[15] >= 2) {
		const uint8_t *x = map(phys, RSDP_V2_LEN, ctx);

		/* ACPI 2.0's extended checksum covers the whole structure */
		if (!x || get32(x + 20) < RSDP_V2_LEN || get32(x + 20) > 4096)
			return NULL;
		x = map(phys, get32(x + 20), ctx);
		if (!x || sum(x, get32(x + 20)))
			return NULL;
		return x;
	}
	return p;
}

/* Search [@start, @start + @len) on 16-byte boundaries. */
static const uint8_t *rsdp_scan(acpi_map_fn map, void *ctx, uint64_t start, uint64_t len,
				uint64_t *where)
{
	for (uint64_t a = start; a + RSDP_V1_LEN <= start + len; a += 16) {
		const uint8_t *p = rsdp_at(map, ctx, a);

		if (p) {
			*where = a;
			return p;
		}
	}
	return NULL;
}

/* The table at @phys if its signature is @sig and its length and checksum hold. */
static const uint8_t *sdt_at(acpi_map_fn map, void *ctx, uint64_t phys, const char *sig, char *why,
			     size_t whylen)
{
	const uint8_t *h = map(phys, SDT_HEADER_LEN, ctx);
	uint32_t len;

	if (!h) {
		snprintf(why, whylen, "%s at %#llx: not readable", sig, (unsigned long long)phys);
		return NULL;
	}
	if (memcmp(h, sig, 4)) {
		snprintf(why, whylen, "%#llx: signature is not %s", (unsigned long long)phys, sig);
		return NULL;
	}
	len = get32(h + 4);
	if (len < SDT_HEADER_LEN || len > MAX_TABLE_LEN) {
		snprintf(why, whylen, "%s at %#llx: length %u", sig, (unsigned long long)phys, len);
		return NULL;
	}
	h = map(phys, len, ctx);
	if (!h) {
		snprintf(why, whylen, "%s at %#llx: its %u bytes are not readable", sig,
			 (unsigned long long)phys, len);
		return NULL;
	}
	if (sum(h, len)) {
		snprintf(why, whylen, "%s at %#llx: bad checksum", sig, (unsigned long long)phys);
		return NULL;
	}
	return h;
}

static int pm_timer_of(const uint8_t *fadt, struct acpi_pm_timer *out, char *why, size_t whylen)
{
	uint32_t len = get32(fadt + 4), port = get32(fadt + FADT_PM_TMR_BLK);

	if (len < FADT_V1_LEN) {
		snprintf(why, whylen, "the FADT is %u bytes, less than ACPI 1.0's %u", len,
			 FADT_V1_LEN);
		return -ENODEV;
	}
	out->bits32 = get32(fadt + FADT_FLAGS) & FADT_TMR_VAL_EXT;
	/* ACPI 2.0's X_PM_TMR_BLK, when given in I/O space, takes precedence */
	if (len >= FADT_X_PM_TMR_BLK + 12 && fadt[FADT_X_PM_TMR_BLK] == GAS_SYSTEM_IO &&
	    get64(fadt + FADT_X_PM_TMR_BLK + 4))
		port = (uint32_t)min(get64(fadt + FADT_X_PM_TMR_BLK + 4), (uint64_t)UINT32_MAX);
	else if (port && fadt[FADT_PM_TMR_LEN] != 4) {
		snprintf(why, whylen, "the FADT's PM timer block is %u bytes, not 4",
			 fadt[FADT_PM_TMR_LEN]);
		return -ENODEV;
	}
	if (!port || port > 0xfffc) {
		snprintf(why, whylen,
			 port ? "the FADT's PM timer port %#x is out of I/O space"
			      : "the FADT has no PM timer",
			 port);
		return -ENODEV;
	}
	out->port = (uint16_t)port;
	return 0;
}

int acpi_find_pm_timer(acpi_map_fn map, void *ctx, struct acpi_pm_timer *out, char *why,
		       size_t whylen)
{
	const uint8_t *rsdp = NULL, *sdt, *ebda_seg;
	uint64_t where = 0, table;
	bool xsdt;
	size_t esize;
	uint32_t n;

	memset(out, 0, sizeof(*out));
	/* the EBDA's segment is at 0x40e in the BIOS data area */
	ebda_seg = map(0x40e, 2, ctx);
	if (ebda_seg) {
		uint64_t ebda = (uint64_t)(ebda_seg[0] | ebda_seg[1] << 8) << 4;

		if (ebda >= 0x80000 && ebda < 0xa0000)
			rsdp = rsdp_scan(map, ctx, ebda, 1024, &where);
	}
	if (!rsdp)
		rsdp = rsdp_scan(map, ctx, 0xe0000, 0x20000, &where);
	if (!rsdp) {
		snprintf(why, whylen,
			 "no RSDP with a valid checksum in the EBDA or 0xe0000-0xfffff");
		return -ENODEV;
	}
	out->revision = rsdp[15];
	xsdt = rsdp[15] >= 2 && get64(rsdp + 24);
	table = xsdt ? get64(rsdp + 24) : get32(rsdp + 16);
	sdt = sdt_at(map, ctx, table, xsdt ? "XSDT" : "RSDT", why, whylen);
	if (!sdt)
		return -ENODEV;
	esize = xsdt ? 8 : 4;
	n = (uint32_t)((get32(sdt + 4) - SDT_HEADER_LEN) / esize);
	for (uint32_t i = 0; i < n && i < MAX_SDT_ENTRIES; i++) {
		const uint8_t *e = sdt + SDT_HEADER_LEN + i * esize;
		uint64_t phys = xsdt ? get64(e) : get32(e);
		const uint8_t *h = map(phys, SDT_HEADER_LEN, ctx);
		const uint8_t *fadt;

		if (!h || memcmp(h, "FACP", 4))
			continue;
		fadt = sdt_at(map, ctx, phys, "FACP", why, whylen);
		if (!fadt)
			return -ENODEV;
		out->fadt = phys;
		return pm_timer_of(fadt, out, why, whylen);
	}
	snprintf(why, whylen, "the %s (RSDP at %#llx) lists no FADT", xsdt ? "XSDT" : "RSDT",
		 (unsigned long long)where);
	return -ENODEV;
}
