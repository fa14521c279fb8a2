/*
 * AHCI SATA driver (AHCI 1.3.1): brings up every AHCI controller the PCI
 * scan found, registers each ATA disk with the block layer and moves
 * requests to and from it with NCQ (READ/WRITE FPDMA QUEUED, up to 32 tags)
 * or, without NCQ, READ/WRITE DMA EXT one at a time.
 *
 * Bring-up (ahci_init, INIT_DRIVER): BIOS/OS handoff, HBA reset, AHCI
 * enable, MSI; per implemented port: stop the engines, point the port at a
 * command list, received-FIS area and 32 command tables in page frames,
 * COMRESET when the link is not up, wait for the device, check the
 * signature, start, IDENTIFY DEVICE, register "sdX" and start the port's
 * thread.
 *
 * Requests: the block layer calls ahci_queue_rq() from a submitting thread;
 * it builds the command in a free slot and issues it (the slot bit goes into
 * port->active and PxCI under the same interrupt mask). Completion: the MSI
 * handler only moves PxIS into port->irq_status and wakes the port thread;
 * the port thread ends requests whose bit is set in port->active and clear
 * in PxCI and PxSACT. With ahci_poll=1 or without MSI the port thread polls
 * the registers instead, yielding between polls.
 *
 * Errors (task file, interface, host bus, overflow, or a command past its
 * deadline): the port thread logs every port register once, ends the
 * commands that completed, stops the port, clears the errors, COMRESETs
 * when the link or device needs it, restarts, and reissues the commands
 * that did not complete one at a time without NCQ. One that fails again is
 * narrowed down to its first failing sector (bisecting the range; every
 * sector before it is read) and ends with -EIO naming that sector. New
 * requests wait (-EBUSY to the block layer) until recovery is over.
 *
 * Parameters: ahci_poll, ahci_ncq, ahci_max_kb, ahci_timeout_ms, ahci_write.
 */
#include <stdio.h>
#include <string.h>

#include "drivers/ahci.h"
#include "drivers/blkdev.h"
#include "drivers/pci.h"
#include "kernel/init.h"
#include "kernel/io.h"
#include "kernel/irq.h"
#include "kernel/log.h"
#include "kernel/param.h"
#include "kernel/sched.h"
#include "kernel/sync.h"
#include "kernel/time.h"
#include "mm/mm.h"

KPARAM(ahci_poll, KV_BOOL, NULL, "1: complete AHCI commands by polling instead of MSI");
KPARAM(ahci_ncq, KV_BOOL, NULL, "0: never use NCQ (READ/WRITE DMA EXT, one at a time)");
KPARAM(ahci_max_kb, KV_UINT, NULL,
       "largest AHCI transfer per command in KiB (4..2016, default 1024; the device may "
       "lower it)");
KPARAM(ahci_timeout_ms, KV_UINT, NULL, "AHCI command timeout in ms (100..600000, default 10000)");
KPARAM(ahci_write, KV_BOOL, NULL, "1: allow writes to the disks (scratch disks only!)");

#define AHCI_MAX_HOSTS	    4
#define AHCI_DEF_MAX_KB	    1024
#define AHCI_MAX_KB	    ((AHCI_MAX_PRDS * PAGE_SIZE) / 1024) /* any page layout fits */
#define AHCI_DEF_TIMEOUT_MS 10000

/* Register-wait bounds (AHCI 1.3.1 sections 10.1.2, 10.4, 10.6). */
#define T_ENGINE_STOP_US  500000   /* PxCMD.CR / FR clear after ST / FRE */
#define T_HBA_RESET_US	  1000000  /* GHC.HR self-clears */
#define T_BOHC_BOS_US	  25000	   /* BIOS releases ownership */
#define T_BOHC_BB_US	  2000000  /* ... or finishes while BIOS busy */
#define T_PRESENCE_US	  20000	   /* DET != 0: a device answered COMRESET */
#define T_LINK_US	  1000000  /* DET = 3: Phy communication established */
#define T_DEVICE_READY_US 10000000 /* BSY/DRQ clear: spin-up */
#define T_IDENTIFY_NS	  (5 * NSEC_PER_SEC)

enum port_state {
	PORT_RUNNING,  /* commands go to the device */
	PORT_RECOVERY, /* the port thread reissues failed commands; new ones wait */
	PORT_DEAD,     /* the link is gone: every command fails */
};

