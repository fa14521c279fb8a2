/*
 * CPU set-up (kernel/cpu.c): the GDT with a TSS whose IST1 stack takes
 * double faults, the IDT, and the trap frame every interrupt builds
 * (boot/isr.S) for trap_dispatch() in kernel/trap.c.
 */
#ifndef KERNEL_CPU_H
#define KERNEL_CPU_H

#include "kernel/types.h"

struct trap_frame {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector, error_code;
	uint64_t rip, cs, rflags, rsp, ss;	/* pushed by the CPU */
};
_Static_assert(sizeof(struct trap_frame) == 22 * 8, "trap frame layout matches boot/isr.S");

void cpu_init(void);
void trap_dispatch(struct trap_frame *f);
/* Set by irq.c: device and timer vectors. */
void irq_dispatch(struct trap_frame *f);
__noreturn void panic_frame(const char *why, const struct trap_frame *f);

static inline uint64_t read_cr2(void)
{
	uint64_t v;

	__asm__ __volatile__("mov %%cr2, %0" : "=r"(v));
	return v;
}

static inline uint64_t read_cr3(void)
{
	uint64_t v;

	__asm__ __volatile__("mov %%cr3, %0" : "=r"(v));
	return v;
}

#endif
