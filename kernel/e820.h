/*
 * The firmware's memory map made fit to use (kernel/e820.c). A BIOS of the
 * seeds' era reports its E820 map entry by entry, and boot loaders pass it
 * on as they got it: entries may come unsorted, overlap, nest (a reserved
 * range inside a usable one), repeat or be empty. e820_sanitize() turns
 * such a map into sorted, disjoint entries, as Linux's e820__update_table()
 * (sanitize_e820_map() before 4.14) does: where entries overlap the more
 * restrictive type wins (the higher E820 type number: usable < reserved <
 * ACPI data < ACPI NVS < bad), and touching or overlapping entries of one
 * type merge. Host-buildable; tests/common/test_e820.c.
 */
#ifndef KERNEL_E820_H
#define KERNEL_E820_H

#include "kernel/types.h"

#define BOOT_MAX_REGIONS 128 /* entries of a loader's map: a BIOS has tens; more is refused */

/* The E820 types (ACPI's address range types); any other counts as reserved. */
enum { MEM_USABLE = 1, MEM_RESERVED, MEM_ACPI, MEM_NVS, MEM_BAD };

struct boot_region {
	uint64_t base, len;
	uint32_t type;
};

/* What sanitizing found in the map it was given. */
struct e820_report {
	int in, out;	 /* entries given, entries made */
	int empty;	 /* zero-length entries dropped */
	int overlapping; /* entries overlapping at least one other */
	int clipped;	 /* entries running past the end of the address space, cut there */
	bool unsorted;	 /* some entry starts before the one given before it */
};

/*
 * Sanitize @in (@n entries) into @out (room for @max). Types outside
 * MEM_USABLE..MEM_BAD must already be MEM_RESERVED (as the ACPI
 * specification says for types it does not define). Returns the number of
 * entries made, or -ENOSPC if @max is too few (2 * @n - 1 always suffice).
 */
int e820_sanitize(const struct boot_region *in, int n, struct boot_region *out, int max,
		  struct e820_report *rep);

/* "usable", "reserved", "ACPI data", "ACPI NVS", "bad" */
const char *mem_type_name(uint32_t type);

#endif
