/*
 * What the boot loader told us (kernel/multiboot.c), copied out of the
 * Multiboot1 or Multiboot2 information structure at the start of kmain so
 * nothing later depends on where the loader put it.
 */
#ifndef KERNEL_BOOTINFO_H
#define KERNEL_BOOTINFO_H

#include "kernel/types.h"

#define BOOT_MAX_REGIONS 64

enum { MEM_USABLE = 1, MEM_RESERVED, MEM_ACPI, MEM_NVS, MEM_BAD };

struct boot_region {
	uint64_t base, len;
	uint32_t type;
};

struct bootinfo {
	int protocol;			/* 1 or 2 */
	char cmdline[1024];
	size_t cmdline_len;		/* as the loader gave it: more than fits is an error */
	char loader[64];
	struct boot_region regions[BOOT_MAX_REGIONS];
	int nr_regions;
};

extern struct bootinfo bootinfo;

/* Returns 0, or -EINVAL (with a message printed) for an unknown magic or a bad structure. */
int bootinfo_parse(uint32_t magic, uint32_t info);
void bootinfo_print(void);
const char *mem_type_name(uint32_t type);

#endif
