/*
 * AHCI command issue and completion (see drivers/ahci-internal.h).
 *
 * The block layer calls ahci_queue_rq() from a submitting thread; it builds
 * the command in a free slot (READ/WRITE FPDMA QUEUED with NCQ, else
 * READ/WRITE DMA EXT one at a time) and issues it: the slot bit goes into
 * port->active and PxCI under the same interrupt mask. Completion: the MSI
 * handler only moves PxIS into port->irq_status and wakes the port thread;
 * the port thread ends requests whose bit is set in port->active and clear
 * in PxCI and PxSACT. With ahci_poll=1 or without MSI it polls instead,
 * yielding between polls.
 */
#include <stdio.h>
#include <string.h>

#include "drivers/ahci-events.h"
#include "drivers/ahci-internal.h"
#include "kernel/init.h"
#include "kernel/io.h"
#include "kernel/irq.h"
#include "kernel/log.h"
#include "kernel/param.h"
#include "kernel/sync.h"
#include "kernel/time.h"
#include "mm/mm.h"

/* --- commands ---------------------------------------------------------------- */

void fis_set_lba(struct fis_reg_h2d *fis, uint64_t lba)
{
	fis->lba0 = (uint8_t)lba;
	fis->lba1 = (uint8_t)(lba >> 8);
	fis->lba2 = (uint8_t)(lba >> 16);
	fis->lba3 = (uint8_t)(lba >> 24);
	fis->lba4 = (uint8_t)(lba >> 32);
	fis->lba5 = (uint8_t)(lba >> 40);
}

struct fis_reg_h2d *prep_header(struct ahci_port *port, int slot, uint16_t prdtl, bool write)
{
	struct ahci_cmd_header *h = &port->cmd_list[slot];
	struct ahci_cmd_table *t = port->tables[slot];
	phys_addr_t ctba = virt_to_phys(t);

	memset(t, 0, offsetof(struct ahci_cmd_table, prdt));
	h->flags = (uint16_t)((sizeof(struct fis_reg_h2d) / 4) | (write ? AHCI_CMD_W : 0));
	h->prdtl = prdtl;
	h->prdbc = 0;
	h->ctba = (uint32_t)ctba;
	h->ctbau = (uint32_t)(ctba >> 32);
	return (struct fis_reg_h2d *)t->cfis;
}

static int add_prd(struct ahci_port *port, struct ahci_cmd_table *t, unsigned int *n,
		   phys_addr_t pa, uint32_t len)
{
	struct ahci_prd *prev = *n ? &t->prdt[*n - 1] : NULL;

	if (!(port->host->cap & AHCI_CAP_S64A) && pa + len > (1ULL << 32)) {
		pr_err("%s: buffer at %#llx is above 4 GiB and the HBA has no 64-bit DMA\n",
		       port->name, (unsigned long long)pa);
		return -EIO;
	}
	/* physically contiguous with the last entry: extend it */
	if (prev && ((uint64_t)prev->dbau << 32 | prev->dba) + (prev->dbc_i & 0x3fffff) + 1 == pa &&
	    (prev->dbc_i & 0x3fffff) + 1 + len <= AHCI_PRD_MAX_BYTES) {
		prev->dbc_i += len;
		return 0;
	}
	if (*n == AHCI_MAX_PRDS) {
		pr_err("%s: request needs more than %zu PRDs\n", port->name, AHCI_MAX_PRDS);
		return -EIO;
	}
	t->prdt[*n] = (struct ahci_prd){(uint32_t)pa, (uint32_t)(pa >> 32), 0, len - 1};
	(*n)++;
	return 0;
}

