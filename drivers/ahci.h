/*
 * AHCI 1.3 and SATA/ATA definitions for the AHCI driver (its files are
 * listed in drivers/ahci-internal.h): the HBA's memory registers (ABAR,
 * PCI BAR5), the in-memory command list, command tables, PRDs and
 * received-FIS area the HBA reads and writes by DMA, the FISes,
 * and the ATA commands and IDENTIFY DEVICE words the driver uses. Names
 * follow the AHCI 1.3.1 specification (section numbers in the comments) and
 * ATA8-ACS, so each can be looked up there.
 */
#ifndef DRIVERS_AHCI_H
#define DRIVERS_AHCI_H

#include <assert.h>

#include "kernel/types.h"

/* --- 3.3 Port registers (one 0x80-byte block per port at ABAR + 0x100) --- */

struct ahci_port_regs {
	uint32_t clb;	    /* 0x00 command list base (1 KiB aligned) */
	uint32_t clbu;	    /* 0x04 upper 32 bits */
	uint32_t fb;	    /* 0x08 FIS base (256-byte aligned) */
	uint32_t fbu;	    /* 0x0c upper 32 bits */
	uint32_t is;	    /* 0x10 interrupt status (RWC) */
	uint32_t ie;	    /* 0x14 interrupt enable */
	uint32_t cmd;	    /* 0x18 command and status */
	uint32_t rsv0;	    /* 0x1c */
	uint32_t tfd;	    /* 0x20 task file data: ERR << 8 | STS */
	uint32_t sig;	    /* 0x24 signature of the attached device */
	uint32_t ssts;	    /* 0x28 SStatus */
	uint32_t sctl;	    /* 0x2c SControl */
	uint32_t serr;	    /* 0x30 SError (RWC) */
	uint32_t sact;	    /* 0x34 SActive: NCQ tags outstanding */
	uint32_t ci;	    /* 0x38 commands issued */
	uint32_t sntf;	    /* 0x3c SNotification */
	uint32_t fbs;	    /* 0x40 FIS-based switching control */
	uint32_t devslp;    /* 0x44 device sleep */
	uint32_t rsv1[10];  /* 0x48 */
	uint32_t vendor[4]; /* 0x70 */
};
static_assert(sizeof(struct ahci_port_regs) == 0x80, "AHCI port registers are 0x80 bytes");

/* --- 3.1 Generic host control --- */

struct ahci_hba_regs {
	uint32_t cap;	    /* 0x00 host capabilities */
	uint32_t ghc;	    /* 0x04 global host control */
	uint32_t is;	    /* 0x08 interrupt status: one bit per port (RWC) */
	uint32_t pi;	    /* 0x0c ports implemented */
	uint32_t vs;	    /* 0x10 version */
	uint32_t ccc_ctl;   /* 0x14 command completion coalescing control */
	uint32_t ccc_ports; /* 0x18 */
	uint32_t em_loc;    /* 0x1c enclosure management location */
	uint32_t em_ctl;    /* 0x20 */
	uint32_t cap2;	    /* 0x24 extended capabilities */
	uint32_t bohc;	    /* 0x28 BIOS/OS handoff control and status */
	uint8_t rsv[0xa0 - 0x2c];
	uint8_t vendor[0x100 - 0xa0];
	struct ahci_port_regs ports[32];
};
static_assert(offsetof(struct ahci_hba_regs, bohc) == 0x28, "BOHC at 0x28");
static_assert(offsetof(struct ahci_hba_regs, ports) == 0x100, "port 0 at ABAR + 0x100");
static_assert(sizeof(struct ahci_hba_regs) == 0x1100, "ABAR spans 0x1100 bytes");