struct ahci_host;

struct ahci_port {
	struct ahci_host *host;
	int no;
	char name[16]; /* "ahci0.2" */
	volatile struct ahci_port_regs *regs;
	struct ahci_cmd_header *cmd_list; /* 32 headers, 1 KiB */
	struct ahci_rx_fis *rx_fis;
	struct ahci_cmd_table *tables[32];
	struct request *slot_rq[32];
	uint64_t slot_deadline[32];
	uint32_t slot_mask;	      /* slots (= NCQ tags) this port may use */
	uint32_t active;	      /* issued and not yet ended: owned by the driver */
	uint32_t ncq_active;	      /* the part of active issued with PxSACT */
	volatile uint32_t irq_status; /* PxIS bits moved here by the interrupt handler */
	bool kick;		      /* the port went busy: the thread recomputes its deadline */
	struct wait_queue_head wq;    /* the port thread sleeps here */
	enum port_state state;
	struct request *retry[32]; /* to reissue one at a time after an error */
	int nr_retry;
	bool ncq;
	unsigned int lss_shift; /* log2(logical sector size / 512) */
	uint64_t timeout_ns;
	bool write_ok;
	uint64_t nr_errors, nr_timeouts, nr_comresets, nr_retries;
	unsigned int peak_active; /* most commands ever outstanding at once */
	struct block_device bdev;
	uint16_t id[256]; /* IDENTIFY DEVICE data */
};

struct ahci_host {
	int index;
	struct pci_dev *pdev;
	volatile struct ahci_hba_regs *regs;
	uint32_t cap, cap2, pi;
	unsigned int nr_slots;
	int vector; /* -1: polling */
	bool poll;
	struct ahci_port *ports[32];
};

static struct ahci_host *hosts[AHCI_MAX_HOSTS];
static int nr_hosts;

static uint64_t ahci_param(const char *key, uint64_t def)
{
	uint64_t v;

	return param_get_u64(key, &v) == 0 ? v : def;
}

/* --- register access and the one bounded wait ------------------------------ */

/*
 * Poll @reg until (value & @mask) == @want (or, with AHCI_WAIT_NE, until it
 * differs). Between reads it busy-waits @interval_us, or yields to other
 * threads when @interval_us is 0. Returns 0, or -ETIMEDOUT after
 * @timeout_us; *@last (if given) gets the final value. The register is read
 * once more after the deadline, so a condition that became true just then
 * counts, and expiry never reports success.
 */
#define AHCI_WAIT_NE (1ULL << 63) /* or'ed into @timeout_us */