/* PRDs for bytes [@off, @off + @len) of @rq's data. Returns the count or -errno. */
static int build_prdt(struct ahci_port *port, struct ahci_cmd_table *t, struct request *rq,
		      uint64_t off, uint64_t len)
{
	unsigned int n = 0;

	for (struct bio *bio = rq->bio; bio && len; bio = bio->bi_next) {
		for (unsigned int i = 0; i < bio->bi_vcnt && len; i++) {
			struct bio_vec *bv = &bio->bi_io_vec[i];
			uint32_t take;

			if (off >= bv->bv_len) {
				off -= bv->bv_len;
				continue;
			}
			take = (uint32_t)min_t(uint64_t, bv->bv_len - off, len);
			if (add_prd(port, t, &n,
				    virt_to_phys(page_address(bv->bv_page)) + bv->bv_offset + off,
				    take))
				return -EIO;
			len -= take;
			off = 0;
		}
	}
	return len ? -EINVAL : (int)n;
}

/*
 * Build a read or write of logical sectors [@lsec, @lsec + @count) of the
 * device, from byte @off of @rq's data, into @slot; NCQ when @ncq.
 */
int build_rw(struct ahci_port *port, int slot, struct request *rq, uint64_t lsec, uint32_t count,
	     uint64_t off, bool ncq)
{
	bool write = rq->op == REQ_OP_WRITE;
	uint64_t bytes = (uint64_t)count << (SECTOR_SHIFT + port->lss_shift);
	int n = build_prdt(port, port->tables[slot], rq, off, bytes);
	struct fis_reg_h2d *fis;

	if (n < 0)
		return n;
	fis = prep_header(port, slot, (uint16_t)n, write);
	fis->fis_type = FIS_TYPE_REG_H2D;
	fis->pmport_c = FIS_H2D_C;
	fis->device = ATA_DEVICE_LBA;
	fis_set_lba(fis, lsec);
	if (ncq) {
		fis->command = write ? ATA_CMD_WRITE_FPDMA_QUEUED : ATA_CMD_READ_FPDMA_QUEUED;
		fis->featurel = (uint8_t)count; /* 0 means 65536 */
		fis->featureh = (uint8_t)(count >> 8);
		fis->countl = (uint8_t)(slot << 3);
	} else {
		fis->command = write ? ATA_CMD_WRITE_DMA_EXT : ATA_CMD_READ_DMA_EXT;
		fis->countl = (uint8_t)count;
		fis->counth = (uint8_t)(count >> 8);
	}
	return 0;
}

static void build_flush(struct ahci_port *port, int slot)
{
	struct fis_reg_h2d *fis = prep_header(port, slot, 0, false);

	fis->fis_type = FIS_TYPE_REG_H2D;
	fis->pmport_c = FIS_H2D_C;
	fis->command = ATA_CMD_FLUSH_CACHE_EXT;
	fis->device = ATA_DEVICE_LBA;
}

int build_request(struct ahci_port *port, int slot, struct request *rq, bool ncq)
{
	if (rq->op == REQ_OP_FLUSH) {
		build_flush(port, slot);
		return 0;
	}
	return build_rw(port, slot, rq, rq->sector >> port->lss_shift,
			rq->nr_sectors >> port->lss_shift, 0, ncq);
}

/*
 * Issue the command built in @slot and wait for it, with no other command
 * outstanding (bring-up and recovery). Yields between polls. Returns 0,
 * -EIO when the device or HBA reported an error, -ETIMEDOUT.
 */
int ahci_exec_sync(struct ahci_port *port, int slot, uint64_t timeout_ns, uint32_t *is_out)
{
	volatile struct ahci_port_regs *r = port->regs;
	uint32_t bit = 1u << slot, is = 0, ci, tfd;
	uint64_t deadline = ktime_ns() + timeout_ns;

	(void)ahci_take_is(port);
	barrier();
	writel(bit, &r->ci);
	for (;;) {
		bool expired = ktime_ns() >= deadline;

		is |= ahci_take_is(port);
		ci = readl(&r->ci);
		tfd = readl(&r->tfd);
		if (is_out)
			*is_out = is;
		if ((is & AHCI_PxIS_ERROR) || (!(ci & bit) && (tfd & ATA_STS_ERR)))
			return -EIO;
		if (!(ci & bit))
			return 0;
		if (expired)
			return -ETIMEDOUT;
		thread_yield();
	}
}
/* --- the request path ---------------------------------------------------------------- */

