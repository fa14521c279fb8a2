/*
 * Multiboot1 (QEMU -kernel) and Multiboot2 (GRUB) information parsing.
 * Only the memory map, the command line and the boot loader's name are
 * used; each is bounds-checked against the structure's stated size. The
 * memory map is the BIOS's E820 map as the loader passed it on, so it is
 * sanitized (kernel/e820.c) before anything uses it.
 */
#include <stdio.h>
#include <string.h>

#include "kernel/bootinfo.h"
#include "kernel/log.h"

#define MB1_BOOTLOADER_MAGIC 0x2badb002
#define MB2_BOOTLOADER_MAGIC 0x36d76289

#define MB1_INFO_MEM_MAP	(1u << 6)
#define MB1_INFO_CMDLINE	(1u << 2)
#define MB1_INFO_LOADER		(1u << 9)

struct mb1_info {
	uint32_t flags;
	uint32_t mem_lower, mem_upper;
	uint32_t boot_device;
	uint32_t cmdline;
	uint32_t mods_count, mods_addr;
	uint32_t syms[4];
	uint32_t mmap_length, mmap_addr;
	uint32_t drives_length, drives_addr;
	uint32_t config_table;
	uint32_t boot_loader_name;
} __packed;

struct mb1_mmap_entry {
	uint32_t size;		/* of the rest of the entry */
	uint64_t addr, len;
	uint32_t type;
} __packed;

struct mb2_tag {
	uint32_t type, size;
};

#define MB2_TAG_END	0
#define MB2_TAG_CMDLINE	1
#define MB2_TAG_LOADER	2
#define MB2_TAG_MMAP	6

struct bootinfo bootinfo;

/* Copy what fits of the string at @src; returns its whole length (up to @maxlen). */
static size_t copy_str(char *dst, size_t dstlen, const char *src, size_t maxlen)
{
	size_t len = strnlen(src, maxlen), n = len;

	if (n >= dstlen)
		n = dstlen - 1;
	memcpy(dst, src, n);
	dst[n] = 0;
	return len;
}

static int nr_dropped; /* entries past BOOT_MAX_REGIONS */

static void add_region(uint64_t base, uint64_t len, uint32_t type)
{
	if (bootinfo.nr_regions == BOOT_MAX_REGIONS) {
		nr_dropped++;
		return;
	}
	/* ACPI: a type it does not define is to be treated as reserved */
	if (type < MEM_USABLE || type > MEM_BAD)
		type = MEM_RESERVED;
	bootinfo.regions[bootinfo.nr_regions++] = (struct boot_region){ base, len, type };
}

static int parse_mb1(const struct mb1_info *mbi)
{
	bootinfo.protocol = 1;
	if (mbi->flags & MB1_INFO_CMDLINE)
		bootinfo.cmdline_len = copy_str(bootinfo.cmdline, sizeof(bootinfo.cmdline),
						(const char *)(uintptr_t)mbi->cmdline, 4096);
	if (mbi->flags & MB1_INFO_LOADER)
		copy_str(bootinfo.loader, sizeof(bootinfo.loader),
			 (const char *)(uintptr_t)mbi->boot_loader_name, 256);
	if (!(mbi->flags & MB1_INFO_MEM_MAP)) {
		pr_err("boot: the Multiboot1 loader gave no memory map\n");
		return -EINVAL;
	}
	uintptr_t p = mbi->mmap_addr, end = (uintptr_t)mbi->mmap_addr + mbi->mmap_length;
	while (p + sizeof(struct mb1_mmap_entry) <= end) {
		const struct mb1_mmap_entry *e = (const void *)p;

		if (e->size < 20) {
			pr_err("boot: Multiboot1 memory map entry of size %u\n", e->size);
			return -EINVAL;
		}
		add_region(e->addr, e->len, e->type);
		p += e->size + 4;
	}
	return 0;
}

