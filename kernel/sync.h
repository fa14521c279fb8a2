/*
 * Interrupt masking: the only locking lookahead needs. The kernel runs on
 * one CPU with cooperative threads, so data shared with an interrupt
 * handler is protected by masking interrupts; data shared only between
 * threads needs no lock as long as the code between two sleeping points
 * keeps it consistent. Host builds have no interrupts.
 */
#ifndef KERNEL_SYNC_H
#define KERNEL_SYNC_H

#include "kernel/types.h"

#ifdef HOST_BUILD
static inline unsigned long local_irq_save(void) { return 0; }
static inline void local_irq_restore(unsigned long flags) { (void)flags; }
static inline void local_irq_enable(void) {}
static inline void local_irq_disable(void) {}
#else
static inline unsigned long local_irq_save(void)
{
	unsigned long flags;

	__asm__ __volatile__("pushfq; popq %0; cli" : "=r"(flags) : : "memory");
	return flags;
}

static inline void local_irq_restore(unsigned long flags)
{
	if (flags & (1UL << 9))
		__asm__ __volatile__("sti" ::: "memory");
}

static inline void local_irq_enable(void) { __asm__ __volatile__("sti" ::: "memory"); }
static inline void local_irq_disable(void) { __asm__ __volatile__("cli" ::: "memory"); }
#endif

#endif
