/*
 * What the driver decides from what the hardware says
 * (drivers/ahci-events.c, host-buildable): which PCI functions it drives,
 * and what a port's interrupt status means. Real SATA links set recovered
 * and diagnostic SError bits with no command failing; each recovery costs a
 * COMRESET and skews a benchmark, so only what means a failed command or a
 * lost link starts recovery, as Linux libahci and Intel's PxSERR description have it:
 *  - the fatal PxIS bits (task file, host bus data and fatal, interface
 *    fatal, overflow, bad port multiplier status, unknown FIS);
 *  - a link change (PxIS.PCS, PxIS.PRCS);
 *  - SError ERR bits 11:8 (transient data integrity, persistent
 *    communication, protocol, internal), which stop the transfer;
 *  - a FIS that just arrived with STS.ERR (how QEMU 7.2 reports a failed
 *    NCQ command).
 * The rest (PxIS.INFS, SError ERR.I/M and DIAG bits) is counted and cleared.
 */
#ifndef DRIVERS_AHCI_EVENTS_H
#define DRIVERS_AHCI_EVENTS_H

#include "kernel/types.h"

enum ahci_event_class {
	AHCI_EV_NONE,	 /* nothing wrong */
	AHCI_EV_NOTE,	 /* a recovered or diagnostic condition: count it, clear it */
	AHCI_EV_RECOVER, /* a failed command or a lost link: stop, reset, reissue */
};

/* SError bits that stop the current transfer (ERR.T, ERR.C, ERR.P, ERR.E). */
#define AHCI_SERR_STOPS 0x00000f00u

/*
 * Classify PxIS @is and PxSERR @serr seen together with PxTFD @tfd. *@why
 * (if given) names the reason for AHCI_EV_RECOVER and AHCI_EV_NOTE.
 */
enum ahci_event_class ahci_classify(uint32_t is, uint32_t serr, uint32_t tfd, const char **why);

/*
 * Which PCI disk controllers the driver takes. AHCI (class 01:06:01) is
 * driven; so is an Intel controller in RAID mode (class 01:04, e.g.
 * 8086:2822) with a memory BAR5, which is AHCI underneath (Linux drives it
 * as AHCI). Any other disk controller not in AHCI mode gets one line naming
 * vendor, device and mode and what to set in the BIOS; a PATA function
 * (JMicron's, next to its AHCI one) is only named.
 */
enum ahci_match {
	AHCI_MATCH_NONE,  /* not a disk controller: say nothing */
	AHCI_MATCH_DRIVE, /* drive it as AHCI */
	AHCI_MATCH_WARN,  /* a disk controller in another mode: @msg says what to do */
};

#define PCI_VENDOR_INTEL   0x8086
#define PCI_VENDOR_JMICRON 0x197b

/* @bar5: the raw BAR5 register (bit 0 set: an I/O BAR). @msg gets one line, no newline. */
enum ahci_match ahci_match_controller(uint16_t vendor, uint16_t device, uint8_t class,
				      uint8_t subclass, uint8_t prog_if, uint32_t bar5, char *msg,
				      size_t len);

#endif