enum ahci_cap {
	AHCI_CAP_NP_MASK = 0x1f,   /* number of ports - 1 */
	AHCI_CAP_SXS = 1u << 5,	   /* supports external SATA */
	AHCI_CAP_EMS = 1u << 6,	   /* supports enclosure management */
	AHCI_CAP_CCCS = 1u << 7,   /* supports command completion coalescing */
	AHCI_CAP_NCS_SHIFT = 8,	   /* bits 12:8: command slots - 1 */
	AHCI_CAP_PSC = 1u << 13,   /* partial state capable */
	AHCI_CAP_SSC = 1u << 14,   /* slumber state capable */
	AHCI_CAP_PMD = 1u << 15,   /* PIO multiple DRQ block */
	AHCI_CAP_FBSS = 1u << 16,  /* supports FIS-based switching */
	AHCI_CAP_SPM = 1u << 17,   /* supports port multipliers */
	AHCI_CAP_SAM = 1u << 18,   /* supports AHCI mode only (GHC.AE reads 1) */
	AHCI_CAP_ISS_SHIFT = 20,   /* bits 23:20: interface speed support */
	AHCI_CAP_SCLO = 1u << 24,  /* supports command list override */
	AHCI_CAP_SAL = 1u << 25,   /* supports activity LED */
	AHCI_CAP_SALP = 1u << 26,  /* supports aggressive link power management */
	AHCI_CAP_SSS = 1u << 27,   /* supports staggered spin-up */
	AHCI_CAP_SMPS = 1u << 28,  /* supports mechanical presence switch */
	AHCI_CAP_SSNTF = 1u << 29, /* supports SNotification */
	AHCI_CAP_SNCQ = 1u << 30,  /* supports native command queuing */
	AHCI_CAP_S64A = 1u << 31,  /* supports 64-bit addressing */
};

enum ahci_ghc {
	AHCI_GHC_HR = 1u << 0,	 /* HBA reset (self-clearing) */
	AHCI_GHC_IE = 1u << 1,	 /* interrupt enable */
	AHCI_GHC_MRSM = 1u << 2, /* MSI revert to single message */
	AHCI_GHC_AE = 1u << 31,	 /* AHCI enable */
};

enum ahci_cap2 {
	AHCI_CAP2_BOH = 1u << 0,  /* supports BIOS/OS handoff */
	AHCI_CAP2_NVMP = 1u << 1, /* NVMHCI present */
	AHCI_CAP2_APST = 1u << 2, /* automatic partial to slumber */
	AHCI_CAP2_SDS = 1u << 3,  /* supports device sleep */
	AHCI_CAP2_SADM = 1u << 4, /* supports aggressive device sleep management */
	AHCI_CAP2_DESO = 1u << 5, /* device sleep entrance from slumber only */
};

enum ahci_bohc {
	AHCI_BOHC_BOS = 1u << 0,  /* BIOS owned semaphore */
	AHCI_BOHC_OOS = 1u << 1,  /* OS owned semaphore */
	AHCI_BOHC_SOOE = 1u << 2, /* SMI on OS ownership change enable */
	AHCI_BOHC_OOC = 1u << 3,  /* OS ownership change (RWC) */
	AHCI_BOHC_BB = 1u << 4,	  /* BIOS busy: cleanup in progress */
};

/* 3.3.5 PxIS and 3.3.6 PxIE share these bits. */
enum ahci_port_irq {
	AHCI_PxIS_DHRS = 1u << 0,  /* device to host register FIS received */
	AHCI_PxIS_PSS = 1u << 1,   /* PIO setup FIS received */
	AHCI_PxIS_DSS = 1u << 2,   /* DMA setup FIS received */
	AHCI_PxIS_SDBS = 1u << 3,  /* set device bits FIS received (NCQ completion) */
	AHCI_PxIS_UFS = 1u << 4,   /* unknown FIS received */
	AHCI_PxIS_DPS = 1u << 5,   /* a PRD with the I bit completed */
	AHCI_PxIS_PCS = 1u << 6,   /* port connect change (PxSERR.DIAG.X) */
	AHCI_PxIS_DMPS = 1u << 7,  /* device mechanical presence change */
	AHCI_PxIS_PRCS = 1u << 22, /* PhyRdy change (PxSERR.DIAG.N) */
	AHCI_PxIS_IPMS = 1u << 23, /* incorrect port multiplier status */
	AHCI_PxIS_OFS = 1u << 24,  /* overflow: more data than the PRDT holds */
	AHCI_PxIS_INFS = 1u << 26, /* interface non-fatal error */
	AHCI_PxIS_IFS = 1u << 27,  /* interface fatal error */
	AHCI_PxIS_HBDS = 1u << 28, /* host bus data error */
	AHCI_PxIS_HBFS = 1u << 29, /* host bus fatal error */
	AHCI_PxIS_TFES = 1u << 30, /* task file error: the device set STS.ERR */
	AHCI_PxIS_CPDS = 1u << 31, /* cold port detect status */
};

