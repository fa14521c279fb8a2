/*
 * Classifying a port's interrupt and error status (see drivers/ahci-events.h).
 */
#include <stdio.h>

#include "drivers/ahci-events.h"
#include "drivers/ahci.h"

static const char *vendor_name(uint16_t vendor)
{
	switch (vendor) {
	case PCI_VENDOR_INTEL:
		return "Intel ";
	case PCI_VENDOR_JMICRON:
		return "JMicron ";
	case 0x1002:
		return "ATI ";
	case 0x10de:
		return "NVIDIA ";
	case 0x1106:
		return "VIA ";
	case 0x1039:
		return "SiS ";
	case 0x1b4b:
	case 0x11ab:
		return "Marvell ";
	default:
		return "";
	}
}

enum ahci_match ahci_match_controller(uint16_t vendor, uint16_t device, uint8_t class,
				      uint8_t subclass, uint8_t prog_if, uint32_t bar5, char *msg,
				      size_t len)
{
	const char *v = vendor_name(vendor);
	bool bar5_mem = bar5 && !(bar5 & 1);

	msg[0] = 0;
	if (class != 0x01)
		return AHCI_MATCH_NONE;
	switch (subclass) {
	case 0x06: /* SATA */
		if (prog_if == 0x01)
			return AHCI_MATCH_DRIVE;
		snprintf(msg, len,
			 "%s%04x:%04x is a SATA controller with programming interface %02x, not "
			 "AHCI (01): set the SATA mode to AHCI in the BIOS setup",
			 v, vendor, device, prog_if);
		return AHCI_MATCH_WARN;
	case 0x04: /* RAID */
		if (vendor == PCI_VENDOR_INTEL && bar5_mem)
			return AHCI_MATCH_DRIVE;
		snprintf(msg, len,
			 "%s%04x:%04x is a disk controller in RAID mode (class 01:04)%s: lookahead "
			 "drives SATA disks through AHCI; set the SATA mode to AHCI in the BIOS setup",
			 v, vendor, device, vendor == PCI_VENDOR_INTEL ? " without a memory BAR5" : "");
		return AHCI_MATCH_WARN;
	case 0x01: /* IDE */
		if (vendor == PCI_VENDOR_JMICRON) {
			snprintf(msg, len,
				 "%s%04x:%04x is a PATA (IDE) function: not driven; attach the disk "
				 "to a SATA port in AHCI mode",
				 v, vendor, device);
			return AHCI_MATCH_WARN;
		}
		snprintf(msg, len,
			 "%s%04x:%04x is a disk controller in IDE mode (class 01:01): lookahead "
			 "drives SATA disks only through AHCI; set the SATA mode to AHCI in the BIOS "
			 "setup (not IDE, Compatible, Enhanced or RAID)",
			 v, vendor, device);
		return AHCI_MATCH_WARN;
	default:
		return AHCI_MATCH_NONE;
	}
}

enum ahci_event_class ahci_classify(uint32_t is, uint32_t serr, uint32_t tfd, const char **why)
{
	const char *w = NULL;
	enum ahci_event_class c = AHCI_EV_NONE;

	if (is & AHCI_PxIS_TFES)
		w = "task file error";
	else if (is & (AHCI_PxIS_HBFS | AHCI_PxIS_HBDS))
		w = "host bus error";
	else if (is & AHCI_PxIS_IFS)
		w = "interface fatal error";
	else if (is & AHCI_PxIS_OFS)
		w = "overflow";
	else if (is & (AHCI_PxIS_IPMS | AHCI_PxIS_UFS))
		w = "unexpected FIS";
	else if (is & AHCI_PxIS_LINK)
		w = "link change";
	else if (serr & AHCI_SERR_STOPS)
		w = "SError stopped the transfer";
	else if ((is & (AHCI_PxIS_SDBS | AHCI_PxIS_DHRS | AHCI_PxIS_PSS)) && (tfd & ATA_STS_ERR))
		w = "device error status";
	if (w) {
		c = AHCI_EV_RECOVER;
	} else if ((is & AHCI_PxIS_INFS) || serr) {
		c = AHCI_EV_NOTE;
		w = is & AHCI_PxIS_INFS ? "interface non-fatal error" : "recovered SError";
	}
	if (why)
		*why = w;
	return c;
}