static int parse_mb2(uintptr_t info)
{
	uint32_t total = *(const uint32_t *)info;
	uintptr_t p = info + 8, end = info + total;

	bootinfo.protocol = 2;
	if (total < 16 || total > (1u << 20)) {
		pr_err("boot: Multiboot2 information of size %u\n", total);
		return -EINVAL;
	}
	while (p + sizeof(struct mb2_tag) <= end) {
		const struct mb2_tag *tag = (const void *)p;

		if (tag->type == MB2_TAG_END)
			break;
		if (tag->size < 8 || p + tag->size > end) {
			pr_err("boot: Multiboot2 tag %u of size %u overruns the structure\n",
			       tag->type, tag->size);
			return -EINVAL;
		}
		const char *body = (const char *)(tag + 1);
		size_t blen = tag->size - 8;

		switch (tag->type) {
		case MB2_TAG_CMDLINE:
			bootinfo.cmdline_len =
				copy_str(bootinfo.cmdline, sizeof(bootinfo.cmdline), body, blen);
			break;
		case MB2_TAG_LOADER:
			copy_str(bootinfo.loader, sizeof(bootinfo.loader), body, blen);
			break;
		case MB2_TAG_MMAP: {
			uint32_t esize = ((const uint32_t *)body)[0];

			if (esize < 24 || blen < 8) {
				pr_err("boot: Multiboot2 memory map entry size %u\n", esize);
				return -EINVAL;
			}
			for (size_t off = 8; off + 24 <= blen; off += esize) {
				const uint64_t *e = (const uint64_t *)(body + off);

				add_region(e[0], e[1], *(const uint32_t *)(e + 2));
			}
			break;
		}
		}
		p += ALIGN_UP(tag->size, 8u);
	}
	return 0;
}

static int sanitize_map(void)
{
	struct e820_report *rep = &bootinfo.map_report;
	int n;

	/* A dropped entry may have been a reserved range inside usable RAM. */
	if (nr_dropped) {
		pr_err("boot: the memory map has %d entries, more than the %d this kernel takes\n",
		       bootinfo.nr_regions + nr_dropped, BOOT_MAX_REGIONS);
		return -EINVAL;
	}
	n = e820_sanitize(bootinfo.regions, bootinfo.nr_regions, bootinfo.map,
			  (int)ARRAY_SIZE(bootinfo.map), rep);
	if (n < 0) {
		pr_err("boot: the memory map's %d entries do not fit %zu once sanitized\n",
		       bootinfo.nr_regions, ARRAY_SIZE(bootinfo.map));
		return -EINVAL;
	}
	bootinfo.nr_map = n;
	return 0;
}

int bootinfo_parse(uint32_t magic, uint32_t info)
{
	int err;

	if (magic == MB1_BOOTLOADER_MAGIC)
		err = parse_mb1((const struct mb1_info *)(uintptr_t)info);
	else if (magic == MB2_BOOTLOADER_MAGIC)
		err = parse_mb2(info);
	else {
		pr_err("boot: not started by a Multiboot loader (magic 0x%08x)\n", magic);
		return -EINVAL;
	}
	return err ? err : sanitize_map();
}

static void print_region(const char *what, const struct boot_region *r)
{
	static const char *const units[] = { "KiB", "MiB", "GiB" };
	uint64_t n = r->len >> 10;
	int u = 0;

	while (u < 2 && n >= 10240) {
		n >>= 10;
		u++;
	}
	pr_info("%s 0x%012llx-0x%012llx %-9s (%llu %s)\n", what, (unsigned long long)r->base,
		(unsigned long long)(r->base + r->len), mem_type_name(r->type),
		(unsigned long long)n, units[u]);
}

void bootinfo_print(void)
{
	const struct e820_report *rep = &bootinfo.map_report;

	pr_info("boot loader: %s (multiboot%d)\n", bootinfo.loader[0] ? bootinfo.loader : "unknown",
		bootinfo.protocol);
	pr_info("command line: %s\n", bootinfo.cmdline);
	if (rep->unsorted || rep->overlapping || rep->empty || rep->clipped) {
		char what[128];
		size_t k = 0;

		what[0] = 0;
		if (rep->unsorted)
			k += (size_t)snprintf(what + k, sizeof(what) - k, "unsorted");
		if (rep->overlapping)
			k += (size_t)snprintf(what + k, sizeof(what) - k, "%s%d overlapping",
					      k ? ", " : "", rep->overlapping);
		if (rep->empty && k < sizeof(what))
			k += (size_t)snprintf(what + k, sizeof(what) - k, "%s%d empty",
					      k ? ", " : "", rep->empty);
		if (rep->clipped && k < sizeof(what))
			snprintf(what + k, sizeof(what) - k, "%s%d running past 2^64", k ? ", " : "",
				 rep->clipped);
		pr_warn("memory map: the loader's %d entries: %s; sanitized into %d\n", rep->in,
			what, rep->out);
		for (int i = 0; i < bootinfo.nr_regions; i++)
			print_region("memory map (loader):", &bootinfo.regions[i]);
	}
	for (int i = 0; i < bootinfo.nr_map; i++)
		print_region("memory map:", &bootinfo.map[i]);
}
