/*
 * PCI (drivers/pci.c): configuration mechanism #1 (ports 0xCF8/0xCFC), a
 * scan of every bus/device/function at boot (pci_init, INIT_SUBSYS) that
 * prints each function, and helpers a driver needs to bring one up: BARs,
 * the command register, capabilities and single-vector MSI.
 *
 *	struct pci_dev *d = pci_get_dev(i);	// i < pci_dev_count(); AHCI: class
 *						// 01:06:01 (drivers/ahci.c)
 *	uint64_t base, size;
 *	if (pci_bar(d, 5, &base, &size) == 0) regs = ioremap_uc(base, size);
 *	pci_enable(d, PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
 *	pci_enable_msi(d, vector);	// -ENODEV without an MSI capability
 */
#ifndef DRIVERS_PCI_H
#define DRIVERS_PCI_H

#include "kernel/types.h"

/* Configuration space offsets (type 0 header). */
#define PCI_VENDOR_ID	    0x00
#define PCI_DEVICE_ID	    0x02
#define PCI_COMMAND	    0x04
#define PCI_STATUS	    0x06
#define PCI_REVISION_ID	    0x08
#define PCI_PROG_IF	    0x09
#define PCI_SUBCLASS	    0x0a
#define PCI_CLASS	    0x0b
#define PCI_HEADER_TYPE	    0x0e
#define PCI_BAR0	    0x10
#define PCI_CAPABILITY_LIST 0x34
#define PCI_INTERRUPT_LINE  0x3c

enum pci_command_bits {
	PCI_COMMAND_IO = 1u << 0,	     /* respond to I/O space accesses */
	PCI_COMMAND_MEMORY = 1u << 1,	     /* respond to memory space accesses */
	PCI_COMMAND_MASTER = 1u << 2,	     /* may master the bus (DMA, MSI writes) */
	PCI_COMMAND_INTX_DISABLE = 1u << 10, /* no legacy INTx assertion */
};

#define PCI_STATUS_CAP_LIST	 (1u << 4) /* a capability list exists */
#define PCI_HEADER_MULTIFUNCTION 0x80

#define PCI_CAP_ID_MSI	      0x05
/* MSI capability: message control and its bits. */
#define PCI_MSI_FLAGS	      0x02
#define PCI_MSI_FLAGS_ENABLE  (1u << 0)
#define PCI_MSI_FLAGS_QSIZE   (7u << 4) /* multiple message enable */
#define PCI_MSI_FLAGS_64BIT   (1u << 7)
#define PCI_MSI_FLAGS_MASKBIT (1u << 8) /* per-vector masking capable */

struct pci_dev {
	uint8_t bus, dev, fn;
	uint16_t vendor, device;
	uint8_t class, subclass, prog_if, revision;
	uint8_t header_type; /* without the multifunction bit */
};

#define PCI_MAX_DEVICES 64

uint8_t pci_read8(const struct pci_dev *d, uint8_t off);
uint16_t pci_read16(const struct pci_dev *d, uint8_t off);
uint32_t pci_read32(const struct pci_dev *d, uint8_t off);
void pci_write16(const struct pci_dev *d, uint8_t off, uint16_t v);
void pci_write32(const struct pci_dev *d, uint8_t off, uint32_t v);

int pci_dev_count(void);
struct pci_dev *pci_get_dev(int i);
/* Memory BAR @bar: base and size; -EINVAL for an I/O, absent or unsized BAR. */
int pci_bar(struct pci_dev *d, int bar, uint64_t *base, uint64_t *size);
/* Set @bits in the command register. */
void pci_enable(struct pci_dev *d, uint16_t bits);
/* Offset of capability @id in the list, or 0 (the walk is bounded against loops). */
uint8_t pci_find_capability(struct pci_dev *d, uint8_t id);
/* Program and enable MSI with one message to @vector; INTx is disabled. */
int pci_enable_msi(struct pci_dev *d, int vector);
/* "bus:dev.fn" for messages. */
const char *pci_name(const struct pci_dev *d, char *buf, size_t len);

#endif
