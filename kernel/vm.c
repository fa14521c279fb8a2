/*
 * Page tables after boot. boot/boot.S identity-maps 4 GiB; here we
 *  - map RAM above 4 GiB (2 MiB pages, directories from a static pool),
 *  - make device MMIO uncached (ioremap_uc sets PCD|PWT on the pages
 *    covering it, splitting nothing: MMIO windows are 2 MiB-page aligned
 *    in practice, and a 2 MiB entry made uncached holds only MMIO),
 *  - manage the VM region: 4 KiB pages mapped one at a time, page tables
 *    taken from the kernel's heap (kernel_pages_alloc()), for mmap-style
 *    file mappings and for stacks and objects made of scattered frames.
 * Virtual space in the VM region is handed out by a bump pointer: 1 TiB
 * outlasts any benchmark run, so freed ranges are unmapped, not reused.
 */
#include <string.h>

#include "kernel/io.h"
#include "kernel/log.h"
#include "kernel/sync.h"
#include "kernel/vm.h"
#include "kernel/memory.h"

#define PTE_P		0x001ULL
#define PTE_W		0x002ULL
#define PTE_PWT		0x008ULL
#define PTE_PCD		0x010ULL
#define PTE_PS		0x080ULL
#define PTE_ADDR	0x000ffffffffff000ULL

#define MAX_HIGH_GIB	60	/* RAM mapped above 4 GiB: up to 64 GiB in all */

extern uint64_t boot_pml4[512], boot_pdpt[512], boot_pd[4 * 512], boot_pt[2 * 512];
static uint64_t high_pd[MAX_HIGH_GIB][512] __aligned(4096);
static int high_pd_used;
static uintptr_t vm_next = VM_REGION_START;
static unsigned long nr_table_pages; /* page tables of the VM region, kept once made */

static inline void invlpg(uintptr_t va)
{
	__asm__ __volatile__("invlpg (%0)" ::"r"(va) : "memory");
}

static inline void flush_tlb_all(void)
{
	uint64_t cr3;

	__asm__ __volatile__("mov %%cr3, %0; mov %0, %%cr3" : "=r"(cr3) : : "memory");
}

/* Identity-map [4 GiB, end) with 2 MiB pages. Returns the end actually mapped. */
uint64_t vm_map_high_ram(uint64_t end)
{
	uint64_t limit = (4ULL + MAX_HIGH_GIB) << 30;

	if (end > limit)
		end = limit;
	for (uint64_t gib = 4; (gib << 30) < end; gib++) {
		if (boot_pdpt[gib] & PTE_P)
			continue;
		uint64_t *pd = high_pd[high_pd_used++];

		for (int i = 0; i < 512; i++)
			pd[i] = ((gib << 30) + ((uint64_t)i << 21)) | PTE_P | PTE_W | PTE_PS;
		boot_pdpt[gib] = virt_to_phys(pd) | PTE_P | PTE_W;
	}
	flush_tlb_all();
	return end;
}

uint16_t bios_data_read16(unsigned int addr)
{
	volatile uint16_t *p = (volatile uint16_t *)(uintptr_t)addr;
	uint16_t v;

	if (addr < 0x400 || addr > 0x4fe)
		return 0;
	/* page 0 stays unmapped (a NULL dereference faults): map it for this one read */
	boot_pt[0] = PTE_P;
	invlpg(0);
	v = *p;
	boot_pt[0] = 0;
	invlpg(0);
	return v;
}

void *ioremap_uc(phys_addr_t phys, size_t size)
{
	phys_addr_t end = phys + size;

	if (end > (4ULL << 30))
		vm_map_high_ram(ALIGN_UP(end, 1ULL << 30));
	for (phys_addr_t a = ALIGN_DOWN(phys, 4096ULL); a < end; a += 4096) {
		if (a < (4ULL << 20)) {
			boot_pt[a >> 12] |= PTE_PCD | PTE_PWT;
		} else if (a < (4ULL << 30)) {
			boot_pd[a >> 21] |= PTE_PCD | PTE_PWT;
		} else {
			uint64_t *pd = phys_to_virt(boot_pdpt[a >> 30] & PTE_ADDR);

			pd[(a >> 21) & 511] |= PTE_PCD | PTE_PWT;
		}
	}
	flush_tlb_all();
	return phys_to_virt(phys);
}

static uint64_t *table_next(uint64_t *table, int index, bool create)
{
	if (!(table[index] & PTE_P)) {
		void *pg;

		if (!create)
			return NULL;
		pg = kernel_pages_alloc(0);
		if (!pg)
			return NULL;
		memset(pg, 0, PAGE_SIZE);
		nr_table_pages++;
		table[index] = virt_to_phys(pg) | PTE_P | PTE_W;
	}
	return phys_to_virt(table[index] & PTE_ADDR);
}

static uint64_t *vm_pte(uintptr_t va, bool create)
{
	uint64_t *pdpt, *pd, *pt;

	if (va < VM_REGION_START || va >= VM_REGION_START + VM_REGION_SIZE)
		return NULL;
	pdpt = table_next(boot_pml4, (va >> 39) & 511, create);
	if (!pdpt)
		return NULL;
	pd = table_next(pdpt, (va >> 30) & 511, create);
	if (!pd)
		return NULL;
	pt = table_next(pd, (va >> 21) & 511, create);
	if (!pt)
		return NULL;
	return &pt[(va >> 12) & 511];
}

uintptr_t vm_alloc_range(size_t size)
{
	unsigned long flags = local_irq_save();
	uintptr_t va = vm_next;

	size = ALIGN_UP(size, PAGE_SIZE);
	if (size > VM_REGION_START + VM_REGION_SIZE - vm_next) {
		local_irq_restore(flags);
		return 0;
	}
	/* A guard page between ranges: running off one mapping never lands in the next. */
	vm_next += size + PAGE_SIZE;
	local_irq_restore(flags);
	return va;
}

int vm_map_page(uintptr_t va, phys_addr_t pa, bool writable)
{
	uint64_t *pte = vm_pte(va, true);

	if (!pte)
		return va < VM_REGION_START ? -EINVAL : -ENOMEM;
	*pte = (pa & PTE_ADDR) | PTE_P | (writable ? PTE_W : 0);
	invlpg(va);
	return 0;
}

void vm_unmap_page(uintptr_t va)
{
	uint64_t *pte = vm_pte(va, false);

	if (pte && (*pte & PTE_P)) {
		*pte = 0;
		invlpg(va);
	}
}

phys_addr_t vm_page_phys(uintptr_t va)
{
	uint64_t *pte = vm_pte(va, false);

	return pte && (*pte & PTE_P) ? (phys_addr_t)(*pte & PTE_ADDR) : 0;
}

unsigned long vm_table_pages(void)
{
	return nr_table_pages;
}
