/*
 * AHCI SATA driver (AHCI 1.3.1), bring-up: brings up every AHCI controller
 * the PCI scan found and registers each ATA disk with the block layer.
 * The port's register operations are in drivers/ahci-port.c, IDENTIFY
 * DEVICE in drivers/ahci-identify.c, commands in drivers/ahci-cmd.c, error
 * handling in drivers/ahci-eh.c; their shared structures in
 * drivers/ahci-internal.h.
 *
 * Bring-up (ahci_init, INIT_DRIVER): BIOS/OS handoff, HBA reset, AHCI
 * enable, MSI; per implemented port: stop the engines, point the port at a
 * command list, received-FIS area and 32 command tables in page frames,
 * COMRESET when the link is not up, wait for the device, check the
 * signature, start, IDENTIFY DEVICE, register "sdX", attach the disk model
 * when disk_model= names one, and start the port's thread.
 *
 * Also here: the exit summary's AHCI lines and lsblk's line for a port.
 *
 * Parameters: ahci_poll, ahci_ncq, ahci_max_kb, ahci_timeout_ms, ahci_write,
 * disk_model.
 */
#include <stdio.h>
#include <string.h>

#include "drivers/ahci-events.h"
#include "drivers/ahci-internal.h"
#include "drivers/diskmodel-params.h"
#include "kernel/exit.h"
#include "kernel/init.h"
#include "kernel/io.h"
#include "kernel/irq.h"
#include "kernel/log.h"
#include "kernel/param.h"
#include "kernel/summary.h"
#include "kernel/sync.h"
#include "kernel/time.h"
#include "mm/mm.h"

KPARAM(ahci_poll, KV_BOOL, NULL, "1: complete AHCI commands by polling instead of MSI");
KPARAM(ahci_ncq, KV_BOOL, NULL, "0: never use NCQ (READ/WRITE DMA EXT, one at a time)");
KPARAM(ahci_max_kb, KV_UINT, NULL,
       "largest AHCI transfer per command in KiB (4..8160, default 4096 as Linux 6.17+; the "
       "device may lower it)");
KPARAM(ahci_timeout_ms, KV_TIME_MS, NULL,
       "AHCI command timeout in ms (100..600000; default 30000, 10000 under QEMU)");
static const char *const disk_model_names[] = {"none", "hitachi-t7k250", "file", NULL};
KPARAM(disk_model, KV_ENUM, disk_model_names,
       "time every disk by a drive model: hitachi-t7k250 (the seeds' 160 GB Hitachi), file "
       "(the parameter file tools/run-qemu --disk-model PATH passes) or none (default: the "
       "disk times itself)");
KPARAM(ahci_write, KV_BOOL, NULL, "1: allow writes to the disks (scratch disks only!)");

struct ahci_host *hosts[AHCI_MAX_HOSTS];
int nr_hosts;
uint64_t ahci_param(const char *key, uint64_t def)
{
	uint64_t v;

	return param_get_u64(key, &v) == 0 ? v : def;
}

