/*
 * The AHCI port's registers (AHCI 1.3.1; see drivers/ahci-internal.h), the
 * few operations that bring-up (drivers/ahci.c), command completion
 * (drivers/ahci-cmd.c) and error handling (drivers/ahci-eh.c) all use:
 *  - the one bounded register wait (the HBA's and the ports' registers);
 *  - PxIS taken (what the MSI handler collected plus what the port holds)
 *    and every port register logged once;
 *  - the engines (section 10.1.2): PxCMD.ST and CR, FRE and FR stopped and
 *    started, the device's BSY/DRQ waited for;
 *  - the link: PxSSTS.DET, and COMRESET through PxSCTL.DET (section 10.4.2).
 */
#include "drivers/ahci-internal.h"
#include "kernel/io.h"
#include "kernel/log.h"
#include "kernel/sync.h"
#include "kernel/time.h"

/* --- register access and the one bounded wait ------------------------------ */

/*
 * Poll @reg until (value & @mask) == @want (or, with AHCI_WAIT_NE, until it
 * differs). Between reads it busy-waits @interval_us, or yields to other
 * threads when @interval_us is 0. Returns 0, or -ETIMEDOUT after
 * @timeout_us; *@last (if given) gets the final value. The register is read
 * once more after the deadline, so a condition that became true just then
 * counts, and expiry never reports success.
 */

int ahci_wait_register(volatile uint32_t *reg, uint32_t mask, uint32_t want,
		       unsigned long interval_us, uint64_t timeout_us, uint32_t *last)
{
	bool ne = timeout_us & AHCI_WAIT_NE;
	uint64_t deadline = ktime_ns() + (timeout_us & ~AHCI_WAIT_NE) * NSEC_PER_USEC;
	uint32_t v;

	for (;;) {
		bool expired = ktime_ns() >= deadline;

		v = readl(reg);
		if (((v & mask) == want) != ne) {
			if (last)
				*last = v;
			return 0;
		}
		if (expired)
			break;
		if (interval_us)
			udelay(interval_us);
		else
			thread_yield();
	}
	if (last)
		*last = v;
	return -ETIMEDOUT;
}

/* Take the port's interrupt status: what the handler collected plus what PxIS holds now. */
uint32_t ahci_take_is(struct ahci_port *port)
{
	unsigned long flags = local_irq_save();
	uint32_t is = readl(&port->regs->is);

	if (is)
		writel(is, &port->regs->is);
	is |= port->irq_status;
	port->irq_status = 0;
	local_irq_restore(flags);
	return is;
}

void ahci_dump_regs(struct ahci_port *port, const char *why, uint32_t is)
{
	volatile struct ahci_port_regs *r = port->regs;

	pr_err("%s: %s: %s: IS %08x CMD %08x TFD %08x SSTS %08x SERR %08x SACT %08x CI %08x "
	       "(driver: active %08x, ncq %08x)\n",
	       port->name, port->bdev.name[0] ? port->bdev.name : "-", why, is, readl(&r->cmd),
	       readl(&r->tfd), readl(&r->ssts), readl(&r->serr), readl(&r->sact), readl(&r->ci),
	       port->active, port->ncq_active);
}
/* --- port engines and link ------------------------------------------------- */

/* Section 10.1.2: clear ST and wait for CR; then FRE and FR if @fis too. */
int ahci_port_stop(struct ahci_port *port, bool fis)
{
	volatile struct ahci_port_regs *r = port->regs;
	uint32_t v;

	writel(readl(&r->cmd) & ~AHCI_PxCMD_ST, &r->cmd);
	if (ahci_wait_register(&r->cmd, AHCI_PxCMD_CR, 0, 100, T_ENGINE_STOP_US, &v)) {
		pr_err("%s: command list did not stop within 500 ms (PxCMD %08x)\n", port->name, v);
		return -ETIMEDOUT;
	}
	if (!fis)
		return 0;
	writel(readl(&r->cmd) & ~AHCI_PxCMD_FRE, &r->cmd);
	if (ahci_wait_register(&r->cmd, AHCI_PxCMD_FR, 0, 100, T_ENGINE_STOP_US, &v)) {
		pr_err("%s: FIS receive did not stop within 500 ms (PxCMD %08x)\n", port->name, v);
		return -ETIMEDOUT;
	}
	return 0;
}

/* Wait until the device is neither busy nor requesting data. */
int ahci_wait_device_ready(struct ahci_port *port, uint64_t timeout_us)
{
	uint32_t tfd;

	if (ahci_wait_register(&port->regs->tfd, ATA_STS_BSY | ATA_STS_DRQ, 0, 1000, timeout_us,
			       &tfd)) {
		pr_err("%s: device still busy after %llu ms (PxTFD %08x)\n", port->name,
		       (unsigned long long)(timeout_us / 1000), tfd);
		return -ETIMEDOUT;
	}
	return 0;
}

int ahci_port_start(struct ahci_port *port)
{
	volatile struct ahci_port_regs *r = port->regs;

	if (ahci_wait_device_ready(port, ahci_ready_us))
		return -EIO;
	writel(readl(&r->cmd) | AHCI_PxCMD_FRE, &r->cmd);
	writel(readl(&r->cmd) | AHCI_PxCMD_ST, &r->cmd);
	return 0;
}

bool link_up(struct ahci_port *port)
{
	return AHCI_SSTS_DET(readl(&port->regs->ssts)) == AHCI_DET_PHY;
}

/*
 * Section 10.4.2: COMRESET with PxCMD.ST clear. DET = 1 for at least 1 ms,
 * then DET = 0; a device shows up within milliseconds (an empty port stays
 * at DET = 0 and is given up quickly), then the Phy gets @link_us.
 * Power-management transitions stay off.
 */
int comreset_wait(struct ahci_port *port, uint64_t link_us)
{
	volatile struct ahci_port_regs *r = port->regs;
	uint32_t ssts;

	port->nr_comresets++;
	writel(AHCI_SCTL_IPM_NONE | AHCI_SCTL_DET_COMRESET, &r->sctl);
	udelay(1100);
	writel(AHCI_SCTL_IPM_NONE, &r->sctl);
	if (ahci_wait_register(&r->ssts, 0xf, AHCI_DET_NONE, 1000, T_PRESENCE_US | AHCI_WAIT_NE,
			       &ssts) ||
	    ahci_wait_register(&r->ssts, 0xf, AHCI_DET_PHY, 1000, link_us, &ssts))
		return -ENODEV;
	writel(0xffffffffu, &r->serr); /* the link coming up sets DIAG bits */
	return 0;
}

int ahci_comreset(struct ahci_port *port)
{
	return comreset_wait(port, T_LINK_US);
}
