/*
 * ACPI tables, only as far as the clock needs them (kernel/acpi.c): the
 * RSDP, the RSDT or XSDT it points to, and the FADT's power management
 * timer, the fallback for calibrating the TSC when the PIT does not count
 * (kernel/time.c). Firmware data is input like any other: every table's
 * signature, length and checksum is checked before a field of it is used,
 * and every address before it is read. Host-buildable: physical memory is
 * reached through a callback, so tests/host/test_acpi.c feeds it tables.
 */
#ifndef KERNEL_ACPI_H
#define KERNEL_ACPI_H

#include "kernel/types.h"

/*
 * Where physical memory is readable: a pointer to [@phys, @phys + @len),
 * or NULL when that range cannot be read (not mapped, or wrapping).
 */
typedef const void *(*acpi_map_fn)(uint64_t phys, size_t len, void *ctx);

struct acpi_pm_timer {
	uint16_t port;	  /* I/O port of the 24- or 32-bit counter */
	bool bits32;	  /* FADT flag TMR_VAL_EXT: the counter has 32 bits, else 24 */
	uint64_t fadt;	  /* where the FADT was */
	uint8_t revision; /* the RSDP's: 0 for ACPI 1.0 (RSDT), 2 and up (XSDT) */
};

#define ACPI_PM_TIMER_HZ 3579545 /* the PM timer's fixed rate, 3.579545 MHz */

/*
 * Find the PM timer: the RSDP in the EBDA's first KiB or in 0xE0000-0xFFFFF,
 * then the FADT through the XSDT (ACPI 2.0 and later) or the RSDT. Returns
 * 0, or -ENODEV with why it could not (a bad checksum, a table too short,
 * no FADT, no PM timer) in @why.
 */
int acpi_find_pm_timer(acpi_map_fn map, void *ctx, struct acpi_pm_timer *out, char *why,
		       size_t whylen);

#endif
