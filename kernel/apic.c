/*
 * Interrupt controllers and vectors. The 8259 PICs are remapped out of the
 * exception range and fully masked; everything arrives through the local
 * APIC: MSI from devices (vectors handed out by irq_alloc_vector), the
 * APIC timer (one-shot, armed for the earliest timed sleeper: no periodic
 * tick, so an idle CPU under QEMU's instruction-count clock skips straight
 * to the next deadline) and the spurious vector. The dispatcher acknowledges
 * each interrupt with an EOI.
 */
#include <stdio.h>

#include "kernel/cpu.h"
#include "kernel/io.h"
#include "kernel/irq.h"
#include "kernel/log.h"
#include "kernel/sync.h"
#include "kernel/time.h"

#define IA32_APIC_BASE		0x1b
#define APIC_BASE_ENABLE	(1UL << 11)

#define APIC_ID			0x020
#define APIC_TPR		0x080
#define APIC_EOI		0x0b0
#define APIC_SVR		0x0f0
#define APIC_LVT_TIMER		0x320
#define APIC_TIMER_INIT		0x380
#define APIC_TIMER_CUR		0x390
#define APIC_TIMER_DIV		0x3e0

#define SVR_ENABLE		(1u << 8)
#define LVT_MASKED		(1u << 16)
#define LVT_PERIODIC		(1u << 17)

#define VECTOR_FIRST_DEVICE	0x30
#define VECTOR_LAST_DEVICE	0xef
#define VECTOR_TIMER		0xf0
#define VECTOR_SPURIOUS		0xff

static volatile uint8_t *lapic;
static uint64_t timer_per_sec; /* APIC timer counts per second (divide by 16) */
static phys_addr_t lapic_phys;
static uint64_t irq_counts[256];

static struct {
	irq_handler_t fn;
	void *data;
} vectors[256];

void sched_tick(void);
void sched_irq_enter(bool timer);

static uint32_t lapic_read(uint32_t reg)
{
	return readl(lapic + reg);
}

static void lapic_write(uint32_t reg, uint32_t v)
{
	writel(v, lapic + reg);
}

uint32_t lapic_id(void)
{
	return lapic_read(APIC_ID) >> 24;
}

uint64_t irq_count(int vector)
{
	return vector >= 0 && vector < 256 ? irq_counts[vector] : 0;
}

int irq_alloc_vector(irq_handler_t fn, void *data)
{
	unsigned long flags = local_irq_save();

	for (int v = VECTOR_FIRST_DEVICE; v <= VECTOR_LAST_DEVICE; v++) {
		if (!vectors[v].fn) {
			vectors[v].fn = fn;
			vectors[v].data = data;
			local_irq_restore(flags);
			return v;
		}
	}
	local_irq_restore(flags);
	return -ENOSPC;
}

void irq_free_vector(int vector)
{
	if (vector >= VECTOR_FIRST_DEVICE && vector <= VECTOR_LAST_DEVICE)
		vectors[vector].fn = NULL;
}

void msi_compose(int vector, uint64_t *addr, uint32_t *data)
{
	/* Fixed delivery, edge triggered, physical destination: this CPU. */
	*addr = 0xfee00000ULL | ((uint64_t)lapic_id() << 12);
	*data = (uint32_t)vector;
}

void irq_dispatch(struct trap_frame *f)
{
	int v = (int)f->vector;

	irq_counts[v]++;
	sched_irq_enter(v == VECTOR_TIMER);
	if (v == VECTOR_SPURIOUS)
		return;		/* no EOI for the spurious vector */
	if (v == VECTOR_TIMER)
		sched_tick();
	else if (vectors[v].fn)
		vectors[v].fn(v, vectors[v].data);
	else if (v < 0x30)
		return;		/* a stray legacy PIC vector: the PIC is masked, no APIC EOI */
	lapic_write(APIC_EOI, 0);
}

static void pic_disable(void)
{
	/* Remap to 0x20-0x2f first, so a spurious PIC interrupt cannot look like an exception. */
	outb(0x20, 0x11);
	outb(0xa0, 0x11);
	outb(0x21, 0x20);
	outb(0xa1, 0x28);
	outb(0x21, 0x04);
	outb(0xa1, 0x02);
	outb(0x21, 0x01);
	outb(0xa1, 0x01);
	outb(0x21, 0xff);
	outb(0xa1, 0xff);
}

void apic_init(void)
{
	uint64_t base = rdmsr(IA32_APIC_BASE);

	pic_disable();
	lapic_phys = base & 0xffffff000ULL;
	wrmsr(IA32_APIC_BASE, base | APIC_BASE_ENABLE);
	lapic = ioremap_uc(lapic_phys, 4096);
	lapic_write(APIC_TPR, 0);
	lapic_write(APIC_SVR, SVR_ENABLE | VECTOR_SPURIOUS);
	lapic_write(APIC_LVT_TIMER, LVT_MASKED | VECTOR_TIMER);
}

/* Measure the APIC timer's rate against the TSC; it is armed on demand by apic_timer_arm(). */
void apic_timer_start(void)
{
	uint64_t t0, t1;
	uint32_t counted;

	lapic_write(APIC_TIMER_DIV, 0x3);	/* divide by 16 */
	lapic_write(APIC_LVT_TIMER, LVT_MASKED | VECTOR_TIMER);
	lapic_write(APIC_TIMER_INIT, 0xffffffff);
	t0 = ktime_ns();
	udelay(10000);
	counted = 0xffffffff - lapic_read(APIC_TIMER_CUR);
	t1 = ktime_ns();
	lapic_write(APIC_TIMER_INIT, 0);
	timer_per_sec = (uint64_t)counted * NSEC_PER_SEC / (t1 - t0);
	/*
	 * Under -icount QEMU's APIC timer counts the virtual clock's
	 * nanoseconds divided by 16: 62.5 MHz exactly. The measurement lands
	 * a few counts off it, by where the boot's instructions fell against
	 * the counter; any change of code before this point would move every
	 * timer's expiry by a nanosecond or two. Take the exact rate when the
	 * measurement agrees with it (as for the TSC, kernel/time.c).
	 */
	if (ktime_is_virtual() && timer_per_sec > 62437500 && timer_per_sec < 62562500)
		timer_per_sec = 62500000;
	if (!timer_per_sec)
		timer_per_sec = 1;
	lapic_write(APIC_LVT_TIMER, VECTOR_TIMER);	/* one-shot */
	pr_info("apic: local APIC %u at %#llx, timer %llu.%03llu kHz, one-shot (tickless)\n",
		lapic_id(), (unsigned long long)lapic_phys,
		(unsigned long long)(timer_per_sec / 1000),
		(unsigned long long)(timer_per_sec % 1000));
}

void apic_timer_stop(void)
{
	if (lapic)
		lapic_write(APIC_TIMER_INIT, 0);
}

void apic_timer_arm(uint64_t deadline_ns)
{
	uint64_t now, count;

	if (!lapic || !timer_per_sec)
		return;
	if (deadline_ns == UINT64_MAX) {
		lapic_write(APIC_TIMER_INIT, 0);
		return;
	}
	now = ktime_ns();
	count = deadline_ns > now ? (deadline_ns - now) * timer_per_sec / NSEC_PER_SEC : 0;
	/* Round up: an early interrupt only re-arms, a late one delays a sleeper. */
	count = min_t(uint64_t, count + 1, 0xffffffffULL);
	lapic_write(APIC_TIMER_INIT, (uint32_t)count);
}