static int ahci_wait_register(volatile uint32_t *reg, uint32_t mask, uint32_t want,
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
static uint32_t ahci_take_is(struct ahci_port *port)
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

static void ahci_dump_regs(struct ahci_port *port, const char *why, uint32_t is)
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
static int ahci_port_stop(struct ahci_port *port, bool fis)
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
static int ahci_wait_device_ready(struct ahci_port *port, uint64_t timeout_us)
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

static int ahci_port_start(struct ahci_port *port)
{
	volatile struct ahci_port_regs *r = port->regs;

	if (ahci_wait_device_ready(port, T_DEVICE_READY_US))
		return -EIO;
	writel(readl(&r->cmd) | AHCI_PxCMD_FRE, &r->cmd);
	writel(readl(&r->cmd) | AHCI_PxCMD_ST, &r->cmd);
	return 0;
}

static bool link_up(struct ahci_port *port)
{
	return AHCI_SSTS_DET(readl(&port->regs->ssts)) == AHCI_DET_PHY;
}

/*
 * Section 10.4.2: COMRESET with PxCMD.ST clear. DET = 1 for at least 1 ms,
 * then DET = 0; a device shows up within milliseconds (an empty port stays
 * at DET = 0 and is given up quickly), then the Phy gets a second.
 * Power-management transitions stay off.
 */
static int ahci_comreset(struct ahci_port *port)
{
	volatile struct ahci_port_regs *r = port->regs;
	uint32_t ssts;

	port->nr_comresets++;
	writel(AHCI_SCTL_IPM_NONE | AHCI_SCTL_DET_COMRESET, &r->sctl);
	udelay(1100);
	writel(AHCI_SCTL_IPM_NONE, &r->sctl);
	if (ahci_wait_register(&r->ssts, 0xf, AHCI_DET_NONE, 1000, T_PRESENCE_US | AHCI_WAIT_NE,
			       &ssts) ||
	    ahci_wait_register(&r->ssts, 0xf, AHCI_DET_PHY, 1000, T_LINK_US, &ssts))
		return -ENODEV;
	writel(0xffffffffu, &r->serr); /* the link coming up sets DIAG bits */
	return 0;
}

/* --- commands ---------------------------------------------------------------- */

static void fis_set_lba(struct fis_reg_h2d *fis, uint64_t lba)
{
	fis->lba0 = (uint8_t)lba;
	fis->lba1 = (uint8_t)(lba >> 8);
	fis->lba2 = (uint8_t)(lba >> 16);
	fis->lba3 = (uint8_t)(lba >> 24);
	fis->lba4 = (uint8_t)(lba >> 32);
	fis->lba5 = (uint8_t)(lba >> 40);
}

static struct fis_reg_h2d *prep_header(struct ahci_port *port, int slot, uint16_t prdtl, bool write)
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
static int build_rw(struct ahci_port *port, int slot, struct request *rq, uint64_t lsec,
		    uint32_t count, uint64_t off, bool ncq)
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

static int build_request(struct ahci_port *port, int slot, struct request *rq, bool ncq)
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
static int ahci_exec_sync(struct ahci_port *port, int slot, uint64_t timeout_ns, uint32_t *is_out)
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

/* --- bring-up -------------------------------------------------------------------- */

/* ATA strings: two characters per word, high byte first, padded with spaces. */
static void ata_string(const uint16_t *id, int word, int nwords, char *out)
{
	int n = 0;

	for (int i = 0; i < nwords; i++) {
		out[n++] = (char)(id[word + i] >> 8);
		out[n++] = (char)id[word + i];
	}
	out[n] = 0;
	while (n > 0 && (out[n - 1] == ' ' || out[n - 1] == 0))
		out[--n] = 0;
	for (int i = 0; i < n; i++)
		if (out[i] < 0x20 || out[i] > 0x7e)
			out[i] = '?';
}

static int ahci_identify(struct ahci_port *port)
{
	struct page *buf = alloc_page();
	struct ahci_cmd_table *t = port->tables[0];
	struct fis_reg_h2d *fis;
	uint32_t is = 0;
	int err;

	if (!buf)
		return -ENOMEM;
	memset(page_address(buf), 0, PAGE_SIZE);
	fis = prep_header(port, 0, 1, false);
	t->prdt[0] = (struct ahci_prd){(uint32_t)virt_to_phys(page_address(buf)),
				       (uint32_t)(virt_to_phys(page_address(buf)) >> 32), 0, 511};
	fis->fis_type = FIS_TYPE_REG_H2D;
	fis->pmport_c = FIS_H2D_C;
	fis->command = ATA_CMD_IDENTIFY_DEVICE;
	err = ahci_exec_sync(port, 0, T_IDENTIFY_NS, &is);
	if (err)
		ahci_dump_regs(port, "IDENTIFY DEVICE failed", is);
	else if (port->cmd_list[0].prdbc != 512)
		pr_warn("%s: IDENTIFY moved %u bytes, not 512\n", port->name,
			port->cmd_list[0].prdbc);
	memcpy(port->id, page_address(buf), sizeof(port->id));
	free_pages(buf, 0);
	return err;
}

/* Check the IDENTIFY data and fill in the block device; -EINVAL with a message if unusable. */
static int ahci_parse_identify(struct ahci_port *port)
{
	const uint16_t *id = port->id;
	struct block_device *bdev = &port->bdev;
	uint64_t capacity;
	uint32_t lss = 512;
	unsigned int max_kb;

	if (id[ATA_ID_CONFIG] & 0x8000) {
		pr_err("%s: IDENTIFY says this is not an ATA device (word 0 = %04x)\n", port->name,
		       id[ATA_ID_CONFIG]);
		return -EINVAL;
	}
	if ((id[ATA_ID_INTEGRITY] & 0xff) == 0xa5) {
		uint8_t sum = 0;

		for (int i = 0; i < 512; i++)
			sum += ((const uint8_t *)id)[i];
		if (sum) {
			pr_err("%s: IDENTIFY data fails its checksum (word 255 = %04x)\n",
			       port->name, id[ATA_ID_INTEGRITY]);
			return -EINVAL;
		}
	}
	if (!(id[ATA_ID_CAPABILITY] & (1u << 8)) || !(id[ATA_ID_COMMAND_SET_2] & (1u << 10))) {
		pr_err("%s: the disk lacks DMA or 48-bit addressing (words 49/83 = %04x/%04x); "
		       "not supported\n",
		       port->name, id[ATA_ID_CAPABILITY], id[ATA_ID_COMMAND_SET_2]);
		return -EINVAL;
	}
	capacity = (uint64_t)id[100] | (uint64_t)id[101] << 16 | (uint64_t)id[102] << 32 |
		   (uint64_t)id[103] << 48;
	if ((id[ATA_ID_SECTOR_SIZE] & 0xc000) == 0x4000 && (id[ATA_ID_SECTOR_SIZE] & (1u << 12)))
		lss = 2 * ((uint32_t)id[117] | (uint32_t)id[118] << 16);
	if (lss != 512 && lss != 4096) {
		pr_err("%s: logical sector size %u bytes; only 512 and 4096 are supported\n",
		       port->name, lss);
		return -EINVAL;
	}
	port->lss_shift = lss == 4096 ? 3 : 0;
	if (!capacity || capacity >= (1ULL << 48) >> port->lss_shift) {
		pr_err("%s: IDENTIFY reports a capacity of %llu sectors\n", port->name,
		       (unsigned long long)capacity);
		return -EINVAL;
	}
	ata_string(id, ATA_ID_MODEL, 20, bdev->model);
	ata_string(id, ATA_ID_SERIAL, 10, bdev->serial);
	ata_string(id, ATA_ID_FW_REV, 4, bdev->firmware);
	bdev->logical_sector_size = lss;
	bdev->nr_sectors = capacity << port->lss_shift;

	port->ncq = (port->host->cap & AHCI_CAP_SNCQ) && (id[ATA_ID_SATA_CAPABILITY] & (1u << 8)) &&
		    ahci_param("ahci_ncq", 1);
	if (port->ncq) {
		unsigned int depth = min_t(unsigned int, (id[ATA_ID_QUEUE_DEPTH] & 0x1f) + 1,
					   port->host->nr_slots);

		port->slot_mask = depth == 32 ? 0xffffffffu : (1u << depth) - 1;
		bdev->queue_depth = depth;
	} else {
		port->slot_mask = 1;
		bdev->queue_depth = 1;
	}
	bdev->ncq = port->ncq;

	max_kb = (unsigned int)ahci_param("ahci_max_kb", AHCI_DEF_MAX_KB);
	/* the device's limit: a 16-bit sector count (0 = 65536) */
	max_kb = min_t(unsigned int, max_kb, (65536u * lss) / 1024);
	bdev->max_sectors = ALIGN_DOWN(max_kb * 2, 1u << port->lss_shift);
	return 0;
}

static const char *sata_gen(uint32_t ssts)
{
	switch (AHCI_SSTS_SPD(ssts)) {
	case 1:
		return "1.5 Gb/s";
	case 2:
		return "3 Gb/s";
	case 3:
		return "6 Gb/s";
	default:
		return "unknown speed";
	}
}

static int ahci_port_alloc(struct ahci_port *port)
{
	struct page *pg = alloc_page();

	if (!pg)
		return -ENOMEM;
	memset(page_address(pg), 0, PAGE_SIZE);
	port->cmd_list = page_address(pg);					/* 1 KiB aligned */
	port->rx_fis = (struct ahci_rx_fis *)((char *)page_address(pg) + 1024); /* 256 aligned */
	for (int s = 0; s < (int)port->host->nr_slots; s++) {
		struct page *t = alloc_pages(1);

		if (!t)
			return -ENOMEM;
		memset(page_address(t), 0, AHCI_CMD_TABLE_SIZE);
		port->tables[s] = page_address(t);
	}
	return 0;
}

static void ahci_port_free(struct ahci_port *port)
{
	if (port->cmd_list)
		free_pages(virt_to_page(port->cmd_list), 0);
	for (int s = 0; s < 32; s++)
		if (port->tables[s])
			free_pages(virt_to_page(port->tables[s]), 1);
	kfree(port);
}

static bool addr_ok(struct ahci_port *port, const void *p, size_t len)
{
	return (port->host->cap & AHCI_CAP_S64A) || virt_to_phys(p) + len <= (1ULL << 32);
}

/*
 * Bring one implemented port from whatever state the firmware left it in
 * to running, with a device found. Returns 0, -ENODEV (nothing usable
 * attached: a message says what), or another -errno.
 */
static int ahci_port_setup(struct ahci_port *port)
{
	volatile struct ahci_port_regs *r = port->regs;
	phys_addr_t clb = virt_to_phys(port->cmd_list), fb = virt_to_phys(port->rx_fis);
	uint32_t sig, tfd;
	int err;

	if (ahci_port_stop(port, true))
		return -EIO;
	for (int s = 0; s < (int)port->host->nr_slots; s++)
		if (!addr_ok(port, port->tables[s], AHCI_CMD_TABLE_SIZE))
			return -ENOMEM;
	if (!addr_ok(port, port->cmd_list, PAGE_SIZE)) {
		pr_err("%s: command list above 4 GiB without 64-bit DMA\n", port->name);
		return -ENOMEM;
	}
	writel((uint32_t)clb, &r->clb);
	writel((uint32_t)(clb >> 32), &r->clbu);
	writel((uint32_t)fb, &r->fb);
	writel((uint32_t)(fb >> 32), &r->fbu);
	writel(0xffffffffu, &r->serr);
	writel(0xffffffffu, &r->is);
	/* no partial/slumber: a link waking up mid-I/O would show up as PxSERR events */
	writel((readl(&r->sctl) & ~(0xf00u | AHCI_SCTL_DET_MASK)) | AHCI_SCTL_IPM_NONE, &r->sctl);
	writel(readl(&r->cmd) | AHCI_PxCMD_FRE, &r->cmd);
	if (port->host->cap & AHCI_CAP_SSS)
		writel(readl(&r->cmd) | AHCI_PxCMD_SUD, &r->cmd);
	if (readl(&r->cmd) & AHCI_PxCMD_CPD)
		writel(readl(&r->cmd) | AHCI_PxCMD_POD, &r->cmd);

	if (!link_up(port)) {
		uint32_t det;

		if (ahci_comreset(port)) {
			det = AHCI_SSTS_DET(readl(&r->ssts));
			if (det == AHCI_DET_NONE)
				pr_info("%s: no device\n", port->name);
			else
				pr_err("%s: device present but the link does not come up "
				       "(PxSSTS %08x)\n",
				       port->name, readl(&r->ssts));
			return -ENODEV;
		}
	}
	writel(0xffffffffu, &r->serr);
	if (ahci_wait_device_ready(port, T_DEVICE_READY_US)) {
		/* one COMRESET for a device stuck busy */
		if (ahci_comreset(port) || ahci_wait_device_ready(port, T_DEVICE_READY_US))
			return -EIO;
	}
	/* The signature arrives with the device's first D2H FIS. */
	ahci_wait_register(&r->sig, 0xffffffffu, SATA_SIG_ATA, 1000, 100000, &sig);
	if (sig != SATA_SIG_ATA) {
		pr_info("%s: %s (signature %08x): not an ATA disk, skipped\n", port->name,
			sig == SATA_SIG_ATAPI  ? "ATAPI device"
			: sig == SATA_SIG_PM   ? "port multiplier"
			: sig == SATA_SIG_SEMB ? "enclosure bridge"
					       : "unknown device",
			sig);
		return -ENODEV;
	}
	writel(0xffffffffu, &r->is);
	tfd = readl(&r->tfd);
	err = ahci_port_start(port);
	if (err) {
		pr_err("%s: cannot start the port (PxTFD %08x)\n", port->name, tfd);
		return err;
	}
	return 0;
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

static const struct blk_queue_ops ahci_queue_ops = {.queue_rq = ahci_queue_rq};

static void end_slot(struct ahci_port *port, int slot, int status, sector_t error_sector)
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

/*
 * Stop, clear, reset if needed, restart. Returns 0 with the port running,
 * or -ENODEV when the link is gone (the port is then dead).
 */
static int ahci_port_restart(struct ahci_port *port, bool comreset)
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
static void ahci_error(struct ahci_port *port, uint32_t is, const char *why, bool timeout)
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
static void ahci_service(struct ahci_port *port)
{
	uint32_t is = ahci_take_is(port);
	uint32_t tfd, serr;
	uint64_t now;

	if (port->state == PORT_DEAD)
		return;
	tfd = readl(&port->regs->tfd);
	serr = readl(&port->regs->serr);
	/*
	 * Besides the error interrupts: QEMU 7.2 reports a failed NCQ command
	 * only with STS.ERR in an SDB FIS and a PxSERR bit; STS.ERR alone is
	 * stale after a recovered non-queued error, so it counts only together
	 * with a FIS that just arrived.
	 */
	if ((is & (AHCI_PxIS_ERROR | AHCI_PxIS_LINK)) || (port->active && serr) ||
	    ((is & (AHCI_PxIS_SDBS | AHCI_PxIS_DHRS | AHCI_PxIS_PSS)) && (tfd & ATA_STS_ERR))) {
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
			return;
		}
		ahci_error(port, is,
			   is & AHCI_PxIS_TFES	  ? "task file error"
			   : is & AHCI_PxIS_ERROR ? "interface/host bus error"
			   : is & AHCI_PxIS_LINK  ? "link change"
						  : "device error status",
			   false);
		return;
	}
	complete_done(port);
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

static uint64_t earliest_deadline(struct ahci_port *port)
{
	uint64_t d = WAIT_FOREVER;

	for (uint32_t a = port->active; a; a &= a - 1)
		d = min(d, port->slot_deadline[__builtin_ctz(a)]);
	return d;
}

static int ahci_port_thread(void *arg)
{
	struct ahci_port *port = arg;

	for (;;) {
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

static void ahci_irq(int vector, void *data)
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

/* --- controllers --------------------------------------------------------------------------- */

/* Section 10.6.3: take the HBA from the BIOS. */
static void ahci_bios_handoff(struct ahci_host *host)
{
	volatile uint32_t *bohc = &host->regs->bohc;
	uint32_t v;

	if (!(host->cap2 & AHCI_CAP2_BOH))
		return;
	writel(readl(bohc) | AHCI_BOHC_OOS, bohc);
	if (!ahci_wait_register(bohc, AHCI_BOHC_BOS, 0, 1000, T_BOHC_BOS_US, &v))
		return;
	if ((v & AHCI_BOHC_BB) &&
	    !ahci_wait_register(bohc, AHCI_BOHC_BOS, 0, 10000, T_BOHC_BB_US, &v))
		return;
	pr_warn("ahci%d: the BIOS did not release the controller (BOHC %08x); taking it anyway\n",
		host->index, v);
}

/* Section 10.4.3: HBA reset, then AHCI mode. */
static int ahci_hba_reset(struct ahci_host *host)
{
	volatile struct ahci_hba_regs *h = host->regs;
	uint32_t pi = readl(&h->pi), v;

	writel(readl(&h->ghc) | AHCI_GHC_AE, &h->ghc);
	writel(readl(&h->ghc) | AHCI_GHC_HR, &h->ghc);
	if (ahci_wait_register(&h->ghc, AHCI_GHC_HR, 0, 1000, T_HBA_RESET_US, &v)) {
		pr_err("ahci%d: HBA reset did not complete within 1 s (GHC %08x)\n", host->index,
		       v);
		return -ETIMEDOUT;
	}
	writel(AHCI_GHC_AE, &h->ghc);
	/* PI is written by firmware on some boards and lost in the reset */
	if (!readl(&h->pi) && pi)
		writel(pi, &h->pi);
	return 0;
}

static struct ahci_port *ahci_probe_port(struct ahci_host *host, int no)
{
	struct ahci_port *port = kzalloc(sizeof(*port));
	int err;

	if (!port)
		return NULL;
	port->host = host;
	port->no = no;
	port->regs = &host->regs->ports[no];
	snprintf(port->name, sizeof(port->name), "ahci%d.%d", host->index, no);
	init_waitqueue_head(&port->wq);
	port->timeout_ns = ahci_param("ahci_timeout_ms", AHCI_DEF_TIMEOUT_MS) * NSEC_PER_MSEC;
	port->write_ok = ahci_param("ahci_write", 0);
	if (ahci_port_alloc(port)) {
		pr_err("%s: out of memory for the command list and tables\n", port->name);
		goto fail;
	}
	if (ahci_port_setup(port))
		goto fail;
	if (ahci_identify(port) || ahci_parse_identify(port))
		goto fail;
	port->bdev.driver_data = port;
	err = blk_register_disk(&port->bdev, &ahci_queue_ops, AHCI_MAX_PRDS, 0);
	if (err) {
		pr_err("%s: cannot register the disk (%d)\n", port->name, err);
		goto fail;
	}
	writel(AHCI_PxIS_DHRS | AHCI_PxIS_PSS | AHCI_PxIS_DSS | AHCI_PxIS_SDBS | AHCI_PxIS_UFS |
		       AHCI_PxIS_DPS | AHCI_PxIS_PCS | AHCI_PxIS_PRCS | AHCI_PxIS_OFS |
		       AHCI_PxIS_INFS | AHCI_PxIS_IFS | AHCI_PxIS_HBDS | AHCI_PxIS_HBFS |
		       AHCI_PxIS_TFES,
	       &port->regs->ie);
	pr_info("%s: %s: %s, serial %s, firmware %s, %llu MiB (%llu sectors of %u bytes), "
		"%s%u, %s, up to %u KiB per command\n",
		port->name, port->bdev.name, port->bdev.model, port->bdev.serial,
		port->bdev.firmware, (unsigned long long)(port->bdev.nr_sectors >> 11),
		(unsigned long long)(port->bdev.nr_sectors >> port->lss_shift),
		port->bdev.logical_sector_size, port->ncq ? "NCQ depth " : "no NCQ, depth ",
		port->bdev.queue_depth, sata_gen(readl(&port->regs->ssts)),
		port->bdev.max_sectors / 2);
	return port;
fail:
	/* The HBA must not write FISes into memory we give back. */
	if (ahci_port_stop(port, true)) {
		pr_warn("%s: engines will not stop; keeping its memory\n", port->name);
		return NULL;
	}
	ahci_port_free(port);
	return NULL;
}

static int ahci_probe(struct pci_dev *pdev)
{
	struct ahci_host *host;
	uint64_t base, size;
	uint32_t vs;
	char loc[16];
	int last_port;

	pci_name(pdev, loc, sizeof(loc));
	if (nr_hosts == AHCI_MAX_HOSTS) {
		pr_err("ahci: controller %s ignored: at most %d are supported\n", loc,
		       AHCI_MAX_HOSTS);
		return -ENOSPC;
	}
	if (pci_bar(pdev, 5, &base, &size)) {
		pr_err("ahci: controller %s has no usable memory BAR5 (ABAR)\n", loc);
		return -ENODEV;
	}
	host = kzalloc(sizeof(*host));
	if (!host)
		return -ENOMEM;
	host->index = nr_hosts;
	host->pdev = pdev;
	host->vector = -1;
	host->regs = ioremap_uc(base, size);
	pci_enable(pdev, PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);

	host->cap2 = readl(&host->regs->cap2);
	host->cap = readl(&host->regs->cap);
	ahci_bios_handoff(host);
	if (ahci_hba_reset(host)) {
		kfree(host);
		return -EIO;
	}
	host->cap = readl(&host->regs->cap);
	host->pi = readl(&host->regs->pi);
	host->nr_slots = ((host->cap >> AHCI_CAP_NCS_SHIFT) & 0x1f) + 1;
	last_port = host->pi ? 31 - __builtin_clz(host->pi) : -1;
	if (last_port < 0 || 0x100 + 0x80 * (uint64_t)(last_port + 1) > size) {
		pr_err("ahci%d: ports implemented %08x do not fit the %llu-byte ABAR\n",
		       host->index, host->pi, (unsigned long long)size);
		kfree(host);
		return -ENODEV;
	}
	vs = readl(&host->regs->vs);
	pr_info("ahci%d: %s %04x:%04x AHCI %x.%x at %#llx, %d ports (PI %08x), %u slots%s%s%s\n",
		host->index, loc, pdev->vendor, pdev->device, vs >> 16, (vs >> 8) & 0xff,
		(unsigned long long)base, __builtin_popcount(host->pi), host->pi, host->nr_slots,
		host->cap & AHCI_CAP_SNCQ ? ", NCQ" : "",
		host->cap & AHCI_CAP_S64A ? ", 64-bit" : "",
		host->cap & AHCI_CAP_SSS ? ", staggered spin-up" : "");

	host->poll = ahci_param("ahci_poll", 0);
	if (!host->poll) {
		host->vector = irq_alloc_vector(ahci_irq, host);
		if (host->vector < 0 || pci_enable_msi(pdev, host->vector)) {
			pr_warn("ahci%d: %s; completing commands by polling\n", host->index,
				host->vector < 0 ? "no free interrupt vector"
						 : "no MSI capability");
			if (host->vector >= 0)
				irq_free_vector(host->vector);
			host->vector = -1;
			host->poll = true;
		}
	} else {
		pr_info("ahci%d: ahci_poll=1: completing commands by polling\n", host->index);
	}
	hosts[nr_hosts++] = host;

	for (int no = 0; no <= last_port; no++) {
		struct ahci_port *port;

		if (!(host->pi & (1u << no)))
			continue;
		port = ahci_probe_port(host, no);
		if (!port)
			continue;
		host->ports[no] = port;
		if (!thread_create(port->name, ahci_port_thread, port)) {
			pr_err("%s: no memory for the port thread; the disk is offline\n",
			       port->name);
			port->state = PORT_DEAD;
		}
	}
	writel(0xffffffffu, &host->regs->is);
	if (!host->poll)
		writel(readl(&host->regs->ghc) | AHCI_GHC_IE, &host->regs->ghc);
	return 0;
}

/* The parameters a user may get wrong: a clear error, and no disks, rather than a guess. */
static int ahci_check_params(void)
{
	uint64_t v;

	if (param_get_u64("ahci_max_kb", &v) == 0 && (v < 4 || v > AHCI_MAX_KB)) {
		pr_err("ahci: ahci_max_kb=%llu is out of range 4..%u\n", (unsigned long long)v,
		       (unsigned int)AHCI_MAX_KB);
		return -EINVAL;
	}
	if (param_get_u64("ahci_timeout_ms", &v) == 0 && (v < 100 || v > 600000)) {
		pr_err("ahci: ahci_timeout_ms=%llu is out of range 100..600000\n",
		       (unsigned long long)v);
		return -EINVAL;
	}
	return 0;
}

static int ahci_init(void)
{
	struct pci_dev *d = NULL;
	int found = 0;

	if (ahci_check_params())
		return -EINVAL;

	while ((d = pci_find_class(0x01, 0x01, 0xff, d))) {
		char loc[16];

		pr_warn("pci %s: %04x:%04x is a disk controller in IDE mode (class 01:01): "
			"lookahead drives SATA disks only through AHCI; set the SATA mode to AHCI "
			"in the BIOS setup\n",
			pci_name(d, loc, sizeof(loc)), d->vendor, d->device);
	}
	d = NULL;
	while ((d = pci_find_class(0x01, 0x06, 0x01, d))) {
		if (ahci_probe(d) == 0)
			found++;
	}
	if (!found)
		pr_info("ahci: no AHCI controller\n");
	return 0;
}
INITCALL(INIT_DRIVER, ahci_init);

/* --- shared with the commands --------------------------------------------------------------- */

/* One line about the port behind @bdev (for lsblk); false if it is not an AHCI disk. */
bool ahci_describe(struct block_device *bdev, char *buf, size_t len)
{
	for (int h = 0; h < nr_hosts; h++)
		for (int no = 0; no < 32; no++) {
			struct ahci_port *p = hosts[h]->ports[no];

			if (!p || &p->bdev != bdev)
				continue;
			snprintf(buf, len,
				 "%s, %s, %s, peak %u in flight, errors %llu, timeouts %llu, "
				 "COMRESETs %llu, retries %llu",
				 p->name,
				 p->state == PORT_DEAD	     ? "offline"
				 : p->state == PORT_RECOVERY ? "recovering"
							     : "running",
				 hosts[h]->poll ? "polled" : "MSI", p->peak_active,
				 (unsigned long long)p->nr_errors,
				 (unsigned long long)p->nr_timeouts,
				 (unsigned long long)p->nr_comresets,
				 (unsigned long long)p->nr_retries);
			return true;
		}
	return false;
}
