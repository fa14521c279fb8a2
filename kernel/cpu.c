/*
 * GDT, TSS and IDT. The boot GDT (boot/boot.S) is replaced by one with a
 * 64-bit TSS, whose IST1 points at a separate stack so a double fault
 * caused by a kernel stack overflow still has a stack to report on.
 */
#include <string.h>

#include "kernel/cpu.h"

struct gdt_tss_desc {
	uint16_t limit0, base0;
	uint8_t base1, type, limit1_flags, base2;
	uint32_t base3, reserved;
} __packed;

struct tss {
	uint32_t reserved0;
	uint64_t rsp[3];
	uint64_t reserved1;
	uint64_t ist[7];
	uint64_t reserved2;
	uint16_t reserved3, iomap_base;
} __packed;
_Static_assert(sizeof(struct tss) == 104, "64-bit TSS is 104 bytes");

struct idt_entry {
	uint16_t offset0, selector;
	uint8_t ist, type_attr;
	uint16_t offset1;
	uint32_t offset2, reserved;
} __packed;
_Static_assert(sizeof(struct idt_entry) == 16, "64-bit IDT gate is 16 bytes");

struct desc_ptr {
	uint16_t limit;
	uint64_t base;
} __packed;

#define KERNEL_CS	0x08
#define KERNEL_DS	0x10
#define TSS_SEL		0x18

static struct {
	uint64_t null, code, data;
	struct gdt_tss_desc tss;
} __packed __aligned(16) gdt = {
	.null = 0,
	.code = 0x00af9a000000ffffULL,
	.data = 0x00cf92000000ffffULL,
};

static struct tss tss __aligned(16);
static struct idt_entry idt[256] __aligned(16);
static uint8_t df_stack[16384] __aligned(16);
extern const uint64_t isr_table[256];

static void set_gate(int vec, uint64_t handler, int ist)
{
	idt[vec] = (struct idt_entry){
		.offset0 = handler & 0xffff,
		.selector = KERNEL_CS,
		.ist = (uint8_t)ist,
		.type_attr = 0x8e,	/* present, DPL 0, 64-bit interrupt gate */
		.offset1 = (handler >> 16) & 0xffff,
		.offset2 = (uint32_t)(handler >> 32),
	};
}

void cpu_init(void)
{
	uint64_t base = (uint64_t)(uintptr_t)&tss;
	struct desc_ptr gdtr = { sizeof(gdt) - 1, (uint64_t)(uintptr_t)&gdt };
	struct desc_ptr idtr = { sizeof(idt) - 1, (uint64_t)(uintptr_t)idt };

	memset(&tss, 0, sizeof(tss));
	tss.ist[0] = (uint64_t)(uintptr_t)(df_stack + sizeof(df_stack));
	tss.iomap_base = sizeof(tss);
	gdt.tss = (struct gdt_tss_desc){
		.limit0 = sizeof(tss) - 1,
		.base0 = base & 0xffff,
		.base1 = (base >> 16) & 0xff,
		.type = 0x89,		/* present, available 64-bit TSS */
		.base2 = (base >> 24) & 0xff,
		.base3 = (uint32_t)(base >> 32),
	};
	__asm__ __volatile__("lgdt %0\n\t"
			     "pushq %1\n\t"
			     "leaq 1f(%%rip), %%rax\n\t"
			     "pushq %%rax\n\t"
			     "lretq\n"
			     "1:\n\t"
			     "movw %w2, %%ds\n\t"
			     "movw %w2, %%es\n\t"
			     "movw %w2, %%ss\n\t"
			     "ltr %w3"
			     :
			     : "m"(gdtr), "i"(KERNEL_CS), "r"(KERNEL_DS), "r"(TSS_SEL)
			     : "rax", "memory");

	for (int v = 0; v < 256; v++)
		set_gate(v, isr_table[v], v == 8 ? 1 : 0);
	__asm__ __volatile__("lidt %0" : : "m"(idtr));
}
