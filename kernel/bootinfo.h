/*
 * What the boot loader told us (kernel/multiboot.c), copied out of the
 * Multiboot1 or Multiboot2 information structure at the start of kmain so
 * nothing later depends on where the loader put it.
 */
#ifndef KERNEL_BOOTINFO_H
#define KERNEL_BOOTINFO_H

#include "kernel/cmdline.h"
#include "kernel/e820.h"

struct bootinfo {
	int protocol;			/* 1 or 2 */
	char cmdline[CMDLINE_MAX];
	size_t cmdline_len;		/* as the loader gave it: more than fits is an error */
	char loader[64];
	struct boot_region regions[BOOT_MAX_REGIONS];	/* the map as the loader gave it */
	int nr_regions;
	struct boot_region map[2 * BOOT_MAX_REGIONS];	/* sanitized (kernel/e820.h): as used */
	int nr_map;
	struct e820_report map_report;
};

extern struct bootinfo bootinfo;

/*
 * Copy out what the loader gave and sanitize its memory map. Returns 0, or
 * -EINVAL (with a message printed) for an unknown magic, a bad structure or
 * a memory map of more than BOOT_MAX_REGIONS entries.
 */
int bootinfo_parse(uint32_t magic, uint32_t info);
/* The loader, the command line and the memory map as used (and as given, if different). */
void bootinfo_print(void);

#endif
