/*
 * The clock: the TSC, calibrated at boot against PIT channel 2 (its gate
 * is software-controlled and its output readable in port 0x61, so no
 * interrupt is needed) or, when the PIT does not count, against the ACPI
 * PM timer (found through the FADT, kernel/acpi.c). Every wait on either
 * ends by a TSC deadline set for the fastest TSC there is, so a gated,
 * absent or broken timer costs a fraction of a second, never a hang; a
 * result no TSC could have is refused. ktime_ns() converts TSC ticks with
 * a 32.32 fixed point multiplier. tsc_calibrate=pit|pmtimer picks one
 * source (to compare them on a real machine); the boot line and the exit
 * summary say which calibrated the clock.
 */
#include <cpuid.h>

#include <stdio.h>
#include <string.h>

#include "kernel/acpi.h"
#include "kernel/exit.h"
#include "kernel/io.h"
#include "kernel/log.h"
#include "kernel/param.h"
#include "kernel/summary.h"
#include "kernel/sync.h"
#include "kernel/time.h"
#include "kernel/vm.h"

#define PIT_HZ	       1193182ULL
#define PIT_CH2	       0x42
#define PIT_CMD	       0x43
#define PORT_B	       0x61
#define PORT_B_GATE2   0x01
#define PORT_B_SPEAKER 0x02
#define PORT_B_OUT2    0x20

/*
 * No x86 TSC runs faster than TSC_MAX_HZ: a wait of T seconds gets a
 * deadline of 2 T at that rate, which no working timer misses. A result
 * below TSC_MIN_HZ is a broken timer, not a slow CPU.
 */
#define TSC_MAX_HZ 8000000000ULL
#define TSC_MIN_HZ 100000000ULL

static const char *const calibrate_names[] = {"auto", "pit", "pmtimer", NULL};
enum { CAL_AUTO, CAL_PIT, CAL_PMTIMER };
KPARAM(tsc_calibrate, KV_ENUM, calibrate_names,
       "calibrate the TSC against: auto (the PIT, else the ACPI PM timer), pit or pmtimer");

uint64_t tsc_khz;
static uint64_t tsc_base; /* moves forward over stalls (ktime_stall_end) */
static bool clock_virtual;
static uint64_t ns_mult;     /* ns per TSC tick, << 32 */
static char cal_source[160]; /* what calibrated the clock, for the boot line and summary */
static struct acpi_pm_timer pm_timer;
static bool pm_timer_found;

static uint64_t tsc_deadline(uint64_t t0, uint64_t timer_ticks, uint64_t timer_hz)
{
	return t0 + 2 * TSC_MAX_HZ / timer_hz * timer_ticks;
}

static uint16_t pit_read_count2(void)
{
	uint8_t lo, hi;

	outb(PIT_CMD, 0x80); /* latch channel 2's count */
	lo = inb(PIT_CH2);
	hi = inb(PIT_CH2);
	return (uint16_t)(lo | hi << 8);
}

/*
 * Count TSC ticks over @latch PIT ticks (channel 2, one-shot, mode 0),
 * with the gate raised (@gate) as calibration does, or left low, as a
 * broken gate would, for the selftest that this returns. Returns 0 when
 * the PIT does not count, with the reason in *@why: its output already
 * high (no PIT there: the port reads all ones), its counter not moving, or
 * no terminal count by the deadline.
 */