/* Errors after which the HBA stopped processing the list (section 6.1). */
#define AHCI_PxIS_FATAL                                                                     \
	(AHCI_PxIS_TFES | AHCI_PxIS_HBFS | AHCI_PxIS_HBDS | AHCI_PxIS_IFS | AHCI_PxIS_OFS | \
	 AHCI_PxIS_IPMS | AHCI_PxIS_UFS)
#define AHCI_PxIS_ERROR (AHCI_PxIS_FATAL | AHCI_PxIS_INFS)
#define AHCI_PxIS_LINK	(AHCI_PxIS_PCS | AHCI_PxIS_PRCS)

enum ahci_port_cmd {
	AHCI_PxCMD_ST = 1u << 0,     /* start: process the command list */
	AHCI_PxCMD_SUD = 1u << 1,    /* spin-up device */
	AHCI_PxCMD_POD = 1u << 2,    /* power on device (cold presence detect) */
	AHCI_PxCMD_CLO = 1u << 3,    /* command list override: clear BSY/DRQ */
	AHCI_PxCMD_FRE = 1u << 4,    /* FIS receive enable */
	AHCI_PxCMD_CCS_SHIFT = 8,    /* bits 12:8: current command slot */
	AHCI_PxCMD_MPSS = 1u << 13,  /* mechanical presence switch state */
	AHCI_PxCMD_FR = 1u << 14,    /* FIS receive running */
	AHCI_PxCMD_CR = 1u << 15,    /* command list running */
	AHCI_PxCMD_CPS = 1u << 16,   /* cold presence state */
	AHCI_PxCMD_PMA = 1u << 17,   /* port multiplier attached */
	AHCI_PxCMD_HPCP = 1u << 18,  /* hot plug capable port */
	AHCI_PxCMD_MPSP = 1u << 19,  /* mechanical presence switch attached */
	AHCI_PxCMD_CPD = 1u << 20,   /* cold presence detection */
	AHCI_PxCMD_ESP = 1u << 21,   /* external SATA port */
	AHCI_PxCMD_FBSCP = 1u << 22, /* FIS-based switching capable port */
	AHCI_PxCMD_APSTE = 1u << 23, /* automatic partial to slumber enable */
	AHCI_PxCMD_ATAPI = 1u << 24, /* device is ATAPI */
	AHCI_PxCMD_DLAE = 1u << 25,  /* drive LED on ATAPI enable */
	AHCI_PxCMD_ALPE = 1u << 26,  /* aggressive link power management enable */
	AHCI_PxCMD_ASP = 1u << 27,   /* aggressive slumber / partial */
	AHCI_PxCMD_ICC_SHIFT = 28,   /* bits 31:28: interface communication control */
};

/* PxTFD.STS: the ATA status register. */
enum ata_status {
	ATA_STS_ERR = 1u << 0,	/* error: the ERR field holds why */
	ATA_STS_DRQ = 1u << 3,	/* data request */
	ATA_STS_DF = 1u << 5,	/* device fault */
	ATA_STS_DRDY = 1u << 6, /* device ready */
	ATA_STS_BSY = 1u << 7,	/* busy */
};

/* ATA error register (PxTFD bits 15:8). */
enum ata_error {
	ATA_ERR_ABRT = 1u << 2, /* command aborted */
	ATA_ERR_IDNF = 1u << 4, /* address not found */
	ATA_ERR_UNC = 1u << 6,	/* uncorrectable data error */
	ATA_ERR_ICRC = 1u << 7, /* interface CRC error */
};

/* 3.3.10 PxSSTS fields. */
#define AHCI_SSTS_DET(v) ((v)&0xf)
#define AHCI_SSTS_SPD(v) (((v) >> 4) & 0xf)
#define AHCI_SSTS_IPM(v) (((v) >> 8) & 0xf)
enum ahci_ssts_det {
	AHCI_DET_NONE = 0,    /* no device, no Phy communication */
	AHCI_DET_PRESENT = 1, /* device present, Phy not established */
	AHCI_DET_PHY = 3,     /* device present and Phy communication established */
	AHCI_DET_OFFLINE = 4, /* Phy offline: interface disabled or BIST */
};
#define AHCI_IPM_ACTIVE 1

