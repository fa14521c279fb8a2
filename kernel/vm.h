/*
 * Kernel virtual memory beyond the identity map (kernel/vm.c): a region of
 * 4 KiB pages that are mapped and unmapped one at a time, used for
 * mmap-style file mappings whose pages are brought in by page faults, and
 * for memory made of frames that need not be neighbours (mm/kobj.c: thread
 * stacks and large objects from the page cache's RAM).
 *
 * vm_alloc_range() reserves virtual space (nothing mapped: touching it
 * faults); vm_fault_hook, when set, is offered every not-present fault in
 * that region and returns true if it mapped the page (the access is then
 * retried), false to let the fault panic with a full report.
 */
#ifndef KERNEL_VM_H
#define KERNEL_VM_H

#include "kernel/types.h"

#define VM_REGION_START 0x0000100000000000UL	/* 16 TiB: above any identity-mapped RAM */
#define VM_REGION_SIZE  0x0000010000000000UL	/* 1 TiB */

/* Reserve @size bytes (rounded up to pages) of the region; 0 if exhausted. */
/* Map RAM up to @end (above 4 GiB) into the direct map; returns how far it got. */
uint64_t vm_map_high_ram(uint64_t end);
uintptr_t vm_alloc_range(size_t size);
/* Map one 4 KiB page read-only (the file mappings are read-only) or read-write. */
int vm_map_page(uintptr_t va, phys_addr_t pa, bool writable);
void vm_unmap_page(uintptr_t va);
/* The physical address the page at @va is mapped to, or 0 if it is not mapped. */
phys_addr_t vm_page_phys(uintptr_t va);
/* Pages the VM region's page tables hold (made as addresses are first used, never freed). */
unsigned long vm_table_pages(void);

/*
 * A 16-bit word of the BIOS data area (physical 0x400-0x4ff, in page 0,
 * which is otherwise left unmapped); 0 for an address outside it.
 */
uint16_t bios_data_read16(unsigned int addr);

/* @error_code is the x86 page-fault error code (bit 0: present, bit 1: write). */
extern bool (*vm_fault_hook)(uintptr_t addr, uint64_t error_code);

#endif
