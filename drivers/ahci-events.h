/*
 * What a port's interrupt status means (drivers/ahci-events.c,
 * host-buildable). Real SATA links set recovered and diagnostic SError bits
 * with no command failing; each recovery costs a COMRESET and skews a
 * benchmark, so only what means a failed command or a lost link starts
 * recovery, as Linux libahci and Intel's PxSERR description have it:
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

#endif
