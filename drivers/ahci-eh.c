/*
 * AHCI error handling (see drivers/ahci-internal.h). On a task file,
 * interface, host bus or overflow error, or a command past its deadline,
 * the port thread logs every port register once, ends the commands that
 * completed, stops the port, clears the errors, COMRESETs when the link or
 * device needs it, restarts, and reissues the commands that did not
 * complete one at a time without NCQ. One that fails again is narrowed down
 * to its first failing sector (bisecting the range; every sector before it
 * is read) and ends with -EIO naming that sector. New requests wait (-EBUSY
 * to the block layer) until recovery is over.
 */
#include <stdio.h>
#include <string.h>

#include "drivers/ahci-internal.h"
#include "kernel/init.h"
#include "kernel/io.h"
#include "kernel/irq.h"
#include "kernel/log.h"
#include "kernel/param.h"
#include "kernel/sync.h"
#include "kernel/time.h"
#include "mm/mm.h"

int ahci_port_restart(struct ahci_port *port, bool comreset)
{
	volatile struct ahci_port_regs *r = port->regs;

	if (ahci_port_stop(port, false))
		comreset = true;
	writel(0xffffffffu, &r->serr);
	writel(0xffffffffu, &r->is);
	(void)ahci_take_is(port);
	/*
	 * A device still busy, or with commands the HBA did not drop, needs a
	 * reset; so does one still showing STS.ERR: QEMU echoes that stale
	 * status in a D2H FIS when it accepts the next NCQ command.
	 */
	if (readl(&r->tfd) & (ATA_STS_BSY | ATA_STS_DRQ | ATA_STS_ERR) || readl(&r->ci) ||
	    readl(&r->sact))
		comreset = true;
	if (comreset && ahci_comreset(port)) {
		pr_err("%s: %s: the link did not come back after COMRESET (PxSSTS %08x); "
		       "the disk is offline\n",
		       port->name, port->bdev.name, readl(&r->ssts));
		port->state = PORT_DEAD;
		return -ENODEV;
	}
	writel(0xffffffffu, &r->is);
	(void)ahci_take_is(port);
	if (ahci_port_start(port)) {
		port->state = PORT_DEAD;
		return -ENODEV;
	}
	return 0;
}

static const char *op_str(const struct request *rq)
{
	return rq->op == REQ_OP_READ ? "read" : rq->op == REQ_OP_WRITE ? "write" : "flush";
}

/*
 * @rq failed twice with a device error. Find its first failing logical
 * sector by bisection: read the front half; if it succeeds the error lies
 * behind it, else in it. Every sector before the one found has been
 * transferred by a successful step. Returns that 512-byte sector.
 */
static sector_t bisect_failure(struct ahci_port *port, struct request *rq)
{
	uint64_t lo = 0, hi = rq->nr_sectors >> port->lss_shift; /* [lo, hi) holds the error */
	uint64_t first = rq->sector >> port->lss_shift;
	unsigned int lss_bytes_shift = SECTOR_SHIFT + port->lss_shift;

	while (hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2;
		int err;

		if (build_rw(port, 0, rq, first + lo, (uint32_t)(mid - lo), lo << lss_bytes_shift,
			     false))
			break;
		err = ahci_exec_sync(port, 0, port->timeout_ns, NULL);
		if (err) {
			if (ahci_port_restart(port, err == -ETIMEDOUT))
				break;
			if (err == -ETIMEDOUT)
				break;
			hi = mid;
		} else {
			lo = mid;
		}
	}
	return (first + lo) << port->lss_shift;
}

/* Reissue the requests on port->retry one at a time, without NCQ. */
static void run_retries(struct ahci_port *port)
{
	while (port->nr_retry && port->state == PORT_RECOVERY) {
		struct request *rq = port->retry[0];
		uint32_t is = 0;
		int err;

		memmove(&port->retry[0], &port->retry[1], --port->nr_retry * sizeof(rq));
		port->nr_retries++;
		err = build_request(port, 0, rq, false);
		if (!err)
			err = ahci_exec_sync(port, 0, port->timeout_ns, &is);
		if (!err) {
			blk_end_request(rq, 0, 0);
			continue;
		}
		ahci_dump_regs(port, err == -ETIMEDOUT ? "retry timed out" : "retry failed", is);
		if (ahci_port_restart(port, err == -ETIMEDOUT)) {
			blk_end_request(rq, -EIO, rq->sector);
			break;
		}
		sector_t bad = rq->sector;

		if (err == -EIO && rq->op != REQ_OP_FLUSH &&
		    rq->nr_sectors > (1u << port->lss_shift))
			bad = bisect_failure(port, rq);
		pr_err("%s: %s: %s error at sector %llu (request of sectors %llu-%llu): %s\n",
		       port->name, port->bdev.name, op_str(rq), (unsigned long long)bad,
		       (unsigned long long)rq->sector,
		       (unsigned long long)(rq->sector + rq->nr_sectors - 1),
		       err == -ETIMEDOUT ? "timed out" : "device error");
		blk_end_request(rq, err == -ETIMEDOUT ? -ETIMEDOUT : -EIO, bad);
	}
	if (port->state == PORT_DEAD) {
		while (port->nr_retry) {
			struct request *rq = port->retry[--port->nr_retry];

			blk_end_request(rq, -EIO, rq->sector);
		}
		return;
	}
	port->state = PORT_RUNNING;
	blk_run_queue(&port->bdev);
}

/* Something went wrong on the port: see the top of the file. */
void ahci_error(struct ahci_port *port, uint32_t is, const char *why, bool timeout)
{
	uint32_t ci = readl(&port->regs->ci), sact = readl(&port->regs->sact);
	bool had_ncq = port->ncq_active != 0;
	uint32_t suspects;
	bool comreset;

	port->nr_errors++;
	ahci_dump_regs(port, why, is);
	/* from here on new requests wait, even those submitted by the completions below */
	port->state = PORT_RECOVERY;
	/* NCQ: tags whose PxSACT bit was cleared completed; non-queued: the one active failed. */
	suspects = had_ncq ? port->active & (ci | sact) : port->active;
	while (port->active & ~suspects) {
		int slot = __builtin_ctz(port->active & ~suspects);

		end_slot(port, slot, 0, 0);
	}
	while (suspects) {
		int slot = __builtin_ctz(suspects);
		unsigned long flags = local_irq_save();

		suspects &= suspects - 1;
		port->retry[port->nr_retry++] = port->slot_rq[slot];
		port->slot_rq[slot] = NULL;
		port->active &= ~(1u << slot);
		port->ncq_active &= ~(1u << slot);
		local_irq_restore(flags);
	}
	/* A device with NCQ errors pending, or a broken link, needs a reset to take commands. */
	comreset = had_ncq || timeout || !link_up(port) ||
		   (is & (AHCI_PxIS_HBFS | AHCI_PxIS_HBDS | AHCI_PxIS_IFS | AHCI_PxIS_LINK));
	(void)ahci_port_restart(port, comreset);
	run_retries(port); /* on a dead port this fails them all */
}

/* One pass of the port thread: collect status, end what finished, handle errors and timeouts. */