/* --- bring-up -------------------------------------------------------------------- */

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
		struct page *t = alloc_pages(AHCI_CMD_TABLE_ORDER);

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
			free_pages(virt_to_page(port->tables[s]), AHCI_CMD_TABLE_ORDER);
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
	/* interface to active (Linux's ahci_power_up); the HBA clears ICC when done */
	writel((readl(&r->cmd) & ~(0xfu << AHCI_PxCMD_ICC_SHIFT)) | (1u << AHCI_PxCMD_ICC_SHIFT),
	       &r->cmd);
	if (readl(&r->cmd) & AHCI_PxCMD_CPD)
		writel(readl(&r->cmd) | AHCI_PxCMD_POD, &r->cmd);

	if (!link_up(port)) {
		/*
		 * A missed OOB sequence is not a missing disk: try again, as Linux's
		 * hardreset does, giving a present device's Phy longer each time
		 * (an empty port is given up after T_PRESENCE_US each time).
		 */
		static const uint64_t link_us[COMRESET_TRIES] = {T_LINK_US, 10000000, 35000000};

		for (int i = 0; i < COMRESET_TRIES && comreset_wait(port, link_us[i]); i++)
			;
		if (!link_up(port)) {
			uint32_t det = AHCI_SSTS_DET(readl(&r->ssts));
			char pcs[24] = "";

			if (port->host->pdev->vendor == PCI_VENDOR_INTEL)
				snprintf(pcs, sizeof(pcs), "PCS %04x, ",
					 pci_read16(port->host->pdev, PCI_ICH_PCS));
			if (det == AHCI_DET_NONE)
				pr_info("%s: no device (%d COMRESETs; %sPxSSTS %08x, PxSIG %08x)\n",
					port->name, COMRESET_TRIES, pcs, readl(&r->ssts),
					readl(&r->sig));
			else
				pr_err("%s: device present but the link does not come up after %d "
				       "COMRESETs (%sPxSSTS %08x, PxSIG %08x)\n",
				       port->name, COMRESET_TRIES, pcs, readl(&r->ssts),
				       readl(&r->sig));
			return -ENODEV;
		}
	}
	writel(0xffffffffu, &r->serr);
	if (ahci_wait_device_ready(port, ahci_ready_us)) {
		/* one COMRESET for a device stuck busy */
		if (ahci_comreset(port) || ahci_wait_device_ready(port, ahci_ready_us))
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
	uint32_t cap = readl(&h->cap), cap2 = readl(&h->cap2), pi = readl(&h->pi), v;

	writel(readl(&h->ghc) | AHCI_GHC_AE, &h->ghc);
	writel(readl(&h->ghc) | AHCI_GHC_HR, &h->ghc);
	if (ahci_wait_register(&h->ghc, AHCI_GHC_HR, 0, 1000, T_HBA_RESET_US, &v)) {
		pr_err("ahci%d: HBA reset did not complete within 1 s (GHC %08x)\n", host->index,
		       v);
		return -ETIMEDOUT;
	}
	writel(AHCI_GHC_AE, &h->ghc);
	/*
	 * CAP's HwInit bits (SSS, SMPS, ...) and PI are written once by the
	 * BIOS and may be lost in the reset: write back what it left, as
	 * Linux's ahci_restore_initial_config() does (read-only elsewhere).
	 */
	writel(cap, &h->cap);
	if (readl(&h->vs) >= 0x00010200)
		writel(cap2, &h->cap2);
	writel(pi, &h->pi);
	if (!readl(&h->pi)) {
		uint32_t np = (readl(&h->cap) & AHCI_CAP_NP_MASK) + 1;

		pi = np >= 32 ? 0xffffffffu : (1u << np) - 1;
		pr_warn("ahci%d: no ports implemented after reset; forcing PI %08x from CAP.NP\n",
			host->index, pi);
		writel(pi, &h->pi);
	}
	return 0;
}

/* AHCI 1.3.1 section 10.1.2: AE before any other AHCI register; some HBAs need a retry. */
static void ahci_enable(struct ahci_host *host)
{
	volatile struct ahci_hba_regs *h = host->regs;

	for (int i = 0; i < 5; i++) {
		writel(readl(&h->ghc) | AHCI_GHC_AE, &h->ghc);
		if (readl(&h->ghc) & AHCI_GHC_AE)
			return;
		udelay(10000);
	}
	pr_warn("ahci%d: GHC.AE does not stick (GHC %08x)\n", host->index, readl(&h->ghc));
}

static struct ahci_port *ahci_probe_port(struct ahci_host *host, int no)
{
	static bool model_printed;
	struct ahci_port *port = kzalloc(sizeof(*port));
	int err;