static void issue(struct ahci_port *port, int slot, struct request *rq, bool ncq)
{
	uint32_t bit = 1u << slot;
	bool was_idle = !port->active;
	unsigned long flags;

	port->slot_rq[slot] = rq;
	port->slot_deadline[slot] = ktime_ns() + port->timeout_ns;
	barrier(); /* the command table is complete before the HBA may fetch it */
	flags = local_irq_save();
	port->active |= bit;
	if (ncq) {
		port->ncq_active |= bit;
		writel(bit, &port->regs->sact);
	}
	writel(bit, &port->regs->ci);
	local_irq_restore(flags);
	if (port->bdev.dmodel && dm_submit(port->bdev.dmodel, slot,
					   rq->op == REQ_OP_READ    ? DM_READ
					   : rq->op == REQ_OP_WRITE ? DM_WRITE
								    : DM_FLUSH,
					   rq->sector, rq->nr_sectors, ktime_ns()))
		pr_err("%s: %s: the disk model refused slot %d (sectors %llu+%u)\n", port->name,
		       port->bdev.name, slot, (unsigned long long)rq->sector, rq->nr_sectors);
	port->peak_active = max(port->peak_active, (unsigned int)__builtin_popcount(port->active));
	if (was_idle) {
		port->kick = true;
		wake_up(&port->wq);
	}
}

static int ahci_queue_rq(struct block_device *bdev, struct request *rq)
{
	struct ahci_port *port = bdev->driver_data;
	uint32_t free_slots;
	bool ncq;
	int slot, err;

	if (port->state == PORT_DEAD)
		return -ENODEV;
	if (port->state == PORT_RECOVERY)
		return -EBUSY;
	if (rq->op != REQ_OP_READ && !port->write_ok) {
		static bool told;

		if (!told)
			pr_err("%s: writes are disabled; boot with ahci_write=1, on scratch disks "
			       "only\n",
			       port->name);
		told = true;
		return -EROFS;
	}
	ncq = port->ncq && rq->op != REQ_OP_FLUSH;
	/* NCQ and non-queued commands never share the port. */
	if (port->active && (!ncq || port->ncq_active != port->active))
		return -EBUSY;
	free_slots = port->slot_mask & ~port->active;
	if (!free_slots)
		return -EBUSY;
	slot = __builtin_ctz(free_slots);
	err = build_request(port, slot, rq, ncq);
	if (err)
		return err;
	issue(port, slot, rq, ncq);
	return 0;
}

const struct blk_queue_ops ahci_queue_ops = {.queue_rq = ahci_queue_rq};

void end_slot(struct ahci_port *port, int slot, int status, sector_t error_sector)
{
	struct request *rq = port->slot_rq[slot];
	uint32_t bit = 1u << slot;
	unsigned long flags = local_irq_save();

	port->active &= ~bit;
	port->ncq_active &= ~bit;
	port->slot_rq[slot] = NULL;
	local_irq_restore(flags);
	blk_end_request(rq, status, error_sector);
}

/* End every issued command whose bit is clear in both PxCI and PxSACT. */
static void complete_done(struct ahci_port *port)
{
	uint32_t done = port->active & ~(readl(&port->regs->ci) | readl(&port->regs->sact));

	while (done) {
		int slot = __builtin_ctz(done);

		done &= done - 1;
		end_slot(port, slot, 0, 0);
	}
}

/* --- completion ------------------------------------------------------------------------ */

/*
 * Look at the port's error state; true when it found an error (and
 * handled it, or noted a link event with nothing outstanding).
 */
/* A real link's recovered or diagnostic condition: count it, clear it, go on. */
static void note_event(struct ahci_port *port, uint32_t serr)
{
	port->nr_noted++;
	port->serr_noted |= serr;
	if (serr)
		writel(serr, &port->regs->serr);
}

