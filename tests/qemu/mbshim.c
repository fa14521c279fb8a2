/*
 * mbshim: a Multiboot1 boot loader for tests, which hands lookahead a
 * memory map as a 2007 BIOS could have given it. QEMU loads mbshim as its
 * -kernel and lookahead's elf32 image as its module (-initrd); mbshim
 * takes QEMU's memory map, adds entries that overlap, nest, repeat, are
 * empty, do not start on a page and mark a bad page, hands the whole list
 * over unsorted (in reverse), loads the module's ELF segments where they
 * belong and enters it as a Multiboot1 loader does (EAX = 0x2badb002,
 * EBX = its information structure). So the kernel's real boot path
 * (kernel/multiboot.c, kernel/e820.c, mm_init) gets a map that overlaps.
 *
 * 32-bit, freestanding, linked at 16 MiB (tests/qemu/mbshim.ld), above
 * where lookahead loads and lives at boot. Prints on COM1 what it hands
 * over. Built by `make build/mbshim.elf`; run by tools/run-qemu --mbshim.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MB1_MAGIC	 0x1badb002
#define MB1_FLAGS	 0x00000003 /* page-aligned modules, memory information */
#define MB1_LOADER_MAGIC 0x2badb002
#define MB1_INFO_CMDLINE (1u << 2)
#define MB1_INFO_MODS	 (1u << 3)
#define MB1_INFO_MEM_MAP (1u << 6)
#define MB1_INFO_LOADER	 (1u << 9)

__attribute__((section(".multiboot"), used, aligned(4))) static const uint32_t mb1_header[] = {
	MB1_MAGIC, MB1_FLAGS, -(MB1_MAGIC + MB1_FLAGS)};

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
} __attribute__((packed));

struct mb1_mod {
	uint32_t start, end, string, reserved;
};

struct mmap_entry {
	uint32_t size; /* 20: of the rest */
	uint64_t addr, len;
	uint32_t type;
} __attribute__((packed));

struct elf32_ehdr {
	uint8_t ident[16];
	uint16_t type, machine;
	uint32_t version, entry, phoff, shoff, flags;
	uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};

struct elf32_phdr {
	uint32_t type, offset, vaddr, paddr, filesz, memsz, flags, align;
};

enum { U = 1, R, A, N, BAD };

#define MAX_ENTRIES 64

static struct mb1_info info;
static struct mmap_entry map[MAX_ENTRIES];
static char loader_name[] = "mbshim (a test loader: a crafted, overlapping memory map)";
uint8_t shim_stack[16384] __attribute__((aligned(16), used));

extern char _shim_start[], _shim_end[];