uint64_t pit_measure_tsc(uint32_t latch, bool gate, const char **why)
{
	uint64_t t0, t1, deadline;
	uint8_t b = inb(PORT_B);
	uint16_t c0;
	bool moved = false;
	int i;

	outb(PORT_B, (b & ~PORT_B_SPEAKER) & ~PORT_B_GATE2);
	outb(PIT_CMD, 0xb0); /* channel 2, lobyte/hibyte, mode 0, binary */
	outb(PIT_CH2, latch & 0xff);
	outb(PIT_CH2, (latch >> 8) & 0xff);
	outb(PORT_B, (b & ~PORT_B_SPEAKER) | (gate ? PORT_B_GATE2 : 0));
	t0 = rdtsc();
	deadline = tsc_deadline(t0, latch, PIT_HZ);
	*why = NULL;
	if (inb(PORT_B) & PORT_B_OUT2) {
		*why = "its output was already high as the count began (no PIT at ports "
		       "0x42/0x61?)";
		goto out;
	}
	/* A counting PIT moves every 838 ns: a few reads see it. */
	c0 = pit_read_count2();
	for (i = 0; i < 1000 && !moved && (int64_t)(rdtsc() - deadline) < 0; i++) {
		cpu_spin(64);
		moved = pit_read_count2() != c0;
	}
	if (!moved) {
		*why = gate ? "its counter does not move (channel 2's gate?)"
			    : "its counter does not move with the gate low";
		goto out;
	}
	/*
	 * A short spin between port reads keeps them few: under QEMU's
	 * instruction-count clock each one ends a translation block and
	 * costs far more host time than the virtual time it stands for.
	 */
	while (!(inb(PORT_B) & PORT_B_OUT2)) {
		if ((int64_t)(rdtsc() - deadline) >= 0) {
			*why = "it did not reach its terminal count by the deadline";
			goto out;
		}
		cpu_spin(512);
	}
out:
	t1 = rdtsc();
	outb(PORT_B, b & ~PORT_B_GATE2);
	return *why ? 0 : t1 - t0;
}

extern char _kernel_start[], _kernel_end[];

static const void *acpi_phys(uint64_t phys, size_t len, void *ctx)
{
	static uint16_t bda_word;

	(void)ctx;
	/* the BIOS data area's EBDA pointer lies in page 0, which is not mapped */
	if (phys == 0x40e && len == 2) {
		bda_word = bios_data_read16(0x40e);
		return &bda_word;
	}
	/*
	 * boot/boot.S maps the first 4 GiB, all but page 0 and the boot stack's
	 * guard page inside the kernel image, where no firmware table lies
	 */
	if (phys < 4096 || phys + len < phys || phys + len > (4ULL << 30) ||
	    (phys < (uintptr_t)_kernel_end && phys + len > (uintptr_t)_kernel_start))
		return NULL;
	return (const void *)(uintptr_t)phys;
}

static uint32_t pm_timer_read(void)
{
	return inl(pm_timer.port) & (pm_timer.bits32 ? 0xffffffffu : 0xffffffu);
}

/*
 * The TSC's rate in Hz over @ticks of the ACPI PM timer, from one of its
 * edges; 0 with *@why set if the timer is not there, does not move or is
 * too slow for the deadline.
 */
uint64_t pmtimer_measure_hz(uint32_t ticks, const char **why)
{
	uint32_t mask = pm_timer.bits32 ? 0xffffffffu : 0xffffffu, p0, p;
	uint64_t t0, t1, deadline;

	*why = NULL;
	if (!pm_timer_found) {
		*why = "no ACPI PM timer";
		return 0;
	}
	deadline = tsc_deadline(rdtsc(), ticks, ACPI_PM_TIMER_HZ);
	p0 = pm_timer_read();
	while ((p = pm_timer_read()) == p0) {
		if ((int64_t)(rdtsc() - deadline) >= 0) {
			*why = "the ACPI PM timer does not move";
			return 0;
		}
		cpu_spin(16);
	}
	t0 = rdtsc();
	p0 = p;
	do {
		if ((int64_t)(rdtsc() - deadline) >= 0) {
			*why = "the ACPI PM timer is too slow for its rate";
			return 0;
		}
		cpu_spin(256);
		p = pm_timer_read();
	} while (((p - p0) & mask) < ticks);
	t1 = rdtsc();
	return (uint64_t)((unsigned __int128)(t1 - t0) * ACPI_PM_TIMER_HZ / ((p - p0) & mask));
}

static void set_tsc_khz(uint64_t khz)
{
	tsc_khz = khz;
	ns_mult = (NSEC_PER_MSEC << 32) / khz;
}

/* The PIT: the shortest of three 50 ms runs, the one least disturbed (host, SMIs). */
static uint64_t calibrate_pit(char *why, size_t len)
{
	const uint32_t latch = (uint32_t)(PIT_HZ / 20);
	uint64_t best = UINT64_MAX, hz;

	for (int i = 0; i < 3; i++) {
		const char *w;
		uint64_t t = pit_measure_tsc(latch, true, &w);

		if (!t) {
			snprintf(why, len, "the PIT does not count: %s", w);
			return 0;
		}
		best = min(best, t);
	}
	hz = best * PIT_HZ / latch;
	if (hz < TSC_MIN_HZ || hz > TSC_MAX_HZ) {
		snprintf(why, len, "the PIT gives a TSC of %llu kHz, which no CPU has",
			 (unsigned long long)(hz / 1000));
		return 0;
	}
	return hz;
}