static bool port_error(struct ahci_port *port, uint32_t is)
{
	uint32_t tfd = readl(&port->regs->tfd), serr = readl(&port->regs->serr);
	const char *why;

	/*
	 * STS.ERR alone is stale after a recovered non-queued error, so it
	 * counts only together with a FIS that just arrived (how QEMU 7.2
	 * reports a failed NCQ command); see drivers/ahci-events.h.
	 */
	switch (ahci_classify(is, serr, tfd, &why)) {
	case AHCI_EV_NONE:
		return false;
	case AHCI_EV_NOTE:
		note_event(port, serr);
		return false;
	case AHCI_EV_RECOVER:
		break;
	}
	if (!port->active) {
		/* a link event with nothing outstanding: note it and clear it */
		pr_warn("%s: %s: port event with no command outstanding: IS %08x SERR %08x "
			"SSTS %08x\n",
			port->name, port->bdev.name, is, serr, readl(&port->regs->ssts));
		writel(0xffffffffu, &port->regs->serr);
		if (!link_up(port)) {
			pr_err("%s: %s: link lost; the disk is offline\n", port->name,
			       port->bdev.name);
			port->state = PORT_DEAD;
		}
		return true;
	}
	if (port->bdev.dmodel) /* recovery runs unmodelled; the drive's queue is gone */
		dm_abort_all(port->bdev.dmodel, ktime_ns());
	ahci_error(port, is, why, false);
	return true;
}

static void ahci_service(struct ahci_port *port)
{
	uint32_t is = ahci_take_is(port);
	uint64_t now;

	if (port->state == PORT_DEAD)
		return;
	/*
	 * The HBA sets a PxIS bit for every completion and every error, whether
	 * or not it interrupts, and the handler keeps what it cleared in
	 * irq_status: with none, nothing ended since the last look (the kick of
	 * an issue, a deadline), and only the deadlines need one. Each register
	 * read is a trip into the device model under an emulator (four of the
	 * twelve a 4 KiB read cost here, docs/overhead.md).
	 */
	if (is) {
		if (port_error(port, is))
			return;
		complete_done(port);
	}
	now = ktime_ns();
	for (uint32_t a = port->active; a; a &= a - 1) {
		int slot = __builtin_ctz(a);

		if (now >= port->slot_deadline[slot]) {
			port->nr_timeouts++;
			ahci_error(port, is, "command timeout", true);
			return;
		}
	}
}

/*
 * A modelled disk (disk_model=): each command is still read through the
 * port, but it ends at the time the model says the drive would have
 * finished it, never earlier, and the port is looked at only then (its
 * interrupt stays masked), so no modelled time and no scheduling decision
 * depends on when the host happened to finish the real I/O.
 *
 * If the real I/O is not done at the modelled time, wait for it and count
 * it as late. Under the virtual clock the kernel's clock stands still
 * meanwhile (the wait measures the host, not the modelled machine, and
 * must not shift later virtual times); on a real clock the completion goes
 * at the real time. Bounded by the command timeout in raw TSC time (under
 * -icount that is instructions spent polling, longer in host time).
 * Returns 0, -EIO when the port reported an error, -ETIMEDOUT.
 */