	if (!port)
		return NULL;
	port->host = host;
	port->no = no;
	port->regs = &host->regs->ports[no];
	snprintf(port->name, sizeof(port->name), "ahci%d.%d", host->index, no);
	init_waitqueue_head(&port->wq);
	port->timeout_ns =
		ahci_param("ahci_timeout_ms",
			   running_under_qemu() ? AHCI_QEMU_TIMEOUT_MS : AHCI_DEF_TIMEOUT_MS) *
		NSEC_PER_MSEC;
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
	if (param_get_enum("disk_model") > 0) {
		const char *name = disk_model_names[param_get_enum("disk_model")];
		const struct dm_drive *file = strcmp(name, "file") ? NULL : dm_file_drive();

		if (file)
			port->bdev.dmodel = dm_create_drive(file, port->bdev.nr_sectors);
		else if (strcmp(name, "file"))
			port->bdev.dmodel = dm_create(name, port->bdev.nr_sectors);
		if (!port->bdev.dmodel) {
			pr_err("%s: disk_model=%s cannot describe this disk; it stays offline\n",
			       port->name, name);
			init_fail(file || strcmp(name, "file")
					  ? "disk_model: a disk is larger than the modelled drive"
					  : "disk_model=file: no model from the parameter file; "
					    "nothing "
					    "runs");
			goto fail;
		}
		/* the parameters once, with the first disk the model times */
		if (!model_printed) {
			pr_info("diskmodel: %s: %s\n", dm_drive_of(port->bdev.dmodel)->name,
				dm_drive_of(port->bdev.dmodel)->desc);
			dm_print_derived(port->bdev.dmodel, "diskmodel: ");
		}
		model_printed = true;
	}
	err = blk_register_disk(&port->bdev, &ahci_queue_ops, AHCI_MAX_PRDS, 0);
	if (err) {
		pr_err("%s: cannot register the disk: %s\n", port->name, errname(err));
		goto fail;
	}
	/*
	 * A modelled disk's port is looked at only at the modelled times: no
	 * interrupts. No PxIS.INFS either: a non-fatal interface error is only counted.
	 */
	writel(port->bdev.dmodel ? 0
				 : AHCI_PxIS_DHRS | AHCI_PxIS_PSS | AHCI_PxIS_DSS | AHCI_PxIS_SDBS |
					   AHCI_PxIS_UFS | AHCI_PxIS_DPS | AHCI_PxIS_PCS |
					   AHCI_PxIS_PRCS | AHCI_PxIS_OFS | AHCI_PxIS_IFS |
					   AHCI_PxIS_HBDS | AHCI_PxIS_HBFS | AHCI_PxIS_TFES,
	       &port->regs->ie);
	pr_info("%s: %s: %s, serial %s, firmware %s, %llu MiB (%llu sectors of %u bytes), "
		"%s%u, %s, up to %u KiB per command\n",
		port->name, port->bdev.name, port->bdev.model, port->bdev.serial,
		port->bdev.firmware, (unsigned long long)(port->bdev.nr_sectors >> 11),
		(unsigned long long)(port->bdev.nr_sectors >> port->lss_shift),
		port->bdev.logical_sector_size, port->ncq ? "NCQ depth " : "no NCQ, depth ",
		port->bdev.queue_depth, sata_gen(readl(&port->regs->ssts)),
		port->bdev.max_sectors / 2);
	if (port->bdev.dmodel)
		pr_info("%s: %s: timed by the disk model %s (the drive's first %llu of %llu MiB)\n",
			port->name, port->bdev.name, dm_drive_of(port->bdev.dmodel)->name,
			(unsigned long long)(port->bdev.nr_sectors >> 11),
			(unsigned long long)((uint64_t)dm_param(dm_drive_of(port->bdev.dmodel),
								"capacity") /
					     2048));
	return port;
fail:
	if (port->bdev.dmodel)
		dm_destroy(port->bdev.dmodel);
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
	if (pdev->vendor == PCI_VENDOR_INTEL) {
		/*
		 * Intel ICH: a port disabled in PCS never shows a device. The BIOS
		 * should enable every implemented port for an AHCI OS; some leave
		 * empty-at-POST ports off (Linux's ahci_intel_pcs_quirk).
		 */
		uint16_t pcs = pci_read16(pdev, PCI_ICH_PCS);
		uint16_t want = pcs | (uint16_t)(readl(&host->regs->pi) & 0x3f);

		if (want != pcs) {
			pci_write16(pdev, PCI_ICH_PCS, want);
			pr_info("ahci: %s: PCS %04x: port enables set, now %04x\n", loc, pcs,
				pci_read16(pdev, PCI_ICH_PCS));
		}
	}