/* 3.3.11 PxSCTL. */
enum ahci_sctl {
	AHCI_SCTL_DET_COMRESET = 1u << 0, /* DET = 1: perform interface initialization */
	AHCI_SCTL_DET_MASK = 0xfu,
	AHCI_SCTL_IPM_NONE = 3u << 8, /* no transitions to partial or slumber */
};

/* 3.3.12 PxSERR: ERR (15:0) and DIAG (31:16). */
enum ahci_serr {
	AHCI_SERR_ERR_I = 1u << 0,   /* recovered data integrity error */
	AHCI_SERR_ERR_M = 1u << 1,   /* recovered communications error */
	AHCI_SERR_ERR_T = 1u << 8,   /* transient data integrity error */
	AHCI_SERR_ERR_C = 1u << 9,   /* persistent communication or data integrity error */
	AHCI_SERR_ERR_P = 1u << 10,  /* protocol error */
	AHCI_SERR_ERR_E = 1u << 11,  /* internal error */
	AHCI_SERR_DIAG_N = 1u << 16, /* PhyRdy change */
	AHCI_SERR_DIAG_I = 1u << 17, /* Phy internal error */
	AHCI_SERR_DIAG_W = 1u << 18, /* comm wake */
	AHCI_SERR_DIAG_B = 1u << 19, /* 10B to 8B decode error */
	AHCI_SERR_DIAG_D = 1u << 20, /* disparity error */
	AHCI_SERR_DIAG_C = 1u << 21, /* CRC error */
	AHCI_SERR_DIAG_H = 1u << 22, /* handshake error */
	AHCI_SERR_DIAG_S = 1u << 23, /* link sequence error */
	AHCI_SERR_DIAG_T = 1u << 24, /* transport state transition error */
	AHCI_SERR_DIAG_F = 1u << 25, /* unknown FIS type */
	AHCI_SERR_DIAG_X = 1u << 26, /* exchanged: COMINIT received (device changed) */
};

/* 3.3.9 PxSIG values (the device's first D2H FIS). */
enum ahci_signature {
	SATA_SIG_ATA = 0x00000101,   /* SATA disk */
	SATA_SIG_ATAPI = 0xeb140101, /* SATAPI device */
	SATA_SIG_SEMB = 0xc33c0101,  /* enclosure management bridge */
	SATA_SIG_PM = 0x96690101,    /* port multiplier */
};

/* --- 4.2 System memory structures --- */

/* 4.2.2 Command header: one of 32 in the 1 KiB command list. */
struct ahci_cmd_header {
	uint16_t flags; /* CFL, A, W, P, R, B, C, PMP: enum ahci_cmd_header_flags */
	uint16_t prdtl; /* PRD table length in entries */
	uint32_t prdbc; /* PRD byte count transferred (written by the HBA) */
	uint32_t ctba;	/* command table base (128-byte aligned) */
	uint32_t ctbau;
	uint32_t rsv[4];
};
static_assert(sizeof(struct ahci_cmd_header) == 32, "AHCI command header is 32 bytes");

enum ahci_cmd_header_flags {
	AHCI_CMD_CFL_MASK = 0x1f, /* command FIS length in dwords (2..16) */
	AHCI_CMD_A = 1u << 5,	  /* ATAPI */
	AHCI_CMD_W = 1u << 6,	  /* write: host to device */
	AHCI_CMD_P = 1u << 7,	  /* prefetchable */
	AHCI_CMD_R = 1u << 8,	  /* reset (SRST) */
	AHCI_CMD_B = 1u << 9,	  /* BIST */
	AHCI_CMD_C = 1u << 10,	  /* clear busy upon R_OK */
};

/* 4.2.3.3 Physical region descriptor. */
struct ahci_prd {
	uint32_t dba; /* data base address (word aligned) */
	uint32_t dbau;
	uint32_t rsv;
	uint32_t dbc_i; /* bits 21:0 byte count - 1 (odd: even lengths), bit 31 I */
};
static_assert(sizeof(struct ahci_prd) == 16, "AHCI PRD is 16 bytes");