static inline void outb(uint16_t port, uint8_t v)
{
	__asm__ __volatile__("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint8_t inb(uint16_t port)
{
	uint8_t v;

	__asm__ __volatile__("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static void putc_serial(char c)
{
	/* bounded: a missing UART must not hang the shim */
	for (int i = 0; i < 100000 && !(inb(0x3f8 + 5) & 0x20); i++)
		;
	outb(0x3f8, (uint8_t)c);
}

static void puts_serial(const char *s)
{
	while (*s)
		putc_serial(*s++);
}

static void puthex(uint64_t v)
{
	puts_serial("0x");
	for (int i = 44; i >= 0; i -= 4)
		putc_serial("0123456789abcdef"[(v >> i) & 0xf]);
}

static void fail(const char *why)
{
	puts_serial("mbshim: ");
	puts_serial(why);
	puts_serial("\n");
	/* QEMU's isa-debug-exit: status 1 is exit code 3, which tools/run-qemu calls failure */
	outb(0xf4, 1);
	for (;;)
		__asm__ __volatile__("cli; hlt");
}

static void *copy(void *dst, const void *src, size_t n)
{
	uint8_t *d = dst;
	const uint8_t *s = src;

	while (n--)
		*d++ = *s++;
	return dst;
}

static void zero(void *dst, size_t n)
{
	uint8_t *d = dst;

	while (n--)
		*d++ = 0;
}

static bool overlaps(uint32_t a, uint32_t alen, uint32_t b, uint32_t blen)
{
	return a < b + blen && b < a + alen;
}

static int nr;

static void add(uint64_t addr, uint64_t len, uint32_t type)
{
	if (nr == MAX_ENTRIES)
		fail("too many memory map entries");
	map[nr++] = (struct mmap_entry){20, addr, len, type};
}

/*
 * QEMU's map, then the crafted entries, relative to the top of the usable
 * RAM above 1 MiB (QEMU's next entry there is reserved).
 */
static void build_map(const struct mb1_info *qemu)
{
	uint32_t p = qemu->mmap_addr, end = qemu->mmap_addr + qemu->mmap_length;
	uint64_t top = 0;

	while (p + sizeof(struct mmap_entry) <= end) {
		const struct mmap_entry *e = (const void *)p;

		add(e->addr, e->len, e->type);
		if (e->type == U && e->addr == 0x100000)
			top = e->addr + e->len;
		p += e->size + 4;
	}
	if (top < 0x8000000)
		fail("QEMU gave no usable RAM from 1 MiB to 128 MiB (boot with -m 256M)");
	add(0x2000000, 0x100000, R);	/* nested: 1 MiB reserved inside usable RAM */
	add(0x2800800, 0x1000, R);	/* not on a page boundary: touches two pages */
	add(0x5000000, 0x1000, BAD);	/* a bad page */
	add(0x100000, 0xf00000, U);	/* a duplicate, overlapping QEMU's usable entry */
	add(0x3000000, 0, U);		/* empty */
	add(0x4000000, 0, R);		/* empty */
	add(top - 0x10000, 0x18000, A); /* ACPI data over usable RAM's end and beyond */
	add(top - 0x8000, 0x4000, N);	/* NVS nested in that */
	/* reverse: the loader's map is unsorted */
	for (int i = 0; i < nr / 2; i++) {
		struct mmap_entry t = map[i];

		map[i] = map[nr - 1 - i];
		map[nr - 1 - i] = t;
	}
}

/* Load the module's PT_LOAD segments; returns the entry point. */
static uint32_t load_elf(uint32_t start, uint32_t end)
{
	const struct elf32_ehdr *eh = (const void *)start;
	uint32_t shim = (uint32_t)_shim_start, shim_len = (uint32_t)(_shim_end - _shim_start);

	if (end - start < sizeof(*eh) || eh->ident[0] != 0x7f || eh->ident[1] != 'E' ||
	    eh->ident[4] != 1 || eh->machine != 3)
		fail("the module is not an elf32-i386 image (lookahead32.elf)");
	if (eh->phoff + (uint32_t)eh->phnum * sizeof(struct elf32_phdr) > end - start)
		fail("the module's program headers run past its end");
	for (int i = 0; i < eh->phnum; i++) {
		const struct elf32_phdr *ph = (const void *)(start + eh->phoff + i * sizeof(*ph));

		if (ph->type != 1 || !ph->memsz)
			continue;
		if (ph->offset + ph->filesz > end - start || ph->filesz > ph->memsz)
			fail("a segment runs past the module's end");
		if (overlaps(ph->paddr, ph->memsz, shim, shim_len) ||
		    overlaps(ph->paddr, ph->memsz, start, end - start))
			fail("a segment would overwrite the shim or the module");
		copy((void *)ph->paddr, (const void *)(start + ph->offset), ph->filesz);
		zero((void *)(ph->paddr + ph->filesz), ph->memsz - ph->filesz);
	}
	return eh->entry;
}

__attribute__((used, noreturn)) void shim_main(uint32_t magic, const struct mb1_info *qemu)
{
	const struct mb1_mod *mod;
	uint32_t entry;

	if (magic != MB1_LOADER_MAGIC)
		fail("not started by a Multiboot1 loader");
	if (!(qemu->flags & MB1_INFO_MEM_MAP) || !(qemu->flags & MB1_INFO_MODS) ||
	    qemu->mods_count < 1)
		fail("no memory map or no module (run QEMU with -initrd lookahead32.elf)");
	build_map(qemu);
	mod = (const void *)qemu->mods_addr;
	puts_serial("mbshim: handing lookahead this memory map:\n");
	for (int i = 0; i < nr; i++) {
		puts_serial("mbshim:   ");
		puthex(map[i].addr);
		puts_serial(" +");
		puthex(map[i].len);
		puts_serial(" type ");
		putc_serial((char)('0' + map[i].type));
		puts_serial("\n");
	}
	entry = load_elf(mod->start, mod->end);
	info.flags = MB1_INFO_MEM_MAP | MB1_INFO_LOADER | (qemu->flags & MB1_INFO_CMDLINE);
	info.cmdline = qemu->cmdline;
	info.mmap_addr = (uint32_t)map;
	info.mmap_length = (uint32_t)(nr * sizeof(map[0]));
	info.boot_loader_name = (uint32_t)loader_name;
	__asm__ __volatile__("cli; jmp *%2" : : "a"(MB1_LOADER_MAGIC), "b"(&info), "r"(entry));
	__builtin_unreachable();
}

__asm__(".section .text\n"
	".globl _start\n"
	"_start:\n"
	"	cli\n"
	"	movl $shim_stack + 16384, %esp\n"
	"	pushl %ebx\n"
	"	pushl %eax\n"
	"	call shim_main\n");