	ahci_enable(host);
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

/* Mode warnings for the exit summary. */
static char controller_notes[3][96];
static int nr_controller_notes;

static void ahci_note_controller(const char *msg)
{
	if (nr_controller_notes < 3)
		snprintf(controller_notes[nr_controller_notes++], sizeof(controller_notes[0]), "%s",
			 msg);
}

/* The exit summary's AHCI lines: controllers, disks and each port's trouble. */
static void ahci_summary(void)
{
	int disks = 0;

	for (int i = 0; i < nr_controller_notes; i++)
		summary_line("pci: %s", controller_notes[i]);
	for (int h = 0; h < nr_hosts; h++) {
		summary_line("ahci%d: %04x:%04x, %d ports implemented", h, hosts[h]->pdev->vendor,
			     hosts[h]->pdev->device, __builtin_popcount(hosts[h]->pi));
		for (int no = 0; no < 32; no++) {
			struct ahci_port *p = hosts[h]->ports[no];

			if (!p)
				continue;
			disks++;
			summary_line("%s %s: %.24s, %llu MiB, %s: errors %llu, timeouts %llu, "
				     "resets %llu, noted %llu",
				     p->bdev.name, p->name, p->bdev.model,
				     (unsigned long long)(p->bdev.nr_sectors >> 11),
				     p->state == PORT_DEAD ? "OFFLINE" : "running",
				     (unsigned long long)p->nr_errors,
				     (unsigned long long)p->nr_timeouts,
				     (unsigned long long)p->nr_comresets,
				     (unsigned long long)p->nr_noted);
		}
	}
	if (!nr_hosts)
		summary_line("ahci: no AHCI controller%s", nr_controller_notes
								   ? " (see the pci line above)"
								   : " found by the PCI scan");
	else if (!disks)
		summary_line("ahci: no AHCI disk on %d controller(s)", nr_hosts);
}

uint64_t ahci_ready_us = T_DEVICE_READY_US;

static int ahci_init(void)
{
	int found = 0;

	if (running_under_qemu())
		ahci_ready_us = T_QEMU_READY_US;
	summary_register(ahci_summary);
	if (ahci_check_params())
		return -EINVAL;

	for (int i = 0; i < pci_dev_count(); i++) {
		struct pci_dev *d = pci_get_dev(i);
		char loc[16], msg[224];
		uint32_t bar5 = d->header_type == 0 ? pci_read32(d, 0x24) : 0;

		switch (ahci_match_controller(d->vendor, d->device, d->class, d->subclass,
					      d->prog_if, bar5, msg, sizeof(msg))) {
		case AHCI_MATCH_NONE:
			break;
		case AHCI_MATCH_WARN:
			pr_warn("pci %s: %s\n", pci_name(d, loc, sizeof(loc)), msg);
			ahci_note_controller(msg);
			break;
		case AHCI_MATCH_DRIVE:
			if (d->subclass == 0x04)
				pr_info("pci %s: %04x:%04x: Intel SATA in RAID mode, driven as "
					"AHCI "
					"(as Linux does)\n",
					pci_name(d, loc, sizeof(loc)), d->vendor, d->device);
			if (ahci_probe(d) == 0)
				found++;
			break;
		}
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
				 "COMRESETs %llu, retries %llu, noted %llu (SError %08x)",
				 p->name,
				 p->state == PORT_DEAD	     ? "offline"
				 : p->state == PORT_RECOVERY ? "recovering"
							     : "running",
				 hosts[h]->poll ? "polled" : "MSI", p->peak_active,
				 (unsigned long long)p->nr_errors,
				 (unsigned long long)p->nr_timeouts,
				 (unsigned long long)p->nr_comresets,
				 (unsigned long long)p->nr_retries, (unsigned long long)p->nr_noted,
				 p->serr_noted);
			return true;
		}
	return false;
}
