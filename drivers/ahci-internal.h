/*
 * The AHCI driver's own header, shared by its five files:
 *   drivers/ahci.c          controller and port bring-up: BIOS handoff, HBA
 *                           reset, MSI, port memory, the link brought up, disk
 *                           registration; the exit summary and lsblk's line
 *   drivers/ahci-port.c     the port's registers: the bounded register wait,
 *                           PxIS, the engines (ST, FRE), the link and COMRESET
 *   drivers/ahci-identify.c IDENTIFY DEVICE and what its data says of the disk
 *   drivers/ahci-cmd.c      command issue and completion: FIS and PRDT building,
 *                           the block layer's queue_rq, the port thread, the MSI
 *                           handler, and completion at a disk model's times
 *   drivers/ahci-eh.c       error handling: stop, reset, reissue one at a time,
 *                           narrow a failing request down to its sector
 * Register layouts and bit names are in drivers/ahci.h (AHCI 1.3.1).
 */
#ifndef DRIVERS_AHCI_INTERNAL_H
#define DRIVERS_AHCI_INTERNAL_H

#include "drivers/ahci.h"
#include "drivers/blkdev.h"
#include "drivers/diskmodel.h"
#include "drivers/pci.h"
#include "kernel/sched.h"

#define AHCI_MAX_HOSTS	    4
/*
 * Linux's max_sectors for a SATA disk since 6.17: the device's limit, at
 * most BLK_DEF_MAX_SECTORS_CAP = 4 MiB (9b8b84879d4a "block: Increase
 * BLK_DEF_MAX_SECTORS_CAP"), so that a request is what today's kernel
 * would send the same disk (and ra=linux's default window follows it).
 */
#define AHCI_DEF_MAX_KB	    4096
#define AHCI_MAX_KB	    ((AHCI_MAX_PRDS * PAGE_SIZE) / 1024) /* any page layout fits */
/*
 * Command timeout: ATA's 30 s on a real disk (a desktop drive may retry a
 * weak sector for tens of seconds; Linux's default too), 10 s under QEMU.
 */
#define AHCI_DEF_TIMEOUT_MS  30000
#define AHCI_QEMU_TIMEOUT_MS 10000

/* Register-wait bounds (AHCI 1.3.1 sections 10.1.2, 10.4, 10.6). */
#define T_ENGINE_STOP_US  500000   /* PxCMD.CR / FR clear after ST / FRE */
#define T_HBA_RESET_US	  1000000  /* GHC.HR self-clears */
#define T_BOHC_BOS_US	  25000	   /* BIOS releases ownership */
#define T_BOHC_BB_US	  2000000  /* ... or finishes while BIOS busy */
#define T_PRESENCE_US	  20000	   /* DET != 0: a device answered COMRESET */
#define T_LINK_US	  1000000  /* DET = 3: Phy communication established */
#define T_DEVICE_READY_US 31000000 /* BSY/DRQ clear after reset: ATA's 31 s (spin-up) */
#define T_QEMU_READY_US	  10000000 /* ... under QEMU, whose disk never spins up */
#define COMRESET_TRIES	  3	   /* a missed OOB is retried, as Linux's hardreset does */
#define PCI_ICH_PCS	  0x92	   /* Intel ICH "Port Control and Status": port enables */
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
	uint64_t nr_noted;    /* recovered/diagnostic conditions counted, no recovery */
	uint32_t serr_noted;  /* the SError bits seen in them */
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

#define AHCI_WAIT_NE (1ULL << 63) /* or'ed into @timeout_us */

extern struct ahci_host *hosts[AHCI_MAX_HOSTS];
extern int nr_hosts;
extern const struct blk_queue_ops ahci_queue_ops;

uint64_t ahci_param(const char *key, uint64_t def);
/* The BSY/DRQ wait after a reset: T_DEVICE_READY_US, or T_QEMU_READY_US under QEMU. */
extern uint64_t ahci_ready_us;

/* registers and the port's engines (ahci-port.c) */
int ahci_wait_register(volatile uint32_t *reg, uint32_t mask, uint32_t want,
		       unsigned long interval_us, uint64_t timeout_us, uint32_t *last);
uint32_t ahci_take_is(struct ahci_port *port);
void ahci_dump_regs(struct ahci_port *port, const char *why, uint32_t is);
int ahci_port_stop(struct ahci_port *port, bool fis);
int ahci_wait_device_ready(struct ahci_port *port, uint64_t timeout_us);
int ahci_port_start(struct ahci_port *port);
bool link_up(struct ahci_port *port);
/* COMRESET, then up to @link_us for the Phy; bring-up retries with longer waits. */
int comreset_wait(struct ahci_port *port, uint64_t link_us);
int ahci_comreset(struct ahci_port *port);

/* IDENTIFY DEVICE (ahci-identify.c) */
int ahci_identify(struct ahci_port *port);
int ahci_parse_identify(struct ahci_port *port);

/* commands (ahci-cmd.c) */
void fis_set_lba(struct fis_reg_h2d *fis, uint64_t lba);
struct fis_reg_h2d *prep_header(struct ahci_port *port, int slot, uint16_t prdtl, bool write);
int build_rw(struct ahci_port *port, int slot, struct request *rq, uint64_t lsec, uint32_t count,
	     uint64_t byte_off, bool ncq);
int build_request(struct ahci_port *port, int slot, struct request *rq, bool ncq);
int ahci_exec_sync(struct ahci_port *port, int slot, uint64_t timeout_ns, uint32_t *is_out);
void end_slot(struct ahci_port *port, int slot, int status, sector_t error_sector);
int ahci_port_thread(void *arg);
void ahci_irq(int vector, void *data);

/* error handling (ahci-eh.c) */
int ahci_port_restart(struct ahci_port *port, bool comreset);
void ahci_error(struct ahci_port *port, uint32_t is, const char *why, bool timeout);

#endif