static uint64_t median3(uint64_t a, uint64_t b, uint64_t c)
{
	return max(min(a, b), min(max(a, b), c));
}

/* The ACPI PM timer: the median of three 50 ms runs. */
static uint64_t calibrate_pmtimer(const char *acpi_why, char *why, size_t len)
{
	uint64_t r[3], hz;
	const char *w;

	if (!pm_timer_found) {
		snprintf(why, len, "no ACPI PM timer: %s", acpi_why);
		return 0;
	}
	for (int i = 0; i < 3; i++) {
		r[i] = pmtimer_measure_hz(ACPI_PM_TIMER_HZ / 20, &w);
		if (!r[i]) {
			snprintf(why, len, "%s (port %#x)", w, pm_timer.port);
			return 0;
		}
	}
	hz = median3(r[0], r[1], r[2]);
	if (hz < TSC_MIN_HZ || hz > TSC_MAX_HZ) {
		snprintf(why, len, "the ACPI PM timer gives a TSC of %llu kHz, which no CPU has",
			 (unsigned long long)(hz / 1000));
		return 0;
	}
	return hz;
}

static void time_summary(void)
{
	summary_line("clock: %s, TSC %llu.%03llu MHz, calibrated against %s", ktime_clock_name(),
		     (unsigned long long)(tsc_khz / 1000), (unsigned long long)(tsc_khz % 1000),
		     cal_source);
}

int time_init(void)
{
	int mode = param_get_enum("tsc_calibrate");
	char pit_why[160] = "", pm_why[200] = "", acpi_why[160] = "";
	uint64_t hz = 0;

	/* found whether or not it is needed: the selftests compare the TSC with it too */
	pm_timer_found =
		!acpi_find_pm_timer(acpi_phys, NULL, &pm_timer, acpi_why, sizeof(acpi_why));

	if (mode != CAL_PMTIMER)
		hz = calibrate_pit(pit_why, sizeof(pit_why));
	if (hz) {
		snprintf(cal_source, sizeof(cal_source), "the PIT");
	} else if (mode != CAL_PIT) {
		hz = calibrate_pmtimer(acpi_why, pm_why, sizeof(pm_why));
		if (hz)
			snprintf(cal_source, sizeof(cal_source),
				 "the ACPI PM timer (port %#x, %d-bit)", pm_timer.port,
				 pm_timer.bits32 ? 32 : 24);
	}
	if (pit_why[0] && hz)
		pr_warn("time: %s; the ACPI PM timer instead\n", pit_why);
	if (!hz && mode == CAL_AUTO) {
		unsigned int a, b, c, d;

		if (__get_cpuid(0x16, &a, &b, &c, &d) && (a & 0xffff)) {
			pr_warn("time: %s; %s; using CPUID's nominal %u MHz\n", pit_why, pm_why,
				a & 0xffff);
			hz = (uint64_t)(a & 0xffff) * 1000000;
			snprintf(cal_source, sizeof(cal_source), "nothing (CPUID's nominal rate)");
		}
	}
	if (!hz) {
		pr_err("time: cannot calibrate the TSC: %s%s%s\n", pit_why,
		       pit_why[0] && pm_why[0] ? "; " : "", pm_why);
		return -ENODEV;
	}
	/*
	 * tools/run-qemu says in fw_cfg when it gave the guest QEMU's
	 * instruction-count clock (-icount shift=0,sleep=off): one nanosecond
	 * per instruction, idle time skipped.
	 */
	char clock[16];

	if (qemu_fw_cfg_file("opt/lookahead/clock", clock, sizeof(clock)) > 0 &&
	    !strcmp(clock, "virtual"))
		clock_virtual = true;
	/*
	 * Under -icount QEMU's TSC counts the virtual clock's nanoseconds: 1 GHz
	 * exactly. A measurement over PIT ticks lands within a few parts per
	 * million of it, by how the boot's first instructions fell against the
	 * PIT's phase, so any change of code before this point would scale
	 * every time a run reports: take the exact rate when the measurement
	 * agrees with it.
	 */
	if (clock_virtual) {
		if (hz > 999000000ULL && hz < 1001000000ULL) {
			hz = 1000000000ULL;
			snprintf(cal_source + strlen(cal_source), sizeof(cal_source) -
				 strlen(cal_source), ", exactly 1 GHz under -icount");
		} else {
			pr_warn("time: -icount but the TSC runs at %llu kHz, not 1 GHz\n",
				(unsigned long long)(hz / 1000));
		}
	}
	set_tsc_khz(hz / 1000);
	tsc_base = rdtsc();
	pr_info("time: %s clock: TSC %llu.%03llu MHz (calibrated against %s)\n",
		clock_virtual ? "virtual (QEMU -icount)" : "real",
		(unsigned long long)(tsc_khz / 1000), (unsigned long long)(tsc_khz % 1000),
		cal_source);
	summary_register(time_summary);
	return 0;
}

