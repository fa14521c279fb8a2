/*
 * Port and memory-mapped I/O, and the physical/virtual mapping. The kernel
 * identity-maps all RAM, so a physical address is its own virtual address;
 * device MMIO must go through ioremap_uc() so it is mapped uncached.
 */
#ifndef KERNEL_IO_H
#define KERNEL_IO_H

#include "kernel/types.h"

static inline void outb(uint16_t port, uint8_t v) { __asm__ __volatile__("outb %0, %1" ::"a"(v), "Nd"(port)); }
static inline void outw(uint16_t port, uint16_t v) { __asm__ __volatile__("outw %0, %1" ::"a"(v), "Nd"(port)); }
static inline void outl(uint16_t port, uint32_t v) { __asm__ __volatile__("outl %0, %1" ::"a"(v), "Nd"(port)); }
static inline uint8_t inb(uint16_t port)
{
	uint8_t v;
	__asm__ __volatile__("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}
static inline uint16_t inw(uint16_t port)
{
	uint16_t v;
	__asm__ __volatile__("inw %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}
static inline uint32_t inl(uint16_t port)
{
	uint32_t v;
	__asm__ __volatile__("inl %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline uint32_t readl(const volatile void *addr) { return *(const volatile uint32_t *)addr; }
static inline void writel(uint32_t v, volatile void *addr) { *(volatile uint32_t *)addr = v; }
static inline uint64_t readq(const volatile void *addr) { return *(const volatile uint64_t *)addr; }
static inline void writeq(uint64_t v, volatile void *addr) { *(volatile uint64_t *)addr = v; }

static inline phys_addr_t virt_to_phys(const void *p) { return (phys_addr_t)(uintptr_t)p; }
static inline void *phys_to_virt(phys_addr_t pa) { return (void *)(uintptr_t)pa; }

/* Map [phys, phys+size) uncached (PCD|PWT) and return its virtual address. */
void *ioremap_uc(phys_addr_t phys, size_t size);

static inline void cpu_relax(void) { __asm__ __volatile__("pause" ::: "memory"); }
/*
 * Spin @n iterations without PAUSE: in a timed busy-wait that rereads the
 * TSC or a port. Under QEMU's TCG, PAUSE leaves the translated code for
 * the main loop and a TSC or port read ends a translation block, so a
 * tight loop of either costs microseconds of host time per nanosecond of
 * guest time under -icount; plain instructions between them cost nothing.
 */
static inline void cpu_spin(unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		__asm__ __volatile__("nop" ::: "memory");
}

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;
	__asm__ __volatile__("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((uint64_t)hi << 32) | lo;
}

static inline void wrmsr(uint32_t msr, uint64_t v)
{
	__asm__ __volatile__("wrmsr" ::"c"(msr), "a"((uint32_t)v), "d"((uint32_t)(v >> 32)));
}

#endif