static int model_wait_real(struct ahci_port *port, uint32_t bit, uint32_t *is_out)
{
	unsigned long flags = local_irq_save();
	bool freeze = ktime_is_virtual(), late = false;
	uint64_t limit = port->timeout_ns / NSEC_PER_USEC * tsc_khz / 1000;
	uint64_t begin = ktime_stall_begin(freeze);
	uint32_t is = 0, serr;
	int ret = -ETIMEDOUT;

	/*
	 * Everything whose course depends on the host happens between
	 * ktime_stall_begin() and ktime_stall_end(): waiting for the real I/O,
	 * and reading the port's status, whose bits depend on which other
	 * commands the host has finished by now. So under the virtual clock a
	 * completion costs the kernel the same time whatever the host did.
	 */
	for (;;) {
		if (!((readl(&port->regs->ci) | readl(&port->regs->sact)) & bit)) {
			ret = 0;
			break;
		}
		if (readl(&port->regs->is) & (AHCI_PxIS_FATAL | AHCI_PxIS_LINK)) {
			ret = -EIO;
			break;
		}
		late = true;
		if (rdtsc() - begin > limit)
			break;
		cpu_relax();
	}
	if (late) {
		port->bdev.model_late++;
		port->bdev.model_late_tsc += rdtsc() - begin;
	}
	if (ret != -ETIMEDOUT) {
		is = ahci_take_is(port);
		serr = readl(&port->regs->serr);
		switch (ahci_classify(is, serr, readl(&port->regs->tfd), NULL)) {
		case AHCI_EV_NONE:
			break;
		case AHCI_EV_NOTE:
			note_event(port, serr);
			break;
		case AHCI_EV_RECOVER:
			ret = -EIO;
			break;
		}
	}
	*is_out = is;
	ktime_stall_end(begin, freeze);
	local_irq_restore(flags);
	return ret;
}

static void ahci_service_modelled(struct ahci_port *port)
{
	struct disk_model *m = port->bdev.dmodel;

	while (port->state == PORT_RUNNING && dm_next_event(m) <= ktime_ns()) {
		struct dm_completion c;
		int slot = dm_reap(m, ktime_ns(), &c), err;
		uint32_t bit, is;

		if (slot < 0)
			break;
		bit = 1u << slot;
		if (!(port->active & bit)) {
			pr_err("%s: %s: the disk model finished slot %d, which is not issued\n",
			       port->name, port->bdev.name, slot);
			continue;
		}
		err = model_wait_real(port, bit, &is);
		if (err == -ETIMEDOUT) {
			port->nr_timeouts++;
			dm_abort_all(m, ktime_ns());
			ahci_error(port, ahci_take_is(port), "command timeout (modelled disk)",
				   true);
			return;
		}
		if (err && port_error(port, is))
			return;
		end_slot(port, slot, 0, 0);
	}
}

static uint64_t earliest_deadline(struct ahci_port *port)
{
	uint64_t d = WAIT_FOREVER;

	for (uint32_t a = port->active; a; a &= a - 1)
		d = min(d, port->slot_deadline[__builtin_ctz(a)]);
	return d;
}

int ahci_port_thread(void *arg)
{
	struct ahci_port *port = arg;

	for (;;) {
		if (port->bdev.dmodel) {
			uint64_t d = dm_next_event(port->bdev.dmodel), now = ktime_ns();

			wait_event_timeout(port->wq, port->kick,
					   d == DM_NONE ? WAIT_FOREVER
					   : d > now	? d - now
							: 0);
			port->kick = false;
			ahci_service_modelled(port);
			continue;
		}
		if (port->host->poll) {
			if (!port->active)
				wait_event(port->wq, port->kick);
			port->kick = false;
			ahci_service(port);
			if (port->active)
				thread_yield();
			continue;
		}
		uint64_t d = earliest_deadline(port), now = ktime_ns();

		wait_event_timeout(port->wq, port->irq_status || port->kick,
				   d == WAIT_FOREVER ? WAIT_FOREVER
				   : d > now	     ? d - now
						     : 0);
		port->kick = false;
		ahci_service(port);
	}
	return 0;
}

void ahci_irq(int vector, void *data)
{
	struct ahci_host *host = data;
	uint32_t is = readl(&host->regs->is);

	(void)vector;
	for (uint32_t pending = is & host->pi; pending; pending &= pending - 1) {
		int no = __builtin_ctz(pending);
		struct ahci_port *port = host->ports[no];
		uint32_t pis = readl(&host->regs->ports[no].is);

		/* clear PxIS before IS.IPS (section 10.7.2.1) */
		writel(pis, &host->regs->ports[no].is);
		if (port) {
			port->irq_status |= pis;
			wake_up(&port->wq);
		}
	}
	writel(is, &host->regs->is);
}