#define AHCI_PRD_I	   (1u << 31) /* interrupt when this PRD is done */
#define AHCI_PRD_MAX_BYTES (4u << 20) /* 22-bit byte count */

/*
 * 4.2.3 Command table: CFIS, ACMD, then the PRDT. Ours is 32 KiB, enough
 * for 2040 PRDs: an 8 MiB request even when every page is discontiguous
 * (Linux's default for a SATA disk is 4 MiB: BLK_DEF_MAX_SECTORS_CAP).
 */
#define AHCI_CMD_TABLE_SIZE  32768
#define AHCI_CMD_TABLE_ORDER 3
#define AHCI_MAX_PRDS	    ((AHCI_CMD_TABLE_SIZE - 0x80) / sizeof(struct ahci_prd))

struct ahci_cmd_table {
	uint8_t cfis[64]; /* command FIS */
	uint8_t acmd[16]; /* ATAPI command */
	uint8_t rsv[48];
	struct ahci_prd prdt[AHCI_MAX_PRDS];
};
static_assert(offsetof(struct ahci_cmd_table, prdt) == 0x80, "PRDT at command table + 0x80");
static_assert(sizeof(struct ahci_cmd_table) == AHCI_CMD_TABLE_SIZE, "command table size");

/* --- SATA FISes (SATA 3.x section 10.5) --- */

enum sata_fis_type {
	FIS_TYPE_REG_H2D = 0x27,   /* register, host to device */
	FIS_TYPE_REG_D2H = 0x34,   /* register, device to host */
	FIS_TYPE_DMA_ACT = 0x39,   /* DMA activate */
	FIS_TYPE_DMA_SETUP = 0x41, /* DMA setup */
	FIS_TYPE_DATA = 0x46,	   /* data */
	FIS_TYPE_BIST = 0x58,	   /* BIST activate */
	FIS_TYPE_PIO_SETUP = 0x5f, /* PIO setup */
	FIS_TYPE_DEV_BITS = 0xa1,  /* set device bits */
};

struct fis_reg_h2d {
	uint8_t fis_type; /* FIS_TYPE_REG_H2D */
	uint8_t pmport_c; /* bits 3:0 port multiplier port, bit 7 C: command register update */
	uint8_t command;
	uint8_t featurel;
	uint8_t lba0, lba1, lba2;
	uint8_t device; /* bit 6: LBA addressing; NCQ: bit 7 FUA */
	uint8_t lba3, lba4, lba5;
	uint8_t featureh;
	uint8_t countl; /* NCQ: bits 7:3 hold the tag */
	uint8_t counth;
	uint8_t icc;
	uint8_t control;
	uint8_t aux[4];
};
static_assert(sizeof(struct fis_reg_h2d) == 20, "register H2D FIS is 5 dwords");
#define FIS_H2D_C      0x80
#define ATA_DEVICE_LBA 0x40

struct fis_reg_d2h {
	uint8_t fis_type; /* FIS_TYPE_REG_D2H */
	uint8_t pmport_i; /* bit 6 I: interrupt */
	uint8_t status;
	uint8_t error;
	uint8_t lba0, lba1, lba2;
	uint8_t device;
	uint8_t lba3, lba4, lba5;
	uint8_t rsv0;
	uint8_t countl, counth;
	uint8_t rsv1[6];
};
static_assert(sizeof(struct fis_reg_d2h) == 20, "register D2H FIS is 5 dwords");

struct fis_pio_setup {
	uint8_t fis_type;  /* FIS_TYPE_PIO_SETUP */
	uint8_t pmport_di; /* bit 5 D: device to host, bit 6 I */
	uint8_t status;
	uint8_t error;
	uint8_t lba0, lba1, lba2;
	uint8_t device;
	uint8_t lba3, lba4, lba5;
	uint8_t rsv0;
	uint8_t countl, counth;
	uint8_t rsv1;
	uint8_t e_status;
	uint16_t tc; /* transfer count */
	uint8_t rsv2[2];
};
static_assert(sizeof(struct fis_pio_setup) == 20, "PIO setup FIS is 5 dwords");