const char *ktime_calibration_source(void)
{
	return cal_source;
}

/*
 * Stalls nest (console output inside a benchmark's harness, say): only the
 * outermost one moves the clock's base, and the clock reads its start
 * until it ends.
 */
static unsigned int stall_depth;
static uint64_t stall_tsc, stall_ns;

uint64_t ktime_ns(void)
{
	uint64_t d = rdtsc() - tsc_base;

	if (!ns_mult)
		return 0;
	if (stall_depth)
		return stall_ns;
	return (uint64_t)(((unsigned __int128)d * ns_mult) >> 32);
}

const char *ktime_clock_name(void)
{
	return clock_virtual ? "virtual" : "real";
}

bool ktime_is_virtual(void)
{
	return clock_virtual;
}

void apic_timer_stop(void);
void sched_timer_rearm(void);

uint64_t ktime_stall_begin(bool stop)
{
	uint64_t tsc = rdtsc();

	/*
	 * The TSC is read first and last: what a stall does in between (the
	 * APIC's mask, the timer's new count) costs the clock nothing, so a
	 * hold (ktime_hold_begin()) costs only the few instructions around.
	 */
	if (stop && !stall_depth) {
		stall_tsc = tsc;
		stall_ns = ns_mult ? (uint64_t)(((unsigned __int128)(tsc - tsc_base) * ns_mult) >> 32)
				   : 0;
		stall_depth = 1;
		/*
		 * The APIC timer is stopped, not masked: expiring meanwhile it
		 * would interrupt at a host-dependent point, and a masked one
		 * could still expire in the instructions between its unmasking
		 * and its new count, which is how long the stall ran on the
		 * instruction count: time leaking into the run.
		 */
		apic_timer_stop();
		return tsc;
	}
	stall_depth += stop;
	return tsc;
}

void ktime_stall_end(uint64_t begin, bool stop)
{
	(void)begin;
	if (!stop || stall_depth > 1) {
		stall_depth -= stop;
		return;
	}
	/* re-armed while the clock still reads the stall's start */
	sched_timer_rearm();
	stall_depth = 0;
	tsc_base += rdtsc() - stall_tsc;
}

void ktime_hold_begin(struct ktime_hold *h)
{
	h->stop = clock_virtual;
	h->flags = h->stop ? local_irq_save() : 0;
	h->begin = ktime_stall_begin(h->stop);
}

void ktime_hold_end(struct ktime_hold *h)
{
	ktime_stall_end(h->begin, h->stop);
	if (h->stop)
		local_irq_restore(h->flags);
}

void ktime_idle_wake(uint64_t ns)
{
	uint64_t ticks;

	if (!clock_virtual || stall_depth || !ns_mult)
		return;
	/* in two parts, without overflow for years of clock */
	ticks = ns / NSEC_PER_MSEC * tsc_khz + ns % NSEC_PER_MSEC * tsc_khz / NSEC_PER_MSEC;
	tsc_base = rdtsc() - ticks;
}

void udelay(unsigned long us)
{
	uint64_t end;

	if (!tsc_khz) {
		/* Before calibration: about 1 us per port 0x80 write. */
		for (unsigned long i = 0; i < us; i++)
			outb(0x80, 0);
		return;
	}
	end = rdtsc() + us * tsc_khz / 1000;
	/* a short spin per TSC read: rdtsc is slow under QEMU's instruction-count clock */
	while ((int64_t)(rdtsc() - end) < 0)
		cpu_spin(16);
}
