/*
 * Interrupt vectors (kernel/apic.c). The legacy PIC is
 * masked; devices interrupt through MSI to the local APIC. A driver asks
 * for a vector, programs its MSI capability with msi_compose(), and its
 * handler runs with interrupts masked; the dispatcher sends the EOI.
 *
 *	int vec = irq_alloc_vector(ahci_irq, port);
 *	msi_compose(vec, &addr, &data);	// write into the MSI capability
 */
#ifndef KERNEL_IRQ_H
#define KERNEL_IRQ_H

#include "kernel/types.h"

typedef void (*irq_handler_t)(int vector, void *data);

/* Returns a free vector bound to @fn, or -ENOSPC. */
int irq_alloc_vector(irq_handler_t fn, void *data);
void irq_free_vector(int vector);
void msi_compose(int vector, uint64_t *addr, uint32_t *data);
uint32_t lapic_id(void);
/* Number of interrupts taken on @vector since boot. */
uint64_t irq_count(int vector);

#endif