struct fis_dma_setup {
	uint8_t fis_type; /* FIS_TYPE_DMA_SETUP */
	uint8_t pmport_dia;
	uint8_t rsv0[2];
	uint32_t dma_buffer_id_lo, dma_buffer_id_hi;
	uint32_t rsv1;
	uint32_t dma_buffer_offset;
	uint32_t transfer_count;
	uint32_t rsv2;
};
static_assert(sizeof(struct fis_dma_setup) == 28, "DMA setup FIS is 7 dwords");

struct fis_dev_bits {
	uint8_t fis_type; /* FIS_TYPE_DEV_BITS */
	uint8_t pmport_ni;
	uint8_t status; /* bits 6:4 high, 2:0 low status bits */
	uint8_t error;
	uint32_t sactive; /* NCQ: tags completed */
};
static_assert(sizeof(struct fis_dev_bits) == 8, "set device bits FIS is 2 dwords");

/* 4.2.1 Received FIS structure (256-byte aligned). */
struct ahci_rx_fis {
	struct fis_dma_setup dsfis; /* 0x00 */
	uint8_t pad0[4];
	struct fis_pio_setup psfis; /* 0x20 */
	uint8_t pad1[12];
	struct fis_reg_d2h rfis; /* 0x40 */
	uint8_t pad2[4];
	struct fis_dev_bits sdbfis; /* 0x58 */
	uint8_t ufis[64];	    /* 0x60 */
	uint8_t rsv[0x100 - 0xa0];
};
static_assert(offsetof(struct ahci_rx_fis, psfis) == 0x20, "PSFIS at 0x20");
static_assert(offsetof(struct ahci_rx_fis, rfis) == 0x40, "RFIS at 0x40");
static_assert(offsetof(struct ahci_rx_fis, sdbfis) == 0x58, "SDBFIS at 0x58");
static_assert(offsetof(struct ahci_rx_fis, ufis) == 0x60, "UFIS at 0x60");
static_assert(sizeof(struct ahci_rx_fis) == 256, "received FIS area is 256 bytes");

/* --- ATA commands (ATA8-ACS) --- */

enum ata_command {
	ATA_CMD_READ_DMA_EXT = 0x25,
	ATA_CMD_READ_LOG_EXT = 0x2f,
	ATA_CMD_WRITE_DMA_EXT = 0x35,
	ATA_CMD_READ_FPDMA_QUEUED = 0x60,
	ATA_CMD_WRITE_FPDMA_QUEUED = 0x61,
	ATA_CMD_IDENTIFY_DEVICE = 0xec,
	ATA_CMD_FLUSH_CACHE_EXT = 0xea,
};

/* IDENTIFY DEVICE words used here. */
enum ata_identify_word {
	ATA_ID_CONFIG = 0,		  /* bit 15: 0 for ATA devices */
	ATA_ID_SERIAL = 10,		  /* 10-19: serial number, 20 ASCII chars */
	ATA_ID_FW_REV = 23,		  /* 23-26: firmware revision, 8 chars */
	ATA_ID_MODEL = 27,		  /* 27-46: model number, 40 chars */
	ATA_ID_CAPABILITY = 49,		  /* bit 9: LBA, bit 8: DMA */
	ATA_ID_LBA28_CAPACITY = 60,	  /* 60-61 */
	ATA_ID_QUEUE_DEPTH = 75,	  /* bits 4:0: maximum queue depth - 1 */
	ATA_ID_SATA_CAPABILITY = 76,	  /* bit 8: NCQ; bits 3:1: Gen3/Gen2/Gen1 */
	ATA_ID_COMMAND_SET_2 = 83,	  /* bit 10: 48-bit address, bit 13: FLUSH CACHE EXT */
	ATA_ID_CFS_ENABLE_2 = 86,	  /* bit 10: 48-bit address enabled */
	ATA_ID_LBA48_CAPACITY = 100,	  /* 100-103 */
	ATA_ID_SECTOR_SIZE = 106,	  /* bit 14 valid, bit 12 long logical sectors */
	ATA_ID_LOGICAL_SECTOR_SIZE = 117, /* 117-118: words per logical sector */
	ATA_ID_INTEGRITY = 255,		  /* bits 7:0 0xa5, 15:8 checksum */
};

/* --- the driver (drivers/ahci.c) --- */

struct block_device;
/* One line about the AHCI port behind @bdev (for lsblk); false if it is not one. */
bool ahci_describe(struct block_device *bdev, char *buf, size_t len);

#endif
